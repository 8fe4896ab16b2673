//! [`BufferPool`]: the loopback's message buffers, each reused once the
//! message written into it is dropped.

use bytes::BytesMut;

use crate::sync::Mutex;

/// Hands out message buffers that share one allocation with the buffer
/// handed out before, once that one is no longer referenced.
///
/// The pool keeps a parent buffer; each [`BufferPool::take`] asks the
/// parent for room (which reclaims the whole allocation when no message
/// written into it is still alive) and splits everything off to the
/// caller. A caller that holds on to its message while asking for the
/// next one makes the parent allocate anew; nothing is ever shared that
/// is still in use.
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
        let mut parent = self.parent.lock();
        parent.reserve(self.capacity);
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
