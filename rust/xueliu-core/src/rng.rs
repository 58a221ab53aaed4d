//! The engine's only source of randomness: SplitMix64, chosen because it is tiny, fast, passes
//! BigCrush and is easy to reproduce exactly in any language (the pure-Python reference does).
//!
//! - `next_u64`: `state += 0x9E3779B97F4A7C15; z = state; z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9;
//!   z = (z ^ z >> 27) * 0x94D049BB133111EB; return z ^ z >> 31` (all arithmetic mod 2^64).
//! - `below(n)`: Lemire's multiply-shift with rejection, unbiased: `m = x * n` as 128 bits; if the
//!   low 64 bits are below `(2^64 - n) mod n`, draw again; return the high 64 bits.
//! - `shuffle`: Fisher–Yates from the last index down: for `i` in `len-1 ..= 1`, swap `i` with
//!   `below(i + 1)`.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub const fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The state, to save and restore a generator exactly.
    pub const fn state(&self) -> u64 {
        self.state
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n`; `n` must be positive.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        // Lemire's method: the rejection threshold (2^64 mod n) is below n, so a low word of
        // at least n is accepted without the division that computes it.
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }

    /// A die roll, 1–6.
    #[inline]
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_splitmix64_sequence() {
        // Reference values of SplitMix64 seeded with 1234567 (Vigna's splitmix64.c).
        let mut rng = Rng::new(1_234_567);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            first,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423
            ]
        );
    }

    /// `below` as first written: the threshold divided out before every draw.
    fn below_dividing_first(rng: &mut Rng, n: u64) -> u64 {
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(rng.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    #[test]
    fn below_skips_the_division_without_changing_a_draw() {
        // Large bounds reject often (2^63 + 1 about half the time), small ones almost never.
        for n in [1, 2, 6, 108, 1 << 40, (1 << 63) + 1, u64::MAX] {
            let (mut fast, mut slow) = (Rng::new(n), Rng::new(n));
            for _ in 0..10_000 {
                assert_eq!(fast.below(n), below_dividing_first(&mut slow, n), "n = {n}");
            }
        }
    }

    #[test]
    fn below_is_in_range_and_shuffle_permutes() {
        let mut rng = Rng::new(7);
        assert!((0..1000).all(|_| rng.below(6) < 6));
        let mut items: Vec<u32> = (0..108).collect();
        rng.shuffle(&mut items);
        let mut sorted = items.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..108).collect::<Vec<_>>());
        assert_ne!(items, sorted);
    }
}
