//! One hand of Sichuan mahjong from the shuffle to the last payment (docs/game-protocol.md):
//! exchange (换三张), void declaration (定缺), turns, claims, kongs, wins and settlement, for
//! 血战到底 and 血流成河.
//!
//! The game knows which seats must decide now ([`Game::to_act`]); decisions of several seats are
//! stored per seat and resolved when the last is in, so the result never depends on the order of
//! the calls. An illegal action returns an error and changes nothing.

mod action;
mod asked;
mod check;
mod claims;
mod escape;
mod events;
mod explain;
mod hidden;
mod history;
mod log;
mod offered;
mod parts;
mod settle;
mod setup;
mod state;
mod turn;
mod value;
mod view;

#[cfg(test)]
pub(crate) mod tests;

pub use action::{Action, ActionList, MAX_ACTIONS};
pub use asked::ReadyWait;
pub use events::{
    claim, Direction, EndKind, EndReason, Event, EventType, KongKind, On, Purpose, Reason, Rolls,
    ToWindow, WinKind,
};
pub use hidden::{Hidden, TrueHands};
pub use history::{Exchanged, History};
pub use parts::Parts;
pub use state::{Seat, Wall, WALL_SIZE};
pub use view::{Ask, Decision, OpenTile, SeatView, SeenExchange, SeenWin, Viewer};

pub use crate::score::{Score, Situation};

use crate::choice::choice;
use crate::error::Error;
use crate::hand::Counts;
use crate::meld::Meld;
use crate::rng::Rng;
use crate::rules::{Mode, Rules, WinReveal};
use crate::tile::{Suit, Tile, KINDS};
use crate::wire::seat;
use log::Log;
use serde::{Deserialize, Serialize};
use state::River;
use std::sync::Arc;

choice! {
    /// The phase of the hand.
    pub enum Phase {
        Exchange = "exchange",
        Void = "void",
        Play = "play",
        Over = "over",
    }
}

choice! {
    /// How the seat to move came to move.
    pub enum TurnKind {
        /// The dealer's first turn: 14 tiles, no draw.
        First = "first",
        Draw = "draw",
        /// After a kong's replacement draw.
        Replacement = "replacement",
        /// After a pong: discard only.
        AfterPong = "after_pong",
        /// A non-dealer dealt four wilds (幺鸡) wins before the dealer's first turn: 13 tiles, no
        /// draw, `win` its only action (docs/game-protocol.md §11).
        Dealt = "dealt",
    }
}

/// The seat to move and what it drew.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    #[serde(deserialize_with = "seat")]
    pub seat: u8,
    pub kind: TurnKind,
    pub drawn: Option<Tile>,
    /// The kong (index into the kong list) whose replacement was drawn.
    pub kong: Option<u16>,
    /// The drawn tile was among the wall's last four.
    pub last_four: bool,
}

/// Claims open on a discard or on a kong that may be robbed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Responses {
    /// The discarder or the kong's owner.
    pub from: u8,
    pub tile: Tile,
    /// `Some` while a declared kong waits to be robbed or to stand.
    pub kong: Option<(KongKind, bool)>,
    /// Claim bits per seat (`events::claim`); 0 for a seat not asked.
    pub claims: [u8; 4],
    /// Seats whose win is forced (`last_four`).
    pub forced: u8,
    pub decisions: [Option<Action>; 4],
    /// 杠上炮: the discarder's kong just before this discard; under `kong_income_transfer =
    /// "kong_chain"` also the owner's kong just before this declared kong.
    pub after_kong: Option<u16>,
}

/// Who must decide now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pending {
    Exchange([Option<[Tile; 3]>; 4]),
    Void([Option<Suit>; 4]),
    Turn(Turn),
    Respond(Responses),
    Over,
}

