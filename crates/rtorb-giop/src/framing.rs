//! Splitting a byte stream into whole messages, for stream transports.
//!
//! A [`FrameDecoder`] is fed octets as they arrive and hands out whole
//! messages as [`Bytes`] split off its buffer, without copying them. It
//! checks each header as soon as it is complete (magic, version, message
//! type and size for GIOP; flags, type and size for GIOPlite), so a
//! hostile size is rejected before anything is buffered for it.
//! [`FrameProtocol`] encodes, decodes and starts messages in the protocol
//! a connection speaks, so that connections need not tell GIOP from
//! GIOPlite themselves.
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
use rtorb_cdr::{Encoding, Version};

use crate::fragment::Reassembler;
use crate::header::{DEFAULT_MAX_MESSAGE_SIZE, GiopError, HEADER_LEN, MessageHeader};
use crate::lite::{
    LITE_HEADER_LEN, LiteHeader, decode_lite, encode_lite, lite_reply_with_buffer,
    lite_request_with_buffer,
};
use crate::message::{
    Message, MessageWriter, ReplyHeader, RequestHeader, decode_message, encode_message,
};

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
        Ok(self.parse_header(header, max_size)?.message_len())
    }

    /// Checks a complete header and returns it.
    #[inline]
    pub fn parse_header(self, header: &[u8], max_size: u32) -> Result<FrameHeader, GiopError> {
        match self {
            FrameProtocol::Giop => MessageHeader::parse(header, max_size).map(FrameHeader::Giop),
            FrameProtocol::Lite => LiteHeader::parse(header, max_size).map(FrameHeader::Lite),
        }
    }

    /// The encoding of messages in this protocol for `encoding`: GIOPlite
    /// carries the CDR of GIOP 1.2 whatever version is asked for.
    #[inline]
    pub fn wire_encoding(self, encoding: Encoding) -> Encoding {
        match self {
            FrameProtocol::Giop => encoding,
            FrameProtocol::Lite => encoding.with_version(Version::V1_2),
        }
    }

    /// Encodes a whole message in this protocol ([`encode_message`] or
    /// [`encode_lite`]).
    pub fn encode(self, message: &Message) -> Result<Bytes, GiopError> {
        match self {
            FrameProtocol::Giop => encode_message(message),
            FrameProtocol::Lite => encode_lite(message),
        }
    }

    /// Decodes a whole message in this protocol ([`decode_message`] or
    /// [`decode_lite`]).
    pub fn decode(self, bytes: Bytes) -> Result<Message, GiopError> {
        match self {
            FrameProtocol::Giop => decode_message(bytes),
            FrameProtocol::Lite => decode_lite(bytes),
        }
    }

    /// Decodes a frame of a stream in this protocol, with the buffer of
    /// the whole message: a GIOP frame goes through `reassembler`
    /// ([`Reassembler::push_message`], `None` while a fragmented message is
    /// incomplete), a GIOPlite frame is decoded as it is.
    pub fn reassemble(
        self,
        reassembler: &mut Reassembler,
        frame: Bytes,
    ) -> Result<Option<(Message, Bytes)>, GiopError> {
        match self {
            FrameProtocol::Giop => reassembler.push_message(frame),
            FrameProtocol::Lite => decode_lite(frame.clone()).map(|m| Some((m, frame))),
        }
    }

    /// Starts a `Request` in this protocol in `buf` (cleared first, its
    /// capacity reused; see [`MessageWriter::request_with_buffer`]).
    #[inline]
    pub fn request_writer(
        self,
        buf: BytesMut,
        encoding: Encoding,
        header: &RequestHeader,
    ) -> Result<MessageWriter, GiopError> {
        match self {
            FrameProtocol::Giop => MessageWriter::request_with_buffer(buf, encoding, header),
            FrameProtocol::Lite => lite_request_with_buffer(buf, encoding, header),
        }
    }

    /// Starts a `Reply` in this protocol in `buf` (cleared first, its
    /// capacity reused; see [`MessageWriter::reply_with_buffer`]).
    #[inline]
    pub fn reply_writer(
        self,
        buf: BytesMut,
        encoding: Encoding,
        header: &ReplyHeader,
    ) -> Result<MessageWriter, GiopError> {
        match self {
            FrameProtocol::Giop => MessageWriter::reply_with_buffer(buf, encoding, header),
            FrameProtocol::Lite => lite_reply_with_buffer(buf, encoding, header),
        }
    }
}

