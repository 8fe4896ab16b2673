//! Blocks shared by the reassemblers of many connections.
//!
//! A block freed by one thread and allocated again by another may not be
//! the same memory: an allocator with an arena per thread (as the GNU C
//! library's) keeps what a thread frees for that thread, so connections
//! served by several threads in turn can leave every arena holding what
//! the fragments of all of them once needed. A [`BlockPool`] keeps the
//! blocks freed while others are in use and hands them to whichever
//! reassembler needs one next, whatever its thread: the blocks ever
//! allocated are then as many as were in use at once. Once none is in use
//! the pool frees them all, so that a burst of fragments leaves nothing
//! behind.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// The room of a block of a [`BlockPool`].
pub const POOL_BLOCK: usize = 32 * 1024;

#[derive(Debug, Default)]
struct State {
    /// Blocks freed, empty, each of [`POOL_BLOCK`] octets of room.
    free: Vec<Vec<u8>>,
    /// Blocks handed out and not given back.
    in_use: usize,
}

/// Blocks of [`POOL_BLOCK`] octets for [`crate::Reassembler`]s, reused
/// across connections and threads (see [`crate::Reassembler::with_pool`]).
///
/// ```
/// use std::sync::Arc;
/// use rtorb_giop::fragment::BlockPool;
///
/// let pool = Arc::new(BlockPool::default());
/// let a = pool.take();
/// let b = pool.take();
/// let at = a.as_ptr();
/// pool.give(a);
/// assert_eq!(pool.in_use(), 1);
/// // The block given back is handed out again.
/// let c = pool.take();
/// assert_eq!(c.as_ptr(), at);
/// pool.give(b);
/// pool.give(c);
/// // None in use: every block is freed.
/// assert_eq!((pool.in_use(), pool.kept()), (0, 0));
/// ```
#[derive(Debug, Default)]
pub struct BlockPool {
    state: Mutex<State>,
}

impl BlockPool {
    fn state(&self) -> MutexGuard<'_, State> {
        // The state is consistent after every statement: a panic elsewhere
        // while it was locked leaves it usable.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// An empty block of [`POOL_BLOCK`] octets of room: one given back,
    /// or a new one.
    pub fn take(&self) -> Vec<u8> {
        let reused = {
            let mut s = self.state();
            s.in_use += 1;
            s.free.pop()
        };
        reused.unwrap_or_else(|| Vec::with_capacity(POOL_BLOCK))
    }

    /// Gives back a block [`BlockPool::take`] handed out: kept for the
    /// next while others are in use, freed with all those kept when none
    /// is.
    pub fn give(&self, mut block: Vec<u8>) {
        block.clear();
        let freed = {
            let mut s = self.state();
            s.in_use = s.in_use.saturating_sub(1);
            if s.in_use == 0 {
                std::mem::take(&mut s.free)
            } else {
                if block.capacity() == POOL_BLOCK {
                    s.free.push(block);
                }
                return;
            }
        };
        // Freed outside the lock.
        drop(freed);
    }

    /// Blocks handed out and not given back.
    pub fn in_use(&self) -> usize {
        self.state().in_use
    }

    /// Blocks kept for reuse.
    pub fn kept(&self) -> usize {
        self.state().free.len()
    }
}
