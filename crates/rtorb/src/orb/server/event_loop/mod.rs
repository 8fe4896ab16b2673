//! The event loop under the event-driven strategies (`reactive.rs`: one
//! thread; `leader_followers.rs`: a pool; `threadpool/`: a loop per lane).
//!
//! It is a `mio` [`Poll`] (`epoll`) over the acceptors and every
//! connection, registered edge-triggered for reading and writing, and one
//! or more threads that take turns as its *leader* (`leader.rs`). The
//! leader waits for events, accepts new connections itself, and claims
//! each connection that has input (or room to write); it then gives up
//! leadership (a follower becomes the leader) and serves one claimed
//! connection itself: the thread that reads a request is the thread that
//! runs it. With one thread ([`ServerStrategy::Reactive`]) the same thread
//! handles the event inline and goes back to waiting.
//!
//! A connection is claimed by a small state machine ([`Slot`]), so that it
//! is never read by two threads at once. A turn ([`Connection::turn`])
//! handles at most [`MESSAGES_PER_TURN`] messages and reads a bounded
//! amount; a connection with more then waits behind the others, so one
//! busy client cannot starve them. The leader also looks at the
//! connections' timeouts: a connection due is served, which closes it. No
//! thread ever blocks on one connection.
//!
//! A thread pool lane adds to its loop through [`LaneHooks`]: its
//! threads' priority, dynamic threads, request buffering and borrowing.
//!
//! On shutdown the leader stops waiting; threads serving a connection
//! finish the request they run, send `CloseConnection` and close it; the
//! last thread to leave closes every other connection with
//! `CloseConnection` and the acceptors.
//!
//! [`ServerStrategy::Reactive`]: super::ServerStrategy::Reactive

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use mio::unix::SourceFd;
use mio::{Interest, Poll, Registry, Token, Waker};

use super::connection::{Connection, Progress};
use super::shedding::Activity;
use super::{OpenConnection, ServerCore};
use crate::sync::{Mutex, MutexGuard};
use crate::transport::Acceptor;
use leader::Leader;

mod leader;

/// The most messages one turn handles on a connection before the others
/// get theirs: a message counts once, and every 4 KiB read once more (so
/// a turn stops reading once it has read 16 KiB, and a large message is
/// read over several turns). Four keeps a client pipelining requests
/// without pause from more than doubling the latency of the others on
/// one thread, at no cost to its own throughput (`rtorb bench overload`). A connection with more input then waits behind every
/// connection that has become ready meanwhile, and every other connection
/// that spent a whole turn.
pub const MESSAGES_PER_TURN: usize = 4;

/// The waker's token; acceptor `i` is token `1 + i`.
const WAKER: Token = Token(0);

/// A connection no thread serves.
const IDLE: u8 = 0;
/// A thread serves (or has queued) the connection.
const BUSY: u8 = 1;
/// As `BUSY`, and another event arrived meanwhile: serve it again.
const AGAIN: u8 = 2;
/// Closed; events for it are stale.
const CLOSED: u8 = 3;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock()
}

/// What a thread pool lane adds to its event loop (see `threadpool/`):
/// the loop calls these at the points they name; the loops of the ORB's
/// own endpoints have none.
pub(super) trait LaneHooks: Send + Sync {
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

/// An open connection and its place in the open-connection count.
pub(super) struct Live {
    pub(super) connection: Connection,
    _open: OpenConnection,
}

/// A connection in the event loop's table.
pub(super) struct Slot {
    index: usize,
    state: AtomicU8,
    /// The poller reported the peer's end of stream or an error.
    read_closed: AtomicBool,
    /// What the acceptor reads to choose a connection to shed.
    activity: Arc<Activity>,
    /// When its next timeout falls due, in nanoseconds since the loop's
    /// epoch plus one; 0 for none.
    deadline: AtomicU64,
    live: Mutex<Option<Live>>,
}

impl Slot {
    /// Whether the poller saw its peer's end of stream and nothing else is
    /// left of it (see [`Connection::only_end_of_stream`]).
    fn only_end_of_stream(&self) -> bool {
        self.read_closed.load(Ordering::Acquire)
            && lock(&self.live)
                .as_ref()
                .is_some_and(|live| live.connection.only_end_of_stream())
    }

