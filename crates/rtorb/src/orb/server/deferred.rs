//! Upcalls that run after their request has been answered: a
//! connection's `SYNC_WITH_SERVER` oneways.
//!
//! `SYNC_WITH_SERVER` asks the server ORB to acknowledge a oneway once it
//! has the request, before the servant runs. For the acknowledgement of a
//! second request not to wait behind the upcall of the first, the thread
//! that reads the connection must not run them: the reader acknowledges
//! each one as it reads it and queues its upcall here, where a thread of
//! the connection's own runs the queued upcalls one at a time, in the
//! order they arrived, while the reader reads on.
//!
//! The thread starts with the first such request of a connection, and ends
//! once the connection has gone and the upcalls queued before have run;
//! the ORB's shutdown joins it with the connection threads. Every other
//! request of the connection runs where it is read, after waiting until
//! the upcalls queued before it have ended ([`DeferredUpcalls::wait_idle`]),
//! so the requests of one connection are still dispatched in the order the
//! client sent them. That wait costs one atomic load when nothing is
//! queued, and nothing at all on a connection that never had a
//! `SYNC_WITH_SERVER` request.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use super::server_core::ServerCore;
use crate::sync::{Condvar, Mutex};

/// An upcall to run later, with the server's core.
pub(super) type Job = Box<dyn FnOnce(&ServerCore) + Send>;

/// The queue of a connection's deferred upcalls, and the thread that runs
/// them.
pub(super) struct DeferredUpcalls {
    jobs: mpsc::Sender<Job>,
    queued: Arc<Queued>,
}

/// The upcalls queued and not yet ended, and a way to wait for none.
#[derive(Default)]
struct Queued {
    count: AtomicUsize,
    lock: Mutex<()>,
    ended: Condvar,
}

impl Queued {
    /// One queued upcall has ended.
    fn end_one(&self) {
        if self.count.fetch_sub(1, Ordering::AcqRel) == 1 {
            // Under the lock, so a waiter between its check and its wait
            // cannot miss it.
            let _g = self.lock.lock();
            self.ended.notify_all();
        }
    }

    /// Waits until no upcall is queued.
    #[cold]
    fn wait_none(&self) {
        let mut g = self.lock.lock();
        while self.count.load(Ordering::Acquire) != 0 {
            g = self.ended.wait(g);
        }
    }
}

impl DeferredUpcalls {
    /// Starts the thread that runs the upcalls; shutdown joins it.
    pub(super) fn start(core: &Arc<ServerCore>) -> std::io::Result<DeferredUpcalls> {
        let (jobs, received) = mpsc::channel::<Job>();
        let queued = Arc::new(Queued::default());
        let ends = Arc::clone(&queued);
        let c = Arc::clone(core);
        let handle = std::thread::Builder::new()
            .name("rtorb-deferred".into())
            .spawn(move || {
                crate::object::set_thread_invoker(c.invoker());
                // Ends when the connection drops its sender and the queue
                // is empty.
                for job in received {
                    // The upcall catches a servant's panic; this catches
                    // anything else, so the count always comes down.
                    let _ = std::panic::catch_unwind(AssertUnwindSafe(|| job(&c)));
                    ends.end_one();
                }
            })?;
        core.add_connection(handle);
        Ok(DeferredUpcalls { jobs, queued })
    }

    /// Queues `job` behind the upcalls queued before.
    pub(super) fn push(&self, job: Job) {
        self.queued.count.fetch_add(1, Ordering::AcqRel);
        if self.jobs.send(job).is_err() {
            // The thread is gone (it cannot be while the sender lives,
            // but the count must not stay up).
            self.queued.end_one();
        }
    }

    /// Waits until every upcall queued so far has ended.
    #[inline]
    pub(super) fn wait_idle(&self) {
        if self.queued.count.load(Ordering::Acquire) != 0 {
            self.queued.wait_none();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc::channel;

    use super::*;
    use crate::object::NoInvoker;
    use crate::orb::OrbConfig;
    use crate::orb::server::limits::ServerLimits;
    use crate::poa::adapter_table::AdapterTable;

    #[test]
    fn upcalls_run_in_order_and_wait_idle_waits_for_them() {
        let core = Arc::new(ServerCore::new(
            ServerLimits::from_config(&OrbConfig::default()),
            Arc::new(NoInvoker),
            AdapterTable::new(16),
        ));
        let deferred = DeferredUpcalls::start(&core).unwrap();
        let (release, gate) = channel::<()>();
        let (ran, order) = channel::<u32>();
        let first = ran.clone();
        deferred.push(Box::new(move |_| {
            gate.recv().unwrap();
            first.send(1).unwrap();
        }));
        deferred.push(Box::new(move |_| ran.send(2).unwrap()));
        // Queued behind the first, which waits for the release.
        assert_eq!(order.try_recv(), Err(std::sync::mpsc::TryRecvError::Empty));
        release.send(()).unwrap();
        deferred.wait_idle();
        assert_eq!(order.try_iter().collect::<Vec<_>>(), [1, 2]);
        // A panic in a job still counts it as ended.
        deferred.push(Box::new(|_| panic!("a job that panics")));
        deferred.wait_idle();
        drop(deferred);
        core.join_connections();
    }
}
