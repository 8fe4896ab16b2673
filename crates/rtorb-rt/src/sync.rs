//! The locks the ORB uses: [`Mutex`], [`RwLock`] and [`Condvar`], thin
//! wrappers of the standard library's that can count acquisitions.
//!
//! Every lock in the ORB goes through this module, so that a benchmark can
//! say how many locks a call takes on each side (the papers count them:
//! TAO took 41 on the client and 100 on the server per request). With the
//! cargo feature `lock-count` (of this crate, or of `rtorb`, which turns it
//! on here) each acquisition adds one to a counter of
//! the acquiring thread, read with [`thread_acquisitions`]; without it
//! (the default) the wrappers compile to the standard library's calls and
//! nothing is counted.
//!
//! The locks ignore poisoning: the ORB's shared data (connection pools,
//! object maps, thread lists) is consistent at every step, so a thread
//! that panicked while holding a lock leaves nothing half-done, and the
//! next thread takes the data as it is.
//!
//! ```
//! use rtorb_rt::sync::{Mutex, thread_acquisitions};
//!
//! let m = Mutex::new(1);
//! let before = thread_acquisitions();
//! *m.lock() += 1;
//! assert_eq!(*m.lock(), 2);
//! assert_eq!(before.is_some(), rtorb_rt::sync::COUNTING);
//! if let (Some(b), Some(a)) = (before, thread_acquisitions()) {
//!     assert_eq!(a - b, 2);
//! }
//! ```

use std::time::Duration;

pub use std::sync::{MutexGuard, RwLockReadGuard, RwLockWriteGuard, WaitTimeoutResult};

/// Whether this build counts lock acquisitions (the `lock-count` feature).
pub const COUNTING: bool = cfg!(feature = "lock-count");

#[cfg(feature = "lock-count")]
mod counter {
    use std::cell::Cell;

    thread_local! {
        /// Locks this thread has acquired.
        static ACQUISITIONS: Cell<u64> = const { Cell::new(0) };
    }

    #[inline]
    pub(super) fn acquired() {
        let _ = ACQUISITIONS.try_with(|c| c.set(c.get().wrapping_add(1)));
    }

    pub(super) fn get() -> Option<u64> {
        ACQUISITIONS.try_with(Cell::get).ok()
    }
}

#[cfg(not(feature = "lock-count"))]
mod counter {
    #[inline(always)]
    pub(super) fn acquired() {}

    #[inline(always)]
    pub(super) fn get() -> Option<u64> {
        None
    }
}

/// How many locks of this module the calling thread has acquired since it
/// started (a [`Condvar`] wait that returns counts as one, since it
/// acquires its mutex again), or `None` when the build does not count
/// (without the `lock-count` feature).
pub fn thread_acquisitions() -> Option<u64> {
    counter::get()
}

/// Counts one acquisition of a lock that is not one of this module's (the
/// priority-inheritance mutex of this crate).
#[inline]
pub(crate) fn note_acquired() {
    counter::acquired();
}

/// A mutual-exclusion lock: [`std::sync::Mutex`], counted, ignoring poison.
#[derive(Debug, Default)]
pub struct Mutex<T: ?Sized>(std::sync::Mutex<T>);

impl<T> Mutex<T> {
    /// A new unlocked mutex holding `value`.
    pub const fn new(value: T) -> Mutex<T> {
        Mutex(std::sync::Mutex::new(value))
    }

    /// The value, taking the mutex apart.
    pub fn into_inner(self) -> T {
        self.0.into_inner().unwrap_or_else(|p| p.into_inner())
    }
}

impl<T: ?Sized> Mutex<T> {
    /// Blocks until the lock is acquired.
    #[inline]
    pub fn lock(&self) -> MutexGuard<'_, T> {
        counter::acquired();
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The lock if it is free now.
    #[inline]
    pub fn try_lock(&self) -> Option<MutexGuard<'_, T>> {
        let guard = match self.0.try_lock() {
            Ok(g) => g,
            Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => return None,
        };
        counter::acquired();
        Some(guard)
    }

    /// The value through an exclusive borrow: no locking, not counted.
    pub fn get_mut(&mut self) -> &mut T {
        self.0.get_mut().unwrap_or_else(|p| p.into_inner())
    }
}

