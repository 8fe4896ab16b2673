//! Sending chains of buffers and receiving whole messages over a
//! [`Transport`], blocking or nonblocking.

use std::collections::VecDeque;
use std::io::{self, IoSlice};

use bytes::{Buf, Bytes};
use rtorb_giop::{FrameDecoder, FrameProtocol, GiopError};

use super::{MAX_GATHER, Transport, TransportError};

/// Outgoing buffers not yet written, with the progress of partial writes.
///
/// A nonblocking sender queues messages (as the chunks of
/// [`MessageWriter::finish_chunks`](rtorb_giop::MessageWriter::finish_chunks))
/// and calls [`OutChain::write_to`] whenever the transport is writable;
/// each call is one gathered write of up to [`MAX_GATHER`] buffers.
#[derive(Debug, Default)]
pub struct OutChain {
    bufs: VecDeque<Bytes>,
    len: usize,
}

impl OutChain {
    /// An empty chain.
    pub fn new() -> OutChain {
        OutChain::default()
    }

    /// Queues a buffer (empty ones are dropped).
    pub fn push(&mut self, buf: Bytes) {
        if !buf.is_empty() {
            self.len += buf.len();
            self.bufs.push_back(buf);
        }
    }

    /// Queues every buffer of a message.
    pub fn extend(&mut self, bufs: impl IntoIterator<Item = Bytes>) {
        for b in bufs {
            self.push(b);
        }
    }

