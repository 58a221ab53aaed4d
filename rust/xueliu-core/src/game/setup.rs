//! Before play: the dealer, the shuffle and deal, 换三张 (exchange three) and 定缺 (void
//! declaration), in the order docs/game-protocol.md §1 fixes for the random draws.

use super::events::{Direction, Event, Purpose, Rolls};
use super::history::Exchanged;
use super::state::{after, Seat, Wall};
use super::{Action, Game, Pending, Turn, TurnKind};
use crate::hand::{Counts, MAX_WILDS};
use crate::rules::{DealerRotation, Exchange, FirstDealer};
use crate::tile::{Suit, Tile};

/// Tiles dealt to each seat; the dealer takes one more.
const DEAL: usize = 13;

impl Game {
    /// Dealer (the one given, or by `first_dealer`), shuffle, wall die, deal, then the first
    /// decision phase.
    pub(super) fn start(&mut self, dealer: Option<u8>) {
        let rolls = match dealer {
            Some(d) => {
                self.dealer = d;
                None
            }
            None => self.choose_dealer(),
        };
        self.push(Event::Start {
            seed: self.seed,
            rules: self.rules.clone(),
            dealer: self.dealer,
            given: dealer.is_some(),
        });
        if let Some(rolls) = rolls {
            self.push(Event::Dice {
                purpose: Purpose::Dealer,
                seat: None,
                rolls: Rolls::Seats(rolls),
            });
        }
        self.deal();
        self.begin_exchange();
    }

    /// The dealer of the next hand of a match, once this one is over (RULES.md §2): the next
    /// seat under `"rotate"`; under `"first_winner"` the first winner, or the discarder (or kong
    /// owner) when that first win was several on one tile, or the same dealer when nobody won
    /// (荒庄不下庄). `None` while the hand is in play.
    pub fn next_dealer(&self) -> Option<u8> {
        if !self.is_over() {
            return None;
        }
        Some(match self.rules.dealer_rotation {
            DealerRotation::Rotate => after(self.dealer, 1),
            DealerRotation::FirstWinner => match self.wins.as_slice() {
                [] => self.dealer,
                [first, second, ..] if second.shared => first.from.unwrap_or(first.seat),
                [first, ..] => first.seat,
            },
        })
    }

    /// Picks the first dealer; with `"dice"`, returns every die each seat rolled.
    fn choose_dealer(&mut self) -> Option<[Vec<u8>; 4]> {
        match self.rules.first_dealer {
            FirstDealer::East => {
                self.dealer = 0;
                None
            }
            FirstDealer::Random => {
                self.dealer = self.rng.below(4) as u8;
                None
            }
            FirstDealer::Dice => {
                let mut rolls: [Vec<u8>; 4] = Default::default();
                let mut rolling: Vec<u8> = (0..4).collect();
                loop {
                    let totals: Vec<(u8, u8)> = rolling
                        .iter()
                        .map(|&s| {
                            let (a, b) = (self.rng.die(), self.rng.die());
                            rolls[s as usize].extend([a, b]);
                            (s, a + b)
                        })
                        .collect();
                    let best = totals.iter().map(|&(_, t)| t).max().unwrap_or(0);
                    rolling = totals
                        .iter()
                        .filter(|&&(_, t)| t == best)
                        .map(|&(s, _)| s)
                        .collect();
                    if rolling.len() == 1 {
                        self.dealer = rolling[0];
                        return Some(rolls);
                    }
                }
            }
        }
    }

    /// Shuffles a full wall, rolls the wall-break dice and deals 13 to each seat in turn order
    /// from the dealer, then a 14th to the dealer. Deal events follow that order *(c)*.
    fn deal(&mut self) {
        self.wall = Wall::sorted();
        self.rng.shuffle(&mut self.wall.tiles);
        // Thrown after the shuffle, so a second die changes no tile of the wall.
        let first = self.rng.die();
        let rolls = match self.rules.wall_break_dice {
            2 => Rolls::Two([first, self.rng.die()]),
            _ => Rolls::One([first]),
        };
        self.push(Event::Dice {
            purpose: Purpose::Wall,
            seat: Some(self.dealer),
            rolls,
        });
        self.seats = [Seat::EMPTY; 4];
        for i in 0..4 {
            let seat = after(self.dealer, i);
            for _ in 0..DEAL {
                self.take_from_wall(seat);
            }
        }
        self.take_from_wall(self.dealer);
        for i in 0..4 {
            let seat = after(self.dealer, i);
            let tiles = self.seats[seat as usize].hand;
            self.push(Event::Deal { seat, tiles });
        }
    }

