//! The door between a game and its parts (issue 29): [`Game::parts`] lays a game out as plain
//! fields and [`Game::from_parts`] puts parts back together, checked whole. It is the one place
//! a state that did not come from play is checked (the invariants of check.rs, and what a
//! restored state needs besides) and its derived values rebuilt (meld summaries, cached waits,
//! claims and forced wins, the scores of wins). The written form ([`crate::record`]) writes and
//! reads parts; nothing outside `game` builds a `Game` field by field.
//!
//! Errors name the field as a snapshot writes it (`snapshot.seats[0].hand: …`): parts are what
//! a snapshot holds.

use super::events::{EndReason, Event, KongKind, WinKind};
use super::history::History;
use super::log::Log;
use super::state::{River, Seat, Wall};
use super::value::score_win;
use super::{Game, KongRecord, Pending, Responses, TurnKind, WinRecord, WALL_SIZE};
use crate::hand::wilded;
use crate::meld::Meld;
use crate::rng::Rng;
use crate::rules::{KongIncomeTransfer, Rules, WinReveal};
use crate::tile::Tile;
use std::borrow::Cow;
use std::sync::Arc;

type R<T> = Result<T, String>;

/// A game laid out as plain fields: what a snapshot writes, borrowed from the game where it is
/// large. Derived values are left out; [`Game::from_parts`] rebuilds them.
#[derive(Clone, Debug)]
pub struct Parts<'a> {
    pub rules: Arc<Rules>,
    pub seed: u64,
    /// The generator's state ([`Rng::state`]).
    pub rng: u64,
    pub dealer: u8,
    /// The tiles still in the wall, front first.
    pub wall: Cow<'a, [Tile]>,
    /// Each seat; a restore makes its `1s` wilds under the `wilds` rules and rebuilds its
    /// summary.
    pub seats: Cow<'a, [Seat; 4]>,
    /// The discards still on the table, `(seat, tile)`, oldest first.
    pub river: Cow<'a, [(u8, Tile)]>,
    /// Who must decide now; a restore recomputes a `Respond`'s claims and forced wins.
    pub pending: Pending,
    /// A pong or kong has been made this hand.
    pub claimed: bool,
    /// The wins; a restore scores each again from its hand.
    pub wins: Cow<'a, [WinRecord]>,
    pub kongs: Cow<'a, [KongRecord]>,
    pub scores: [i64; 4],
    pub end: Option<EndReason>,
    pub history: History,
}

impl Game {
    /// The game's parts, borrowing its seats, wall, river and records.
    pub fn parts(&self) -> Parts<'_> {
        Parts {
            rules: self.rules.clone(),
            seed: self.seed,
            rng: self.rng.state(),
            dealer: self.dealer,
            wall: Cow::Borrowed(self.wall.live()),
            seats: Cow::Borrowed(&self.seats),
            river: Cow::Borrowed(self.river.entries()),
            pending: self.pending,
            claimed: self.claimed,
            wins: Cow::Borrowed(&self.wins),
            kongs: Cow::Borrowed(&self.kongs),
            scores: self.scores,
            end: self.end,
            history: self.history,
        }
    }

    /// A game from its parts and, when it keeps one, its event log (read as a full log:
    /// win events numbered in order), checked whole: playable rules, 108 tiles, hand sizes,
    /// records that fit the seats, wins scored as their hands score, a legal pending decision
    /// with someone to act, and every invariant; otherwise the first thing wrong.
    pub fn from_parts(parts: Parts<'_>, log: Option<Vec<Event>>) -> Result<Game, String> {
        let mut game = state(parts)?;
        let pending = game.pending;
        game.pending = Pending::Over;
        game.check_records()?;
        // Claims read the cached waits: refresh them before and after the pending decision.
        game.refresh_cached_waits();
        game.pending = game.restored_pending(pending)?;
        game.refresh_cached_waits();
        game.check_invariants()?;
        game.check_pending()?;
        if let Some(events) = log {
            let wins = events
                .iter()
                .filter(|e| matches!(e, Event::Win { .. }))
                .count();
            if wins != game.wins.len() {
                return Err(format!(
                    "snapshot.events: {wins} win events for {} wins",
                    game.wins.len()
                ));
            }
            game.paid = paid_in(&events);
            let mut kept = Log::default();
            events.into_iter().for_each(|e| kept.push(e));
            game.log = Some(kept);
        }
        Ok(game)
    }

    /// The pending decision of restored parts, checked against the state and with what it
    /// derives recomputed.
    fn restored_pending(&self, pending: Pending) -> R<Pending> {
        Ok(match pending {
            Pending::Turn(t) => {
                if t.kong.is_some_and(|k| k as usize >= self.kongs.len()) {
                    return Err("snapshot.pending.kong: names a kong but none stood".into());
                }
                let needs_draw = matches!(t.kind, TurnKind::Draw | TurnKind::Replacement);
                if needs_draw != t.drawn.is_some()
                    || (t.kind == TurnKind::Replacement) != t.kong.is_some()
                {
                    return Err("snapshot.pending: a draw or replacement turn names its drawn tile (and a replacement its kong); others name neither".into());
                }
                pending
            }
            Pending::Respond(r) => respond(r, self)?,
            Pending::Exchange(_) | Pending::Void(_) | Pending::Over => pending,
        })
    }
}

