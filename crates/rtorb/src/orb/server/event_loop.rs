//! The event loop under the event-driven strategies (`reactive.rs`: one
//! thread; `leader_followers.rs`: a pool).
//!
//! It is a `mio` [`Poll`] (`epoll`) over the acceptors
//! and every connection, registered edge-triggered for reading and
//! writing, and one or more threads that take turns as its *leader*. The
//! leader waits for events; it accepts new connections itself (at most
//! [`ACCEPTS_PER_TURN`] from an acceptor between two looks at the poller,
//! the rest after the connections that became ready meanwhile: clients
//! that connect without end cannot keep it from serving the connections
//! it has), and for a connection with input (or room to write) it claims
//! the connection and queues it: a connection that has completed a
//! message before (a client being served) ahead of those that have not
//! (new connections), and one whose peer left without anything to handle
//! is closed by the leader itself, without handing leadership over. It then takes one claimed connection off the queue and gives
//! up leadership (a follower, waiting on the leader lock, becomes the
//! leader and waits for the next events) before it reads and runs the
//! connection's requests itself: the thread that reads a request is the
//! thread that runs it. With one thread ([`ServerStrategy::Reactive`])
//! nobody is waiting for leadership: the same thread handles the event
//! inline and goes back to waiting.
//!
//! A connection is claimed by a small state machine, so that it is never
//! read by two threads at once: an event for a connection that another
//! thread is serving marks it for another turn, which that thread takes
//! before it lets the connection go. A turn reads without blocking until
//! the input would block, handles at most [`MESSAGES_PER_TURN`] messages
//! and reads a bounded amount (a large message is read over several
//! turns), even when more are already buffered;
//! then the connection waits behind the others that spent a whole turn,
//! and the leader looks at the poller before each of their turns, so a
//! connection that becomes ready meanwhile is served first. One busy
//! client cannot starve the others. A turn keeps each connection's partial message
//! in its framing state. Replies that cannot be written at once stay
//! queued on the connection and are written when it becomes writable;
//! past the output bound its input is left unread.
//!
//! The leader also looks at the connections' timeouts every poll interval
//! (part of a message held too long, queued replies that do not drain):
//! a connection due is served, which closes it. No thread ever blocks on
//! one connection.
//!
//! On shutdown the leader stops waiting; threads serving a connection
//! finish the request they run, send `CloseConnection` and close it; the
//! last thread to leave closes every other connection with
//! `CloseConnection` and the acceptors.
//!
//! [`ServerStrategy::Reactive`]: super::ServerStrategy::Reactive

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};

