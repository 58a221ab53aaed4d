//! The full snapshot: `to_json` / `from_json`, restoring exactly (RNG state, hidden decisions
//! and the log included). `from_json` trusts nothing: serde reads every field into the game's
//! own types, an error naming its path; one pass then checks and rebuilds the game, recomputing
//! derived values (claims, forced wins, cached waits, scores of wins), and the result must pass
//! every invariant and have someone to act.

use super::events::{EndKind, EndReason, Event, KongKind, WinKind};
use super::history::{Exchanged, History};
use super::replay::snapshot_events;
use super::rules_json;
use super::state::{River, Seat, Wall};
use super::value::score_win;
use super::verify::MAX_SNAPSHOT_BYTES;
use super::wire::{read, seat, to_text, wilded, SeatNo, Within};
use super::{
    Action, ExchangeRecord, Game, KongRecord, Pending, Responses, Turn, TurnKind, WinRecord,
};
use crate::error::Error;
use crate::meld::Meld;
use crate::rng::Rng;
use crate::rules::{KongIncomeTransfer, Rules, WinReveal};
use crate::tile::{Suit, Tile};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;

type R<T> = Result<T, String>;

/// Snapshot format version; `from_json` rejects others.
const VERSION: u64 = 1;

/// A snapshot as written; fields added since version 1 may be left out by older ones. Its log
/// is written from the game's (`E`) and read as events.
#[derive(Serialize, Deserialize)]
struct Snapshot<'a, E> {
    version: u64,
    #[serde(with = "rules_json::rules")]
    rules: Arc<Rules>,
    seed: u64,
    rng: u64,
    #[serde(deserialize_with = "seat")]
    dealer: u8,
    wall: Vec<Tile>,
    seats: Cow<'a, [Seat; 4]>,
    river: Vec<(SeatNo, Tile)>,
    pending: PendingWire,
    claimed: bool,
    wins: Cow<'a, [WinRecord]>,
    kongs: Cow<'a, [KongRecord]>,
    /// The resolved exchange; checked, and kept only for snapshots without `history`.
    exchange: Option<ExchangeRecord>,
    scores: [i64; 4],
    end: Option<EndKind>,
    #[serde(default, deserialize_with = "seat")]
    leaver: Option<u8>,
    history: Option<History>,
    logging: bool,
    events: E,
}

/// The pending decision: a turn as the game keeps it; picks written as actions; responses
/// without the claims and forced wins, which a restore recomputes.
#[derive(Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
enum PendingWire {
    Exchange {
        picks: [Option<Action>; 4],
    },
    Void {
        picks: [Option<Suit>; 4],
    },
    Turn(Turn),
    Respond {
        #[serde(deserialize_with = "seat")]
        from: u8,
        tile: Tile,
        kong: Option<KongKind>,
        late: bool,
        decisions: [Option<Action>; 4],
        after_kong: Option<u16>,
    },
    Over,
}

impl Game {
    /// A full snapshot as JSON text.
    pub fn to_json(&self) -> String {
        to_text(&Snapshot {
            version: VERSION,
            rules: self.rules.clone(),
            seed: self.seed,
            rng: self.rng.state(),
            dealer: self.dealer,
            wall: self.wall.live().to_vec(),
            seats: Cow::Borrowed(&self.seats),
            river: (self.river.entries().iter())
                .map(|&(s, t)| (Within(s), t))
                .collect(),
            pending: self.pending_wire(),
            claimed: self.claimed,
            wins: Cow::Borrowed(&self.wins),
            kongs: Cow::Borrowed(&self.kongs),
            exchange: self.exchanged(),
            scores: self.scores,
            end: self.end.map(EndReason::kind),
            leaver: self.leaver(),
            history: Some(self.history),
            logging: self.log.is_some(),
            events: self.log_wire(),
        })
    }

    fn pending_wire(&self) -> PendingWire {
        match self.pending {
            Pending::Exchange(picks) => PendingWire::Exchange {
                picks: picks.map(|p| p.map(Action::Exchange)),
            },
            Pending::Void(picks) => PendingWire::Void { picks },
            Pending::Turn(t) => PendingWire::Turn(t),
            Pending::Respond(r) => PendingWire::Respond {
                from: r.from,
                tile: r.tile,
                kong: r.kong.map(|(k, _)| k),
                late: r.kong.is_some_and(|(_, late)| late),
                decisions: r.decisions,
                after_kong: r.after_kong,
            },
            Pending::Over => PendingWire::Over,
        }
    }
}

