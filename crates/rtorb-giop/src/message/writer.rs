//! Writing messages: [`MessageWriter`] writes the headers and lets the
//! caller append the body; [`RequestTemplate`] copies the headers of one
//! request into the next.

use bytes::{Bytes, BytesMut};
use rtorb_cdr::{ByteOrder, CdrEncode, Encoder, Encoding, Version};

use super::reply::{ReplyHeader, ReplyStatus, check_reply};
use super::request::RequestHeader;
use crate::header::{
    GiopError, HEADER_LEN, MessageHeader, MsgType, has_12_layout, is_supported_version,
    not_representable,
};
use crate::target::TargetAddress;

/// Writes a GIOP message: the header, the message header, then a body the
/// caller appends through [`MessageWriter::body`]; [`MessageWriter::finish`]
/// fills in the message size.
///
/// ```
/// use rtorb_cdr::{ByteOrder, Encoding, Version};
/// use rtorb_giop::message::{MessageWriter, RequestHeader, decode_message, Content};
///
/// let enc = Encoding::native().with_order(ByteOrder::Big).with_version(Version::V1_2);
/// let header = RequestHeader::new(7, "Cubit".into(), "cube_long");
/// let mut w = MessageWriter::request(enc, &header).unwrap();
/// w.body().write_i32(3);
/// let bytes = w.finish().unwrap();
/// let msg = decode_message(bytes.clone()).unwrap();
/// let Content::Request(req) = msg.content else { panic!() };
/// assert_eq!(req.body_offset % 8, 0);
/// assert_eq!(&req.body[..], &[0, 0, 0, 3]);
/// ```
#[derive(Debug)]
pub struct MessageWriter {
    enc: Encoder,
    header_len: usize,
    size_at: usize,
    body_align: usize,
    header_end: usize,
    body_start: Option<usize>,
}

impl MessageWriter {
    /// A writer whose encoder already holds a protocol header of
    /// `header_len` octets with a size field at `size_at`; bodies are
    /// aligned on `body_align`.
    pub(crate) fn from_parts(
        enc: Encoder,
        header_len: usize,
        size_at: usize,
        body_align: usize,
    ) -> MessageWriter {
        let header_end = enc.len();
        MessageWriter {
            enc,
            header_len,
            size_at,
            body_align,
            header_end,
            body_start: None,
        }
    }

    /// Starts a message of type `msg_type` in the version and byte order of
    /// `encoding`: writes the 12-octet header with a placeholder size.
    pub fn new(
        encoding: Encoding,
        msg_type: MsgType,
        more_fragments: bool,
    ) -> Result<MessageWriter, GiopError> {
        MessageWriter::with_buffer(
            BytesMut::with_capacity(256),
            encoding,
            msg_type,
            more_fragments,
        )
    }

    /// As [`MessageWriter::new`], writing into `buf` (cleared first) so
    /// that its capacity is reused. A sender that keeps one `BytesMut`,
    /// hands out `buf.split_off(0)` for each message, and calls
    /// `buf.reserve(n)` once the previous message has been sent and
    /// dropped, writes every message into the same allocation.
    pub fn with_buffer(
        mut buf: BytesMut,
        encoding: Encoding,
        msg_type: MsgType,
        more_fragments: bool,
    ) -> Result<MessageWriter, GiopError> {
        let version = encoding.version;
        if !is_supported_version(version) {
            return Err(GiopError::UnsupportedVersion(version));
        }
        if !msg_type.allowed_in(version) {
            return Err(GiopError::MessageTypeNotInVersion { msg_type, version });
        }
        if more_fragments && version == Version::V1_0 {
            return Err(GiopError::CannotFragment);
        }
        let header = MessageHeader {
            version,
            order: encoding.order,
            more_fragments,
            msg_type,
            size: 0,
        };
        buf.clear();
        buf.extend_from_slice(&header.encode());
        let enc = Encoder::with_buffer(buf, encoding);
        let body_align =
            if has_12_layout(version) && matches!(msg_type, MsgType::Request | MsgType::Reply) {
                8
            } else {
                1
            };
        Ok(MessageWriter::from_parts(enc, HEADER_LEN, 8, body_align))
    }

