//! The connection cap, shared fairly by the ORB's own endpoints and its
//! thread pool lanes.
//!
//! Every server connection holds one of the process's descriptors, so
//! the cap ([`OrbConfig::max_connections`], or the one derived from the
//! descriptor limit in `descriptors.rs`) bounds the connections of every
//! lane and of the ORB's own endpoints together, never each one's alone.
//! Each of them has a [`Share`] of the cap (a lane's, or the ORB's own
//! endpoints' if it listens), and each share a part reserved that no
//! other may take:
//!
//! - with `n` shares and a cap `C`, the reserve is `C / 2n`, at least
//!   [`MIN_RESERVE`], at most `C / n` (so the reserves never add up to
//!   more than the cap);
//! - a share may always hold up to its reserve;
//! - beyond it, a share may hold what is left of the cap after every
//!   share's reserve, used or not: a connection beyond a reserve is
//!   admitted only while the reserves (each counted at what its share
//!   holds, if more) and the connections beyond them add up to less than
//!   `C`.
//!
//! So a flood on one lane takes at most the cap less the other shares'
//! reserves, and a high-priority lane's new client always finds room
//! within its lane's reserve. A share that would go beyond the cap sheds
//! a connection of its own to make room, or refuses the new one
//! (`acceptor.rs`, `shedding.rs`).
//!
//! The reserves are set again whenever a share joins (a thread pool is
//! created) or leaves (its lanes end). A reserve that cannot be granted
//! at once, because the others hold connections beyond their own, is
//! *pending*: granted as those connections close, before any share may go
//! beyond its reserve again (see [`ConnectionCap::reserve_pending`]).
//!
//! The accounting is lock-free and touched only when a connection is
//! admitted or closed: one atomic word shared by all (the connections
//! charged against the cap, and what is pending), and one atomic word per
//! share (its open connections and the part of its reserve granted). A
//! lock is taken only when a share joins or leaves.
//!
//! [`OrbConfig::max_connections`]: crate::orb::OrbConfig::max_connections

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::sync::Mutex;

/// The smallest reserve, where the cap allows it.
pub(crate) const MIN_RESERVE: u32 = 4;

/// The reserve of each of `shares` under a cap of `cap` connections
/// (the rule is in the module's documentation).
pub(crate) fn reserve(cap: u32, shares: u32) -> u32 {
    let n = shares.max(1);
    (cap / n.saturating_mul(2)).max(MIN_RESERVE).min(cap / n)
}

/// Two 32-bit halves of an atomic word: the low one, then the high one.
#[inline]
fn split(word: u64) -> (u32, u32) {
    (word as u32, (word >> 32) as u32)
}

#[inline]
fn join(low: u32, high: u32) -> u64 {
    u64::from(low) | (u64::from(high) << 32)
}

/// The cap and its accounting, shared by every share.
#[derive(Debug)]
pub(crate) struct ConnectionCap {
    /// The most connections of all shares together.
    cap: u32,
    /// The low half: the connections charged against the cap, the sum
    /// over the shares of the larger of what each holds and what it was
    /// granted; the high half: what is pending of the reserves (an `i32`,
    /// which may dip below 0 for a moment while a reserve is set again).
    charged: AtomicU64,
    /// The shares, for setting their reserves when one joins or leaves.
    shares: Mutex<Vec<Arc<Share>>>,
}

/// The share of the cap of a lane, or of the ORB's own endpoints.
#[derive(Debug)]
pub(crate) struct Share {
    /// The low half: connections open; the high half: the part of its
    /// reserve granted.
    word: AtomicU64,
    /// Its reserve.
    reserved: AtomicU32,
}

impl ConnectionCap {
    /// A cap of `cap` connections, no share yet.
    pub(crate) fn new(cap: usize) -> Arc<ConnectionCap> {
        Arc::new(ConnectionCap {
            cap: u32::try_from(cap).unwrap_or(u32::MAX).min(i32::MAX as u32),
            charged: AtomicU64::new(0),
            shares: Mutex::new(Vec::new()),
        })
    }

