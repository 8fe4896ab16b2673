//! The input of a connection's [`Machine`](super::machine::Machine): the
//! incremental framing state, the reassembly of fragmented messages, what
//! both hold of the memory budget, and the clock of a message partly
//! received.
//!
//! Part of a message (octets of a frame, or fragments of a GIOP message
//! not yet complete) may be held for at most the incomplete-message
//! timeout. The timeout measures a lack of progress: its clock starts when
//! part of a message is first held and starts again whenever a whole
//! message completes, so a client whose messages keep completing (a
//! pipelining one whose writes end inside the next message) is never cut
//! off, while one that completes no message within the timeout is.

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb_giop::message::Message;
use rtorb_giop::{
    FrameDecoder, FrameHeader, FrameProtocol, GiopError, Reassembler, ReassemblyLimits,
};

use super::super::budget::{Charge, MemoryBudget, UNCHARGED_MESSAGE};
use super::now::Now;
use crate::transport::FrameReader;

/// Why no message could be taken from what was received.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The input is malformed.
    Malformed,
    /// The header announces more than what remains of the memory budget;
    /// nothing was reserved for it.
    OverBudget(FrameHeader),
    /// The header announces more than the maximum message size.
    TooLarge(FrameHeader),
}

/// What a connection has received and not yet handed out.
pub(crate) struct Input {
    /// The incremental framing state.
    reader: FrameReader,
    /// Since when part of a message has been held without a message
    /// completing.
    partial_since: Option<Instant>,
    /// Whether the poller reported the peer's end of stream (or an
    /// error): reads go on until they return it.
    read_closed: bool,
    /// What the message being received holds of the memory budget (large
    /// messages only), until it has been handled.
    charge: Charge,
    /// Fragments of messages not yet complete.
    reassembler: Reassembler,
    /// What the fragments held for reassembly hold of the memory budget.
    held: Charge,
}

impl Input {
    /// The input of a connection of `messaging` whose messages are at most
    /// `max` octets, charged to `budget`.
    pub(crate) fn new(messaging: FrameProtocol, max: u32, budget: &Arc<MemoryBudget>) -> Input {
        Input {
            reader: FrameReader::with_decoder(FrameDecoder::with_max_message_size(messaging, max)),
            partial_since: None,
            read_closed: false,
            charge: Charge::new(budget),
            // A reassembled message: a header and at most `max`.
            reassembler: Reassembler::with_pool(
                ReassemblyLimits::for_message(
                    usize::try_from(max)
                        .unwrap_or(usize::MAX)
                        .saturating_add(rtorb_giop::header::HEADER_LEN),
                ),
                Arc::clone(budget.blocks()),
            ),
            held: Charge::new(budget),
        }
    }

    /// Octets received and not yet handed out.
    #[inline]
    pub(crate) fn buffered(&self) -> usize {
        self.reader.decoder().buffered()
    }

    /// Whether fragments of a message are held.
    #[inline]
    pub(crate) fn reassembling(&self) -> bool {
        self.reassembler.pending() > 0
    }

    /// Whether part of a message is held: octets of a frame, or fragments.
    #[inline]
    pub(crate) fn partial(&self) -> bool {
        self.buffered() > 0 || self.reassembling()
    }

    /// Reads through `read` into the framing buffer (see
    /// [`FrameReader::fill_with`]).
    #[inline]
    pub(crate) fn receive_with(
        &mut self,
        read: impl FnOnce(&mut [u8]) -> std::io::Result<usize>,
    ) -> std::io::Result<usize> {
        self.reader.fill_with(read)
    }