/// One win, with what scoring and the log need. A snapshot writes it without its score, which a
/// restore computes again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WinRecord {
    #[serde(deserialize_with = "seat")]
    pub seat: u8,
    pub tile: Tile,
    /// The discarder or kong owner; `None` when self-drawn.
    #[serde(default, deserialize_with = "seat")]
    pub from: Option<u8>,
    pub kind: WinKind,
    /// Concealed tiles before the win, without the winning tile.
    pub hand: Counts,
    #[serde(with = "crate::meld::melds")]
    pub melds: [Option<Meld>; 4],
    /// Kongs of the winner that count only as a root (`late_kong = "root_only"`).
    #[serde(with = "crate::tile::bits")]
    pub root_only_kongs: u32,
    pub flags: Situation,
    /// 点杠花: the discarder whose tile was konged directly just before this self-draw.
    #[serde(deserialize_with = "seat")]
    pub feeder: Option<u8>,
    #[serde(skip, default = "Score::unscored")]
    pub score: Score,
    /// A second or later winner on the same discard or kong (一炮多响): the tile is the
    /// previous win's, not another copy.
    pub shared: bool,
    /// What each seat still owes this win under `win_reveal = "hand_end"`, collected when the
    /// hand ends (MIL SBR 2025 Art.10-2); all zero once paid, and always under `"immediate"`.
    #[serde(
        default,
        skip_serializing_if = "nothing_owed",
        deserialize_with = "crate::wire::upto::<{ 1 << 40 }, _, _>"
    )]
    pub owed: [i64; 4],
}

fn nothing_owed(owed: &[i64; 4]) -> bool {
    *owed == [0; 4]
}

/// 换三张 as it resolved: what each seat gave and received. Each seat sees its own two lists
/// (RULES.md §12); observations read them from here, since a game without logging keeps no
/// events. A view of [`History::exchange`], built by [`Game::exchanged`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ExchangeRecord {
    pub direction: Direction,
    pub given: [[Tile; 3]; 4],
    pub received: [[Tile; 3]; 4],
}

/// One kong that stood, and who paid for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KongRecord {
    #[serde(deserialize_with = "seat")]
    pub owner: u8,
    pub tile: Tile,
    pub kind: KongKind,
    /// The discarder of a direct kong's tile.
    #[serde(default, deserialize_with = "seat")]
    pub feeder: Option<u8>,
    /// What each seat paid for it.
    #[serde(deserialize_with = "crate::wire::upto::<{ 1 << 40 }, _, _>")]
    pub paid: [i64; 4],
    /// Its income was passed on by 呼叫转移.
    pub transferred: bool,
    /// Declared on the replacement of the kong just before it (its owner's), under
    /// `kong_income_transfer = "kong_chain"`: the two are one chain.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chained: bool,
}

/// One hand. Cloning copies fixed-size state and shares the event log's history;
/// `clone_from` also keeps the target's win and kong lists' room, so that search copying one
/// position into the same game again and again allocates nothing.
pub struct Game {
    rules: Arc<Rules>,
    seed: u64,
    rng: Rng,
    dealer: u8,
    wall: Wall,
    seats: [Seat; 4],
    river: River,
    pending: Pending,
    /// A pong or kong has been made this hand (地胡 needs none).
    claimed: bool,
    wins: Vec<WinRecord>,
    kongs: Vec<KongRecord>,
    scores: [i64; 4],
    /// The reasons each seat has paid for, a bit per [`Reason`]: kept with logging off too, so
    /// self-play counts 花猪 and 查叫 without keeping the log.
    pub(super) paid: [u16; 4],
    end: Option<EndReason>,
    /// What the table saw that the state no longer shows (the exchange, claimed discards).
    history: History,
    log: Option<Log<Event>>,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            rules: self.rules.clone(),
            wins: self.wins.clone(),
            kongs: self.kongs.clone(),
            log: self.log.clone(),
            ..*self
        }
    }

    fn clone_from(&mut self, source: &Game) {
        // Every field named, so that a new one cannot be forgotten here.
        let Game {
            rules,
            seed,
            rng,
            dealer,
            wall,
            seats,
            river,
            pending,
            claimed,
            wins,
            kongs,
            scores,
            paid,
            end,
            history,
            log,
        } = source;
        self.rules.clone_from(rules);
        (self.seed, self.rng, self.dealer) = (*seed, *rng, *dealer);
        (self.wall, self.seats, self.river) = (*wall, *seats, *river);
        (self.pending, self.claimed) = (*pending, *claimed);
        self.wins.clone_from(wins);
        self.kongs.clone_from(kongs);
        (self.scores, self.paid) = (*scores, *paid);
        (self.end, self.history) = (*end, *history);
        self.log.clone_from(log);
    }
}

