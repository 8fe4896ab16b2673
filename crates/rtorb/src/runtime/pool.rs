//! Reuse of message buffers.

use bytes::BytesMut;

use crate::sync::Mutex;

/// The largest capacity [`BufferPool::fit`] raises a pool's buffers to.
pub(crate) const MAX_FITTED_CAPACITY: usize = 64 * 1024;

/// Hands out message buffers that share one allocation with the buffer
/// handed out before, once that one is no longer referenced.
///
/// The pool keeps a parent buffer; each [`BufferPool::take`] asks the
/// parent for room (which reclaims the whole allocation when no message
/// written into it is still alive) and splits everything off to the
/// caller. A caller that holds on to its message while asking for the
/// next one makes the parent allocate anew; nothing is ever shared that
/// is still in use.
///
/// A pool used by one connection learns the size of its messages
/// ([`BufferPool::fit`]): a buffer is handed out with room for the largest
/// message written so far (up to [`MAX_FITTED_CAPACITY`]), so that a
/// message larger than the initial capacity does not grow (reallocate) its
/// buffer on every call.
#[derive(Debug)]
pub(crate) struct BufferPool {
    parent: Mutex<BytesMut>,
    capacity: usize,
}

impl BufferPool {
    /// A pool of buffers of at least `capacity` octets.
    pub(crate) fn new(capacity: usize) -> BufferPool {
        BufferPool {
            parent: Mutex::new(BytesMut::new()),
            capacity,
        }
    }

    /// An empty buffer with room for `capacity` octets.
    pub(crate) fn take(&self) -> BytesMut {
        Self::split(&mut self.parent.lock(), self.capacity)
    }

    /// As [`BufferPool::take`], for the pool's only user (a connection
    /// that owns it): no lock is taken.
    pub(crate) fn take_exclusive(&mut self) -> BytesMut {
        Self::split(self.parent.get_mut(), self.capacity)
    }

    /// Notes that a message of `len` octets was written into a buffer of
    /// the pool: later buffers have room for it (up to
    /// [`MAX_FITTED_CAPACITY`]).
    pub(crate) fn fit(&mut self, len: usize) {
        self.capacity = self.capacity.max(len.min(MAX_FITTED_CAPACITY));
    }

    fn split(parent: &mut BytesMut, capacity: usize) -> BytesMut {
        parent.reserve(capacity);
        parent.split_off(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_released_buffer_is_reused() {
        let pool = BufferPool::new(128);
        let mut a = pool.take();
        a.extend_from_slice(b"first");
        let ptr = a.as_ptr();
        let frozen = a.freeze();
        drop(frozen);
        let b = pool.take();
        assert_eq!(b.as_ptr(), ptr);
        assert!(b.is_empty());
        assert!(b.capacity() >= 128);
    }

    #[test]
    fn a_pool_fitted_to_large_messages_reuses_their_buffer() {
        let mut pool = BufferPool::new(64);
        let mut a = pool.take_exclusive();
        a.extend_from_slice(&[7; 1000]);
        pool.fit(a.len());
        drop(a.freeze());
        // The first buffer with room for 1000 octets is new ...
        let mut b = pool.take_exclusive();
        assert!(b.capacity() >= 1000);
        b.extend_from_slice(&[8; 1000]);
        let ptr = b.as_ptr();
        drop(b.freeze());
        // ... and from then on it is reused, without growing.
        for _ in 0..3 {
            let mut c = pool.take_exclusive();
            assert_eq!(c.as_ptr(), ptr);
            c.extend_from_slice(&[9; 1000]);
            assert_eq!(c.as_ptr(), ptr);
            drop(c.freeze());
        }
        pool.fit(usize::MAX);
        assert!(pool.take_exclusive().capacity() >= MAX_FITTED_CAPACITY);
    }

    #[test]
    fn a_buffer_still_in_use_is_not_handed_out_again() {
        let pool = BufferPool::new(64);
        let mut a = pool.take();
        a.extend_from_slice(b"held");
        let held = a.freeze();
        let mut b = pool.take();
        b.extend_from_slice(b"other");
        assert_eq!(&held[..], b"held");
        assert_ne!(b.as_ptr(), held.as_ptr());
    }
}