    /// Starts a `Request`: header and request header.
    pub fn request(encoding: Encoding, header: &RequestHeader) -> Result<MessageWriter, GiopError> {
        MessageWriter::request_with_buffer(BytesMut::with_capacity(256), encoding, header)
    }

    /// As [`MessageWriter::request`], writing into `buf` (see
    /// [`MessageWriter::with_buffer`]).
    pub fn request_with_buffer(
        buf: BytesMut,
        encoding: Encoding,
        header: &RequestHeader,
    ) -> Result<MessageWriter, GiopError> {
        let mut w = MessageWriter::with_buffer(buf, encoding, MsgType::Request, false)?;
        w.write_headers(|e| write_request_header(e, encoding.version, header))?;
        Ok(w)
    }

    /// Starts a `Reply`: header and reply header.
    pub fn reply(encoding: Encoding, header: &ReplyHeader) -> Result<MessageWriter, GiopError> {
        MessageWriter::reply_with_buffer(BytesMut::with_capacity(256), encoding, header)
    }

    /// As [`MessageWriter::reply`], writing into `buf` (see
    /// [`MessageWriter::with_buffer`]).
    pub fn reply_with_buffer(
        buf: BytesMut,
        encoding: Encoding,
        header: &ReplyHeader,
    ) -> Result<MessageWriter, GiopError> {
        let version = encoding.version;
        if header.service_context.is_empty()
            && is_supported_version(version)
            && header.reply_status.allowed_in(version)
        {
            return Ok(MessageWriter::reply_without_contexts(
                buf,
                encoding,
                header.request_id,
                header.reply_status,
            ));
        }
        MessageWriter::reply_fields(buf, encoding, header)
    }

    /// The headers of a reply with no service contexts (every reply of
    /// rtorb's servers but the rare one with contexts): 24 octets in every
    /// version, written at once.
    fn reply_without_contexts(
        buf: BytesMut,
        encoding: Encoding,
        request_id: u32,
        status: ReplyStatus,
    ) -> MessageWriter {
        let mut w = MessageWriter::from_parts(Encoder::with_buffer(buf, encoding), 0, 0, 1);
        w.write_reply_without_contexts(encoding, request_id, status);
        w
    }

    /// Writes the 24 octets of [`MessageWriter::reply_without_contexts`]
    /// into this writer, emptied first.
    #[inline]
    fn write_reply_without_contexts(
        &mut self,
        encoding: Encoding,
        request_id: u32,
        status: ReplyStatus,
    ) {
        let version = encoding.version;
        let ulong = |v: u32| match encoding.order {
            ByteOrder::Big => v.to_be_bytes(),
            ByteOrder::Little => v.to_le_bytes(),
        };
        let h = MessageHeader {
            version,
            order: encoding.order,
            more_fragments: false,
            msg_type: MsgType::Reply,
            size: 0,
        }
        .encode();
        let v12 = has_12_layout(version);
        // GIOP 1.2: id, status, no contexts; before: no contexts, id,
        // status.
        let [a, b, c] = if v12 {
            [ulong(request_id), ulong(status as u32), [0; 4]]
        } else {
            [[0; 4], ulong(request_id), ulong(status as u32)]
        };
        let mut octets = [0u8; HEADER_LEN + 12];
        octets[..HEADER_LEN].copy_from_slice(&h);
        octets[HEADER_LEN..HEADER_LEN + 4].copy_from_slice(&a);
        octets[HEADER_LEN + 4..HEADER_LEN + 8].copy_from_slice(&b);
        octets[HEADER_LEN + 8..].copy_from_slice(&c);
        self.restart_with(encoding, &octets, HEADER_LEN, 8, if v12 { 8 } else { 1 });
    }