impl Game {
    /// A new hand, dealt from `seed`, its dealer chosen by `first_dealer`. With `logging` off
    /// no events are kept (for search and self-play); the play is the same.
    pub fn new(rules: Arc<Rules>, seed: u64, logging: bool) -> Result<Game, Error> {
        Game::with_dealer(rules, seed, None, logging)
    }

    /// A new hand whose dealer is `dealer` when given (a match's next hand, RULES.md §2), else
    /// chosen by `first_dealer`. A given dealer draws nothing from the generator.
    pub fn with_dealer(
        rules: Arc<Rules>,
        seed: u64,
        dealer: Option<u8>,
        logging: bool,
    ) -> Result<Game, Error> {
        playable(&rules).map_err(Error::Rules)?;
        if let Some(d) = dealer.filter(|&d| d > 3) {
            return Err(Error::Argument(format!(
                "dealer {d} does not exist; the dealer is a seat 0-3"
            )));
        }
        let mut game = Game {
            rules,
            seed,
            rng: Rng::new(seed),
            dealer: 0,
            wall: Wall::sorted(),
            seats: [Seat::EMPTY; 4],
            river: River::new(),
            pending: Pending::Over,
            claimed: false,
            wins: Vec::new(),
            kongs: Vec::new(),
            scores: [0; 4],
            paid: [0; 4],
            end: None,
            history: History::default(),
            log: logging.then(Log::default),
        };
        game.start(dealer);
        Ok(game)
    }

    /// Plays `(seat, action)` pairs from a fresh hand.
    pub fn replay(
        rules: Arc<Rules>,
        seed: u64,
        actions: &[(u8, Action)],
        logging: bool,
    ) -> Result<Game, Error> {
        let mut game = Game::new(rules, seed, logging)?;
        for (i, &(seat, action)) in actions.iter().enumerate() {
            game.act(seat, action)
                .map_err(|e| e.context(format_args!("action {i} ({seat}, {action})")))?;
        }
        Ok(game)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn dealer(&self) -> u8 {
        self.dealer
    }

    pub fn phase(&self) -> Phase {
        match self.pending {
            Pending::Exchange(_) => Phase::Exchange,
            Pending::Void(_) => Phase::Void,
            Pending::Turn(_) | Pending::Respond(_) => Phase::Play,
            Pending::Over => Phase::Over,
        }
    }

    pub fn pending(&self) -> &Pending {
        &self.pending
    }

    pub fn is_over(&self) -> bool {
        matches!(self.pending, Pending::Over)
    }

    pub fn end_reason(&self) -> Option<EndReason> {
        self.end
    }

    /// The seat that left the hand (逃跑), if one did.
    pub fn leaver(&self) -> Option<u8> {
        match self.end {
            Some(EndReason::Abandoned(seat)) => Some(seat),
            _ => None,
        }
    }

    pub fn scores(&self) -> [i64; 4] {
        self.scores
    }

    pub fn wall(&self) -> &Wall {
        &self.wall
    }

    pub fn wall_remaining(&self) -> usize {
        self.wall.remaining()
    }

    pub fn seat(&self, seat: u8) -> &Seat {
        &self.seats[seat as usize & 3]
    }

    /// Discards still lying in front of `seat` (a claimed tile leaves).
    pub fn discards(&self, seat: u8) -> Vec<Tile> {
        self.river.of(seat).collect()
    }

    pub fn river(&self) -> &[(u8, Tile)] {
        self.river.entries()
    }

    /// Copies of each kind lying in the river (what [`Game::river`] lists, counted).
    pub fn river_counts(&self) -> &[u8; KINDS] {
        self.river.counts()
    }

    /// Copies of each kind lying in the river of `seat`.
    pub fn river_counts_of(&self, seat: u8) -> &[u8; KINDS] {
        self.river.counts_of(seat)
    }

    pub fn wins(&self) -> &[WinRecord] {
        &self.wins
    }

    pub fn kongs(&self) -> &[KongRecord] {
        &self.kongs
    }

    /// Whether the others do not yet see a win's score (nor a self-draw's tile): under
    /// `win_reveal = "hand_end"` until the hand is over.
    pub fn hides_wins(&self) -> bool {
        self.rules.win_reveal == WinReveal::HandEnd && self.end.is_none()
    }

    /// Whether `viewer` does not see the score of win `w` yet (`win_reveal = "hand_end"`): the
    /// one home of that rule for the event views, the seat's view and determinisation.
    pub(super) fn win_hidden(&self, viewer: Viewer, w: &WinRecord) -> bool {
        viewer.is_not(w.seat) && self.hides_wins()
    }

    /// Whether `viewer` does not see the tile of win `w` yet: another seat's self-draw.
    pub(super) fn tile_hidden(&self, viewer: Viewer, w: &WinRecord) -> bool {
        self.win_hidden(viewer, w) && w.kind == WinKind::SelfDraw
    }

    /// Whether `seat` has paid for `reason` this hand (a `payment` event of its), logging or not;
    /// a game restored from a snapshot without a log counts only what it paid since.
    pub fn has_paid(&self, seat: u8, reason: Reason) -> bool {
        self.paid[seat as usize & 3] & (1 << reason as u16) != 0
    }

    /// The exchange of the current deal, once it has resolved: derived from the public record
    /// ([`History::exchange`]), its one source, since what each seat received is what the
    /// seat before it in the direction gave.
    pub fn exchanged(&self) -> Option<ExchangeRecord> {
        self.history.exchange.map(|e| {
            let mut received = e.given;
            (0..4u8).for_each(|g| received[e.receiver(g) as usize] = e.given[g as usize]);
            ExchangeRecord {
                direction: e.direction,
                given: e.given,
                received,
            }
        })
    }

    /// The events so far (empty when logging is off).
    pub fn events(&self) -> impl Iterator<Item = &Event> + '_ {
        self.log.iter().flat_map(log::Log::iter)
    }

