//! A mutex with priority inheritance.
//!
//! When a high-priority thread waits for a lock that a low-priority thread
//! holds, a medium-priority thread can keep the holder from running, and so
//! the high-priority thread waits for the medium one: unbounded priority
//! inversion. With priority inheritance the holder runs at the priority of
//! the most urgent waiter until it unlocks. [`PriorityInheritanceMutex`] is
//! a POSIX mutex with the `PTHREAD_PRIO_INHERIT` protocol, which the Linux
//! kernel implements with its real-time mutexes.
#![allow(unsafe_code)]

use std::cell::UnsafeCell;
use std::fmt;
use std::ops::{Deref, DerefMut};

/// A mutex whose holder inherits the priority of its most urgent waiter.
///
/// For applications whose threads of different priorities share data (the
/// ORB keeps such locks off its call paths). It does not poison: a thread
/// that panics while holding it unlocks it.
///
/// ```
/// use rtorb_rt::PriorityInheritanceMutex;
///
/// let readings = PriorityInheritanceMutex::new(Vec::new());
/// readings.lock().push(42);
/// assert_eq!(*readings.lock(), [42]);
/// assert!(readings.inherits_priority());
/// ```
pub struct PriorityInheritanceMutex<T: ?Sized> {
    /// Boxed: a POSIX mutex must not move once initialised.
    raw: Box<UnsafeCell<libc::pthread_mutex_t>>,
    inherits: bool,
    value: UnsafeCell<T>,
}

// SAFETY: the mutex hands out the value to one thread at a time, so it may
// be sent and shared wherever the value may be sent.
unsafe impl<T: ?Sized + Send> Send for PriorityInheritanceMutex<T> {}
// SAFETY: as above: access to the value is serialised by the POSIX mutex.
unsafe impl<T: ?Sized + Send> Sync for PriorityInheritanceMutex<T> {}

impl<T> PriorityInheritanceMutex<T> {
    /// A mutex holding `value`. Where the system has no priority
    /// inheritance, it is a plain mutex ([`inherits_priority`] says which).
    ///
    /// [`inherits_priority`]: PriorityInheritanceMutex::inherits_priority
    pub fn new(value: T) -> PriorityInheritanceMutex<T> {
        // SAFETY: pthread_mutex_t is plain data; zeroed is its static
        // initialiser on Linux, and it is initialised below before use.
        let raw = Box::new(UnsafeCell::new(unsafe { std::mem::zeroed() }));
        // SAFETY: the attribute object is a local, initialised by
        // pthread_mutexattr_init before any other use and destroyed after
        // the mutex is initialised from it; the mutex lives in the box and
        // is not yet shared.
        let inherits = unsafe {
            let mut attr: libc::pthread_mutexattr_t = std::mem::zeroed();
            let ok = libc::pthread_mutexattr_init(&mut attr) == 0;
            let inherits = ok
                && libc::pthread_mutexattr_setprotocol(&mut attr, libc::PTHREAD_PRIO_INHERIT) == 0;
            let attr_ptr = if ok {
                &attr as *const _
            } else {
                std::ptr::null()
            };
            let init = libc::pthread_mutex_init(raw.get(), attr_ptr);
            if ok {
                libc::pthread_mutexattr_destroy(&mut attr);
            }
            inherits && init == 0
        };
        PriorityInheritanceMutex {
            raw,
            inherits,
            value: UnsafeCell::new(value),
        }
    }

    /// The value, the mutex gone.
    pub fn into_inner(self) -> T {
        let me = std::mem::ManuallyDrop::new(self);
        // SAFETY: `me` is never used again and its drop does not run; the
        // value is moved out once and the box freed after destroying the
        // mutex, which nobody holds (we own it).
        unsafe {
            let value = std::ptr::read(&me.value).into_inner();
            let raw = std::ptr::read(&me.raw);
            libc::pthread_mutex_destroy(raw.get());
            value
        }
    }
}