/// Melds the state allows: one per tile, and wilds only under the `wilds` rules, in a meld of
/// another tile, as many as its kind holds (§11).
fn check_melds(melds: &[Option<Meld>; 4], path: &str, wilds_allowed: bool) -> R<()> {
    let mut seen = 0u32;
    for (i, m) in melds.iter().flatten().enumerate() {
        // A pong holds at most one wild, an exposed kong two, a concealed kong three.
        let most = [1, 2, 3][m.kind as usize];
        if m.wilds > 0 && (!wilds_allowed || m.tile == Tile::YAOJI || m.wilds > most) {
            return Err(format!(
                "{path}[{i}].wilds: wilds only in the 幺鸡 variant, in a meld of another tile, at most {most} in this {}",
                ["pong", "kong", "concealed kong"][m.kind as usize]
            ));
        }
        if seen & 1 << m.tile.index() != 0 {
            return Err(format!("{path}: two melds of {}", m.tile));
        }
        seen |= 1 << m.tile.index();
    }
    Ok(())
}

/// A seat as read: its `1s` wilds where the rules have them, its melds checked, its summary
/// rebuilt.
fn checked_seat(mut s: Seat, path: &str, wilds: bool) -> R<Seat> {
    s.hand = wilded(s.hand, &format!("{path}.hand"), wilds)?;
    check_melds(&s.melds, &format!("{path}.melds"), wilds)?;
    s.rebuild_summary();
    Ok(s)
}

/// A win as read, its score recomputed from its hand, which must be a hand before a win.
fn scored(mut w: WinRecord, path: &str, rules: &Rules) -> R<WinRecord> {
    if (w.kind == WinKind::SelfDraw) != w.from.is_none() {
        return Err(format!(
            "{path}: a self-drawn win has no from; other wins do"
        ));
    }
    let deferred = rules.win_reveal == WinReveal::HandEnd;
    if w.owed[w.seat as usize] != 0 || (!deferred && w.owed != [0; 4]) {
        return Err(format!(
            "{path}.owed: only other seats owe a win, and only under win_reveal = \"hand_end\""
        ));
    }
    w.hand = wilded(w.hand, &format!("{path}.hand"), rules.wilds)?;
    check_melds(&w.melds, &format!("{path}.melds"), rules.wilds)?;
    let (hand, tile) = (w.hand, w.tile);
    let mut winner = Seat::EMPTY;
    winner.hand = hand;
    winner.melds = w.melds;
    winner.root_only_kongs = w.root_only_kongs;
    winner.rebuild_summary();
    let size = hand.len() + 3 * winner.meld_summary.sets as usize;
    let wild_win = rules.is_wild(tile);
    // A non-dealer dealt four wilds wins on its 13 tiles: 12 and the wild it names (§11).
    let dealt_four_wilds =
        wild_win && hand.wilds() == 3 && size == 12 && w.kind == WinKind::SelfDraw;
    let fifth = if wild_win {
        hand.wilds() >= 4
    } else {
        hand.count(tile) >= 4
    };
    if (size != 13 && !dealt_four_wilds)
        || winner.meld_summary.check_copies(&hand).is_err()
        || fifth
    {
        return Err(format!(
            "{path}: the hand before a win holds 13 tiles counting melds as three"
        ));
    }
    w.score = score_win(rules, &winner, tile, w.flags);
    Ok(w)
}

/// The resolved exchange, if each seat received what the seat before it in the direction gave.
fn exchange_checked(x: Option<ExchangeRecord>) -> R<Option<ExchangeRecord>> {
    match x {
        Some(x) if (0..4).any(|g| x.received[super::state::after(g, x.direction.steps()) as usize] != x.given[g as usize]) => Err(
            "snapshot.exchange: each seat receives what the seat before it in the direction gave".into(),
        ),
        x => Ok(x),
    }
}