    /// The next whole message already received, if any. A message larger
    /// than [`UNCHARGED_MESSAGE`] is charged to the memory budget at its
    /// announced length as soon as its header has arrived, before room is
    /// made for it; one the budget cannot take is
    /// [`ReadError::OverBudget`].
    #[inline]
    pub(crate) fn next_frame(&mut self) -> Result<Option<Bytes>, ReadError> {
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

    /// The header of the next message once it has arrived, and whether
    /// the whole message has (nothing is taken, no room made); `Err` if
    /// the input is malformed.
    #[cold]
    pub(crate) fn peek_next(&mut self) -> Result<Option<(FrameHeader, bool)>, ()> {
        match self.reader.next_header() {
            Ok(Some(h)) => Ok(Some((h, self.buffered() >= h.message_len()))),
            Ok(None) => Ok(None),
            Err(_) => Err(()),
        }
    }

    /// What a header that fails its checks comes to: [`ReadError::TooLarge`]
    /// if it is well formed but for its size, else
    /// [`ReadError::Malformed`].
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

    /// A frame that is part of a fragmented message, or a message to be
    /// decoded in full: fragments are held (charged to the memory budget
    /// before they are copied, with the copy of the message they
    /// complete) until their message is complete. `Err` if the budget
    /// cannot take a fragment, or the frame is malformed.
    #[cold]
    pub(crate) fn reassemble(
        &mut self,
        messaging: FrameProtocol,
        frame: Bytes,
        fragment: bool,
    ) -> Result<Option<(Message, Bytes)>, ()> {
        if fragment && !self.held.hold(self.reassembler.held_during(&frame)) {
            return Err(());
        }
        let reassembled = messaging.reassemble(&mut self.reassembler, frame);
        if self.held.held() > 0 {
            // What is held now, and the message completed until handled.
            let completed = match &reassembled {
                Ok(Some((_, whole))) if fragment => whole.len(),
                _ => 0,
            };
            self.held
                .hold_exactly(self.reassembler.held_bytes().saturating_add(completed));
        }
        reassembled.map_err(|_| ())
    }

    /// A message completed from fragments has been handled: what it held
    /// of the memory budget goes back.
    #[cold]
    pub(crate) fn release_reassembled(&mut self) {
        self.held.hold_exactly(self.reassembler.held_bytes());
    }

    /// The message handed out last has been handled: what it held of the
    /// memory budget is released, and (a large message) the room made for
    /// it freed.
    #[inline]
    pub(crate) fn handled(&mut self) {
        if self.charge.held() > 0 {
            self.release_large();
        }
    }

    /// The room of the framing buffer.
    #[cfg(test)]
    pub(crate) fn capacity(&mut self) -> usize {
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
    pub(crate) fn received(&self) -> &[u8] {
        self.reader.decoder().received()
    }

    /// The checked header of the message last handed out.
    #[inline]
    pub(crate) fn last_header(&self) -> Option<FrameHeader> {
        self.reader.last_header().copied()
    }

    /// Notes that the poller saw the peer close its side (or an error):
    /// a short read no longer means that nothing more is to be read,
    /// since the end of stream itself brings no further event.
    pub(crate) fn set_read_closed(&mut self) {
        self.read_closed = true;
    }

    /// Whether the poller saw the peer close its side.
    #[inline]
    pub(crate) fn read_closed(&self) -> bool {
        self.read_closed
    }

    /// Notes that a whole message (not a fragment of one still being
    /// reassembled) was received: the incomplete-message clock starts
    /// again at the next part of a message held.
    #[inline]
    pub(crate) fn message_completed(&mut self) {
        self.partial_since = None;
    }

    /// Whether part of a message has been held for `timeout` since the
    /// last message completed; starts the clock when part of one is first
    /// seen. Called when no whole message is buffered.
    pub(crate) fn partial_expired(&mut self, now: &mut Now, timeout: Duration) -> bool {
        if !self.partial() {
            self.partial_since = None;
            return false;
        }
        let now = now.get();
        let since = *self.partial_since.get_or_insert(now);
        now.saturating_duration_since(since) >= timeout
    }

    /// When `timeout` falls due for the part of a message held, if one is.
    pub(crate) fn deadline(&self, timeout: Duration) -> Option<Instant> {
        self.partial_since.map(|t| t + timeout)
    }
}
