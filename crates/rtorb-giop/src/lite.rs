//! GIOPlite: a compact form of GIOP for links between rtorb endsystems.
//!
//! GIOPlite carries the messages of GIOP 1.2 with the same meaning and the
//! same CDR, and drops what two rtorb peers do not need: the magic and
//! version (the protocol is chosen by the profile in the IOR, so both ends
//! know what they speak), the requesting principal, the reserved octets,
//! target addressing other than by object key, the 8-octet padding before
//! bodies, and the service context list when it is empty. It is an
//! Environment-Specific Inter-ORB Protocol; it never goes to a non-rtorb
//! peer.
//!
//! # Layout
//!
//! Every message starts with an 8-octet header:
//!
//! ```text
//! octet 0     flags: bit 0 byte order (1 = little endian)
//!                    bit 1 more fragments follow
//!                    bit 2 a ServiceContextList is present (Request, Reply)
//!                    bits 3-7 zero
//! octet 1     message type, numbered as in GIOP (0 Request .. 7 Fragment)
//! octet 2     Request: response_flags; Reply: reply_status;
//!             LocateReply: locate_status; otherwise zero
//! octet 3     zero
//! octets 4-7  unsigned long message size: octets after the header, in the
//!             byte order of bit 0
//! ```
//!
//! The message header follows at offset 8. CDR alignment is relative to
//! octet 0 of the header, as in GIOP, and no padding precedes a body:
//!
//! ```text
//! Request         ulong request_id; sequence<octet> object_key;
//!                 string operation; [ServiceContextList]; body
//! Reply           ulong request_id; [ServiceContextList]; body
//! CancelRequest   ulong request_id
//! LocateRequest   ulong request_id; sequence<octet> object_key
//! LocateReply     ulong request_id; body of the status as in GIOP 1.2
//!                 (IOR, system exception, or AddressingDisposition)
//! CloseConnection, MessageError: the header alone
//! Fragment        ulong request_id; continuation octets
//! ```
//!
//! Messages decode into the same [`Message`] model as GIOP, with the
//! version set to 1.2 (GIOPlite has the semantics of GIOP 1.2). A message
//! that sets bit 2 with an empty list is read as having no service
//! contexts and re-encoded without the flag; nonzero reserved bits or
//! octets are rejected.
//!
//! A Cubit `cube_octet` request is 40 octets in GIOPlite against 57 in
//! GIOP 1.2, and its reply 13 against 25 (see the `giop_sizes` example).

use bytes::{Bytes, BytesMut};
use rtorb_cdr::{ByteOrder, CdrDecode, CdrEncode, Decoder, Encoder, Encoding, Version};

use crate::header::{DEFAULT_MAX_MESSAGE_SIZE, GiopError, MsgType};
use crate::message::{
    CancelRequest, Content, Fragment, LocateReply, LocateRequest, LocateStatus, Message,
    MessageWriter, Reply, ReplyHeader, ReplyStatus, Request, RequestHeader,
};
use crate::operation::Operation;
use crate::service_context::ServiceContextList;
use crate::target::TargetAddress;

/// Length of the GIOPlite message header in octets.
pub const LITE_HEADER_LEN: usize = 8;

/// Flags bit 0: the message is little-endian.
pub const LITE_FLAG_LITTLE_ENDIAN: u8 = 0x01;
/// Flags bit 1: more fragments follow.
pub const LITE_FLAG_MORE_FRAGMENTS: u8 = 0x02;
/// Flags bit 2: a service context list follows the request or reply
/// header fields.
pub const LITE_FLAG_SERVICE_CONTEXTS: u8 = 0x04;

const LITE_FLAGS_MASK: u8 =
    LITE_FLAG_LITTLE_ENDIAN | LITE_FLAG_MORE_FRAGMENTS | LITE_FLAG_SERVICE_CONTEXTS;

const NOT_LITE: &str = "GIOPlite";

/// A parsed GIOPlite message header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LiteHeader {
    /// Byte order of the message.
    pub order: ByteOrder,
    /// More fragments follow.
    pub more_fragments: bool,
    /// A service context list is present.
    pub service_contexts: bool,
    /// The message type.
    pub msg_type: MsgType,
    /// Octet 2: response flags, reply status or locate status.
    pub info: u8,
    /// Octets after the header.
    pub size: u32,
}