/// The checked header of a message a [`FrameDecoder`] handed out (see
/// [`FrameDecoder::last_header`]): what the views of
/// [`crate::view`] read instead of parsing it again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameHeader {
    /// A GIOP header.
    Giop(MessageHeader),
    /// A GIOPlite header.
    Lite(LiteHeader),
}

impl FrameHeader {
    /// The length of the whole message, header included.
    #[inline]
    pub fn message_len(&self) -> usize {
        match self {
            FrameHeader::Giop(h) => h.message_len(),
            FrameHeader::Lite(h) => h.message_len(),
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
    /// The header of the next message, once it has arrived whole.
    next: Option<FrameHeader>,
    /// The header of the message last handed out.
    last: Option<FrameHeader>,
    /// Whether room for the whole next message has been reserved.
    room: bool,
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
            next: None,
            last: None,
            room: false,
        }
    }

    /// The protocol framed.
    pub fn protocol(&self) -> FrameProtocol {
        self.protocol
    }

    /// Octets received and not yet handed out.
    #[inline]
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// Appends received octets, and checks the next header if it has
    /// become complete (making room for its whole message).
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), GiopError> {
        self.buf.extend_from_slice(bytes);
        self.check_header()
    }

    /// The octets received and not yet handed out: the next message (or
    /// header) as far as it has arrived.
    pub fn received(&self) -> &[u8] {
        &self.buf
    }

    /// Moves what is buffered to a buffer of its own, of its size: the
    /// allocation made for a large message is then freed with the message
    /// handed out, rather than kept (and reused) for the stream's life.
    pub fn release_buffer(&mut self) {
        self.buf = BytesMut::from(&self.buf[..]);
        self.room = false;
    }

    /// The buffer, for a transport that reads straight into it (then calls
    /// [`FrameDecoder::next_frame`]). Only append to it.
    pub fn buffer_mut(&mut self) -> &mut BytesMut {
        &mut self.buf
    }

    /// Checks the next header once it has arrived whole; makes no room
    /// for its message.
    #[inline]
    fn parse_header(&mut self) -> Result<(), GiopError> {
        if self.next.is_none() && self.buf.len() >= self.protocol.header_len() {
            let header = self
                .protocol
                .parse_header(&self.buf, self.max_message_size)?;
            self.next = Some(header);
            self.room = false;
        }
        Ok(())
    }

    /// Checks the next header once it has arrived whole, and makes room
    /// for its whole message.
    #[inline]
    fn check_header(&mut self) -> Result<(), GiopError> {
        self.parse_header()?;
        if !self.room
            && let Some(header) = self.next
        {
            // The length is checked against the maximum: safe to reserve.
            let len = header.message_len();
            if len > self.buf.len() {
                self.buf.reserve(len - self.buf.len());
            }
            self.room = true;
        }
        Ok(())
    }

    /// The checked header of the next message, once it has arrived whole,
    /// without making room for the rest of the message: a caller that
    /// accounts for memory decides on the announced length before
    /// [`FrameDecoder::next_frame`] reserves it (until then the buffer
    /// grows only with what is received).
    ///
    /// ```
    /// use rtorb_giop::framing::{FrameDecoder, FrameProtocol};
    ///
    /// let mut f = FrameDecoder::new(FrameProtocol::Giop);
    /// // A little-endian request header announcing 1 MiB, as a transport
    /// // reads it into the buffer.
    /// f.buffer_mut()
    ///     .extend_from_slice(b"GIOP\x01\x02\x01\x00\x00\x00\x10\x00");
    /// let header = f.next_header().unwrap().unwrap();
    /// assert_eq!(header.message_len(), 12 + 1024 * 1024);
    /// assert!(f.buffer_mut().capacity() < 1024 * 1024);
    /// // Once decided on, the next call makes room for the message.
    /// assert!(f.next_frame().unwrap().is_none());
    /// assert!(f.buffer_mut().capacity() >= 12 + 1024 * 1024);
    /// ```
    #[inline]
    pub fn next_header(&mut self) -> Result<Option<FrameHeader>, GiopError> {
        self.parse_header()?;
        Ok(self.next)
    }

    /// The header of the message [`FrameDecoder::next_frame`] handed out
    /// last, as it checked it.
    #[inline]
    pub fn last_header(&self) -> Option<&FrameHeader> {
        self.last.as_ref()
    }

    /// Octets still needed to complete the next header or message; 0 when
    /// [`FrameDecoder::next_frame`] has a message (or an error) to give.
    pub fn needed(&self) -> usize {
        let header_len = self.protocol.header_len();
        match self.next {
            Some(h) => h.message_len().saturating_sub(self.buf.len()),
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
        match self.next {
            Some(h) if self.buf.len() >= h.message_len() => {
                self.last = self.next.take();
                Ok(Some(self.buf.split_to(h.message_len()).freeze()))
            }
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Content, LocateRequest};
    use crate::target::TargetAddress;
    use rtorb_cdr::ByteOrder;

    fn locate_request() -> Message {
        Message::new(
            Version::V1_2,
            ByteOrder::NATIVE,
            Content::LocateRequest(LocateRequest {
                request_id: 7,
                target: TargetAddress::Key(Bytes::from_static(b"key")),
            }),
        )
    }

    #[test]
    fn each_protocol_encodes_and_decodes_its_own_messages() {
        let m = locate_request();
        for protocol in [FrameProtocol::Giop, FrameProtocol::Lite] {
            let bytes = protocol.encode(&m).unwrap();
            let header = protocol.parse_header(&bytes, u32::MAX).unwrap();
            assert_eq!(header.message_len(), bytes.len());
            assert_eq!(protocol.decode(bytes.clone()).unwrap(), m);
            let mut r = Reassembler::new(Default::default());
            let (again, buffer) = protocol.reassemble(&mut r, bytes.clone()).unwrap().unwrap();
            assert_eq!((again, buffer), (m.clone(), bytes));
        }
        assert_eq!(
            FrameProtocol::Giop.encode(&m).unwrap(),
            encode_message(&m).unwrap()
        );
        assert_eq!(
            FrameProtocol::Lite.encode(&m).unwrap(),
            encode_lite(&m).unwrap()
        );
    }

    #[test]
    fn a_released_buffer_no_longer_holds_the_room_of_a_large_message() {
        let m = locate_request();
        let small = encode_message(&m).unwrap();
        let mut f = FrameDecoder::new(FrameProtocol::Giop);
        // A 1 MiB message, then the start of the next.
        let mut large = b"GIOP\x01\x02\x01\x03".to_vec();
        large.extend_from_slice(&(1024 * 1024u32).to_le_bytes());
        f.push(&large).unwrap();
        f.push(&vec![0; 1024 * 1024]).unwrap();
        f.push(&small[..5]).unwrap();
        let frame = f.next_frame().unwrap().unwrap();
        assert_eq!(frame.len(), 12 + 1024 * 1024);
        drop(frame);
        f.release_buffer();
        assert!(
            f.buffer_mut().capacity() < 1024,
            "{}",
            f.buffer_mut().capacity()
        );
        // The rest of the stream reads on.
        f.push(&small[5..]).unwrap();
        assert_eq!(f.next_frame().unwrap().unwrap(), small);
    }

    #[test]
    fn giop_lite_is_written_in_the_cdr_of_giop_1_2() {
        let e = Encoding::native().with_version(Version::V1_0);
        assert_eq!(FrameProtocol::Giop.wire_encoding(e), e);
        assert_eq!(
            FrameProtocol::Lite.wire_encoding(e),
            e.with_version(Version::V1_2)
        );
    }
}
