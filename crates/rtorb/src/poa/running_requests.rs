//! Requests running in a POA or under a POA manager, counted for
//! `wait_for_completion` and for deactivation.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::sync::{Condvar, Mutex};

/// Requests running, counted so that a thread can wait until none is:
/// starting and ending one is an atomic count on the request path; the
/// mutex and condition variable are touched only while somebody waits
/// (`wait_for_completion`).
#[derive(Debug, Default)]
pub(crate) struct Running {
    count: AtomicUsize,
    waiters: AtomicUsize,
    lock: Mutex<()>,
    ended: Condvar,
}

impl Running {
    /// One more request runs.
    pub(crate) fn start(&self) {
        self.count.fetch_add(1, Ordering::SeqCst);
    }

    /// A request ended; the last one wakes the waiters.
    pub(crate) fn end(&self) {
        // Sequentially consistent with `wait_none`: either the waiter
        // sees the count at zero, or this sees the waiter and wakes it
        // (under the lock, so not before it waits).
        if self.count.fetch_sub(1, Ordering::SeqCst) == 1 && self.waiters.load(Ordering::SeqCst) > 0
        {
            let _guard = self.lock.lock();
            self.ended.notify_all();
        }
    }

    /// How many run now.
    pub(crate) fn count(&self) -> usize {
        self.count.load(Ordering::Acquire)
    }

    /// Waits until none runs.
    pub(crate) fn wait_none(&self) {
        self.waiters.fetch_add(1, Ordering::SeqCst);
        let mut guard = self.lock.lock();
        while self.count.load(Ordering::SeqCst) > 0 {
            guard = self.ended.wait(guard);
        }
        drop(guard);
        self.waiters.fetch_sub(1, Ordering::SeqCst);
    }
}
