//! What one seat may see of a hand (RULES.md §12): its own concealed tiles and, of the table,
//! only what is public. Bots decide from a [`SeatView`] and are never handed the [`Game`]
//! (`bots::play` is the one door between them), so a bot that reads a hidden tile does not
//! compile unless it says so: [`SeatView::true_hands`] is the one, explicit, opt-in. Search
//! (`crate::search`) deals the hidden tiles again and plays in the world [`SeatView::world`]
//! makes of them: a whole game consistent with the view.
//!
//! A view is a borrow of the game and a seat number: building one copies nothing, and every
//! accessor reads the game's own state.
//!
//! ```compile_fail
//! // The view does not lend out its game...
//! fn peek(view: &xueliu_core::game::SeatView<'_>) -> usize {
//!     view.game.seat(1).hand().len()
//! }
//! ```
//!
//! ```compile_fail
//! // ...and a seat's concealed tiles are no public field, even to the game's holders.
//! fn peek(game: &xueliu_core::game::Game) -> usize {
//!     game.seat(1).hand.len()
//! }
//! ```

use super::{Action, ActionList, Direction, Game, KongRecord, Pending, Phase, TurnKind, WinKind};
use crate::analysis::Context;
use crate::error::Error;
use crate::hand::Counts;
use crate::meld::{Meld, Melds};
use crate::rules::Rules;
use crate::score::Score;
use crate::tile::{Suit, Tile, COPIES, KINDS};

/// Who reads a view of the game: one seat, or the public (a spectator), who sees only what every
/// seat sees (RULES.md §12). Five-viewer arrays hold the seats 0-3, then the public
/// ([`Viewer::ALL`], [`Viewer::index`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    Seat(u8),
    Public,
}

impl Viewer {
    /// Every viewer, in the order of five-viewer arrays.
    pub const ALL: [Viewer; 5] = [
        Viewer::Seat(0),
        Viewer::Seat(1),
        Viewer::Seat(2),
        Viewer::Seat(3),
        Viewer::Public,
    ];

    /// Its place in a five-viewer array.
    pub const fn index(self) -> usize {
        match self {
            Viewer::Seat(seat) => seat as usize,
            Viewer::Public => 4,
        }
    }

    /// Whether this viewer is anyone but `seat`, from whom `seat`'s concealed tiles are hidden.
    pub fn is_not(self, seat: u8) -> bool {
        self != Viewer::Seat(seat)
    }
}

/// One seat's view of a game; see the module's documentation.
#[derive(Clone, Copy)]
pub struct SeatView<'a> {
    // Read by hidden.rs too: what a search over the hidden tiles may ask of the view.
    pub(super) game: &'a Game,
    pub(super) seat: u8,
}

/// What the seat is asked to decide now, as far as the seat may know it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Nothing: the seat need not decide now.
    Nothing,
    /// Three tiles to give (换三张).
    Exchange,
    /// A void suit to declare (定缺).
    Void,
    /// Its turn: win, kong or discard.
    Turn,
    /// A tile is open to its claims: win, kong, pong or pass.
    Respond(OpenTile),
}

/// A tile open to claims: a discard, or a declared kong's tile, which only a win may rob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenTile {
    /// The discarder or the kong's owner.
    pub from: u8,
    pub tile: Tile,
    /// The tile is a declared kong's: only a win may claim it (抢杠).
    pub robbing: bool,
}

/// A win as the table saw it: everything in its record but the winner's concealed hand. Under
/// `win_reveal = "hand_end"` another seat's win hides its score, and a self-draw its tile, until
/// the hand is over (`None`).
#[derive(Clone, Copy, Debug)]
pub struct SeenWin<'a> {
    pub seat: u8,
    pub tile: Option<Tile>,
    /// The discarder or kong owner; `None` when self-drawn.
    pub from: Option<u8>,
    pub kind: WinKind,
    /// A second or later winner on the same tile (一炮多响): no second copy of it.
    pub shared: bool,
    pub score: Option<&'a Score>,
}

