//! Choosing the connection to shed when a new one arrives at the
//! connection cap.
//!
//! Every connection keeps an [`Activity`]: when it was accepted (an
//! order, and a time), when it last looked for input, whether it then
//! held nothing (no part of a message, no reply queued: *quiet*), and
//! whether it ever completed a message. At the cap the acceptor closes, in
//! this order:
//!
//! 1. a connection that never completed a message and holds nothing,
//!    accepted at least [`NEW_FOR`] ago (a peer that connected and sent
//!    nothing), the oldest first;
//! 2. one that never completed a message and holds part of one (a peer
//!    that sent part of a header, or of a message, and stopped), the
//!    oldest first;
//! 3. one accepted less than [`NEW_FOR`] ago that holds nothing yet (most
//!    often a client whose first request is on its way, or being served),
//!    the oldest first;
//! 4. only then a quiet connection that has served requests (a client
//!    between calls), the one least recently active first;
//!
//! and admits the new one. A connection with a request in progress (part
//! of a message after a whole one, a request being processed, a reply
//! queued), or one already being shed, is never chosen. So a client that
//! uses its connection keeps it for as long as connections that never
//! did anything are there to be shed, however long it waits between
//! calls and however old its connection is.
//!
//! The connection is closed with `CloseConnection` (which GIOP lets a
//! server send on a connection with no request in progress, in every
//! version), so its client sends what it has not had answered again, on
//! a new connection. Only when no connection may be shed is the new one
//! refused: closed as soon as it is accepted, with `CloseConnection` as
//! well.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The order in which connections are accepted.
static ACCEPTED: AtomicU64 = AtomicU64::new(0);

/// How long a connection that has sent nothing yet counts as new: long
/// enough for a client's first request to arrive and be read on a busy
/// server, so that a new client is not shed before peers that sent part
/// of a message and stopped.
pub(crate) const NEW_FOR: std::time::Duration = std::time::Duration::from_secs(1);

/// What the acceptor needs to know of a connection to shed it.
#[derive(Debug)]
pub(crate) struct Activity {
    /// Its place in the order of accepts (smaller: older).
    accepted: u64,
    /// When it was accepted (coarse clock, nanoseconds).
    accepted_at: u64,
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

/// A connection's class in the shedding order (smaller: shed first).
const NEVER_USED: u8 = 0;
const PARTIAL: u8 = 1;
const NEW: u8 = 2;
const QUIET: u8 = 3;

impl Activity {
    /// The activity of a connection accepted now: quiet, never having
    /// completed a message.
    pub(crate) fn new() -> Activity {
        let now = coarse_now();
        Activity {
            accepted: ACCEPTED.fetch_add(1, Ordering::Relaxed),
            accepted_at: now,
            last: AtomicU64::new(now),
            quiet: AtomicBool::new(true),
            completed: AtomicBool::new(false),
            shed: AtomicBool::new(false),
        }
    }

    /// Notes that the connection looks for input, `quiet` or not, having
    /// `completed` a message or not.
    #[inline]
    pub(crate) fn note(&self, quiet: bool, completed: bool) {
        self.last.store(coarse_now(), Ordering::Relaxed);
        self.quiet.store(quiet, Ordering::Relaxed);
        self.completed.store(completed, Ordering::Relaxed);
    }

    /// How eligible it is for shedding (smaller first: its class in the
    /// order of the module's documentation, then its age within the
    /// class); `None`: not at all.
    pub(crate) fn rank(&self) -> Option<(u8, u64)> {
        if self.shed.load(Ordering::Acquire) {
            return None;
        }
        let quiet = self.quiet.load(Ordering::Relaxed);
        if !self.completed.load(Ordering::Relaxed) {
            let new = coarse_now().saturating_sub(self.accepted_at) < NEW_FOR.as_nanos() as u64;
            let class = match (quiet, new) {
                (false, _) => PARTIAL,
                (true, false) => NEVER_USED,
                (true, true) => NEW,
            };
            Some((class, self.accepted))
        } else if quiet {
            Some((QUIET, self.last.load(Ordering::Relaxed)))
        } else {
            None
        }
    }

    /// Whether it has completed a message (a client that has been served,
    /// as against one that only connected).
    #[inline]
    pub(crate) fn has_completed(&self) -> bool {
        self.completed.load(Ordering::Relaxed)
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

    /// An activity accepted long enough ago not to count as new.
    fn old() -> Activity {
        let mut a = Activity::new();
        a.accepted_at = a.accepted_at.saturating_sub(2 * NEW_FOR.as_nanos() as u64);
        a
    }

    #[test]
    fn connections_never_used_go_first_then_partial_ones_then_new_ones_then_quiet_ones() {
        // Accepted in this order: the client's connection is the oldest.
        let client = old();
        client.note(true, true);
        let busy = old();
        busy.note(false, true);
        let new = Activity::new();
        let half = Activity::new();
        half.note(false, false);
        let idle = old();
        idle.note(true, false);
        let all = || {
            [
                (&client, "client"),
                (&busy, "busy"),
                (&new, "new"),
                (&half, "half"),
                (&idle, "idle"),
            ]
            .into_iter()
        };
        assert_eq!(choose(all()), Some("idle"));
        assert!(idle.mark_shed());
        assert!(!idle.mark_shed());
        assert_eq!(choose(all()), Some("half"));
        assert!(half.mark_shed());
        assert_eq!(choose(all()), Some("new"));
        assert!(new.mark_shed());
        assert_eq!(choose(all()), Some("client"));
        assert!(client.mark_shed());
        // A request in progress: never.
        assert_eq!(choose(all()), None);
    }

    #[test]
    fn a_client_between_calls_outlasts_connections_accepted_after_it() {
        // The client has just been active; the others, accepted after it,
        // are as recent or more.
        let client = Activity::new();
        let later = old();
        let half = Activity::new();
        half.note(false, false);
        client.note(true, true);
        let all = || [(&client, "client"), (&half, "half"), (&later, "later")].into_iter();
        assert_eq!(choose(all()), Some("later"));
        assert!(later.mark_shed());
        assert_eq!(choose(all()), Some("half"));
        assert!(half.mark_shed());
        assert_eq!(choose(all()), Some("client"));
    }

    #[test]
    fn the_oldest_goes_first_within_a_class() {
        let old = Activity::new();
        let new = Activity::new();
        assert_eq!(
            choose([(&new, "new"), (&old, "old")].into_iter()),
            Some("old")
        );
        old.note(false, false);
        new.note(false, false);
        assert_eq!(
            choose([(&new, "new"), (&old, "old")].into_iter()),
            Some("old")
        );
    }

    #[test]
    fn of_quiet_connections_that_served_requests_the_least_recently_active_goes_first() {
        let early = Activity::new();
        let late = Activity::new();
        late.note(true, true);
        early.note(true, true);
        late.last.store(1, Ordering::Relaxed);
        assert_eq!(
            choose([(&early, "early"), (&late, "late")].into_iter()),
            Some("late")
        );
    }
}
