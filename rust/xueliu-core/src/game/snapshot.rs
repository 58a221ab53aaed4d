//! The full snapshot: `to_json` / `from_json`, restoring exactly (RNG state, hidden decisions
//! and the log included). `from_json` trusts nothing: every field is read with its path in the
//! error, derived values (claims, forced wins, cached waits, scores of wins) are recomputed, and
//! the result must pass every invariant and have someone to act.

use super::events::{Direction, EndReason, KongKind, WinKind};
use super::history::{Exchanged, History};
use super::json_in::*;
use super::json_out::{rules_json, Object, Raw, ToJson};
use super::replay::snapshot_events;
use super::state::{after, holds, take, River, Seat, Wall};
use super::value::score_win;
use super::verify::MAX_SNAPSHOT_BYTES;
use super::{
    Action, ExchangeRecord, Game, KongRecord, Pending, Responses, Turn, TurnKind, WinRecord,
};
use crate::choice::choice;
use crate::error::Error;
use crate::meld::Meld;
use crate::rng::Rng;
use crate::rules::Rules;
use crate::score::Situation;
use crate::tile::{Tile, KINDS};
use crate::Choice;
use serde_json::Value;
use std::sync::Arc;

/// Snapshot format version; `from_json` rejects others.
const VERSION: u64 = 1;

fn bits_to_tiles(bits: u32) -> Vec<Tile> {
    Tile::all().filter(|t| bits & 1 << t.index() != 0).collect()
}

struct MeldJson(Meld);

impl ToJson for MeldJson {
    fn write_json(&self, out: &mut String) {
        Object::new(out)
            .field("kind", self.0.kind.name())
            .field("tile", &self.0.tile)
            .field("wilds", &self.0.wilds)
            .end();
    }
}

fn melds_json(melds: &[Option<Meld>; 4]) -> Vec<MeldJson> {
    melds.iter().flatten().map(|&m| MeldJson(m)).collect()
}

impl ToJson for Action {
    fn write_json(&self, out: &mut String) {
        self.to_string().write_json(out);
    }
}

choice! {
    /// The `phase` of a snapshot's pending decision.
    enum PendingPhase {
        Exchange = "exchange",
        Void = "void",
        Turn = "turn",
        Respond = "respond",
        Over = "over",
    }
}

impl Game {
    /// A full snapshot as JSON text.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        let rules = rules_json(&self.rules);
        let seats: Vec<String> = self.seats.iter().map(seat_json).collect();
        let seats_raw: Vec<Raw> = seats.iter().map(|s| Raw(s)).collect();
        let river_text: Vec<String> = self
            .river
            .entries()
            .iter()
            .map(|(s, t)| format!("[{s}, \"{t}\"]"))
            .collect();
        let river_raw: Vec<Raw> = river_text.iter().map(|s| Raw(s)).collect();
        let wins: Vec<String> = self.wins.iter().map(win_json).collect();
        let wins_raw: Vec<Raw> = wins.iter().map(|s| Raw(s)).collect();
        let kongs: Vec<String> = self.kongs.iter().map(kong_json).collect();
        let kongs_raw: Vec<Raw> = kongs.iter().map(|s| Raw(s)).collect();
        let pending = self.pending_json();
        let exchanged = self.exchanged().map(exchange_json);
        let history = history_json(&self.history);
        let events = self.events_json(None);
        let mut o = Object::new(&mut out);
        o.field("version", &VERSION)
            .field("rules", &Raw(&rules))
            .field("seed", &self.seed)
            .field("rng", &self.rng.state())
            .field("dealer", &self.dealer)
            .field("wall", self.wall.live())
            .field("seats", &seats_raw)
            .field("river", &river_raw)
            .field("pending", &Raw(&pending))
            .field("claimed", &self.claimed)
            .field("wins", &wins_raw)
            .field("kongs", &kongs_raw)
            .field("exchange", &exchanged.as_deref().map(Raw))
            .field("scores", &self.scores)
            .field("end", &self.end.map(super::events::EndReason::name))
            .field("leaver", &self.leaver())
            .field("history", &Raw(&history))
            .field("logging", &self.log.is_some())
            .field("events", &Raw(&events));
        o.end();
        out
    }

    fn pending_json(&self) -> String {
        let mut out = String::new();
        let mut o = Object::new(&mut out);
        match &self.pending {
            Pending::Exchange(picks) => {
                let picks: Vec<Option<Action>> =
                    picks.iter().map(|p| p.map(Action::Exchange)).collect();
                o.field("phase", PendingPhase::Exchange.name())
                    .field("picks", &picks);
            }
            Pending::Void(picks) => {
                o.field("phase", PendingPhase::Void.name())
                    .field("picks", picks);
            }
            Pending::Turn(t) => {
                o.field("phase", PendingPhase::Turn.name())
                    .field("seat", &t.seat)
                    .field("kind", t.kind.name())
                    .field("drawn", &t.drawn)
                    .field("kong", &t.kong)
                    .field("last_four", &t.last_four);
            }
            Pending::Respond(r) => {
                o.field("phase", PendingPhase::Respond.name())
                    .field("from", &r.from)
                    .field("tile", &r.tile)
                    .field("kong", &r.kong.map(|(k, _)| k.name()))
                    .field("late", &r.kong.is_some_and(|(_, late)| late))
                    .field("decisions", &r.decisions)
                    .field("after_kong", &r.after_kong);
            }
            Pending::Over => {
                o.field("phase", PendingPhase::Over.name());
            }
        }
        o.end();
        out
    }
}

