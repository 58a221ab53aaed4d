//! Many hands stepped together: one action id per hand in, and per hand the next observation,
//! mask, point changes, whether the hand ended and the seat to decide out, written into
//! caller-provided buffers so that a step allocates nothing. A hand that ends is replaced by a
//! new one at once (auto-reset), and the outputs describe the new hand's first decision.

use super::table::{Policy, Table};
use crate::encode::{RulePlanes, ACTION_COUNT, OBS_SIZE, PACKED_PLANES};
use crate::error::Error;
use crate::rng::Rng;
use crate::rules::Rules;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::{Arc, Mutex};

/// Hands per thread below which another thread costs more than it saves.
const HANDS_PER_THREAD: usize = 64;

/// Where observations go: `n × OBS_SIZE` bytes, or `n × PACKED_PLANES` words bit-packed
/// (`encode::packed`).
pub enum Obs<'a> {
    Plain(&'a mut [u8]),
    Packed(&'a mut [u32]),
}

impl<'a> Obs<'a> {
    /// Whether it holds the observations of `n` hands.
    fn holds(&self, n: usize) -> bool {
        match self {
            Obs::Plain(o) => o.len() == n * OBS_SIZE,
            Obs::Packed(o) => o.len() == n * PACKED_PLANES,
        }
    }

    fn split(self, k: usize) -> (Obs<'a>, Obs<'a>) {
        match self {
            Obs::Plain(o) => {
                let (a, b) = o.split_at_mut(k * OBS_SIZE);
                (Obs::Plain(a), Obs::Plain(b))
            }
            Obs::Packed(o) => {
                let (a, b) = o.split_at_mut(k * PACKED_PLANES);
                (Obs::Packed(a), Obs::Packed(b))
            }
        }
    }
}

/// The output buffers of `n` hands: `obs` their observations, `mask` `n × ACTION_COUNT`,
/// `rewards` `n × 4` (each seat's change of points), `terminated` and `seat` `n`.
pub struct Outputs<'a> {
    pub obs: Obs<'a>,
    pub mask: &'a mut [bool],
    pub rewards: &'a mut [f64],
    pub terminated: &'a mut [bool],
    pub seat: &'a mut [i32],
}

impl Outputs<'_> {
    fn check(&self, n: usize) {
        assert!(
            self.obs.holds(n)
                && self.mask.len() == n * ACTION_COUNT
                && self.rewards.len() == n * 4
                && self.terminated.len() == n
                && self.seat.len() == n,
            "output buffers sized for {n} hands"
        );
    }

    /// Splits off the first `k` hands' outputs.
    fn split(self, k: usize) -> (Self, Self) {
        let (o1, o2) = self.obs.split(k);
        let (m1, m2) = self.mask.split_at_mut(k * ACTION_COUNT);
        let (r1, r2) = self.rewards.split_at_mut(k * 4);
        let (t1, t2) = self.terminated.split_at_mut(k);
        let (s1, s2) = self.seat.split_at_mut(k);
        (
            Outputs {
                obs: o1,
                mask: m1,
                rewards: r1,
                terminated: t1,
                seat: s1,
            },
            Outputs {
                obs: o2,
                mask: m2,
                rewards: r2,
                terminated: t2,
                seat: s2,
            },
        )
    }
}

/// One hand's slot: its table and how many hands it has played.
#[derive(Clone)]
struct Slot {
    table: Table,
    played: u64,
}

/// Bytes a hand takes: its table and its rows of the output arrays.
pub const HAND_BYTES: usize = std::mem::size_of::<Slot>() + OBS_SIZE + ACTION_COUNT + 4 * 8 + 1 + 4;

/// `Some` when `n` hands fit in the machine's memory (its total, where the system says; else
/// a terabyte), checked before anything is allocated.
fn check_size(n: usize) -> Option<()> {
    let bytes = n.checked_mul(HAND_BYTES)? as u64;
    (bytes <= memory_total().unwrap_or(1 << 40)).then_some(())
}

