//! Thread borrowing between the lanes of a pool (`allow_borrowing` of
//! `RTCORBA::RTORB::create_threadpool_with_lanes`).
//!
//! A lane borrows only where it would otherwise buffer: its reader
//! (`read_ahead.rs`) has a whole request, no thread of the lane is free
//! and no dynamic thread is left. If a lane of the same pool with a lower
//! priority has a thread free (leading or waiting to), the request is
//! kept whatever the lane's bounds (else it is kept within them, or
//! refused, as without borrowing). Every lower lane is then asked for
//! help: a bit set in an atomic word of its own, and its leader woken, so
//! that the lower lane's thread free now, or the next one to be, takes
//! the request if the borrowing lane still has no thread free. The
//! lender's thread gives up leadership (to its lane's next thread), sets
//! its own priority to the borrowing lane's, runs the borrowing lane's
//! waiting connections, oldest first, while that lane still has no thread
//! free, and sets its priority back before it goes back to its lane. The
//! highest lane asking is helped first.
//!
//! Neither lane waits for a lock of the other on its request path: the
//! borrower only sets a bit and writes to the lender's waker; the lender
//! takes the borrower's waiting queue (the borrower's lock) only at the
//! borrower's priority, as a thread of the borrower would. The lanes of a
//! pool know each other once all have started; a lane of a pool without
//! borrowing has none of this, and its request path only reads whether
//! help is wanted (one atomic load) when it has peers.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::super::event_loop::shared::EventLoop;
use super::lane_loop::{LaneLoop, Peers, PoolLane};
use crate::rt::Priority;

/// Whether the loop of a lane has a thread free (and runs).
fn has_free_thread(event_loop: &EventLoop) -> bool {
    event_loop.free.load(Ordering::SeqCst) > 0 && !event_loop.core.stopping()
}

impl LaneLoop {
    /// Joins the pool's lanes.
    pub(super) fn join_pool(self: &Arc<Self>) {
        if let Some(p) = &self.peers {
            p.lane
                .pool
                .joining
                .lock()
                .push((p.lane.index, (p.lane.priority, Arc::downgrade(self))));
        }
    }

    /// The pool's lanes, once all have started, and this lane's place.
    fn pool(&self) -> Option<(&Peers, &[PoolLane])> {
        let p = self.peers.as_ref()?;
        Some((p, p.lane.pool.lanes.get()?))
    }

    /// Whether a lower lane of the pool has a thread free.
    #[cold]
    pub(super) fn lender_free(&self) -> bool {
        let Some((me, lanes)) = self.pool() else {
            return false;
        };
        lanes
            .iter()
            .filter(|(priority, _)| *priority < me.lane.priority)
            .filter_map(|(_, l)| l.upgrade()?.event_loop())
            .any(|l| has_free_thread(&l))
    }

    /// Asks every lower lane of the pool for a thread (this lane has a
    /// request waiting): one free now, or the next to be.
    #[cold]
    pub(super) fn ask_help(&self) {
        let Some((me, lanes)) = self.pool() else {
            return;
        };
        for (priority, lender) in lanes {
            if *priority >= me.lane.priority {
                continue;
            }
            let Some(lender) = lender.upgrade() else {
                continue;
            };
            if let Some(them) = &lender.peers {
                them.help.fetch_or(1 << me.lane.index, Ordering::SeqCst);
                if let Some(l) = lender.event_loop() {
                    let _ = l.waker.wake();
                }
            }
        }
    }

    /// Whether a higher lane asks for a thread of this one.
    #[inline]
    pub(super) fn help_wanted(&self) -> bool {
        self.peers
            .as_ref()
            .is_some_and(|p| p.help.load(Ordering::Acquire) != 0)
    }

    /// Lends the calling thread of `event_loop` (which has given up
    /// leadership) to the lanes that asked; `false` if none did (or the
    /// loop stops).
    #[cold]
    pub(super) fn lend_thread(&self, event_loop: &EventLoop) -> bool {
        let Some(p) = &self.peers else {
            return false;
        };
        if event_loop.core.stopping() {
            return false;
        }
        let wanted = p.help.swap(0, Ordering::AcqRel);
        if wanted == 0 {
            return false;
        }
        let Some(lanes) = p.lane.pool.lanes.get() else {
            return true;
        };
        let mut borrowers: Vec<(Priority, Arc<LaneLoop>)> = lanes
            .iter()
            .enumerate()
            .filter(|(i, _)| *i < 64 && wanted & (1 << i) != 0)
            .filter_map(|(_, (priority, l))| Some((*priority, l.upgrade()?)))
            .filter(|(priority, _)| *priority > p.lane.priority)
            .collect();
        borrowers.sort_by_key(|(priority, _)| std::cmp::Reverse(*priority));
        for (priority, borrower) in borrowers {
            self.run_for(event_loop, &borrower, priority);
        }
        true
    }

    /// Runs `borrower`'s waiting connections at its `priority` while it
    /// has no thread free, on the calling thread of `event_loop`, then
    /// sets the thread back to its own lane's priority.
    fn run_for(&self, event_loop: &EventLoop, borrower: &LaneLoop, priority: Priority) {
        let Some(theirs) = borrower.event_loop() else {
            return;
        };
        if let Some(control) = &event_loop.core.priorities
            && control.set_thread_priority(priority).is_err()
        {
            return;
        }
        while theirs.free.load(Ordering::SeqCst) == 0 && !theirs.core.stopping() {
            let Some(slot) = borrower.buffering.take() else {
                break;
            };
            theirs.serve(&slot);
        }
        if let Some(control) = &event_loop.core.priorities {
            // Back to the lane's priority, which it had before.
            let _ = control.set_thread_priority(self.priority);
        }
    }
}
