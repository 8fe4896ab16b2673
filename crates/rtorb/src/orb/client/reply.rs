//! Reading replies: the one reply reader of every client connection,
//! exclusive or shared.
//!
//! An [`Inbound`] is the reading half of a connection: it reads frames
//! with a [`FrameReader`], reassembles fragments, and reads a plain reply
//! in place ([`reply_view_framed`]), anything else decoded in full. The
//! socket's read timeout follows the call's deadline, changed only when it
//! must be. [`read_answer`] makes what was received into the [`Outcome`]
//! of the call.

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb_cdr::{Decoder, Encoding, TransmissionCodeSets};
use rtorb_giop::message::{Content, LocateStatus, Message, ReplyStatus};
use rtorb_giop::{
    CompletionStatus, FrameHeader, FrameProtocol, GiopError, MsgType, ObjectReference, Reassembler,
    ReassemblyLimits, ReplyView, SystemException, reply_view_framed,
};

use super::system_exceptions::{lost, maybe, protocol_error, timed_out};
use crate::exception::object_not_exist;
use crate::object::{Forwarded, Reply, Target};
use crate::probe::{Probe, Stage};
use crate::transport::{FrameReader, Transport, TransportError};

/// A socket read timeout up to 1/`READ_TIMEOUT_SLACK` shorter than the
/// time left before a call's deadline is kept rather than set again.
const READ_TIMEOUT_SLACK: u32 = 8;

/// Below this, a read timeout is set to exactly the time left.
const MIN_SHORTENED_READ_TIMEOUT: Duration = Duration::from_millis(16);

/// How long a connection is idle before a call that takes it looks
/// whether the server has closed it meanwhile
/// ([`Inbound::closed_while_idle`]): a call that follows the last one
/// sooner makes no system call for it.
pub(super) const IDLE_CHECK_AFTER: Duration = Duration::from_millis(1);

/// The receiving side of a connection: frames, reassembly, and the read
/// timeout set on the socket.
#[derive(Debug)]
pub(super) struct Inbound {
    reader: FrameReader,
    reassembler: Reassembler,
    messaging: FrameProtocol,
    /// The read timeout currently set on the transport.
    read_timeout: Option<Duration>,
    /// Times the stages of a call (with the `probe` feature).
    pub(super) probe: Probe,
}

/// A `NO_EXCEPTION` or `USER_EXCEPTION` reply read in place: its
/// message and where its body is, made into a [`Reply`] (its decoder)
/// only when handed to the stub.
pub(super) struct ReplyFrame {
    message: Bytes,
    body_offset: usize,
    encoding: Encoding,
    user_exception: bool,
}

impl ReplyFrame {
    pub(super) fn into_reply(self) -> Reply {
        let body = Decoder::with_position(self.message, 0, self.body_offset, self.encoding);
        if self.user_exception {
            Reply::user_exception(body)
        } else {
            Reply::results(body)
        }
    }
}

/// What an exchange brought back.
pub(super) enum Outcome {
    /// No reply is expected.
    Sent,
    /// The reply to hand to the stub, read in place.
    Reply(ReplyFrame),
    /// The reply to hand to the stub, decoded in full (boxed, as the
    /// forward: the outcomes moved on every call stay small).
    Decoded(Box<Reply>),
    /// A system exception reply.
    System(SystemException),
    /// Send the request again to this target (behind a pointer: a reply,
    /// the common outcome, is moved through every layer of a call).
    Forward(Arc<Forwarded>),
    /// The answer to a `LocateRequest`: the object is here.
    Here,
}

/// A whole message from the server, with the buffer it was read from: a
/// reply read in place ([`reply_view_framed`], the common case), or any message
/// decoded in full.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub(super) enum Received {
    /// A `NO_EXCEPTION` or `USER_EXCEPTION` reply without service contexts.
    Reply(ReplyView, Bytes),
    /// Anything else.
    Message(Message, Bytes),
}

impl Received {
    /// The request id a reply or locate reply answers.
    pub(super) fn answers(&self) -> Option<u32> {
        match self {
            Received::Reply(v, _) => Some(v.request_id),
            Received::Message(msg, _) => match &msg.content {
                Content::Reply(r) => Some(r.header.request_id),
                Content::LocateReply(l) => Some(l.request_id),
                _ => None,
            },
        }
    }

    /// Whether it is a `CloseConnection`.
    pub(super) fn is_close(&self) -> bool {
        matches!(self, Received::Message(msg, _) if matches!(msg.content, Content::CloseConnection))
    }
}

impl Inbound {
    pub(super) fn new(messaging: FrameProtocol) -> Inbound {
        Inbound {
            reader: FrameReader::new(messaging),
            reassembler: Reassembler::new(ReassemblyLimits::default()),
            messaging,
            read_timeout: None,
            probe: Probe::start(),
        }
    }