impl LiteHeader {
    /// Parses and checks the first [`LITE_HEADER_LEN`] octets of `bytes`.
    pub fn parse(bytes: &[u8], max_size: u32) -> Result<LiteHeader, GiopError> {
        let h: &[u8; LITE_HEADER_LEN] = bytes
            .get(..LITE_HEADER_LEN)
            .and_then(|s| s.try_into().ok())
            .ok_or(GiopError::Truncated {
                needed: LITE_HEADER_LEN,
                available: bytes.len(),
            })?;
        let flags = h[0];
        if flags & !LITE_FLAGS_MASK != 0 {
            return Err(GiopError::InvalidFlags(flags));
        }
        let msg_type = MsgType::from_u8(h[1]).ok_or(GiopError::UnknownMessageType(h[1]))?;
        let service_contexts = flags & LITE_FLAG_SERVICE_CONTEXTS != 0;
        if service_contexts && !matches!(msg_type, MsgType::Request | MsgType::Reply) {
            return Err(GiopError::InvalidFlags(flags));
        }
        let info_allowed = matches!(
            msg_type,
            MsgType::Request | MsgType::Reply | MsgType::LocateReply
        );
        if (h[2] != 0 && !info_allowed) || h[3] != 0 {
            return Err(GiopError::InvalidFlags(if h[3] != 0 { h[3] } else { h[2] }));
        }
        let order = if flags & LITE_FLAG_LITTLE_ENDIAN != 0 {
            ByteOrder::Little
        } else {
            ByteOrder::Big
        };
        let s = [h[4], h[5], h[6], h[7]];
        let size = match order {
            ByteOrder::Big => u32::from_be_bytes(s),
            ByteOrder::Little => u32::from_le_bytes(s),
        };
        if size > max_size {
            return Err(GiopError::MessageTooLarge {
                size: size as u64,
                max: max_size,
            });
        }
        Ok(LiteHeader {
            order,
            more_fragments: flags & LITE_FLAG_MORE_FRAGMENTS != 0,
            service_contexts,
            msg_type,
            info: h[2],
            size,
        })
    }

    /// The 8 octets of the header.
    pub fn encode(&self) -> [u8; LITE_HEADER_LEN] {
        let mut flags = self.order.flag();
        if self.more_fragments {
            flags |= LITE_FLAG_MORE_FRAGMENTS;
        }
        if self.service_contexts {
            flags |= LITE_FLAG_SERVICE_CONTEXTS;
        }
        let s = match self.order {
            ByteOrder::Big => self.size.to_be_bytes(),
            ByteOrder::Little => self.size.to_le_bytes(),
        };
        [
            flags,
            self.msg_type.as_u8(),
            self.info,
            0,
            s[0],
            s[1],
            s[2],
            s[3],
        ]
    }

    /// The length of the whole message, header included.
    pub fn message_len(&self) -> usize {
        LITE_HEADER_LEN + self.size as usize
    }
}

/// Decodes a whole GIOPlite message with the default maximum size.
pub fn decode_lite(bytes: Bytes) -> Result<Message, GiopError> {
    decode_lite_with_max(bytes, DEFAULT_MAX_MESSAGE_SIZE)
}

/// Decodes a whole GIOPlite message whose size may be at most `max_size`.
/// Bodies and object keys are slices of `bytes`.
pub fn decode_lite_with_max(bytes: Bytes, max_size: u32) -> Result<Message, GiopError> {
    let h = LiteHeader::parse(&bytes, max_size)?;
    crate::message::check_whole_message(bytes.len(), LITE_HEADER_LEN, h.size)?;
    let v = Version::V1_2;
    let enc = Encoding::native().with_order(h.order).with_version(v);
    let mut d = Decoder::with_position(bytes, 0, LITE_HEADER_LEN, enc);
    let read_sc = |d: &mut Decoder| -> Result<ServiceContextList, GiopError> {
        if h.service_contexts {
            Ok(ServiceContextList::decode(d)?)
        } else {
            Ok(ServiceContextList::new())
        }
    };
    let content = match h.msg_type {
        MsgType::Request => {
            let request_id = d.read_u32()?;
            let key = d.read_octet_seq()?;
            let operation = Operation::decode(&mut d)?;
            let service_context = read_sc(&mut d)?;
            Content::Request(Request {
                header: RequestHeader {
                    request_id,
                    response_flags: h.info,
                    target: TargetAddress::Key(key),
                    operation,
                    service_context,
                    requesting_principal: Bytes::new(),
                    reserved: [0; 3],
                },
                body_offset: d.offset(),
                body: d.rest(),
            })
        }
        MsgType::Reply => {
            let request_id = d.read_u32()?;
            let reply_status =
                ReplyStatus::from_u32(h.info as u32, v).ok_or(GiopError::InvalidReplyStatus {
                    status: h.info as u32,
                    version: v,
                })?;
            let service_context = read_sc(&mut d)?;
            Content::Reply(Reply {
                header: ReplyHeader {
                    request_id,
                    reply_status,
                    service_context,
                },
                body_offset: d.offset(),
                body: d.rest(),
            })
        }
        MsgType::CancelRequest => Content::CancelRequest(CancelRequest {
            request_id: d.read_u32()?,
        }),
        MsgType::LocateRequest => Content::LocateRequest(LocateRequest {
            request_id: d.read_u32()?,
            target: TargetAddress::Key(d.read_octet_seq()?),
        }),
        MsgType::LocateReply => {
            let request_id = d.read_u32()?;
            let status = LocateStatus::decode_body(h.info as u32, &mut d)?;
            Content::LocateReply(LocateReply { request_id, status })
        }
        MsgType::CloseConnection => Content::CloseConnection,
        MsgType::MessageError => Content::MessageError,
        MsgType::Fragment => Content::Fragment(Fragment {
            request_id: Some(d.read_u32()?),
            body_offset: d.offset(),
            body: d.rest(),
        }),
    };
    Ok(Message {
        version: v,
        order: h.order,
        more_fragments: h.more_fragments,
        content,
        realign: None,
    })
}

