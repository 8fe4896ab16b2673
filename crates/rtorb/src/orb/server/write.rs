//! The write half of a server connection: how replies and the server's own
//! messages reach the transport.
//!
//! A blocking connection (thread per connection) writes every message at
//! once, within the write timeout the transport carries. A nonblocking one
//! (the event loop) writes what the socket takes and queues the rest, in
//! order, behind the replies not yet written; the queue is written when the
//! connection is writable, and a queue that makes no progress for the
//! write timeout closes the connection.
//!
//! A GIOP 1.2 message larger than the configured fragment size goes out as
//! fragments (GIOP 1.0 and 1.1 messages go whole: see
//! [`ORB_FRAGMENTS`]).
//!
//! The messages the server sends on its own ([`Control`]) are written in
//! the connection's protocol: GIOPlite on a GIOPlite connection, else GIOP
//! in the version of the last message received.

use std::time::Instant;

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, CdrEncode, Encoding, Version};
use rtorb_giop::message::{Content, Message, MessageWriter, ReplyHeader, ReplyStatus};
use rtorb_giop::{FrameProtocol, SystemException, fragment_chunks};

use super::ServerCore;
use super::budget::{Charge, MemoryBudget};
use crate::orb::client::ORB_FRAGMENTS;
use crate::runtime::ReplyBuilder;
use crate::transport::{OutChain, Transport};

/// A reply buffer grown beyond this (by a large reply) is released once
/// the reply is sent, rather than kept for the connection's life.
const MAX_KEPT_REPLY_CAPACITY: usize = 64 * 1024;

/// A message the server sends on its own, without a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Control {
    /// The server closes the connection; requests not answered were not
    /// started.
    CloseConnection,
    /// The peer sent something malformed.
    MessageError,
}

/// What to do after a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Next {
    /// Go on with the next message.
    Continue,
    /// Send this message, if any, and close.
    Close(Option<Control>),
}

/// The write half of a connection.
pub(super) struct WriteHalf {
    messaging: FrameProtocol,
    /// The GIOP version of the connection: that of the last message
    /// received (1.0 before any).
    version: Version,
    /// Whether the transport blocks (thread per connection) or not.
    blocking: bool,
    /// Messages not yet written (nonblocking connections only).
    output: OutChain,
    /// Since when queued output has made no progress.
    stalled_since: Option<Instant>,
    /// Messages larger than this go out as fragments.
    fragment_size: Option<usize>,
    /// What the queued messages hold of the memory budget.
    charge: Charge,
}

impl WriteHalf {
    pub(super) fn new(
        messaging: FrameProtocol,
        blocking: bool,
        fragment_size: Option<usize>,
        budget: &std::sync::Arc<MemoryBudget>,
    ) -> WriteHalf {
        WriteHalf {
            messaging,
            version: Version::V1_0,
            blocking,
            output: OutChain::new(),
            stalled_since: None,
            fragment_size,
            charge: Charge::new(budget),
        }
    }

    /// Notes the GIOP version of a message received: the server's own
    /// messages go out in it from now on.
    #[inline]
    pub(super) fn set_version(&mut self, version: Version) {
        self.version = version;
    }

