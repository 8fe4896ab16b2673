//! The server side of one GIOP connection as a state machine without I/O,
//! in the manner of quinn-proto's `Connection`: octets in
//! ([`Machine::receive_with`]), the next thing to do out
//! ([`Machine::poll`]: a request to dispatch, input to read, a close),
//! octets to write out ([`Machine::output`]), and when it must be looked
//! at again ([`Machine::poll_timeout`]). Reads, writes and upcalls are the
//! driver's (`driver.rs`); the event loop, thread-per-connection and a lane's
//! reader all drive it the same way.
//!
//! ```text
//!            peer ends its stream,            queue written
//!   Open ──── replies still queued ──► Draining ─────────────┐
//!    │ │                                  │                  │
//!    │ │ end of stream, error, timeout,   │ write timeout,   │
//!    │ │ malformed input (MessageError),  │ write error,     │
//!    │ │ shutdown (CloseConnection)       │ shutdown         │
//!    │ ▼                                  ▼                  ▼
//!    │ Closing ◄──────────────────────────┴──────────────────┘
//!    │ ▲  │ close: the queue and the last message written
//!    │ │  ▼
//!    │ │ Closed
//!    │ └── end of stream, deadline, shutdown, write timeout ──┐
//!    │ message refused (nonblocking): answer queued           │
//!    └───────────────────────────────────────────────► Lingering
//! ```

use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::header::{HEADER_LEN, MsgType};
use rtorb_giop::message::{Content, Message};
use rtorb_giop::{
    CompletionStatus, FrameHeader, FrameProtocol, SystemException, SystemExceptionKind,
    decode_message,
};

use super::super::budget::{MemoryBudget, UNCHARGED_MESSAGE};
use super::super::limits::ServerLimits;
use super::input::{Input, ReadError};
use super::linger::{Linger, Step};
use super::now::Now;
use super::output::{Control, Next, Output};
use crate::minor::{IMP_LIMIT_MESSAGE_TOO_LARGE, NO_MEMORY_BUDGET};

/// Where a connection is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    /// Reading requests and writing their replies.
    Open,
    /// The peer ended its stream while replies were still queued: they
    /// are written (within the write timeout), nothing more is read.
    Draining,
    /// Nothing more is read: what is queued, and the last message if any
    /// (`CloseConnection` or `MessageError`), goes out as the connection
    /// closes.
    Closing,
    /// A message was refused (nonblocking only): the answer and the last
    /// message are written, then what the peer still sends is read away,
    /// a bounded amount per turn, until it ends its stream or the linger
    /// deadline passes (`linger.rs`).
    Lingering,
    /// The transport is shut down.
    Closed,
}

/// A whole message for the object adapters.
#[derive(Debug)]
pub(crate) enum Received {
    /// A `Request` or `LocateRequest` as framed, with its checked header.
    Framed(Bytes, FrameHeader),
    /// A `Request` or `LocateRequest` completed from fragments, decoded,
    /// with its buffer.
    Decoded(Box<Message>, Bytes),
}

/// What the driver does next ([`Machine::poll`]).
#[derive(Debug)]
pub(crate) enum Poll {
    /// Dispatch this message, then report with [`Machine::dispatched`].
    Dispatch(Received),
    /// A message was handled here (a fragment held, a `CancelRequest`, the
    /// peer's `CloseConnection`): it counts as one of the turn's.
    Handled,
    /// Reading ahead: the next message's header has arrived, and the
    /// message with it (`whole`) or it is larger than what is read ahead.
    Ahead {
        /// Its header.
        header: FrameHeader,
        /// Whether all of it has arrived.
        whole: bool,
    },
    /// Read input, with [`Machine::receive_with`].
    Read,
    /// End the server's side of the stream (a refused connection).
    ShutWrite,
    /// A whole message waits, but the turn's budget is spent.
    More,
    /// Wait until the connection is writable: replies are queued past the
    /// bound, or it drains them after the peer ended its stream.
    Paused,
    /// Nothing to do until more input (or the peer's end of stream).
    Idle,
    /// Close the connection.
    Close,
}

/// How the lane's reader answered a request it read ahead
/// ([`Machine::refuse_next`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Answered with the refusal.
    Answered,
    /// A oneway (or a request with no id to answer): dropped.
    Dropped,
    /// Nothing was taken.
    None,
}