    /// Whether the server closed the connection, or said it would, while
    /// no call was waiting on it: it closed its side (or reset it), sent a
    /// `CloseConnection` or a `MessageError`, or sent something after the
    /// last reply that was read with it. What has arrived is looked at
    /// without being read or waited for. A request written into such a connection would not
    /// reach the server, or would be lost with it; on a new one it is
    /// certain not to have been processed before.
    #[cold]
    #[inline(never)]
    pub(super) fn closed_while_idle(&self, transport: &dyn Transport) -> bool {
        if self.reader.decoder().buffered() > 0 {
            return true;
        }
        let mut head = [0u8; 12];
        match transport.peek(&mut head) {
            Ok(0) => true,
            Ok(n) => announces_close(self.messaging, head.get(..n).unwrap_or_default()),
            Err(e) => !matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock
                    | std::io::ErrorKind::Interrupted
                    | std::io::ErrorKind::Unsupported
            ),
        }
    }

    /// Makes a read wait no later than `deadline`.
    ///
    /// The socket's timeout is changed only when it must be: one that
    /// ends no later than the deadline, and not much earlier, is kept (a
    /// read that times out before the deadline is retried with what is
    /// left). A new timeout is set a little short of the deadline, so that
    /// the next calls, with the same round-trip timeout, can keep it.
    fn set_read_timeout(
        &mut self,
        transport: &mut dyn Transport,
        deadline: Option<Instant>,
    ) -> Result<(), SystemException> {
        let timeout = match deadline {
            None => None,
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(timed_out());
                }
                match read_timeout_for(self.read_timeout, left) {
                    None => return Ok(()),
                    new => new,
                }
            }
        };
        if timeout != self.read_timeout {
            transport
                .set_read_timeout(timeout)
                .map_err(|_| lost(CompletionStatus::Maybe))?;
            self.read_timeout = timeout;
        }
        Ok(())
    }

    /// The next whole (reassembled) message from the server. A deadline
    /// that passes gives `TIMEOUT` ([`TIMEOUT_ROUND_TRIP`](crate::minor::TIMEOUT_ROUND_TRIP)) and leaves the
    /// connection usable.
    pub(super) fn read_message(
        &mut self,
        transport: &mut dyn Transport,
        deadline: Option<Instant>,
    ) -> Result<Received, SystemException> {
        loop {
            self.set_read_timeout(transport, deadline)?;
            let frame = match self.reader.read_frame(transport) {
                Ok(Some(f)) => {
                    self.probe.lap(Stage::ClientWait);
                    f
                }
                Ok(None) => return Err(lost(CompletionStatus::Maybe)),
                Err(e) if e.is_timeout() || e.is_would_block() => {
                    if deadline.is_some_and(|d| Instant::now() < d) {
                        // The socket's timeout ended short of the deadline.
                        continue;
                    }
                    return Err(timed_out());
                }
                Err(TransportError::Giop(_)) => return Err(protocol_error()),
                Err(_) => return Err(lost(CompletionStatus::Maybe)),
            };
            let view = self
                .reader
                .last_header()
                .and_then(|h| reply_view_framed(&frame, h));
            if let Some(view) = view {
                self.probe.lap(Stage::ClientDemarshal);
                return Ok(Received::Reply(view, frame));
            }
            if let Some(received) = self.decode(frame) {
                self.probe.lap(Stage::ClientDemarshal);
                return received;
            }
        }
    }

    /// A message [`reply_view_framed`] does not cover, decoded in full; `None`
    /// for a fragment of a message not yet complete.
    #[cold]
    #[inline(never)]
    fn decode(&mut self, frame: Bytes) -> Option<Result<Received, SystemException>> {
        // A GIOP 1.1 message reassembled from fragments records where
        // its alignment changes.
        let decoded = self
            .messaging
            .reassemble(&mut self.reassembler, frame)
            .transpose()?;
        Some(match decoded {
            Ok((m, _)) if m.more_fragments => Err(protocol_error()),
            Ok((m, b)) => Ok(Received::Message(m, b)),
            Err(e) => Err(maybe(&e)),
        })
    }
}

/// Whether `head`, the start of a message a server sent unasked, says
/// that the connection closes: a `CloseConnection` or `MessageError`
/// header, or one that cannot be read. The start of a header is not
/// judged yet.
fn announces_close(messaging: FrameProtocol, head: &[u8]) -> bool {
    if head.len() < messaging.header_len() {
        return false;
    }
    let msg_type = match messaging.parse_header(head, u32::MAX) {
        Ok(FrameHeader::Giop(h)) => h.msg_type,
        Ok(FrameHeader::Lite(h)) => h.msg_type,
        Err(_) => return true,
    };
    matches!(msg_type, MsgType::CloseConnection | MsgType::MessageError)
}

/// The read timeout to set when `left` remains before a deadline and
/// `current` is set, or `None` to keep `current`: see
/// [`Inbound::set_read_timeout`]. A timeout it gives or keeps never
/// ends after the deadline.
fn read_timeout_for(current: Option<Duration>, left: Duration) -> Option<Duration> {
    if let Some(set) = current
        && set <= left
        && left - set <= left / READ_TIMEOUT_SLACK
    {
        return None;
    }
    if left >= MIN_SHORTENED_READ_TIMEOUT {
        Some(left - left / (2 * READ_TIMEOUT_SLACK))
    } else {
        Some(left)
    }
}

