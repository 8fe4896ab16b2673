//! What the event loop's leader does (`EventLoop::lead`): waits for events, claims the
//! connections that became ready (and those whose timeout is due), accepts
//! new connections, and hands one claimed connection to its own thread.
//!
//! Connections that became ready are served first, in order: one that has
//! completed a message before (a client being served) ahead of those that
//! have not (new connections), and one whose peer left with nothing to
//! handle is closed by the leader itself, without handing leadership over.
//! Those that spent a whole turn and have more input take turns after
//! them, the poller looked at before each of their turns. The leader
//! accepts at most [`ACCEPTS_PER_TURN`] connections from an acceptor
//! between two looks at the poller: clients that connect without end
//! cannot keep it from serving the connections it has.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use mio::unix::SourceFd;
use mio::{Interest, Token};

use super::super::acceptor::{Pending, accept_pending};
use super::super::connection::driver::Connection;
use super::super::server_core::Room;
use super::leader::{ACCEPTS_PER_TURN, FIRST_CONNECTION, Leader, POLL_ERROR_PAUSE, Table, WAKER};
use super::shared::EventLoop;
use super::slot::{CLOSED, IDLE, Live, Slot, lock};
use crate::sync::Mutex;
use crate::transport::Acceptor;

impl EventLoop {
    /// Becomes the leader, waits for events until a connection is ready,
    /// and returns it claimed, having given up leadership; `None` on
    /// shutdown (see the module docs for the order connections are
    /// served in).
    ///
    /// With `idle` (a dynamic thread), it also returns `None` once it has
    /// led for that long with nothing to do. `reader`: the lane's reader
    /// leads (see [`super::shared::LaneHooks::leader_first`]).
    pub(in crate::orb::server) fn lead(
        &self,
        idle: Option<Duration>,
        reader: bool,
    ) -> Option<Arc<Slot>> {
        let mut guard = lock(&self.leader);
        let leader = &mut *guard;
        let since = idle.map(|_| Instant::now());
        loop {
            if self.core.stopping() {
                return None;
            }
            if let Some(first) = self
                .lane
                .as_ref()
                .and_then(|l| l.leader_first(self, reader))
            {
                return first;
            }
            if let Some(slot) = self.take_ready(leader) {
                // Dropping the guard promotes a follower.
                return Some(slot);
            }
            let timeout = self.poll_timeout(leader, idle);
            self.poll_events(leader, timeout);
            self.sweep_if_due(leader);
            // A client being served goes before the connections waiting
            // to be accepted (with one thread, the next round of accepts
            // waits for its turn; with more, the next leader takes it).
            if leader
                .ready
                .front()
                .is_some_and(|s| s.activity.has_completed())
            {
                return leader.ready.pop_front();
            }
            self.accept_round(leader);
            if let Some(slot) = leader.ready.pop_front().or_else(|| leader.busy.pop_front()) {
                return Some(slot);
            }
            if let (Some(idle), Some(since)) = (idle, since)
                && leader.events.is_empty()
                && !leader.accepting.contains(&true)
                && since.elapsed() >= idle
            {
                return None;
            }
        }
    }

    /// The first ready connection that has more than its end of stream
    /// to serve; those whose peer went away leaving nothing to do but
    /// close are closed here, which costs less than handing the
    /// leadership over for them (a flood of connects and closes then
    /// takes less from the clients being served). The connections put
    /// back after a full turn then join the busy ones.
    fn take_ready(&self, leader: &mut Leader) -> Option<Arc<Slot>> {
        while let Some(slot) = leader.ready.pop_front() {
            if !slot.only_end_of_stream() {
                return Some(slot);
            }
            self.serve(&slot);
        }
        if self.has_requeued.swap(false, Ordering::AcqRel) {
            leader.busy.extend(lock(&self.requeued).drain(..));
        }
        None
    }

    /// How long the next look at the poller may wait: not at all while
    /// connections wait for a turn or accepts are pending; the poll
    /// interval while a timeout runs or an accept is to be retried; else
    /// until an event comes (at most `idle`, for a dynamic thread).
    fn poll_timeout(&self, leader: &Leader, idle: Option<Duration>) -> Option<Duration> {
        let waiting = !leader.busy.is_empty()
            || self.has_requeued.load(Ordering::Acquire)
            || leader.accepting.contains(&true);
        let mut timeout = if waiting {
            Some(Duration::ZERO)
        } else if self.timed.load(Ordering::Acquire) > 0
            || self.accept_retry.load(Ordering::Acquire)
        {
            Some(self.core.limits.poll_interval)
        } else {
            None
        };
        if timeout != Some(Duration::ZERO) {
            // Announced before looking at the put-back connections once
            // more (see `requeue`): either this sees one put back, or the
            // thread putting it back sees this and wakes us.
            self.polling.store(true, Ordering::SeqCst);
            if self.has_requeued.load(Ordering::SeqCst) {
                timeout = Some(Duration::ZERO);
            }
        }
        match idle {
            Some(idle) => Some(timeout.map_or(idle, |t| t.min(idle))),
            None => timeout,
        }
    }

    /// Waits for events (at most `timeout`), and claims the connections
    /// they are for.
    fn poll_events(&self, leader: &mut Leader, timeout: Option<Duration>) {
        let polled = leader.poll.poll(&mut leader.events, timeout);
        self.polling.store(false, Ordering::Release);
        match polled {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => std::thread::sleep(POLL_ERROR_PAUSE),
        }
        let Leader {
            events,
            accepting,
            ready,
            table,
            ..
        } = leader;
        for event in events.iter() {
            match event.token() {
                WAKER => {}
                Token(t) if t < FIRST_CONNECTION => {
                    if let Some(a) = accepting.get_mut(t - 1) {
                        *a = true;
                    }
                }
                Token(t) => {
                    let slot = table.borrow().slots.get(t - FIRST_CONNECTION).cloned();
                    if let Some(slot) = slot.flatten() {
                        if event.is_read_closed() || event.is_error() {
                            // Before the claim, so the turn sees it.
                            slot.read_closed.store(true, Ordering::Release);
                        }
                        claim(slot, ready);
                    }
                }
            }
        }
    }