/// The server side of one connection, without I/O.
pub(crate) struct Machine {
    state: State,
    /// Whether the driver blocks in its reads and writes (thread per
    /// connection): a refused message then closes the connection at once
    /// instead of lingering.
    blocking: bool,
    messaging: FrameProtocol,
    limits: ServerLimits,
    input: Input,
    output: Output,
    budget: Arc<MemoryBudget>,
    /// Whether a message was refused.
    refused: bool,
    /// In [`State::Lingering`]: what has been read away, and until when.
    linger: Option<Linger>,
    /// Whether a whole message has been received.
    completed: bool,
    /// With an idle timeout: since when the connection has completed no
    /// message.
    idle_since: Instant,
    /// Whether the message being dispatched was completed from fragments.
    reassembled: bool,
}

impl Machine {
    /// A connection of `messaging` opened at `now`, within `limits`,
    /// charged to `budget`.
    pub(crate) fn new(
        messaging: FrameProtocol,
        blocking: bool,
        limits: ServerLimits,
        budget: &Arc<MemoryBudget>,
        now: Instant,
    ) -> Machine {
        Machine {
            state: State::Open,
            blocking,
            messaging,
            limits,
            input: Input::new(messaging, limits.max_message_size, budget),
            output: Output::new(messaging, budget),
            budget: Arc::clone(budget),
            refused: false,
            linger: None,
            completed: false,
            idle_since: now,
            reassembled: false,
        }
    }

    /// Where the connection is in its life.
    #[inline]
    pub(crate) fn state(&self) -> State {
        self.state
    }

    /// Whether a message was refused.
    pub(crate) fn refused(&self) -> bool {
        self.refused
    }

    /// Whether a whole message has been received.
    #[inline]
    pub(crate) fn completed(&self) -> bool {
        self.completed
    }

    /// Whether fragments of a message are held.
    #[inline]
    pub(crate) fn reassembling(&self) -> bool {
        self.input.reassembling()
    }

    /// Whether the connection holds nothing: no part of a message, no
    /// reply queued.
    #[inline]
    pub(crate) fn quiet(&self) -> bool {
        !self.input.partial() && self.output.is_empty()
    }

    /// Whether shedding may take it as holding nothing: quiet, or
    /// lingering (nothing of a refused message is worth keeping).
    #[inline]
    pub(crate) fn quiet_for_shedding(&self) -> bool {
        self.state == State::Lingering || self.quiet()
    }

    /// What is to be written, in order.
    #[inline]
    pub(crate) fn output(&mut self) -> &mut Output {
        &mut self.output
    }

    /// Octets received and not yet handed out.
    #[cfg(test)]
    pub(crate) fn buffered(&self) -> usize {
        self.input.buffered()
    }

    /// The room of the framing buffer.
    #[cfg(test)]
    pub(crate) fn capacity(&mut self) -> usize {
        self.input.capacity()
    }

    /// Reads input through `read` (the driver's read of its transport,
    /// called once with the room to read into): into the framing buffer,
    /// or, lingering, into a scratch buffer and away. `Ok(0)` is the end
    /// of the peer's stream: report it with [`Machine::end_of_stream`].
    pub(crate) fn receive_with(
        &mut self,
        read: impl FnOnce(&mut [u8]) -> std::io::Result<usize>,
    ) -> std::io::Result<usize> {
        if self.state == State::Lingering
            && let Some(linger) = self.linger.as_mut()
        {
            return discard_with(linger, read);
        }
        self.input.receive_with(read)
    }

    /// Notes that the poller saw the peer close its side (or an error):
    /// a short read no longer means that nothing more is to be read,
    /// since the end of stream itself brings no further event.
    pub(crate) fn set_read_closed(&mut self) {
        self.input.set_read_closed();
    }

    /// Whether the poller saw the peer close its side.
    #[inline]
    pub(crate) fn read_closed(&self) -> bool {
        self.input.read_closed()
    }

