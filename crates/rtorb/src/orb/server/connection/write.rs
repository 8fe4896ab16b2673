//! How replies and the server's own messages reach the transport: the
//! driver's writes of a connection's [`Output`].
//!
//! A blocking connection (thread per connection) writes every message at
//! once, within the write timeout the transport carries. A nonblocking one
//! (the event loop) writes what the socket takes and queues the rest, in
//! order, behind the replies not yet written; the queue is written when the
//! connection is writable, and a queue that makes no progress for the
//! write timeout closes the connection (see the machine's deadlines).
//!
//! A GIOP 1.2 message larger than the configured fragment size goes out as
//! fragments (GIOP 1.0 and 1.1 messages go whole: see
//! [`ORB_FRAGMENTS`]).

use std::time::Duration;

use bytes::Bytes;
use rtorb_cdr::Version;
use rtorb_giop::{FrameProtocol, fragment_chunks};

use super::now::Now;
use super::output::{Control, Next, Output};
use crate::orb::config::orb_config::ORB_FRAGMENTS;
use crate::servant::ReplyBuilder;
use crate::transport::Transport;

/// A reply buffer grown beyond this (by a large reply) is released once
/// the reply is sent, rather than kept for the connection's life.
const MAX_KEPT_REPLY_CAPACITY: usize = 64 * 1024;

/// How a connection writes: blocking or not, and the size past which a
/// message goes out as fragments.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Writer {
    pub(crate) messaging: FrameProtocol,
    /// Whether the transport blocks (thread per connection) or not.
    pub(crate) blocking: bool,
    /// Messages larger than this go out as fragments.
    pub(crate) fragment_size: Option<usize>,
}

/// Where the message handling writes: the transport, through the output
/// not yet written.
pub(crate) struct Sink<'a> {
    pub(crate) transport: &'a mut dyn Transport,
    pub(crate) output: &'a mut Output,
    pub(crate) writer: Writer,
}

impl Sink<'_> {
    /// Sends a message, as fragments when it is larger than the fragment
    /// size and of GIOP 1.2 or later (else whole). Every write of the
    /// message handling goes through here or [`Sink::send_reply`]: a
    /// blocking connection writes it at once, a nonblocking one queues it
    /// behind the replies not yet written and writes what the socket
    /// takes.
    pub(crate) fn send(&mut self, message: Bytes) -> Next {
        self.send_chunks(std::slice::from_ref(&message))
    }

    /// As [`Sink::send`], for a message in a chain of buffers.
    fn send_chunks(&mut self, chunks: &[Bytes]) -> Next {
        let len: usize = chunks.iter().map(Bytes::len).sum();
        let version = chunks.first().and_then(|c| giop_version(c));
        if let Some(max) = self
            .writer
            .fragment_size
            .filter(|_| self.fragments(len, version))
        {
            if let Ok(pieces) = fragment_chunks(chunks, max) {
                return self.write_pieces(&pieces);
            }
        }
        // Not a fragmentable message type, or small enough: sent whole.
        self.write_pieces(chunks)
    }

    /// Whether a message of `len` octets in GIOP `version` goes out as
    /// fragments.
    fn fragments(&self, len: usize, version: Option<Version>) -> bool {
        self.writer.fragment_size.is_some_and(|max| len > max)
            && self.writer.messaging == FrameProtocol::Giop
            && version.is_some_and(|v| v >= ORB_FRAGMENTS)
    }

    /// Sends the reply completed in `reply`: straight from its buffer
    /// when it is one piece that goes whole and nothing is queued before
    /// it (the common case: no copy, no reference counting), else through
    /// [`Sink::send_chunks`].
    pub(crate) fn send_reply(&mut self, reply: &mut ReplyBuilder) -> Next {
        let (len, version) = {
            let w = reply.writer();
            (w.len(), w.version())
        };
        if !self.fragments(len, Some(version)) && self.output.is_empty() {
            match reply.writer().seal() {
                Ok(Some(message)) => {
                    let written = if self.writer.blocking {
                        self.transport.send_all(message)
                    } else {
                        write_or_queue(self.transport, self.output, message)
                    };
                    if reply.writer().capacity() > MAX_KEPT_REPLY_CAPACITY {
                        drop(reply.writer().take_buffer());
                    }
                    return match written {
                        Ok(()) if self.output.is_empty() => Next::Continue,
                        Ok(()) => match self.flush() {
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
            Ok(chunks) => self.send_chunks(&chunks),
            Err(_) => Next::Close(Some(Control::MessageError)),
        }
    }

    fn write_pieces(&mut self, pieces: &[Bytes]) -> Next {
        let sent = if self.writer.blocking {
            self.transport.write_all_vectored(pieces)
        } else {
            for piece in pieces {
                self.output.push_uncharged(piece.clone());
            }
            self.flush()
        };
        match sent {
            Ok(()) => Next::Continue,
            Err(_) => Next::Close(None),
        }
    }

    /// Writes queued messages until done or the transport would block.
    pub(crate) fn flush(&mut self) -> std::io::Result<()> {
        flush(self.transport, self.output)
    }
}

/// Writes `output` to `transport` until done or the transport would
/// block.
pub(crate) fn flush(transport: &mut dyn Transport, output: &mut Output) -> std::io::Result<()> {
    let mut progressed = false;
    while !output.is_empty() {
        match output.queue_mut().write_to(transport) {
            Ok(_) => progressed = true,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
            Err(e) => return Err(e),
        }
    }
    output.wrote(progressed, &mut Now::lazy());
    Ok(())
}

/// Writes what is queued before the connection closes. While the ORB
/// shuts down (`stopping`, or on a `blocking` connection) it is written
/// blocking, within `write_timeout`; otherwise a nonblocking connection
/// makes one attempt and never waits.
pub(crate) fn write_last(
    transport: &mut dyn Transport,
    output: &mut Output,
    blocking: bool,
    stopping: bool,
    write_timeout: Duration,
) {
    if output.is_empty() {
        return;
    }
    if blocking || stopping {
        let last = transport
            .set_nonblocking(false)
            .and_then(|()| transport.set_write_timeout(Some(write_timeout)));
        if last.is_ok() {
            let _ = output.queue_mut().write_all_to(transport);
        }
        // Released before the connection's side of the stream ends.
        output.recharge();
    } else {
        let _ = flush(transport, output);
    }
}

/// Writes `message` to a nonblocking transport as far as it takes it, and
/// queues the rest (copied) on `output`.
fn write_or_queue(
    transport: &mut dyn Transport,
    output: &mut Output,
    message: &[u8],
) -> std::io::Result<()> {
    let mut rest = message;
    while !rest.is_empty() {
        match transport.writev(&[std::io::IoSlice::new(rest)]) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => rest = rest.get(n..).unwrap_or_default(),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                output.push_uncharged(Bytes::copy_from_slice(rest));
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

    #[test]
    fn the_version_is_read_from_a_giop_header() {
        assert_eq!(giop_version(b"GIOP\x01\x02\x00\x00"), Some(Version::V1_2));
        assert_eq!(giop_version(b"GIOP\x01"), None);
    }
}
