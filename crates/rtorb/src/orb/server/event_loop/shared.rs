//! [`EventLoop`]: the loop as its threads share it, what a thread pool
//! lane adds to it ([`LaneHooks`]), and what a thread does with a
//! connection it has claimed: a turn, after which the connection waits
//! for its next event, goes behind the others, or is closed.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mio::unix::SourceFd;
use mio::{Registry, Waker};

use super::super::connection::driver::Progress;
use super::super::server_core::{OpenConnection, ServerCore};
use super::leader::Leader;
use super::slot::{CLOSED, Live, Slot, lock};
use crate::sync::{Mutex, MutexGuard};

/// The most messages one turn handles on a connection before the others
/// get theirs: a message counts once, and every 4 KiB read once more (so
/// a turn stops reading once it has read 16 KiB, and a large message is
/// read over several turns). Four keeps a client pipelining requests
/// without pause from more than doubling the latency of the others on
/// one thread, at no cost to its own throughput (`rtorb-bench overload`). A connection with more input then waits behind every
/// connection that has become ready meanwhile, and every other connection
/// that spent a whole turn.
pub const MESSAGES_PER_TURN: usize = 4;

/// What a thread pool lane adds to its event loop (see `threadpool/`):
/// the loop calls these at the points they name; the loops of the ORB's
/// own endpoints have none.
pub(in crate::orb::server) trait LaneHooks: Send + Sync {
    /// A thread of the loop starts (`dynamic`: one the lane added): sets
    /// it to the lane's priority and CPUs; `false` if it must end (a
    /// static thread that cannot stops the loop).
    fn thread_started(&self, event_loop: &EventLoop, dynamic: bool) -> bool;
    /// How long a dynamic thread may lead with nothing to do.
    fn dynamic_idle(&self) -> Duration;
    /// A thread is about to lead.
    fn before_leading(&self, event_loop: &EventLoop);
    /// What the leader does first (`reader`: the lane's reader leads):
    /// `Some(Some(slot))`, serve this connection; `Some(None)`, stop
    /// leading; `None`, go on leading.
    fn leader_first(&self, event_loop: &EventLoop, reader: bool) -> Option<Option<Arc<Slot>>>;
    /// A thread took a connection and left no other free to lead.
    fn all_busy(&self, event_loop: &Arc<EventLoop>);
    /// A thread finished a turn.
    fn after_turn(&self, event_loop: &EventLoop);
    /// A thread stopped leading with nothing to serve: lends it to
    /// another lane if one asked; whether it did (it leads again after).
    fn lend(&self, event_loop: &EventLoop) -> bool;
    /// The loop's last thread left.
    fn ended(&self);
}

/// The event loop shared by its threads.
pub(in crate::orb::server) struct EventLoop {
    pub(in crate::orb::server) core: Arc<ServerCore>,
    pub(super) registry: Registry,
    pub(super) leader: Mutex<Leader>,
    /// The places of connections closed by a thread serving them, freed by
    /// the leader before it next adds one: closing is not on the request
    /// path, looking a connection up is.
    pub(super) closed: Mutex<Vec<usize>>,
    pub(super) has_closed: AtomicBool,
    /// Connections put back after a full turn (still claimed).
    pub(super) requeued: Mutex<Vec<Arc<Slot>>>,
    pub(super) has_requeued: AtomicBool,
    /// The leader may be waiting in the poller: a connection put back must
    /// wake it.
    pub(super) polling: AtomicBool,
    /// Connections with a timeout running (part of a message held, or
    /// replies not written): while there are none, and no accept needs
    /// retrying, the leader sleeps until an event comes, with no periodic
    /// wake-up.
    pub(super) timed: AtomicUsize,
    /// An accept failed for want of resources: retried at every sweep.
    pub(super) accept_retry: AtomicBool,
    pub(in crate::orb::server) waker: Arc<Waker>,
    pub(super) epoch: Instant,
    /// Threads still running.
    pub(super) running: AtomicUsize,
    /// Threads not serving a connection: leading, or waiting to.
    pub(in crate::orb::server) free: AtomicUsize,
    /// What a thread pool lane adds, if the loop is a lane's.
    pub(super) lane: Option<Arc<dyn LaneHooks>>,
}

impl EventLoop {
    /// Serves a claimed connection: a turn, and another at once if an
    /// event arrived during it; past that, or when the turn spent its
    /// budget, the connection waits behind the others (see `lead`).
    pub(in crate::orb::server) fn serve(&self, slot: &Arc<Slot>) {
        let mut again = false;
        loop {
            let mut guard = slot.take_turn();
            let Some(live) = guard.as_mut() else {
                return;
            };
            let outcome = live.connection.turn(&self.core, MESSAGES_PER_TURN, None);
            if !self.end_turn(slot, guard, outcome) || slot.release() {
                return;
            }
            if again {
                // Still claimed (`release` kept it so).
                self.requeue(slot);
                return;
            }
            again = true;
        }
    }