    /// Every poll interval while timeouts run: claims the connections due;
    /// and after an accept that failed for want of descriptors (which left
    /// connections waiting that bring no new event), tries again.
    fn sweep_if_due(&self, leader: &mut Leader) {
        let timed = self.timed.load(Ordering::Acquire) > 0;
        let retry = self.accept_retry.load(Ordering::Acquire);
        if !timed && !retry {
            return;
        }
        let now = Instant::now();
        if now < leader.next_sweep {
            return;
        }
        if timed {
            self.sweep(now, &leader.table.borrow(), &mut leader.ready);
        }
        if retry {
            self.accept_retry.store(false, Ordering::Release);
            leader.accepting.fill(true);
        }
        leader.next_sweep = now + self.core.limits.poll_interval;
    }

    /// A round of accepts per acceptor with connections waiting, after
    /// the events of the poll have queued the connections that became
    /// ready.
    fn accept_round(&self, leader: &mut Leader) {
        let Leader {
            acceptors,
            accepting,
            table,
            ..
        } = leader;
        for (a, more) in acceptors.iter().zip(accepting.iter_mut()) {
            if *more {
                *more = self.accept(&**a, table);
            }
        }
    }

    /// Accepts the waiting connections, at most [`ACCEPTS_PER_TURN`];
    /// whether more may be waiting.
    fn accept(&self, acceptor: &dyn Acceptor, table: &RefCell<Table>) -> bool {
        let pending = accept_pending(
            &self.core,
            acceptor,
            ACCEPTS_PER_TURN,
            || self.shed(&table.borrow()),
            |transport, open| {
                if let Ok(connection) = Connection::new(&self.core, transport, false) {
                    self.insert(
                        &mut table.borrow_mut(),
                        Live {
                            connection,
                            _open: open,
                        },
                    );
                }
            },
        );
        match pending {
            Pending::Drained => false,
            Pending::More => true,
            Pending::Failed => {
                // Out of descriptors or the like: retried at the next
                // sweep (a waiting connection brings no new event).
                self.accept_retry.store(true, Ordering::Release);
                false
            }
        }
    }

    fn insert(&self, table: &mut Table, live: Live) {
        let fd = live.connection.transport().as_raw_fd();
        let activity = Arc::clone(live.connection.activity());
        if self.has_closed.swap(false, Ordering::AcqRel) {
            table.reclaim(&mut lock(&self.closed));
        }
        let index = match table.free.pop() {
            Some(i) => i,
            None => {
                table.slots.push(None);
                table.slots.len() - 1
            }
        };
        let registered = self.registry.register(
            &mut SourceFd(&fd),
            Token(FIRST_CONNECTION + index),
            Interest::READABLE | Interest::WRITABLE,
        );
        if registered.is_err() {
            table.free.push(index);
            return;
        }
        if let Some(s) = table.slots.get_mut(index) {
            *s = Some(Arc::new(Slot {
                index,
                state: AtomicU8::new(IDLE),
                read_closed: AtomicBool::new(false),
                activity,
                deadline: AtomicU64::new(0),
                live: Mutex::new(Some(live)),
            }));
        }
    }

    /// At the connection cap: closes the connection to shed (see
    /// `shedding.rs`), if one may be: the first in shedding order that no
    /// thread is serving (one claimed and waiting in the queue is taken
    /// from it: its turn finds it gone), whose place goes to the new one.
    fn shed(&self, table: &Table) -> Room {
        let mut candidates: Vec<((u8, u64), Arc<Slot>)> = table
            .slots
            .iter()
            .flatten()
            .filter(|s| s.state.load(Ordering::Acquire) != CLOSED)
            .filter_map(|s| s.activity.rank().map(|r| (r, Arc::clone(s))))
            .collect();
        candidates.sort_by_key(|(r, _)| *r);
        for (_, slot) in candidates {
            let Some(mut guard) = slot.live.try_lock() else {
                // A thread is serving it.
                continue;
            };
            let Some(mut live) = guard.take() else {
                continue;
            };
            drop(guard);
            slot.activity.mark_shed();
            self.set_deadline(&slot, 0);
            slot.state.store(CLOSED, Ordering::Release);
            live.connection.shed(&self.core);
            return Room::Freed(self.remove(slot.index, live));
        }
        Room::None
    }

    /// Claims every idle connection whose timeout is due.
    fn sweep(&self, now: Instant, table: &Table, ready: &mut VecDeque<Arc<Slot>>) {
        let now = self.nanos(now);
        for slot in table.slots.iter().flatten() {
            let d = slot.deadline.load(Ordering::Acquire);
            if d != 0 && d <= now && slot.signal() {
                ready.push_back(Arc::clone(slot));
            }
        }
    }
}

/// Claims a connection an event came for, and queues it: a client that
/// has been served goes before connections that only connected (a flood
/// of connects and closes cannot queue ahead of it).
fn claim(slot: Arc<Slot>, ready: &mut VecDeque<Arc<Slot>>) {
    if slot.signal() {
        if slot.activity.has_completed() {
            ready.push_front(slot);
        } else {
            ready.push_back(slot);
        }
    }
}
