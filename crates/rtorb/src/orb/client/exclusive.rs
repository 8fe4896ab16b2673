//! A client connection used by one call at a time (the exclusive
//! connection strategy): the call writes its request and reads until its
//! own reply comes.

use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb_cdr::TransmissionCodeSets;
use rtorb_giop::SystemException;

use super::reply::{IDLE_CHECK_AFTER, Inbound, Outcome, read_answer};
use super::request::{Destination, Request, RequestHead, RequestWriter, WriteError};
use super::system_exceptions::{not_started, protocol_error};
use crate::probe::Stage;
use crate::transport::Transport;

/// [`IDLE_CHECK_AFTER`] in nanoseconds.
const IDLE_CHECK_AFTER_NANOS: u64 = IDLE_CHECK_AFTER.as_nanos() as u64;

/// The coarse monotonic clock, in nanoseconds: a few nanoseconds to read
/// where [`Instant::now`] takes tens, and right to within a clock tick
/// (1 to 10 ms), enough to tell a connection idle for a while from one
/// put back a moment ago.
#[inline]
pub(super) fn coarse_now() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::MonotonicCoarse);
    let secs = u64::try_from(t.tv_sec).unwrap_or_default();
    let nanos = u64::try_from(t.tv_nsec).unwrap_or_default();
    secs.wrapping_mul(1_000_000_000).wrapping_add(nanos)
}

/// One exclusive client connection, used by one call at a time.
#[derive(Debug)]
pub(super) struct Connection {
    transport: Box<dyn Transport>,
    inbound: Inbound,
    next_request_id: u32,
    writer: RequestWriter,
    /// When it was last put back idle, on the coarse clock
    /// ([`coarse_now`]).
    idle_tick: u64,
    /// When it was last put back idle, for the idle reaper (only set
    /// where one runs).
    idle_since: Instant,
}

impl Connection {
    /// A connection over `transport`, writing requests larger than
    /// `fragment_size` as fragments.
    pub(super) fn new(
        transport: Box<dyn Transport>,
        fragment_size: Option<usize>,
    ) -> Box<Connection> {
        let messaging = transport.messaging();
        Box::new(Connection {
            transport,
            inbound: Inbound::new(messaging),
            next_request_id: 0,
            writer: RequestWriter::new(messaging, fragment_size),
            idle_tick: coarse_now(),
            idle_since: Instant::now(),
        })
    }

    /// Sends `request` to `to` and, if it expects one, reads its answer.
    pub(super) fn exchange(
        &mut self,
        to: &Destination<'_>,
        request: Request<'_>,
        deadline: Option<Instant>,
    ) -> Result<Outcome, SystemException> {
        self.inbound.probe.restart();
        let request_id = self.next_request_id;
        self.next_request_id = self.next_request_id.wrapping_add(1);
        let head = RequestHead {
            to,
            request_id,
            request,
        };
        let written = self
            .writer
            .write(&mut *self.transport, &mut self.inbound.probe, head);
        let tcs = match written {
            Ok(tcs) => tcs,
            Err(WriteError::Encode(e)) => return Err(e),
            // Not all of it went out: the server cannot have started it.
            Err(WriteError::Io) => return Err(not_started()),
        };
        if !request.expects_reply() {
            return Ok(Outcome::Sent);
        }
        loop {
            let received = self.inbound.read_message(&mut *self.transport, deadline)?;
            match received.answers() {
                Some(id) if id == request_id => {
                    let answer = read_answer(received, tcs);
                    self.inbound.probe.lap(Stage::ClientDemarshal);
                    return answer;
                }
                // A reply to a request abandoned earlier: not ours.
                Some(_) => {}
                None if received.is_close() => return Err(not_started()),
                None => return Err(protocol_error()),
            }
        }
    }

    /// Writes an encoded message that expects no reply, which announces
    /// the code sets `announced` in a `CodeSets` context if `Some`;
    /// whether it was written.
    pub(super) fn write_pieces(
        &mut self,
        pieces: &[Bytes],
        announced: Option<TransmissionCodeSets>,
    ) -> bool {
        let written = self.transport.write_all_vectored(pieces).is_ok();
        if written {
            self.writer.wrote_encoded(announced);
        }
        written
    }

    /// Whether the server closed it, or said it would, while it was idle
    /// (see [`Inbound::closed_while_idle`]): looked at only once it has
    /// been idle for [`IDLE_CHECK_AFTER`] on the coarse clock at `now`
    /// ([`coarse_now`]).
    #[inline]
    pub(super) fn closed_while_idle(&self, now: u64) -> bool {
        now.saturating_sub(self.idle_tick) >= IDLE_CHECK_AFTER_NANOS
            && self.inbound.closed_while_idle(&*self.transport)
    }

    /// Notes that it is put back idle at `now` on the coarse clock.
    #[inline]
    pub(super) fn set_idle_tick(&mut self, now: u64) {
        self.idle_tick = now;
    }

    /// Notes that it is put back idle now.
    pub(super) fn set_idle_since(&mut self, now: Instant) {
        self.idle_since = now;
    }

    /// Whether it has been idle `timeout` or longer at `now`.
    pub(super) fn idle_for(&self, now: Instant, timeout: Duration) -> bool {
        now.saturating_duration_since(self.idle_since) >= timeout
    }

    /// Shuts the connection down.
    pub(super) fn shutdown(&mut self) {
        let _ = self.transport.shutdown(std::net::Shutdown::Both);
    }
}