/// The state of `parts` without its pending decision and log, checked field by field.
fn state(parts: Parts<'_>) -> R<Game> {
    let rules = parts.rules;
    super::playable(&rules).map_err(|e| format!("rules: {e}"))?;
    if parts.wall.len() > WALL_SIZE {
        return Err("snapshot.wall: more than 108 tiles".into());
    }
    let mut wall = Wall::sorted();
    wall.tiles[..parts.wall.len()].copy_from_slice(&parts.wall);
    (wall.front, wall.back) = (0, parts.wall.len() as u8);
    let mut seats = *parts.seats;
    for (i, s) in seats.iter_mut().enumerate() {
        *s = checked_seat(*s, &format!("snapshot.seats[{i}]"), rules.wilds)?;
    }
    if parts.river.len() > WALL_SIZE {
        return Err("snapshot.river: more than 108 discards".into());
    }
    let mut river = River::new();
    parts.river.iter().for_each(|&(s, t)| river.push(s, t));
    let wins = (parts.wins.into_owned().into_iter().enumerate())
        .map(|(i, w)| scored(w, &format!("snapshot.wins[{i}]"), &rules))
        .collect::<R<Vec<_>>>()?;
    if let Some(i) = (parts.scores.iter()).position(|s| s.abs() > crate::points::MAX_TOTAL) {
        return Err(format!("snapshot.scores[{i}]: out of range"));
    }
    let history = checked_history(parts.history, &river)?;
    Ok(Game {
        rules,
        seed: parts.seed,
        rng: Rng::new(parts.rng),
        dealer: parts.dealer,
        wall,
        seats,
        river,
        pending: parts.pending,
        claimed: parts.claimed,
        wins,
        kongs: parts.kongs.into_owned(),
        scores: parts.scores,
        paid: [0; 4], // read back from the log, when there is one (`from_parts`)
        end: parts.end,
        history,
        log: None,
    })
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

/// The public record, whose discards must include those still on the table; the exchange's
/// picks sorted.
fn checked_history(mut h: History, river: &River) -> R<History> {
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

/// Claims and forced wins are recomputed from the state, which has not changed since the
/// discard or kong; stored decisions must be among the legal ones.
fn respond(mut r: Responses, game: &Game) -> R<Pending> {
    let p = "snapshot.pending.decisions";
    let decisions = r.decisions;
    (r.claims, r.forced, r.decisions) = ([0; 4], 0, [None; 4]);
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

/// Each seat's paid reasons (the `paid` tally) from a log's `payment` events.
fn paid_in(events: &[Event]) -> [u16; 4] {
    let mut paid = [0; 4];
    for e in events {
        if let Event::Payment { payer, reason, .. } = e {
            paid[*payer as usize & 3] |= 1 << *reason as u16;
        }
    }
    paid
}