fn seat_json(s: &Seat) -> String {
    let mut out = String::new();
    let arrival: &[u16] = &s.arrival;
    Object::new(&mut out)
        .field("hand", &s.hand)
        .field("melds", &melds_json(&s.melds))
        .field("pong_with_three", &bits_to_tiles(s.pong_with_three))
        .field("root_only_kongs", &bits_to_tiles(s.root_only_kongs))
        .field("direct_kongs", &bits_to_tiles(s.direct_kongs))
        .field("void", &s.void)
        .field("turn", &s.turn)
        .field("arrival", arrival)
        .field("draws", &s.draws)
        .field("wins", &s.wins)
        .field("declined", &s.declined)
        .end();
    out
}

fn win_json(w: &WinRecord) -> String {
    let mut out = String::new();
    let f = w.flags;
    let mut flags = String::new();
    Object::new(&mut flags)
        .field("self_draw", &f.self_draw)
        .field("kong_flower", &f.kong_flower)
        .field("kong_shot", &f.kong_shot)
        .field("robbed_kong", &f.robbed_kong)
        .field("heavenly", &f.heavenly)
        .field("earthly", &f.earthly)
        .end();
    Object::new(&mut out)
        .field("seat", &w.seat)
        .field("tile", &w.tile)
        .field("from", &w.from)
        .field("kind", w.kind.name())
        .field("hand", &w.hand)
        .field("melds", &melds_json(&w.melds))
        .field("root_only_kongs", &bits_to_tiles(w.root_only_kongs))
        .field("flags", &Raw(&flags))
        .field("feeder", &w.feeder)
        .field("shared", &w.shared)
        .end();
    out
}

fn history_json(h: &History) -> String {
    let mut out = String::new();
    let exchange = h.exchange.map(|e| {
        let mut out = String::new();
        Object::new(&mut out)
            .field("direction", e.direction.name())
            .field("given", &e.given)
            .end();
        out
    });
    let discarded: Vec<Vec<Tile>> = h
        .discarded
        .iter()
        .map(|counts| {
            Tile::all()
                .flat_map(|t| std::iter::repeat_n(t, counts[t.index()] as usize))
                .collect()
        })
        .collect();
    Object::new(&mut out)
        .field("exchange", &exchange.as_deref().map(Raw))
        .field("discarded", &discarded)
        .field("last_discard", &h.last_discard)
        .field("drawn_since_discard", &h.drawn_since_discard)
        .end();
    out
}