    /// Starts a message in this writer from its encoded headers
    /// (`headers`: the message header of `header_len` octets, its size at
    /// `size_at`, then the headers of its kind), reusing the buffer; the
    /// body is aligned on `body_align`.
    #[inline]
    pub(crate) fn restart_with(
        &mut self,
        encoding: Encoding,
        headers: &[u8],
        header_len: usize,
        size_at: usize,
        body_align: usize,
    ) {
        self.enc.restart(encoding);
        self.enc.write_raw(headers);
        self.header_len = header_len;
        self.size_at = size_at;
        self.body_align = body_align;
        self.header_end = headers.len();
        self.body_start = None;
    }

    /// Starts a `Reply` with no service contexts in this writer, in place
    /// of what it held, reusing its buffer: what a server that keeps one
    /// writer per connection calls for each reply.
    #[inline]
    pub fn restart_reply(
        &mut self,
        encoding: Encoding,
        request_id: u32,
        status: ReplyStatus,
    ) -> Result<(), GiopError> {
        check_reply(encoding.version, status)?;
        self.write_reply_without_contexts(encoding, request_id, status);
        Ok(())
    }

    /// The writer's buffer, emptied, leaving the writer with none: to
    /// start a message of another kind in the same allocation
    /// (`MessageWriter::request_with_buffer(w.take_buffer(), ..)`).
    pub fn take_buffer(&mut self) -> BytesMut {
        self.body_start = None;
        self.enc.take_buffer()
    }

    /// A writer holding nothing, without a buffer: a placeholder for one
    /// that a sender will start with a [`RequestTemplate`] or
    /// [`MessageWriter::restart_reply`].
    pub fn empty(encoding: Encoding) -> MessageWriter {
        MessageWriter::from_parts(Encoder::new(encoding), 0, 0, 1)
    }

    /// As [`MessageWriter::empty`], with `buf` (cleared) as its buffer.
    pub fn empty_with_buffer(mut buf: BytesMut, encoding: Encoding) -> MessageWriter {
        buf.clear();
        MessageWriter::from_parts(Encoder::with_buffer(buf, encoding), 0, 0, 1)
    }

    /// The headers of a reply, field by field.
    fn reply_fields(
        buf: BytesMut,
        encoding: Encoding,
        header: &ReplyHeader,
    ) -> Result<MessageWriter, GiopError> {
        let mut w = MessageWriter::with_buffer(buf, encoding, MsgType::Reply, false)?;
        w.write_headers(|e| write_reply_header(e, encoding.version, header))?;
        Ok(w)
    }

    /// Writes, with `f`, the headers of the message's type after the
    /// message header, before any body.
    pub(super) fn write_headers(
        &mut self,
        f: impl FnOnce(&mut Encoder) -> Result<(), GiopError>,
    ) -> Result<(), GiopError> {
        f(&mut self.enc)?;
        self.header_end = self.enc.len();
        Ok(())
    }

    /// The encoder for the body, positioned at its start (aligned on 8 for a
    /// GIOP 1.2 request or reply). If nothing is written, the padding is
    /// dropped again by [`MessageWriter::finish`].
    #[inline]
    pub fn body(&mut self) -> &mut Encoder {
        if self.body_start.is_none() {
            self.enc.align(self.body_align);
            self.body_start = Some(self.enc.len());
        }
        &mut self.enc
    }

