//! A match: hands played in order at one table (RULES.md §2). Each next hand's dealer is the
//! last hand's [`Game::next_dealer`]; each hand's seed is derived from the match seed and the
//! hand's number, so the same match seed and the same actions give the same match.
//!
//! A match is also a session (盘, MIL SBR 2025 Art.4-5): it ends after its hands or, once the
//! clock calls time ([`Match::call_time`]), after the hand in play; then each seat gets
//! placement points (盘分) by its place in the totals, tied seats sharing their places' points.

use crate::error::Error;
use crate::game::{Event, Game};
use crate::rng::Rng;
use crate::rules::Rules;
use std::sync::Arc;

/// Most hands a match may have.
pub const MAX_HANDS: u32 = 10_000;
/// Placement points (盘分) from first place to fourth unless a match is given others (MIL
/// Art.4-6: 「第一名至第四名分别获得 4、3、2、1 的盘分」).
pub const PLACEMENT_POINTS: [u32; 4] = [4, 3, 2, 1];
/// Largest placement points of one place.
pub const MAX_PLACEMENT_POINTS: u32 = 1_000_000;

/// The seed of hand `hand` (0-based) of the match seeded `seed`: SplitMix64's output number
/// `hand + 1` from `seed`, i.e. one step of its mixer at `seed + (hand + 1) × γ`.
pub fn hand_seed(seed: u64, hand: u32) -> u64 {
    let gamma = 0x9E37_79B9_7F4A_7C15u64;
    Rng::new(seed.wrapping_add(gamma.wrapping_mul(u64::from(hand)))).next_u64()
}

/// A match of `hands` hands. The hands before the current one are kept whole (with their event
/// logs): they are the match log.
#[derive(Clone)]
pub struct Match {
    rules: Arc<Rules>,
    seed: u64,
    hands: u32,
    /// The hands already over and left behind, in order.
    finished: Vec<Game>,
    game: Game,
    /// Placement points by place, first to fourth.
    placement: [u32; 4],
    /// The session's time is up: the hand in play is the last.
    time_called: bool,
}

impl Match {
    /// A match; its first hand is dealt at once, its dealer chosen by `first_dealer`.
    pub fn new(rules: Arc<Rules>, seed: u64, hands: u32) -> Result<Match, Error> {
        if !(1..=MAX_HANDS).contains(&hands) {
            return Err(Error::Argument(format!(
                "a match has 1 to {MAX_HANDS} hands, not {hands}"
            )));
        }
        let game = Game::with_dealer(rules.clone(), hand_seed(seed, 0), None, true)?;
        Ok(Match {
            rules,
            seed,
            hands,
            finished: Vec::new(),
            game,
            placement: PLACEMENT_POINTS,
            time_called: false,
        })
    }

    /// This match with other placement points, first place to fourth (each at most
    /// [`MAX_PLACEMENT_POINTS`]).
    pub fn with_placement(mut self, placement: [u32; 4]) -> Result<Match, Error> {
        if placement.iter().any(|&p| p > MAX_PLACEMENT_POINTS) {
            return Err(Error::Argument(format!(
                "placement points are 0 to {MAX_PLACEMENT_POINTS} per place, not {placement:?}"
            )));
        }
        self.placement = placement;
        Ok(self)
    }

    /// Placement points by place, first to fourth.
    pub fn placement(&self) -> [u32; 4] {
        self.placement
    }

    /// The session's time is up (the server's clock decides, MIL Art.5-3 「打完当副牌后本盘比赛
    /// 结束」): the hand in play is the last one. Calling it again changes nothing.
    pub fn call_time(&mut self) {
        self.time_called = true;
    }

    pub fn time_called(&self) -> bool {
        self.time_called
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn hands(&self) -> u32 {
        self.hands
    }

    /// The hand in play (or the last one, once the match is over).
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// The hands over and left behind, in order.
    pub fn finished(&self) -> &[Game] {
        &self.finished
    }

    /// The hands started so far, in order, the current one last.
    pub fn games(&self) -> impl Iterator<Item = &Game> + '_ {
        self.finished.iter().chain(std::iter::once(&self.game))
    }

    /// Hands over so far.
    pub fn hands_played(&self) -> u32 {
        self.finished.len() as u32 + u32::from(self.game.is_over())
    }

    /// Every hand has been played, or time was called and the hand in play is over.
    pub fn is_over(&self) -> bool {
        self.hands_played() == self.hands || (self.time_called && self.game.is_over())
    }

    /// Each seat's placement points once the match is over (`None` before): seats ranked by
    /// their totals, tied seats sharing their places' points equally (MIL Art.4-6 「名次相同则
    /// 平分对应盘分」).
    pub fn placement_points(&self) -> Option<[f64; 4]> {
        if !self.is_over() {
            return None;
        }
        let totals = self.totals();
        let mut out = [0.0; 4];
        for (seat, &total) in totals.iter().enumerate() {
            let above = totals.iter().filter(|&&t| t > total).count();
            let tied = totals.iter().filter(|&&t| t == total).count();
            let shared: u32 = self.placement[above..above + tied].iter().sum();
            out[seat] = f64::from(shared) / tied as f64;
        }
        Some(out)
    }

