//! Determinisation, for search over hidden information (ISMCTS): a copy of the game in which
//! every tile hidden from one seat — the other concealed hands and the wall's order — is dealt
//! again at random, consistent with what that seat knows (RULES.md §12).
//!
//! The deal reads only what the seat may see, through its [`SeatView`], never the hidden tiles
//! themselves (except in the one fallback below, and only when the caller passes
//! [`TrueHands`]), so determinising a determinised copy again with the same seed gives the same
//! copy. The copy is made by [`SeatView::world`] from the tiles chosen here. It respects:
//! - the seat's own hand and decisions, every discard, meld, win, payment and score, the hand
//!   sizes and the wall's size;
//! - the exchange: the three tiles the seat gave sit in the receiving hand, less the copies of
//!   each kind that hand has shown since ([`SeatView::known_tiles`]);
//! - void suits: a seat whose latest discard was outside its void suit holds no void tile but
//!   those drawn since ([`SeatView::void_bound`]);
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
//! [`SEARCH_BUDGET`] runs out do the winners keep their true hands, read from [`TrueHands`]
//! (about 0.2% of positions from random play, the last few draws of a hand with two or three
//! winners whose hands hold nearly every unseen tile; the tests count it); without it, such a
//! position is an error.

use super::winning_hand::{random_waiting_hand, search_waiting_hands, Shape, Wanted};
use crate::analysis::waits;
use crate::error::{Error, Result};
use crate::game::{Game, Hidden, Phase, SeatView, SeenWin, TrueHands, TurnKind};
use crate::hand::{Counts, MAX_WILDS};
use crate::pattern::Pattern;
use crate::rng::Rng;
use crate::rules::Rules;
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
    /// It won on four wilds: a win whatever its other tiles (`Table::four_wilds_hand`).
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

/// Determinises `view`'s game for its seat: a world in which every tile hidden from the seat is
/// dealt again at random from `seed`, consistent with what it knows (see the module's
/// documentation). With `truth`, a position whose winners the search cannot deal within its
/// budget keeps the winners' true hands (about 0.2% of positions); without, it is an error.
pub fn determinize(view: &SeatView<'_>, seed: u64, truth: Option<TrueHands<'_>>) -> Result<Game> {
    Ok(determinize_traced(view, seed, truth)?.0)
}

/// [`determinize`], and whether it fell back to the winners' true hands.
pub(super) fn determinize_traced(
    view: &SeatView<'_>,
    seed: u64,
    truth: Option<TrueHands<'_>>,
) -> Result<(Game, bool)> {
    if truth.is_some_and(|t| !t.is_behind(view)) {
        return Err(Error::Argument(
            "truth: the true hands of another game than the view's; pass view.true_hands()".into(),
        ));
    }
    let table = Table {
        view: *view,
        rules: view.rules(),
        viewer: view.seat(),
        truth,
    };
    let mut rng = Rng::new(seed);
    let (places, layout) = table.hidden_places();
    let pool = table.unseen();
    let world_rng = rng.next_u64();
    let no_deal = || {
        Error::Internal(format!(
            "no deal of the tiles hidden from seat {} found without the true hands",
            table.viewer
        ))
    };
    let (winners, won, deal, fell_back) = table
        .deal_hidden(&pool, places, &layout, &mut rng)
        .ok_or_else(no_deal)?;
    let mut hidden = table.placed(&winners, &deal, &layout, &mut rng)?;
    hidden.won = won;
    hidden.exchange = table.picks(&hidden, &mut rng);
    let world = (view.world_unchecked(&hidden, seed, world_rng)).map_err(Error::Internal)?;
    Ok((world, fell_back))
}

/// The game as one seat sees it, and the opt-in to the true tiles.
struct Table<'a> {
    view: SeatView<'a>,
    rules: &'a Rules,
    viewer: u8,
    truth: Option<TrueHands<'a>>,
}

