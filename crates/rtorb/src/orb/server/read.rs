//! The read half of a server connection: the incremental framing state,
//! and the clocks of a message partly received.
//!
//! Part of a message (octets of a frame, or fragments of a GIOP message
//! not yet complete) may be held for at most the incomplete-message
//! timeout. The timeout measures a lack of progress: its clock starts when
//! part of a message is first held and starts again whenever a whole
//! message completes, so a client whose messages keep completing (a
//! pipelining one whose writes end inside the next message) is never cut
//! off, while one that completes no message within the timeout is. A blocking connection reads with no timeout while no message
//! is partly received, when shutdown can end its reads (see
//! [`ServerCore::stop`]), so an idle connection costs no wake-ups; with the
//! time left of the incomplete-message timeout while one is.

use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb_giop::{FrameDecoder, FrameHeader, FrameProtocol, GiopError};

use super::ServerCore;
use super::budget::{Charge, MemoryBudget, UNCHARGED_MESSAGE};
use crate::transport::{FrameReader, Transport};

/// Why no message could be taken from what was received.
#[derive(Debug)]
pub(super) enum ReadError {
    /// The input is malformed.
    Malformed,
    /// The header announces more than what remains of the memory budget;
    /// nothing was reserved for it.
    OverBudget(FrameHeader),
    /// The header announces more than the maximum message size.
    TooLarge(FrameHeader),
}

/// The read half of a connection.
pub(super) struct ReadHalf {
    /// The incremental framing state.
    reader: FrameReader,
    /// Since when part of a message has been held without a message
    /// completing.
    partial_since: Option<Instant>,
    /// Whether the poller reported the peer's end of stream (or an
    /// error): reads go on until they return it.
    read_closed: bool,
    /// Blocking: the read timeout while no message is partly received
    /// (`None`: reads wait until input comes or shutdown ends them).
    idle_read_timeout: Option<Duration>,
    /// Blocking: the read timeout set on the transport now.
    read_timeout: Option<Duration>,
    /// What the message being received holds of the memory budget (large
    /// messages only), until it has been handled.
    charge: Charge,
}

impl ReadHalf {
    /// A read half for messages of `messaging` of at most `max` octets;
    /// `read_timeout` is the one the transport was given.
    pub(super) fn new(
        messaging: FrameProtocol,
        max: u32,
        read_timeout: Option<Duration>,
        budget: &std::sync::Arc<MemoryBudget>,
    ) -> ReadHalf {
        ReadHalf {
            reader: FrameReader::with_decoder(FrameDecoder::with_max_message_size(messaging, max)),
            partial_since: None,
            read_closed: false,
            idle_read_timeout: read_timeout,
            read_timeout,
            charge: Charge::new(budget),
        }
    }

    /// Blocking, with shutdown able to end the reads: no read timeout
    /// while no message is partly received.
    pub(super) fn wait_while_idle(&mut self) {
        self.idle_read_timeout = None;
    }

    /// Octets received and not yet handed out.
    #[inline]
    pub(super) fn buffered(&self) -> usize {
        self.reader.decoder().buffered()
    }

    /// The next whole message already received, if any. A message larger
    /// than [`UNCHARGED_MESSAGE`] is charged to the memory budget at its
    /// announced length as soon as its header has arrived, before room is
    /// made for it; one the budget cannot take is
    /// [`ReadError::OverBudget`].
    #[inline]
    pub(super) fn next_frame(&mut self) -> Result<Option<Bytes>, ReadError> {
        match self.reader.next_header() {
            Ok(Some(h)) if h.message_len() > UNCHARGED_MESSAGE.max(self.charge.held()) => {
                if !self.charge.hold(h.message_len()) {
                    return Err(ReadError::OverBudget(h));
                }
            }
            Ok(_) => {}
            Err(e) => return Err(self.malformed(&e)),
        }
        self.reader
            .next_frame()
            .map_err(|_: GiopError| ReadError::Malformed)
    }

    /// What a header that fails its checks comes to: [`ReadError::TooLarge`]
    /// if it is well formed but for its size, else
    /// [`ReadError::Malformed`].
    /// The header of the next message once it has arrived, and whether
    /// the whole message has (nothing is taken, no room made); `Err` if
    /// the input is malformed.
    #[cold]
    pub(super) fn peek_next(&mut self) -> Result<Option<(FrameHeader, bool)>, ()> {
        match self.reader.next_header() {
            Ok(Some(h)) => Ok(Some((h, self.buffered() >= h.message_len()))),
            Ok(None) => Ok(None),
            Err(_) => Err(()),
        }
    }

