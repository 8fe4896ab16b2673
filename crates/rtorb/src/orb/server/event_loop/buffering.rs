//! Request buffering of a thread pool lane (`RTCORBA::ThreadpoolLane`,
//! `allow_request_buffering`, `max_buffered_requests`,
//! `max_request_buffer_size`): what a lane does with the requests that
//! arrive while every one of its threads is running an upcall, and no
//! dynamic thread is left to start.
//!
//! In leader/followers the thread that reads a request runs it; while all
//! of a lane's threads run upcalls, none leads, and nothing reads. So a
//! lane has one more thread, its *reader*, at the lane's priority, which
//! never runs an upcall. It costs nothing while a thread of the lane is
//! free: it sleeps, and the request path only counts the turns a thread
//! takes with no other thread free (a relaxed atomic increment) and reads
//! one flag (whether the reader leads). Once the lane has had no free
//! thread and taken no turn for a whole check interval ([`CHECK`], the
//! reader looking every interval while the lane has been busy lately), the
//! reader becomes the lane's leader: it accepts, and reads each ready
//! connection until its next message is whole, without running it
//! (`connection/ahead.rs`). A whole request then waits, its connection
//! claimed, in arrival order, up to the lane's bounds: requests (and
//! octets, each charged to the lane's memory budget while it waits). A
//! request past a bound, or any request when buffering is not allowed, is
//! answered at once with `TRANSIENT` ([`TRANSIENT_LANE_FULL`],
//! `COMPLETED_NO`, its detail naming the pool and lane), and reading
//! goes on; a oneway is dropped, and counted in the lane's
//! [`crate::rt::LaneStats`]. The connection keeps serving.
//!
//! A thread of the lane that finishes a turn takes the oldest waiting
//! connection before it goes back to lead (its request is run as any
//! other, by the thread's turn on the connection); one that wants to lead
//! while the reader leads wakes it, and the reader gives leadership back
//! at once, so the lane's own threads read again as soon as one is free.
//!
//! A connection runs its requests one at a time, in order: one whose
//! request is running (or waiting) is read no further meanwhile, so a
//! bound counts requests of different connections. Messages other than
//! whole unfragmented requests (locate requests, fragments, messages
//! larger than the uncharged size, read by a thread as usual) wait
//! likewise, refused never and counted in no bound; there is at most one
//! such per connection.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::{JoinHandle, Thread};
use std::time::Duration;

use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

use super::super::ServerCore;
use super::super::budget::Charge;
use super::super::connection::{Ahead, Refused};
use super::borrowing::Peers;
use super::{EventLoop, Slot, ThreadStart, lock};
use crate::minor::TRANSIENT_LANE_FULL;
use crate::rt::{LaneId, LaneStats};
use crate::sync::Mutex;

/// How often the reader of a lane that has been busy lately looks whether
/// the lane's threads are all still in the upcalls they were in: a request
/// that finds them so waits between one and two intervals before it is
/// read.
pub(crate) const CHECK: Duration = Duration::from_millis(5);

/// The checks in a row that find a thread of the lane free before the
/// reader sleeps until the lane is busy again (a tenth of a second).
const QUIET_CHECKS: u32 = 20;

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
    /// What the lane counts, read by `Orb::stats`.
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
    /// Turns taken with no other thread of the lane free.
    turns: AtomicUsize,
    /// Whether the reader looks every [`CHECK`] (else it sleeps until a
    /// turn is taken with no other thread free).
    armed: AtomicBool,
    /// Whether the reader leads.
    reading: AtomicBool,
    reader: OnceLock<Thread>,
}

impl Buffering {
    pub(super) fn new(policy: BufferPolicy) -> Buffering {
        Buffering {
            policy,
            queue: Mutex::new(Queue::default()),
            turns: AtomicUsize::new(0),
            armed: AtomicBool::new(false),
            reading: AtomicBool::new(false),
            reader: OnceLock::new(),
        }
    }

