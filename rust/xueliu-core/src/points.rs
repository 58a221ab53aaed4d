//! How fan becomes points (RULES.md §9, §13): the room's curve and its cap (封顶).

use crate::choice::choice;

choice! {
    /// The fan-to-points curve.
    pub enum Scoring {
        /// Seeds 000/001: points = fan × base.
        Linear = "linear",
        /// Seeds 002–004: points = base × 2^(fan − offset).
        Exponential = "exponential",
        /// §13's commercial table: points = base × 2^fan; fan is the multiplier's exponent.
        MultiplierTable = "multiplier_table",
    }
}

/// The most points a seat's running total may reach either way: snapshots, events and Python
/// ints all hold it exactly (a double is exact to 2**53).
pub const MAX_TOTAL: i64 = 1 << 50;

/// Payments one hand can make at most, counted generously: a win or kong per tile of the
/// wall, and the settlements at the end.
pub const MAX_PAYMENTS: u64 = 128;

/// The largest one payment may be: three payers paying it [`MAX_PAYMENTS`] times keep every
/// running total within [`MAX_TOTAL`].
pub const MAX_PAYMENT: u64 = MAX_TOTAL as u64 / (3 * MAX_PAYMENTS);
const _: () = assert!(3 * MAX_PAYMENTS * MAX_PAYMENT <= MAX_TOTAL as u64);

/// A room's curve: everything needed to turn a win's fan into one payer's points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Curve {
    pub scoring: Scoring,
    pub base_points: u32,
    /// Exponential only: the fan worth ×1.
    pub fan_offset: u32,
    /// Largest fan a win counts; `None` for no cap.
    pub cap_fan: Option<u32>,
}

impl Curve {
    /// `fan` limited by the cap.
    #[inline]
    pub fn cap(&self, fan: u32) -> u32 {
        self.cap_fan.map_or(fan, |cap| fan.min(cap))
    }

    /// Points per base point. Exponential counts fan below the offset as ×1: a win is never
    /// worth less than the curve's first step (seed 002 starts at 1 fan = ×1). `None` when the
    /// result does not fit 64 bits.
    #[inline]
    pub fn multiplier(&self, fan: u32) -> Option<u64> {
        match self.scoring {
            Scoring::Linear => Some(u64::from(fan)),
            Scoring::Exponential => 1u64.checked_shl(fan.saturating_sub(self.fan_offset)),
            Scoring::MultiplierTable => 1u64.checked_shl(fan),
        }
    }

    /// Points one payer pays for `fan` (no cap applied): base × multiplier.
    #[inline]
    pub fn points(&self, fan: u32) -> Option<u64> {
        self.multiplier(fan)?
            .checked_mul(u64::from(self.base_points))
    }

    /// The arithmetic of [`Curve::points`] written out, e.g. `"6 × 2^(4−1) = 48"`.
    pub fn explain(&self, fan: u32) -> String {
        let points = self
            .points(fan)
            .map_or("overflow".into(), |p| p.to_string());
        let base = self.base_points;
        match self.scoring {
            Scoring::Linear => format!("{fan} fan × {base} = {points}"),
            Scoring::Exponential if fan < self.fan_offset => {
                format!(
                    "{base} × 2^0 (fan below the offset {}) = {points}",
                    self.fan_offset
                )
            }
            Scoring::Exponential => format!("{base} × 2^({fan}−{}) = {points}", self.fan_offset),
            Scoring::MultiplierTable => format!("{base} × 2^{fan} = {points}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curve(scoring: Scoring, base_points: u32, fan_offset: u32) -> Curve {
        Curve {
            scoring,
            base_points,
            fan_offset,
            cap_fan: None,
        }
    }

    #[test]
    fn seed_002_ladder_is_six_times_two_to_fan_minus_one() {
        // 計分規則 2-3: 1 fan ×1, 2 ×2, 3 ×4, 4 ×8, 5 ×16, 6 ×32; base 6.
        let c = curve(Scoring::Exponential, 6, 1);
        let ladder: Vec<u64> = (1..=6).map(|f| c.points(f).unwrap()).collect();
        assert_eq!(ladder, [6, 12, 24, 48, 96, 192]);
        assert_eq!(c.points(0), Some(6));
    }

    #[test]
    fn linear_and_table_curves() {
        assert_eq!(curve(Scoring::Linear, 1, 0).points(12), Some(12));
        assert_eq!(curve(Scoring::Linear, 5, 0).points(0), Some(0));
        // Seed 004: 0 fan ×1, 3 fan ×8.
        let c = curve(Scoring::Exponential, 1, 0);
        assert_eq!((c.points(0), c.points(3)), (Some(1), Some(8)));
        assert_eq!(curve(Scoring::MultiplierTable, 2, 1).points(8), Some(512));
    }

    #[test]
    fn overflow_is_none_and_cap_limits() {
        let c = curve(Scoring::Exponential, 3, 0);
        assert_eq!(c.points(63), None);
        assert_eq!(c.points(62), Some(3 << 62));
        assert_eq!(c.multiplier(64), None);
        let capped = Curve {
            cap_fan: Some(5),
            ..c
        };
        assert_eq!((capped.cap(9), capped.cap(2)), (5, 2));
    }

    #[test]
    fn explain_writes_the_arithmetic() {
        assert_eq!(
            curve(Scoring::Exponential, 6, 1).explain(4),
            "6 × 2^(4−1) = 48"
        );
        assert_eq!(curve(Scoring::Linear, 1, 0).explain(4), "4 fan × 1 = 4");
    }
}
