//! Thread pools with lanes (`RTCORBA::RTORB::create_threadpool_with_lanes`),
//! as they run: what the application describes is
//! [`crate::rt::ThreadpoolConfig`].
//!
//! Each lane is a leader/followers event loop of its own over acceptors of
//! its own, its threads set once, when they start, to the lane's priority
//! (`lane.rs`). It has a [`ServerCore`] of its own: stop flag, wakers,
//! event loop, memory budget and share of the connection cap belong to it
//! alone, so a flood on one lane's endpoints is shed and refused within
//! that lane; the lanes share only the object adapters (read without
//! locks), the priority control and the cap's accounting (one atomic
//! word). The thread that reads a request runs it, at the lane's priority,
//! which the thread already has: a lane never waits for another lane's
//! thread, queue or lock.
//!
//! - `lane.rs`: a lane, its threads and what it adds to its event loop;
//!   `dynamic_threads.rs`: the threads it adds when all are busy;
//! - `buffering.rs`: the requests that arrive while every thread of a lane
//!   is busy, kept or refused; `read_ahead.rs`: the lane's reader, which
//!   reads them;
//! - `borrowing.rs`: threads lent by a pool's lower lanes;
//! - `binding.rs`, `forward.rs`: which lanes serve an object (a plain key
//!   bound to a lane, a POA bound to a pool), and the `LOCATION_FORWARD`
//!   of a request that arrives on an endpoint that does not serve it;
//! - `orb.rs`: the ORB's operations (`Orb::create_threadpool`, ...).

use std::sync::Arc;

use super::ServerCore;
use crate::rt::{Priority, SchedulingError, ThreadpoolConfig, ThreadpoolId};
use crate::transport::Acceptor;
use borrowing::PoolLanes;

mod binding;
mod borrowing;
mod buffering;
mod dynamic_threads;
mod forward;
mod lane;
mod orb;
mod read_ahead;

pub(crate) use binding::LaneDirectory;
pub(crate) use lane::Lane;

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