    /// The next thing to do, at `now`. `spent`: the turn's budget is
    /// spent (a whole message waiting is then left for the next turn).
    /// `ahead`: the lane's reader reads ahead, and is told of the next
    /// message as soon as its header has arrived
    /// ([`Poll::Ahead`]), which is then neither charged nor taken.
    pub(crate) fn poll(&mut self, now: &mut Now, spent: bool, ahead: bool) -> Poll {
        match self.state {
            State::Open => {}
            State::Draining if self.output.is_empty() => return self.closing(None),
            State::Draining => return Poll::Paused,
            State::Lingering => return self.poll_linger(now),
            State::Closing | State::Closed => return Poll::Close,
        }
        if self.output.queued() > self.limits.max_output_buffer
            || (!self.output.is_empty() && self.budget.spent())
        {
            return Poll::Paused;
        }
        // Nothing buffered (the usual case between messages): no frame to
        // look for.
        if self.input.buffered() > 0 {
            if spent {
                return Poll::More;
            }
            if ahead {
                match self.input.peek_next() {
                    Ok(Some((header, whole)))
                        if whole || header.message_len() > UNCHARGED_MESSAGE =>
                    {
                        return Poll::Ahead { header, whole };
                    }
                    Ok(_) => return self.wait_for_input(now),
                    // Taking it finds out what is wrong.
                    Err(()) => {}
                }
            }
            match self.input.next_frame() {
                Ok(Some(frame)) => return self.received(now, frame),
                Ok(None) => {}
                Err(e) => return self.unreadable(now, e),
            }
        }
        self.wait_for_input(now)
    }

    /// No whole message: close if part of one has been held too long, or
    /// the connection idle too long; else read.
    fn wait_for_input(&mut self, now: &mut Now) -> Poll {
        if self
            .input
            .partial_expired(now, self.limits.incomplete_message_timeout)
        {
            return self.closing(None);
        }
        if self.quiet() && self.idle_expired(now) {
            return self.closing(Some(Control::CloseConnection));
        }
        Poll::Read
    }

    /// A whole frame, taken: for the adapters, or handled here.
    #[inline]
    fn received(&mut self, now: &mut Now, frame: Bytes) -> Poll {
        let Some(header) = self.input.last_header() else {
            return self.closing(Some(Control::MessageError));
        };
        let dispatched = match header {
            FrameHeader::Giop(h) => {
                self.output.set_version(h.version);
                !h.more_fragments && matches!(h.msg_type, MsgType::Request | MsgType::LocateRequest)
            }
            FrameHeader::Lite(h) => {
                !h.more_fragments && matches!(h.msg_type, MsgType::Request | MsgType::LocateRequest)
            }
        };
        if dispatched {
            return Poll::Dispatch(Received::Framed(frame, header));
        }
        self.handle_other(now, frame, header)
    }

    /// A frame that is no request as it is: a fragment (held until its
    /// message is complete), or a message the connection acts on itself
    /// (`CancelRequest`: ignored, since a request runs before the next
    /// message is read; the peer's `CloseConnection` or `MessageError`:
    /// close; a `Reply`, a stray `Fragment`, anything malformed:
    /// `MessageError`, and close).
    #[cold]
    #[inline(never)]
    fn handle_other(&mut self, now: &mut Now, frame: Bytes, header: FrameHeader) -> Poll {
        let fragment = matches!(header, FrameHeader::Giop(h)
            if h.more_fragments || h.msg_type == MsgType::Fragment);
        let next = match self.input.reassemble(self.messaging, frame, fragment) {
            Err(()) => Next::Close(Some(Control::MessageError)),
            Ok(None) => Next::Continue,
            Ok(Some((m, _))) if m.more_fragments => Next::Close(Some(Control::MessageError)),
            Ok(Some((m, whole))) => {
                let next = match &m.content {
                    Content::Request(_) | Content::LocateRequest(_) => {
                        self.reassembled = fragment;
                        return Poll::Dispatch(Received::Decoded(Box::new(m), whole));
                    }
                    Content::CancelRequest(_) => Next::Continue,
                    Content::CloseConnection | Content::MessageError => Next::Close(None),
                    Content::Reply(_) | Content::LocateReply(_) | Content::Fragment(_) => {
                        Next::Close(Some(Control::MessageError))
                    }
                };
                if fragment {
                    drop((m, whole));
                    self.input.release_reassembled();
                }
                next
            }
        };
        self.dispatched(now, next);
        Poll::Handled
    }

    /// The message [`Poll::Dispatch`] gave has been handled, and `next`
    /// says what comes after it.
    #[inline]
    pub(crate) fn dispatched(&mut self, now: &mut Now, next: Next) {
        self.input.handled();
        if self.reassembled {
            self.reassembled = false;
            self.input.release_reassembled();
        }
        self.message_done(now);
        if let Next::Close(last) = next {
            self.closing(last);
        }
    }

    /// After a message: unless it was a fragment of one still incomplete,
    /// a whole message was received (the incomplete-message clock and the
    /// idle clock start again).
    #[inline]
    fn message_done(&mut self, now: &mut Now) {
        if !self.input.reassembling() {
            self.input.message_completed();
            self.completed = true;
            if self.limits.idle_timeout.is_some() {
                self.idle_since = now.get();
            }
        }
    }