/// The public record, whose discards must include those still on the table; a snapshot without
/// one (written before it existed) gets the discards still on the table, no deductions, and the
/// exchange it kept at the top level.
fn history_of(
    given: Option<History>,
    river: &River,
    exchange: Option<ExchangeRecord>,
) -> R<History> {
    let mut h = given.unwrap_or_else(|| {
        let mut h = History::default();
        for &(seat, t) in river.entries() {
            h.note_discard(seat, t);
        }
        h.last_discard = [None; 4];
        h.exchange = exchange.map(|x| Exchanged {
            direction: x.direction,
            given: x.given,
        });
        h
    });
    for (i, seat) in h.discarded.iter().enumerate() {
        if river
            .of(i as u8)
            .any(|t| seat[t.index()] < river.counts_of(i as u8)[t.index()])
        {
            return Err(format!(
                "snapshot.history.discarded[{i}]: fewer discards than lie on the table"
            ));
        }
    }
    if let Some(x) = &mut h.exchange {
        x.given.iter_mut().for_each(|pick| pick.sort_unstable());
    }
    Ok(h)
}

impl PendingWire {
    fn pending(&self, game: &Game) -> R<Pending> {
        Ok(match *self {
            PendingWire::Exchange { picks } => {
                let mut out = [None; 4];
                for (i, p) in picks.iter().enumerate() {
                    out[i] = match p {
                        Some(Action::Exchange(t)) => Some(*t),
                        Some(a) => return Err(format!("snapshot.pending.picks[{i}]: expected an exchange like \"exchange 123m\", got \"{a}\"")),
                        None => None,
                    };
                }
                Pending::Exchange(out)
            }
            PendingWire::Void { picks } => Pending::Void(picks),
            PendingWire::Turn(t) => {
                if t.kong.is_some_and(|k| k as usize >= game.kongs.len()) {
                    return Err("snapshot.pending.kong: names a kong but none stood".into());
                }
                let needs_draw = matches!(t.kind, TurnKind::Draw | TurnKind::Replacement);
                if needs_draw != t.drawn.is_some()
                    || (t.kind == TurnKind::Replacement) != t.kong.is_some()
                {
                    return Err("snapshot.pending: a draw or replacement turn names its drawn tile (and a replacement its kong); others name neither".into());
                }
                Pending::Turn(t)
            }
            PendingWire::Respond {
                from,
                tile,
                kong,
                late,
                decisions,
                after_kong,
            } => {
                let r = Responses {
                    from,
                    tile,
                    kong: kong.map(|k| (k, late)),
                    claims: [0; 4],
                    forced: 0,
                    decisions: [None; 4],
                    after_kong,
                };
                respond(r, decisions, game)?
            }
            PendingWire::Over => Pending::Over,
        })
    }
}

