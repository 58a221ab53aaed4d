//! Determinisation, for search over hidden information (ISMCTS): a copy of the game in which
//! every tile hidden from one seat — the other concealed hands and the wall's order — is dealt
//! again at random, consistent with what that seat knows (RULES.md §12).
//!
//! The deal reads only what the seat may see, never the hidden tiles themselves (except in the
//! one fallback below), so determinising a determinised copy again with the same seed gives the
//! same copy. It respects:
//! - the seat's own hand and decisions, every discard, meld, win, payment and score, the hand
//!   sizes and the wall's size;
//! - the exchange: the three tiles the seat gave sit in the receiving hand, less the copies of
//!   each kind that hand has shown since ([`Game::known_tiles`]);
//! - void suits: a seat whose latest discard was outside its void suit holds no void tile but
//!   those drawn since ([`Game::void_bound`]);
//! - wins: each winner's hidden hand waits on every tile it won on and scores each win exactly
//!   as recorded (pattern, roots and every bonus are public), so the copy restores as it is; a
//!   four-wild winner keeps three wilds and any other tiles. Under `win_reveal = "hand_end"`,
//!   until the hand is over, another seat's score is hidden and a self-draw's tile too: such a
//!   winner's hand only waits on the tiles the viewer saw it win on, with any pattern and score;
//!   each hidden self-drawn tile is an unseen one that hand waits on, and the copy's records of
//!   those wins are scored (and what they are owed worked out) again;
//! - wilds (幺鸡): the hidden ones are dealt like any hidden tile, as wilds into hands and as
//!   `1s` into the wall; they are in no suit, so never void tiles. A hand holding four wins at
//!   once, so in play only the seat on a "dealt" or first turn keeps four (a "dealt" turn is
//!   public: its seat holds four).
//!
//! Hidden decisions of other seats (exchange picks, void picks, responses) are forgotten and
//! must be made again; responses open to other seats are worked out afresh from their new
//! hands, so a discard may go unclaimed in the copy. The copy keeps no event log: the log
//! records the true deal and seed, from which the whole hidden game follows. Its random
//! generator is reseeded.
//!
//! Approximations, by choice: the deal is uniform over consistent deals for the hands that have
//! not won (a Markov chain of tile swaps, started from a random feasible deal), but a winner's
//! hand is built set by set ([`super::winning_hand`]), not uniformly, and of natural tiles
//! but for the wilds a win without 无鸡加番 shows (a win on a drawn wild asks just that it
//! waits). Not used: what the absence of a claim suggests, a kong's `late` flag, and 过胡 locks
//! (a pass is hidden; other seats' locks are cleared). When the winners' hands and the void-bound
//! hands cannot be dealt together in [`DEAL_TRIES`] tries, a search over the hands each winner
//! could hold, in a random order, looks for ones the rest deals around; only when its
//! [`SEARCH_BUDGET`] runs out do the winners keep their true hands (about 0.2% of positions
//! from random play, the last few draws of a hand with two or three winners whose hands hold
//! nearly every unseen tile; the tests count it).

use super::events::KongKind;
use super::value::score_win;
use super::winning_hand::{random_waiting_hand, search_waiting_hands, Shape, Wanted};
use super::{Game, Pending, Responses, TurnKind, WinRecord};
use crate::analysis::waits;
use crate::error::Error;
use crate::hand::{Counts, MAX_WILDS};
use crate::meld::MeldKind;
use crate::pattern::Pattern;
use crate::rng::Rng;
use crate::score::Bonus;
use crate::tile::{Suit, Tile, COPIES, KINDS};
use std::collections::VecDeque;

/// Swap proposals of the Markov chain per tile in the hidden hands.
const SWAPS_PER_TILE: usize = 8;
/// Tries at a winner's hand that scores each of its wins as recorded (a hand that only waits
/// on its winning tiles would restore with other scores, so none is taken).
const WINNER_TRIES: u32 = 64;
/// Tries at dealing the winners and the void-bound hands together.
const DEAL_TRIES: u32 = 48;
/// Blocks a search for winners' hands may try when those tries fail: a few milliseconds.
const SEARCH_BUDGET: u32 = 100_000;
/// Places hidden tiles may go: each other seat's kept hand and drawn tile, and the wall.
const MAX_PLACES: usize = 7;

/// Each winner's new kept hand (`None` for the others).
type Winners = [Option<[u8; KINDS]>; 4];

/// New tiles of the self-draws the viewer has not seen, by index in the win list.
type WonTiles = Vec<(usize, Tile)>;

/// What the viewer knows a winner's kept hand must satisfy, from its wins and melds.
struct WinnerNeeds {
    seat: u8,
    /// It won on four wilds: a win whatever its other tiles ([`Game::four_wilds_hand`]).
    four_wilds: bool,
    /// Its pattern; `None` while its wins are hidden from the viewer, which then knows no score.
    pattern: Option<Pattern>,
    /// A natural tile it won on, which the hand is built to wait on.
    target: Option<Tile>,
    /// Every natural tile it won on, as bits.
    won_on: u32,
    /// A win without 无鸡加番 shows a wild in the kept hand.
    held_wild: bool,
    wilds: bool,
    /// Sets the kept hand makes besides the melds.
    sets: usize,
    suits: u8,
    /// The tiles the viewer gave it in the exchange and has not seen again.
    known: Option<[u8; KINDS]>,
}

