//! Waiting for an event rather than for a guessed time: a [`Latch`] that
//! the event opens, and [`eventually`], which checks a condition until it
//! holds or a deadline passes. A test that sleeps "long enough" fails on a
//! loaded machine; these wait exactly as long as the event takes, and a
//! deadline ([`TIMEOUT`]) turns an event that never comes into a failure,
//! not a hang.

use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The deadline of the tests' waits: how long a test waits for an event
/// (a reply, a latch, a condition, a peer's output) before it fails, and
/// the round-trip timeout of their clients. A passing run never comes near
/// it, even on a machine of two cores that builds other crates meanwhile
/// and runs the tests of a binary in parallel: it only turns an event that
/// never comes into a failure instead of a hang, so it costs nothing to be
/// generous. A test that needs another deadline derives it from this one
/// and says why.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// A timeout of the ORB under test (for an incomplete message, a connect)
/// that no test waits for, far beyond [`TIMEOUT`]: what happens within a
/// test's deadline happened for what the test did, not by this timeout.
pub const NO_TIMEOUT: Duration = TIMEOUT.saturating_mul(10);

/// A count that threads wait to reach zero: the event a test waits for
/// counts it down, once per time it happens.
#[derive(Debug)]
pub struct Latch {
    count: Mutex<usize>,
    zero: Condvar,
}

/// A latch that opens at the first event.
impl Default for Latch {
    fn default() -> Latch {
        Latch::new(1)
    }
}

impl Latch {
    /// A latch that opens after `count` calls of [`Latch::count_down`].
    pub fn new(count: usize) -> Latch {
        Latch {
            count: Mutex::new(count),
            zero: Condvar::new(),
        }
    }

    /// Counts one event down; the last one opens the latch.
    pub fn count_down(&self) {
        let mut count = self.count.lock().unwrap_or_else(PoisonError::into_inner);
        *count = count.saturating_sub(1);
        if *count == 0 {
            self.zero.notify_all();
        }
    }

    /// Whether the latch is open.
    pub fn is_open(&self) -> bool {
        *self.count.lock().unwrap_or_else(PoisonError::into_inner) == 0
    }

    /// Waits until the latch opens or `timeout` passes; whether it opened.
    pub fn wait(&self, timeout: Duration) -> bool {
        let count = self.count.lock().unwrap_or_else(PoisonError::into_inner);
        let (count, _) = self
            .zero
            .wait_timeout_while(count, timeout, |c| *c > 0)
            .unwrap_or_else(PoisonError::into_inner);
        *count == 0
    }
}

/// Checks `condition` until it holds or `within` has passed; whether it
/// held. For state that gives no signal when it changes (a count of open
/// connections, the threads of the process): the checks start at once and
/// back off to a few milliseconds apart.
pub fn eventually(within: Duration, mut condition: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + within;
    let mut pause = Duration::from_micros(100);
    loop {
        if condition() {
            return true;
        }
        let now = Instant::now();
        if now >= deadline {
            return false;
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(10));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn a_latch_opens_after_its_count() {
        let latch = Arc::new(Latch::new(2));
        assert!(!latch.is_open());
        assert!(!latch.wait(Duration::from_millis(1)));
        let l = Arc::clone(&latch);
        let t = std::thread::spawn(move || {
            l.count_down();
            l.count_down();
        });
        assert!(latch.wait(TIMEOUT));
        assert!(latch.is_open());
        t.join().unwrap();
    }

    #[test]
    fn eventually_sees_a_condition_that_comes_true() {
        let n = Arc::new(AtomicUsize::new(0));
        let m = Arc::clone(&n);
        let t = std::thread::spawn(move || m.store(3, Ordering::SeqCst));
        assert!(eventually(TIMEOUT, || n.load(Ordering::SeqCst) == 3));
        t.join().unwrap();
        assert!(!eventually(Duration::from_millis(5), || false));
    }
}