    /// Locks the connection for a turn, having told it of an end of
    /// stream the poller saw (`None` inside once it is closed).
    pub(super) fn take_turn(&self) -> MutexGuard<'_, Option<Live>> {
        let mut guard = lock(&self.live);
        if self.read_closed.load(Ordering::Acquire)
            && let Some(live) = guard.as_mut()
        {
            live.connection.set_read_closed();
        }
        guard
    }

    /// Signals an event; whether the caller now owns the connection (and
    /// must see that it is served).
    fn signal(&self) -> bool {
        let mut s = self.state.load(Ordering::Acquire);
        loop {
            let next = match s {
                IDLE => BUSY,
                BUSY => AGAIN,
                _ => return false,
            };
            match self
                .state
                .compare_exchange(s, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return s == IDLE,
                Err(now) => s = now,
            }
        }
    }

    /// Lets the connection go after a turn; `false` if an event arrived
    /// during the turn, and the owner must take another.
    pub(super) fn release(&self) -> bool {
        match self
            .state
            .compare_exchange(BUSY, IDLE, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(_) => {
                self.state.store(BUSY, Ordering::Release);
                false
            }
        }
    }
}

/// The event loop shared by its threads.
pub(super) struct EventLoop {
    pub(super) core: Arc<ServerCore>,
    registry: Registry,
    leader: Mutex<Leader>,
    /// The places of connections closed by a thread serving them, freed by
    /// the leader before it next adds one: closing is not on the request
    /// path, looking a connection up is.
    closed: Mutex<Vec<usize>>,
    has_closed: AtomicBool,
    /// Connections put back after a full turn (still claimed).
    requeued: Mutex<Vec<Arc<Slot>>>,
    has_requeued: AtomicBool,
    /// The leader may be waiting in the poller: a connection put back must
    /// wake it.
    polling: AtomicBool,
    /// Connections with a timeout running (part of a message held, or
    /// replies not written): while there are none, and no accept needs
    /// retrying, the leader sleeps until an event comes, with no periodic
    /// wake-up.
    timed: AtomicUsize,
    /// An accept failed for want of resources: retried at every sweep.
    accept_retry: AtomicBool,
    pub(super) waker: Arc<Waker>,
    epoch: Instant,
    /// Threads still running.
    running: AtomicUsize,
    /// Threads not serving a connection: leading, or waiting to.
    pub(super) free: AtomicUsize,
    /// What a thread pool lane adds, if the loop is a lane's.
    lane: Option<Arc<dyn LaneHooks>>,
}

/// Starts `threads` event-loop threads (1: the reactive strategy; more:
/// leader/followers) over `acceptors`.
pub(crate) fn spawn(
    core: Arc<ServerCore>,
    acceptors: Vec<Box<dyn Acceptor>>,
    threads: usize,
) -> std::io::Result<Vec<JoinHandle<()>>> {
    let name = if threads <= 1 {
        "rtorb-reactor"
    } else {
        "rtorb-leader-followers"
    };
    spawn_with(core, acceptors, threads, name, None).map(|(_, threads)| threads)
}

/// As [`spawn`], the threads named `name`, with what `lane` adds; the loop
/// and its threads.
pub(super) fn spawn_with(
    core: Arc<ServerCore>,
    acceptors: Vec<Box<dyn Acceptor>>,
    threads: usize,
    name: &str,
    lane: Option<Arc<dyn LaneHooks>>,
) -> std::io::Result<(Arc<EventLoop>, Vec<JoinHandle<()>>)> {
    let poll = Poll::new()?;
    let registry = poll.registry().try_clone()?;
    for (i, a) in acceptors.iter().enumerate() {
        a.set_nonblocking(true)?;
        let fd = a.as_raw_fd();
        registry.register(&mut SourceFd(&fd), Token(1 + i), Interest::READABLE)?;
    }
    let waker = Arc::new(Waker::new(&registry, WAKER)?);
    core.add_waker(Arc::clone(&waker));
    let threads = threads.max(1);
    let shared = Arc::new(EventLoop {
        core,
        registry,
        leader: Mutex::new(Leader::new(poll, acceptors)),
        closed: Mutex::new(Vec::new()),
        has_closed: AtomicBool::new(false),
        requeued: Mutex::new(Vec::new()),
        has_requeued: AtomicBool::new(false),
        polling: AtomicBool::new(false),
        timed: AtomicUsize::new(0),
        accept_retry: AtomicBool::new(false),
        waker,
        epoch: Instant::now(),
        running: AtomicUsize::new(threads),
        free: AtomicUsize::new(0),
        lane,
    });
    let mut handles = Vec::with_capacity(threads);
    for _ in 0..threads {
        let s = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || s.run(false));
        match spawned {
            Ok(h) => handles.push(h),
            Err(e) => {
                // The threads already started must see themselves as all.
                let missing = threads - handles.len();
                shared.core.stop();
                if shared.running.fetch_sub(missing, Ordering::AcqRel) == missing {
                    shared.close_all();
                }
                for h in handles {
                    let _ = h.join();
                }
                return Err(e);
            }
        }
    }
    Ok((shared, handles))
}