    /// Whether no message waits to be written.
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.output.is_empty()
    }

    /// Octets waiting to be written.
    #[inline]
    pub(super) fn queued(&self) -> usize {
        self.output.len()
    }

    /// `message` (without a body) in the connection's protocol.
    #[cold]
    pub(super) fn control(&self, control: Control) -> Bytes {
        let content = match control {
            Control::CloseConnection => Content::CloseConnection,
            Control::MessageError => Content::MessageError,
        };
        let msg = Message::new(self.version, ByteOrder::NATIVE, content);
        self.messaging.encode(&msg).unwrap_or_default()
    }

    /// Queues `control` behind the messages not yet written, for
    /// [`WriteHalf::linger`] to send.
    #[cold]
    pub(super) fn queue_control(&mut self, control: Control) {
        let message = self.control(control);
        self.output.push(message);
        self.charge.follow_output(self.output.len());
    }

    /// Queues a GIOP 1.2 `Reply` to request `request_id`, in `order`,
    /// carrying `exception`, for [`WriteHalf::linger`] to send.
    #[cold]
    pub(super) fn queue_exception_reply(
        &mut self,
        request_id: u32,
        order: ByteOrder,
        exception: &SystemException,
    ) {
        let encoding = Encoding::native()
            .with_order(order)
            .with_version(self.version);
        let header = ReplyHeader::new(request_id, ReplyStatus::SystemException);
        let reply = MessageWriter::reply(encoding, &header).and_then(|mut w| {
            exception.encode(w.body())?;
            w.finish()
        });
        if let Ok(message) = reply {
            self.output.push(message);
            self.charge.follow_output(self.output.len());
        }
    }

    /// Sends a message, as fragments when it is larger than the fragment
    /// size and of GIOP 1.2 or later (else whole). Every write of the
    /// message handling goes through here or [`WriteHalf::send_reply`]:
    /// a blocking connection writes it at once, a nonblocking one queues
    /// it behind the replies not yet written and writes what the socket
    /// takes.
    pub(super) fn send(&mut self, transport: &mut dyn Transport, message: Bytes) -> Next {
        self.send_chunks(transport, std::slice::from_ref(&message))
    }

    /// As [`WriteHalf::send`], for a message in a chain of buffers.
    fn send_chunks(&mut self, transport: &mut dyn Transport, chunks: &[Bytes]) -> Next {
        let len: usize = chunks.iter().map(Bytes::len).sum();
        let version = chunks.first().and_then(|c| giop_version(c));
        if let Some(max) = self.fragment_size.filter(|_| self.fragments(len, version)) {
            if let Ok(pieces) = fragment_chunks(chunks, max) {
                return self.write_pieces(transport, &pieces);
            }
        }
        // Not a fragmentable message type, or small enough: sent whole.
        self.write_pieces(transport, chunks)
    }

    /// Whether a message of `len` octets in GIOP `version` goes out as
    /// fragments.
    fn fragments(&self, len: usize, version: Option<Version>) -> bool {
        self.fragment_size.is_some_and(|max| len > max)
            && self.messaging == FrameProtocol::Giop
            && version.is_some_and(|v| v >= ORB_FRAGMENTS)
    }

    /// Sends the reply completed in `reply`: straight from its buffer
    /// when it is one piece that goes whole and nothing is queued before
    /// it (the common case: no copy, no reference counting), else through
    /// [`WriteHalf::send_chunks`].
    pub(super) fn send_reply(
        &mut self,
        transport: &mut dyn Transport,
        reply: &mut ReplyBuilder,
    ) -> Next {
        let (len, version) = {
            let w = reply.writer();
            (w.len(), w.version())
        };
        if !self.fragments(len, Some(version)) && self.output.is_empty() {
            match reply.writer().seal() {
                Ok(Some(message)) => {
                    let written = if self.blocking {
                        transport.send_all(message)
                    } else {
                        write_or_queue(transport, &mut self.output, message)
                    };
                    if reply.writer().capacity() > MAX_KEPT_REPLY_CAPACITY {
                        drop(reply.writer().take_buffer());
                    }
                    return match written {
                        Ok(()) if self.output.is_empty() => Next::Continue,
                        Ok(()) => match self.flush(transport) {
                            Ok(()) => Next::Continue,
                            Err(_) => Next::Close(None),
                        },
                        Err(_) => Next::Close(None),
                    };
                }
                Ok(None) => {}
                Err(_) => return Next::Close(Some(Control::MessageError)),
            }
        }
        match reply.writer().take_chunks() {
            Ok(chunks) => self.send_chunks(transport, &chunks),
            Err(_) => Next::Close(Some(Control::MessageError)),
        }
    }

    fn write_pieces(&mut self, transport: &mut dyn Transport, pieces: &[Bytes]) -> Next {
        let sent = if self.blocking {
            transport.write_all_vectored(pieces)
        } else {
            for piece in pieces {
                self.output.push(piece.clone());
            }
            self.flush(transport)
        };
        match sent {
            Ok(()) => Next::Continue,
            Err(_) => Next::Close(None),
        }
    }

    /// Writes queued messages until done or the transport would block.
    pub(super) fn flush(&mut self, transport: &mut dyn Transport) -> std::io::Result<()> {
        let mut progressed = false;
        while !self.output.is_empty() {
            match self.output.write_to(transport) {
                Ok(_) => progressed = true,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) => return Err(e),
            }
        }
        if self.output.is_empty() {
            self.stalled_since = None;
        } else if progressed || self.stalled_since.is_none() {
            self.stalled_since = Some(Instant::now());
        }
        self.charge.follow_output(self.output.len());
        Ok(())
    }

    /// When the write timeout of queued messages that make no progress
    /// falls due, if they are queued.
    pub(super) fn deadline(&self, core: &ServerCore) -> Option<Instant> {
        self.stalled_since.map(|t| t + core.limits.write_timeout)
    }

    /// Whether queued messages have made no progress for the write
    /// timeout.
    pub(super) fn expired(&self, core: &ServerCore) -> bool {
        self.stalled_since
            .is_some_and(|t| t.elapsed() >= core.limits.write_timeout)
    }

    /// Writes what is queued before the connection closes. While the ORB
    /// shuts down (or on a blocking connection) it is written blocking,
    /// within the write timeout; otherwise a nonblocking connection makes
    /// one attempt and never waits.
    pub(super) fn linger(&mut self, transport: &mut dyn Transport, core: &ServerCore) {
        if self.output.is_empty() {
            return;
        }
        if self.blocking || core.stopping() {
            let linger = transport
                .set_nonblocking(false)
                .and_then(|()| transport.set_write_timeout(Some(core.limits.write_timeout)));
            if linger.is_ok() {
                let _ = self.output.write_all_to(transport);
            }
            // Released before the connection's side of the stream ends.
            self.charge.follow_output(self.output.len());
        } else {
            let _ = self.flush(transport);
        }
    }
}

