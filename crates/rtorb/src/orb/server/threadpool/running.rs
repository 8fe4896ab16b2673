//! [`Threadpool`]: a running thread pool, its lanes started and stopped
//! together.

use std::sync::Arc;

use super::super::server_core::ServerCore;
use super::lane::{Lane, LaneError};
use super::lane_loop::PoolLanes;
use crate::rt::{Priority, ThreadpoolConfig, ThreadpoolId};
use crate::transport::Acceptor;

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