/// The public record; a snapshot without one (written before it existed) gets the discards
/// still on the table and no deductions.
fn history_from(v: Option<&Value>, path: &str, river: &River) -> R<History> {
    let Some(v) = v else {
        let mut h = History::default();
        for &(seat, t) in river.entries() {
            h.note_discard(seat, t);
        }
        h.last_discard = [None; 4];
        return Ok(h);
    };
    let at = At { value: v, path };
    let mut h = History::default();
    let (x, p) = at.field("exchange")?;
    h.exchange = opt(x, |x| {
        let at = At { value: x, path: &p };
        let (d, dp) = at.field("direction")?;
        let direction: Direction = choice(d, &dp)?;
        let (g, gp) = at.field("given")?;
        let list = array(g, &gp)?;
        if list.len() != 4 {
            return Err(format!("{gp}: expected four picks, one per seat"));
        }
        let mut given = [[Tile::new(0).expect("1m"); 3]; 4];
        for (i, x) in list.iter().enumerate() {
            let ip = format!("{gp}[{i}]");
            match tiles(x, &ip)?[..] {
                [a, b, c] => given[i] = [a, b, c],
                _ => return err(&ip, "three tiles", x),
            }
            given[i].sort_unstable();
        }
        Ok(Exchanged { direction, given })
    })?;
    let (x, p) = at.field("discarded")?;
    let list = array(x, &p)?;
    if list.len() != 4 {
        return Err(format!("{p}: expected four lists, one per seat"));
    }
    for (i, x) in list.iter().enumerate() {
        h.discarded[i] = *counts(x, &format!("{p}[{i}]"))?.array();
    }
    let (x, p) = at.field("last_discard")?;
    let list = array(x, &p)?;
    if list.len() != 4 {
        return Err(format!("{p}: expected four entries, one per seat"));
    }
    for (i, x) in list.iter().enumerate() {
        h.last_discard[i] = opt(x, |x| tile(x, &format!("{p}[{i}]")))?;
    }
    let (x, p) = at.field("drawn_since_discard")?;
    let list = array(x, &p)?;
    if list.len() != 4 {
        return Err(format!("{p}: expected four counts, one per seat"));
    }
    for (i, x) in list.iter().enumerate() {
        h.drawn_since_discard[i] = uint(x, &format!("{p}[{i}]"), 108)? as u8;
    }
    for (i, seat) in h.discarded.iter().enumerate() {
        let on_table = river.of(i as u8).fold([0u8; KINDS], |mut c, t| {
            c[t.index()] += 1;
            c
        });
        if seat.iter().zip(on_table).any(|(&all, table)| all < table) {
            return Err(format!(
                "{path}.discarded[{i}]: fewer discards than lie on the table"
            ));
        }
    }
    Ok(h)
}

fn sorted(mut pick: [Tile; 3]) -> [Tile; 3] {
    pick.sort_unstable();
    pick
}

fn kong_json(k: &KongRecord) -> String {
    let mut out = String::new();
    Object::new(&mut out)
        .field("owner", &k.owner)
        .field("tile", &k.tile)
        .field("kind", k.kind.name())
        .field("feeder", &k.feeder)
        .field("paid", &k.paid)
        .field("transferred", &k.transferred)
        .end();
    out
}

fn exchange_json(x: ExchangeRecord) -> String {
    let mut out = String::new();
    Object::new(&mut out)
        .field("direction", x.direction.name())
        .field("given", &x.given)
        .field("received", &x.received)
        .end();
    out
}