fn start(
    mut buf: BytesMut,
    encoding: Encoding,
    msg_type: MsgType,
    more_fragments: bool,
    service_contexts: bool,
    info: u8,
) -> Encoder {
    let header = LiteHeader {
        order: encoding.order,
        more_fragments,
        service_contexts,
        msg_type,
        info,
        size: 0,
    };
    buf.clear();
    buf.extend_from_slice(&header.encode());
    Encoder::with_buffer(buf, encoding.with_version(Version::V1_2))
}

fn new_buffer() -> BytesMut {
    BytesMut::with_capacity(128)
}

fn object_key(target: &TargetAddress) -> Result<&Bytes, GiopError> {
    target.object_key().ok_or(GiopError::NotRepresentable {
        what: "a target other than an object key",
        protocol: NOT_LITE,
    })
}

fn request_writer(
    buf: BytesMut,
    encoding: Encoding,
    h: &RequestHeader,
    more_fragments: bool,
) -> Result<MessageWriter, GiopError> {
    let key = object_key(&h.target)?;
    let sc = !h.service_context.is_empty();
    let mut e = start(
        buf,
        encoding,
        MsgType::Request,
        more_fragments,
        sc,
        h.response_flags,
    );
    e.write_u32(h.request_id);
    e.write_octet_seq(key)?;
    h.operation.encode(&mut e)?;
    if sc {
        h.service_context.encode(&mut e)?;
    }
    Ok(MessageWriter::from_parts(e, LITE_HEADER_LEN, 4, 1))
}

fn reply_writer(
    buf: BytesMut,
    encoding: Encoding,
    h: &ReplyHeader,
    more_fragments: bool,
) -> Result<MessageWriter, GiopError> {
    let sc = !h.service_context.is_empty();
    let mut e = start(
        buf,
        encoding,
        MsgType::Reply,
        more_fragments,
        sc,
        h.reply_status as u8,
    );
    e.write_u32(h.request_id);
    if sc {
        h.service_context.encode(&mut e)?;
    }
    Ok(MessageWriter::from_parts(e, LITE_HEADER_LEN, 4, 1))
}

impl MessageWriter {
    /// Starts a GIOPlite `Reply` without service contexts in this writer,
    /// in place of what it held, reusing its buffer: the GIOPlite
    /// counterpart of [`MessageWriter::restart_reply`], giving the octets
    /// [`lite_reply_with_buffer`] gives for the same header.
    #[inline]
    pub fn restart_lite_reply(&mut self, encoding: Encoding, request_id: u32, status: ReplyStatus) {
        let header = LiteHeader {
            order: encoding.order,
            more_fragments: false,
            service_contexts: false,
            msg_type: MsgType::Reply,
            info: status as u8,
            size: 0,
        }
        .encode();
        let id = match encoding.order {
            ByteOrder::Big => request_id.to_be_bytes(),
            ByteOrder::Little => request_id.to_le_bytes(),
        };
        let mut octets = [0u8; LITE_HEADER_LEN + 4];
        octets[..LITE_HEADER_LEN].copy_from_slice(&header);
        octets[LITE_HEADER_LEN..].copy_from_slice(&id);
        self.restart_with(
            encoding.with_version(Version::V1_2),
            &octets,
            LITE_HEADER_LEN,
            4,
            1,
        );
    }
}

