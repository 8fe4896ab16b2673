//! One lane of a thread pool: a leader/followers event loop over the
//! lane's own acceptors, with a core of its own, whose threads are set to
//! the lane's priority (and CPUs) when they start; and what the lane adds
//! to its loop ([`LaneLoop`]): dynamic threads, request buffering and its
//! reader, borrowing.

use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, OnceLock, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

use super::super::event_loop::{self, EventLoop, LaneHooks, Slot};
use super::super::{Readers, ServerCore};
use super::LaneError;
use super::borrowing::{LaneBorrowing, Peers, PoolLanes};
use super::buffering::{BufferPolicy, Buffering, LaneCounters};
use super::dynamic_threads::DynamicThreads;
use super::read_ahead::Reader;
use crate::rt::{LaneConfig, LaneId, LaneStats, Priority, SchedulingError, ThreadpoolId};
use crate::sync::Mutex;
use crate::transport::{Acceptor, Endpoint};

/// One running lane.
pub(crate) struct Lane {
    pub(crate) id: LaneId,
    pub(crate) priority: Priority,
    pub(crate) core: Arc<ServerCore>,
    /// Its endpoints, as published.
    pub(crate) endpoints: Vec<Box<dyn Endpoint>>,
    threads: Vec<JoinHandle<()>>,
    /// What its request buffering counts.
    counters: Arc<LaneCounters>,
}

impl Lane {
    /// Starts the lane `index` of `pool`, configured by `config`, over
    /// `acceptors`: its static threads, each at the lane's priority before
    /// it serves anything, and its reader (`read_ahead.rs`), which buffers
    /// requests if `buffering` (else refuses them) while every thread is
    /// busy, and borrows threads of the lower lanes of `borrowing` (its
    /// pool's lanes, if they lend). Fails (with every thread of the lane
    /// ended) if one of them cannot be set to it.
    pub(crate) fn start(
        core: &ServerCore,
        pool: ThreadpoolId,
        index: u16,
        config: &LaneConfig,
        buffering: bool,
        borrowing: Option<&Arc<PoolLanes>>,
        acceptors: Vec<Box<dyn Acceptor>>,
    ) -> Result<Lane, LaneError> {
        let id = LaneId { pool, index };
        let counters = Arc::new(LaneCounters::default());
        let core = Arc::new(core.for_lane(id, config.priority()));
        let endpoints = acceptors.iter().map(|a| a.endpoint().clone_box()).collect();
        let (report, reports) = mpsc::channel();
        let name = format!("rtorb-lane-{}-{}", pool.index(), index);
        let lane = Arc::new(LaneLoop {
            priority: config.priority(),
            threads: LaneThreads {
                priority: config.priority(),
                report: Mutex::new(Some(report)),
                cpus: config.affinity().to_vec(),
            },
            dynamic: DynamicThreads::new(config.dynamic(), config.dynamic_idle(), &name),
            buffering: Buffering::new(BufferPolicy {
                lane: id,
                allowed: buffering,
                max_requests: config.buffered_requests(),
                max_octets: config.request_buffer_size(),
                counters: Arc::clone(&counters),
            }),
            reader: Reader::default(),
            peers: borrowing
                .map(|pool| LaneBorrowing {
                    pool: Arc::clone(pool),
                    index: usize::from(index),
                    priority: config.priority(),
                })
                .and_then(Peers::new),
            event_loop: OnceLock::new(),
        });
        let threads = config.threads();
        let hooks: Arc<dyn LaneHooks> = lane.clone();
        let (event_loop, mut handles) =
            event_loop::spawn_with(Arc::clone(&core), acceptors, threads, &name, Some(hooks))?;
        let _ = lane.event_loop.set(Arc::downgrade(&event_loop));
        lane.join_pool();
        match lane.start_reader(&event_loop, &name) {
            Ok(h) => handles.push(h),
            Err(e) => {
                // The threads started end with the loop.
                core.stop();
                for h in handles {
                    let _ = h.join();
                }
                return Err(e.into());
            }
        }
        let mut running = Lane {
            id,
            priority: config.priority(),
            core,
            endpoints,
            threads: handles,
            counters,
        };
        let reported = (0..threads).try_for_each(|_| match reports.recv() {
            Ok(result) => result,
            // Every thread reports before it serves.
            Err(_) => Ok(()),
        });
        lane.threads.report.lock().take();
        if let Err(e) = reported {
            running.stop();
            running.join();
            return Err(e.into());
        }
        Ok(running)
    }

