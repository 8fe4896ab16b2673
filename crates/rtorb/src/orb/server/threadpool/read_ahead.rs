//! A lane's reader: the thread that reads a lane's connections while
//! every thread of the lane is running an upcall.
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
//! reader becomes the lane's leader: it accepts, and takes turns on each
//! ready connection as any thread does, but reading ahead
//! ([`LaneReader`]): the next message is held for a thread of the lane
//! (`buffering.rs`), or refused, never run.
//!
//! A thread of the lane that wants to lead while the reader leads wakes
//! it, and the reader gives leadership back at once, so the lane's own
//! threads read again as soon as one is free.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Duration;

use rtorb_giop::header::MsgType;
use rtorb_giop::{FrameHeader, SystemException};

use super::super::budget::{Charge, UNCHARGED_MESSAGE};
use super::super::connection::driver::{Ahead, Progress, ReadAhead};
use super::super::connection::machine::Refusal;
use super::super::event_loop::shared::EventLoop;
use super::super::event_loop::slot::Slot;
use super::buffering::Buffering;
use super::lane_loop::LaneLoop;

/// How often the reader of a lane that has been busy lately looks whether
/// the lane's threads are all still in the upcalls they were in: a request
/// that finds them so waits between one and two intervals before it is
/// read.
pub(crate) const CHECK: Duration = Duration::from_millis(5);

/// The checks in a row that find a thread of the lane free before the
/// reader sleeps until the lane is busy again (a tenth of a second).
const QUIET_CHECKS: u32 = 20;

impl LaneLoop {
    /// Starts the lane's reader on `event_loop`, named after the lane's
    /// threads (`name`).
    pub(super) fn start_reader(
        self: &Arc<Self>,
        event_loop: &Arc<EventLoop>,
        name: &str,
    ) -> std::io::Result<JoinHandle<()>> {
        let (lane, event_loop) = (Arc::clone(self), Arc::clone(event_loop));
        let handle = std::thread::Builder::new()
            .name(format!("{name}-reader"))
            .spawn(move || lane.reader(&event_loop))?;
        let _ = self.reader.thread.set(handle.thread().clone());
        Ok(handle)
    }

    /// The reader's life (see the module docs).
    fn reader(&self, event_loop: &Arc<EventLoop>) {
        let core = &event_loop.core;
        if !self.reader_started(core) {
            return;
        }
        let r = &self.reader;
        let free = || event_loop.free.load(Ordering::SeqCst);
        let mut last = None;
        let mut quiet = 0u32;
        while !core.stopping() {
            if !r.armed.load(Ordering::SeqCst) {
                std::thread::park();
                continue;
            }
            std::thread::park_timeout(CHECK);
            if free() > 0 {
                last = None;
                quiet += 1;
                if quiet >= QUIET_CHECKS {
                    quiet = 0;
                    r.armed.store(false, Ordering::SeqCst);
                    // A turn taken meanwhile may have seen it armed.
                    if free() == 0 {
                        r.armed.store(true, Ordering::SeqCst);
                    }
                }
                continue;
            }
            quiet = 0;
            let turns = r.turns.load(Ordering::Acquire);
            if last != Some(turns) {
                last = Some(turns);
                continue;
            }
            last = None;
            self.read_while_busy(event_loop);
        }
    }

    /// Leads the lane and reads ahead while none of its threads is free.
    #[cold]
    fn read_while_busy(&self, event_loop: &EventLoop) {
        self.reader.reading.store(true, Ordering::SeqCst);
        while let Some(slot) = event_loop.lead(None, true) {
            self.read_ahead(event_loop, &slot);
        }
        self.reader.reading.store(false, Ordering::SeqCst);
        if self.buffering.has_waiting() {
            // The leader takes what was left waiting.
            let _ = event_loop.waker.wake();
        }
    }

    /// A turn on a claimed connection, reading ahead: it waits for a
    /// thread with its next message, or is let go, closed or put back as
    /// after any turn.
    fn read_ahead(&self, event_loop: &EventLoop, slot: &Arc<Slot>) {
        loop {
            let mut guard = slot.take_turn();
            let Some(live) = guard.as_mut() else {
                return;
            };
            let mut ahead = LaneReader {
                lane: self,
                buffering: &self.buffering,
                event_loop,
                charge: None,
                held: None,
            };
            let outcome = live
                .connection
                .turn(&event_loop.core, usize::MAX, Some(&mut ahead));
            if outcome != Progress::Waiting {
                if !event_loop.end_turn(slot, guard, outcome) || slot.release() {
                    return;
                }
                continue;
            }
            event_loop.set_deadline_at(slot, live.connection.deadline());
            drop(guard);
            let (len, request) = ahead.held.unwrap_or((0, false));
            let charge = ahead.charge.filter(|_| request);
            self.buffering.push(Arc::clone(slot), len, charge);
            // A thread of the lane may have become free and lead meanwhile
            // (the reader then waits for leadership): it takes the
            // connection at its next look.
            let _ = event_loop.waker.wake();
            if request {
                self.ask_help();
            }
            return;
        }
    }
}

/// What the lane's reader does with the next message of a connection it
/// reads ahead: only messages of at most [`UNCHARGED_MESSAGE`] octets are
/// read ahead (a larger one waits for a thread, read no further than its
/// header, so that nothing is held for it beyond what the memory budget
/// charges when a thread reads it); a whole unfragmented GIOP request
/// waits within the lane's bounds (whatever the bounds, if a lower lane
/// can lend a thread), or is refused; any other whole message waits,
/// counted by nobody.
struct LaneReader<'a> {
    lane: &'a LaneLoop,
    buffering: &'a Buffering,
    event_loop: &'a EventLoop,
    /// The charge of the request kept.
    charge: Option<Charge>,
    /// The message that waits: its octets, and whether it is a request
    /// the bounds count.
    held: Option<(usize, bool)>,
}

impl ReadAhead for LaneReader<'_> {
    fn decide(&mut self, header: &FrameHeader, _whole: bool, reassembling: bool) -> Ahead {
        let len = header.message_len();
        let refusable = match header {
            FrameHeader::Giop(g) => g.msg_type == MsgType::Request && !g.more_fragments,
            FrameHeader::Lite(_) => false,
        };
        if len > UNCHARGED_MESSAGE || !refusable || reassembling {
            // Read by a thread, charged as it is.
            self.held = Some((len, false));
            return Ahead::Hold;
        }
        let lender = self.lane.peers.is_some() && self.lane.lender_free();
        let core = &self.event_loop.core;
        if self.buffering.admit(len, core, &mut self.charge, lender) {
            self.held = Some((len, true));
            return Ahead::Hold;
        }
        Ahead::Refuse
    }

    fn refusal(&self) -> SystemException {
        self.buffering.refusal()
    }

    fn refused(&mut self, how: Refusal) {
        self.buffering.count(how);
    }
}