impl Table<'_> {
    /// Whether seat `s` is on the move holding a tile it has just drawn.
    fn drew(&self, s: u8) -> bool {
        matches!(self.view.turn(), Some((t, TurnKind::Draw | TurnKind::Replacement)) if t == s)
    }

    /// Whether the viewer has not seen the tile of some win yet.
    fn any_tile_hidden(&self) -> bool {
        self.view.wins().any(|w| w.tile.is_none())
    }

    /// Copies of each kind the viewer cannot see: in the other hands or the wall.
    fn unseen(&self) -> [u8; KINDS] {
        let mut seen = kinds(self.view.hand());
        for m in (0..4).flat_map(|s| self.view.melds(s)) {
            seen[m.tile.index()] += m.naturals();
            seen[Tile::YAOJI.index()] += m.wilds;
        }
        (self.view.river())
            .iter()
            .for_each(|&(_, t)| seen[t.index()] += 1);
        for w in self.view.wins().filter(|w| !w.shared) {
            if let Some(t) = w.tile {
                seen[t.index()] += 1;
            }
        }
        seen.map(|n| COPIES.saturating_sub(n))
    }

    fn hidden_places(&self) -> (Vec<Place>, Layout) {
        let (view, viewer) = (&self.view, self.viewer);
        let mut places = Vec::with_capacity(MAX_PLACES);
        let mut layout = Layout::default();
        for s in (0..4u8).filter(|&s| s != viewer) {
            let drawn = usize::from(self.drew(s));
            if drawn == 1 {
                layout.drawn[s as usize] = Some(places.len());
                places.push(Place {
                    size: 1,
                    wilds: self.rules.wilds,
                    ..Place::FREE
                });
            }
            if view.wins_of(s) > 0 {
                continue;
            }
            let void = view.void(s);
            let bound = view.void_bound(s).map(|b| b.saturating_sub(drawn as u8));
            let mut known = view.known_tiles(s);
            // A "dealt" turn is public: it is a non-dealer's that holds four wilds (§11).
            if view.turn() == Some((s, TurnKind::Dealt)) {
                known[Tile::YAOJI.index()] = COPIES;
            }
            layout.kept[s as usize] = Some(places.len());
            places.push(Place {
                size: view.hand_size(s) - drawn,
                void: void.zip(bound),
                known,
                wilds: self.rules.wilds,
                max_wilds: self.max_kept_wilds(s),
            });
        }
        layout.wall = places.len();
        places.push(Place {
            size: view.wall_remaining(),
            wilds: self.rules.wilds,
            ..Place::FREE
        });
        (places, layout)
    }

    /// The most wilds seat `s` may keep in the copy. Before play anyone may hold four (a
    /// non-dealer then wins on a "dealt" turn, the dealer on its first); in play a hand reaching
    /// four wins at once, so only the seat on such a turn holds them, and a drawn wild is apart.
    fn max_kept_wilds(&self, s: u8) -> u8 {
        match (self.view.phase(), self.view.turn()) {
            (Phase::Exchange | Phase::Void, _) => COPIES,
            (_, Some((t, TurnKind::Dealt | TurnKind::First))) if t == s => COPIES,
            _ => COPIES - 1,
        }
    }

    /// Winners' kept hands and the deal of everything else: at random, else by a search, and
    /// only if that finds none in its budget (and with the opt-in to the truth) do the winners
    /// keep their true hands, which always fits: the true deal of the rest is a witness.
    fn deal_hidden(
        &self,
        pool: &[u8; KINDS],
        places: Vec<Place>,
        layout: &Layout,
        rng: &mut Rng,
    ) -> Option<(Winners, WonTiles, Deal, bool)> {
        let viewer = self.viewer;
        let mut pinned = [0u8; KINDS];
        places.iter().for_each(|p| add(&mut pinned, &p.known));
        let winning: Vec<u8> = (0..4u8)
            .filter(|&s| s != viewer && self.view.wins_of(s) > 0)
            .collect();
        // The search builds hands only; with self-drawn tiles to choose too, the true hands.
        let searchable = !self.any_tile_hidden();
        for attempt in 0..=DEAL_TRIES {
            let last = attempt == DEAL_TRIES;
            let mut left = *pool;
            sub(&mut left, &pinned);
            if last && !winning.is_empty() && searchable {
                let needs: Vec<WinnerNeeds> = (winning.iter())
                    .filter_map(|&s| self.winner_needs(s))
                    .collect();
                let mut winners = [None; 4];
                let mut budget = SEARCH_BUDGET;
                let found = self.search_winners(
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
            let truth = if last && !winning.is_empty() {
                Some(self.truth?)
            } else {
                None
            };
            let mut winners = [None; 4];
            for &s in &winning {
                let hand = match truth {
                    Some(truth) => Some(kinds(&truth.kept(s))),
                    None => self.winner_hand(s, &left, rng),
                };
                let Some(hand) = hand else { break };
                sub(&mut left, &hand);
                winners[s as usize] = Some(hand);
            }
            if winning.iter().any(|&s| winners[s as usize].is_none()) {
                continue;
            }
            let Some(won) = self.hidden_win_tiles(&winners, &mut left, last, rng) else {
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

    /// A tile for each self-draw the viewer has not seen, taken from `left`: one the winner's
    /// new kept hand (as it was at that win) waits on, at random, or on the last try the tile
    /// it was (with the opt-in to the truth).
    fn hidden_win_tiles(
        &self,
        winners: &Winners,
        left: &mut [u8; KINDS],
        last: bool,
        rng: &mut Rng,
    ) -> Option<WonTiles> {
        let mut won = Vec::new();
        for (i, w) in self.view.wins().enumerate() {
            if w.tile.is_some() {
                continue;
            }
            let tile = if last {
                self.truth?.won_tile(i)?
            } else {
                let kept = from_kinds(&winners[w.seat as usize]?, self.rules.wilds)?;
                let then = self.view.hand_at_win(i, kept)?;
                let waiting = waits(&then, &self.view.win_context(i)?);
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
            found = self.search_winners(rest, (after, pinned, places), (winners, budget), rng);
            found.is_some()
        };
        if first.four_wilds {
            // Any other tiles win with four wilds: random tries find them as well as a search.
            for _ in 0..WINNER_TRIES {
                *budget = budget.checked_sub(1)?;
                if let Some(hand) = self.four_wilds_hand(s, &left, rng) {
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

    /// A kept hand for winner `s` from the unseen tiles `avail`: one that waits on every tile
    /// it won on and scores each win as recorded.
    fn winner_hand(&self, s: u8, avail: &[u8; KINDS], rng: &mut Rng) -> Option<[u8; KINDS]> {
        let needs = self.winner_needs(s)?;
        if needs.four_wilds {
            return self.four_wilds_hand(s, avail, rng);
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

    /// Whether win `w` was made with the melds its winner holds now.
    fn melds_now(&self, i: usize, w: &SeenWin<'_>) -> bool {
        (self.view.win_melds(i))
            .is_some_and(|then| then.iter().flatten().copied().eq(self.view.melds(w.seat)))
    }

    /// What the viewer knows a kept hand of winner `s` must satisfy; `None` if `s` has not won.
    fn winner_needs(&self, s: u8) -> Option<WinnerNeeds> {
        let view = &self.view;
        let records = || (view.wins().enumerate()).filter(move |(_, w)| w.seat == s);
        let (_, first) = records().next()?;
        // A drawn wild completes any waiting hand, so a win on one asks only that the hand
        // waits; winners' hands are built from natural tiles (an approximation, by choice), some
        // made wilds where the win shows one.
        let wilds = self.rules.wilds;
        let on_wild = |t: Tile| wilds && t == Tile::YAOJI;
        // Under `win_reveal = "hand_end"` the viewer knows no score, nor a self-draw's tile.
        let seen = || records().filter_map(|(_, w)| w.tile);
        // 四幺鸡: four wilds won on the fourth (the bonus is public with the score).
        let four_wilds = first.tile.is_some_and(|t| self.rules.is_wild(t))
            && first.score.is_some_and(|s| s.bonuses.has(Bonus::FourWilds));
        Some(WinnerNeeds {
            seat: s,
            four_wilds,
            pattern: first.score.map(|s| s.pattern),
            target: seen().find(|&t| !on_wild(t)),
            won_on: seen()
                .filter(|&t| !on_wild(t))
                .fold(0u32, |m, t| m | 1 << t.index()),
            // 无鸡加番 is public: a win with the melds held now, on a natural tile, without it
            // had a wild in the kept hand.
            held_wild: wilds
                && first.score.is_some()
                && self.rules.no_wild_fan > 0
                && records().any(|(i, w)| {
                    self.melds_now(i, &w)
                        && w.tile.is_some_and(|t| !on_wild(t))
                        && w.score.is_some_and(|s| !s.bonuses.has(Bonus::NoWild))
                }),
            wilds,
            sets: 4 - view.melded(s).sets as usize,
            suits: 0b111 & !view.void(s).map_or(0, Suit::bit),
            known: Some(view.known_tiles(s)),
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
            meld_suits: self.view.melded(needs.seat).suit_mask,
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
        let waiting = waits(&counts, &self.view.context_of(needs.seat));
        fits_known
            && waiting != 0
            && waiting & needs.won_on == needs.won_on
            && (needs.pattern.is_none() || self.scores_as_recorded(needs.seat, counts))
    }

    /// A kept hand for `s`, which won on four wilds (a win whatever the other tiles): three
    /// wilds, the tiles the viewer gave it in the exchange and has not seen again, and unseen
    /// natural tiles outside its void suit.
    fn four_wilds_hand(&self, s: u8, avail: &[u8; KINDS], rng: &mut Rng) -> Option<[u8; KINDS]> {
        let mut left = *avail;
        let wild = Tile::YAOJI.index();
        let mut hand = self.view.known_tiles(s);
        sub(&mut left, &hand);
        if left[wild] < MAX_WILDS - 1 {
            return None;
        }
        hand[wild] += MAX_WILDS - 1;
        left[wild] = 0;
        if let Some(v) = self.view.void(s) {
            left[9 * v.index()..9 * v.index() + 9].fill(0);
        }
        let held: usize = hand.iter().map(|&n| n as usize).sum();
        for _ in held..self.view.hand_size(s) {
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
        (self.view.wins().enumerate())
            .filter(|(i, w)| w.seat == s && self.melds_now(*i, w))
            .all(|(i, w)| {
                let score = self.view.score_with(i, hand);
                score.is_some() && score.as_ref() == w.score
            })
    }

    /// The new deal as hidden tiles to install: hands, drawn tiles and the wall, shuffled.
    fn placed(
        &self,
        winners: &Winners,
        deal: &Deal,
        layout: &Layout,
        rng: &mut Rng,
    ) -> Result<Hidden> {
        let mut hidden = Hidden::default();
        for s in (0..4u8).filter(|&s| s != self.viewer) {
            let kept = match (winners[s as usize], layout.kept[s as usize]) {
                (Some(hand), _) => hand,
                (None, Some(p)) => deal.counts[p],
                (None, None) => continue,
            };
            let kept = from_kinds(&kept, self.rules.wilds)
                .ok_or_else(|| Error::Internal(format!("dealt seat {s} no hand: {kept:?}")))?;
            hidden.kept[s as usize] = Some(kept);
            hidden.drawn[s as usize] = layout.drawn[s as usize].map(|p| deal.tiles_of(p)[0]);
        }
        let mut wall = deal.tiles_of(layout.wall).to_vec();
        rng.shuffle(&mut wall);
        hidden.wall = Some(wall);
        Ok(hidden)
    }

    /// The exchange's picks: the viewer's own and the one it received as they were; those it
    /// never saw (between two other seats) are hidden too, each replaced by three tiles of one
    /// suit from what its receiver now holds (in `hidden`) or has shown, so the copy's record is
    /// consistent with its deal and tells nothing.
    fn picks(&self, hidden: &Hidden, rng: &mut Rng) -> Option<[[Tile; 3]; 4]> {
        let x = self.view.exchanged()?;
        let viewer = self.viewer;
        let receiver = |g: u8| (g + x.direction.steps()) % 4;
        let mut given = [x.given; 4];
        for giver in 0..4u8 {
            let r = receiver(giver);
            if giver == viewer {
                continue;
            }
            if r == viewer {
                given[giver as usize] = x.received;
                continue;
            }
            let wilds = self.rules.wilds;
            let mut hand = hidden.kept[r as usize].unwrap_or_default();
            if let Some(d) = hidden.drawn[r as usize] {
                if self.rules.is_wild(d) {
                    hand.add_wild();
                } else {
                    hand.add(d);
                }
            }
            let mut held = *hand.array();
            add(&mut held, &self.view.shown_from_hand(r));
            // The self-drawn tiles dealt again are shown too.
            for &(i, t) in &hidden.won {
                if self.view.wins().nth(i).is_some_and(|w| w.seat == r) {
                    held[t.index()] += 1;
                }
            }
            let suit = Suit::ALL
                .into_iter()
                .max_by_key(|&s| suit_total(&held, s, wilds))
                .unwrap_or(Suit::M);
            let mut pick = [0, 1, 2].map(|_| take_of_suit(&mut held, suit.index(), wilds, rng));
            pick.sort_unstable();
            given[giver as usize] = pick;
        }
        Some(given)
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
