//! Analysing many hands at once: rows of 27 tile counts, split across threads.

use crate::analysis::{Context, HandSize};
use crate::hand::{Counts, HandError};
use crate::tile::KINDS;

/// Rows per thread below which spawning threads costs more than it saves.
const ROWS_PER_THREAD: usize = 16_384;

/// The wilds (幺鸡) each row holds besides its counts: one number for every row, or one per row.
#[derive(Clone, Copy, Debug)]
pub enum Wilds<'a> {
    Each(u8),
    PerRow(&'a [u8]),
}

impl Wilds<'_> {
    fn of(self, row: usize) -> u8 {
        match self {
            Wilds::Each(w) => w,
            Wilds::PerRow(w) => w[row],
        }
    }
}

/// Applies `f` to every row of `rows` (27 counts each, plus the row's wilds), each checked to be a
/// hand of `size`, and writes the results to `out`. Work is split across up to `threads` threads.
/// On bad rows, the error of the first one.
pub fn map_hands<T: Send>(
    rows: &[u8],
    wilds: Wilds<'_>,
    out: &mut [T],
    ctx: &Context,
    size: HandSize,
    threads: usize,
    f: impl Fn(&Counts, &Context) -> T + Sync,
) -> Result<(), (usize, HandError)> {
    assert_eq!(
        rows.len(),
        out.len() * KINDS,
        "one output per row of 27 counts"
    );
    if let Wilds::PerRow(w) = wilds {
        assert_eq!(w.len(), out.len(), "one wilds count per row");
    }
    let chunks = threads.clamp(1, out.len() / ROWS_PER_THREAD + 1);
    let per_chunk = out.len().div_ceil(chunks).max(1);
    let run = |first_row: usize, rows: &[u8], out: &mut [T]| -> Result<(), (usize, HandError)> {
        for (i, (slot, row)) in out.iter_mut().zip(rows.chunks_exact(KINDS)).enumerate() {
            let array: &[u8; KINDS] = row.try_into().expect("rows of 27");
            let bad = |e| (first_row + i, e);
            let row = first_row + i;
            let hand = Counts::from_array(array)
                .and_then(|h| h.with_wilds(wilds.of(row)))
                .map_err(bad)?;
            ctx.check(&hand, size).map_err(bad)?;
            *slot = f(&hand, ctx);
        }
        Ok(())
    };
    if chunks == 1 {
        return run(0, rows, out);
    }
    let results: Vec<Result<(), (usize, HandError)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = out
            .chunks_mut(per_chunk)
            .zip(rows.chunks(per_chunk * KINDS))
            .enumerate()
            .map(|(i, (out, rows))| scope.spawn(move || run(i * per_chunk, rows, out)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("analysis does not panic"))
            .collect()
    });
    results.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::shanten;
    use crate::rng::Rng;
    use crate::tile::Tile;

    #[test]
    fn threads_give_the_same_answers_and_report_the_first_bad_row() {
        let mut rng = Rng::new(3);
        let mut wall: Vec<Tile> = Tile::all().flat_map(|t| [t; 4]).collect();
        let n = 3 * ROWS_PER_THREAD + 7;
        let mut rows = vec![0u8; n * KINDS];
        for row in rows.chunks_exact_mut(KINDS) {
            rng.shuffle(&mut wall);
            wall[..14].iter().for_each(|t| row[t.index()] += 1);
        }
        let ctx = Context::PLAIN;
        let mut one = vec![0i8; n];
        let mut four = vec![0i8; n];
        let none = Wilds::Each(0);
        map_hands(&rows, none, &mut one, &ctx, HandSize::Complete, 1, shanten).unwrap();
        map_hands(&rows, none, &mut four, &ctx, HandSize::Complete, 4, shanten).unwrap();
        assert_eq!(one, four);
        rows[(n - 1) * KINDS] = 5;
        rows[(2 * ROWS_PER_THREAD) * KINDS + 1] = 5;
        let err =
            map_hands(&rows, none, &mut four, &ctx, HandSize::Complete, 4, shanten).unwrap_err();
        assert_eq!(err.0, 2 * ROWS_PER_THREAD);
    }

    #[test]
    fn rows_take_their_own_wilds() {
        // Row 0 holds 13 naturals and needs one wild, row 1 holds 11 and needs three.
        let mut rows = vec![0u8; 2 * KINDS];
        for (row, text) in ["11m123m456m789m19p", "11m123m456m789m"].iter().enumerate() {
            for t in crate::tile::parse_tiles(text).unwrap() {
                rows[row * KINDS + t.index()] += 1;
            }
        }
        let ctx = Context::PLAIN;
        let mut out = vec![false; 2];
        let per_row = Wilds::PerRow(&[1, 3]);
        let is_win = crate::analysis::is_win;
        map_hands(
            &rows,
            per_row,
            &mut out,
            &ctx,
            HandSize::Complete,
            1,
            is_win,
        )
        .unwrap();
        // One wild joins 1p or 9p, never both: no win; three wilds make a whole set: a win.
        assert_eq!(out, [false, true]);
        // One wild each leaves row 1 two tiles short.
        let err = map_hands(
            &rows,
            Wilds::Each(1),
            &mut out,
            &ctx,
            HandSize::Complete,
            1,
            is_win,
        );
        assert_eq!(err.unwrap_err().0, 1);
    }
}
