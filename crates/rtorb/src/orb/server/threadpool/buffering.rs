//! Request buffering of a thread pool lane (`RTCORBA::ThreadpoolLane`,
//! `allow_request_buffering`, `max_buffered_requests`,
//! `max_request_buffer_size`): what a lane does with the requests that
//! arrive while every one of its threads is running an upcall, and no
//! dynamic thread is left to start.
//!
//! The lane's reader (`read_ahead.rs`) reads them. A whole request then
//! waits, its connection claimed, in arrival order, up to the lane's
//! bounds: requests, and octets (each charged to the lane's memory budget
//! while it waits). A request past a bound, or any request when buffering
//! is not allowed, is answered at once with `TRANSIENT`
//! ([`TRANSIENT_LANE_FULL`], `COMPLETED_NO`, its detail naming the pool
//! and lane), and reading goes on; a oneway is dropped, and counted in the
//! lane's [`crate::rt::LaneStats`]. The connection keeps serving.
//!
//! A thread of the lane that finishes a turn takes the oldest waiting
//! connection before it goes back to lead (its request is run as any
//! other, by the thread's turn on the connection).
//!
//! A connection runs its requests one at a time, in order: one whose
//! request is running (or waiting) is read no further meanwhile, so a
//! bound counts requests of different connections. Messages other than
//! whole unfragmented requests (locate requests, fragments, messages
//! larger than the uncharged size, read by a thread as usual) wait
//! likewise, refused never and counted in no bound; there is at most one
//! such per connection.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

use super::super::budget::Charge;
use super::super::connection::machine::Refusal;
use super::super::event_loop::slot::Slot;
use super::super::server_core::ServerCore;
use crate::minor::TRANSIENT_LANE_FULL;
use crate::rt::{LaneId, LaneStats};
use crate::sync::Mutex;

/// A lane's buffering, as configured (see `ThreadpoolConfig`).
#[derive(Debug, Clone)]
pub(crate) struct BufferPolicy {
    /// The lane, named in the refusal's detail.
    pub(crate) lane: LaneId,
    /// `allow_request_buffering`.
    pub(crate) allowed: bool,
    /// The most requests waiting (0: no limit).
    pub(crate) max_requests: usize,
    /// The most octets of requests waiting (0: no limit).
    pub(crate) max_octets: usize,
    /// What the lane counts, read by `Lane::stats`.
    pub(crate) counters: Arc<LaneCounters>,
}

/// What a lane counts of its buffering.
#[derive(Debug, Default)]
pub(crate) struct LaneCounters {
    waiting: AtomicUsize,
    buffered: AtomicU64,
    refused: AtomicU64,
    dropped: AtomicU64,
}

impl LaneCounters {
    /// The figures now, with the lane's `connections` open now (which its
    /// core counts, not these counters).
    pub(crate) fn stats(&self, connections: usize) -> LaneStats {
        LaneStats {
            waiting: self.waiting.load(Ordering::Acquire),
            buffered: self.buffered.load(Ordering::Acquire),
            refused: self.refused.load(Ordering::Acquire),
            dropped_oneways: self.dropped.load(Ordering::Acquire),
            connections,
        }
    }
}

/// A connection waiting for a thread, claimed, its next message whole.
struct Waiting {
    slot: Arc<Slot>,
    /// The octets of its request counted in the bound (0: not a request).
    octets: usize,
    /// Its request's octets, charged to the memory budget (released when
    /// dropped).
    charge: Option<Charge>,
}

#[derive(Default)]
struct Queue {
    waiting: VecDeque<Waiting>,
    requests: usize,
    octets: usize,
}

/// A lane's buffering, running.
pub(super) struct Buffering {
    policy: BufferPolicy,
    queue: Mutex<Queue>,
}

impl Buffering {
    pub(super) fn new(policy: BufferPolicy) -> Buffering {
        Buffering {
            policy,
            queue: Mutex::new(Queue::default()),
        }
    }

    /// Whether a request of `octets` may wait (whatever the bounds if it
    /// is to run on a `borrowed` thread); if so, its charge is in
    /// `charge`.
    pub(super) fn admit(
        &self,
        octets: usize,
        core: &ServerCore,
        charge: &mut Option<Charge>,
        borrowed: bool,
    ) -> bool {
        let p = &self.policy;
        if !p.allowed && !borrowed {
            return false;
        }
        if !borrowed {
            let q = self.queue.lock();
            if (p.max_requests != 0 && q.requests >= p.max_requests)
                || (p.max_octets != 0 && q.octets.saturating_add(octets) > p.max_octets)
            {
                return false;
            }
        }
        let mut c = Charge::new(&core.budget);
        if !c.hold_exactly(octets) {
            return false;
        }
        *charge = Some(c);
        true
    }

    /// The answer to a request the lane can neither run nor buffer.
    pub(super) fn refusal(&self) -> SystemException {
        let p = &self.policy;
        let why = if !p.allowed {
            "request buffering is not allowed".to_owned()
        } else {
            format!(
                "its request buffer is full ({} requests at most, {} octets at most; 0: no limit)",
                p.max_requests, p.max_octets
            )
        };
        SystemException::new(
            SystemExceptionKind::Transient,
            TRANSIENT_LANE_FULL,
            CompletionStatus::No,
        )
        .with_detail(format_args!("every thread of {} is busy and {why}", p.lane))
    }

    /// Queues `slot`, claimed, its next message of `octets` whole; a
    /// request counted in the bounds if it comes with its `charge`.
    pub(super) fn push(&self, slot: Arc<Slot>, octets: usize, charge: Option<Charge>) {
        let mut q = self.queue.lock();
        if charge.is_some() {
            q.requests += 1;
            q.octets += octets;
            self.policy.counters.buffered.fetch_add(1, Ordering::AcqRel);
        }
        q.waiting.push_back(Waiting {
            slot,
            octets: if charge.is_some() { octets } else { 0 },
            charge,
        });
        self.policy
            .counters
            .waiting
            .store(q.waiting.len(), Ordering::Release);
    }

    /// The oldest connection waiting, if any (one atomic load if none).
    #[inline]
    pub(super) fn take(&self) -> Option<Arc<Slot>> {
        if self.policy.counters.waiting.load(Ordering::Acquire) == 0 {
            return None;
        }
        self.take_slow()
    }

    #[cold]
    fn take_slow(&self) -> Option<Arc<Slot>> {
        let mut q = self.queue.lock();
        let w = q.waiting.pop_front()?;
        if w.charge.is_some() {
            q.requests -= 1;
            q.octets -= w.octets;
        }
        self.policy
            .counters
            .waiting
            .store(q.waiting.len(), Ordering::Release);
        Some(w.slot)
    }

    /// Counts a request refused (before its answer is written, so that
    /// a client that has read it sees it counted).
    pub(super) fn count(&self, how: Refusal) {
        let c = &self.policy.counters;
        match how {
            Refusal::Answered => c.refused.fetch_add(1, Ordering::AcqRel),
            Refusal::Dropped => c.dropped.fetch_add(1, Ordering::AcqRel),
            Refusal::None => 0,
        };
    }

    /// Whether connections wait (one atomic load).
    #[inline]
    pub(super) fn has_waiting(&self) -> bool {
        self.policy.counters.waiting.load(Ordering::Acquire) > 0
    }

    /// Forgets the connections waiting (after the loop's last thread).
    pub(super) fn drop_waiting(&self) {
        let mut q = self.queue.lock();
        q.waiting.clear();
        q.requests = 0;
        q.octets = 0;
        self.policy.counters.waiting.store(0, Ordering::Release);
    }
}
