//! The server side of the ORB: the object adapters and bounds shared by
//! the server's threads, the connections they serve, and the concurrency
//! strategies that bring threads and connections together.
//!
//! Whatever the [`ServerStrategy`], a connection is one `Connection`
//! (`connection.rs`): its transport, an explicit state for its life
//! (open, draining its replies after the peer ended its stream, closing,
//! closed), a read half (the incremental framing state and the
//! incomplete-message timeout, `read.rs`) and a write half (replies not yet
//! written, fragmentation and the write timeout, `write.rs`). Each whole
//! message goes to the one GIOP dispatch (`dispatch.rs`): `Request`,
//! `LocateRequest`, `CancelRequest`, `CloseConnection`, `MessageError` and
//! fragments, demultiplexed on the object adapters and answered with a
//! reply. The strategies differ only in how threads meet connections:
//! `thread_per_connection.rs` (with the accept loop of `acceptor.rs`),
//! and `reactive.rs` and `leader_followers.rs`, two uses of one event loop
//! (`event_loop.rs`).
//!
//! Messages of one connection are handled one at a time, in order: a
//! connection is never read by two threads at once. Requests run to
//! completion before the next message is read, but for `SYNC_WITH_SERVER`
//! oneways: those are acknowledged as they are read and their upcalls
//! queued to a thread of the connection's own (`deferred.rs`), so that an
//! acknowledgement never waits for the servant of an earlier request; the
//! requests that follow wait for the queued upcalls, so a connection's
//! requests are still dispatched in the order they were sent. Replies are written in the
//! GIOP version and byte order of the request, or in GIOPlite on a
//! GIOPlite connection; the messages the server sends on its own
//! (`CloseConnection`, `MessageError`) in the GIOP version of the last
//! message the client sent (1.0 before any). Arguments are read and
//! replies written in the code sets of the first `CodeSets` service
//! context the connection received (see [`crate::codesets`]).
//!
//! Hostile or broken peers are bounded: a header announcing more than the
//! maximum message size, or than what remains of the ORB's memory budget
//! (`budget.rs`), is refused before anything is buffered for it, with an
//! `IMP_LIMIT` or `NO_MEMORY` reply to a request whose id has arrived
//! (in the request's GIOP version), else `MessageError`, and its
//! connection closed (in the event loop after lingering a bounded time,
//! `linger.rs`); part of a
//! message held longer than the incomplete-message timeout closes the
//! connection (its clock starting again at every whole message); at the
//! connection limit a connection with no request in progress is shed with
//! `CloseConnection` to make room (of those that never completed a
//! message, the oldest, one silent for a second before one that sent part
//! of a message, one that just connected last; else the least recently
//! active of those that did), and a new connection is closed
//! (with `CloseConnection` too) as soon as it is accepted only if none can
//! be (`shedding.rs`); and replies a client does not read are queued up
//! to a bound, past which its requests are not read, and a queue that does
//! not drain within the write timeout closes the connection.
//!
//! On shutdown (`ServerCore::stop`) the acceptors stop, every connection
//! finishes the request it is running, sends `CloseConnection` (a request
//! that arrives after that point is not started, so the client may send it
//! again), and closes.
//!
//! # Layering
//!
//! Each module uses only the ones before it in this list; this file holds
//! the core every one of them uses, and only re-exports the others:
//!
//! 1. `strategy.rs`: the names of the strategies; `budget.rs`: the
//!    memory budget (no dependencies); `descriptors.rs`: the descriptor
//!    limit and the connection cap derived from it; `shares.rs`: the cap
//!    shared by the ORB's endpoints and its lanes;
//! 2. `write.rs` and `read.rs`: the two halves of a connection;
//!    `shedding.rs`: choosing the connection to shed at the cap;
//!    `linger.rs`: the close of a connection whose message was refused;
//!    `deferred.rs`: the upcalls run after their acknowledgement;
//! 3. `dispatch.rs`: one whole message to the adapters and back (writes
//!    through the write half, queues deferred upcalls);
//! 4. `connection.rs`: the connection, its state, its halves and its
//!    dispatch;
//! 5. `acceptor.rs`: accepting connections;
//! 6. `thread_per_connection.rs`, `event_loop.rs`: running connections;
//! 7. `reactive.rs`, `leader_followers.rs`: the event loop's two uses;
//!    `lanes/`: thread pools with lanes, an event loop per lane.

