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
}
