//! The connection cap, shared fairly by the ORB's own endpoints and its
//! thread pool lanes.
//!
//! Every server connection holds one of the process's descriptors, so
//! the cap ([`OrbConfig::max_connections`], or the one derived from the
//! descriptor limit in `descriptors.rs`) bounds the connections of every
//! lane and of the ORB's own endpoints together, never each one's alone.
//! Within that bound each of them (a *party*: a lane, or the ORB's own
//! endpoints if it listens) is promised a share that no other may take:
//!
//! - with `n` parties and a cap `C`, the promise is `C / 2n`, at least
//!   [`MIN_PROMISE`], at most `C / n` (so the promises never add up to
//!   more than the cap);
//! - a party may always hold up to its promise;
//! - beyond it, a party may hold what is left of the cap after every
//!   party's promise, used or not: a connection beyond a promise is
//!   admitted only while the promises (each counted at what its party
//!   holds, if more) and the connections beyond them add up to less than
//!   `C`.
//!
//! So a flood on one lane takes at most the cap less the other parties'
//! promises, and a high-priority lane's new client always finds room
//! within its lane's promise. A party that would go beyond the cap is
//! handled as it always was: a connection of its own is shed to make
//! room, or the new one is refused (`acceptor.rs`, `shedding.rs`). The
//! event loop closes the connection it sheds before the new one is
//! counted, which takes its place; under thread-per-connection the shed
//! connection's own thread closes it, so the new one is counted at once
//! and the total may pass the cap, for that moment, by the connections
//! being shed (as many descriptors as the reserve left by the cap covers).
//!
//! The promises are set again whenever a party joins (a thread pool is
//! created) or leaves (its lanes end): the parties already there see
//! their promise shrink or grow. A party whose promise cannot be granted
//! at once, because the others hold connections beyond their own, is
//! *owed* the rest: it is granted as those connections close, before any
//! party may go beyond its promise again; and while anything is owed, a
//! connection a party sheds at its limit gives its place to what is owed,
//! not to the party's new connection (`ServerCore::in_place_of`), so a
//! flood that goes on makes the room it keeps from the newcomer.
//!
//! The accounting is lock-free and touched only when a connection is
//! admitted or closed: one atomic word shared by all parties (the
//! connections charged against the cap: the promises, each at least what
//! its party holds, and what is owed), and one atomic word per party (its
//! open connections and the part of its promise granted). A lock is
//! taken only when a party joins or leaves.
//!
//! [`OrbConfig::max_connections`]: crate::orb::OrbConfig::max_connections

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::sync::Mutex;

/// The smallest promise, where the cap allows it.
pub(crate) const MIN_PROMISE: u32 = 4;