impl WinnerNeeds {
    /// The natural tiles of `avail` a hand is built from; `None` if it must hold a wild and
    /// none is unseen.
    fn naturals(&self, avail: &[u8; KINDS]) -> Option<[u8; KINDS]> {
        let mut naturals = *avail;
        if self.wilds {
            let unseen = std::mem::take(&mut naturals[Tile::YAOJI.index()]);
            (unseen > 0 || !self.held_wild).then_some(())?;
        }
        Some(naturals)
    }
}

/// One place hidden tiles go: a seat's kept hand, the tile it has just drawn, or the wall.
#[derive(Clone, Copy, Debug)]
struct Place {
    size: usize,
    /// The place's void suit and the most tiles of it the place may hold.
    void: Option<(Suit, u8)>,
    /// Tiles the place is known to hold (given to it in the exchange).
    known: [u8; KINDS],
    /// Whether `1s` are wilds (幺鸡), which belong to no suit and so are never void tiles.
    wilds: bool,
    /// The most wilds the place may hold: a hand holding four wins at once, so in play only a
    /// seat about to declare them (a "dealt" or first turn) holds four.
    max_wilds: u8,
}

impl Place {
    const FREE: Place = Place {
        size: 0,
        void: None,
        known: [0; KINDS],
        wilds: false,
        max_wilds: COPIES,
    };

    /// Wilds beyond [`Place::max_wilds`] the place may still take, holding `counts`.
    fn wild_room(&self, counts: &[u8; KINDS]) -> u8 {
        if self.wilds {
            self.max_wilds.saturating_sub(counts[Tile::YAOJI.index()])
        } else {
            COPIES
        }
    }

    /// Whether the place may hold `counts`; `known` says whether it has known tiles to check
    /// (the Markov chain asks this of every swap, and most places have none).
    #[inline]
    fn allows(&self, counts: &[u8; KINDS], known: bool) -> bool {
        let wilds = !self.wilds || counts[Tile::YAOJI.index()] <= self.max_wilds;
        wilds
            && self
                .void
                .is_none_or(|(v, max)| suit_total(counts, v, self.wilds) <= max)
            && (!known || counts.iter().zip(&self.known).all(|(c, k)| c >= k))
    }

    /// Whether the place is known to hold some tiles.
    fn has_known(&self) -> bool {
        self.known.iter().any(|&k| k > 0)
    }
}

/// Where each other seat's hidden tiles go: indices into the places.
#[derive(Clone, Copy, Debug, Default)]
struct Layout {
    /// The kept hand (`None` for a winner, whose hand is built apart).
    kept: [Option<usize>; 4],
    drawn: [Option<usize>; 4],
    wall: usize,
}

/// Hidden tiles dealt to the places, place after place.
struct Deal {
    places: Vec<Place>,
    tiles: Vec<Tile>,
    owner: Vec<u8>,
    counts: Vec<[u8; KINDS]>,
}

impl Game {
    /// A copy in which every tile hidden from `seat` is dealt again at random from `seed`,
    /// consistent with what `seat` knows (see the module's documentation). Never fails today;
    /// the `Result` leaves room for positions a future rule cannot determinise.
    pub fn determinize(&self, seat: u8, seed: u64) -> Result<Game, Error> {
        Ok(self.determinize_traced(seat, seed).0)
    }

    /// [`Game::determinize`], and whether it fell back to the winners' true hands.
    pub(super) fn determinize_traced(&self, seat: u8, seed: u64) -> (Game, bool) {
        let seat = seat & 3;
        let mut rng = Rng::new(seed);
        let (places, layout) = self.hidden_places(seat);
        let pool = self.unseen_by(seat);
        let mut copy = self.clone();
        copy.stop_logging();
        copy.seed = seed;
        copy.rng = Rng::new(rng.next_u64());
        let Some((winners, won, deal, fell_back)) =
            self.deal_hidden(seat, &pool, places, &layout, &mut rng)
        else {
            // Unreachable while the game keeps its invariants: the true deal fits.
            return (copy, true);
        };
        copy.place_hidden(seat, &winners, &deal, &layout, &mut rng);
        copy.rescore_hidden_wins(seat, &won);
        copy.invent_hidden_picks(seat, &mut rng);
        copy.reopen_decisions(seat);
        (copy, fell_back)
    }

    /// The tile `seat` has just drawn while it is on the move.
    fn just_drawn(&self, seat: u8) -> Option<Tile> {
        match self.pending {
            Pending::Turn(t) if t.seat == seat => match t.kind {
                TurnKind::Draw | TurnKind::Replacement => t.drawn,
                TurnKind::First | TurnKind::AfterPong | TurnKind::Dealt => None,
            },
            _ => None,
        }
    }

    /// Copies of each kind `seat` cannot see: in the other hands or the wall.
    fn unseen_by(&self, seat: u8) -> [u8; KINDS] {
        let mut seen = kinds(&self.seats[seat as usize].hand);
        for m in self.seats.iter().flat_map(super::state::Seat::meld_list) {
            seen[m.tile.index()] += m.naturals();
            seen[Tile::YAOJI.index()] += m.wilds;
        }
        self.river
            .entries()
            .iter()
            .for_each(|&(_, t)| seen[t.index()] += 1);
        for w in self
            .wins
            .iter()
            .filter(|w| !w.shared && !self.tile_hidden(seat, w))
        {
            seen[w.tile.index()] += 1;
        }
        seen.map(|n| COPIES.saturating_sub(n))
    }

