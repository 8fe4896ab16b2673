//! A stop flag that the threads of a hostile peer or of a watching client
//! wait on, so that they end as soon as they are told to rather than at
//! their next poll.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// A stop flag threads wait on.
#[derive(Default)]
pub(crate) struct Stop {
    stopped: Mutex<bool>,
    changed: Condvar,
}

impl Stop {
    /// Tells every thread to stop.
    pub(crate) fn set(&self) {
        *self.stopped.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.changed.notify_all();
    }

    /// Whether the flag is set.
    pub(crate) fn is_set(&self) -> bool {
        *self.stopped.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits up to `d` for the flag; whether it is set.
    pub(crate) fn wait(&self, d: Duration) -> bool {
        let guard = self.stopped.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, d, |stopped| !*stopped)
            .unwrap_or_else(|e| e.into_inner());
        *guard
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[test]
    fn a_stop_flag_ends_waits() {
        let stop = Arc::new(Stop::default());
        assert!(!stop.wait(Duration::from_millis(1)));
        let s = Arc::clone(&stop);
        let t = std::thread::spawn(move || s.wait(Duration::from_secs(600)));
        stop.set();
        assert!(t.join().unwrap());
        assert!(stop.is_set());
    }
}