impl<T: ?Sized> PriorityInheritanceMutex<T> {
    /// Locks it, waiting as long as it takes; the holder runs at the
    /// priority of the most urgent waiter meanwhile.
    pub fn lock(&self) -> PriorityInheritanceGuard<'_, T> {
        // SAFETY: the mutex was initialised in `new` and does not move;
        // a normal mutex locked by its own holder would deadlock, which the
        // guard's borrow rules out within safe code except by leaking a
        // guard (a hang, not undefined behaviour).
        let rc = unsafe { libc::pthread_mutex_lock(self.raw.get()) };
        debug_assert_eq!(rc, 0, "pthread_mutex_lock: {rc}");
        crate::sync::note_acquired();
        PriorityInheritanceGuard { mutex: self }
    }

    /// Locks it if no one holds it.
    pub fn try_lock(&self) -> Option<PriorityInheritanceGuard<'_, T>> {
        // SAFETY: as in `lock`; trylock does not wait.
        if unsafe { libc::pthread_mutex_trylock(self.raw.get()) } == 0 {
            crate::sync::note_acquired();
            Some(PriorityInheritanceGuard { mutex: self })
        } else {
            None
        }
    }

    /// Whether the holder inherits its waiters' priority (the system's
    /// mutexes support `PTHREAD_PRIO_INHERIT`).
    pub fn inherits_priority(&self) -> bool {
        self.inherits
    }

    /// The value, through exclusive access (no locking needed).
    pub fn get_mut(&mut self) -> &mut T {
        self.value.get_mut()
    }
}

impl<T: ?Sized> Drop for PriorityInheritanceMutex<T> {
    fn drop(&mut self) {
        // SAFETY: no guard outlives the mutex (guards borrow it), so no one
        // holds it; it was initialised in `new`.
        unsafe { libc::pthread_mutex_destroy(self.raw.get()) };
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for PriorityInheritanceMutex<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("PriorityInheritanceMutex");
        match self.try_lock() {
            Some(g) => d.field("value", &&*g),
            None => d.field("value", &format_args!("<locked>")),
        };
        d.field("inherits", &self.inherits).finish()
    }
}

impl<T: Default> Default for PriorityInheritanceMutex<T> {
    fn default() -> Self {
        PriorityInheritanceMutex::new(T::default())
    }
}

/// The lock of a [`PriorityInheritanceMutex`], released when dropped.
pub struct PriorityInheritanceGuard<'a, T: ?Sized> {
    mutex: &'a PriorityInheritanceMutex<T>,
}

impl<T: ?Sized> Deref for PriorityInheritanceGuard<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        // SAFETY: the guard holds the lock, so no one else accesses the
        // value while this borrow lives.
        unsafe { &*self.mutex.value.get() }
    }
}

impl<T: ?Sized> DerefMut for PriorityInheritanceGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`, and the guard is borrowed mutably.
        unsafe { &mut *self.mutex.value.get() }
    }
}

impl<T: ?Sized> Drop for PriorityInheritanceGuard<'_, T> {
    fn drop(&mut self) {
        // SAFETY: this thread locked the mutex when it made the guard, and
        // unlocks it once.
        unsafe { libc::pthread_mutex_unlock(self.mutex.raw.get()) };
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for PriorityInheritanceGuard<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[test]
    fn threads_take_turns() {
        let counter = Arc::new(PriorityInheritanceMutex::new(0u64));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let c = Arc::clone(&counter);
                std::thread::spawn(move || {
                    for _ in 0..10_000 {
                        *c.lock() += 1;
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(*counter.lock(), 40_000);
        assert!(counter.inherits_priority());
    }

    #[test]
    fn try_lock_fails_while_held_and_a_panic_unlocks() {
        let m = Arc::new(PriorityInheritanceMutex::new(String::from("a")));
        {
            let _g = m.lock();
            let m2 = Arc::clone(&m);
            assert!(
                std::thread::spawn(move || m2.try_lock().is_none())
                    .join()
                    .unwrap()
            );
        }
        let m2 = Arc::clone(&m);
        let _ = std::thread::spawn(move || {
            let _g = m2.lock();
            panic!("holder panics");
        })
        .join();
        m.lock().push('b');
        let m = Arc::try_unwrap(m).unwrap();
        assert_eq!(m.into_inner(), "ab");
    }
}
