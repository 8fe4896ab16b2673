//! The `SYNC_NONE` oneways of one endpoint, queued until they are
//! written.
//!
//! A `SYNC_NONE` oneway is encoded by the caller and queued at its
//! endpoint; a thread of the endpoint's own writes the queue in order (so
//! an endpoint that cannot be reached delays no other), or the next
//! request to the endpoint writes it before it is sent itself (so such
//! oneways keep their order among themselves and before the same thread's
//! later calls). The queue's lock is held while one is written.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bytes::Bytes;
use rtorb_cdr::TransmissionCodeSets;

use crate::sync::{Condvar, Mutex};
use crate::transport::Endpoint;

/// How long an endpoint's sending thread waits for more oneways before it
/// ends.
const DEFERRED_LINGER: Duration = Duration::from_millis(200);

/// A `SYNC_NONE` oneway, encoded by the caller, queued at its endpoint.
#[derive(Debug)]
pub(super) struct Deferred {
    pub(super) endpoint: Box<dyn Endpoint>,
    /// The message, as one gathered write (fragments included).
    pub(super) pieces: Vec<Bytes>,
    /// The code sets its `CodeSets` context announces, if it has one.
    pub(super) announced: Option<TransmissionCodeSets>,
}

/// The `SYNC_NONE` oneways to one endpoint not yet written, in the order
/// they were made.
#[derive(Debug, Default)]
pub(super) struct OnewayQueue {
    queue: Mutex<Queued>,
    /// Oneways queued or being written: a request looks at it (without
    /// locking) to know whether it must write them first.
    pending: AtomicUsize,
    /// Wakes the endpoint's sending thread.
    added: Condvar,
}

#[derive(Debug, Default)]
struct Queued {
    oneways: VecDeque<Deferred>,
    /// Whether the endpoint's sending thread runs.
    sender: bool,
}

impl OnewayQueue {
    /// Queues `oneway`; whether the caller must start the sending thread
    /// (none runs), which then calls [`OnewayQueue::send_queued`].
    pub(super) fn push(&self, oneway: Deferred) -> bool {
        let mut q = self.queue.lock();
        q.oneways.push_back(oneway);
        self.pending.fetch_add(1, Ordering::AcqRel);
        if q.sender {
            self.added.notify_one();
            return false;
        }
        q.sender = true;
        true
    }

    /// The sending thread [`OnewayQueue::push`] asked for could not be
    /// started.
    pub(super) fn no_sender(&self) {
        self.queue.lock().sender = false;
    }

    /// The sending thread: `deliver`s the queued oneways, in order, and
    /// ends once none has come for a while.
    pub(super) fn send_queued(&self, mut deliver: impl FnMut(Deferred)) {
        let mut q = self.queue.lock();
        loop {
            if let Some(d) = q.oneways.pop_front() {
                // Written under the lock: a request to the endpoint waits
                // until the oneways made before it are out.
                deliver(d);
                self.pending.fetch_sub(1, Ordering::AcqRel);
                continue;
            }
            let (guard, timeout) = self.added.wait_timeout(q, DEFERRED_LINGER);
            q = guard;
            if timeout.timed_out() && q.oneways.is_empty() {
                q.sender = false;
                return;
            }
        }
    }

    /// `deliver`s the queued oneways before a request to the endpoint goes
    /// out: a thread's requests to an endpoint leave in the order it made
    /// them. Costs an atomic load when none is queued.
    #[inline]
    pub(super) fn flush(&self, deliver: impl FnMut(Deferred)) {
        if self.pending.load(Ordering::Acquire) != 0 {
            self.write_all(deliver);
        }
    }

    /// [`OnewayQueue::flush`] when oneways are queued.
    #[cold]
    #[inline(never)]
    fn write_all(&self, mut deliver: impl FnMut(Deferred)) {
        let mut q = self.queue.lock();
        while let Some(d) = q.oneways.pop_front() {
            deliver(d);
            self.pending.fetch_sub(1, Ordering::AcqRel);
        }
    }
}