    /// Adds `delta` to the charged connections and `pending` to what is
    /// pending.
    fn adjust(&self, delta: i64, pending: i64) {
        let _ = self
            .charged
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |w| {
                let (k, o) = split(w);
                let k = (i64::from(k) + delta) as u32;
                let o = (i64::from(o as i32) + pending) as i32 as u32;
                Some(join(k, o))
            });
    }

    /// A new share: the reserves are set again for one share more, and
    /// the new one is granted what it can be of its own now (the rest is
    /// pending).
    pub(crate) fn join(self: &Arc<Self>) -> Arc<Share> {
        let mut shares = self.shares.lock();
        let count = u32::try_from(shares.len() + 1).unwrap_or(u32::MAX);
        let wanted = reserve(self.cap, count);
        for p in shares.iter() {
            p.set_reserve(self, wanted);
        }
        let mut granted = 0;
        let _ = self
            .charged
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |w| {
                let (k, o) = split(w);
                let free = i64::from(self.cap) - i64::from(k) - i64::from((o as i32).max(0));
                granted = u32::try_from(free.clamp(0, i64::from(wanted))).unwrap_or(0);
                let pending = (o as i32).wrapping_add((wanted - granted) as i32);
                Some(join(k + granted, pending as u32))
            });
        let share = Arc::new(Share {
            word: AtomicU64::new(join(0, granted)),
            reserved: AtomicU32::new(wanted),
        });
        shares.push(Arc::clone(&share));
        share
    }

    /// `share` leaves (it holds no connection any more): what it was
    /// granted and what is pending of its reserve is given back, and the
    /// reserves are set again for one share less.
    pub(crate) fn leave(&self, share: &Arc<Share>) {
        let mut shares = self.shares.lock();
        let Some(at) = shares.iter().position(|p| Arc::ptr_eq(p, share)) else {
            return;
        };
        shares.swap_remove(at);
        share.set_reserve(self, 0);
        let count = u32::try_from(shares.len()).unwrap_or(u32::MAX);
        let wanted = reserve(self.cap, count);
        for p in shares.iter() {
            p.set_reserve(self, wanted);
        }
    }

    /// Whether part of a share's reserve is pending: it was set while
    /// the others held connections beyond their own. Until it is granted,
    /// a connection a share sheds at its limit gives its place to the
    /// pending reserve, not to the share's new connection
    /// (`ServerCore::in_place_of`), so a flood that goes on makes the room
    /// it keeps from the newcomer.
    pub(crate) fn reserve_pending(&self) -> bool {
        (split(self.charged.load(Ordering::Acquire)).1 as i32) > 0
    }

    /// The connections of every share open now.
    pub(crate) fn open(&self) -> usize {
        self.shares.lock().iter().map(|p| p.open()).sum()
    }

    /// The connections charged against the cap now.
    #[cfg(test)]
    fn charged(&self) -> (u32, i32) {
        let (k, o) = split(self.charged.load(Ordering::Acquire));
        (k, o as i32)
    }
}

impl Share {
    /// Connections open now.
    pub(crate) fn open(&self) -> usize {
        split(self.word.load(Ordering::Acquire)).0 as usize
    }

    /// Its reserve.
    #[cfg(test)]
    fn reserved(&self) -> u32 {
        self.reserved.load(Ordering::Acquire)
    }