    /// After a turn that came to `outcome` on the connection of `slot`
    /// (in `guard`): its next deadline set, it is closed, or put back
    /// behind the others; `true` if it waits for its next event (the
    /// caller lets it go).
    pub(in crate::orb::server) fn end_turn(
        &self,
        slot: &Arc<Slot>,
        mut guard: MutexGuard<'_, Option<Live>>,
        outcome: Progress,
    ) -> bool {
        let deadline = guard
            .as_ref()
            .and_then(|live| live.connection.deadline())
            .map_or(0, |d| self.nanos(d).max(1));
        self.set_deadline(slot, deadline);
        match outcome {
            Progress::Close => {
                let live = guard.take();
                drop(guard);
                self.set_deadline(slot, 0);
                slot.state.store(CLOSED, Ordering::Release);
                if let Some(live) = live {
                    self.remove(slot.index, live);
                }
                false
            }
            Progress::More => {
                drop(guard);
                self.requeue(slot);
                false
            }
            Progress::Idle | Progress::Paused | Progress::Waiting => true,
        }
    }

    /// Puts a connection still claimed behind the others. The leader is
    /// woken only if it may be waiting in the poller (never with one
    /// thread, which is the leader-to-be).
    pub(super) fn requeue(&self, slot: &Arc<Slot>) {
        lock(&self.requeued).push(Arc::clone(slot));
        self.has_requeued.store(true, Ordering::SeqCst);
        if self.polling.load(Ordering::SeqCst) {
            let _ = self.waker.wake();
        }
    }

    /// Sets the timeout of the connection of `slot` to its `deadline`
    /// (`None`: none), keeping count of the connections that have one.
    pub(in crate::orb::server) fn set_deadline_at(&self, slot: &Slot, deadline: Option<Instant>) {
        self.set_deadline(slot, deadline.map_or(0, |d| self.nanos(d).max(1)));
    }

    /// Sets the timeout of a connection (0: none), keeping count of the
    /// connections that have one.
    pub(super) fn set_deadline(&self, slot: &Slot, deadline: u64) {
        let before = slot.deadline.swap(deadline, Ordering::AcqRel);
        if before == 0 && deadline != 0 {
            // The leader may sleep with no timeout: wake it to time this
            // connection.
            if self.timed.fetch_add(1, Ordering::AcqRel) == 0 {
                let _ = self.waker.wake();
            }
        } else if before != 0 && deadline == 0 {
            self.timed.fetch_sub(1, Ordering::AcqRel);
        }
    }

    pub(super) fn nanos(&self, t: Instant) -> u64 {
        u64::try_from(t.saturating_duration_since(self.epoch).as_nanos())
            .unwrap_or(u64::MAX - 1)
            .saturating_add(1)
    }

    pub(super) fn remove(&self, index: usize, mut live: Live) -> OpenConnection {
        let fd = live.connection.transport().as_raw_fd();
        let _ = self.registry.deregister(&mut SourceFd(&fd));
        live.connection.close(&self.core);
        // The slot, closed, stays in the table (events still queued for it
        // find it closed) until the leader frees its place.
        lock(&self.closed).push(index);
        self.has_closed.store(true, Ordering::Release);
        live._open
    }

    /// After the last thread: closes every connection with
    /// `CloseConnection`, and the acceptors.
    pub(super) fn close_all(&self) {
        let slots: Vec<Arc<Slot>> = {
            let leader = lock(&self.leader);
            leader.take_slots()
        };
        lock(&self.closed).clear();
        for slot in slots {
            slot.state.store(CLOSED, Ordering::Release);
            let live = lock(&slot.live).take();
            if let Some(mut live) = live {
                let fd = live.connection.transport().as_raw_fd();
                let _ = self.registry.deregister(&mut SourceFd(&fd));
                live.connection.shut_down(&self.core);
            }
        }
        lock(&self.requeued).clear();
        if let Some(l) = &self.lane {
            l.ended();
        }
        let mut leader = lock(&self.leader);
        for a in leader.take_acceptors() {
            let fd = a.as_raw_fd();
            let _ = self.registry.deregister(&mut SourceFd(&fd));
            // Dropping an acceptor closes it (and removes a UIOP socket
            // file).
        }
    }
}