    /// What a header that cannot be taken comes to.
    #[cold]
    fn unreadable(&mut self, now: &mut Now, e: ReadError) -> Poll {
        match e {
            ReadError::Malformed => self.closing(Some(Control::MessageError)),
            // Its own queued replies hold budget: wait for them to drain
            // before deciding on the message.
            ReadError::OverBudget(_) if !self.output.is_empty() => Poll::Paused,
            ReadError::OverBudget(header) => self.refuse(
                now,
                header,
                SystemException::new(
                    SystemExceptionKind::NoMemory,
                    NO_MEMORY_BUDGET,
                    CompletionStatus::No,
                ),
            ),
            ReadError::TooLarge(header) => self.refuse(
                now,
                header,
                SystemException::new(
                    SystemExceptionKind::ImpLimit,
                    IMP_LIMIT_MESSAGE_TOO_LARGE,
                    CompletionStatus::No,
                ),
            ),
        }
    }

    /// Refuses a message, from its `header`, that the memory budget
    /// cannot take (`NO_MEMORY`) or that exceeds the maximum message size
    /// (`IMP_LIMIT`), before anything is buffered for it: a `Request`
    /// whose request id has arrived is answered with `refusal`, in its
    /// GIOP version, and the connection closed with `CloseConnection`;
    /// anything else with `MessageError`.
    #[cold]
    fn refuse(&mut self, now: &mut Now, header: FrameHeader, refusal: SystemException) -> Poll {
        self.refused = true;
        let FrameHeader::Giop(h) = header else {
            return self.closing(Some(Control::MessageError));
        };
        self.output.set_version(h.version);
        let id = request_id(self.input.received(), h.version, h.order);
        let last = match id {
            Some(id) if h.msg_type == MsgType::Request => {
                let refusal =
                    refusal.with_detail(format_args!("a request of {} octets", h.message_len()));
                self.output.queue_exception_reply(id, h.order, &refusal);
                Control::CloseConnection
            }
            _ => Control::MessageError,
        };
        if self.blocking {
            // Its thread reads the refused message away as it closes.
            return self.closing(Some(last));
        }
        self.output.queue_control(last);
        self.state = State::Lingering;
        self.linger = Some(Linger::new(now.get()));
        // Its turn follows those of the connections waiting.
        Poll::More
    }

    /// A lingering connection: its answer written, then its side of the
    /// stream ended and what arrives read away.
    #[cold]
    fn poll_linger(&mut self, now: &mut Now) -> Poll {
        if !self.output.is_empty() {
            // Room to write brings an event; the write timeout bounds it.
            return Poll::Paused;
        }
        let read_closed = self.input.read_closed();
        let Some(linger) = self.linger.as_mut() else {
            return self.closing(None);
        };
        match linger.next(now, read_closed) {
            Step::ShutWrite => Poll::ShutWrite,
            Step::Read(_) => Poll::Read,
            Step::Wait => Poll::Idle,
            Step::Close => self.closing(None),
        }
    }

    /// Takes the whole request next in line, which the lane's reader
    /// could not keep, and answers it with `refusal` (queued), or drops
    /// it if it is a oneway.
    #[cold]
    pub(crate) fn refuse_next(&mut self, now: &mut Now, refusal: &SystemException) -> Refusal {
        let Ok(Some(frame)) = self.input.next_frame() else {
            return Refusal::None;
        };
        self.input.handled();
        self.message_done(now);
        let Ok(message) = decode_message(frame) else {
            // No request id to answer.
            return Refusal::Dropped;
        };
        let Content::Request(request) = &message.content else {
            return Refusal::None;
        };
        if !request.header.response_expected() {
            return Refusal::Dropped;
        }
        self.output.set_version(message.version);
        self.output
            .queue_exception_reply(request.header.request_id, message.order, refusal);
        Refusal::Answered
    }

    /// The peer ended its stream: a client that half-closed still gets
    /// its replies (within the write timeout); else the connection closes.
    pub(crate) fn end_of_stream(&mut self) {
        match self.state {
            State::Open if !self.output.is_empty() => self.state = State::Draining,
            State::Open | State::Lingering => {
                self.closing(None);
            }
            State::Draining | State::Closing | State::Closed => {}
        }
    }

    /// The ORB shuts down, or the connection is shed to make room for
    /// another: it closes with `CloseConnection` (a request not started
    /// may be sent again). A lingering connection has queued its last
    /// message already.
    pub(crate) fn shut_down(&mut self) {
        match self.state {
            State::Open | State::Draining => {
                self.closing(Some(Control::CloseConnection));
            }
            State::Lingering => {
                self.closing(None);
            }
            State::Closing | State::Closed => {}
        }
    }