    /// The capacity of the writer's buffer.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.enc.capacity()
    }

    /// The GIOP version written (1.2 for GIOPlite).
    #[inline]
    pub fn version(&self) -> Version {
        self.enc.encoding().version
    }

    /// Octets written so far, headers included.
    #[inline]
    pub fn len(&self) -> usize {
        self.enc.len()
    }

    /// Whether nothing at all has been written (never: the header is).
    pub fn is_empty(&self) -> bool {
        self.enc.is_empty()
    }

    #[inline]
    fn final_len(&self) -> Result<(usize, u32), GiopError> {
        let len = match self.body_start {
            Some(start) if start == self.enc.len() => self.header_end,
            _ => self.enc.len(),
        };
        let size = len - self.header_len;
        let size = u32::try_from(size).map_err(|_| GiopError::SizeOverflow(len))?;
        Ok((len, size))
    }

    fn size_octets(&self, size: u32) -> [u8; 4] {
        match self.enc.order() {
            ByteOrder::Big => size.to_be_bytes(),
            ByteOrder::Little => size.to_le_bytes(),
        }
    }

    /// Fills in the message size and returns the message as a chain of
    /// buffers (more than one when large octet sequences were written by
    /// reference), ready for a gathering write.
    pub fn finish_chunks(mut self) -> Result<Vec<Bytes>, GiopError> {
        let (len, size) = self.final_len()?;
        let size_octets = self.size_octets(size);
        if self.enc.as_contiguous().is_some() {
            self.enc.patch_u32(self.size_at, size);
            return Ok(vec![self.enc.into_bytes().slice(..len)]);
        }
        let (header_len, size_at) = (self.header_len, self.size_at);
        let mut chunks = self.enc.into_chunks();
        let total: usize = chunks.iter().map(Bytes::len).sum();
        let first_ok = chunks.first().is_some_and(|c| c.len() >= header_len);
        if !first_ok || total != len {
            let mut all = BytesMut::with_capacity(total);
            for c in &chunks {
                all.extend_from_slice(c);
            }
            all.truncate(len);
            if let Some(slot) = all.get_mut(size_at..size_at + 4) {
                slot.copy_from_slice(&size_octets);
            }
            return Ok(vec![all.freeze()]);
        }
        let first = chunks.remove(0);
        let mut head = BytesMut::from(&first[..header_len]);
        head[size_at..size_at + 4].copy_from_slice(&size_octets);
        let rest = first.slice(header_len..);
        let mut out = Vec::with_capacity(chunks.len() + 2);
        out.push(head.freeze());
        if !rest.is_empty() {
            out.push(rest);
        }
        out.extend(chunks);
        Ok(out)
    }

    /// Fills in the message size and returns the whole message as one
    /// slice of the writer's buffer, or `None` if it is a chain (octet
    /// sequences were written by reference; use
    /// [`MessageWriter::take_chunks`]). The writer keeps the message, and
    /// its buffer, until it is started again: a sender writes the slice
    /// and reuses the writer, with no reference counting or allocation.
    #[inline]
    pub fn seal(&mut self) -> Result<Option<&[u8]>, GiopError> {
        if self.enc.as_contiguous().is_none() {
            return Ok(None);
        }
        let (len, size) = self.final_len()?;
        self.enc.patch_u32(self.size_at, size);
        Ok(self.enc.as_contiguous().and_then(|m| m.get(..len)))
    }

    /// As [`MessageWriter::finish_chunks`], leaving this writer empty
    /// (as [`MessageWriter::empty`]).
    pub fn take_chunks(&mut self) -> Result<Vec<Bytes>, GiopError> {
        let encoding = self.enc.encoding();
        std::mem::replace(self, MessageWriter::empty(encoding)).finish_chunks()
    }

    /// Fills in the message size and returns the message as one buffer.
    pub fn finish(mut self) -> Result<Bytes, GiopError> {
        if self.enc.as_contiguous().is_some() {
            let (len, size) = self.final_len()?;
            self.enc.patch_u32(self.size_at, size);
            let mut bytes = self.enc.into_bytes();
            if bytes.len() > len {
                bytes.truncate(len);
            }
            return Ok(bytes);
        }
        let mut chunks = self.finish_chunks()?;
        if chunks.len() == 1 {
            return Ok(chunks.pop().unwrap_or_default());
        }
        let total = chunks.iter().map(Bytes::len).sum();
        let mut all = BytesMut::with_capacity(total);
        for c in &chunks {
            all.extend_from_slice(c);
        }
        Ok(all.freeze())
    }
}

/// The encoded headers of requests that differ only in their request id:
/// captured once from a [`MessageWriter`], then copied into each new
/// request with the id patched in, instead of encoding every field again.
///
/// In GIOP 1.0 and 1.1, where the service contexts come before the
/// request id, only requests without service contexts are captured.
#[derive(Debug, Clone)]
pub struct RequestTemplate {
    octets: Vec<u8>,
    request_id_at: usize,
    encoding: Encoding,
    header_len: usize,
    size_at: usize,
    body_align: usize,
}