/// The machine's memory in bytes, from `/proc/meminfo` (Linux).
fn memory_total() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// `n` hands of one ruleset, stepped together across threads.
pub struct VecEnv {
    rules: Arc<Rules>,
    rule_planes: RulePlanes,
    policies: [Policy; 4],
    seed: u64,
    slots: Vec<Slot>,
    /// The worker threads beside the caller's, started once and kept for the env's life (a
    /// step used to start scoped threads, which cost more than a second thread gave); `None`
    /// when the caller's thread steps every hand.
    pool: Option<ThreadPool>,
}

/// The seed of the `played`-th hand of slot `index`: SplitMix64 over the three numbers, so
/// every slot and hand gets its own deal and a run depends only on `seed`.
pub fn hand_seed(seed: u64, index: usize, played: u64) -> u64 {
    let mut rng = Rng::new(seed);
    let a = rng.next_u64() ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut rng = Rng::new(a);
    rng.next_u64() ^ played.wrapping_mul(0xD1B5_4A32_D192_ED03)
}

impl VecEnv {
    /// `n` hands from `seed`; `policies` says who decides for each seat (at least one seat the
    /// caller's); `threads` caps the threads a step uses.
    pub fn new(
        n: usize,
        rules: Arc<Rules>,
        seed: u64,
        policies: [Policy; 4],
        threads: usize,
    ) -> Result<VecEnv, Error> {
        if n == 0 {
            return Err(Error::Argument("a VecEnv needs at least one hand".into()));
        }
        let mut slots = Vec::new();
        check_size(n)
            .and_then(|()| slots.try_reserve_exact(n).ok())
            .ok_or_else(|| {
                Error::Argument(format!(
                    "a VecEnv of {n} hands needs more memory than this machine has \
                     (about {HAND_BYTES} bytes a hand); use fewer hands"
                ))
            })?;
        let workers = threads.clamp(1, n.div_ceil(HANDS_PER_THREAD).max(1));
        let pool = match workers {
            1 => None,
            w => Some(
                ThreadPoolBuilder::new()
                    .num_threads(w - 1)
                    .thread_name(|i| format!("xueliu-vec-env-{i}"))
                    .build()
                    .map_err(|e| Error::Internal(format!("cannot start {w} threads: {e}")))?,
            ),
        };
        let mut env = VecEnv {
            rule_planes: RulePlanes::new(&rules),
            rules,
            policies,
            seed,
            slots,
            pool,
        };
        for i in 0..n {
            let table = env.new_table(i, 0)?;
            env.slots.push(Slot { table, played: 0 });
        }
        Ok(env)
    }