    fn hidden_places(&self, viewer: u8) -> (Vec<Place>, Layout) {
        let mut places = Vec::with_capacity(MAX_PLACES);
        let mut layout = Layout::default();
        let receiver = self.history.exchange.map(|e| e.receiver(viewer));
        for s in (0..4u8).filter(|&s| s != viewer) {
            let drawn = usize::from(self.just_drawn(s).is_some());
            if drawn == 1 {
                layout.drawn[s as usize] = Some(places.len());
                places.push(Place {
                    size: 1,
                    wilds: self.rules.wilds,
                    ..Place::FREE
                });
            }
            if self.seats[s as usize].wins > 0 {
                continue;
            }
            let void = self.seats[s as usize].void;
            let bound = self.void_bound(s).map(|b| b.saturating_sub(drawn as u8));
            let mut known = if receiver == Some(s) {
                self.known_tiles(s)
            } else {
                [0; KINDS]
            };
            // A "dealt" turn is public: it is a non-dealer's that holds four wilds (§11).
            let dealt = matches!(self.pending, Pending::Turn(t) if t.seat == s && t.kind == TurnKind::Dealt);
            if dealt {
                known[Tile::YAOJI.index()] = COPIES;
            }
            layout.kept[s as usize] = Some(places.len());
            places.push(Place {
                size: self.seats[s as usize].hand.len() - drawn,
                void: void.zip(bound),
                known,
                wilds: self.rules.wilds,
                max_wilds: self.max_kept_wilds(s),
            });
        }
        layout.wall = places.len();
        places.push(Place {
            size: self.wall.remaining(),
            wilds: self.rules.wilds,
            ..Place::FREE
        });
        (places, layout)
    }

    /// The most wilds seat `s` may keep in the copy. Before play anyone may hold four (a
    /// non-dealer then wins on a "dealt" turn, the dealer on its first); in play a hand reaching
    /// four wins at once, so only the seat on such a turn holds them, and a drawn wild is apart.
    fn max_kept_wilds(&self, s: u8) -> u8 {
        match self.pending {
            Pending::Exchange(_) | Pending::Void(_) => COPIES,
            Pending::Turn(t)
                if t.seat == s && matches!(t.kind, TurnKind::Dealt | TurnKind::First) =>
            {
                COPIES
            }
            _ => COPIES - 1,
        }
    }

    /// Winners' kept hands and the deal of everything else: at random, else by a search, and
    /// only if that finds none in its budget do the winners keep their true hands, which always
    /// fits: the true deal of the rest is a witness.
    fn deal_hidden(
        &self,
        viewer: u8,
        pool: &[u8; KINDS],
        places: Vec<Place>,
        layout: &Layout,
        rng: &mut Rng,
    ) -> Option<(Winners, WonTiles, Deal, bool)> {
        let mut pinned = [0u8; KINDS];
        places.iter().for_each(|p| add(&mut pinned, &p.known));
        let winning: Vec<u8> = (0..4u8)
            .filter(|&s| s != viewer && self.seats[s as usize].wins > 0)
            .collect();
        // The search builds hands only; with self-drawn tiles to choose too, the true hands.
        let searchable = !self.wins.iter().any(|w| self.tile_hidden(viewer, w));
        for attempt in 0..=DEAL_TRIES {
            let last = attempt == DEAL_TRIES;
            let mut left = *pool;
            sub(&mut left, &pinned);
            if last && !winning.is_empty() && searchable {
                let needs: Vec<WinnerNeeds> = (winning.iter())
                    .filter_map(|&s| self.winner_needs(viewer, s))
                    .collect();
                let mut winners = [None; 4];
                let mut budget = SEARCH_BUDGET;
                let found = self.search_winners(
                    viewer,
                    &needs,
                    (left, &pinned, &places),
                    (&mut winners, &mut budget),
                    rng,
                );
                if let Some(mut deal) = found {
                    deal.mix(layout.wall, rng);
                    return Some((winners, Vec::new(), deal, false));
                }
            }
            let mut winners = [None; 4];
            for &s in &winning {
                let hand = if last {
                    Some(self.kept_hand(s))
                } else {
                    self.winner_hand(viewer, s, &left, rng)
                };
                let Some(hand) = hand else { break };
                sub(&mut left, &hand);
                winners[s as usize] = Some(hand);
            }
            if winning.iter().any(|&s| winners[s as usize].is_none()) {
                continue;
            }
            let Some(won) = self.hidden_win_tiles(viewer, &winners, &mut left, last, rng) else {
                continue;
            };
            add(&mut left, &pinned);
            if let Some(mut deal) = Deal::first(places.clone(), left, rng) {
                deal.mix(layout.wall, rng);
                return Some((winners, won, deal, last && !winning.is_empty()));
            }
        }
        None
    }

    /// A tile for each self-draw `viewer` has not seen, taken from `left`: one the winner's new
    /// kept hand (as it was at that win) waits on, at random, or with `truth` the tile it was.
    fn hidden_win_tiles(
        &self,
        viewer: u8,
        winners: &Winners,
        left: &mut [u8; KINDS],
        truth: bool,
        rng: &mut Rng,
    ) -> Option<WonTiles> {
        let mut won = Vec::new();
        for (i, w) in self.wins.iter().enumerate() {
            if !self.tile_hidden(viewer, w) {
                continue;
            }
            let tile = if truth {
                w.tile
            } else {
                let kept = from_kinds(&winners[w.seat as usize]?, self.rules.wilds)?;
                let mut then = self.seats[w.seat as usize];
                then.hand = self.hand_at_win(w, kept);
                then.melds = w.melds;
                then.rebuild_summary();
                let waiting = waits(&then.hand, &then.context(&self.rules));
                let mut avail = *left;
                for t in Tile::all().filter(|t| waiting & 1 << t.index() == 0) {
                    avail[t.index()] = 0;
                }
                any_tile(&avail, rng)?
            };
            left[tile.index()] = left[tile.index()].checked_sub(1)?;
            won.push((i, tile));
        }
        Some(won)
    }