use crate::sync::{Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::acceptor::{Pending, Room, accept_pending};
use super::connection::{Connection, Progress};
use super::shedding::Activity;
use super::{OpenConnection, ServerCore};
use crate::transport::Acceptor;
use growth::Growth;
pub(crate) use growth::ThreadStart;
use mio::unix::SourceFd;
use mio::{Events, Interest, Poll, Registry, Token, Waker};

/// The most messages one turn handles on a connection before the others
/// get theirs: a message counts once, and every 4 KiB read once more (so
/// a turn stops reading once it has read 16 KiB, and a large message is
/// read over several turns). Four keeps a client pipelining requests
/// without pause from more than doubling the latency of the others on
/// one thread, at no cost to its own throughput (`rtorb bench overload`). A connection with more input then waits behind every
/// connection that has become ready meanwhile, and every other connection
/// that spent a whole turn.
pub const MESSAGES_PER_TURN: usize = 4;

/// The most connections the leader accepts from one acceptor before it
/// looks at the poller again: connections that connect (and close) as fast
/// as they can keep the accept queue from ever emptying, and must not keep
/// the established connections from being served. More waiting are
/// accepted after the connections that became ready meanwhile.
///
/// A client whose request arrives during a round waits for the rest of
/// it: two keeps that wait to one accept, and a look at the poller (an
/// `epoll_wait` that does not block) costs little beside an accept. Under
/// connect churn (`rtorb bench overload --scenario churn`) a round of 16
/// moved a served client's median latency 2.5-9× on the leader/followers
/// strategy, a round of 2 by 1.0-1.7×, at the same accept rate.
pub(crate) const ACCEPTS_PER_TURN: usize = 2;

/// Events taken from the poller at once.
const EVENTS: usize = 256;

/// The waker's token; acceptor `i` is token `1 + i`.
const WAKER: Token = Token(0);

/// The token of the connection in table slot 0.
const FIRST_CONNECTION: usize = 1 << 20;

/// How long a leader waits after the poller failed, before trying again.
const POLL_ERROR_PAUSE: Duration = Duration::from_millis(5);

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

/// An open connection and its place in the open-connection count.
struct Live {
    connection: Connection,
    _open: OpenConnection,
}

/// A connection in the event loop's table.
struct Slot {
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
    fn take_turn(&self) -> MutexGuard<'_, Option<Live>> {
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
    fn release(&self) -> bool {
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

/// What only the leader touches.
struct Leader {
    poll: Poll,
    events: Events,
    acceptors: Vec<Box<dyn Acceptor>>,
    /// By acceptor: more connections may be waiting (an event came, or
    /// the last round of accepts stopped at [`ACCEPTS_PER_TURN`]).
    accepting: Vec<bool>,
    /// Claimed connections that became ready (an event, a timeout),
    /// waiting for a thread.
    ready: VecDeque<Arc<Slot>>,
    /// Claimed connections that spent a whole turn and have more input,
    /// served in turn when no other connection is ready.
    busy: VecDeque<Arc<Slot>>,
    next_sweep: Instant,
    /// The connections by token: only the leader looks a connection up,
    /// adds one or frees a place, so the table needs no lock of its own
    /// (a cell, borrowed by one leader call at a time).
    table: RefCell<Table>,
}

/// The connections by token.
#[derive(Default)]
struct Table {
    slots: Vec<Option<Arc<Slot>>>,
    free: Vec<usize>,
}

impl Table {
    /// Frees the places of the connections closed since the last time
    /// (see [`EventLoop::remove`]).
    fn reclaim(&mut self, closed: &mut Vec<usize>) {
        for index in closed.drain(..) {
            if let Some(s) = self.slots.get_mut(index)
                && s.take().is_some()
            {
                self.free.push(index);
            }
        }
    }
}

/// The event loop shared by its threads.
struct EventLoop {
    core: Arc<ServerCore>,
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
    waker: Arc<Waker>,
    epoch: Instant,
    /// Threads still running.
    running: AtomicUsize,
    /// Threads not serving a connection: leading, or waiting to.
    free: AtomicUsize,
    /// The dynamic threads it may start.
    growth: Growth,
    /// A lane's buffering and borrowing (`buffering.rs`, `borrowing.rs`).
    lane: buffering::LaneParts,
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
    spawn_with(core, acceptors, threads, name, ThreadStart::default())
}

/// As [`spawn`], the threads named `name` and started by `start`.
pub(crate) fn spawn_with(
    core: Arc<ServerCore>,
    acceptors: Vec<Box<dyn Acceptor>>,
    threads: usize,
    name: &str,
    start: ThreadStart,
) -> std::io::Result<Vec<JoinHandle<()>>> {
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
    let accepting = vec![false; acceptors.len()];
    let growth = Growth::new(&start, name);
    let lane = buffering::LaneParts::new(&start);
    let shared = Arc::new(EventLoop {
        core,
        registry,
        leader: Mutex::new(Leader {
            poll,
            events: Events::with_capacity(EVENTS),
            acceptors,
            accepting,
            ready: VecDeque::with_capacity(EVENTS),
            busy: VecDeque::new(),
            next_sweep: Instant::now(),
            table: RefCell::new(Table::default()),
        }),
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
        growth,
        lane,
    });
    let mut handles = Vec::with_capacity(threads);
    for _ in 0..threads {
        let s = Arc::clone(&shared);
        let start = start.clone();
        let spawned = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || s.run(&start, false));
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
    shared.start_lane(&start, name, handles)
}

impl EventLoop {
    /// A thread's life: leads, serves what it was given, and leads again,
    /// until shutdown; a dynamic thread also ends when, back from a turn,
    /// it finds another thread free to lead, or after leading for its idle
    /// time. A
    /// thread that takes a connection when no other is free to lead
    /// starts a dynamic thread first, if the loop may (`growth.rs`).
    fn run(self: &Arc<Self>, start: &ThreadStart, dynamic: bool) {
        crate::runtime::set_thread_invoker(self.core.invoker());
        if start.apply(&self.core, !dynamic) {
            let idle = dynamic.then_some(self.growth.idle);
            loop {
                if dynamic && self.free.load(Ordering::Acquire) > 0 {
                    // Another thread is free to lead: not needed now.
                    break;
                }
                self.free.fetch_add(1, Ordering::SeqCst);
                self.reader_gives_way();
                let slot = self.lead(idle, false);
                let free = self.free.fetch_sub(1, Ordering::SeqCst) - 1;
                let Some(slot) = slot else {
                    if self.lend() {
                        continue;
                    }
                    break;
                };
                if free == 0 {
                    self.grow();
                    self.note_busy();
                }
                self.serve(&slot);
                self.serve_waiting();
            }
        }
        if self.running.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.close_all();
        }
    }

    /// Becomes the leader, waits for events until a connection is ready,
    /// and returns it claimed, having given up leadership; `None` on
    /// shutdown.
    ///
    /// Connections that became ready are served first, in order; those
    /// that spent a whole turn and have more input take turns after
    /// them, the poller looked at before each of their turns. So a
    /// connection with input waits for the turns of the connections that
    /// became ready before it, and for at most one turn of a busy one.
    ///
    /// With `idle` (a dynamic thread), it also returns `None` once it has
    /// led for that long with nothing to do. See `buffering.rs` for a
    /// lane's `reader`, and what a lane's threads take first.
    fn lead(&self, idle: Option<Duration>, reader: bool) -> Option<Arc<Slot>> {
        let mut guard = lock(&self.leader);
        let since = idle.map(|_| Instant::now());
        let Leader {
            poll,
            events,
            acceptors,
            accepting,
            ready,
            busy,
            next_sweep,
            table,
        } = &mut *guard;
        loop {
            if self.core.stopping() {
                return None;
            }
            if let Some(turn) = self.lane_turn(reader) {
                return turn;
            }
            while let Some(slot) = ready.pop_front() {
                if !slot.only_end_of_stream() {
                    // Dropping the guard promotes a follower.
                    return Some(slot);
                }
                // A peer that went away leaving nothing to do but close:
                // closed here, which costs less than handing the
                // leadership over for it (a flood of connects and closes
                // then takes less from the clients being served).
                self.serve(&slot);
            }
            if self.has_requeued.swap(false, Ordering::AcqRel) {
                busy.extend(lock(&self.requeued).drain(..));
            }
            let waiting = !busy.is_empty()
                || self.has_requeued.load(Ordering::Acquire)
                || accepting.contains(&true);
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
                // Announced before looking at the put-back connections
                // once more (see `serve`): either this sees one put back,
                // or the thread putting it back sees this and wakes us.
                self.polling.store(true, Ordering::SeqCst);
                if self.has_requeued.load(Ordering::SeqCst) {
                    timeout = Some(Duration::ZERO);
                }
            }
            if let Some(idle) = idle {
                timeout = Some(timeout.map_or(idle, |t| t.min(idle)));
            }
            let polled = poll.poll(events, timeout);
            self.polling.store(false, Ordering::Release);
            match polled {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => std::thread::sleep(POLL_ERROR_PAUSE),
            }
            for event in events.iter() {
                match event.token() {
                    WAKER => {}
                    Token(t) if t < FIRST_CONNECTION => {
                        if let Some(a) = accepting.get_mut(t - 1) {
                            *a = true;
                        }
                    }
                    Token(t) => {
                        let index = t - FIRST_CONNECTION;
                        let slot = table.borrow().slots.get(index).cloned().flatten();
                        if let Some(slot) = slot {
                            if event.is_read_closed() || event.is_error() {
                                // Before the claim, so the turn sees it.
                                slot.read_closed.store(true, Ordering::Release);
                            }
                            if slot.signal() {
                                // A client that has been served goes
                                // before connections that only connected
                                // (a flood of connects and closes cannot
                                // queue ahead of it).
                                if slot.activity.has_completed() {
                                    ready.push_front(slot);
                                } else {
                                    ready.push_back(slot);
                                }
                            }
                        }
                    }
                }
            }
            let timed = self.timed.load(Ordering::Acquire) > 0;
            let retry = self.accept_retry.load(Ordering::Acquire);
            let now = (timed || retry).then(Instant::now);
            if let Some(now) = now.filter(|now| *now >= *next_sweep) {
                if timed {
                    self.sweep(now, &table.borrow(), ready);
                }
                if retry {
                    // An accept that failed for want of descriptors left
                    // connections waiting that bring no new event: try
                    // again.
                    self.accept_retry.store(false, Ordering::Release);
                    accepting.fill(true);
                }
                *next_sweep = now + self.core.limits.poll_interval;
            }
            // A client being served goes before the connections waiting
            // to be accepted (with one thread, the next round of accepts
            // waits for its turn; with more, the next leader takes it).
            if ready.front().is_some_and(|s| s.activity.has_completed()) {
                return ready.pop_front();
            }
            // A round of accepts per acceptor with connections waiting,
            // after the events of the poll have queued the connections
            // that became ready.
            for (a, more) in acceptors.iter().zip(accepting.iter_mut()) {
                if *more {
                    *more = self.accept(&**a, table);
                }
            }
            if let Some(slot) = ready.pop_front().or_else(|| busy.pop_front()) {
                return Some(slot);
            }
            if let (Some(idle), Some(since)) = (idle, since)
                && events.is_empty()
                && !accepting.contains(&true)
                && since.elapsed() >= idle
            {
                return None;
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

    fn nanos(&self, t: Instant) -> u64 {
        u64::try_from(t.saturating_duration_since(self.epoch).as_nanos())
            .unwrap_or(u64::MAX - 1)
            .saturating_add(1)
    }

    /// Serves a claimed connection: a turn, and another at once if an
    /// event arrived during it; past that, or when the turn spent its
    /// budget, the connection waits behind the others (see `lead`).
    fn serve(&self, slot: &Arc<Slot>) {
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
    fn end_turn(
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
            let mut table = leader.table.borrow_mut();
            table.free.clear();
            table.slots.drain(..).flatten().collect()
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
        self.drop_waiting();
        let mut leader = lock(&self.leader);
        leader.ready.clear();
        leader.busy.clear();
        for a in &leader.acceptors {
            let fd = a.as_raw_fd();
            let _ = self.registry.deregister(&mut SourceFd(&fd));
        }
        // Dropping an acceptor closes it (and removes a UIOP socket file).
        leader.acceptors.clear();
    }
}

mod borrowing;
mod buffering;
mod growth;
pub(crate) use borrowing::{LaneBorrowing, PoolLanes};
pub(crate) use buffering::{BufferPolicy, LaneCounters};
#[cfg(test)]
mod tests;