    /// Counts in a new connection, if the rule lets it in: within what it
    /// was granted; else, while part of its reserve is pending, from the
    /// cap's room; else beyond its reserve, from what the reserves and
    /// what is pending leave of the cap.
    pub(crate) fn admit(&self, cap: &ConnectionCap) -> bool {
        loop {
            let word = self.word.load(Ordering::Acquire);
            let (open, granted) = split(word);
            if open < granted {
                if self
                    .word
                    .compare_exchange(
                        word,
                        join(open + 1, granted),
                        Ordering::AcqRel,
                        Ordering::Acquire,
                    )
                    .is_ok()
                {
                    return true;
                }
                continue;
            }
            let grow = granted < self.reserved.load(Ordering::Acquire);
            let (pending, next) = if grow {
                (-1, join(open + 1, granted + 1))
            } else {
                (0, join(open + 1, granted))
            };
            let reserved = cap
                .charged
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |w| {
                    let (k, o) = split(w);
                    let o = o as i32;
                    let used = i64::from(k) + if grow { 0 } else { i64::from(o) };
                    (used < i64::from(cap.cap)).then(|| join(k + 1, o.wrapping_add(pending) as u32))
                });
            if reserved.is_err() {
                return false;
            }
            if self
                .word
                .compare_exchange(word, next, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                return true;
            }
            cap.adjust(-1, -i64::from(pending));
        }
    }

    /// Counts in a connection whatever the rule says: one admitted in
    /// place of a connection being shed that has not closed yet.
    pub(crate) fn force(&self, cap: &ConnectionCap) {
        let (open, granted) = split(self.word.fetch_add(1, Ordering::AcqRel));
        if open >= granted {
            cap.adjust(1, 0);
        }
    }

    /// Counts out a closed connection.
    pub(crate) fn close(&self, cap: &ConnectionCap) {
        let (open, granted) = split(self.word.fetch_sub(1, Ordering::AcqRel));
        if open > granted {
            cap.adjust(-1, 0);
        }
    }

    /// Sets its reserve to `wanted` (with the cap's lock held): a smaller
    /// one shrinks what it was granted (what it holds beyond counts as
    /// beyond its reserve); of a larger one, what cannot be granted yet
    /// is pending.
    fn set_reserve(&self, cap: &ConnectionCap, wanted: u32) {
        let before = self.reserved.load(Ordering::Acquire);
        if wanted >= before {
            // Pending first: an admission that sees the new reserve takes
            // what is pending.
            cap.adjust(0, i64::from(wanted - before));
            self.reserved.store(wanted, Ordering::Release);
            return;
        }
        // Stored first: an admission that sees the new reserve and the
        // old grant takes nothing pending that is not.
        self.reserved.store(wanted, Ordering::Release);
        let mut word = self.word.load(Ordering::Acquire);
        loop {
            let (open, granted) = split(word);
            let kept = granted.min(wanted);
            match self.word.compare_exchange(
                word,
                join(open, kept),
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => {
                    let charged = i64::from(kept.max(open)) - i64::from(granted.max(open));
                    let pending =
                        i64::from(wanted - kept) - (i64::from(before) - i64::from(granted));
                    cap.adjust(charged, pending);
                    return;
                }
                Err(now) => word = now,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Admits connections on `share` until the rule refuses one; how many.
    fn fill(share: &Share, cap: &ConnectionCap) -> usize {
        let mut n = 0;
        while share.admit(cap) {
            n += 1;
        }
        n
    }

    #[test]
    fn the_reserve_is_a_half_share_within_its_bounds() {
        assert_eq!(reserve(24, 3), 4);
        assert_eq!(reserve(1000, 1), 500);
        assert_eq!(reserve(1000, 4), 125);
        // The minimum, where the cap allows it...
        assert_eq!(reserve(16, 3), 4);
        // ...and never more than an equal part.
        assert_eq!(reserve(6, 3), 2);
        assert_eq!(reserve(2, 3), 0);
        assert_eq!(reserve(0, 0), 0);
    }

    #[test]
    fn one_share_holds_the_whole_cap() {
        let cap = ConnectionCap::new(24);
        let main = cap.join();
        assert_eq!(fill(&main, &cap), 24);
        main.close(&cap);
        assert!(main.admit(&cap));
        assert!(!main.admit(&cap));
        assert_eq!(cap.open(), 24);
    }

    #[test]
    fn a_flood_leaves_every_other_share_its_reserve() {
        let cap = ConnectionCap::new(24);
        let (main, low, high) = (cap.join(), cap.join(), cap.join());
        assert_eq!(main.reserved(), 4);
        // The cap less the two other reserves.
        assert_eq!(fill(&low, &cap), 24 - 2 * 4);
        // The main endpoints still have their reserve, and nothing more.
        assert_eq!(fill(&main, &cap), 4);
        assert_eq!(fill(&high, &cap), 4);
        assert_eq!(cap.open(), 24);
        // A connection beyond a reserve closes: the room is anyone's.
        low.close(&cap);
        assert!(main.admit(&cap));
        assert!(!low.admit(&cap));
        // One within a reserve closes: the room is its share's alone.
        high.close(&cap);
        assert!(!main.admit(&cap));
        assert!(!low.admit(&cap));
        assert!(high.admit(&cap));
        assert_eq!(cap.open(), 24);
        assert_eq!(cap.charged(), (24, 0));
    }

    #[test]
    fn unused_reserves_are_kept_from_the_others() {
        let cap = ConnectionCap::new(24);
        let (main, low, _high) = (cap.join(), cap.join(), cap.join());
        assert_eq!(fill(&main, &cap), 16);
        assert_eq!(fill(&low, &cap), 4);
        assert_eq!(cap.open(), 20);
    }

    #[test]
    fn a_share_that_joins_late_gets_its_reserve_before_anyone_goes_beyond_theirs() {
        let cap = ConnectionCap::new(24);
        let main = cap.join();
        assert_eq!(fill(&main, &cap), 24);
        let low = cap.join();
        assert_eq!(main.reserved(), 6);
        // Nothing is left to grant it yet.
        assert_eq!(cap.charged(), (24, 6));
        assert!(!low.admit(&cap));
        assert!(cap.reserve_pending());
        // The main endpoints' connections close: the room goes to the
        // newcomer, not back beyond the main endpoints' reserve.
        for _ in 0..10 {
            main.close(&cap);
        }
        assert_eq!(fill(&main, &cap), 4);
        assert_eq!(fill(&low, &cap), 6);
        assert!(!cap.reserve_pending());
        assert_eq!(cap.open(), 24);
        assert_eq!(cap.charged(), (24, 0));
        // Past its reserve, only the room the others' reserves leave.
        assert!(!low.admit(&cap));
    }

    #[test]
    fn a_share_that_leaves_gives_its_reserve_back() {
        let cap = ConnectionCap::new(24);
        let (main, lane) = (cap.join(), cap.join());
        assert_eq!(main.reserved(), 6);
        // Its reserve and what the main endpoints' reserve leaves.
        assert_eq!(fill(&lane, &cap), 18);
        for _ in 0..18 {
            lane.close(&cap);
        }
        cap.leave(&lane);
        assert_eq!(main.reserved(), 12);
        assert_eq!(fill(&main, &cap), 24);
        assert_eq!(cap.charged(), (24, 0));
    }

    #[test]
    fn a_forced_admission_is_charged_and_released() {
        let cap = ConnectionCap::new(8);
        let main = cap.join();
        assert_eq!(fill(&main, &cap), 8);
        main.force(&cap);
        assert_eq!(cap.charged(), (9, 0));
        main.close(&cap);
        main.close(&cap);
        assert_eq!(cap.charged(), (7, 0));
        assert!(main.admit(&cap));
        assert!(!main.admit(&cap));
    }

    #[test]
    fn concurrent_admissions_and_closes_keep_the_accounting_exact() {
        let cap = ConnectionCap::new(64);
        let shares: Vec<_> = (0..4).map(|_| cap.join()).collect();
        std::thread::scope(|s| {
            for share in &shares {
                let cap = &cap;
                s.spawn(move || {
                    let mut held = 0usize;
                    for i in 0..20_000 {
                        if i % 3 != 2 && share.admit(cap) {
                            held += 1;
                        } else if held > 0 {
                            share.close(cap);
                            held -= 1;
                        }
                        assert!(cap.charged().0 <= 64);
                    }
                    for _ in 0..held {
                        share.close(cap);
                    }
                });
            }
        });
        assert_eq!(cap.open(), 0);
        // What is charged is the reserves, granted in full.
        assert_eq!(cap.charged(), (4 * reserve(64, 4), 0));
    }
}