    /// Stops the lane's acceptors and threads (see `ServerCore::stop`).
    pub(crate) fn stop(&self) {
        self.core.stop();
        // Its reader may sleep until the lane is busy.
        for h in &self.threads {
            h.thread().unpark();
        }
    }

    /// What its request buffering has counted, and its connections open
    /// now.
    pub(crate) fn stats(&self) -> LaneStats {
        self.counters.stats(self.core.open_connections())
    }

    /// Joins the lane's threads, after [`Lane::stop`].
    pub(crate) fn join(&mut self) {
        for h in self.threads.drain(..) {
            let _ = h.join();
        }
        self.core.join_connections();
    }
}

impl ServerCore {
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
            budget: Arc::new(super::super::budget::MemoryBudget::new(
                self.limits.memory_budget,
            )),
            priorities: self.priorities.clone(),
            lane: Some((lane, priority)),
            lanes: Arc::clone(&self.lanes),
        }
    }
}

/// How a lane's threads start: at the lane's priority, set once for
/// their whole life, on the lane's CPUs.
struct LaneThreads {
    priority: Priority,
    /// Where each static thread reports whether its priority could be
    /// set, while the lane starts; a static thread that could not stops
    /// the loop (its core) and ends.
    report: Mutex<Option<Sender<Result<(), SchedulingError>>>>,
    /// The CPUs the threads are restricted to (empty: any).
    cpus: Vec<usize>,
}

impl LaneThreads {
    /// Restricts the calling thread to the lane's CPUs (if `pinned`) and
    /// sets it to the lane's priority; `false` if the thread must end
    /// (and, where `stop`, a static thread, the loop with it).
    fn apply(&self, core: &ServerCore, stop: bool, pinned: bool) -> bool {
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

/// What a lane adds to its event loop (the loop calls it through
/// [`LaneHooks`]).
pub(super) struct LaneLoop {
    pub(super) priority: Priority,
    threads: LaneThreads,
    dynamic: DynamicThreads,
    pub(super) buffering: Buffering,
    /// What the lane's threads and its reader tell each other.
    pub(super) reader: Reader,
    /// The lane's place in its pool, if the pool's lanes lend threads.
    pub(super) peers: Option<Peers>,
    /// The lane's loop, once started: what the pool's other lanes look at
    /// to lend to it or borrow from it.
    event_loop: OnceLock<Weak<EventLoop>>,
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

impl LaneHooks for LaneLoop {
    fn thread_started(&self, event_loop: &EventLoop, dynamic: bool) -> bool {
        self.threads.apply(&event_loop.core, !dynamic, true)
    }

    fn dynamic_idle(&self) -> Duration {
        self.dynamic.idle
    }

    #[inline]
    fn before_leading(&self, event_loop: &EventLoop) {
        self.reader.gives_way(event_loop);
    }

    /// The reader gives leadership back once a thread of the lane is
    /// free; a thread takes the lane's waiting connections first, and is
    /// lent to a higher lane that asks (it stops leading: `run` lends it).
    #[inline]
    fn leader_first(&self, event_loop: &EventLoop, reader: bool) -> Option<Option<Arc<Slot>>> {
        if reader {
            return (event_loop.free.load(std::sync::atomic::Ordering::SeqCst) > 0).then_some(None);
        }
        if let Some(slot) = self.buffering.take() {
            return Some(Some(slot));
        }
        self.help_wanted().then_some(None)
    }

    /// A dynamic thread is started, if the lane may have one more, and the
    /// reader told that the lane is busy.
    fn all_busy(&self, event_loop: &Arc<EventLoop>) {
        self.dynamic.grow(event_loop);
        self.reader.note_busy();
    }

    /// The lane's connections that waited for a thread, oldest first.
    #[inline]
    fn after_turn(&self, event_loop: &EventLoop) {
        while let Some(waiting) = self.buffering.take() {
            event_loop.serve(&waiting);
        }
    }

    fn lend(&self, event_loop: &EventLoop) -> bool {
        self.lend_thread(event_loop)
    }

    fn ended(&self) {
        self.buffering.drop_waiting();
    }
}