    /// Whether the game keeps its event log.
    pub fn is_logging(&self) -> bool {
        self.log.is_some()
    }

    /// Drops the event log and stops logging: a search's copies need none, and pushing events
    /// would cost every playout.
    pub fn stop_logging(&mut self) {
        self.log = None;
    }

    /// A seat is still in the hand: always in 血流, until it wins in 血战.
    #[inline]
    pub fn in_hand(&self, seat: u8) -> bool {
        self.rules.mode == Mode::Xueliu || self.seats[seat as usize].wins == 0
    }

    /// A 血流 winner, whose hand is locked.
    #[inline]
    fn locked(&self, seat: u8) -> bool {
        self.rules.mode == Mode::Xueliu && self.seats[seat as usize].wins > 0
    }

    /// Seats that must decide now, in seat order.
    pub fn to_act(&self) -> Vec<u8> {
        (0..4).filter(|&s| self.must_act(s)).collect()
    }

    /// Whether `seat` must decide now.
    #[inline]
    pub fn must_act(&self, seat: u8) -> bool {
        let s = seat as usize;
        match &self.pending {
            Pending::Exchange(picks) => picks[s].is_none(),
            Pending::Void(picks) => picks[s].is_none(),
            Pending::Turn(t) => t.seat == seat,
            Pending::Respond(r) => r.claims[s] != 0 && r.decisions[s].is_none(),
            Pending::Over => false,
        }
    }

    /// The legal actions of `seat`, written into `out` (cleared first). Empty for a seat that
    /// need not decide now.
    pub fn legal_actions(&self, seat: u8, out: &mut ActionList) {
        out.clear();
        self.visit_legal(seat, &mut |a| out.push(a));
    }

    /// Calls `f` with each legal action of `seat`, in the order `legal_actions` lists them;
    /// nothing for a seat that need not decide now. Allocates nothing.
    pub fn visit_legal(&self, seat: u8, f: &mut impl FnMut(Action)) {
        if seat > 3 || !self.must_act(seat) {
            return;
        }
        match &self.pending {
            Pending::Exchange(_) => self.exchange_actions(seat, f),
            Pending::Void(_) => Suit::ALL.into_iter().for_each(|s| f(Action::Void(s))),
            Pending::Turn(t) => self.turn_actions(t, f),
            Pending::Respond(r) => self.response_actions(r, seat, f),
            Pending::Over => {}
        }
    }

    /// Whether `action` is legal for `seat` now.
    pub fn is_legal(&self, seat: u8, action: Action) -> bool {
        if let (Pending::Exchange(_), Action::Exchange(tiles)) = (&self.pending, action) {
            return seat <= 3 && self.must_act(seat) && self.exchange_pick_legal(seat, tiles);
        }
        let mut found = false;
        self.visit_legal(seat, &mut |a| found |= a == action);
        found
    }