mod acceptor;
mod budget;
mod connection;
mod deferred;
mod descriptors;
mod event_loop;
mod lanes;
mod leader_followers;
mod reactive;
mod shares;
mod shedding;
pub mod strategy;
mod thread_per_connection;
mod upcall;

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use bytes::Bytes;
use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

use crate::poa::Found;
use crate::poa::table::{AdapterTable, Entry, Location, PlainKeyCache};
use crate::rt::{LaneId, Priority, PriorityControl};
use crate::runtime::Invoker;
use crate::sync::Mutex;
use crate::transport::Transport;
use shares::{ConnectionCap, Share};
use shedding::Activity;

use super::OrbConfig;
use crate::minor::UNKNOWN_SERVANT_PANICKED;
use budget::MemoryBudget;

pub use descriptors::derived_max_connections;
pub(crate) use descriptors::raise_descriptor_limit;
pub use event_loop::MESSAGES_PER_TURN;
pub(crate) use lanes::{LaneError, Threadpool};
pub(crate) use leader_followers::spawn as spawn_leader_followers;
pub(crate) use reactive::spawn as spawn_reactive;
pub use strategy::{ServerStrategy, UnknownStrategy};
pub(crate) use thread_per_connection::spawn as spawn_acceptor;

/// The bounds and timeouts of the server, from the [`OrbConfig`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct ServerLimits {
    /// How often an idle connection (or the event loop) wakes to look at
    /// shutdown and timeouts.
    pub(crate) poll_interval: Duration,
    /// How long a reply may wait to be written.
    pub(crate) write_timeout: Duration,
    /// The largest message body accepted.
    pub(crate) max_message_size: u32,
    /// How long part of a message may be held.
    pub(crate) incomplete_message_timeout: Duration,
    /// How long a connection may stay idle, if there is a limit.
    pub(crate) idle_timeout: Option<Duration>,
    /// The most open connections of the ORB's endpoints and its lanes
    /// together (resolved: never 0).
    pub(crate) max_connections: usize,
    /// The most reply octets queued for one connection before its input
    /// is no longer read.
    pub(crate) max_output_buffer: usize,
    /// The code sets of a connection on which no `CodeSets` context came.
    pub(crate) assumed_code_sets: rtorb_cdr::TransmissionCodeSets,
    /// The most octets buffered for all connections together.
    pub(crate) memory_budget: usize,
}

impl ServerLimits {
    /// The limits `config` sets, with the process's descriptor limit as it
    /// is now.
    pub(crate) fn from_config(config: &OrbConfig) -> ServerLimits {
        let descriptors = rustix::process::getrlimit(rustix::process::Resource::Nofile)
            .current
            .unwrap_or(u64::MAX);
        ServerLimits::with_descriptors(config, descriptors)
    }

    /// The limits `config` sets; a connection cap of 0 (the default) is
    /// derived from the descriptor limit `descriptors` (see
    /// [`derived_max_connections`]).
    pub(crate) fn with_descriptors(config: &OrbConfig, descriptors: u64) -> ServerLimits {
        let max_connections = match config.max_connections {
            0 => derived_max_connections(descriptors, config.server_strategy),
            n => n,
        };
        ServerLimits {
            poll_interval: config.server_poll_interval,
            write_timeout: config.server_write_timeout,
            max_message_size: config.max_message_size,
            incomplete_message_timeout: config.incomplete_message_timeout,
            idle_timeout: config.server_idle_timeout,
            max_connections,
            max_output_buffer: config.max_output_buffer,
            assumed_code_sets: config.code_sets.assumed(),
            memory_budget: config.memory_budget,
        }
    }
}

/// The object adapters and thread bookkeeping shared by the server
/// threads.
pub(crate) struct ServerCore {
    /// Plain keys and POAs: what demultiplexes requests.
    adapters: Arc<AdapterTable>,
    stopping: AtomicBool,
    connections: Mutex<Vec<JoinHandle<()>>>,
    pub(crate) limits: ServerLimits,
    /// The connection cap, shared with the lanes (see `shares.rs`).
    cap: Arc<ConnectionCap>,
    /// This core's share of it, which counts its open connections
    /// (accepted and not yet closed).
    share: Arc<Share>,
    /// Wakes the event loops on shutdown.
    wakers: Mutex<Vec<Arc<mio::Waker>>>,
    /// Handles on the connections whose threads block in reads with no
    /// timeout: shutdown ends their reads.
    readers: Mutex<Readers>,
    /// Binds object references that arrive in requests, so a servant can
    /// call them (the ORB's own client side).
    invoker: Arc<dyn Invoker>,
    /// Replies larger than this go out as fragments.
    fragment_size: Option<usize>,
    /// What every connection's buffers are charged to.
    budget: Arc<MemoryBudget>,
    /// How upcalls are run at the priority of their request.
    pub(crate) priorities: Option<PriorityControl>,
    /// The thread pool lane whose connections this core serves (`None`:
    /// the ORB's own endpoints), and its priority.
    pub(crate) lane: Option<(LaneId, Priority)>,
}