    /// Kept hands for the winners of `needs`, each searched in turn from the tiles `left` the
    /// ones before it leave, until the rest deals (the tiles `pinned` to places, and `left`);
    /// `None` once the budget runs out. For positions where random tries keep failing: nearly
    /// always the last draws of a hand whose winners hold nearly every unseen tile.
    fn search_winners(
        &self,
        viewer: u8,
        needs: &[WinnerNeeds],
        (left, pinned, places): ([u8; KINDS], &[u8; KINDS], &[Place]),
        (winners, budget): (&mut Winners, &mut u32),
        rng: &mut Rng,
    ) -> Option<Deal> {
        let Some((first, rest)) = needs.split_first() else {
            let mut all = left;
            add(&mut all, pinned);
            return Deal::first(places.to_vec(), all, rng);
        };
        let s = first.seat;
        let mut found = None;
        let mut take = |hand: &[u8; KINDS], rng: &mut Rng, budget: &mut u32| {
            let mut after = left;
            sub(&mut after, hand);
            winners[s as usize] = Some(*hand);
            found = self.search_winners(
                viewer,
                rest,
                (after, pinned, places),
                (winners, budget),
                rng,
            );
            found.is_some()
        };
        if first.four_wilds {
            // Any other tiles win with four wilds: random tries find them as well as a search.
            for _ in 0..WINNER_TRIES {
                *budget = budget.checked_sub(1)?;
                if let Some(hand) = self.four_wilds_hand(viewer, s, &left, rng) {
                    if take(&hand, rng, budget) {
                        break;
                    }
                }
            }
            return found;
        }
        let naturals = first.naturals(&left)?;
        let wanted = self.wanted(first, &naturals, rng)?;
        search_waiting_hands(&wanted, &naturals, rng, budget, &mut |hand, rng, budget| {
            let mut hand = *hand;
            self.fits_winner(first, &left, &mut hand, rng) && take(&hand, rng, budget)
        });
        found
    }

    /// The true concealed hand of `s` without the tile it has just drawn.
    fn kept_hand(&self, s: u8) -> [u8; KINDS] {
        let mut hand = self.seats[s as usize].hand;
        if let Some(d) = self.just_drawn(s) {
            if self.rules.is_wild(d) {
                hand.remove_wild();
            } else {
                hand.remove(d);
            }
        }
        kinds(&hand)
    }

    /// A kept hand for winner `s` from the unseen tiles `avail`: one that waits on every tile
    /// it won on and scores each win as recorded.
    fn winner_hand(
        &self,
        viewer: u8,
        s: u8,
        avail: &[u8; KINDS],
        rng: &mut Rng,
    ) -> Option<[u8; KINDS]> {
        let needs = self.winner_needs(viewer, s)?;
        if needs.four_wilds {
            return self.four_wilds_hand(viewer, s, avail, rng);
        }
        let naturals = needs.naturals(avail)?;
        for _ in 0..WINNER_TRIES {
            let wanted = self.wanted(&needs, &naturals, rng)?;
            let Some(mut hand) = random_waiting_hand(&wanted, &naturals, rng) else {
                continue;
            };
            if self.fits_winner(&needs, avail, &mut hand, rng) {
                return Some(hand);
            }
        }
        None
    }

    /// What `viewer` knows a kept hand of winner `s` must satisfy; `None` if `s` has not won.
    fn winner_needs(&self, viewer: u8, s: u8) -> Option<WinnerNeeds> {
        let seat = &self.seats[s as usize];
        let records: Vec<_> = self.wins.iter().filter(|w| w.seat == s).collect();
        let first = records.first()?;
        // A drawn wild completes any waiting hand, so a win on one asks only that the hand
        // waits; winners' hands are built from natural tiles (an approximation, by choice), some
        // made wilds where the win shows one.
        let wilds = self.rules.wilds;
        let on_wild = |t: Tile| wilds && t == Tile::YAOJI;
        // Only the viewer's own pick is known to it.
        let receives_viewers = self
            .history
            .exchange
            .is_some_and(|e| e.receiver(viewer) == s);
        // Under `win_reveal = "hand_end"` the viewer knows no score, nor a self-draw's tile.
        let hidden = self.win_hidden(viewer, first);
        let seen = |w: &&&WinRecord| !self.tile_hidden(viewer, w);
        Some(WinnerNeeds {
            seat: s,
            four_wilds: !hidden
                && self.rules.is_wild(first.tile)
                && first.hand.wilds() >= MAX_WILDS - 1,
            pattern: (!hidden).then_some(first.score.pattern),
            target: (records.iter().filter(seen))
                .map(|w| w.tile)
                .find(|&t| !on_wild(t)),
            won_on: (records.iter().filter(seen))
                .filter(|w| !on_wild(w.tile))
                .fold(0u32, |m, w| m | 1 << w.tile.index()),
            // 无鸡加番 is public: a win with the melds held now, on a natural tile, without it
            // had a wild in the kept hand.
            held_wild: wilds
                && !hidden
                && self.rules.no_wild_fan > 0
                && records.iter().any(|w| {
                    w.melds == seat.melds && !on_wild(w.tile) && !w.score.bonuses.has(Bonus::NoWild)
                }),
            wilds,
            sets: 4 - seat.meld_summary.sets as usize,
            suits: 0b111 & !seat.void.map_or(0, super::super::tile::Suit::bit),
            known: receives_viewers.then(|| self.known_tiles_to(s, super::Viewer::Seat(viewer))),
        })
    }

