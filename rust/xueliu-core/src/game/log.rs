//! An append-only event log that clones in constant time: full chunks are frozen behind an
//! `Arc` and shared between clones; only the short unfrozen tail is copied.

use std::sync::Arc;

/// Events per frozen chunk; the tail a clone copies holds fewer.
const CHUNK: usize = 32;

struct Chunk<T> {
    prev: Option<Arc<Chunk<T>>>,
    items: Vec<T>,
}

pub struct Log<T> {
    frozen: Option<Arc<Chunk<T>>>,
    frozen_len: usize,
    tail: Vec<T>,
}

impl<T: Clone> Clone for Log<T> {
    fn clone(&self) -> Log<T> {
        Log {
            frozen: self.frozen.clone(),
            frozen_len: self.frozen_len,
            tail: self.tail.clone(),
        }
    }
}

impl<T> Default for Log<T> {
    fn default() -> Log<T> {
        Log {
            frozen: None,
            frozen_len: 0,
            tail: Vec::new(),
        }
    }
}

impl<T> Log<T> {
    pub fn push(&mut self, item: T) {
        if self.tail.len() >= CHUNK {
            let items = std::mem::replace(&mut self.tail, Vec::with_capacity(CHUNK));
            self.frozen_len += items.len();
            let prev = self.frozen.take();
            self.frozen = Some(Arc::new(Chunk { prev, items }));
        }
        self.tail.push(item);
    }

    pub fn len(&self) -> usize {
        self.frozen_len + self.tail.len()
    }

    /// Every item, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        let mut chunks = Vec::new();
        let mut next = self.frozen.as_deref();
        while let Some(chunk) = next {
            chunks.push(&chunk.items);
            next = chunk.prev.as_deref();
        }
        chunks.into_iter().rev().flatten().chain(self.tail.iter())
    }

    /// The items from the `start`-th on, oldest first, reaching back only to the chunk that
    /// holds it: a reader that keeps its place reads what is new at a cost that grows with it.
    pub fn iter_from(&self, start: usize) -> impl Iterator<Item = &T> + '_ {
        let mut chunks = Vec::new();
        let (mut first, mut next) = (self.frozen_len, self.frozen.as_deref());
        while let Some(chunk) = next.filter(|_| first > start) {
            chunks.push(&chunk.items);
            first -= chunk.items.len();
            next = chunk.prev.as_deref();
        }
        let skip = start.saturating_sub(first);
        chunks
            .into_iter()
            .rev()
            .flatten()
            .chain(self.tail.iter())
            .skip(skip)
    }

    /// Every item, newest first.
    pub fn iter_rev(&self) -> impl Iterator<Item = &T> + '_ {
        let chunks = std::iter::successors(self.frozen.as_deref(), |c| c.prev.as_deref());
        (self.tail.iter().rev()).chain(chunks.flat_map(|c| c.items.iter().rev()))
    }
}

impl<T> Drop for Log<T> {
    /// Unlinks the chain iteratively so a long log cannot overflow the stack when dropped.
    fn drop(&mut self) {
        let mut next = self.frozen.take();
        while let Some(chunk) = next {
            match Arc::try_unwrap(chunk) {
                Ok(mut owned) => next = owned.prev.take(),
                Err(_) => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_history_and_diverge() {
        let mut a = Log::default();
        for i in 0..100 {
            a.push(i);
        }
        let mut b = a.clone();
        a.push(100);
        b.push(-1);
        assert_eq!(a.len(), 101);
        assert_eq!(
            a.iter().copied().collect::<Vec<_>>(),
            (0..=100).collect::<Vec<_>>()
        );
        assert_eq!(b.iter().last(), Some(&-1));
        assert_eq!(
            b.iter().take(100).copied().collect::<Vec<_>>(),
            (0..100).collect::<Vec<_>>()
        );
    }

    #[test]
    fn reading_from_a_place_or_backwards_is_reading_it_all() {
        for len in [0, 1, 31, 32, 33, 64, 65, 100] {
            let mut log = Log::default();
            (0..len).for_each(|i| log.push(i));
            let all: Vec<i32> = log.iter().copied().collect();
            for start in 0..=len as usize + 2 {
                let from: Vec<i32> = log.iter_from(start).copied().collect();
                assert_eq!(from, all[start.min(all.len())..], "len {len} start {start}");
            }
            let back: Vec<i32> = log.iter_rev().copied().collect();
            assert_eq!(back, all.iter().rev().copied().collect::<Vec<_>>());
        }
    }
}