impl std::fmt::Debug for ServerCore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerCore")
            .field("stopping", &self.stopping())
            .finish_non_exhaustive()
    }
}

impl ServerCore {
    pub(crate) fn new(
        limits: ServerLimits,
        invoker: Arc<dyn Invoker>,
        adapters: Arc<AdapterTable>,
    ) -> ServerCore {
        let cap = ConnectionCap::new(limits.max_connections);
        let share = cap.join();
        ServerCore {
            adapters,
            stopping: AtomicBool::new(false),
            connections: Mutex::new(Vec::new()),
            limits,
            cap,
            share,
            wakers: Mutex::new(Vec::new()),
            readers: Mutex::new(Readers::default()),
            invoker,
            fragment_size: None,
            budget: Arc::new(MemoryBudget::new(limits.memory_budget)),
            priorities: None,
            lane: None,
        }
    }

    /// A core for the connections of `lane`: the same object adapters,
    /// limits, invoker and priorities, a share of its own of the
    /// connection cap (see `shares.rs`), and state of its own (its stop
    /// flag, its wakers, and a memory budget of the configured size with
    /// its block pool), so that nothing on a lane's request path is
    /// shared with another lane but the lock-free demultiplexing, and
    /// what a lane's peers hold (connections beyond the lane's promise,
    /// octets) never refuses another lane's.
    pub(crate) fn for_lane(&self, lane: LaneId, priority: Priority) -> ServerCore {
        ServerCore {
            adapters: Arc::clone(&self.adapters),
            stopping: AtomicBool::new(false),
            connections: Mutex::new(Vec::new()),
            limits: self.limits,
            cap: Arc::clone(&self.cap),
            share: self.cap.join(),
            wakers: Mutex::new(Vec::new()),
            readers: Mutex::new(Readers::default()),
            invoker: Arc::clone(&self.invoker),
            fragment_size: self.fragment_size,
            budget: Arc::new(MemoryBudget::new(self.limits.memory_budget)),
            priorities: self.priorities.clone(),
            lane: Some((lane, priority)),
        }
    }

    /// The invoker object references arriving in requests are bound to.
    pub(crate) fn invoker(&self) -> &Arc<dyn Invoker> {
        &self.invoker
    }

    /// Sends GIOP 1.2 replies larger than `max` as fragments.
    pub(crate) fn with_fragment_size(mut self, max: Option<usize>) -> ServerCore {
        self.fragment_size = max;
        self
    }

    /// Runs upcalls at their request's priority through `priorities`.
    pub(crate) fn with_priorities(mut self, priorities: PriorityControl) -> ServerCore {
        self.priorities = Some(priorities);
        self
    }

    pub(crate) fn insert(&self, key: Bytes, entry: Entry) {
        self.adapters.insert(key, entry);
    }

    /// Stops serving `key` (a plain key, or a POA's object).
    pub(crate) fn remove(&self, key: &[u8]) -> bool {
        self.adapters.deactivate(key)
    }

    /// The demultiplexing step: the servant (or forward) of a request
    /// for `operation` on `key`. Plain keys first, then the POA's direct
    /// index; see [`crate::poa`].
    ///
    /// Servant managers run here (`incarnate`, `preinvoke`): one that
    /// panics fails the request with `UNKNOWN`, as a panicking servant
    /// does, and the thread goes on serving.
    ///
    /// The connection's `cache` remembers the servant of the plain key it
    /// called last ([`AdapterTable::lookup_cached`]).
    fn lookup(
        &self,
        key: &[u8],
        operation: &[u8],
        cache: &mut PlainKeyCache,
    ) -> Result<Found, SystemException> {
        std::panic::catch_unwind(AssertUnwindSafe(|| {
            self.adapters.lookup_cached(key, operation, cache)
        }))
        .unwrap_or_else(|_| Err(servant_panicked()))
    }