impl EventLoop {
    /// A thread's life: leads, serves what it was given, and leads again,
    /// until shutdown; a `dynamic` thread (a lane's) also ends when, back
    /// from a turn, it finds another thread free to lead, or after leading
    /// for its idle time.
    fn run(self: &Arc<Self>, dynamic: bool) {
        crate::object::set_thread_invoker(self.core.invoker());
        let lane = self.lane.as_deref();
        if lane.is_none_or(|l| l.thread_started(self, dynamic)) {
            let idle = lane.filter(|_| dynamic).map(|l| l.dynamic_idle());
            loop {
                if dynamic && self.free.load(Ordering::Acquire) > 0 {
                    // Another thread is free to lead: not needed now.
                    break;
                }
                self.free.fetch_add(1, Ordering::SeqCst);
                if let Some(l) = lane {
                    l.before_leading(self);
                }
                let slot = self.lead(idle, false);
                let free = self.free.fetch_sub(1, Ordering::SeqCst) - 1;
                let Some(slot) = slot else {
                    if lane.is_some_and(|l| l.lend(self)) {
                        continue;
                    }
                    break;
                };
                if free == 0
                    && let Some(l) = lane
                {
                    l.all_busy(self);
                }
                self.serve(&slot);
                if let Some(l) = lane {
                    l.after_turn(self);
                }
            }
        }
        if self.running.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.close_all();
        }
    }

    /// Starts one more thread, named `name`, that serves as a `dynamic`
    /// one and runs `then` when it ends; its handle is joined with the
    /// core's connection threads.
    pub(super) fn start_thread(
        self: &Arc<Self>,
        name: String,
        dynamic: bool,
        then: impl FnOnce() + Send + 'static,
    ) -> std::io::Result<()> {
        self.running.fetch_add(1, Ordering::AcqRel);
        let s = Arc::clone(self);
        let spawned = std::thread::Builder::new().name(name).spawn(move || {
            s.run(dynamic);
            then();
        });
        match spawned {
            Ok(h) => {
                self.core.add_connection(h);
                Ok(())
            }
            Err(e) => {
                // The calling thread still runs: this is never the last.
                self.running.fetch_sub(1, Ordering::AcqRel);
                Err(e)
            }
        }
    }

    /// Serves a claimed connection: a turn, and another at once if an
    /// event arrived during it; past that, or when the turn spent its
    /// budget, the connection waits behind the others (see `lead`).
    pub(super) fn serve(&self, slot: &Arc<Slot>) {
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
    pub(super) fn end_turn(
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
    fn requeue(&self, slot: &Arc<Slot>) {
        lock(&self.requeued).push(Arc::clone(slot));
        self.has_requeued.store(true, Ordering::SeqCst);
        if self.polling.load(Ordering::SeqCst) {
            let _ = self.waker.wake();
        }
    }

    /// Sets the timeout of the connection of `slot` to its `deadline`
    /// (`None`: none), keeping count of the connections that have one.
    pub(super) fn set_deadline_at(&self, slot: &Slot, deadline: Option<Instant>) {
        self.set_deadline(slot, deadline.map_or(0, |d| self.nanos(d).max(1)));
    }

    /// Sets the timeout of a connection (0: none), keeping count of the
    /// connections that have one.
    fn set_deadline(&self, slot: &Slot, deadline: u64) {
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

    fn nanos(&self, t: Instant) -> u64 {
        u64::try_from(t.saturating_duration_since(self.epoch).as_nanos())
            .unwrap_or(u64::MAX - 1)
            .saturating_add(1)
    }

    fn remove(&self, index: usize, mut live: Live) -> OpenConnection {
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
    fn close_all(&self) {
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

#[cfg(test)]
mod tests;