/// The resolved exchange, or `None`; snapshots written before the field existed lack it. Read
/// for snapshots without `history`; otherwise checked, and the one in `history` stands.
fn exchange_from(snapshot: &Value, path: &str) -> R<Option<ExchangeRecord>> {
    let Some(v) = snapshot.get("exchange") else {
        return Ok(None);
    };
    let path = format!("{path}.exchange");
    opt(v, |v| {
        let at = At {
            value: v,
            path: &path,
        };
        let (x, p) = at.field("direction")?;
        let direction: Direction = choice(x, &p)?;
        let lists = |key: &str| -> R<[[Tile; 3]; 4]> {
            let (x, p) = at.field(key)?;
            let list = array(x, &p)?;
            let mut out = [[Tile::new(0).expect("1m"); 3]; 4];
            if list.len() != 4 {
                return Err(format!("{p}: expected four lists of three tiles"));
            }
            for (i, l) in list.iter().enumerate() {
                let lp = format!("{p}[{i}]");
                out[i] = match tiles(l, &lp)?[..] {
                    [a, b, c] => [a, b, c],
                    _ => return err(&lp, "three tiles", l),
                };
            }
            Ok(out)
        };
        let (given, received) = (lists("given")?, lists("received")?);
        if (0..4u8).any(|g| received[after(g, direction.steps()) as usize] != given[g as usize]) {
            return Err(format!(
                "{path}: each seat receives what the seat before it in the direction gave"
            ));
        }
        Ok(ExchangeRecord {
            direction,
            given,
            received,
        })
    })
}

fn seat_from(v: &Value, path: &str, wilds: bool) -> R<Seat> {
    let at = At { value: v, path };
    let f = |key: &str| at.field(key);
    let mut s = Seat::EMPTY;
    let (x, p) = f("hand")?;
    s.hand = hand(x, &p, wilds)?;
    let (x, p) = f("melds")?;
    s.melds = melds(x, &p, wilds)?;
    s.rebuild_summary();
    let (x, p) = f("pong_with_three")?;
    s.pong_with_three = tile_bits(x, &p)?;
    let (x, p) = f("root_only_kongs")?;
    s.root_only_kongs = tile_bits(x, &p)?;
    let (x, p) = f("direct_kongs")?;
    s.direct_kongs = tile_bits(x, &p)?;
    let (x, p) = f("void")?;
    s.void = opt(x, |x| suit(x, &p))?;
    let (x, p) = f("turn")?;
    s.turn = uint(x, &p, 10_000)? as u16;
    let (x, p) = f("arrival")?;
    let arrival = array(x, &p)?;
    if arrival.len() != KINDS {
        return Err(format!("{p}: expected 27 turn numbers"));
    }
    for (i, a) in arrival.iter().enumerate() {
        s.arrival[i] = uint(a, &format!("{p}[{i}]"), 10_000)? as u16;
    }
    let (x, p) = f("draws")?;
    s.draws = uint(x, &p, 200)? as u8;
    let (x, p) = f("wins")?;
    s.wins = uint(x, &p, 200)? as u8;
    let (x, p) = f("declined")?;
    s.declined = opt(x, |x| uint(x, &p, 10_000).map(|n| n as u32))?;
    Ok(s)
}

