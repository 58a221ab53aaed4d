//! The observation bit-packed, for moving it cheaply (to a GPU, across processes): each channel
//! of [`super::observe()`] becomes as many 27-bit planes as its values need (`LAYOUT`'s third
//! column), one `u32` a plane, bit `t` for tile `t`; a value `v` at channel `c`, tile `t` is
//! `Σ_k bit t of plane PLANE_OF[c] + k, shifted left by k` (least significant bit first).
//! `PACKED_PLANES` words hold what `OBS_SIZE` bytes hold plainly (docs/encoding.md §2.1).

use super::observe::{Sink, Words, CHANNELS, LAYOUT};
use crate::tile::{Tile, KINDS};

const fn planes() -> ([u8; CHANNELS], [u8; CHANNELS], usize) {
    let (mut first, mut bits) = ([0u8; CHANNELS], [0u8; CHANNELS]);
    let (mut group, mut channel, mut plane) = (0, 0, 0);
    while group < LAYOUT.len() {
        let (_, channels, width) = LAYOUT[group];
        let mut k = 0;
        while k < channels {
            first[channel] = plane as u8;
            bits[channel] = width;
            plane += width as usize;
            channel += 1;
            k += 1;
        }
        group += 1;
    }
    (first, bits, plane)
}

const PLANES: ([u8; CHANNELS], [u8; CHANNELS], usize) = planes();
/// The first plane of each channel.
pub const PLANE_OF: [u8; CHANNELS] = PLANES.0;
/// The planes (bits per value) of each channel.
pub const BITS_OF: [u8; CHANNELS] = PLANES.1;
/// Words of one packed observation.
pub const PACKED_PLANES: usize = PLANES.2;

const _: () = assert!(KINDS <= 32, "a plane is one u32");

/// Writes bit planes into `PACKED_PLANES` words that start all zero.
pub(super) struct Bits<'a>(pub &'a mut [u32]);

impl Bits<'_> {
    #[inline]
    fn planes(&mut self, channel: usize) -> &mut [u32] {
        let first = PLANE_OF[channel] as usize;
        &mut self.0[first..first + BITS_OF[channel] as usize]
    }
}

impl Sink for Bits<'_> {
    #[inline]
    fn set(&mut self, channel: usize, column: usize, value: u8) {
        if BITS_OF[channel] == 1 {
            // Most channels are one plane: the value is the bit (no loop over planes).
            debug_assert!(value <= 1, "channel {channel}: {value}");
            self.0[PLANE_OF[channel] as usize] |= u32::from(value) << column;
            return;
        }
        let planes = self.planes(channel);
        debug_assert!(
            u32::from(value) >> planes.len() == 0,
            "channel {channel}: {value}"
        );
        for (k, plane) in planes.iter_mut().enumerate() {
            *plane |= u32::from(value >> k & 1) << column;
        }
    }

    #[inline]
    fn add(&mut self, channel: usize, tile: Tile) {
        // One bit added to a binary number spread over the planes: flip until a bit turns on.
        let bit = 1u32 << tile.index();
        if BITS_OF[channel] == 1 {
            let plane = &mut self.0[PLANE_OF[channel] as usize];
            debug_assert!(*plane & bit == 0, "channel {channel} overflows its plane");
            *plane |= bit;
            return;
        }
        for plane in self.planes(channel) {
            *plane ^= bit;
            if *plane & bit != 0 {
                return;
            }
        }
        debug_assert!(false, "channel {channel} overflows its planes");
    }

    #[inline]
    fn thermometer(&mut self, channel: usize, levels: usize, counts: &[u8; KINDS]) {
        let words = Words::of(counts);
        for k in 0..levels {
            self.0[PLANE_OF[channel + k] as usize] = words.above(k as u8).mask();
        }
    }

    #[inline]
    fn row(&mut self, channel: usize, values: &[u8; KINDS]) {
        let words = Words::of(values);
        for (k, plane) in self.planes(channel).iter_mut().enumerate() {
            *plane = words.bit(k).mask();
        }
    }
}

/// The plain observation of a packed one (the inverse of packing; tests and tools).
pub fn unpack(packed: &[u32], out: &mut [u8]) {
    for c in 0..CHANNELS {
        let first = PLANE_OF[c] as usize;
        for t in 0..KINDS {
            out[c * KINDS + t] = (0..BITS_OF[c] as usize)
                .map(|k| ((packed[first + k] >> t & 1) as u8) << k)
                .sum();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choice::Choice;
    use crate::encode::observe::{observe, observe_packed, OBS_SIZE};
    use crate::encode::Picks;
    use crate::game::{ActionList, Game};
    use crate::rng::Rng;
    use crate::rules::Preset;
    use std::sync::Arc;

    #[test]
    fn the_layout_packs_into_107_words() {
        assert_eq!(PACKED_PLANES, 107);
        assert_eq!(PLANE_OF[0], 0);
        assert_eq!(
            PLANE_OF[CHANNELS - 1] as usize + BITS_OF[CHANNELS - 1] as usize,
            PACKED_PLANES
        );
    }

    /// Unpacking gives the plain observation, for every seat at every decision of random play in
    /// every preset (a value too wide for its planes would differ, so this also checks the
    /// widths), and the largest value seen in each group is recorded against its width.
    #[test]
    fn unpacking_is_the_plain_observation_in_every_preset() {
        let mut rng = Rng::new(7);
        let mut buf = ActionList::new();
        let (mut plain, mut packed, mut back) = (
            vec![0u8; OBS_SIZE],
            vec![0u32; PACKED_PLANES],
            vec![0u8; OBS_SIZE],
        );
        for &preset in Preset::ALL {
            let rules = Arc::new(preset.rules());
            for seed in 0..30 {
                let mut game = Game::new(rules.clone(), seed, false).unwrap();
                loop {
                    for seat in 0..4u8 {
                        observe(&game, seat, &Picks::NONE, &mut plain);
                        packed.fill(u32::MAX);
                        observe_packed(&game, seat, &Picks::NONE, &mut packed);
                        unpack(&packed, &mut back);
                        assert_eq!(plain, back, "{preset:?} seed {seed} seat {seat}");
                        assert!(packed.iter().all(|&w| w >> KINDS == 0));
                    }
                    if !game.step_random(&mut rng, &mut buf) {
                        break;
                    }
                }
            }
        }
    }
}
