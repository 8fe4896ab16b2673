//! The server side of the ORB: the object adapters and bounds shared by
//! the server's threads (`ServerCore`), the connections they serve, and
//! the concurrency strategies that bring threads and connections
//! together.
//!
//! Whatever the [`ServerStrategy`], a connection is one `Connection`
//! (`connection/`): a state machine without I/O (framing, limits,
//! deadlines, what to write), driven by turns that read, dispatch each
//! whole request to the adapters and write the replies. The strategies
//! differ only in how threads meet connections: `thread_per_connection.rs`
//! (with the accept loop of `acceptor.rs`), and `reactive.rs` and
//! `leader_followers.rs`, two uses of one event loop (`event_loop/`);
//! `threadpool/` runs Real-time CORBA thread pools, an event loop per
//! lane.
//!
//! Messages of one connection are handled one at a time, in order: a
//! connection is never read by two threads at once, and a request runs to
//! completion before the next message is read (but for `SYNC_WITH_SERVER`
//! oneways, acknowledged as read, their upcalls queued: `deferred.rs`).
//!
//! Hostile or broken peers are bounded: the maximum message size and the
//! ORB's memory budget (`budget.rs`) refuse a message before anything is
//! buffered for it; part of a message held too long closes its
//! connection; replies a client does not read are queued up to a bound;
//! at the connection cap (`descriptors.rs`, shared by the ORB's endpoints
//! and its lanes: `connection_cap.rs`) a connection with nothing in
//! progress is shed to make room (`shedding.rs`).
//!
//! On shutdown (`ServerCore::stop`) the acceptors stop, every connection
//! finishes the request it is running, sends `CloseConnection` (a request
//! that arrives after that point is not started, so the client may send it
//! again), and closes.

mod acceptor;
mod budget;
mod connection;
mod connection_cap;
mod deferred;
mod descriptors;
mod event_loop;
mod leader_followers;
mod reactive;
mod shedding;
pub mod strategy;
mod thread_per_connection;
mod threadpool;
mod upcall;

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use bytes::Bytes;
use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

use crate::object::Invoker;
use crate::poa::Found;
use crate::poa::adapter_table::{AdapterTable, Entry, Location, PlainKeyCache};
use crate::rt::{LaneId, Priority, PriorityControl};
use crate::sync::Mutex;
use crate::transport::Transport;
use connection_cap::{ConnectionCap, Share};
use shedding::Activity;
use threadpool::LaneDirectory;

use super::OrbConfig;
use crate::minor::UNKNOWN_SERVANT_PANICKED;
use budget::MemoryBudget;

pub use descriptors::derived_max_connections;
pub(crate) use descriptors::raise_descriptor_limit;
pub use event_loop::MESSAGES_PER_TURN;
pub(crate) use leader_followers::spawn as spawn_leader_followers;
pub(crate) use reactive::spawn as spawn_reactive;
pub use strategy::{ServerStrategy, UnknownStrategy};
pub(crate) use thread_per_connection::spawn as spawn_acceptor;
pub(crate) use threadpool::Threadpool;

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
    /// The connection cap, shared with the lanes (see `connection_cap.rs`).
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
    /// The lanes of the ORB's thread pools, with their endpoints (shared
    /// by every core of the ORB, and with the object adapters).
    lanes: Arc<LaneDirectory>,
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
        let lanes = Arc::new(LaneDirectory::default());
        adapters.set_threadpools(lanes.clone());
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
            lanes,
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
    /// An object of a thread pool that is asked for on an endpoint that
    /// does not serve it is forwarded to its lanes' reference
    /// (`threadpool/forward.rs`).
    pub(crate) fn locate(&self, key: &[u8]) -> Location {
        if let Some(forward) = self.lane_location(key) {
            return forward;
        }
        std::panic::catch_unwind(AssertUnwindSafe(|| self.adapters.locate(key)))
            .unwrap_or_else(|_| Location::System(servant_panicked()))
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
    /// new one that takes its place; unless part of another core's
    /// reserve is pending (a core that joined while the others held what
    /// it reserves): then the place goes to it, and the new connection is
    /// admitted only if the rule lets it in.
    pub(crate) fn in_place_of(self: &Arc<Self>, shed: OpenConnection) -> Option<OpenConnection> {
        if !self.cap.reserve_pending() {
            return Some(shed);
        }
        drop(shed);
        self.admit()
    }

    /// Counts in a connection admitted in place of one being shed, which
    /// counts itself out when it has closed; `None` if part of another
    /// core's reserve is pending (the place goes to it, as in
    /// [`ServerCore::in_place_of`]).
    pub(crate) fn admit_shedding(self: &Arc<Self>) -> Option<OpenConnection> {
        if self.cap.reserve_pending() {
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