    /// Where a `LocateRequest` for `key` finds its object; a servant
    /// manager that panics gives `UNKNOWN`, as in [`ServerCore::lookup`].
    ///
    /// An object of a lane that is asked for on another endpoint is
    /// forwarded to its lane's reference.
    pub(crate) fn locate(&self, key: &[u8]) -> Location {
        if let Some(b) = self.adapters.lane_binding(key)
            && !b.serves_on(self.lane.map(|(l, _)| l))
        {
            return Location::Forward(b.reference.clone());
        }
        if let Some(to) = self.poa_lane_forward(key) {
            return Location::Forward(to);
        }
        std::panic::catch_unwind(AssertUnwindSafe(|| self.adapters.locate(key)))
            .unwrap_or_else(|_| Location::System(servant_panicked()))
    }

    /// The lanes' reference to `key`, an object of a POA bound to a
    /// thread pool, if it is asked for on an endpoint that does not serve
    /// it.
    fn poa_lane_forward(&self, key: &[u8]) -> Option<rtorb_giop::ObjectReference> {
        let (pool, model, extra) = self.adapters.poa_threadpool_of(key)?;
        if crate::poa::table::poa_serves_on(pool, model, self.lane) {
            return None;
        }
        self.adapters.lane_reference(
            pool,
            model,
            "",
            &Bytes::copy_from_slice(key),
            extra.as_ref(),
        )
    }

    /// Where a request for `upcall`'s object (under `key`) that arrived
    /// on this core's connections belongs, if not here: the reference
    /// through the endpoints of the lanes that serve it.
    #[inline]
    pub(crate) fn lane_forward(
        &self,
        key: &[u8],
        upcall: &crate::poa::Upcall,
    ) -> Option<rtorb_giop::ObjectReference> {
        if let Some(b) = upcall.binding() {
            return (!b.serves_on(self.lane.map(|(l, _)| l))).then(|| b.reference.clone());
        }
        let (pool, model, extra) = upcall.poa_threadpool()?;
        if crate::poa::table::poa_serves_on(pool, model, self.lane) {
            return None;
        }
        let type_id = upcall.skeleton().repository_ids().first().copied();
        self.adapters.lane_reference(
            pool,
            model,
            type_id.unwrap_or(""),
            &Bytes::copy_from_slice(key),
            extra,
        )
    }

    pub(crate) fn stopping(&self) -> bool {
        self.stopping.load(Ordering::Acquire)
    }

    pub(crate) fn stop(&self) {
        self.stopping.store(true, Ordering::Release);
        let wakers = self.wakers.lock();
        for w in wakers.iter() {
            // A loop that cannot be woken still sees the flag within the
            // poll interval.
            let _ = w.wake();
        }
        drop(wakers);
        // A read blocked on a connection returns (end of stream); what the
        // client sent is still readable, and written replies still go out.
        let mut readers = self.readers.lock();
        for (_, handle, _) in readers.handles.iter_mut() {
            let _ = handle.shutdown(std::net::Shutdown::Read);
        }
    }

    /// Keeps a handle on `transport` so that [`ServerCore::stop`] can end
    /// a read blocked on it; `None` if the transport cannot give one (its
    /// thread then polls for shutdown).
    ///
    /// The connection's `activity` lets [`ServerCore::shed_watched`]
    /// choose it for shedding.
    fn watch(&self, transport: &dyn Transport, activity: &Arc<Activity>) -> Option<u64> {
        let handle = transport.try_clone_box().ok()?;
        let mut readers = self.readers.lock();
        let id = readers.next;
        readers.next += 1;
        readers.handles.push((id, handle, Arc::clone(activity)));
        Some(id)
    }

    /// At the connection cap: chooses a watched connection to shed (see
    /// `shedding.rs`) and ends its read, after which its thread closes it
    /// (so the new connection is counted in at once, see
    /// `ServerCore::admit_shedding`); `Room::None` if none may be shed.
    fn shed_watched(&self) -> acceptor::Room {
        let mut readers = self.readers.lock();
        let chosen = shedding::choose(
            readers
                .handles
                .iter()
                .enumerate()
                .map(|(i, (_, _, activity))| (&**activity, i)),
        );
        match chosen.and_then(|i| readers.handles.get_mut(i)) {
            Some((_, handle, activity)) if activity.mark_shed() => {
                let _ = handle.shutdown(std::net::Shutdown::Read);
                acceptor::Room::Closing
            }
            _ => acceptor::Room::None,
        }
    }

