//! Splitting `count` independent jobs over scoped threads. Each thread takes one contiguous
//! range and the results come back in range order, so the thread count never changes them.

use std::ops::Range;
use std::thread;

/// The threads to use: `threads`, or every core when 0; never more than the jobs.
pub fn thread_count(threads: usize, jobs: u64) -> usize {
    let wanted = if threads == 0 {
        thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        threads
    };
    wanted.clamp(1, jobs.max(1).min(usize::MAX as u64) as usize)
}

/// Runs `work` on `threads` contiguous ranges covering `0..count`, in order. `None` if a
/// thread panicked; even one range runs on its own thread, so a panic never reaches the caller.
pub fn run_ranges<T: Send>(
    count: u64,
    threads: usize,
    work: impl Fn(Range<u64>) -> T + Sync,
) -> Option<Vec<T>> {
    let n = thread_count(threads, count) as u64;
    let bounds = |k: u64| (u128::from(count) * u128::from(k) / u128::from(n)) as u64;
    thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .map(|k| {
                let work = &work;
                scope.spawn(move || work(bounds(k)..bounds(k + 1)))
            })
            .collect();
        handles.into_iter().map(|h| h.join().ok()).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_every_job_once_in_order() {
        for threads in [1, 2, 3, 7] {
            let parts = run_ranges(10, threads, std::iter::Iterator::collect::<Vec<_>>).unwrap();
            assert_eq!(parts.concat(), (0..10).collect::<Vec<_>>());
        }
        assert_eq!(run_ranges(0, 4, std::iter::Iterator::count), Some(vec![0]));
        assert_eq!(run_ranges(5, 1, |_| -> u8 { panic!("caught") }), None);
    }
}
