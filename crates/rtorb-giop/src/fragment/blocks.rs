//! Where a message being reassembled is kept: blocks that never move.
//!
//! One buffer grown as fragments arrive would hold up to twice the octets
//! it has (growth doubles its room), copy them at every growth, and leave
//! the allocator the old buffers to reuse or not; with fragments that
//! never end, what it holds drifts far from what it has received. Blocks
//! are allocated at the size they are given and filled, never grown, so
//! what they hold is known exactly ([`Blocks::held`]) before anything is
//! allocated ([`Blocks::held_after`]), and the message is copied once,
//! into a buffer of its size, when it is complete ([`Blocks::join_with`]).
//!
//! Without a pool, the first block is of the first message's size and
//! each later one of the rest of a fragment's body that the last block
//! has no room for, at least a quarter of the message so far up to
//! [`MIN_BLOCK`]; with a [`BlockPool`], every block is one of the pool's,
//! of [`POOL_BLOCK`] octets. What is held is the room of the blocks; the
//! list of them, a few octets per block, is bookkeeping like the rest of
//! a reassembler's.

use std::sync::Arc;

use super::pool::{BlockPool, POOL_BLOCK};

/// The least room of a new block without a pool, once the message has
/// four times as many octets: fragments with smaller bodies share blocks,
/// so that a peer sending tiny fragments costs a block per this many
/// octets, not an allocation per fragment.
pub(super) const MIN_BLOCK: usize = 4 * 1024;

/// The octets of one message, in blocks.
#[derive(Debug)]
pub(super) struct Blocks {
    blocks: Vec<Vec<u8>>,
    /// Octets in the blocks.
    len: usize,
    /// Room of the blocks.
    held: usize,
    /// Where the blocks come from and go back to; `None`: the allocator.
    pool: Option<Arc<BlockPool>>,
}

impl Blocks {
    /// An empty message, whose blocks come from `pool` if there is one.
    pub(super) fn new(pool: Option<Arc<BlockPool>>) -> Blocks {
        Blocks {
            blocks: Vec::new(),
            len: 0,
            held: 0,
            pool,
        }
    }

    /// Octets of the message so far.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Octets allocated for it: the room of every block.
    pub(super) fn held(&self) -> usize {
        self.held
    }

    /// What [`Blocks::held`] comes to once `n` more octets are appended.
    pub(super) fn held_after(&self, n: usize) -> usize {
        self.held.saturating_add(self.growth(n))
    }

    /// The room of the new blocks that `n` octets appended need.
    fn growth(&self, n: usize) -> usize {
        let spare = self.blocks.last().map_or(0, |b| b.capacity() - b.len());
        if n <= spare {
            return 0;
        }
        let rest = n - spare;
        if self.pool.is_some() {
            return rest.div_ceil(POOL_BLOCK).saturating_mul(POOL_BLOCK);
        }
        rest.max((self.len / 4).min(MIN_BLOCK))
    }

    /// Appends `data`: what the last block has room for goes there, the
    /// rest to new blocks.
    pub(super) fn append(&mut self, data: &[u8]) {
        let room = self.growth(data.len());
        let mut rest = data;
        if let Some(last) = self.blocks.last_mut() {
            let n = rest.len().min(last.capacity() - last.len());
            last.extend_from_slice(&rest[..n]);
            rest = &rest[n..];
        }
        if room > 0 {
            match &self.pool {
                Some(pool) => {
                    for piece in rest.chunks(POOL_BLOCK) {
                        let mut block = pool.take();
                        block.extend_from_slice(piece);
                        self.held += block.capacity();
                        self.blocks.push(block);
                    }
                }
                None => {
                    let mut block = Vec::with_capacity(room);
                    block.extend_from_slice(rest);
                    self.held += block.capacity();
                    self.blocks.push(block);
                }
            }
        }
        self.len += data.len();
    }

    /// The whole message, ending with `last`, in one buffer of its size;
    /// each block is freed (or given back to the pool) as soon as it has
    /// been copied.
    pub(super) fn join_with(mut self, last: &[u8]) -> Vec<u8> {
        if last.is_empty()
            && self.pool.is_none()
            && self.blocks.len() == 1
            && let Some(only) = self.blocks.pop()
        {
            // The first block, allocated at its size: taken as it is.
            return only;
        }
        let mut whole = Vec::with_capacity(self.len + last.len());
        for block in std::mem::take(&mut self.blocks) {
            whole.extend_from_slice(&block);
            self.free(block);
        }
        whole.extend_from_slice(last);
        whole
    }

    fn free(&self, block: Vec<u8>) {
        if let Some(pool) = &self.pool {
            pool.give(block);
        }
    }
}

impl Drop for Blocks {
    fn drop(&mut self) {
        if self.pool.is_some() {
            for block in std::mem::take(&mut self.blocks) {
                self.free(block);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The room really allocated: every block's.
    fn allocated(b: &Blocks) -> usize {
        b.blocks.iter().map(Vec::capacity).sum::<usize>()
    }

    fn check(pool: Option<Arc<BlockPool>>) {
        let mut b = Blocks::new(pool);
        let mut expected = Vec::new();
        for (i, n) in [100, 10, 5000, 3, 4096, 65_536, 1, 0, 7000, 100_000]
            .into_iter()
            .enumerate()
        {
            let data = vec![i as u8; n];
            let said = b.held_after(n);
            b.append(&data);
            expected.extend_from_slice(&data);
            assert_eq!(b.held(), said, "append of {n}");
            assert_eq!(b.held(), allocated(&b), "append of {n}");
            assert_eq!(b.len(), expected.len());
        }
        let whole = b.join_with(&[9; 33]);
        expected.extend_from_slice(&[9; 33]);
        assert_eq!(whole, expected);
        assert_eq!(whole.capacity(), expected.len(), "joined at its size");
    }

    #[test]
    fn what_is_held_is_what_is_allocated_and_is_said_beforehand() {
        check(None);
        let pool = Arc::new(BlockPool::default());
        check(Some(Arc::clone(&pool)));
        assert_eq!((pool.in_use(), pool.kept()), (0, 0));
    }

    #[test]
    fn blocks_go_back_to_the_pool_when_dropped() {
        let pool = Arc::new(BlockPool::default());
        let mut other = Blocks::new(Some(Arc::clone(&pool)));
        other.append(&[1; 10]);
        let mut b = Blocks::new(Some(Arc::clone(&pool)));
        b.append(&[2; 3 * POOL_BLOCK]);
        assert_eq!(pool.in_use(), 4);
        drop(b);
        // Kept while another block is in use.
        assert_eq!((pool.in_use(), pool.kept()), (1, 3));
        drop(other);
        assert_eq!((pool.in_use(), pool.kept()), (0, 0));
    }

    #[test]
    fn tiny_pieces_share_blocks() {
        let mut b = Blocks::new(None);
        b.append(&[0; 12]);
        for _ in 0..10_000 {
            b.append(&[7; 16]);
        }
        let octets = 12 + 10_000 * 16;
        // Blocks of MIN_BLOCK octets: the last one partly filled.
        assert!(b.held() < octets + MIN_BLOCK, "{}", b.held());
        assert!(
            b.blocks.len() < 2 * octets / MIN_BLOCK,
            "{}",
            b.blocks.len()
        );
        assert_eq!(b.held(), allocated(&b));
        assert_eq!(b.join_with(&[]).len(), octets);
    }
}