    /// A read or a write failed: the connection closes without a message.
    pub(crate) fn fail(&mut self) {
        if self.state != State::Closed {
            self.closing(None);
        }
    }

    /// The driver closes the transport (after writing what is queued).
    pub(crate) fn close(&mut self) {
        self.state = State::Closing;
    }

    /// The transport is shut down.
    pub(crate) fn closed(&mut self) {
        self.state = State::Closed;
    }

    /// Moves to [`State::Closing`], with `last` queued to go out last.
    #[cold]
    fn closing(&mut self, last: Option<Control>) -> Poll {
        if let Some(last) = last {
            self.output.queue_control(last);
        }
        self.state = State::Closing;
        Poll::Close
    }

    /// Whether the connection has been idle beyond the idle timeout (if
    /// there is one).
    fn idle_expired(&self, now: &mut Now) -> bool {
        self.limits
            .idle_timeout
            .is_some_and(|t| now.get().saturating_duration_since(self.idle_since) >= t)
    }

    /// When the connection must be looked at again if nothing happens:
    /// the incomplete-message timeout of part of a message held, the
    /// write timeout of queued replies that make no progress, the idle
    /// timeout of a quiet connection, a lingering one's deadline.
    pub(crate) fn poll_timeout(&self) -> Option<Instant> {
        let write = self.output.deadline(self.limits.write_timeout);
        if let Some(linger) = self
            .linger
            .as_ref()
            .filter(|_| self.state == State::Lingering)
        {
            let until = linger.deadline();
            return Some(write.map_or(until, |w| w.min(until)));
        }
        let idle = self
            .limits
            .idle_timeout
            .filter(|_| self.state == State::Open && self.quiet())
            .map(|t| self.idle_since + t);
        [
            self.input.deadline(self.limits.incomplete_message_timeout),
            write,
            idle,
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// When a blocking read must return to look at the connection again:
    /// the incomplete-message timeout while part of a message is held,
    /// else the idle timeout, if there is one.
    pub(crate) fn read_deadline(&self) -> Option<Instant> {
        self.input
            .deadline(self.limits.incomplete_message_timeout)
            .or_else(|| self.limits.idle_timeout.map(|t| self.idle_since + t))
    }

    /// Whether queued replies have made no progress for the write
    /// timeout.
    pub(crate) fn write_expired(&self, now: &mut Now) -> bool {
        self.output.expired(now, self.limits.write_timeout)
    }
}

/// Reads away what arrived of a refused message, through `read`.
#[cold]
fn discard_with(
    linger: &mut Linger,
    read: impl FnOnce(&mut [u8]) -> std::io::Result<usize>,
) -> std::io::Result<usize> {
    let mut scratch = [0u8; super::linger::SCRATCH];
    let want = linger.wanted().min(scratch.len());
    if want == 0 {
        // Nothing more is read away (`Linger::next` waits instead).
        return Err(std::io::ErrorKind::WouldBlock.into());
    }
    let n = read(&mut scratch[..want])?;
    linger.discarded(n);
    Ok(n)
}

/// The request id of a `Request` of GIOP `version` and byte `order`, if
/// `received` (its start, header included) holds it: right after the
/// header in GIOP 1.2 and later, after the service contexts before.
fn request_id(received: &[u8], version: Version, order: ByteOrder) -> Option<u32> {
    let ulong = |at: usize| -> Option<u32> {
        let b = <[u8; 4]>::try_from(received.get(at..at.checked_add(4)?)?).ok()?;
        Some(match order {
            ByteOrder::Big => u32::from_be_bytes(b),
            ByteOrder::Little => u32::from_le_bytes(b),
        })
    };
    let align = |at: usize| at.checked_add(3).map(|a| a & !3);
    if version >= Version::V1_2 {
        return ulong(HEADER_LEN);
    }
    // A sequence of service contexts (an id, then a sequence of octets),
    // aligned from the start of the message.
    let contexts = ulong(HEADER_LEN)?;
    let mut at = HEADER_LEN + 4;
    for _ in 0..contexts {
        at = align(at)?;
        let len = ulong(at.checked_add(4)?)?;
        at = at.checked_add(8)?.checked_add(usize::try_from(len).ok()?)?;
        if at > received.len() {
            return None;
        }
    }
    ulong(align(at)?)
}

#[cfg(test)]
mod tests;