/// The exchange (换三张) as one seat saw it: its own two lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeenExchange {
    pub direction: Direction,
    pub given: [Tile; 3],
    pub received: [Tile; 3],
}

/// A bot's answer to a view: the action, and whether it was taken from the legal actions of
/// that very view, which spares the game listing them again to check it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub action: Action,
    listed: bool,
}

impl Decision {
    /// An action the game checks before it takes it.
    pub const fn checked(action: Action) -> Decision {
        Decision {
            action,
            listed: false,
        }
    }

    /// An action just found among the view's legal actions ([`SeatView::legal_actions`] or
    /// [`SeatView::visit_legal`]); the game takes it unchecked (debug builds check).
    pub(crate) const fn listed(action: Action) -> Decision {
        Decision {
            action,
            listed: true,
        }
    }
}

impl Game {
    /// What `seat` (0–3) may see of the game; `None` for a seat that does not exist.
    pub fn view(&self, seat: u8) -> Option<SeatView<'_>> {
        (seat <= 3).then_some(SeatView { game: self, seat })
    }

    /// Takes a bot's decision for `seat`: a listed action as [`Game::act_listed`], any other as
    /// [`Game::act`]; on error nothing changes.
    pub(crate) fn act_decision(&mut self, seat: u8, decision: Decision) -> Result<(), Error> {
        if decision.listed {
            self.act_listed(seat, decision.action);
            Ok(())
        } else {
            self.act(seat, decision.action)
        }
    }
}

/// The seat itself and its decision.
impl<'a> SeatView<'a> {
    pub fn seat(&self) -> u8 {
        self.seat
    }

    pub fn rules(&self) -> &'a Rules {
        &self.game.rules
    }

    pub fn must_act(&self) -> bool {
        self.game.must_act(self.seat)
    }

    /// What the seat must decide now.
    pub fn ask(&self) -> Ask {
        if !self.must_act() {
            return Ask::Nothing;
        }
        match &self.game.pending {
            Pending::Exchange(_) => Ask::Exchange,
            Pending::Void(_) => Ask::Void,
            Pending::Turn(_) => Ask::Turn,
            Pending::Respond(_) => self.open_tile().map_or(Ask::Nothing, Ask::Respond),
            Pending::Over => Ask::Nothing,
        }
    }

    /// The seat's legal actions, as [`Game::legal_actions`].
    pub fn legal_actions(&self, out: &mut ActionList) {
        self.game.legal_actions(self.seat, out);
    }

    /// Each of the seat's legal actions, as [`Game::visit_legal`]; allocates nothing.
    pub fn visit_legal(&self, f: &mut impl FnMut(Action)) {
        self.game.visit_legal(self.seat, f);
    }

    pub fn is_legal(&self, action: Action) -> bool {
        self.game.is_legal(self.seat, action)
    }

    /// What a server plays for the seat when it times out, as [`Game::default_action`].
    pub fn default_action(&self) -> Option<Action> {
        self.game.default_action(self.seat)
    }

    /// The seat's concealed tiles (a winning tile set aside is not among them).
    pub fn hand(&self) -> &'a Counts {
        &self.game.seats[self.seat as usize].hand
    }

    /// The context hand analysis judges the seat's hand in.
    pub fn context(&self) -> Context {
        self.game.seats[self.seat as usize].context(&self.game.rules)
    }

    /// The tile the seat has just drawn, while it is on the move after a draw.
    pub fn drawn(&self) -> Option<Tile> {
        match self.game.pending {
            Pending::Turn(t) if t.seat == self.seat => t.drawn,
            _ => None,
        }
    }

    /// 过胡: the highest (capped) fan of a win the seat declined since its last draw.
    pub fn declined(&self) -> Option<u32> {
        self.game.seats[self.seat as usize].declined
    }

    /// The seat's own side of the exchange, once it has resolved.
    pub fn exchanged(&self) -> Option<SeenExchange> {
        let s = self.seat as usize;
        self.game.exchanged().map(|x| SeenExchange {
            direction: x.direction,
            given: x.given[s],
            received: x.received[s],
        })
    }
}