/// The promise of each of `parties` under a cap of `cap` connections
/// (the rule is in the module's documentation).
pub(crate) fn promise(cap: u32, parties: u32) -> u32 {
    let n = parties.max(1);
    (cap / n.saturating_mul(2)).max(MIN_PROMISE).min(cap / n)
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

/// The cap and its accounting, shared by every party.
#[derive(Debug)]
pub(crate) struct ConnectionCap {
    /// The most connections of all parties together.
    cap: u32,
    /// The low half: the connections charged against the cap, the sum
    /// over the parties of the larger of what each holds and what it was
    /// granted; the high half: what is owed (an `i32`, which may dip
    /// below 0 for a moment while a party's promise is set again).
    charged: AtomicU64,
    /// The parties, for setting their promises when one joins or leaves.
    parties: Mutex<Vec<Arc<Share>>>,
}

/// One party's share of the cap.
#[derive(Debug)]
pub(crate) struct Share {
    /// The low half: connections open; the high half: the part of its
    /// promise granted.
    word: AtomicU64,
    /// Its promise.
    wanted: AtomicU32,
}

impl ConnectionCap {
    /// A cap of `cap` connections, no party yet.
    pub(crate) fn new(cap: usize) -> Arc<ConnectionCap> {
        Arc::new(ConnectionCap {
            cap: u32::try_from(cap).unwrap_or(u32::MAX).min(i32::MAX as u32),
            charged: AtomicU64::new(0),
            parties: Mutex::new(Vec::new()),
        })
    }

    /// Adds `delta` to the charged connections and `owed` to what is owed.
    fn adjust(&self, delta: i64, owed: i64) {
        let _ = self
            .charged
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |w| {
                let (k, o) = split(w);
                let k = (i64::from(k) + delta) as u32;
                let o = (i64::from(o as i32) + owed) as i32 as u32;
                Some(join(k, o))
            });
    }

    /// A new party: the promises are set again for one party more, and
    /// the new one is granted what it can be of its own now (the rest is
    /// owed to it).
    pub(crate) fn join(self: &Arc<Self>) -> Arc<Share> {
        let mut parties = self.parties.lock();
        let count = u32::try_from(parties.len() + 1).unwrap_or(u32::MAX);
        let wanted = promise(self.cap, count);
        for p in parties.iter() {
            p.promise(self, wanted);
        }
        let mut granted = 0;
        let _ = self
            .charged
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |w| {
                let (k, o) = split(w);
                let free = i64::from(self.cap) - i64::from(k) - i64::from((o as i32).max(0));
                granted = u32::try_from(free.clamp(0, i64::from(wanted))).unwrap_or(0);
                let owed = (o as i32).wrapping_add((wanted - granted) as i32);
                Some(join(k + granted, owed as u32))
            });
        let share = Arc::new(Share {
            word: AtomicU64::new(join(0, granted)),
            wanted: AtomicU32::new(wanted),
        });
        parties.push(Arc::clone(&share));
        share
    }

    /// `share` leaves (it holds no connection any more): what it was
    /// granted and owed is given back, and the promises are set again for
    /// one party less.
    pub(crate) fn leave(&self, share: &Arc<Share>) {
        let mut parties = self.parties.lock();
        let Some(at) = parties.iter().position(|p| Arc::ptr_eq(p, share)) else {
            return;
        };
        parties.swap_remove(at);
        share.promise(self, 0);
        let count = u32::try_from(parties.len()).unwrap_or(u32::MAX);
        let wanted = promise(self.cap, count);
        for p in parties.iter() {
            p.promise(self, wanted);
        }
    }

    /// Whether part of a promise is owed to a party.
    pub(crate) fn owes(&self) -> bool {
        (split(self.charged.load(Ordering::Acquire)).1 as i32) > 0
    }

    /// The connections of every party open now.
    pub(crate) fn open(&self) -> usize {
        self.parties.lock().iter().map(|p| p.open()).sum()
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

    /// Its promise.
    #[cfg(test)]
    fn wanted(&self) -> u32 {
        self.wanted.load(Ordering::Acquire)
    }

    /// Counts in a new connection, if the rule lets it in: within what it
    /// was granted; else, while owed, from the cap's room; else beyond its
    /// promise, from what the promises and what is owed leave of the cap.
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
            let grow = granted < self.wanted.load(Ordering::Acquire);
            let (owed, next) = if grow {
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
                    (used < i64::from(cap.cap)).then(|| join(k + 1, o.wrapping_add(owed) as u32))
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
            cap.adjust(-1, -i64::from(owed));
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

    /// Sets its promise to `wanted` (with the cap's lock held): a smaller
    /// one shrinks what it was granted (what it holds beyond counts as
    /// beyond its promise); a larger one is owed to it until granted.
    fn promise(&self, cap: &ConnectionCap, wanted: u32) {
        let before = self.wanted.load(Ordering::Acquire);
        if wanted >= before {
            // Owed first: an admission that sees the new promise takes
            // what is owed.
            cap.adjust(0, i64::from(wanted - before));
            self.wanted.store(wanted, Ordering::Release);
            return;
        }
        // Stored first: an admission that sees the new promise and the
        // old grant takes nothing owed that is not.
        self.wanted.store(wanted, Ordering::Release);
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
                    let owed = i64::from(wanted - kept) - (i64::from(before) - i64::from(granted));
                    cap.adjust(charged, owed);
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
    fn the_promise_is_a_half_share_within_its_bounds() {
        assert_eq!(promise(24, 3), 4);
        assert_eq!(promise(1000, 1), 500);
        assert_eq!(promise(1000, 4), 125);
        // The minimum, where the cap allows it...
        assert_eq!(promise(16, 3), 4);
        // ...and never more than an equal part.
        assert_eq!(promise(6, 3), 2);
        assert_eq!(promise(2, 3), 0);
        assert_eq!(promise(0, 0), 0);
    }

    #[test]
    fn one_party_holds_the_whole_cap() {
        let cap = ConnectionCap::new(24);
        let main = cap.join();
        assert_eq!(fill(&main, &cap), 24);
        main.close(&cap);
        assert!(main.admit(&cap));
        assert!(!main.admit(&cap));
        assert_eq!(cap.open(), 24);
    }

    #[test]
    fn a_flood_leaves_every_other_party_its_promise() {
        let cap = ConnectionCap::new(24);
        let (main, low, high) = (cap.join(), cap.join(), cap.join());
        assert_eq!(main.wanted(), 4);
        // The cap less the two other promises.
        assert_eq!(fill(&low, &cap), 24 - 2 * 4);
        // The main endpoints still have their promise, and nothing more.
        assert_eq!(fill(&main, &cap), 4);
        assert_eq!(fill(&high, &cap), 4);
        assert_eq!(cap.open(), 24);
        // A connection beyond a promise closes: the room is anyone's.
        low.close(&cap);
        assert!(main.admit(&cap));
        assert!(!low.admit(&cap));
        // One within a promise closes: the room is its party's alone.
        high.close(&cap);
        assert!(!main.admit(&cap));
        assert!(!low.admit(&cap));
        assert!(high.admit(&cap));
        assert_eq!(cap.open(), 24);
        assert_eq!(cap.charged(), (24, 0));
    }

    #[test]
    fn unused_promises_are_kept_from_the_others() {
        let cap = ConnectionCap::new(24);
        let (main, low, _high) = (cap.join(), cap.join(), cap.join());
        assert_eq!(fill(&main, &cap), 16);
        assert_eq!(fill(&low, &cap), 4);
        assert_eq!(cap.open(), 20);
    }

    #[test]
    fn a_party_that_joins_late_is_owed_its_promise_before_anyone_goes_beyond_theirs() {
        let cap = ConnectionCap::new(24);
        let main = cap.join();
        assert_eq!(fill(&main, &cap), 24);
        let low = cap.join();
        assert_eq!(main.wanted(), 6);
        // Nothing is left to grant it yet.
        assert_eq!(cap.charged(), (24, 6));
        assert!(!low.admit(&cap));
        assert!(cap.owes());
        // The main endpoints' connections close: the room goes to the
        // newcomer, not back beyond the main endpoints' promise.
        for _ in 0..10 {
            main.close(&cap);
        }
        assert_eq!(fill(&main, &cap), 4);
        assert_eq!(fill(&low, &cap), 6);
        assert!(!cap.owes());
        assert_eq!(cap.open(), 24);
        assert_eq!(cap.charged(), (24, 0));
        // Past its promise, only the room the others' promises leave.
        assert!(!low.admit(&cap));
    }

    #[test]
    fn a_party_that_leaves_gives_its_share_back() {
        let cap = ConnectionCap::new(24);
        let (main, lane) = (cap.join(), cap.join());
        assert_eq!(main.wanted(), 6);
        // Its promise and what the main endpoints' promise leaves.
        assert_eq!(fill(&lane, &cap), 18);
        for _ in 0..18 {
            lane.close(&cap);
        }
        cap.leave(&lane);
        assert_eq!(main.wanted(), 12);
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
        // What is charged is the promises, granted in full.
        assert_eq!(cap.charged(), (4 * promise(64, 4), 0));
    }
}