    /// A dealt tile: it arrives on the seat's first turn.
    fn take_from_wall(&mut self, seat: u8) {
        if let Some(t) = self.wall.draw_front() {
            self.seats[seat as usize].receive(t, 1, self.rules.wilds);
        }
    }

    fn begin_exchange(&mut self) {
        if self.rules.exchange.is_some() {
            self.pending = Pending::Exchange([None; 4]);
        } else {
            self.begin_void();
        }
    }

    fn begin_void(&mut self) {
        if self.rules.declare_void {
            self.pending = Pending::Void([None; 4]);
        } else {
            self.begin_play();
        }
    }

    /// Play starts: a non-dealer dealt four wilds wins first (§11), else the dealer's first turn.
    fn begin_play(&mut self) {
        let rules = self.rules.clone();
        self.seats.iter_mut().for_each(|s| s.refresh_waits(&rules));
        let four_wilds = (0..4u8)
            .find(|&s| s != self.dealer && self.seats[s as usize].hand.wilds() >= MAX_WILDS);
        match four_wilds {
            Some(seat) => {
                self.seats[seat as usize].turn = 1;
                self.pending = Pending::Turn(Turn {
                    seat,
                    kind: TurnKind::Dealt,
                    drawn: None,
                    kong: None,
                    last_four: false,
                });
            }
            None => self.dealer_first_turn(),
        }
    }

    /// The dealer's first turn: 14 tiles, no draw.
    pub(super) fn dealer_first_turn(&mut self) {
        let dealer = self.dealer;
        self.seats[dealer as usize].turn = 1;
        self.pending = Pending::Turn(Turn {
            seat: dealer,
            kind: TurnKind::First,
            drawn: None,
            kong: None,
            last_four: false,
        });
    }

    /// Every pick of three from the hand: of one suit, or any three without
    /// `exchange_same_suit`. Each multiset once, in index order.
    pub(super) fn exchange_actions(&self, seat: u8, f: &mut impl FnMut(Action)) {
        let counts = self.seats[seat as usize].hand.array();
        let suits: &[(usize, usize)] = if self.rules.exchange_same_suit {
            &[(0, 9), (9, 18), (18, 27)]
        } else {
            &[(0, 27)]
        };
        let tile = |i: usize| Tile::new(i as u8).unwrap_or(Tile::new(0).expect("1m"));
        for &(lo, hi) in suits {
            // The kinds held, so the loops below visit nothing absent.
            let mut held = [0usize; 27];
            let mut n = 0;
            for i in (lo..hi).filter(|&i| counts[i] > 0) {
                held[n] = i;
                n += 1;
            }
            let held = &held[..n];
            for (x, &a) in held.iter().enumerate() {
                for (y, &b) in held.iter().enumerate().skip(x) {
                    if counts[b] <= u8::from(b == a) {
                        continue;
                    }
                    for &c in &held[y..] {
                        // Copies of c needed: one, plus one per earlier pick of the same tile.
                        if counts[c] > u8::from(c == b) + u8::from(c == a) {
                            f(Action::Exchange([tile(a), tile(b), tile(c)]));
                        }
                    }
                }
            }
        }
    }

    /// Whether `tiles` is one of the picks [`Game::exchange_actions`] lists, found without
    /// listing them (up to 364): in index order, held, and of one suit if the rules ask it.
    pub(super) fn exchange_pick_legal(&self, seat: u8, tiles: [Tile; 3]) -> bool {
        let hand = &self.seats[seat as usize].hand;
        let [a, b, c] = tiles;
        let copies = |t: Tile| tiles.iter().filter(|&&x| x == t).count() as u8;
        let one_suit = a.suit() == b.suit() && b.suit() == c.suit();
        a <= b
            && b <= c
            && tiles.iter().all(|&t| hand.count(t) >= copies(t))
            && (one_suit || !self.rules.exchange_same_suit)
    }