fn pending_from(v: &Value, path: &str, game: &Game) -> R<Pending> {
    let at = At { value: v, path };
    let (phase, pp) = at.field("phase")?;
    let four = |key: &str| -> R<(Vec<Value>, String)> {
        let (x, p) = at.field(key)?;
        let list = array(x, &p)?;
        if list.len() != 4 {
            return Err(format!("{p}: expected four entries, one per seat"));
        }
        Ok((list.clone(), p))
    };
    Ok(match choice(phase, &pp)? {
        PendingPhase::Exchange => {
            let (list, p) = four("picks")?;
            let mut picks = [None; 4];
            for (i, x) in list.iter().enumerate() {
                let xp = format!("{p}[{i}]");
                picks[i] = opt(x, |x| match action(x, &xp)? {
                    Action::Exchange(t) => Ok(t),
                    _ => err(&xp, "an exchange like \"exchange 123m\"", x),
                })?;
            }
            Pending::Exchange(picks)
        }
        PendingPhase::Void => {
            let (list, p) = four("picks")?;
            let mut picks = [None; 4];
            for (i, x) in list.iter().enumerate() {
                picks[i] = opt(x, |x| suit(x, &format!("{p}[{i}]")))?;
            }
            Pending::Void(picks)
        }
        PendingPhase::Turn => {
            let (x, p) = at.field("seat")?;
            let seat = seat_num(x, &p)?;
            let (x, p) = at.field("kind")?;
            let kind: TurnKind = choice(x, &p)?;
            let (x, p) = at.field("drawn")?;
            let drawn = opt(x, |x| tile(x, &p))?;
            let (x, p) = at.field("kong")?;
            let kong = opt(x, |x| {
                uint(x, &p, game.kongs.len().saturating_sub(1) as u64)
            })?;
            if kong.is_some() && game.kongs.is_empty() {
                return Err(format!("{p}: names a kong but none stood"));
            }
            let (x, p) = at.field("last_four")?;
            let last_four = boolean(x, &p)?;
            let needs_draw = matches!(kind, TurnKind::Draw | TurnKind::Replacement);
            if needs_draw != drawn.is_some() || (kind == TurnKind::Replacement) != kong.is_some() {
                return Err(format!(
                        "{path}: a draw or replacement turn names its drawn tile (and a replacement its kong); others name neither"
                    ));
            }
            Pending::Turn(Turn {
                seat,
                kind,
                drawn,
                kong: kong.map(|k| k as u16),
                last_four,
            })
        }
        PendingPhase::Respond => respond_from(&at, game)?,
        PendingPhase::Over => Pending::Over,
    })
}

/// Claims and forced wins are recomputed from the state, which has not changed since the
/// discard or kong; stored decisions must be among the legal ones.
fn respond_from(at: &At<'_>, game: &Game) -> R<Pending> {
    let (x, p) = at.field("from")?;
    let from = seat_num(x, &p)?;
    let (x, p) = at.field("tile")?;
    let tile = tile(x, &p)?;
    let (x, p) = at.field("kong")?;
    let kind: Option<KongKind> = opt(x, |x| choice(x, &p))?;
    if kind == Some(KongKind::Direct) {
        return Err(format!("{p}: a direct kong is never robbed"));
    }
    let (x, p) = at.field("late")?;
    let late = boolean(x, &p)?;
    let (x, p) = at.field("after_kong")?;
    let after_kong = opt(x, |x| uint(x, &p, u64::from(u16::MAX)))?;
    if after_kong.is_some_and(|k| k as usize >= game.kongs.len())
        || (after_kong.is_some() && kind.is_some())
    {
        return Err(format!("{p}: names no kong that stood before this discard"));
    }
    let mut r = Responses {
        from,
        tile,
        kong: kind.map(|k| (k, late)),
        claims: [0; 4],
        forced: 0,
        decisions: [None; 4],
        after_kong: after_kong.map(|k| k as u16),
    };
    for other in (0..4).filter(|&o| o != from) {
        r.claims[other as usize] = match kind {
            None => game.discard_claims(other, tile, r.after_kong.is_some()),
            Some(k) if k == KongKind::Added || game.rules.rob_concealed_kong => {
                game.rob_claims(other, tile)
            }
            Some(_) => 0,
        };
    }
    let (x, p) = at.field("decisions")?;
    let list = array(x, &p)?;
    if list.len() != 4 {
        return Err(format!("{p}: expected four entries, one per seat"));
    }
    let mut decisions = [None; 4];
    for (i, d) in list.iter().enumerate() {
        decisions[i] = opt(d, |d| action(d, &format!("{p}[{i}]")))?;
    }
    let mut probe = game.clone();
    probe.open_responses(r, game.wall.remaining() <= 4);
    let Pending::Respond(mut opened) = probe.pending else {
        return Err(format!(
            "{}: nobody may claim {tile}, so nothing waits",
            at.path
        ));
    };
    for seat in 0..4u8 {
        if let Some(d) = decisions[seat as usize] {
            if !probe.is_legal(seat, d) {
                return Err(format!("{p}[{seat}]: {d} is not a legal response here"));
            }
        }
    }
    opened.decisions = decisions;
    if (0..4).all(|i| opened.claims[i] == 0 || opened.decisions[i].is_some()) {
        return Err(format!(
            "{p}: every decision is in, so the responses would have resolved"
        ));
    }
    Ok(Pending::Respond(opened))
}