    /// The hand to build for `needs` this time: its winning tile, sets, suits and shape.
    fn wanted(&self, needs: &WinnerNeeds, naturals: &[u8; KINDS], rng: &mut Rng) -> Option<Wanted> {
        let seven = self.rules.allow_seven_pairs && needs.sets == 4;
        Some(Wanted {
            shape: match needs.pattern {
                Some(pattern) => Shape::of(pattern, seven, rng),
                None => Shape::any(seven, rng),
            },
            win_tile: needs.target.or_else(|| any_tile(naturals, rng))?,
            sets: needs.sets,
            suits: needs.suits,
            meld_suits: self.seats[needs.seat as usize].meld_summary.suit_mask,
        })
    }

    /// Whether the natural `hand` built for `needs` from `avail`, with its wilds made where
    /// the win shows one, fits: the viewer's known tiles, a wait on every tile won on, and
    /// every win scored as recorded (the copy must restore as it is).
    fn fits_winner(
        &self,
        needs: &WinnerNeeds,
        avail: &[u8; KINDS],
        hand: &mut [u8; KINDS],
        rng: &mut Rng,
    ) -> bool {
        if needs.held_wild {
            let most = avail[Tile::YAOJI.index()].min(MAX_WILDS - 1);
            make_wilds(hand, 1 + rng.below(u64::from(most)) as u8, rng);
        }
        let Some(counts) = from_kinds(hand, needs.wilds) else {
            return false;
        };
        let fits_known = (needs.known).is_none_or(|k| hand.iter().zip(k).all(|(&h, k)| h >= k));
        let seat = &self.seats[needs.seat as usize];
        let waiting = waits(&counts, &seat.context(&self.rules));
        fits_known
            && waiting != 0
            && waiting & needs.won_on == needs.won_on
            && (needs.pattern.is_none() || self.scores_as_recorded(needs.seat, counts))
    }

    /// A kept hand for `s`, which won on four wilds (a win whatever the other tiles): three
    /// wilds, the tiles `viewer` gave it in the exchange and has not seen again, and unseen
    /// natural tiles outside its void suit.
    fn four_wilds_hand(
        &self,
        viewer: u8,
        s: u8,
        avail: &[u8; KINDS],
        rng: &mut Rng,
    ) -> Option<[u8; KINDS]> {
        let seat = &self.seats[s as usize];
        let mut left = *avail;
        let wild = Tile::YAOJI.index();
        let receives_viewers = self
            .history
            .exchange
            .is_some_and(|e| e.receiver(viewer) == s);
        let mut hand = if receives_viewers {
            self.known_tiles(s)
        } else {
            [0; KINDS]
        };
        sub(&mut left, &hand);
        if left[wild] < MAX_WILDS - 1 {
            return None;
        }
        hand[wild] += MAX_WILDS - 1;
        left[wild] = 0;
        if let Some(v) = seat.void {
            left[9 * v.index()..9 * v.index() + 9].fill(0);
        }
        let held: usize = hand.iter().map(|&n| n as usize).sum();
        for _ in held..seat.hand.len() {
            let t = any_tile(&left, rng)?;
            left[t.index()] -= 1;
            hand[t.index()] += 1;
        }
        let counts = from_kinds(&hand, true)?;
        self.scores_as_recorded(s, counts).then_some(hand)
    }

    /// Whether winner `s` holding `hand` would have scored each of its wins (made with the
    /// melds it holds now) exactly as recorded.
    fn scores_as_recorded(&self, s: u8, hand: Counts) -> bool {
        let seat = &self.seats[s as usize];
        self.wins
            .iter()
            .filter(|w| w.seat == s && w.melds == seat.melds)
            .all(|w| {
                let mut then = *seat;
                then.hand = hand;
                then.root_only_kongs = w.root_only_kongs;
                score_win(&self.rules, &then, w.tile, w.flags) == w.score
            })
    }

    /// Writes the new deal into this copy: hands, drawn tiles, wall, winners' records, and the
    /// per-seat values that depend on hidden tiles.
    fn place_hidden(
        &mut self,
        viewer: u8,
        winners: &Winners,
        deal: &Deal,
        layout: &Layout,
        rng: &mut Rng,
    ) {
        for s in (0..4u8).filter(|&s| s != viewer) {
            let kept = match (winners[s as usize], layout.kept[s as usize]) {
                (Some(hand), _) => hand,
                (None, Some(p)) => deal.counts[p],
                (None, None) => continue,
            };
            let drawn = layout.drawn[s as usize].map(|p| deal.tiles_of(p)[0]);
            self.redeal_seat(s, &kept, drawn);
        }
        let (front, back) = (self.wall.front as usize, self.wall.back as usize);
        let wall = &mut self.wall.tiles[front..back];
        wall.copy_from_slice(deal.tiles_of(layout.wall));
        rng.shuffle(wall);
        self.refresh_cached_waits();
    }