/// A reader-writer lock: [`std::sync::RwLock`], counted, ignoring poison.
#[derive(Debug, Default)]
pub struct RwLock<T: ?Sized>(std::sync::RwLock<T>);

impl<T> RwLock<T> {
    /// A new unlocked lock holding `value`.
    pub const fn new(value: T) -> RwLock<T> {
        RwLock(std::sync::RwLock::new(value))
    }

    /// The value, taking the lock apart.
    pub fn into_inner(self) -> T {
        self.0.into_inner().unwrap_or_else(|p| p.into_inner())
    }
}

impl<T: ?Sized> RwLock<T> {
    /// Blocks until shared access is acquired.
    #[inline]
    pub fn read(&self) -> RwLockReadGuard<'_, T> {
        counter::acquired();
        self.0.read().unwrap_or_else(|p| p.into_inner())
    }

    /// Blocks until exclusive access is acquired.
    #[inline]
    pub fn write(&self) -> RwLockWriteGuard<'_, T> {
        counter::acquired();
        self.0.write().unwrap_or_else(|p| p.into_inner())
    }

    /// The value through an exclusive borrow: no locking, not counted.
    pub fn get_mut(&mut self) -> &mut T {
        self.0.get_mut().unwrap_or_else(|p| p.into_inner())
    }
}

/// A condition variable for [`Mutex`]: [`std::sync::Condvar`]; each
/// return from a wait counts as an acquisition of the mutex.
#[derive(Debug, Default)]
pub struct Condvar(std::sync::Condvar);

impl Condvar {
    /// A new condition variable.
    pub const fn new() -> Condvar {
        Condvar(std::sync::Condvar::new())
    }

    /// Releases `guard`'s mutex, waits for a notification, and acquires
    /// the mutex again.
    pub fn wait<'a, T>(&self, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
        let g = self.0.wait(guard).unwrap_or_else(|p| p.into_inner());
        counter::acquired();
        g
    }

    /// As [`Condvar::wait`], for at most `timeout`.
    pub fn wait_timeout<'a, T>(
        &self,
        guard: MutexGuard<'a, T>,
        timeout: Duration,
    ) -> (MutexGuard<'a, T>, WaitTimeoutResult) {
        let r = self
            .0
            .wait_timeout(guard, timeout)
            .unwrap_or_else(|p| p.into_inner());
        counter::acquired();
        r
    }

    /// Wakes one waiting thread.
    pub fn notify_one(&self) {
        self.0.notify_one();
    }

    /// Wakes every waiting thread.
    pub fn notify_all(&self) {
        self.0.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn locks_count_on_the_acquiring_thread_only() {
        let m = Arc::new(Mutex::new(0u32));
        let rw = RwLock::new(5u32);
        let before = thread_acquisitions();
        *m.lock() += 1;
        assert!(m.try_lock().is_some());
        assert_eq!(*rw.read(), 5);
        *rw.write() = 6;
        let other = Arc::clone(&m);
        std::thread::spawn(move || *other.lock() += 1)
            .join()
            .unwrap();
        let after = thread_acquisitions();
        assert_eq!(before.is_some(), COUNTING);
        assert_eq!(after.is_some(), COUNTING);
        if let (Some(b), Some(a)) = (before, after) {
            assert_eq!(a - b, 4);
        }
        assert_eq!(*m.lock(), 2);
    }

    #[test]
    fn a_poisoned_lock_is_still_usable() {
        let m = Arc::new(Mutex::new(vec![1]));
        let other = Arc::clone(&m);
        let _ = std::thread::spawn(move || {
            let _g = other.lock();
            panic!("poison it");
        })
        .join();
        m.lock().push(2);
        assert_eq!(*m.lock(), [1, 2]);
        let mut m = Arc::try_unwrap(m).unwrap();
        m.get_mut().push(3);
        assert_eq!(m.into_inner(), [1, 2, 3]);
    }

    #[test]
    fn condvar_wait_timeout_returns_with_the_lock() {
        let m = Mutex::new(false);
        let c = Condvar::new();
        let (g, r) = c.wait_timeout(m.lock(), Duration::from_millis(1));
        assert!(r.timed_out());
        assert!(!*g);
    }
}