/// Writes `message` to a nonblocking transport as far as it takes it, and
/// queues the rest (copied) on `output`.
fn write_or_queue(
    transport: &mut dyn Transport,
    output: &mut OutChain,
    message: &[u8],
) -> std::io::Result<()> {
    let mut rest = message;
    while !rest.is_empty() {
        match transport.writev(&[std::io::IoSlice::new(rest)]) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => rest = rest.get(n..).unwrap_or_default(),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                output.push(Bytes::copy_from_slice(rest));
                return Ok(());
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The GIOP version in the header of an encoded message.
fn giop_version(message: &[u8]) -> Option<Version> {
    match message.get(4..6)? {
        [major, minor] => Some(Version::new(*major, *minor)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rtorb_giop::{decode_lite, decode_message};

    fn budget() -> std::sync::Arc<MemoryBudget> {
        std::sync::Arc::new(MemoryBudget::new(usize::MAX))
    }

    #[test]
    fn control_messages_are_in_the_version_last_received() {
        let mut w = WriteHalf::new(FrameProtocol::Giop, true, None, &budget());
        let first = decode_message(w.control(Control::CloseConnection)).unwrap();
        assert_eq!(first.version, Version::V1_0);
        for v in [Version::V1_1, Version::V1_2, Version::V1_0] {
            w.set_version(v);
            let close = decode_message(w.control(Control::CloseConnection)).unwrap();
            assert_eq!(
                (close.version, close.content),
                (v, Content::CloseConnection)
            );
            let error = decode_message(w.control(Control::MessageError)).unwrap();
            assert_eq!((error.version, error.content), (v, Content::MessageError));
        }
    }

    #[test]
    fn control_messages_on_giop_lite_are_giop_lite() {
        let w = WriteHalf::new(FrameProtocol::Lite, false, None, &budget());
        let close = decode_lite(w.control(Control::CloseConnection)).unwrap();
        assert_eq!(close.content, Content::CloseConnection);
    }

    #[test]
    fn the_version_is_read_from_a_giop_header() {
        assert_eq!(giop_version(b"GIOP\x01\x02\x00\x00"), Some(Version::V1_2));
        assert_eq!(giop_version(b"GIOP\x01"), None);
    }
}