/// Starts a GIOPlite `Request` in the byte order and code sets of
/// `encoding`; append the arguments through [`MessageWriter::body`].
pub fn lite_request(encoding: Encoding, h: &RequestHeader) -> Result<MessageWriter, GiopError> {
    request_writer(new_buffer(), encoding, h, false)
}

/// As [`lite_request`], writing into `buf` (cleared first) so that its
/// capacity is reused (see [`MessageWriter::with_buffer`]).
pub fn lite_request_with_buffer(
    buf: BytesMut,
    encoding: Encoding,
    h: &RequestHeader,
) -> Result<MessageWriter, GiopError> {
    request_writer(buf, encoding, h, false)
}

/// Starts a GIOPlite `Reply`; append the results through
/// [`MessageWriter::body`].
pub fn lite_reply(encoding: Encoding, h: &ReplyHeader) -> Result<MessageWriter, GiopError> {
    reply_writer(new_buffer(), encoding, h, false)
}

/// As [`lite_reply`], writing into `buf` (cleared first) so that its
/// capacity is reused (see [`MessageWriter::with_buffer`]).
pub fn lite_reply_with_buffer(
    buf: BytesMut,
    encoding: Encoding,
    h: &ReplyHeader,
) -> Result<MessageWriter, GiopError> {
    reply_writer(buf, encoding, h, false)
}

/// Encodes a whole message as GIOPlite (its `version` is not used).
pub fn encode_lite(m: &Message) -> Result<Bytes, GiopError> {
    let encoding = Encoding::native().with_order(m.order);
    let w = match &m.content {
        Content::Request(r) => {
            let mut w = request_writer(new_buffer(), encoding, &r.header, m.more_fragments)?;
            w.body().write_raw(&r.body);
            w
        }
        Content::Reply(r) => {
            let mut w = reply_writer(new_buffer(), encoding, &r.header, m.more_fragments)?;
            w.body().write_raw(&r.body);
            w
        }
        Content::LocateReply(l) => {
            let code = l.status.code() as u8;
            let mut e = start(
                new_buffer(),
                encoding,
                MsgType::LocateReply,
                m.more_fragments,
                false,
                code,
            );
            e.write_u32(l.request_id);
            l.status.encode_body(&mut e)?;
            MessageWriter::from_parts(e, LITE_HEADER_LEN, 4, 1)
        }
        other => {
            let mut e = start(
                new_buffer(),
                encoding,
                other.msg_type(),
                m.more_fragments,
                false,
                0,
            );
            match other {
                Content::CancelRequest(c) => e.write_u32(c.request_id),
                Content::LocateRequest(l) => {
                    e.write_u32(l.request_id);
                    e.write_octet_seq(object_key(&l.target)?)?;
                }
                Content::Fragment(f) => {
                    let id = f.request_id.ok_or(GiopError::NotRepresentable {
                        what: "a fragment without request id",
                        protocol: NOT_LITE,
                    })?;
                    e.write_u32(id);
                    e.write_raw(&f.body);
                }
                _ => {}
            }
            MessageWriter::from_parts(e, LITE_HEADER_LEN, 4, 1)
        }
    };
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_restarted_lite_reply_has_the_octets_of_a_new_one() {
        let statuses = [
            ReplyStatus::NoException,
            ReplyStatus::UserException,
            ReplyStatus::SystemException,
            ReplyStatus::LocationForward,
        ];
        let mut w = MessageWriter::empty(Encoding::native());
        for order in [ByteOrder::Big, ByteOrder::Little] {
            let encoding = Encoding::native().with_order(order);
            for (i, status) in statuses.into_iter().enumerate() {
                let id = 0x0102_0304 + i as u32;
                let mut fresh = lite_reply_with_buffer(
                    BytesMut::new(),
                    encoding,
                    &ReplyHeader::new(id, status),
                )
                .unwrap();
                fresh.body().write_u16(7);
                fresh.body().write_u64(9);
                let fresh = fresh.finish().unwrap();
                // The same writer each time, as a server connection keeps it.
                w.restart_lite_reply(encoding, id, status);
                w.body().write_u16(7);
                w.body().write_u64(9);
                let again = w.seal().unwrap().unwrap().to_vec();
                assert_eq!(again, fresh[..], "{order:?} {status:?}");
                let m = decode_lite(Bytes::from(again)).unwrap();
                match m.content {
                    Content::Reply(r) => {
                        assert_eq!(r.header.request_id, id);
                        assert_eq!(r.header.reply_status, status);
                    }
                    other => panic!("{other:?}"),
                }
            }
        }
    }
}