impl RequestTemplate {
    /// Where the request id is in what `writer` has written, and those
    /// octets, if it holds a request's headers and nothing of its body.
    fn layout(writer: &MessageWriter) -> Option<(usize, &[u8])> {
        if writer.body_start.is_some() {
            return None;
        }
        let octets = writer.enc.as_contiguous()?;
        let version = writer.enc.encoding().version;
        let request_id_at = if writer.header_len != HEADER_LEN || has_12_layout(version) {
            // GIOPlite and GIOP 1.2: the id right after the header.
            writer.header_len
        } else if octets.get(HEADER_LEN..HEADER_LEN + 4)? == [0, 0, 0, 0] {
            // GIOP 1.0 and 1.1: an empty list of contexts, then the id.
            HEADER_LEN + 4
        } else {
            return None;
        };
        let whole = octets.len() == writer.header_end && octets.len() >= request_id_at + 4;
        whole.then_some((request_id_at, octets))
    }

    /// Captures the headers `writer` has written (see
    /// [`RequestTemplate`]); `None` if it holds more or other than a
    /// request's headers.
    pub fn capture(writer: &MessageWriter) -> Option<RequestTemplate> {
        let (request_id_at, octets) = RequestTemplate::layout(writer)?;
        Some(RequestTemplate {
            octets: octets.to_vec(),
            request_id_at,
            encoding: writer.enc.encoding(),
            header_len: writer.header_len,
            size_at: writer.size_at,
            body_align: writer.body_align,
        })
    }

    /// As [`RequestTemplate::capture`], into this template (reusing its
    /// buffer); returns whether it did (else the template is unchanged).
    pub fn recapture(&mut self, writer: &MessageWriter) -> bool {
        let Some((request_id_at, octets)) = RequestTemplate::layout(writer) else {
            return false;
        };
        self.octets.clear();
        self.octets.extend_from_slice(octets);
        self.request_id_at = request_id_at;
        self.encoding = writer.enc.encoding();
        self.header_len = writer.header_len;
        self.size_at = writer.size_at;
        self.body_align = writer.body_align;
        true
    }

    /// The encoding the headers were written in.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Starts, in `writer` (in place of what it held, reusing its
    /// buffer), a request with id `request_id`: its headers copied, ready
    /// for the body.
    #[inline]
    pub fn restart(&self, writer: &mut MessageWriter, request_id: u32) {
        writer.enc.restart(self.encoding);
        writer.enc.write_raw(&self.octets);
        writer.enc.patch_u32(self.request_id_at, request_id);
        writer.header_len = self.header_len;
        writer.size_at = self.size_at;
        writer.body_align = self.body_align;
        writer.header_end = self.octets.len();
        writer.body_start = None;
    }

    /// A writer for a request with id `request_id`, its headers copied
    /// into `buf` (cleared first), ready for the body.
    pub fn writer(&self, mut buf: BytesMut, request_id: u32) -> MessageWriter {
        buf.clear();
        buf.extend_from_slice(&self.octets);
        let id = match self.encoding.order {
            ByteOrder::Big => request_id.to_be_bytes(),
            ByteOrder::Little => request_id.to_le_bytes(),
        };
        if let Some(slot) = buf.get_mut(self.request_id_at..self.request_id_at + 4) {
            slot.copy_from_slice(&id);
        }
        MessageWriter::from_parts(
            Encoder::with_buffer(buf, self.encoding),
            self.header_len,
            self.size_at,
            self.body_align,
        )
    }
}

/// Writes the header of a `Request` in the layout of `v`.
pub(super) fn write_request_header(
    e: &mut Encoder,
    v: Version,
    h: &RequestHeader,
) -> Result<(), GiopError> {
    if has_12_layout(v) {
        e.write_u32(h.request_id);
        e.write_u8(h.response_flags);
        e.write_raw(&h.reserved);
        h.target.encode(e)?;
        h.operation.encode(e)?;
        h.service_context.encode(e)?;
    } else {
        let TargetAddress::Key(key) = &h.target else {
            return Err(not_representable("a target other than an object key", v));
        };
        h.service_context.encode(e)?;
        e.write_u32(h.request_id);
        e.write_bool(h.response_expected());
        if v >= Version::V1_1 {
            e.write_raw(&h.reserved);
        }
        e.write_octet_seq(key)?;
        h.operation.encode(e)?;
        e.write_octet_seq(&h.requesting_principal)?;
    }
    Ok(())
}

