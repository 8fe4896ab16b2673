//! Splitting a byte stream into whole messages, for stream transports.
//!
//! A [`FrameDecoder`] is fed octets as they arrive and hands out whole
//! messages as [`Bytes`] split off its buffer, without copying them. It
//! checks each header as soon as it is complete (magic, version, message
//! type and size for GIOP; flags, type and size for GIOPlite), so a
//! hostile size is rejected before anything is buffered for it.
//!
//! ```
//! use rtorb_giop::framing::{FrameDecoder, FrameProtocol};
//!
//! let msg = b"GIOP\x01\x02\x00\x05\x00\x00\x00\x00"; // CloseConnection
//! let mut f = FrameDecoder::new(FrameProtocol::Giop);
//! assert_eq!(f.needed(), 12);
//! f.push(&msg[..5]).unwrap();
//! assert_eq!(f.needed(), 7);
//! assert!(f.next_frame().unwrap().is_none());
//! f.push(&msg[5..]).unwrap();
//! assert_eq!(&f.next_frame().unwrap().unwrap()[..], &msg[..]);
//! ```

use bytes::{Bytes, BytesMut};

use crate::header::{DEFAULT_MAX_MESSAGE_SIZE, GiopError, HEADER_LEN, MessageHeader};
use crate::lite::{LITE_HEADER_LEN, LiteHeader};

/// Which message protocol a stream carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FrameProtocol {
    /// GIOP (12-octet headers).
    Giop,
    /// GIOPlite (8-octet headers).
    Lite,
}

impl FrameProtocol {
    /// Octets of a message header.
    pub fn header_len(self) -> usize {
        match self {
            FrameProtocol::Giop => HEADER_LEN,
            FrameProtocol::Lite => LITE_HEADER_LEN,
        }
    }

    /// Checks a complete header and returns the length of its whole
    /// message.
    #[inline]
    pub fn message_len(self, header: &[u8], max_size: u32) -> Result<usize, GiopError> {
        match self {
            FrameProtocol::Giop => Ok(MessageHeader::parse(header, max_size)?.message_len()),
            FrameProtocol::Lite => Ok(LiteHeader::parse(header, max_size)?.message_len()),
        }
    }
}

/// Reassembles a byte stream into whole messages.
///
/// After an error the stream cannot be resynchronised: the connection
/// should send a `MessageError` and close.
#[derive(Debug)]
pub struct FrameDecoder {
    buf: BytesMut,
    protocol: FrameProtocol,
    max_message_size: u32,
    next_len: Option<usize>,
}

impl FrameDecoder {
    /// A decoder for `protocol` with the default maximum message size.
    pub fn new(protocol: FrameProtocol) -> FrameDecoder {
        FrameDecoder::with_max_message_size(protocol, DEFAULT_MAX_MESSAGE_SIZE)
    }

    /// A decoder that rejects messages with more than `max` octets after
    /// the header.
    pub fn with_max_message_size(protocol: FrameProtocol, max: u32) -> FrameDecoder {
        FrameDecoder {
            buf: BytesMut::new(),
            protocol,
            max_message_size: max,
            next_len: None,
        }
    }

    /// The protocol framed.
    pub fn protocol(&self) -> FrameProtocol {
        self.protocol
    }

    /// Octets received and not yet handed out.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// Appends received octets, and checks the next header if it has
    /// become complete.
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), GiopError> {
        self.buf.extend_from_slice(bytes);
        self.check_header()
    }

    /// The buffer, for a transport that reads straight into it (then calls
    /// [`FrameDecoder::next_frame`]). Only append to it.
    pub fn buffer_mut(&mut self) -> &mut BytesMut {
        &mut self.buf
    }

    #[inline]
    fn check_header(&mut self) -> Result<(), GiopError> {
        if self.next_len.is_none() && self.buf.len() >= self.protocol.header_len() {
            let len = self
                .protocol
                .message_len(&self.buf, self.max_message_size)?;
            self.next_len = Some(len);
            // The length is checked against the maximum: safe to reserve.
            self.buf.reserve(len.saturating_sub(self.buf.len()));
        }
        Ok(())
    }

    /// Octets still needed to complete the next header or message; 0 when
    /// [`FrameDecoder::next_frame`] has a message (or an error) to give.
    pub fn needed(&self) -> usize {
        let header_len = self.protocol.header_len();
        match self.next_len {
            Some(len) => len.saturating_sub(self.buf.len()),
            None if self.buf.len() < header_len => header_len - self.buf.len(),
            None => match self.protocol.message_len(&self.buf, self.max_message_size) {
                Ok(len) => len.saturating_sub(self.buf.len()),
                Err(_) => 0,
            },
        }
    }

    /// The next whole message, if it has arrived.
    #[inline]
    pub fn next_frame(&mut self) -> Result<Option<Bytes>, GiopError> {
        self.check_header()?;
        match self.next_len {
            Some(len) if self.buf.len() >= len => {
                self.next_len = None;
                Ok(Some(self.buf.split_to(len).freeze()))
            }
            _ => Ok(None),
        }
    }
}