/// The table: what every seat sees.
impl<'a> SeatView<'a> {
    pub fn phase(&self) -> Phase {
        self.game.phase()
    }

    pub fn dealer(&self) -> u8 {
        self.game.dealer
    }

    /// The seat on the move and how it came to move, during a turn.
    pub fn turn(&self) -> Option<(u8, TurnKind)> {
        match self.game.pending {
            Pending::Turn(t) => Some((t.seat, t.kind)),
            _ => None,
        }
    }

    /// The tile open to claims while responses are asked, whoever is asked.
    pub fn open_tile(&self) -> Option<OpenTile> {
        match self.game.pending {
            Pending::Respond(r) => Some(OpenTile {
                from: r.from,
                tile: r.tile,
                robbing: r.kong.is_some(),
            }),
            _ => None,
        }
    }

    pub fn wall_remaining(&self) -> usize {
        self.game.wall.remaining()
    }

    pub fn scores(&self) -> [i64; 4] {
        self.game.scores
    }

    /// Concealed tiles `seat` holds, counted, not shown.
    pub fn hand_size(&self, seat: u8) -> usize {
        self.game.seat(seat).hand.len()
    }

    /// The pongs and kongs of `seat`, in the order made.
    pub fn melds(&self, seat: u8) -> impl Iterator<Item = Meld> + 'a {
        self.game.seat(seat).meld_list()
    }

    /// The melds of `seat`, summed up for hand analysis.
    pub fn melded(&self, seat: u8) -> &'a Melds {
        &self.game.seat(seat).meld_summary
    }

    /// Whether `seat` has a pong of `tile`.
    pub fn has_pong(&self, seat: u8, tile: Tile) -> bool {
        self.game.seat(seat).has_pong(tile)
    }

    /// The declared void suit of `seat`, once every seat has declared.
    pub fn void(&self, seat: u8) -> Option<Suit> {
        self.game.seat(seat).void
    }

    /// Wins of `seat` so far.
    pub fn wins_of(&self, seat: u8) -> u8 {
        self.game.seat(seat).wins
    }

    /// A seat is still in the hand: always in 血流, until it wins in 血战.
    pub fn in_hand(&self, seat: u8) -> bool {
        self.game.in_hand(seat & 3)
    }

    /// Every win so far, in the order made, without the winners' hands; another seat's win
    /// without what `win_reveal = "hand_end"` hides until the hand is over.
    pub fn wins(&self) -> impl Iterator<Item = SeenWin<'a>> + 'a {
        let (seat, game) = (self.seat, self.game);
        game.wins.iter().map(move |w| SeenWin {
            seat: w.seat,
            tile: (!game.tile_hidden(Viewer::Seat(seat), w)).then_some(w.tile),
            from: w.from,
            kind: w.kind,
            shared: w.shared,
            score: (!game.win_hidden(Viewer::Seat(seat), w)).then_some(&w.score),
        })
    }

    /// Every kong that stood, and who paid for it.
    pub fn kongs(&self) -> &'a [KongRecord] {
        &self.game.kongs
    }

    /// Discards still lying in front of their discarders, in order.
    pub fn river(&self) -> &'a [(u8, Tile)] {
        self.game.river.entries()
    }

    /// Copies of `tile` the seat has not seen: in no hand of its own, meld, river or win whose
    /// tile it saw.
    #[inline]
    pub fn unseen(&self, tile: Tile) -> u8 {
        let t = tile.index();
        let melded: u8 = (0..4).map(|s| self.melded(s).held[t]).sum();
        let won = self
            .wins()
            .filter(|w| !w.shared && w.tile == Some(tile))
            .count() as u8;
        let held = self.hand().array()[t];
        COPIES.saturating_sub(held + melded + self.river_counts()[t] + won)
    }

    /// Copies of each kind lying in the river.
    pub fn river_counts(&self) -> &'a [u8; KINDS] {
        self.game.river.counts()
    }

    /// Copies of each kind lying in the river of `seat`.
    pub fn river_counts_of(&self, seat: u8) -> &'a [u8; KINDS] {
        self.game.river.counts_of(seat)
    }
}
