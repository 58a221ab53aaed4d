//! Hand patterns (番型, RULES.md §8 and §13) and a room's fan table. A win counts only its
//! highest pattern; [`crate::score`] decides which patterns a hand has.

use crate::choice::{choice, Choice};

choice! {
    /// A scoring pattern. Names are the rules schema's.
    pub enum Pattern {
        /// 平胡: four sets and a pair.
        Basic = "basic",
        /// 门清: no claimed tile (seed 000 only); replaces `basic`.
        Concealed = "concealed",
        /// 对对胡 / 碰碰胡: four triplets and a pair.
        AllTriplets = "all_triplets",
        /// 清一色: one suit.
        FullFlush = "full_flush",
        /// 带幺九: every set and the pair holds a 1 or a 9.
        Terminals = "terminals",
        /// 七对: seven pairs.
        SevenPairs = "seven_pairs",
        /// 龙七对: seven pairs with a four inside; one root fewer.
        DragonSevenPairs = "dragon_seven_pairs",
        /// 清对 / 清碰: one-suit all triplets.
        FlushTriplets = "flush_triplets",
        /// 将对: all triplets of 2, 5 and 8.
        Triplets258 = "triplets_258",
        /// 清七对: one-suit seven pairs.
        FlushSevenPairs = "flush_seven_pairs",
        /// 清龙七对: one-suit dragon seven pairs; one root fewer.
        FlushDragonSevenPairs = "flush_dragon_seven_pairs",
        /// 清幺九: one-suit terminals.
        FlushTerminals = "flush_terminals",
        /// 天胡: the dealer wins on the dealt fourteen.
        Heavenly = "heavenly",
        /// 地胡: a non-dealer wins on the first draw.
        Earthly = "earthly",
        /// 金钩钓: a single wait after four melds.
        GoldenHook = "golden_hook",
        /// 十八罗汉: four kongs and a single wait.
        EighteenArhats = "eighteen_arhats",
    }
}

/// Number of patterns.
pub const PATTERNS: usize = 16;

impl Pattern {
    /// The pattern's usual Chinese name, for printed breakdowns.
    pub const fn chinese(self) -> &'static str {
        match self {
            Pattern::Basic => "平胡",
            Pattern::Concealed => "门清",
            Pattern::AllTriplets => "对对胡",
            Pattern::FullFlush => "清一色",
            Pattern::Terminals => "带幺九",
            Pattern::SevenPairs => "七对",
            Pattern::DragonSevenPairs => "龙七对",
            Pattern::FlushTriplets => "清对",
            Pattern::Triplets258 => "将对",
            Pattern::FlushSevenPairs => "清七对",
            Pattern::FlushDragonSevenPairs => "清龙七对",
            Pattern::FlushTerminals => "清幺九",
            Pattern::Heavenly => "天胡",
            Pattern::Earthly => "地胡",
            Pattern::GoldenHook => "金钩钓",
            Pattern::EighteenArhats => "十八罗汉",
        }
    }

    /// Dragon seven pairs count their inner four as the pattern, not as a root (减1根).
    pub const fn takes_a_root(self) -> bool {
        matches!(
            self,
            Pattern::DragonSevenPairs | Pattern::FlushDragonSevenPairs
        )
    }
}

/// A room's fan per pattern; `None` where the room does not have the pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FanTable {
    fan: [Option<u32>; PATTERNS],
    /// Bit `p` set when pattern `p` has a fan: scoring skips the others without a branch each.
    available: u32,
}

impl FanTable {
    /// No pattern available.
    pub const EMPTY: FanTable = FanTable {
        fan: [None; PATTERNS],
        available: 0,
    };

    /// A table from `(pattern, fan)` pairs; patterns not listed are unavailable.
    pub fn of(entries: &[(Pattern, u32)]) -> FanTable {
        let mut table = FanTable::EMPTY;
        for &(pattern, fan) in entries {
            table.set(pattern, Some(fan));
        }
        table
    }

    #[inline]
    pub fn get(&self, pattern: Pattern) -> Option<u32> {
        self.fan[pattern as usize]
    }

    pub fn set(&mut self, pattern: Pattern, fan: Option<u32>) {
        self.fan[pattern as usize] = fan;
        let bit = 1 << pattern as usize;
        self.available = if fan.is_some() {
            self.available | bit
        } else {
            self.available & !bit
        };
    }

    /// Bit `p` set for each pattern `p` the room has.
    #[inline]
    pub fn available(&self) -> u32 {
        self.available
    }

    /// Every pattern with its fan, in declaration order.
    pub fn iter(&self) -> impl Iterator<Item = (Pattern, Option<u32>)> + '_ {
        Pattern::ALL.iter().map(|&p| (p, self.get(p)))
    }

    /// The largest fan of any available pattern.
    pub fn max(&self) -> u32 {
        self.fan.iter().flatten().copied().max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_has_a_slot() {
        assert_eq!(Pattern::ALL.len(), PATTERNS);
        for (i, &p) in Pattern::ALL.iter().enumerate() {
            assert_eq!(p as usize, i);
        }
    }

    #[test]
    fn table_reads_back_and_knows_its_largest() {
        let t = FanTable::of(&[(Pattern::Basic, 1), (Pattern::FlushTriplets, 10)]);
        assert_eq!(t.get(Pattern::Basic), Some(1));
        assert_eq!(t.get(Pattern::SevenPairs), None);
        assert_eq!(t.max(), 10);
        assert_eq!(FanTable::EMPTY.max(), 0);
        assert_eq!(t.available(), 1 | 1 << Pattern::FlushTriplets as usize);
        let mut t = t;
        t.set(Pattern::Basic, None);
        assert_eq!(t.available(), 1 << Pattern::FlushTriplets as usize);
    }
}