    /// Whether `act(seat, action)` would succeed, with the error it would give, changing
    /// nothing: why a move is refused, for a caller that does not take it now.
    pub fn check(&self, seat: u8, action: Action) -> Result<(), Error> {
        if self.is_legal(seat, action) {
            Ok(())
        } else {
            Err(self.explain(seat, action))
        }
    }

    /// Takes `action` for `seat`; on error nothing changes.
    pub fn act(&mut self, seat: u8, action: Action) -> Result<(), Error> {
        self.check(seat, action)?;
        self.apply(seat, action);
        Ok(())
    }

    /// Takes `action`, which the caller has just found in `legal_actions(seat)` of this very
    /// state: a bot choosing from that list spares the game listing it again to check.
    fn act_listed(&mut self, seat: u8, action: Action) {
        debug_assert!(self.is_legal(seat, action), "{action:?} is not legal");
        self.apply(seat, action);
    }

    /// Applies an action already known to be legal.
    fn apply(&mut self, seat: u8, action: Action) {
        let s = seat as usize;
        match &mut self.pending {
            Pending::Exchange(picks) => {
                if let Action::Exchange(tiles) = action {
                    picks[s] = Some(tiles);
                }
                if picks.iter().all(Option::is_some) {
                    self.resolve_exchange();
                }
            }
            Pending::Void(picks) => {
                if let Action::Void(suit) = action {
                    picks[s] = Some(suit);
                }
                if picks.iter().all(Option::is_some) {
                    self.resolve_void();
                }
            }
            Pending::Turn(t) => {
                let t = *t;
                self.apply_turn(t, action);
            }
            Pending::Respond(r) => {
                r.decisions[s] = Some(action);
                let all_in = (0..4).all(|i| r.claims[i] == 0 || r.decisions[i].is_some());
                if all_in {
                    let r = *r;
                    self.resolve_responses(r);
                }
            }
            Pending::Over => {}
        }
    }

    /// Plays a uniformly random legal action for the first seat that must act; false once the
    /// hand is over. For benchmarks, self-play and tests.
    pub fn step_random(&mut self, rng: &mut Rng, buf: &mut ActionList) -> bool {
        let Some(seat) = (0..4).find(|&s| self.must_act(s)) else {
            return false;
        };
        self.legal_actions(seat, buf);
        if buf.is_empty() {
            return false;
        }
        let action = buf[rng.below(buf.len() as u64) as usize];
        self.apply(seat, action);
        true
    }

    /// What a server plays for `seat` when it times out (docs/game-protocol.md §2).
    pub fn default_action(&self, seat: u8) -> Option<Action> {
        if seat > 3 || !self.must_act(seat) {
            return None;
        }
        let hand = &self.seats[seat as usize].hand;
        match &self.pending {
            Pending::Exchange(_) => setup::default_exchange(hand).map(Action::Exchange),
            Pending::Void(_) => Some(Action::Void(setup::default_void(hand))),
            Pending::Turn(t) => {
                let action = self.default_turn_action(t);
                debug_assert!(self.is_legal(seat, action), "default {action} is illegal");
                Some(action)
            }
            Pending::Respond(r) if r.forced & 1 << seat != 0 => Some(Action::Win),
            Pending::Respond(_) => Some(Action::Pass),
            Pending::Over => None,
        }
    }

    #[inline]
    fn push(&mut self, event: Event) {
        if let Some(log) = &mut self.log {
            log.push(event);
        }
    }
}

/// Whether a game can be played under `rules`: [`Rules::validate`], and what the game needs
/// beyond it: the 幺鸡 variant is played as 血战 and with a cap, at which four wilds win
/// (docs/game-protocol.md §11).
pub fn playable(rules: &Rules) -> Result<(), crate::rules::RulesError> {
    rules.validate()?;
    let refuse = |why: &str| Err(crate::rules::RulesError::Inconsistent(why.to_owned()));
    if rules.wilds && rules.mode == Mode::Xueliu {
        return refuse("the 幺鸡 variant (wilds = true) is played as 血战 (mode = \"xuezhan\")");
    }
    if rules.wilds && rules.cap_fan.is_none() {
        return refuse(
            "the 幺鸡 variant (wilds = true) needs a cap_fan: four wilds win at the cap",
        );
    }
    Ok(())
}
