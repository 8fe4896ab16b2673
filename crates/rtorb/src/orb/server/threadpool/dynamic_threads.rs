//! A lane's dynamic threads (`RTCORBA::ThreadpoolLane::dynamic_threads`):
//! a thread of the lane that takes a connection when no other thread is
//! free to lead starts one more, up to the lane's dynamic count; a dynamic
//! thread ends when, back from a turn, it finds another thread free to
//! lead, or once it has led for its idle time with nothing to do.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::super::event_loop::shared::EventLoop;

/// The dynamic threads a lane may still start.
pub(super) struct DynamicThreads {
    /// How many more may be started.
    left: Arc<AtomicUsize>,
    /// How long one may lead with nothing to do.
    pub(super) idle: Duration,
    /// The name of the lane's threads.
    name: String,
}

impl DynamicThreads {
    /// At most `most` at once, each ending after `idle` with nothing to
    /// do, named `name`.
    pub(super) fn new(most: usize, idle: Duration, name: &str) -> DynamicThreads {
        DynamicThreads {
            left: Arc::new(AtomicUsize::new(most)),
            idle,
            name: name.to_owned(),
        }
    }

    /// Starts a dynamic thread on `event_loop`, if the lane may have one
    /// more.
    pub(super) fn grow(&self, event_loop: &Arc<EventLoop>) {
        let taken = self
            .left
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
        if taken.is_err() {
            return;
        }
        if event_loop.core.stopping() {
            self.left.fetch_add(1, Ordering::AcqRel);
            return;
        }
        let left = Arc::clone(&self.left);
        let started = event_loop.start_thread(self.name.clone(), true, move || {
            left.fetch_add(1, Ordering::AcqRel);
        });
        if started.is_err() {
            self.left.fetch_add(1, Ordering::AcqRel);
        }
    }
}
