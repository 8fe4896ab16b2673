//! [`LaneLoop`]: what a lane adds to its event loop, as state: how its
//! threads start, its dynamic threads, its request buffering, what its
//! threads and its reader tell each other ([`Reader`]), and its place in
//! its pool for borrowing ([`Peers`]). What the lane does with it is in
//! `lane.rs` (its hooks into the loop), `read_ahead.rs` (the reader) and
//! `borrowing.rs`.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, OnceLock, Weak};
use std::thread::Thread;

use super::super::event_loop::shared::EventLoop;
use super::super::server_core::ServerCore;
use super::buffering::Buffering;
use super::dynamic_threads::DynamicThreads;
use crate::rt::{Priority, SchedulingError};
use crate::sync::Mutex;

/// What a lane adds to its event loop (the loop calls it through
/// [`LaneHooks`](super::super::event_loop::shared::LaneHooks)).
pub(super) struct LaneLoop {
    pub(super) priority: Priority,
    pub(super) threads: LaneThreads,
    pub(super) dynamic: DynamicThreads,
    pub(super) buffering: Buffering,
    /// What the lane's threads and its reader tell each other.
    pub(super) reader: Reader,
    /// The lane's place in its pool, if the pool's lanes lend threads.
    pub(super) peers: Option<Peers>,
    /// The lane's loop, once started: what the pool's other lanes look at
    /// to lend to it or borrow from it.
    pub(super) event_loop: OnceLock<Weak<EventLoop>>,
}

impl LaneLoop {
    /// The lane's event loop, while it runs.
    pub(super) fn event_loop(&self) -> Option<Arc<EventLoop>> {
        self.event_loop.get()?.upgrade()
    }

    /// Sets the reader's thread up: the lane's priority, on any CPU (its
    /// checks do not wake on the CPUs a lane may share with its clients).
    pub(super) fn reader_started(&self, core: &ServerCore) -> bool {
        self.threads.apply(core, false, false)
    }
}

/// How a lane's threads start: at the lane's priority, set once for
/// their whole life, on the lane's CPUs.
pub(super) struct LaneThreads {
    pub(super) priority: Priority,
    /// Where each static thread reports whether its priority could be
    /// set, while the lane starts; a static thread that could not stops
    /// the loop (its core) and ends.
    pub(super) report: Mutex<Option<Sender<Result<(), SchedulingError>>>>,
    /// The CPUs the threads are restricted to (empty: any).
    pub(super) cpus: Vec<usize>,
}

impl LaneThreads {
    /// Restricts the calling thread to the lane's CPUs (if `pinned`) and
    /// sets it to the lane's priority; `false` if the thread must end
    /// (and, where `stop`, a static thread, the loop with it).
    pub(super) fn apply(&self, core: &ServerCore, stop: bool, pinned: bool) -> bool {
        let cpus = if pinned { &self.cpus[..] } else { &[] };
        let pin = if cpus.is_empty() {
            Ok(())
        } else {
            crate::rt::set_thread_affinity(cpus).map_err(SchedulingError::from)
        };
        let set = pin.and_then(|()| match &core.priorities {
            Some(control) => control.set_thread_priority(self.priority).map(|_| ()),
            None => Ok(()),
        });
        let ok = set.is_ok();
        if stop {
            if let Some(report) = &*self.report.lock() {
                let _ = report.send(set);
            }
            if !ok {
                core.stop();
            }
        }
        ok
    }
}

/// What the lane's threads and its reader tell each other.
#[derive(Default)]
pub(super) struct Reader {
    /// Turns taken with no other thread of the lane free.
    pub(super) turns: AtomicUsize,
    /// Whether the reader looks every check interval (`CHECK`; else it sleeps until a
    /// turn is taken with no other thread free).
    pub(super) armed: AtomicBool,
    /// Whether the reader leads.
    pub(super) reading: AtomicBool,
    pub(super) thread: OnceLock<Thread>,
}

impl Reader {
    /// A thread took a connection with no other thread free.
    #[inline]
    pub(super) fn note_busy(&self) {
        self.turns.fetch_add(1, Ordering::Relaxed);
        if !self.armed.load(Ordering::SeqCst) {
            self.arm();
        }
    }

    #[cold]
    fn arm(&self) {
        self.armed.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.get() {
            t.unpark();
        }
    }

    /// A thread is about to lead: the reader, if it leads, gives way.
    #[inline]
    pub(super) fn gives_way(&self, event_loop: &EventLoop) {
        if self.reading.load(Ordering::SeqCst) {
            let _ = event_loop.waker.wake();
        }
    }
}

/// A lane of a pool, as the others see it: its priority, and what it
/// adds to its event loop (while it runs).
pub(super) type PoolLane = (Priority, Weak<LaneLoop>);

/// The lanes of one pool that lend each other threads.
#[derive(Default)]
pub(crate) struct PoolLanes {
    /// The lanes started so far, with their index.
    pub(super) joining: Mutex<Vec<(usize, PoolLane)>>,
    /// Every lane, by index, once all have started.
    pub(super) lanes: OnceLock<Vec<PoolLane>>,
}

impl PoolLanes {
    /// Lets the lanes lend to each other, once every lane has started.
    pub(crate) fn seal(&self) {
        let mut joining = std::mem::take(&mut *self.joining.lock());
        joining.sort_by_key(|(i, _)| *i);
        let _ = self
            .lanes
            .set(joining.into_iter().map(|(_, lane)| lane).collect());
    }
}

/// A lane's place in its pool, for borrowing.
#[derive(Clone)]
pub(crate) struct LaneBorrowing {
    /// The lanes of the pool.
    pub(crate) pool: Arc<PoolLanes>,
    /// The lane's index in the pool (below 64).
    pub(crate) index: usize,
    /// The lane's priority.
    pub(crate) priority: Priority,
}

impl std::fmt::Debug for LaneBorrowing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LaneBorrowing")
            .field("index", &self.index)
            .field("priority", &self.priority)
            .finish_non_exhaustive()
    }
}

/// A running lane's peers.
pub(super) struct Peers {
    pub(super) lane: LaneBorrowing,
    /// The lanes (bit `i`: lane `i`) that want a thread of this one.
    pub(super) help: AtomicU64,
}

impl Peers {
    pub(super) fn new(lane: LaneBorrowing) -> Option<Peers> {
        (lane.index < 64).then(|| Peers {
            lane,
            help: AtomicU64::new(0),
        })
    }
}