    /// All four picks are in: roll or draw the direction, swap, and redeal if nothing changed.
    pub(super) fn resolve_exchange(&mut self) {
        let Pending::Exchange(picks) = self.pending else {
            return;
        };
        let given: [[Tile; 3]; 4] = picks.map(|p| p.unwrap_or([Tile::new(0).expect("1m"); 3]));
        let direction = self.exchange_direction();
        let mut received = given;
        for giver in 0..4u8 {
            received[after(giver, direction.steps()) as usize] = given[giver as usize];
        }
        for seat in 0..4 {
            let s = &mut self.seats[seat];
            given[seat].iter().for_each(|&t| s.hand.remove(t));
            received[seat].iter().for_each(|&t| s.receive(t, 1, false));
        }
        self.push(Event::Exchange {
            direction,
            given,
            received,
        });
        self.history.exchange = Some(Exchanged { direction, given });
        if self.rules.exchange_redeal_if_unchanged && given == received {
            self.history.exchange = None;
            self.push(Event::Redeal);
            self.deal();
            self.pending = Pending::Exchange([None; 4]);
        } else {
            self.begin_void();
        }
    }

    /// The direction: fixed, a die read as seed 000's table, or `below(3)`.
    fn exchange_direction(&mut self) -> Direction {
        match self.rules.exchange {
            Some(Exchange::Clockwise) => Direction::Clockwise,
            Some(Exchange::Counterclockwise) => Direction::Counterclockwise,
            Some(Exchange::Opposite) | None => Direction::Opposite,
            Some(Exchange::Dice) => {
                let roll = self.rng.die();
                self.push(Event::Dice {
                    purpose: Purpose::Exchange,
                    seat: Some(self.dealer),
                    rolls: Rolls::One([roll]),
                });
                match roll {
                    2 | 6 => Direction::Clockwise,
                    4 => Direction::Counterclockwise,
                    _ => Direction::Opposite,
                }
            }
            Some(Exchange::Random) => match self.rng.below(3) {
                0 => Direction::Counterclockwise,
                1 => Direction::Clockwise,
                _ => Direction::Opposite,
            },
        }
    }

    /// All four declarations are in: record them in seat order and start play.
    pub(super) fn resolve_void(&mut self) {
        let Pending::Void(picks) = self.pending else {
            return;
        };
        for seat in 0..4u8 {
            let suit = picks[seat as usize].unwrap_or(Suit::M);
            self.seats[seat as usize].void = Some(suit);
            self.push(Event::Void { seat, suit });
        }
        self.begin_play();
    }
}

/// Whether the hand holds the three tiles (as a multiset).
pub(super) fn holds_all(hand: &Counts, tiles: &[Tile; 3]) -> bool {
    tiles
        .iter()
        .all(|t| tiles.iter().filter(|&u| u == t).count() as u8 <= hand.count(*t))
}

/// RULES.md §4's timeout pick: the suit with fewest tiles among those with at least three, ties
/// m, p, s; its three lowest tiles.
pub(super) fn default_exchange(hand: &Counts) -> Option<[Tile; 3]> {
    let suit = Suit::ALL
        .into_iter()
        .filter(|&s| suit_len(hand, s) >= 3)
        .min_by_key(|&s| (suit_len(hand, s), s))?;
    let mut tiles = hand.tiles().filter(|t| t.suit() == suit);
    Some([tiles.next()?, tiles.next()?, tiles.next()?])
}

/// The suit with fewest tiles, ties m, p, s.
pub(super) fn default_void(hand: &Counts) -> Suit {
    Suit::ALL
        .into_iter()
        .min_by_key(|&s| (suit_len(hand, s), s))
        .unwrap_or(Suit::M)
}

fn suit_len(hand: &Counts, suit: Suit) -> usize {
    hand.suit_counts(suit).iter().map(|&c| c as usize).sum()
}
