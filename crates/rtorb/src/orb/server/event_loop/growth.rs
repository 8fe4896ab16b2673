//! How an event loop's threads start (their priority, set once) and how
//! a loop grows: a thread that takes a connection when no other thread is
//! free to lead starts a dynamic thread, up to the loop's dynamic count;
//! a dynamic thread ends when, back from a turn, it finds another thread
//! free to lead, or once it has led for its idle time with nothing to do (a
//! thread pool lane's dynamic threads, `RTCORBA::ThreadpoolLane`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::time::Duration;

use super::super::ServerCore;
use super::EventLoop;
use crate::rt::{Priority, SchedulingError};

/// What each thread of an event loop does before it serves: set its
/// priority, once for its whole life (a lane's threads), and say how
/// that went; and the dynamic threads the loop may add.
#[derive(Clone)]
pub(crate) struct ThreadStart {
    /// The CORBA priority, set through the core's priority control.
    pub(crate) priority: Option<Priority>,
    /// Where each static thread reports whether its priority could be
    /// set; a static thread that could not stops the loop (its core) and
    /// ends.
    pub(crate) report: Option<Sender<Result<(), SchedulingError>>>,
    /// The most dynamic threads at once.
    pub(crate) dynamic: usize,
    /// How long a dynamic thread may lead with nothing to do.
    pub(crate) idle: Duration,
    /// A lane's request buffering (`buffering.rs`).
    pub(crate) buffering: Option<super::BufferPolicy>,
    /// A lane's place in a pool whose lanes lend threads (`borrowing.rs`).
    pub(crate) borrowing: Option<super::LaneBorrowing>,
    /// The CPUs the threads are restricted to (empty: any).
    pub(crate) cpus: Vec<usize>,
}

impl Default for ThreadStart {
    fn default() -> ThreadStart {
        ThreadStart {
            priority: None,
            report: None,
            dynamic: 0,
            idle: crate::rt::DEFAULT_DYNAMIC_THREAD_IDLE,
            buffering: None,
            borrowing: None,
            cpus: Vec::new(),
        }
    }
}

impl ThreadStart {
    /// Restricts the thread to its CPUs and sets its priority; `false` if the thread must end (and,
    /// where `stop` — a static thread — the loop with it).
    pub(super) fn apply(&self, core: &ServerCore, stop: bool) -> bool {
        if self.priority.is_none() && self.cpus.is_empty() {
            return true;
        }
        let pinned = if self.cpus.is_empty() {
            Ok(())
        } else {
            crate::rt::set_thread_affinity(&self.cpus).map_err(SchedulingError::from)
        };
        let set = pinned.and_then(|()| match (&core.priorities, self.priority) {
            (Some(control), Some(p)) => control.set_thread_priority(p).map(|_| ()),
            _ => Ok(()),
        });
        let ok = set.is_ok();
        if stop {
            if let Some(report) = &self.report {
                let _ = report.send(set);
            }
            if !ok {
                core.stop();
            }
        }
        ok
    }
}

/// The dynamic threads of a loop.
pub(super) struct Growth {
    /// How many more may be started.
    left: AtomicUsize,
    /// How long one may lead with nothing to do.
    pub(super) idle: Duration,
    start: ThreadStart,
    name: String,
}

impl Growth {
    pub(super) fn new(start: &ThreadStart, name: &str) -> Growth {
        Growth {
            left: AtomicUsize::new(start.dynamic),
            idle: start.idle,
            start: ThreadStart {
                report: None,
                ..start.clone()
            },
            name: name.to_owned(),
        }
    }
}

impl EventLoop {
    /// Starts a dynamic thread, if the loop may have one more; its handle
    /// is joined with the core's connection threads.
    pub(super) fn grow(self: &Arc<Self>) {
        let taken = self
            .growth
            .left
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
        if taken.is_err() || self.core.stopping() {
            if taken.is_ok() {
                self.growth.left.fetch_add(1, Ordering::AcqRel);
            }
            return;
        }
        self.running.fetch_add(1, Ordering::AcqRel);
        let s = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name(self.growth.name.clone())
            .spawn(move || {
                let start = s.growth.start.clone();
                s.run(&start, true);
                s.growth.left.fetch_add(1, Ordering::AcqRel);
            });
        match spawned {
            Ok(h) => self.core.add_connection(h),
            Err(_) => {
                // The calling thread still runs: this is never the last.
                self.running.fetch_sub(1, Ordering::AcqRel);
                self.growth.left.fetch_add(1, Ordering::AcqRel);
            }
        }
    }
}