    /// The dealer of each hand started so far.
    pub fn dealers(&self) -> Vec<u8> {
        self.games().map(Game::dealer).collect()
    }

    /// Each finished hand's points per seat, in order.
    pub fn results(&self) -> Vec<[i64; 4]> {
        self.games()
            .filter(|g| g.is_over())
            .map(Game::scores)
            .collect()
    }

    /// The points of the finished hands, summed per seat.
    pub fn totals(&self) -> [i64; 4] {
        self.results().iter().fold([0; 4], |mut t, r| {
            (0..4).for_each(|i| t[i] += r[i]);
            t
        })
    }

    /// The dealer of the next hand once the current one is over (`None` before, and once the
    /// match is over).
    pub fn next_dealer(&self) -> Option<u8> {
        self.game.next_dealer().filter(|_| !self.is_over())
    }

    /// Deals the next hand, once the current one is over: its dealer is the current hand's
    /// [`Game::next_dealer`], its seed [`hand_seed`] of its number.
    pub fn next_hand(&mut self) -> Result<(), Error> {
        if self.is_over() {
            let why = if self.hands_played() == self.hands {
                format!("all {} hands were played", self.hands)
            } else {
                "time was called and its last hand is over".to_owned()
            };
            return Err(Error::IllegalAction(format!("the match is over: {why}")));
        }
        let Some(dealer) = self.game.next_dealer() else {
            return Err(Error::IllegalAction(format!(
                "hand {} is still in play; finish it (or abandon it) before the next",
                self.finished.len() + 1
            )));
        };
        let number = self.finished.len() as u32 + 1;
        let next = Game::with_dealer(
            self.rules.clone(),
            hand_seed(self.seed, number),
            Some(dealer),
            true,
        )?;
        self.finished.push(std::mem::replace(&mut self.game, next));
        Ok(())
    }

    /// The match with `games`, the hands played so far in order (each over but the last, the
    /// hand in play), checked: as many as the match has at most, each with the match's rules,
    /// its seed, a logged dealer the match gives it. The door the match's written form
    /// (`crate::record`) restores through.
    pub fn with_hands(mut self, mut games: Vec<Game>) -> Result<Match, String> {
        self.check_hand_count(games.len())?;
        for (i, game) in games.iter().enumerate() {
            let last = i + 1 == games.len();
            self.check_hand(i, game, last)?;
            if i > 0 {
                let dealer = games[i - 1].next_dealer();
                if dealer != Some(game.dealer()) {
                    return Err(format!(
                        "hand {i}: dealt by seat {}, but the hand before gives seat {dealer:?}",
                        game.dealer()
                    ));
                }
            }
        }
        self.game = games.pop().ok_or("no hand")?;
        self.finished = games;
        Ok(self)
    }

    /// Whether the match may hold `total` hands played so far: 1 to its number of hands. A
    /// reader asks before it replays them.
    pub fn check_hand_count(&self, total: usize) -> Result<(), String> {
        if total == 0 || total > self.hands as usize {
            return Err(format!(
                "a match of {} hands holds 1 to {} of them, not {total}",
                self.hands, self.hands
            ));
        }
        Ok(())
    }

    /// A hand of this match: its rules, seed, dealer source and logging are the match's.
    fn check_hand(&self, i: usize, game: &Game, last: bool) -> Result<(), String> {
        if *game.rules() != *self.rules {
            return Err(format!("hand {i}: its rules are not the match's"));
        }
        let seed = hand_seed(self.seed, i as u32);
        if game.seed() != seed {
            return Err(format!(
                "hand {i}: seed {} is not the match's ({seed})",
                game.seed()
            ));
        }
        let start = game.events().next().and_then(|e| match e {
            Event::Start {
                seed,
                dealer,
                given,
                ..
            } => Some((*seed, *dealer, *given)),
            _ => None,
        });
        if start.is_some_and(|(s, d, _)| (s, d) != (seed, game.dealer())) {
            return Err(format!(
                "hand {i}: its log starts with another seed or dealer than the hand's"
            ));
        }
        if start.map(|(_, _, given)| given) != Some(i > 0) {
            return Err(format!(
                "hand {i}: {} (a logged hand whose dealer the match names after the first)",
                if i == 0 {
                    "the first hand's dealer comes from first_dealer"
                } else {
                    "its dealer must be the one the hand before gives"
                }
            ));
        }
        if !last && !game.is_over() {
            return Err(format!("hand {i} is not over, yet a later hand follows"));
        }
        Ok(())
    }
}