    /// Gives seat `s` the kept tiles `kept` and the drawn tile `drawn`. Arrival turns and
    /// pongs made with three in hand are hidden history: the kept tiles count as held before
    /// this turn (a kept fourth copy as held when the pong was made), the drawn one as new.
    pub(super) fn redeal_seat(&mut self, s: u8, kept: &[u8; KINDS], drawn: Option<Tile>) {
        let wilds = self.rules.wilds;
        let Some(kept_counts) = from_kinds(kept, wilds) else {
            return;
        };
        let seat = &mut self.seats[s as usize];
        seat.hand = kept_counts;
        seat.arrival = [0; KINDS];
        kept_counts
            .tiles()
            .for_each(|t| seat.arrival[t.index()] = 1);
        let held = kept_counts.tiles().fold(0u32, |m, t| m | 1 << t.index());
        seat.pong_with_three = seat.pongs & held;
        seat.declined = None;
        if let Some(d) = drawn {
            let turn = seat.turn;
            seat.receive(d, turn, wilds);
            if let Pending::Turn(t) = &mut self.pending {
                t.drawn = Some(d);
            }
        }
        for i in 0..self.wins.len() {
            if self.wins[i].seat == s {
                self.wins[i].hand = self.hand_at_win(&self.wins[i], kept_counts);
            }
        }
    }

    /// The concealed hand before win `w` of a winner that keeps `kept` now: a concealed kong
    /// made after the win held three of its tiles in the hand then.
    fn hand_at_win(&self, w: &WinRecord, kept: Counts) -> Counts {
        let mut then = kept;
        for m in self.seats[w.seat as usize].melds.iter().flatten() {
            let later = !w.melds.iter().flatten().any(|x| x.tile == m.tile);
            if m.kind == MeldKind::ConcealedKong && later {
                (0..3).for_each(|_| then.add(m.tile));
            }
        }
        then
    }

    /// Gives the self-draws hidden from `viewer` their new tiles `won`, and scores every win
    /// hidden from it again from its new hand, with what it is owed.
    fn rescore_hidden_wins(&mut self, viewer: u8, won: &WonTiles) {
        for &(i, tile) in won {
            self.wins[i].tile = tile;
        }
        for i in 0..self.wins.len() {
            if !self.win_hidden(viewer, &self.wins[i]) {
                continue;
            }
            let w = &self.wins[i];
            let mut then = self.seats[w.seat as usize];
            (then.hand, then.melds, then.root_only_kongs) = (w.hand, w.melds, w.root_only_kongs);
            then.rebuild_summary();
            self.wins[i].score = score_win(&self.rules, &then, w.tile, w.flags);
            if self.wins[i].owed != [0; 4] {
                self.wins[i].owed = self.owed_again(i);
            }
        }
    }

    /// Exchange picks `viewer` never saw (between two other seats) are hidden too: each is
    /// replaced by three tiles of one suit from what its receiver now holds or has shown, so
    /// the copy's record is consistent with its deal and tells nothing.
    fn invent_hidden_picks(&mut self, viewer: u8, rng: &mut Rng) {
        let Some(mut ex) = self.history.exchange else {
            return;
        };
        for giver in 0..4u8 {
            let receiver = ex.receiver(giver);
            if giver == viewer || receiver == viewer {
                continue;
            }
            let wilds = self.rules.wilds;
            let mut held = *self.seats[receiver as usize].hand.array();
            add(&mut held, &self.shown_from_hand(receiver));
            let suit = Suit::ALL
                .into_iter()
                .max_by_key(|&s| suit_total(&held, s, wilds))
                .unwrap_or(Suit::M);
            let mut pick = [0, 1, 2].map(|_| take_of_suit(&mut held, suit.index(), wilds, rng));
            pick.sort_unstable();
            ex.given[giver as usize] = pick;
        }
        self.history.exchange = Some(ex);
    }

    /// Forgets the other seats' hidden decisions and reopens responses to their new hands.
    fn reopen_decisions(&mut self, viewer: u8) {
        let v = viewer as usize;
        match &mut self.pending {
            Pending::Exchange(picks) => (0..4).filter(|&i| i != v).for_each(|i| picks[i] = None),
            Pending::Void(picks) => (0..4).filter(|&i| i != v).for_each(|i| picks[i] = None),
            Pending::Respond(r) => {
                let old = *r;
                self.reopen_responses(viewer, old);
            }
            Pending::Turn(_) | Pending::Over => {}
        }
    }

    /// Claims on the pending discard or kong, worked out again from the new hands; the viewer's
    /// claim and decision stay. Resolves at once if nobody else may claim and the viewer has
    /// decided (or was not asked).
    fn reopen_responses(&mut self, viewer: u8, old: Responses) {
        let mut r = Responses {
            claims: [0; 4],
            forced: 0,
            decisions: [None; 4],
            ..old
        };
        let robbable = match old.kong {
            Some((kind, _)) => kind == KongKind::Added || self.rules.rob_concealed_kong,
            None => true,
        };
        for o in (0..4u8).filter(|&o| o != old.from) {
            r.claims[o as usize] = if o == viewer {
                old.claims[o as usize]
            } else if !robbable {
                0
            } else if old.kong.is_some() {
                self.rob_claims(o, &old)
            } else {
                self.discard_claims(o, old.tile, old.after_kong.is_some())
            };
        }
        r.decisions[viewer as usize] = old.decisions[viewer as usize];
        self.open_responses(r, self.wall.remaining() <= 4);
        if let Pending::Respond(open) = self.pending {
            if (0..4).all(|i| open.claims[i] == 0 || open.decisions[i].is_some()) {
                self.resolve_responses(open);
            }
        }
    }
}