    #[cold]
    fn malformed(&self, e: &GiopError) -> ReadError {
        let decoder = self.reader.decoder();
        match e {
            GiopError::MessageTooLarge { .. } => decoder
                .protocol()
                .parse_header(decoder.received(), u32::MAX)
                .map_or(ReadError::Malformed, ReadError::TooLarge),
            _ => ReadError::Malformed,
        }
    }

    /// The message handed out last has been handled: what it held of the
    /// memory budget is released, and (a large message) the room made for
    /// it freed.
    #[inline]
    pub(super) fn handled(&mut self) {
        if self.charge.held() > 0 {
            self.release_large();
        }
    }

    /// The room of the framing buffer.
    #[cfg(test)]
    pub(super) fn capacity(&mut self) -> usize {
        self.reader.buffer_capacity()
    }

    #[cold]
    fn release_large(&mut self) {
        self.reader.release_buffer();
        self.charge.release();
    }

    /// The octets received of the next message, from its start (the
    /// header and what follows), as far as they have arrived.
    #[cold]
    pub(super) fn received(&self) -> &[u8] {
        self.reader.decoder().received()
    }

    /// The checked header of the message last handed out.
    #[inline]
    pub(super) fn last_header(&self) -> Option<FrameHeader> {
        self.reader.last_header().copied()
    }

    /// Reads what `transport` has into the framing buffer.
    #[inline]
    pub(super) fn fill(&mut self, transport: &mut dyn Transport) -> std::io::Result<usize> {
        self.reader.fill(transport)
    }

    /// Notes that the poller saw the peer close its side (or an error):
    /// a short read no longer means that nothing more is to be read,
    /// since the end of stream itself brings no further event.
    pub(super) fn set_read_closed(&mut self) {
        self.read_closed = true;
    }

    /// Whether the poller saw the peer close its side.
    #[inline]
    pub(super) fn read_closed(&self) -> bool {
        self.read_closed
    }

    /// Blocking: sets the read timeout for the next read, if it changes:
    /// while part of a message is held, what is left of the
    /// incomplete-message timeout (at most the idle one); otherwise the
    /// idle one, or `idle_left` of the connection's idle timeout if that
    /// is shorter.
    pub(super) fn arm_read_timeout(
        &mut self,
        transport: &mut dyn Transport,
        core: &ServerCore,
        idle_left: Option<Duration>,
    ) -> std::io::Result<()> {
        let want = match self.partial_since {
            Some(since) => {
                let left = core
                    .limits
                    .incomplete_message_timeout
                    .saturating_sub(since.elapsed())
                    .max(Duration::from_millis(1));
                Some(self.idle_read_timeout.map_or(left, |idle| idle.min(left)))
            }
            None => match (self.idle_read_timeout, idle_left) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
        };
        if want != self.read_timeout {
            transport.set_read_timeout(want)?;
            self.read_timeout = want;
        }
        Ok(())
    }

    /// Notes that a whole message (not a fragment of one still being
    /// reassembled) was received: the incomplete-message clock starts
    /// again at the next part of a message held.
    #[inline]
    pub(super) fn message_completed(&mut self) {
        self.partial_since = None;
    }

    /// Whether part of a message has been held beyond the
    /// incomplete-message timeout since the last message completed;
    /// starts the clock when part of one is first seen. Called when no whole message is buffered;
    /// `reassembling`: fragments of a message are held.
    pub(super) fn partial_expired(&mut self, core: &ServerCore, reassembling: bool) -> bool {
        let partial = self.buffered() > 0 || reassembling;
        if !partial {
            self.partial_since = None;
            return false;
        }
        let now = Instant::now();
        let since = *self.partial_since.get_or_insert(now);
        now.duration_since(since) >= core.limits.incomplete_message_timeout
    }

    /// When the incomplete-message timeout falls due, if part of a
    /// message is held.
    pub(super) fn deadline(&self, core: &ServerCore) -> Option<Instant> {
        self.partial_since
            .map(|t| t + core.limits.incomplete_message_timeout)
    }
}