    /// Octets still to be written.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether everything has been written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// One gathered write of the front of the chain; returns the octets
    /// written and drops them from the chain. `WouldBlock` and other errors
    /// leave the chain as it was.
    pub fn write_to<T: Transport + ?Sized>(&mut self, transport: &mut T) -> io::Result<usize> {
        if self.is_empty() {
            return Ok(0);
        }
        let mut slices: [IoSlice<'_>; MAX_GATHER] = [IoSlice::new(&[]); MAX_GATHER];
        let mut n = 0;
        for (slot, b) in slices.iter_mut().zip(self.bufs.iter()) {
            *slot = IoSlice::new(b);
            n += 1;
        }
        let written = transport.writev(&slices[..n])?;
        if written == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        self.consume(written);
        Ok(written)
    }

    /// Writes the whole chain, blocking; retries on `Interrupted`.
    pub fn write_all_to<T: Transport + ?Sized>(&mut self, transport: &mut T) -> io::Result<()> {
        while !self.is_empty() {
            match self.write_to(transport) {
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    fn consume(&mut self, mut n: usize) {
        self.len = self.len.saturating_sub(n);
        while n > 0 {
            let Some(front) = self.bufs.front_mut() else {
                break;
            };
            if n >= front.len() {
                n -= front.len();
                self.bufs.pop_front();
            } else {
                front.advance(n);
                n = 0;
            }
        }
    }
}

/// The least a [`FrameReader`] asks the system for in one read: a
/// [`FrameReader::fill`] that returns fewer octets has emptied what the
/// stream had received (for an edge-triggered poller, as good as
/// `WouldBlock`).
pub const MIN_READ: usize = 8 * 1024;
/// The most a [`FrameReader`] asks the system for in one read.
const MAX_READ: usize = 256 * 1024;

/// Reads a transport's byte stream into whole messages with a
/// [`FrameDecoder`].
///
/// Blocking callers use [`FrameReader::read_frame`]; a reactor calls
/// [`FrameReader::fill`] when the transport is readable and then takes
/// messages with [`FrameReader::next_frame`] until it returns `None`.
pub struct FrameReader {
    decoder: FrameDecoder,
    /// Where small reads land before they are appended to the decoder's
    /// buffer: zeroed once, rather than zeroing fresh buffer space before
    /// every read.
    scratch: Vec<u8>,
}

impl std::fmt::Debug for FrameReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameReader")
            .field("decoder", &self.decoder)
            .finish_non_exhaustive()
    }
}

impl FrameReader {
    /// A reader for `protocol` with the default maximum message size.
    pub fn new(protocol: FrameProtocol) -> FrameReader {
        FrameReader::with_decoder(FrameDecoder::new(protocol))
    }

    /// A reader around a configured decoder.
    pub fn with_decoder(decoder: FrameDecoder) -> FrameReader {
        FrameReader {
            decoder,
            scratch: Vec::new(),
        }
    }

    /// The decoder.
    pub fn decoder(&self) -> &FrameDecoder {
        &self.decoder
    }

    /// One read from the transport into the decoder's buffer, sized to what
    /// the next message still needs (within bounds); returns the octets
    /// read, 0 at end of stream.
    pub fn fill<T: Transport + ?Sized>(&mut self, transport: &mut T) -> io::Result<usize> {
        self.fill_with(|buf| transport.read(buf))
    }

    /// As [`FrameReader::fill`], with `read` doing the read (a transport's,
    /// or one that hands out octets a test holds): it is called once, with
    /// the room to read into, and returns the octets it put there.
    #[inline]
    pub fn fill_with(
        &mut self,
        read: impl FnOnce(&mut [u8]) -> io::Result<usize>,
    ) -> io::Result<usize> {
        let want = if self.decoder.buffered() == 0 {
            MIN_READ
        } else {
            self.decoder.needed().clamp(MIN_READ, MAX_READ)
        };
        if want <= MIN_READ {
            // A small message, or the start of one: read into the scratch
            // buffer and copy what arrived (usually far less than `want`).
            if self.scratch.len() < MIN_READ {
                self.scratch.resize(MIN_READ, 0);
            }
            let scratch = self.scratch.get_mut(..MIN_READ).unwrap_or_default();
            let got = read(scratch)?.min(MIN_READ);
            let buf = self.decoder.buffer_mut();
            if buf.capacity() - buf.len() < got {
                // Room for many small messages at once: the buffer is
                // reclaimed (or grown) once per that many, not per read.
                buf.reserve(MIN_READ);
            }
            buf.extend_from_slice(scratch.get(..got).unwrap_or_default());
            return Ok(got);
        }
        let buf = self.decoder.buffer_mut();
        let start = buf.len();
        buf.resize(start + want, 0);
        let result = read(&mut buf[start..]);
        let got = match &result {
            Ok(n) => (*n).min(want),
            Err(_) => 0,
        };
        buf.truncate(start + got);
        result.map(|_| got)
    }

    /// The checked header of the message last handed out (see
    /// [`FrameDecoder::last_header`]).
    #[inline]
    pub fn last_header(&self) -> Option<&rtorb_giop::FrameHeader> {
        self.decoder.last_header()
    }

    /// The checked header of the next message, once it has arrived, with
    /// no room made for the message yet (see
    /// [`FrameDecoder::next_header`]).
    #[inline]
    pub fn next_header(&mut self) -> Result<Option<rtorb_giop::FrameHeader>, GiopError> {
        self.decoder.next_header()
    }

    /// The room of the buffer messages are received in.
    pub fn buffer_capacity(&mut self) -> usize {
        self.decoder.buffer_mut().capacity()
    }

    /// Frees the room made for large messages already handed out (see
    /// [`FrameDecoder::release_buffer`]).
    pub fn release_buffer(&mut self) {
        self.decoder.release_buffer();
    }

    /// The next whole message already received, if any.
    pub fn next_frame(&mut self) -> Result<Option<Bytes>, GiopError> {
        self.decoder.next_frame()
    }

    /// Reads until a whole message has arrived and returns it; `None` when
    /// the peer closed the connection between messages. Retries on
    /// `Interrupted`; other errors (a read timeout, `WouldBlock`) are
    /// returned, and the octets already received stay buffered.
    pub fn read_frame<T: Transport + ?Sized>(
        &mut self,
        transport: &mut T,
    ) -> Result<Option<Bytes>, TransportError> {
        loop {
            // Nothing buffered (the usual case between messages): straight
            // to the read.
            if self.decoder.buffered() > 0
                && let Some(frame) = self.decoder.next_frame()?
            {
                return Ok(Some(frame));
            }
            match self.fill(transport) {
                Ok(0) => {
                    let buffered = self.decoder.buffered();
                    return if buffered == 0 {
                        Ok(None)
                    } else {
                        Err(TransportError::TruncatedMessage { buffered })
                    };
                }
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
}