/// Claims and forced wins are recomputed from the state, which has not changed since the
/// discard or kong; stored decisions must be among the legal ones.
fn respond(mut r: Responses, decisions: [Option<Action>; 4], game: &Game) -> R<Pending> {
    let p = "snapshot.pending.decisions";
    if matches!(r.kong, Some((KongKind::Direct, _))) {
        return Err("snapshot.pending.kong: a direct kong is never robbed".into());
    }
    // Only a kong chain (`kong_income_transfer = "kong_chain"`) or a robbing 杠上炮
    // (`kong_shot_on_rob`, an add kong) links a declared kong to the kong before it.
    let chain = game.rules.kong_income_transfer == KongIncomeTransfer::KongChain;
    let shot = game.rules.kong_shot_on_rob && matches!(r.kong, Some((KongKind::Added, _)));
    if r.after_kong.is_some_and(|k| k as usize >= game.kongs.len())
        || (r.after_kong.is_some() && r.kong.is_some() && !chain && !shot)
    {
        return Err(
            "snapshot.pending.after_kong: names no kong that stood before this discard".into(),
        );
    }
    for other in (0..4).filter(|&o| o != r.from) {
        r.claims[other as usize] = match r.kong {
            None => game.discard_claims(other, r.tile, r.after_kong.is_some()),
            Some((k, _)) if k == KongKind::Added || game.rules.rob_concealed_kong => {
                game.rob_claims(other, &r)
            }
            Some(_) => 0,
        };
    }
    let mut probe = game.clone();
    probe.open_responses(r, game.wall.remaining() <= 4);
    let Pending::Respond(mut opened) = probe.pending else {
        return Err(format!(
            "snapshot.pending: nobody may claim {}, so nothing waits",
            r.tile
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

impl Snapshot<'_, Vec<Event>> {
    fn wall(&self) -> R<Wall> {
        if self.wall.len() > super::WALL_SIZE {
            return Err("snapshot.wall: more than 108 tiles".into());
        }
        let mut wall = Wall::sorted();
        wall.tiles[..self.wall.len()].copy_from_slice(&self.wall);
        (wall.front, wall.back) = (0, self.wall.len() as u8);
        Ok(wall)
    }

    fn river(&self) -> R<River> {
        if self.river.len() > super::WALL_SIZE {
            return Err("snapshot.river: more than 108 discards".into());
        }
        let mut river = River::new();
        self.river.iter().for_each(|&(s, t)| river.push(s.0, t));
        Ok(river)
    }

    /// The end reason; only an abandoned hand names a leaver, and it must.
    fn end(&self) -> R<Option<EndReason>> {
        let end = (self.end)
            .map(|kind| {
                EndReason::of(kind, self.leaver)
                    .ok_or("snapshot.leaver: an abandoned hand names its leaver")
            })
            .transpose()?;
        if self.leaver.is_some() && !matches!(end, Some(EndReason::Abandoned(_))) {
            return Err("snapshot.leaver: only an abandoned hand has a leaver".into());
        }
        Ok(end)
    }

    /// The rules, seed and state without the pending decision and the log, checked.
    fn state(&mut self) -> R<Game> {
        if self.version != VERSION {
            return Err(format!(
                "snapshot.version: this engine reads version {VERSION}"
            ));
        }
        let rules = self.rules.clone();
        super::playable(&rules).map_err(|e| format!("rules: {e}"))?;
        let wall = self.wall()?;
        let mut seats = *self.seats;
        for (i, s) in seats.iter_mut().enumerate() {
            *s = checked_seat(*s, &format!("snapshot.seats[{i}]"), rules.wilds)?;
        }
        let river = self.river()?;
        let wins = (std::mem::take(&mut self.wins)
            .into_owned()
            .into_iter()
            .enumerate())
        .map(|(i, w)| scored(w, &format!("snapshot.wins[{i}]"), &rules))
        .collect::<R<Vec<_>>>()?;
        if let Some(i) = self
            .scores
            .iter()
            .position(|s| s.abs() > crate::points::MAX_TOTAL)
        {
            return Err(format!("snapshot.scores[{i}]: out of range"));
        }
        let end = self.end()?;
        let exchange = exchange_checked(self.exchange)?;
        let history = history_of(self.history, &river, exchange)?;
        Ok(Game {
            rules,
            seed: self.seed,
            rng: Rng::new(self.rng),
            dealer: self.dealer,
            wall,
            seats,
            river,
            pending: Pending::Over,
            claimed: self.claimed,
            wins,
            kongs: self.kongs.to_vec(),
            scores: self.scores,
            paid: [0; 4], // read back from the log, when there is one (`game`)
            end,
            history,
            log: None,
        })
    }

    /// The game, checked whole: records, pending decision, invariants and log.
    fn game(mut self) -> R<Game> {
        let mut game = self.state()?;
        game.check_records()?;
        // Claims read the cached waits: refresh them before and after the pending decision.
        game.refresh_cached_waits();
        game.pending = self.pending.pending(&game)?;
        game.refresh_cached_waits();
        game.check_invariants()?;
        game.check_pending()?;
        if self.logging {
            game.log = Some(snapshot_events(self.events, "snapshot.events", &game)?);
            game.paid = paid_in(game.events());
        } else if !self.events.is_empty() {
            return Err("snapshot.events: a game without logging has no events".into());
        }
        Ok(game)
    }
}

/// Each seat's paid reasons (the `paid` tally) from a log's `payment` events.
fn paid_in<'a>(events: impl Iterator<Item = &'a Event>) -> [u16; 4] {
    let mut paid = [0; 4];
    for e in events {
        if let Event::Payment { payer, reason, .. } = e {
            paid[*payer as usize & 3] |= 1 << *reason as u16;
        }
    }
    paid
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
        let game = read::<Snapshot<Vec<Event>>>(text, "snapshot")
            .and_then(Snapshot::game)
            .map_err(bad)?;
        if verify {
            game.verified(text).map_err(bad)
        } else {
            Ok(game)
        }
    }
}