impl Deal {
    /// A random deal of `left` that fits every place, or `None` when the void-bound places
    /// cannot all be filled. Known tiles go first; then each void-bound place takes the tiles
    /// it must hold outside its void suit, split between its two suits at random among the
    /// splits that leave the others feasible; everything else is shuffled into the free room.
    fn first(places: Vec<Place>, mut left: [u8; KINDS], rng: &mut Rng) -> Option<Deal> {
        let wilds = places.iter().any(|p| p.wilds);
        let mut counts: Vec<[u8; KINDS]> = places.iter().map(|p| p.known).collect();
        counts.iter().for_each(|c| sub(&mut left, c));
        let needs: Vec<Need> = places
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let (v, max) = p.void?;
                let held = counts[i].iter().sum::<u8>() as usize;
                let held_void = suit_total(&counts[i], v, wilds);
                let room = p.size - held;
                let free = (max.saturating_sub(held_void) as usize).min(room);
                let wild_room = p.wild_room(&counts[i]) as usize;
                Some((i, v, room - free, wild_room))
            })
            .collect();
        let mut source_left = [0usize; SOURCES];
        for (s, n) in Suit::ALL.into_iter().zip(&mut source_left) {
            *n = suit_total(&left, s, wilds) as usize;
        }
        source_left[WILD_SOURCE] = if wilds {
            left[Tile::YAOJI.index()] as usize
        } else {
            0
        };
        let mut split = vec![[0usize; SOURCES]; needs.len()];
        if !split_suits(&needs, &mut source_left, &mut split, rng) {
            return None;
        }
        for (&(i, ..), by_source) in needs.iter().zip(&split) {
            for (s, &n) in by_source.iter().enumerate() {
                for _ in 0..n {
                    let t = take_of_suit(&mut left, s, wilds, rng);
                    counts[i][t.index()] += 1;
                }
            }
        }
        let mut rest = Vec::with_capacity(left.iter().map(|&n| n as usize).sum());
        for t in Tile::all() {
            (0..left[t.index()]).for_each(|_| rest.push(t));
        }
        rng.shuffle(&mut rest);
        // Taken from the front, but for a wild skipped: a deque removes there in constant time.
        let mut rest = VecDeque::from(rest);
        // Each place takes the next tiles in turn; a wild it has no room for waits for the next
        // place (the wall, last, takes any).
        for (p, c) in places.iter().zip(counts.iter_mut()) {
            let held = c.iter().sum::<u8>() as usize;
            let mut room = p.size.saturating_sub(held);
            let mut i = 0;
            while room > 0 {
                let &t = rest.get(i)?;
                if wilds && t == Tile::YAOJI && p.wild_room(c) == 0 {
                    i += 1;
                    continue;
                }
                rest.remove(i);
                c[t.index()] += 1;
                room -= 1;
            }
        }
        let total = places.iter().map(|p| p.size).sum();
        let mut tiles = Vec::with_capacity(total);
        let mut owner = Vec::with_capacity(total);
        for (i, c) in counts.iter().enumerate() {
            for t in Tile::all() {
                for _ in 0..c[t.index()] {
                    tiles.push(t);
                    owner.push(i as u8);
                }
            }
        }
        Some(Deal {
            places,
            tiles,
            owner,
            counts,
        })
    }

    /// The tiles of place `p`.
    fn tiles_of(&self, p: usize) -> &[Tile] {
        let start = self
            .owner
            .iter()
            .position(|&o| o as usize == p)
            .unwrap_or(0);
        let len = self.places[p].size;
        &self.tiles[start..start + len]
    }

    /// Random swaps between places, each kept if both places still allow their tiles. The
    /// proposals do not depend on the tiles and a swap undoes itself, so the chain's stationary
    /// distribution is uniform over the deals that fit. The first slot is in a hand (the wall,
    /// last, is shuffled afterwards anyway), the second anywhere. Slots keep their places.
    fn mix(&mut self, wall: usize, rng: &mut Rng) {
        let in_hands = self.tiles.len() - self.places[wall].size;
        if in_hands == 0 {
            return;
        }
        let mut known = [false; MAX_PLACES];
        for (k, p) in known.iter_mut().zip(&self.places) {
            *k = p.has_known();
        }
        for _ in 0..SWAPS_PER_TILE * in_hands {
            let i = rng.below(in_hands as u64) as usize;
            let j = rng.below(self.tiles.len() as u64) as usize;
            let (a, b) = (self.tiles[i], self.tiles[j]);
            let (pa, pb) = (self.owner[i] as usize, self.owner[j] as usize);
            if pa == pb || a == b {
                continue;
            }
            let mut ca = self.counts[pa];
            let mut cb = self.counts[pb];
            ca[a.index()] -= 1;
            ca[b.index()] += 1;
            cb[b.index()] -= 1;
            cb[a.index()] += 1;
            let known = |p: usize| known.get(p).copied().unwrap_or(true);
            if self.places[pa].allows(&ca, known(pa)) && self.places[pb].allows(&cb, known(pb)) {
                self.counts[pa] = ca;
                self.counts[pb] = cb;
                self.tiles.swap(i, j);
            }
        }
    }
}

/// Where a void-bound place's required tiles come from: the three suits by index, then the
/// wilds (幺鸡 variant), which belong to no suit.
const SOURCES: usize = 4;
const WILD_SOURCE: usize = 3;