    /// Whether a request of `octets` may wait (whatever the bounds if it
    /// is to run on a `borrowed` thread); if so, its charge is in
    /// `charge`.
    fn admit(
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
            let q = lock(&self.queue);
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
    fn refusal(&self) -> SystemException {
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

    fn push(&self, slot: Arc<Slot>, octets: usize, charge: Option<Charge>) {
        let mut q = lock(&self.queue);
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
    fn take(&self) -> Option<Arc<Slot>> {
        if self.policy.counters.waiting.load(Ordering::Acquire) == 0 {
            return None;
        }
        self.take_slow()
    }

    #[cold]
    fn take_slow(&self) -> Option<Arc<Slot>> {
        let mut q = lock(&self.queue);
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

    fn count(&self, refused: Refused) {
        let c = &self.policy.counters;
        if refused.answered > 0 {
            c.refused
                .fetch_add(refused.answered as u64, Ordering::AcqRel);
        }
        if refused.dropped > 0 {
            c.dropped
                .fetch_add(refused.dropped as u64, Ordering::AcqRel);
        }
    }
}

/// What an event loop has of a lane: its buffering and its peers.
pub(super) struct LaneParts {
    buffering: Option<Buffering>,
    pub(super) peers: Option<Peers>,
}

impl LaneParts {
    pub(super) fn new(start: &ThreadStart) -> LaneParts {
        LaneParts {
            buffering: start.buffering.clone().map(Buffering::new),
            peers: start.borrowing.clone().and_then(Peers::new),
        }
    }
}

impl EventLoop {
    /// After its threads (`handles`) have started: joins the loop's pool
    /// and starts the reader of a lane; on failure the loop stops and its
    /// threads are joined.
    pub(super) fn start_lane(
        self: &Arc<Self>,
        start: &ThreadStart,
        name: &str,
        mut handles: Vec<JoinHandle<()>>,
    ) -> std::io::Result<Vec<JoinHandle<()>>> {
        self.join_pool();
        let Some(b) = &self.lane.buffering else {
            return Ok(handles);
        };
        let s = Arc::clone(self);
        // At the lane's priority, on any CPU: its checks do not wake on the
        // CPUs a lane may share with its clients.
        let start = ThreadStart {
            report: None,
            cpus: Vec::new(),
            ..start.clone()
        };
        let spawned = std::thread::Builder::new()
            .name(format!("{name}-reader"))
            .spawn(move || s.reader(&start));
        match spawned {
            Ok(h) => {
                let _ = b.reader.set(h.thread().clone());
                handles.push(h);
                Ok(handles)
            }
            Err(e) => {
                // The threads started end with the loop.
                self.core.stop();
                for h in handles {
                    let _ = h.join();
                }
                Err(e)
            }
        }
    }

    /// What a leader does first, in a lane: the `reader` gives leadership
    /// back once a thread of the lane is free; a thread takes the lane's
    /// waiting connections first, and is lent to a higher lane that asks
    /// (`None`: `run` lends it). `None` when the leader goes on.
    #[inline]
    pub(super) fn lane_turn(&self, reader: bool) -> Option<Option<Arc<Slot>>> {
        if reader {
            return (self.free.load(Ordering::SeqCst) > 0).then_some(None);
        }
        if let Some(slot) = self.take_waiting() {
            return Some(Some(slot));
        }
        self.help_wanted().then_some(None)
    }

    /// After a turn: the lane's connections that waited for a thread,
    /// oldest first.
    #[inline]
    pub(super) fn serve_waiting(&self) {
        while let Some(waiting) = self.take_waiting() {
            self.serve(&waiting);
        }
    }

    /// The reader's life (see the module docs).
    fn reader(self: &Arc<Self>, start: &ThreadStart) {
        let Some(b) = &self.lane.buffering else {
            return;
        };
        if !start.apply(&self.core, false) {
            return;
        }
        let mut last = None;
        let mut quiet = 0u32;
        while !self.core.stopping() {
            if !b.armed.load(Ordering::SeqCst) {
                std::thread::park();
                continue;
            }
            std::thread::park_timeout(CHECK);
            if self.free.load(Ordering::SeqCst) > 0 {
                last = None;
                quiet += 1;
                if quiet >= QUIET_CHECKS {
                    quiet = 0;
                    b.armed.store(false, Ordering::SeqCst);
                    // A turn taken meanwhile may have seen it armed.
                    if self.free.load(Ordering::SeqCst) == 0 {
                        b.armed.store(true, Ordering::SeqCst);
                    }
                }
                continue;
            }
            quiet = 0;
            let turns = b.turns.load(Ordering::Acquire);
            if last != Some(turns) {
                last = Some(turns);
                continue;
            }
            last = None;
            self.read_while_busy(b);
        }
    }

    /// Leads the lane and reads ahead while none of its threads is free.
    #[cold]
    fn read_while_busy(self: &Arc<Self>, b: &Buffering) {
        b.reading.store(true, Ordering::SeqCst);
        while let Some(slot) = self.lead(None, true) {
            self.read_ahead(b, &slot);
        }
        b.reading.store(false, Ordering::SeqCst);
        if b.policy.counters.waiting.load(Ordering::Acquire) > 0 {
            // The leader takes what was left waiting.
            let _ = self.waker.wake();
        }
    }

    /// Reads a claimed connection ahead: it waits for a thread, is let go,
    /// or is served here when that runs nothing.
    fn read_ahead(self: &Arc<Self>, b: &Buffering, slot: &Arc<Slot>) {
        loop {
            let mut guard = slot.take_turn();
            let Some(live) = guard.as_mut() else {
                return;
            };
            let conn = &mut live.connection;
            let mut charge = None;
            let mut refused = Refused::default();
            let ahead = conn.read_ahead(
                &self.core,
                &mut |octets| {
                    let lender = self.lane.peers.is_some() && self.lender_free();
                    b.admit(octets, &self.core, &mut charge, lender)
                },
                &|| b.refusal(),
                &mut refused,
            );
            let deadline = conn
                .deadline(&self.core)
                .map_or(0, |d| self.nanos(d).max(1));
            self.set_deadline(slot, deadline);
            drop(guard);
            b.count(refused);
            match ahead {
                Ahead::Whole { len, request } => {
                    b.push(Arc::clone(slot), len, charge.filter(|_| request));
                    // A thread of the lane may have become free and lead
                    // meanwhile (the reader then waits for leadership):
                    // it takes the connection at its next look.
                    let _ = self.waker.wake();
                    if request {
                        self.ask_help();
                    }
                    return;
                }
                Ahead::Serve => {
                    self.serve(slot);
                    return;
                }
                Ahead::Wait => {
                    if slot.release() {
                        return;
                    }
                }
            }
        }
    }

    /// The oldest connection waiting for a thread of the lane, if any.
    #[inline]
    pub(super) fn take_waiting(&self) -> Option<Arc<Slot>> {
        self.lane.buffering.as_ref()?.take()
    }

    /// A thread took a connection with no other thread free.
    #[inline]
    pub(super) fn note_busy(&self) {
        if let Some(b) = &self.lane.buffering {
            b.turns.fetch_add(1, Ordering::Relaxed);
            if !b.armed.load(Ordering::SeqCst) {
                b.arm();
            }
        }
    }

    /// A thread is about to lead: the reader, if it leads, gives way.
    #[inline]
    pub(super) fn reader_gives_way(&self) {
        if let Some(b) = &self.lane.buffering
            && b.reading.load(Ordering::SeqCst)
        {
            let _ = self.waker.wake();
        }
    }

    /// Forgets the connections waiting (after the last thread).
    pub(super) fn drop_waiting(&self) {
        if let Some(b) = &self.lane.buffering {
            let mut q = lock(&b.queue);
            q.waiting.clear();
            q.requests = 0;
            q.octets = 0;
            b.policy.counters.waiting.store(0, Ordering::Release);
        }
    }
}

impl Buffering {
    #[cold]
    fn arm(&self) {
        self.armed.store(true, Ordering::SeqCst);
        if let Some(t) = self.reader.get() {
            t.unpark();
        }
    }
}
