//! [`ServerCore`]: what the server's threads share (the object adapters,
//! the limits, the connection cap and memory budget, the stop flag), and
//! the count of open connections ([`OpenConnection`]).

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use bytes::Bytes;
use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

use super::budget::MemoryBudget;
use super::connection_cap::{ConnectionCap, Share};
use super::limits::ServerLimits;
use super::shedding::{self, Activity};
use super::threadpool::binding::LaneDirectory;
use crate::minor::UNKNOWN_SERVANT_PANICKED;
use crate::object::Invoker;
use crate::poa::Found;
use crate::poa::adapter_table::{AdapterTable, Entry, PlainKeyCache};
use crate::rt::{LaneId, Priority, PriorityControl};
use crate::sync::Mutex;
use crate::transport::Transport;

/// The object adapters and thread bookkeeping shared by the server
/// threads.
pub(crate) struct ServerCore {
    /// Plain keys and POAs: what demultiplexes requests.
    pub(super) adapters: Arc<AdapterTable>,
    pub(super) stopping: AtomicBool,
    pub(super) connections: Mutex<Vec<JoinHandle<()>>>,
    pub(crate) limits: ServerLimits,
    /// The connection cap, shared with the lanes (see `connection_cap.rs`).
    pub(super) cap: Arc<ConnectionCap>,
    /// This core's share of it, which counts its open connections
    /// (accepted and not yet closed).
    pub(super) share: Arc<Share>,
    /// Wakes the event loops on shutdown.
    pub(super) wakers: Mutex<Vec<Arc<mio::Waker>>>,
    /// Handles on the connections whose threads block in reads with no
    /// timeout: shutdown ends their reads.
    pub(super) readers: Mutex<Readers>,
    /// Binds object references that arrive in requests, so a servant can
    /// call them (the ORB's own client side).
    pub(super) invoker: Arc<dyn Invoker>,
    /// Replies larger than this go out as fragments.
    pub(super) fragment_size: Option<usize>,
    /// What every connection's buffers are charged to.
    pub(super) budget: Arc<MemoryBudget>,
    /// How upcalls are run at the priority of their request.
    pub(crate) priorities: Option<PriorityControl>,
    /// The thread pool lane whose connections this core serves (`None`:
    /// the ORB's own endpoints), and its priority.
    pub(crate) lane: Option<(LaneId, Priority)>,
    /// The lanes of the ORB's thread pools, with their endpoints (shared
    /// by every core of the ORB, and with the object adapters).
    pub(super) lanes: Arc<LaneDirectory>,
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

    /// A core for the connections of `lane`: the same object adapters,
    /// limits, invoker and priorities, a share of its own of the
    /// connection cap (see `connection_cap.rs`), and state of its own (its
    /// stop flag, its wakers, and a memory budget of the configured size
    /// with its block pool), so that nothing on a lane's request path is
    /// shared with another lane but the lock-free demultiplexing, and
    /// what a lane's peers hold (connections beyond the lane's reserve,
    /// octets) never refuses another lane's.
    pub(crate) fn for_lane(&self, lane: LaneId, priority: Priority) -> ServerCore {
        ServerCore {
            adapters: Arc::clone(&self.adapters),
            stopping: Default::default(),
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
            lanes: Arc::clone(&self.lanes),
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
    pub(super) fn lookup(
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

    pub(crate) fn stopping(&self) -> bool {
        self.stopping.load(Ordering::Acquire)
    }

    /// Shuts the server down: the acceptors stop, every connection
    /// finishes the request it is running, sends `CloseConnection` (a
    /// request that arrives after that point is not started, so the client
    /// may send it again), and closes.
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
    pub(super) fn watch(&self, transport: &dyn Transport, activity: &Arc<Activity>) -> Option<u64> {
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
    pub(super) fn shed_watched(&self) -> Room {
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
                Room::Closing
            }
            _ => Room::None,
        }
    }

    /// Drops the handle [`ServerCore::watch`] kept.
    pub(super) fn unwatch(&self, id: u64) {
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

    pub(super) fn add_connection(&self, handle: JoinHandle<()>) {
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
pub(super) struct Readers {
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
pub(super) fn servant_panicked() -> SystemException {
    SystemException::new(
        SystemExceptionKind::Unknown,
        UNKNOWN_SERVANT_PANICKED,
        CompletionStatus::Maybe,
    )
}

/// What shedding a connection made room with, at the cap.
pub(crate) enum Room {
    /// The shed connection has closed: its place in the count, for the
    /// new one.
    Freed(OpenConnection),
    /// The shed connection is closing (its thread closes it): the new one
    /// is counted in at once (unless the place goes to another lane's
    /// pending reserve), and the count comes back when it has.
    Closing,
    /// No connection may be shed.
    None,
}