fn win_from(v: &Value, path: &str, rules: &Rules) -> R<WinRecord> {
    let at = At { value: v, path };
    let (x, p) = at.field("seat")?;
    let seat = seat_num(x, &p)?;
    let (x, p) = at.field("tile")?;
    let win_tile = tile(x, &p)?;
    let (x, p) = at.field("from")?;
    let from = opt(x, |x| seat_num(x, &p))?;
    let (x, p) = at.field("kind")?;
    let kind: WinKind = choice(x, &p)?;
    if (kind == WinKind::SelfDraw) != from.is_none() {
        return Err(format!(
            "{path}: a self-drawn win has no from; other wins do"
        ));
    }
    let (x, p) = at.field("hand")?;
    let hand = self::hand(x, &p, rules.wilds)?;
    let (x, p) = at.field("melds")?;
    let melds = melds(x, &p, rules.wilds)?;
    let (x, p) = at.field("root_only_kongs")?;
    let root_only_kongs = tile_bits(x, &p)?;
    let (fl, fp) = at.field("flags")?;
    let fat = At {
        value: fl,
        path: &fp,
    };
    let flag = |key: &str| -> R<bool> {
        let (x, p) = fat.field(key)?;
        boolean(x, &p)
    };
    let flags = Situation {
        self_draw: flag("self_draw")?,
        kong_flower: flag("kong_flower")?,
        kong_shot: flag("kong_shot")?,
        robbed_kong: flag("robbed_kong")?,
        heavenly: flag("heavenly")?,
        earthly: flag("earthly")?,
    };
    let (x, p) = at.field("feeder")?;
    let feeder = opt(x, |x| seat_num(x, &p))?;
    let (x, p) = at.field("shared")?;
    let shared = boolean(x, &p)?;
    let mut winner = Seat::EMPTY;
    winner.hand = hand;
    winner.melds = melds;
    winner.root_only_kongs = root_only_kongs;
    winner.rebuild_summary();
    let size = hand.len() + 3 * winner.meld_summary.sets as usize;
    let wild_win = rules.is_wild(win_tile);
    // A non-dealer dealt four wilds wins on its 13 tiles: 12 and the wild it names (§11).
    let dealt_four_wilds = wild_win && hand.wilds() == 3 && size == 12 && kind == WinKind::SelfDraw;
    let fifth = if wild_win {
        hand.wilds() >= 4
    } else {
        hand.count(win_tile) >= 4
    };
    if (size != 13 && !dealt_four_wilds)
        || winner.meld_summary.check_copies(&hand).is_err()
        || fifth
    {
        return Err(format!(
            "{path}: the hand before a win holds 13 tiles counting melds as three"
        ));
    }
    let score = score_win(rules, &winner, win_tile, flags);
    Ok(WinRecord {
        seat,
        tile: win_tile,
        from,
        kind,
        hand,
        melds,
        root_only_kongs,
        flags,
        feeder,
        score,
        shared,
    })
}

