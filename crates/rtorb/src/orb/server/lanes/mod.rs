//! Thread pools with lanes: each lane a leader/followers event loop of its
//! own (`event_loop.rs`) over acceptors of its own, with threads set once,
//! when they start, to the lane's priority.
//!
//! A lane has a [`ServerCore`] of its own ([`ServerCore::for_lane`]): its
//! stop flag, wakers, event loop (with its leader lock and connection
//! table), its share of the connection cap and its memory budget (of the
//! configured size, with the block pool of fragments held for reassembly)
//! belong to it alone, and it shares with the other lanes only the object
//! adapters (read without locks on the request path), the priority
//! control (immutable) and the accounting of the connection cap (one
//! atomic word, touched when a connection is accepted or closed). So a
//! flood of connections or of octets on one lane's endpoints is shed and
//! refused within that lane: it never sheds another lane's connections
//! nor refuses another lane's requests. What all lanes share is the
//! process's descriptor limit: the cap (at most seven eighths of it, see
//! `descriptors.rs`) bounds the connections of every lane and of the
//! ORB's own endpoints together, each of them promised a share of it that
//! the others never take (`shares.rs`). The thread that reads a request runs
//! it, at the lane's priority, which the thread already has: the upcall
//! changes no priority (`PriorityControl::run_at` of a thread at the
//! priority asked is a plain call). So a lane never waits for another
//! lane's thread, queue or lock.
//!
//! Which requests a lane serves is decided by connection: an object bound
//! to a lane is referenced through the lane's endpoints, and a request
//! for it that arrives anywhere else is answered with `LOCATION_FORWARD`
//! to that reference (`dispatch.rs`, `ServerCore::locate`).

use std::sync::Arc;
use std::sync::mpsc;
use std::thread::JoinHandle;

use super::ServerCore;
use super::event_loop::{self, BufferPolicy, LaneBorrowing, LaneCounters, PoolLanes, ThreadStart};
use crate::rt::{
    LaneConfig, LaneId, LaneStats, Priority, SchedulingError, ThreadpoolConfig, ThreadpoolId,
};
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
    /// it serves anything, and its reader (`event_loop/buffering.rs`),
    /// which buffers requests if `buffering` (else refuses them) while
    /// every thread is busy, and borrows threads of the lower lanes of
    /// `borrowing` (its pool's lanes, if they lend). Fails (with every thread of the lane ended)
    /// if one of them cannot be set to it.
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
        let start = ThreadStart {
            priority: Some(config.priority()),
            report: Some(report),
            dynamic: config.dynamic(),
            idle: config.dynamic_idle(),
            buffering: Some(BufferPolicy {
                lane: id,
                allowed: buffering,
                max_requests: config.buffered_requests(),
                max_octets: config.request_buffer_size(),
                counters: Arc::clone(&counters),
            }),
            borrowing: borrowing.map(|pool| LaneBorrowing {
                pool: Arc::clone(pool),
                index: usize::from(index),
                priority: config.priority(),
            }),
            cpus: config.affinity().to_vec(),
        };
        let name = format!("rtorb-lane-{}-{}", pool.index(), index);
        let threads = config.threads();
        let handles = event_loop::spawn_with(Arc::clone(&core), acceptors, threads, &name, start)?;
        let mut lane = Lane {
            id,
            priority: config.priority(),
            core,
            endpoints,
            threads: handles,
            counters,
        };
        for _ in 0..threads {
            match reports.recv() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    lane.stop();
                    lane.join();
                    return Err(e.into());
                }
                // Every thread reports before it serves; one that could
                // not has ended, and the loop with it.
                Err(_) => break,
            }
        }
        Ok(lane)
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

/// A running thread pool: its lanes, in configured order.
pub(crate) struct Threadpool {
    pub(crate) id: ThreadpoolId,
    pub(crate) lanes: Vec<Lane>,
}

impl Threadpool {
    /// Starts every lane of `config`, the acceptors of lane `i` being
    /// `acceptors[i]`; on failure the lanes started are stopped.
    pub(crate) fn start(
        core: &ServerCore,
        id: ThreadpoolId,
        config: &ThreadpoolConfig,
        acceptors: Vec<Vec<Box<dyn Acceptor>>>,
    ) -> Result<Threadpool, LaneError> {
        let mut pool = Threadpool {
            id,
            lanes: Vec::with_capacity(config.lanes().len()),
        };
        let lending = config.borrowing().then(|| Arc::new(PoolLanes::default()));
        for (i, (lane, acceptors)) in config.lanes().iter().zip(acceptors).enumerate() {
            let index = u16::try_from(i).unwrap_or(u16::MAX);
            let buffering = config.request_buffering();
            match Lane::start(
                core,
                id,
                index,
                lane,
                buffering,
                lending.as_ref(),
                acceptors,
            ) {
                Ok(l) => pool.lanes.push(l),
                Err(e) => {
                    pool.stop();
                    pool.join();
                    return Err(e);
                }
            }
        }
        if let Some(lanes) = &lending {
            lanes.seal();
        }
        Ok(pool)
    }

    /// The lane at exactly `priority`, if any (the first such).
    pub(crate) fn lane_at(&self, priority: Priority) -> Option<&Lane> {
        self.lanes.iter().find(|l| l.priority == priority)
    }

    /// Stops every lane.
    pub(crate) fn stop(&self) {
        for l in &self.lanes {
            l.stop();
        }
    }

    /// Joins every lane's threads, after [`Threadpool::stop`].
    pub(crate) fn join(&mut self) {
        for l in &mut self.lanes {
            l.join();
        }
    }
}