/// Writes the header of a `Reply` in the layout of `v`.
pub(super) fn write_reply_header(
    e: &mut Encoder,
    v: Version,
    h: &ReplyHeader,
) -> Result<(), GiopError> {
    if !h.reply_status.allowed_in(v) {
        return Err(not_representable("this reply status", v));
    }
    if has_12_layout(v) {
        e.write_u32(h.request_id);
        e.write_u32(h.reply_status as u32);
        h.service_context.encode(e)?;
    } else {
        h.service_context.encode(e)?;
        e.write_u32(h.request_id);
        e.write_u32(h.reply_status as u32);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn replies_without_contexts_are_written_as_field_by_field() {
        use rtorb_cdr::{ByteOrder, Encoding, Version};
        for version in [
            Version::V1_0,
            Version::V1_1,
            Version::V1_2,
            Version::new(1, 3),
        ] {
            for order in [ByteOrder::Big, ByteOrder::Little] {
                for status in [
                    super::ReplyStatus::NoException,
                    super::ReplyStatus::UserException,
                    super::ReplyStatus::SystemException,
                    super::ReplyStatus::LocationForward,
                ] {
                    for body in [&[][..], &[1, 2, 3][..]] {
                        let encoding = Encoding::native().with_order(order).with_version(version);
                        let header = super::ReplyHeader::new(0x0102_0304, status);
                        let write = |mut w: super::MessageWriter| {
                            if !body.is_empty() {
                                w.body().write_raw(body);
                            }
                            w.finish().unwrap()
                        };
                        let fast = write(super::MessageWriter::reply_without_contexts(
                            bytes::BytesMut::new(),
                            encoding,
                            0x0102_0304,
                            status,
                        ));
                        let fields = write(
                            super::MessageWriter::reply_fields(
                                bytes::BytesMut::new(),
                                encoding,
                                &header,
                            )
                            .unwrap(),
                        );
                        assert_eq!(fast, fields, "{version:?} {order:?} {status:?} {body:?}");
                    }
                }
            }
        }
    }

    use super::*;

    fn cube_long(buf: BytesMut, version: Version) -> Bytes {
        let enc = Encoding::native()
            .with_order(ByteOrder::Big)
            .with_version(version);
        let header = RequestHeader::new(7, Bytes::from_static(b"Cubit"), "cube_long");
        let mut w = MessageWriter::request_with_buffer(buf, enc, &header).unwrap();
        w.body().write_i32(3);
        w.finish().unwrap()
    }

    #[test]
    fn with_buffer_clears_the_buffer_and_writes_the_same_message() {
        for v in [Version::V1_0, Version::V1_1, Version::V1_2] {
            let enc = Encoding::native()
                .with_order(ByteOrder::Big)
                .with_version(v);
            let header = RequestHeader::new(7, Bytes::from_static(b"Cubit"), "cube_long");
            let mut w = MessageWriter::request(enc, &header).unwrap();
            w.body().write_i32(3);
            let plain = w.finish().unwrap();
            let junk = BytesMut::from(&b"leftover octets"[..]);
            assert_eq!(cube_long(junk, v), plain);
        }
    }

    #[test]
    fn with_buffer_reuses_the_allocation_once_the_message_is_dropped() {
        let mut pool = BytesMut::with_capacity(4096);
        let first = cube_long(pool.split_off(0), Version::V1_2);
        let first_ptr = first.as_ptr();
        drop(first);
        pool.reserve(256);
        let second = cube_long(pool.split_off(0), Version::V1_2);
        assert_eq!(second.as_ptr(), first_ptr);
        assert_eq!(&second[..4], b"GIOP");
    }
}