fn kong_from(v: &Value, path: &str) -> R<KongRecord> {
    let at = At { value: v, path };
    let (x, p) = at.field("owner")?;
    let owner = seat_num(x, &p)?;
    let (x, p) = at.field("tile")?;
    let tile = tile(x, &p)?;
    let (x, p) = at.field("kind")?;
    let kind: KongKind = choice(x, &p)?;
    let (x, p) = at.field("feeder")?;
    let feeder = opt(x, |x| seat_num(x, &p))?;
    let (x, p) = at.field("paid")?;
    let list = array(x, &p)?;
    if list.len() != 4 {
        return Err(format!("{p}: expected four amounts"));
    }
    let mut paid = [0i64; 4];
    for (i, a) in list.iter().enumerate() {
        paid[i] = uint(a, &format!("{p}[{i}]"), 1 << 40)? as i64;
    }
    let (x, p) = at.field("transferred")?;
    let transferred = boolean(x, &p)?;
    Ok(KongRecord {
        owner,
        tile,
        kind,
        feeder,
        paid,
        transferred,
    })
}

impl Game {
    /// Restores a snapshot written by [`Game::to_json`], verified: it must be a consistent
    /// game, and the game its seed, rules and decisions (its event log, and the decisions still
    /// pending) produce; otherwise an error naming the first field that disagrees.
    pub fn from_json(text: &str) -> Result<Game, Error> {
        Game::restore(text, true)
    }

    /// Restores a snapshot trusting that it is what its seed and decisions produce: it is
    /// checked to be a consistent game (108 tiles, hand sizes, legal pending decisions, wins
    /// scored as their hands score), not replayed. For snapshots from a trusted store, and for
    /// those no seed produces: determinised copies, crafted positions, games without a log.
    pub fn from_json_trusted(text: &str) -> Result<Game, Error> {
        Game::restore(text, false)
    }

    fn restore(text: &str, verify: bool) -> Result<Game, Error> {
        let bad = |e: String| Error::Snapshot(format!("bad snapshot: {e}"));
        if text.len() > MAX_SNAPSHOT_BYTES {
            return Err(bad(format!(
                "{} bytes, more than any hand writes (at most {MAX_SNAPSHOT_BYTES})",
                text.len()
            )));
        }
        let value: Value = serde_json::from_str(text)
            .map_err(|e| Error::Snapshot(format!("snapshot is not JSON: {e}")))?;
        let game = Game::from_value(&value).map_err(bad)?;
        if verify {
            game.verified(&value, text).map_err(bad)
        } else {
            Ok(game)
        }
    }

