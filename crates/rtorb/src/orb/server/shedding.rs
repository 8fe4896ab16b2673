//! Choosing the connection to shed when a new one arrives at the
//! connection cap.
//!
//! Every connection keeps an [`Activity`]: when it last looked for input,
//! whether it then held nothing (no part of a message, no reply queued:
//! *quiet*), and whether it ever completed a message. At the cap the
//! acceptor closes the oldest quiet connection (the one that has waited
//! longest for input), else the oldest that never completed a message (a
//! peer that connected and sent at most part of one), and admits the new
//! one; a connection in the middle of a request, or one already being
//! shed, is never chosen. The connection is closed with `CloseConnection`
//! (which GIOP lets a server send on a connection with no request in
//! progress, in every version), so its client sends what it has not had
//! answered again, on a new connection. Only when no connection may be
//! shed is the new one refused.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What the acceptor needs to know of a connection to shed it.
#[derive(Debug, Default)]
pub(crate) struct Activity {
    /// When the connection last looked for input (coarse clock,
    /// nanoseconds).
    last: AtomicU64,
    /// It then held nothing: no part of a message, no reply queued.
    quiet: AtomicBool,
    /// It has completed a message.
    completed: AtomicBool,
    /// The acceptor chose to shed it.
    shed: AtomicBool,
}

impl Activity {
    /// The activity of a connection accepted now: quiet, until it looks
    /// for input.
    pub(crate) fn new() -> Activity {
        let a = Activity::default();
        a.note(true, false);
        a
    }

    /// Notes that the connection looks for input, `quiet` or not, having
    /// `completed` a message or not.
    #[inline]
    pub(crate) fn note(&self, quiet: bool, completed: bool) {
        self.last.store(coarse_now(), Ordering::Relaxed);
        self.quiet.store(quiet, Ordering::Relaxed);
        self.completed.store(completed, Ordering::Relaxed);
    }

    /// How eligible it is for shedding (smaller first); `None`: not at
    /// all.
    pub(crate) fn rank(&self) -> Option<(u8, u64)> {
        if self.shed.load(Ordering::Acquire) {
            return None;
        }
        let last = self.last.load(Ordering::Relaxed);
        if self.quiet.load(Ordering::Relaxed) {
            Some((0, last))
        } else if !self.completed.load(Ordering::Relaxed) {
            Some((1, last))
        } else {
            None
        }
    }

    /// Marks it shed; `false` if it already was.
    pub(crate) fn mark_shed(&self) -> bool {
        !self.shed.swap(true, Ordering::AcqRel)
    }

    /// Whether the acceptor chose to shed it.
    #[inline]
    pub(crate) fn is_shed(&self) -> bool {
        self.shed.load(Ordering::Acquire)
    }
}

/// Of `candidates`, the one to shed first, if any may be.
pub(crate) fn choose<'a, T>(candidates: impl Iterator<Item = (&'a Activity, T)>) -> Option<T> {
    candidates
        .filter_map(|(a, t)| a.rank().map(|r| (r, t)))
        .min_by_key(|(r, _)| *r)
        .map(|(_, t)| t)
}

/// The coarse monotonic clock in nanoseconds: a few nanoseconds to read,
/// fine enough to order connections by when they were last active.
#[inline]
fn coarse_now() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::MonotonicCoarse);
    u64::try_from(t.tv_sec)
        .unwrap_or(0)
        .saturating_mul(1_000_000_000)
        .saturating_add(u64::try_from(t.tv_nsec).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_connections_go_first_then_those_that_never_completed_a_message() {
        let busy = Activity::new();
        busy.note(false, true);
        let half = Activity::new();
        half.note(false, false);
        let quiet = Activity::new();
        quiet.note(true, true);
        let all = || [(&busy, "busy"), (&half, "half"), (&quiet, "quiet")].into_iter();
        assert_eq!(choose(all()), Some("quiet"));
        assert!(quiet.mark_shed());
        assert!(!quiet.mark_shed());
        assert_eq!(choose(all()), Some("half"));
        assert!(half.mark_shed());
        assert_eq!(choose(all()), None);
    }

    #[test]
    fn the_oldest_goes_first() {
        let old = Activity::new();
        old.note(true, true);
        old.last.store(1, Ordering::Relaxed);
        let new = Activity::new();
        new.note(true, true);
        assert_eq!(
            choose([(&new, "new"), (&old, "old")].into_iter()),
            Some("old")
        );
    }
}
