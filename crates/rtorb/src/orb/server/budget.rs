//! The memory budget of the server: one bound on the octets buffered for
//! all its connections together, input and output; a thread pool lane's
//! connections have a budget of their own, of the same size (see
//! `threadpool/`), so that a lane's peers never spend another lane's.
//!
//! What a peer can make the server hold is counted against it: the part of
//! a large message received so far (charged at its announced length, as
//! soon as its header has arrived and before any room is made for it),
//! fragments held for reassembly, `SYNC_WITH_SERVER` requests queued for
//! their upcall, and replies queued for a client that does not read them. A message the budget cannot take is refused (see
//! `Machine::refuse`); replies are charged as they are queued, and a
//! connection with queued replies is not read while the budget is spent,
//! so output stays within the budget plus one reply per connection. A
//! `SYNC_WITH_SERVER` request the budget cannot queue runs where it is
//! read, which stops its connection's reading meanwhile.
//!
//! Messages of at most [`UNCHARGED_MESSAGE`] octets are not charged: the
//! common small request costs no accounting, and what a connection holds
//! for them is bounded by a constant (the message and one read ahead),
//! like its other per-connection state.
//!
//! The accounting is one atomic counter ([`MemoryBudget`]); each part of a
//! connection keeps what it holds in a [`Charge`], released when the part
//! no longer needs it or the connection is dropped.
//!
//! Fragments held for reassembly are kept in the blocks of one
//! [`BlockPool`] for all connections ([`MemoryBudget::blocks`]): a block
//! freed on one thread is the next one taken on any, so that the blocks
//! allocated are no more than those charged at once, however many threads
//! serve the connections (an allocator with an arena per thread would
//! otherwise keep, for each thread, what its connections once held).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rtorb_giop::BlockPool;

/// Messages up to this many octets, header included, are received
/// without charging the budget.
pub(super) const UNCHARGED_MESSAGE: usize = 16 * 1024;

/// Queued output is charged in steps of this many octets, so that a
/// stream of small replies queued and written does not touch the counter
/// for each one.
const OUTPUT_STEP: usize = 64 * 1024;

/// The octets the server may buffer for all its connections together.
#[derive(Debug)]
pub(crate) struct MemoryBudget {
    limit: usize,
    used: AtomicUsize,
    /// The blocks of fragments held for reassembly.
    blocks: Arc<BlockPool>,
}

impl MemoryBudget {
    /// A budget of `limit` octets, none used.
    pub(crate) fn new(limit: usize) -> MemoryBudget {
        MemoryBudget {
            limit,
            used: AtomicUsize::new(0),
            blocks: Arc::default(),
        }
    }

    /// The blocks of fragments held for reassembly, for every connection.
    pub(crate) fn blocks(&self) -> &Arc<BlockPool> {
        &self.blocks
    }

    /// Octets charged now.
    pub(crate) fn used(&self) -> usize {
        self.used.load(Ordering::Acquire)
    }

    /// Whether everything the budget allows is charged.
    #[inline]
    pub(crate) fn spent(&self) -> bool {
        self.used() >= self.limit
    }

    /// Charges `n` octets if they fit within the limit.
    fn try_charge(&self, n: usize) -> bool {
        let limit = self.limit;
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(n).filter(|total| *total <= limit)
            })
            .is_ok()
    }

    /// Charges `n` octets already allocated, whether or not they fit.
    fn force(&self, n: usize) {
        self.used.fetch_add(n, Ordering::AcqRel);
    }

    fn release(&self, n: usize) {
        self.used.fetch_sub(n, Ordering::AcqRel);
    }
}

/// What one part of one connection holds of the [`MemoryBudget`];
/// released when dropped.
#[derive(Debug)]
pub(super) struct Charge {
    budget: Arc<MemoryBudget>,
    held: usize,
}

impl Charge {
    /// Holds nothing yet.
    pub(super) fn new(budget: &Arc<MemoryBudget>) -> Charge {
        Charge {
            budget: Arc::clone(budget),
            held: 0,
        }
    }

    /// Octets held.
    #[inline]
    pub(super) fn held(&self) -> usize {
        self.held
    }

    /// Holds at least `need` octets: true if it did already or the budget
    /// had the rest; false (holding what it held) if not.
    #[cold]
    pub(super) fn hold(&mut self, need: usize) -> bool {
        if need <= self.held {
            return true;
        }
        if self.budget.try_charge(need - self.held) {
            self.held = need;
            true
        } else {
            false
        }
    }

    /// Holds exactly `need` octets, releasing what is held beyond.
    #[cold]
    pub(super) fn hold_exactly(&mut self, need: usize) -> bool {
        if need < self.held {
            self.budget.release(self.held - need);
            self.held = need;
            return true;
        }
        self.hold(need)
    }

    /// Follows `queued` octets of output, already allocated: charged in
    /// steps of [`OUTPUT_STEP`] even beyond the limit, released when
    /// nothing is queued.
    #[inline]
    pub(super) fn follow_output(&mut self, queued: usize) {
        if queued > self.held || (queued == 0 && self.held > 0) {
            self.follow_output_slow(queued);
        }
    }

    #[cold]
    fn follow_output_slow(&mut self, queued: usize) {
        if queued == 0 {
            self.release();
            return;
        }
        let need = queued.div_ceil(OUTPUT_STEP).saturating_mul(OUTPUT_STEP);
        self.budget.force(need - self.held);
        self.held = need;
    }

    /// Holds nothing.
    #[inline]
    pub(super) fn release(&mut self) {
        if self.held > 0 {
            self.budget.release(self.held);
            self.held = 0;
        }
    }
}

impl Drop for Charge {
    fn drop(&mut self) {
        self.release();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_stay_within_the_limit_and_are_released_on_drop() {
        let budget = Arc::new(MemoryBudget::new(100));
        let mut a = Charge::new(&budget);
        let mut b = Charge::new(&budget);
        assert!(a.hold(60));
        assert!(!b.hold(41));
        assert_eq!(b.held(), 0);
        assert!(b.hold(40));
        assert!(budget.spent());
        assert!(a.hold_exactly(10));
        assert_eq!(budget.used(), 50);
        drop(b);
        assert_eq!(budget.used(), 10);
        a.release();
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn output_is_charged_in_steps_even_beyond_the_limit() {
        let budget = Arc::new(MemoryBudget::new(OUTPUT_STEP));
        let mut out = Charge::new(&budget);
        out.follow_output(1);
        assert_eq!(budget.used(), OUTPUT_STEP);
        out.follow_output(OUTPUT_STEP);
        assert_eq!(budget.used(), OUTPUT_STEP);
        out.follow_output(OUTPUT_STEP + 1);
        assert_eq!(budget.used(), 2 * OUTPUT_STEP);
        out.follow_output(0);
        assert_eq!(budget.used(), 0);
    }
}