/// A void-bound place: its index, void suit, the tiles it must hold outside that suit and the
/// wilds it has room for.
type Need = (usize, Suit, usize, usize);

/// Chooses, for each void-bound place, how many of its required tiles come from each source
/// (never its void suit), so that every place can be filled; random among feasible splits.
fn split_suits(
    needs: &[Need],
    left: &mut [usize; SOURCES],
    split: &mut [[usize; SOURCES]],
    rng: &mut Rng,
) -> bool {
    let Some((&(_, void, need, wild_room), rest)) = needs.split_first() else {
        return true;
    };
    let [a, b] = match void {
        Suit::M => [1, 2],
        Suit::P => [0, 2],
        Suit::S => [0, 1],
    };
    let start = rng.below(need as u64 + 1) as usize;
    // Drawn only when wilds are left, so a game without wilds deals as before.
    let most_wilds = left[WILD_SOURCE].min(need).min(wild_room);
    let wild_start = match most_wilds {
        0 => 0,
        n => rng.below(n as u64 + 1) as usize,
    };
    for k in 0..=need {
        let from_a = (start + k) % (need + 1);
        for j in 0..=most_wilds.min(need - from_a) {
            let from_w = (wild_start + j) % (most_wilds.min(need - from_a) + 1);
            let from_b = need - from_a - from_w;
            let take = [(a, from_a), (b, from_b), (WILD_SOURCE, from_w)];
            if take.iter().any(|&(s, n)| n > left[s]) {
                continue;
            }
            take.iter().for_each(|&(s, n)| left[s] -= n);
            if split_suits(rest, left, &mut split[1..], rng) {
                split[0] = [0; SOURCES];
                take.iter().for_each(|&(s, n)| split[0][s] = n);
                return true;
            }
            take.iter().for_each(|&(s, n)| left[s] += n);
        }
    }
    false
}

/// Removes a uniformly random tile of source `source` (a suit's index, or [`WILD_SOURCE`])
/// from `left` (each copy equally likely); under `wilds` a suit's tiles leave out the `1s`.
fn take_of_suit(left: &mut [u8; KINDS], source: usize, wilds: bool, rng: &mut Rng) -> Tile {
    if source == WILD_SOURCE {
        left[Tile::YAOJI.index()] -= 1;
        return Tile::YAOJI;
    }
    let base = 9 * source;
    let counts = |i: usize| {
        if wilds && i == Tile::YAOJI.index() {
            0
        } else {
            u64::from(left[i])
        }
    };
    let total: u64 = (base..base + 9).map(counts).sum();
    let mut r = rng.below(total.max(1));
    // The kind where `r` falls: the first that `r` cannot pay its count out of.
    let i = (base..base + 9)
        .find(|&i| match r.checked_sub(counts(i)) {
            Some(rest) => {
                r = rest;
                false
            }
            None => true,
        })
        .expect("split_suits checked the suit holds enough tiles");
    left[i] -= 1;
    Tile::new(i as u8).expect("below 27")
}

/// Makes `n` of `hand`'s tiles, at random, wilds (kept in the `1s` slot): a wild stands for
/// the tile it replaced, so the hand still waits on what it waited on.
fn make_wilds(hand: &mut [u8; KINDS], n: u8, rng: &mut Rng) {
    for _ in 0..n {
        let mut naturals = *hand;
        naturals[Tile::YAOJI.index()] = 0;
        if let Some(t) = any_tile(&naturals, rng) {
            hand[t.index()] -= 1;
            hand[Tile::YAOJI.index()] += 1;
        }
    }
}

/// A uniformly random tile of `avail` (each copy equally likely), `None` when it is empty.
fn any_tile(avail: &[u8; KINDS], rng: &mut Rng) -> Option<Tile> {
    let total: u64 = avail.iter().map(|&n| u64::from(n)).sum();
    let mut r = rng.below(total.max(1));
    for t in Tile::all() {
        let n = u64::from(avail[t.index()]);
        if r < n {
            return Some(t);
        }
        r -= n;
    }
    None
}

/// Tiles of `suit` in `counts`; under `wilds` the `1s` are wilds, in no suit.
fn suit_total(counts: &[u8; KINDS], suit: Suit, wilds: bool) -> u8 {
    let all: u8 = counts[9 * suit.index()..9 * suit.index() + 9].iter().sum();
    if wilds && suit == Suit::S {
        all - counts[Tile::YAOJI.index()]
    } else {
        all
    }
}

/// A hand's tiles by kind, each wild counted as the `1s` it is.
fn kinds(hand: &Counts) -> [u8; KINDS] {
    let mut k = *hand.array();
    k[Tile::YAOJI.index()] += hand.wilds();
    k
}

/// The hand holding the tiles `k` by kind; under `wilds` its `1s` are wilds.
fn from_kinds(k: &[u8; KINDS], wilds: bool) -> Option<Counts> {
    let mut naturals = *k;
    let n = if wilds {
        std::mem::take(&mut naturals[Tile::YAOJI.index()])
    } else {
        0
    };
    Counts::from_array(&naturals).ok()?.with_wilds(n).ok()
}

fn add(a: &mut [u8; KINDS], b: &[u8; KINDS]) {
    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
}

fn sub(a: &mut [u8; KINDS], b: &[u8; KINDS]) {
    a.iter_mut()
        .zip(b)
        .for_each(|(x, y)| *x = x.saturating_sub(*y));
}