    /// Drops the handle [`ServerCore::watch`] kept.
    fn unwatch(&self, id: u64) {
        let mut readers = self.readers.lock();
        if let Some(i) = readers.handles.iter().position(|(r, _, _)| *r == id) {
            readers.handles.swap_remove(i);
        }
    }

    /// Registers an event loop's waker, woken by [`ServerCore::stop`].
    pub(crate) fn add_waker(&self, waker: Arc<mio::Waker>) {
        self.wakers.lock().push(waker);
    }

    /// Counts a newly accepted connection in, unless this core's share of
    /// the connection cap is used up (then the caller sheds one to make
    /// room, or closes it). The returned guard counts it out.
    pub(crate) fn admit(self: &Arc<Self>) -> Option<OpenConnection> {
        self.share
            .admit(&self.cap)
            .then(|| OpenConnection(Arc::clone(self)))
    }

    /// Octets charged to the memory budget now: large messages being
    /// received, fragments held and replies queued, over all connections.
    pub(crate) fn buffered_bytes(&self) -> usize {
        self.budget.used()
    }

    /// The most connections open at once, of every core sharing the cap.
    pub(crate) fn max_connections(&self) -> usize {
        self.limits.max_connections
    }

    /// The count of `shed`, a connection just shed and closed, for the
    /// new one that takes its place; unless the cap owes part of a
    /// promise to another core (one that joined while the others held
    /// what it was promised): then the place goes to it, and the new
    /// connection is admitted only if the rule lets it in.
    pub(crate) fn in_place_of(self: &Arc<Self>, shed: OpenConnection) -> Option<OpenConnection> {
        if !self.cap.owes() {
            return Some(shed);
        }
        drop(shed);
        self.admit()
    }

    /// Counts in a connection admitted in place of one being shed, which
    /// counts itself out when it has closed; `None` if the cap owes part
    /// of a promise to another core (the place goes to it, as in
    /// [`ServerCore::in_place_of`]).
    pub(crate) fn admit_shedding(self: &Arc<Self>) -> Option<OpenConnection> {
        if self.cap.owes() {
            return None;
        }
        self.share.force(&self.cap);
        Some(OpenConnection(Arc::clone(self)))
    }

    /// Connections open now.
    pub(crate) fn open_connections(&self) -> usize {
        self.share.open()
    }

    /// Connections open now on every core sharing the cap: the ORB's
    /// endpoints and its lanes.
    pub(crate) fn all_open_connections(&self) -> usize {
        self.cap.open()
    }

    /// Gives this core's share of the connection cap back to the others
    /// (the ORB's own endpoints, when it listens on none).
    pub(crate) fn leave_cap(&self) {
        self.cap.leave(&self.share);
    }

    /// Joins every connection thread (after the acceptors have stopped).
    pub(crate) fn join_connections(&self) {
        loop {
            let handles: Vec<JoinHandle<()>> = self.connections.lock().drain(..).collect();
            if handles.is_empty() {
                return;
            }
            for h in handles {
                let _ = h.join();
            }
        }
    }

    fn add_connection(&self, handle: JoinHandle<()>) {
        let mut v = self.connections.lock();
        // Reap the threads of connections that have ended.
        let mut i = 0;
        while i < v.len() {
            if v[i].is_finished() {
                let _ = v.swap_remove(i).join();
            } else {
                i += 1;
            }
        }
        v.push(handle);
    }
}

/// The connections [`ServerCore::stop`] wakes.
#[derive(Default)]
struct Readers {
    next: u64,
    handles: Vec<(u64, Box<dyn Transport>, Arc<Activity>)>,
}

/// Counts one open connection; dropping it counts the connection out.
pub(crate) struct OpenConnection(Arc<ServerCore>);

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.0.share.close(&self.0.cap);
    }
}

impl Drop for ServerCore {
    /// A core's share of the connection cap goes back to the others when
    /// its last connection is gone (a lane that ends).
    fn drop(&mut self) {
        self.cap.leave(&self.share);
    }
}

/// `UNKNOWN` for a request whose servant (or servant manager) panicked.
fn servant_panicked() -> SystemException {
    SystemException::new(
        SystemExceptionKind::Unknown,
        UNKNOWN_SERVANT_PANICKED,
        CompletionStatus::Maybe,
    )
}
