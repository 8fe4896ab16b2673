//! One lane of a thread pool: a leader/followers event loop over the
//! lane's own acceptors, with a core of its own, whose threads are set to
//! the lane's priority (and CPUs) when they start; and what the lane adds
//! to its loop ([`LaneLoop`]): dynamic threads, request buffering and its
//! reader, borrowing.

use std::sync::mpsc;
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::Duration;

use super::super::event_loop::shared::{EventLoop, LaneHooks};
use super::super::event_loop::slot::Slot;
use super::super::event_loop::threads::spawn_with;
use super::super::server_core::ServerCore;
use super::buffering::{BufferPolicy, Buffering, LaneCounters};
use super::dynamic_threads::DynamicThreads;
use super::lane_loop::{LaneBorrowing, LaneLoop, LaneThreads, Peers, PoolLanes, Reader};
use crate::rt::{LaneConfig, LaneId, LaneStats, Priority, SchedulingError, ThreadpoolId};
use crate::sync::Mutex;
use crate::transport::{Acceptor, Endpoint};

/// Why a lane could not be started.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LaneError {
    /// A thread could not be started, or a poller made.
    #[error("cannot start a lane's thread: {0}")]
    Thread(#[from] std::io::Error),
    /// A lane's thread could not be set to the lane's priority (the
    /// system refused, under `-ORBSchedDenied fail`, or the mapping has no
    /// native priority for it).
    #[error("{0}")]
    Scheduling(#[from] SchedulingError),
}

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
            spawn_with(Arc::clone(&core), acceptors, threads, &name, Some(hooks))?;
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