    fn from_value(v: &Value) -> R<Game> {
        let at = At {
            value: v,
            path: "snapshot",
        };
        let f = |key: &str| at.field(key);
        let (x, p) = f("version")?;
        if uint(x, &p, u64::MAX)? != VERSION {
            return Err(format!("{p}: this engine reads version {VERSION}"));
        }
        let (x, _) = f("rules")?;
        let rules = Arc::new(rules_from(x)?);
        super::playable(&rules).map_err(|e| format!("rules: {e}"))?;
        let (x, p) = f("seed")?;
        let seed = uint(x, &p, u64::MAX)?;
        let (x, p) = f("rng")?;
        let rng = Rng::new(uint(x, &p, u64::MAX)?);
        let (x, p) = f("dealer")?;
        let dealer = seat_num(x, &p)?;
        let (x, p) = f("wall")?;
        let live = tiles(x, &p)?;
        if live.len() > super::WALL_SIZE {
            return Err(format!("{p}: more than 108 tiles"));
        }
        let mut wall = Wall::sorted();
        wall.tiles[..live.len()].copy_from_slice(&live);
        wall.front = 0;
        wall.back = live.len() as u8;
        let (x, p) = f("seats")?;
        let list = array(x, &p)?;
        if list.len() != 4 {
            return Err(format!("{p}: expected four seats"));
        }
        let mut seats = [Seat::EMPTY; 4];
        for (i, s) in list.iter().enumerate() {
            seats[i] = seat_from(s, &format!("{p}[{i}]"), rules.wilds)?;
        }
        let (x, p) = f("river")?;
        let mut river = River::new();
        let entries = array(x, &p)?;
        if entries.len() > super::WALL_SIZE {
            return Err(format!("{p}: more than 108 discards"));
        }
        for (i, e) in entries.iter().enumerate() {
            let ep = format!("{p}[{i}]");
            match e.as_array().map(Vec::as_slice) {
                Some([s, t]) => river.push(seat_num(s, &ep)?, tile(t, &ep)?),
                _ => return err(&ep, "a [seat, tile] pair", e),
            }
        }
        let (x, p) = f("claimed")?;
        let claimed = boolean(x, &p)?;
        let (x, p) = f("kongs")?;
        let kongs = array(x, &p)?
            .iter()
            .enumerate()
            .map(|(i, k)| kong_from(k, &format!("{p}[{i}]")))
            .collect::<R<Vec<_>>>()?;
        let (x, p) = f("wins")?;
        let wins = array(x, &p)?
            .iter()
            .enumerate()
            .map(|(i, w)| win_from(w, &format!("{p}[{i}]"), &rules))
            .collect::<R<Vec<_>>>()?;
        let exchanged = exchange_from(v, "snapshot")?;
        let (x, p) = f("scores")?;
        let list = array(x, &p)?;
        if list.len() != 4 {
            return Err(format!("{p}: expected four scores"));
        }
        let mut scores = [0i64; 4];
        for (i, s) in list.iter().enumerate() {
            scores[i] = int(s, &format!("{p}[{i}]"))?;
            if scores[i].abs() > crate::points::MAX_TOTAL {
                return Err(format!("{p}[{i}]: out of range"));
            }
        }
        let (x, p) = f("end")?;
        let lp = "snapshot.leaver";
        let leaver = opt_field(v, "leaver")
            .map(|x| seat_num(x, lp))
            .transpose()?;
        let end = opt(x, |x| {
            EndReason::of(choice(x, &p)?, leaver)
                .ok_or(format!("{lp}: an abandoned hand names its leaver"))
        })?;
        if leaver.is_some() && !matches!(end, Some(EndReason::Abandoned(_))) {
            return Err(format!("{lp}: only an abandoned hand has a leaver"));
        }
        let mut history = history_from(v.get("history"), "snapshot.history", &river)?;
        if v.get("history").is_none() {
            // Older snapshots kept the exchange only at the top level.
            history.exchange = exchanged.map(|x| Exchanged {
                direction: x.direction,
                given: x.given.map(sorted),
            });
        }
        let (x, p) = f("logging")?;
        let logging = boolean(x, &p)?;
        let mut game = Game {
            rules,
            seed,
            rng,
            dealer,
            wall,
            seats,
            river,
            pending: Pending::Over,
            claimed,
            wins,
            kongs,
            scores,
            end,
            history,
            log: None,
        };
        game.check_records()?;
        // Claims read the cached waits: refresh them before and after the pending decision.
        game.refresh_cached_waits();
        let (x, p) = f("pending")?;
        game.pending = pending_from(x, &p, &game)?;
        game.refresh_cached_waits();
        game.check_invariants()?;
        game.check_pending()?;
        let (x, p) = f("events")?;
        if logging {
            game.log = Some(snapshot_events(x, &p, &game)?);
        } else if !array(x, &p)?.is_empty() {
            return Err(format!("{p}: a game without logging has no events"));
        }
        Ok(game)
    }

    /// Recomputes the waits kept per seat (see `Seat::waits`).
    pub(super) fn refresh_cached_waits(&mut self) {
        let rules = self.rules.clone();
        let on_move = match self.pending {
            Pending::Turn(t) => Some(t),
            _ => None,
        };
        for (i, s) in self.seats.iter_mut().enumerate() {
            let mut waiting = *s;
            if let Some(t) = on_move.filter(|t| t.seat as usize == i) {
                match t.drawn.filter(|&d| holds(&s.hand, d)) {
                    Some(d) if t.kind == TurnKind::Draw => take(&mut waiting.hand, d),
                    _ => continue,
                }
            }
            waiting.refresh_waits(&rules);
            s.waits = waiting.waits;
        }
    }
}