/// Reads the answer to our request: a reply (its body in `codesets`, those
/// the request was written in) or a locate reply.
pub(super) fn read_answer(
    received: Received,
    codesets: TransmissionCodeSets,
) -> Result<Outcome, SystemException> {
    match received {
        Received::Reply(view, message) => {
            let encoding = Encoding::native()
                .with_order(view.order)
                .with_version(view.version)
                .with_codesets(codesets);
            Ok(Outcome::Reply(ReplyFrame {
                message,
                body_offset: view.body_offset,
                encoding,
                user_exception: view.reply_status == ReplyStatus::UserException,
            }))
        }
        Received::Message(msg, message) => read_decoded_answer(&msg, &message, codesets),
    }
}

/// [`read_answer`] for a message decoded in full.
#[cold]
#[inline(never)]
fn read_decoded_answer(
    msg: &Message,
    message: &Bytes,
    codesets: TransmissionCodeSets,
) -> Result<Outcome, SystemException> {
    match &msg.content {
        Content::Reply(r) => read_reply(msg, message, r, codesets),
        Content::LocateReply(l) => match &l.status {
            LocateStatus::ObjectHere => Ok(Outcome::Here),
            LocateStatus::UnknownObject => Ok(Outcome::System(object_not_exist())),
            LocateStatus::ObjectForward(ior) => forward(ior, false),
            LocateStatus::ObjectForwardPerm(ior) => forward(ior, true),
            LocateStatus::LocSystemException(e) => Ok(Outcome::System(e.clone())),
            LocateStatus::LocNeedsAddressingMode(_) => Err(protocol_error()),
        },
        _ => Err(protocol_error()),
    }
}

/// Reads a reply to our request.
fn read_reply(
    msg: &Message,
    message: &Bytes,
    reply: &rtorb_giop::Reply,
    codesets: TransmissionCodeSets,
) -> Result<Outcome, SystemException> {
    let body = || {
        msg.body_decoder(message, codesets)
            .ok_or_else(protocol_error)
    };
    match reply.header.reply_status {
        ReplyStatus::NoException => Ok(Outcome::Decoded(Box::new(Reply::results(body()?)))),
        ReplyStatus::UserException => {
            Ok(Outcome::Decoded(Box::new(Reply::user_exception(body()?))))
        }
        ReplyStatus::SystemException => Ok(Outcome::System(
            reply.system_exception(msg.order).map_err(|e| maybe(&e))?,
        )),
        ReplyStatus::LocationForward | ReplyStatus::LocationForwardPerm => {
            let ior = reply.forward_ior(msg.order).map_err(|e| maybe(&e))?;
            let permanent = reply.header.reply_status == ReplyStatus::LocationForwardPerm;
            forward(&ior, permanent)
        }
        ReplyStatus::NeedsAddressingMode => Err(protocol_error()),
    }
}

/// The outcome of a forward to `ior` (`LOCATION_FORWARD_PERM` if
/// `permanent`).
fn forward(ior: &rtorb_cdr::Ior, permanent: bool) -> Result<Outcome, SystemException> {
    let reference = ObjectReference::from_ior(ior).map_err(|e| maybe(&GiopError::Cdr(e)))?;
    Ok(Outcome::Forward(Arc::new(Forwarded {
        target: Target::from_reference(reference)?,
        permanent,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_timeout_is_kept_across_calls_with_the_same_round_trip_timeout() {
        let timeout = Duration::from_secs(10);
        // The first call sets one a little short of its deadline.
        let set = read_timeout_for(None, timeout).expect("a timeout");
        assert!(set < timeout && set >= timeout - timeout / 8, "{set:?}");
        // Later calls start a little later on their own deadline: kept.
        for spent in [0, 1, 50, 1000, 100_000] {
            let left = timeout - Duration::from_micros(spent);
            assert_eq!(read_timeout_for(Some(set), left), None, "{left:?}");
        }
        // A retry with much less time left sets a shorter one.
        let left = Duration::from_secs(1);
        let shorter = read_timeout_for(Some(set), left).expect("a timeout");
        assert!(shorter <= left && shorter > left / 2, "{shorter:?}");
        // A longer round-trip timeout, where one is set: set anew.
        assert!(read_timeout_for(Some(set), Duration::from_secs(60)).is_some());
    }

    #[test]
    fn a_read_timeout_never_ends_after_the_deadline() {
        let times = [
            Duration::from_nanos(1),
            Duration::from_micros(300),
            Duration::from_millis(15),
            Duration::from_millis(16),
            Duration::from_millis(250),
            Duration::from_secs(3),
        ];
        for current in std::iter::once(None).chain(times.iter().copied().map(Some)) {
            for left in times {
                let kept_or_set = read_timeout_for(current, left).or(current);
                let t = kept_or_set.expect("a timeout");
                assert!(!t.is_zero() && t <= left, "{current:?}, {left:?}: {t:?}");
            }
        }
        // Short ones are exact.
        let left = Duration::from_millis(5);
        assert_eq!(read_timeout_for(None, left), Some(left));
    }
}