    fn new_table(&self, index: usize, played: u64) -> Result<Table, Error> {
        let seed = hand_seed(self.seed, index, played);
        Table::new(self.rules.clone(), seed, self.policies)
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The hand in slot `i`.
    pub fn table(&self, i: usize) -> &Table {
        &self.slots[i].table
    }

    /// The seed the hands are dealt from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Abandons the hands in progress and writes the first decisions of new ones: with `seed`,
    /// the hands a new VecEnv of that seed would deal; without, each slot's next hand.
    /// `rewards` and `terminated` are zeroed.
    pub fn reset(&mut self, seed: Option<u64>, out: Outputs<'_>) -> Result<(), Error> {
        out.check(self.len());
        if let Some(seed) = seed {
            self.seed = seed;
        }
        for i in 0..self.len() {
            let played = match seed {
                Some(_) => 0,
                None => self.slots[i].played + 1,
            };
            self.slots[i] = Slot {
                table: self.new_table(i, played)?,
                played,
            };
        }
        let planes = &self.rule_planes;
        for_chunks(&mut self.slots, self.pool.as_ref(), out, &|_, slot, out| {
            out.rewards.fill(0.0);
            out.terminated.fill(false);
            write_decision(&slot.table, planes, out);
        });
        Ok(())
    }

    /// Writes the current decisions without stepping.
    pub fn current(&mut self, out: Outputs<'_>) {
        out.check(self.len());
        let planes = &self.rule_planes;
        for_chunks(&mut self.slots, self.pool.as_ref(), out, &|_, slot, out| {
            write_decision(&slot.table, planes, out);
        });
    }

    /// Takes `actions[i]` in hand `i` and writes the outputs. Every id is checked before any
    /// hand moves: an illegal one fails the whole step, naming the hand, and changes nothing.
    pub fn step(&mut self, actions: &[i32], out: Outputs<'_>) -> Result<(), Error> {
        out.check(self.len());
        if actions.len() != self.len() {
            return Err(Error::Argument(format!(
                "{} actions for {} hands: give one id per hand",
                actions.len(),
                self.len()
            )));
        }
        self.check_legal(actions)?;
        let seed = self.seed;
        let planes = &self.rule_planes;
        for_chunks(&mut self.slots, self.pool.as_ref(), out, &|i, slot, out| {
            let id = u16::try_from(actions[i]).expect("checked legal above");
            let delta = slot.table.step(id).expect("checked legal above");
            delta
                .iter()
                .zip(out.rewards.iter_mut())
                .for_each(|(&d, r)| *r = d as f64);
            out.terminated[0] = slot.table.is_over();
            if slot.table.is_over() {
                slot.played += 1;
                let next = hand_seed(seed, i, slot.played);
                slot.table.redeal(next).expect("rules were playable");
            }
            write_decision(&slot.table, planes, out);
        });
        Ok(())
    }

    fn check_legal(&self, actions: &[i32]) -> Result<(), Error> {
        for (i, (&a, slot)) in actions.iter().zip(&self.slots).enumerate() {
            let legal = slot.table.legal();
            if !u16::try_from(a).is_ok_and(|id| legal.contains(id)) {
                let ids: Vec<u16> = legal.iter().collect();
                return Err(Error::IllegalAction(format!(
                    "hand {i}: action id {a} is not legal for seat {}; legal ids: {ids:?}",
                    slot.table.seat()
                )));
            }
        }
        Ok(())
    }
}

/// Hands a worker takes at a time. Workers take blocks from a shared queue rather than one
/// fixed share each, so a thread the OS sets aside (a shared machine) does not hold up the step.
const BLOCK: usize = 32;

/// Runs `f(index, slot, outputs of that one hand)` over every hand, on this thread and the
/// `pool`'s. Each hand's result depends only on its slot, so the split cannot change the
/// outputs.
fn for_chunks<F>(slots: &mut [Slot], pool: Option<&ThreadPool>, out: Outputs<'_>, f: &F)
where
    F: Fn(usize, &mut Slot, Outputs<'_>) + Sync,
{
    let blocks = slots.chunks_mut(BLOCK).zip(Blocks(Some(out))).enumerate();
    let run = |(b, (slots, mut out)): (usize, (&mut [Slot], Outputs<'_>))| {
        for k in 0..slots.len() {
            if let Some(next) = slots.get(k + 1) {
                prefetch(next);
            }
            let (one, rest) = out.split(1);
            out = rest;
            f(b * BLOCK + k, &mut slots[k], one);
        }
    };
    let Some(pool) = pool else {
        blocks.for_each(run);
        return;
    };
    let queue = Mutex::new(blocks);
    let work = || loop {
        // A panic elsewhere poisons nothing here: the queue holds no invariant.
        let next = queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .next();
        match next {
            Some(block) => run(block),
            None => break,
        }
    };
    pool.in_place_scope(|scope| {
        for _ in 0..pool.current_num_threads() {
            scope.spawn(|_| work());
        }
        work();
    });
}

/// Asks the CPU to bring `value`'s bytes into its cache ahead of use. A step reads and writes
/// much of its hand's table, and with thousands of hands the table is never still cached from
/// the last step (the outputs written in between evict it): fetching the next hand's table
/// while this one steps hides that wait (BENCHMARKS.md, "A step that waits less for memory").
/// A hint only: it changes no value, and elsewhere than x86-64 it does nothing.
#[inline]
fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let start = std::ptr::from_ref(value).cast::<i8>();
        for offset in (0..std::mem::size_of::<T>()).step_by(64) {
            // SAFETY: a prefetch reads no value and cannot fault; the addresses are `value`'s.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(offset)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// The outputs cut into consecutive blocks of `BLOCK` hands.
struct Blocks<'a>(Option<Outputs<'a>>);

impl<'a> Iterator for Blocks<'a> {
    type Item = Outputs<'a>;

    fn next(&mut self) -> Option<Outputs<'a>> {
        let out = self.0.take()?;
        let k = out.terminated.len().min(BLOCK);
        let (block, rest) = out.split(k);
        self.0 = (!rest.terminated.is_empty()).then_some(rest);
        Some(block)
    }
}

/// The observation, mask and seat of the table's next decision (all zero once it is over,
/// which a hand never is here: it has been replaced).
fn write_decision(table: &Table, planes: &RulePlanes, out: Outputs<'_>) {
    let seat = table.seat();
    match out.obs {
        Obs::Plain(obs) => planes.observe(table.game(), seat, table.picks(), obs),
        Obs::Packed(obs) => planes.observe_packed(table.game(), seat, table.picks(), obs),
    }
    table.legal().write(out.mask);
    out.seat[0] = i32::from(seat);
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Buffers {
        obs: Vec<u8>,
        mask: Vec<bool>,
        rewards: Vec<f64>,
        terminated: Vec<bool>,
        seat: Vec<i32>,
    }

    impl Buffers {
        fn new(n: usize) -> Buffers {
            Buffers {
                obs: vec![0; n * OBS_SIZE],
                mask: vec![false; n * ACTION_COUNT],
                rewards: vec![0.0; n * 4],
                terminated: vec![false; n],
                seat: vec![0; n],
            }
        }

        fn out(&mut self) -> Outputs<'_> {
            Outputs {
                obs: Obs::Plain(&mut self.obs),
                mask: &mut self.mask,
                rewards: &mut self.rewards,
                terminated: &mut self.terminated,
                seat: &mut self.seat,
            }
        }
    }

    /// Plays `steps` random legal ids and returns a digest of every output.
    fn run(n: usize, threads: usize, steps: usize) -> (Vec<u8>, f64, usize) {
        run_with("chengdu_xueliu", [Policy::Caller; 4], n, threads, steps)
    }

    fn run_with(
        preset: &str,
        policies: [Policy; 4],
        n: usize,
        threads: usize,
        steps: usize,
    ) -> (Vec<u8>, f64, usize) {
        let rules = Arc::new(Rules::preset(preset).unwrap());
        let mut env = VecEnv::new(n, rules, 11, policies, threads).unwrap();
        let mut b = Buffers::new(n);
        env.current(b.out());
        let mut rng = Rng::new(1);
        let (mut total, mut ended) = (0.0, 0);
        for _ in 0..steps {
            let actions: Vec<i32> = (0..n)
                .map(|i| {
                    let legal: Vec<usize> = (0..ACTION_COUNT)
                        .filter(|&a| b.mask[i * ACTION_COUNT + a])
                        .collect();
                    legal[rng.below(legal.len() as u64) as usize] as i32
                })
                .collect();
            env.step(&actions, b.out()).unwrap();
            total += b.rewards.iter().map(|r| r.abs()).sum::<f64>();
            ended += b.terminated.iter().filter(|&&t| t).count();
            assert!(b.rewards.chunks(4).all(|r| r.iter().sum::<f64>() == 0.0));
        }
        (b.obs.clone(), total, ended)
    }

    #[test]
    fn threads_do_not_change_the_play_and_hands_reset() {
        let one = run(200, 1, 300);
        assert_eq!(one, run(200, 2, 300));
        assert_eq!(
            one,
            run(200, 4, 300),
            "four threads: the caller's and a pool of three"
        );
        assert!(one.2 >= 200, "every hand ended at least once in 300 steps");
    }

    #[test]
    fn bot_opponents_play_the_same_on_any_thread_count() {
        let greedy = Policy::Bot(crate::bots::BotKind::Greedy);
        let mixed = [Policy::Caller, greedy, greedy, Policy::Random];
        let one = run_with("chengdu_xueliu", mixed, 150, 1, 200);
        assert_eq!(one, run_with("chengdu_xueliu", mixed, 150, 2, 200));
        assert!(one.2 >= 150, "every hand ended at least once");
        assert_ne!(
            one,
            run_with(
                "chengdu_xueliu",
                [
                    Policy::Caller,
                    Policy::Random,
                    Policy::Random,
                    Policy::Random
                ],
                150,
                1,
                200
            )
        );
    }

    #[test]
    fn every_preset_steps_including_wilds() {
        let greedy = Policy::Bot(crate::bots::BotKind::Greedy);
        for preset in ["chengdu", "chengdu_xueliu", "xuezhan", "dashiyou", "yaoji"] {
            let one = run_with(preset, [Policy::Caller; 4], 40, 1, 300);
            assert!(one.2 >= 40, "{preset}: every hand ended");
            assert_eq!(one, run_with(preset, [Policy::Caller; 4], 40, 2, 300));
            let bots = run_with(preset, [Policy::Caller, greedy, greedy, greedy], 40, 2, 150);
            assert!(
                bots.2 >= 40,
                "{preset}: every hand ended with greedy opponents"
            );
        }
    }

    /// A packed env steps the same hands as a plain one, and its observations unpack to the
    /// plain ones (exchange picks included), in every preset.
    #[test]
    fn packed_observations_unpack_to_the_plain_ones() {
        use crate::choice::Choice;
        use crate::encode::{unpack, PACKED_PLANES};
        for &preset in crate::rules::Preset::ALL {
            let n = 24;
            let rules = Arc::new(preset.rules());
            let mut plain = VecEnv::new(n, rules.clone(), 3, [Policy::Caller; 4], 1).unwrap();
            let mut packed = VecEnv::new(n, rules, 3, [Policy::Caller; 4], 2).unwrap();
            let (mut a, mut b) = (Buffers::new(n), Buffers::new(n));
            let mut words = vec![0u32; n * PACKED_PLANES];
            let mut back = vec![0u8; OBS_SIZE];
            let mut rng = Rng::new(4);
            for step in 0..250 {
                let out = Outputs {
                    obs: Obs::Packed(&mut words),
                    ..b.out()
                };
                if step == 0 {
                    plain.current(a.out());
                    packed.current(out);
                } else {
                    let actions: Vec<i32> = (0..n)
                        .map(|i| {
                            let legal = plain.table(i).legal();
                            i32::from(legal.nth(rng.below(legal.len() as u64) as usize).unwrap())
                        })
                        .collect();
                    plain.step(&actions, a.out()).unwrap();
                    packed.step(&actions, out).unwrap();
                }
                for i in 0..n {
                    unpack(&words[i * PACKED_PLANES..][..PACKED_PLANES], &mut back);
                    assert_eq!(back, a.obs[i * OBS_SIZE..][..OBS_SIZE], "{preset:?} {i}");
                }
                assert_eq!(
                    (&a.mask, &a.rewards, &a.seat),
                    (&b.mask, &b.rewards, &b.seat)
                );
            }
        }
    }

    #[test]
    fn an_illegal_action_fails_the_step_and_moves_nothing() {
        let rules = Arc::new(Rules::preset("chengdu").unwrap());
        let mut env = VecEnv::new(3, rules, 0, [Policy::Caller; 4], 1).unwrap();
        let mut b = Buffers::new(3);
        env.current(b.out());
        let good: Vec<i32> = (0..3)
            .map(|i| {
                (0..ACTION_COUNT)
                    .find(|&a| b.mask[i * ACTION_COUNT + a])
                    .unwrap() as i32
            })
            .collect();
        let before: Vec<String> = (0..3).map(|i| env.table(i).game().to_json()).collect();
        let mut bad = good.clone();
        bad[2] = 113;
        let err = env.step(&bad, b.out()).unwrap_err();
        assert!(
            matches!(&err, Error::IllegalAction(m) if m.starts_with("hand 2")),
            "{err}"
        );
        let after: Vec<String> = (0..3).map(|i| env.table(i).game().to_json()).collect();
        assert_eq!(before, after);
        env.step(&good, b.out()).unwrap();
    }
}
