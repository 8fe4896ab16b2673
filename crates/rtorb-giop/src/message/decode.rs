//! Decoding a whole GIOP message into a [`Message`].

use bytes::Bytes;
use rtorb_cdr::{CdrDecode, Decoder, Encoding, Version};

use super::content::{Content, Fragment, Message};
use super::locate::{LocateReply, LocateRequest, LocateStatus, skip_locate_reply_padding};
use super::reply::{Reply, ReplyHeader, ReplyStatus};
use super::request::{CancelRequest, RESPONSE_NONE, RESPONSE_WITH_TARGET, Request, RequestHeader};
use crate::header::{
    DEFAULT_MAX_MESSAGE_SIZE, GiopError, HEADER_LEN, MessageHeader, MsgType, has_12_layout,
};
use crate::operation::Operation;
use crate::service_context::ServiceContextList;
use crate::target::TargetAddress;

/// Decodes a whole GIOP message (header included) with the default
/// maximum message size.
///
/// The body of a request, reply or fragment is a slice of `bytes`, not a
/// copy; so is an object key.
pub fn decode_message(bytes: Bytes) -> Result<Message, GiopError> {
    decode_message_with_max(bytes, DEFAULT_MAX_MESSAGE_SIZE)
}

/// Checks that a buffer of `total` octets holds exactly one message whose
/// header of `header_len` octets declares a body of `declared` octets.
pub(crate) fn check_whole_message(
    total: usize,
    header_len: usize,
    declared: u32,
) -> Result<(), GiopError> {
    let declared = declared as usize;
    let actual = total - header_len;
    if actual < declared {
        return Err(GiopError::Truncated {
            needed: header_len + declared,
            available: total,
        });
    }
    if actual > declared {
        return Err(GiopError::SizeMismatch { declared, actual });
    }
    Ok(())
}

/// Decodes a whole GIOP message whose size may be at most `max_size`.
///
/// The first fragment of a fragmented message decodes only if its
/// message header is complete; reassemble fragments first
/// ([`crate::fragment::Reassembler`]).
pub fn decode_message_with_max(bytes: Bytes, max_size: u32) -> Result<Message, GiopError> {
    let h = MessageHeader::parse(&bytes, max_size)?;
    check_whole_message(bytes.len(), HEADER_LEN, h.size)?;
    let enc = Encoding::native()
        .with_order(h.order)
        .with_version(h.version);
    let mut d = Decoder::with_position(bytes, 0, HEADER_LEN, enc);
    let content = decode_content(h.msg_type, h.version, &mut d)?;
    Ok(Message {
        version: h.version,
        order: h.order,
        more_fragments: h.more_fragments,
        content,
        realign: None,
    })
}

/// Where a GIOP 1.2 body starts: after padding to 8 when anything but
/// padding follows, else at the end.
fn body_start_12(d: &mut Decoder) -> Result<(), GiopError> {
    let pad = (8 - d.position() % 8) % 8;
    if d.remaining() <= pad {
        d.skip(d.remaining())?;
    } else {
        d.align(8)?;
    }
    Ok(())
}

fn read_reserved(d: &mut Decoder) -> Result<[u8; 3], GiopError> {
    let r = d.read_slice(3)?;
    Ok([r[0], r[1], r[2]])
}

fn decode_content(t: MsgType, v: Version, d: &mut Decoder) -> Result<Content, GiopError> {
    let v12 = has_12_layout(v);
    Ok(match t {
        MsgType::Request => Content::Request(decode_request(v, d)?),
        MsgType::Reply => Content::Reply(decode_reply(v, d)?),
        MsgType::CancelRequest => Content::CancelRequest(CancelRequest {
            request_id: d.read_u32()?,
        }),
        MsgType::LocateRequest => {
            let request_id = d.read_u32()?;
            let target = if v12 {
                TargetAddress::decode(d)?
            } else {
                TargetAddress::Key(d.read_octet_seq()?)
            };
            Content::LocateRequest(LocateRequest { request_id, target })
        }
        MsgType::LocateReply => Content::LocateReply(decode_locate_reply(v, d)?),
        MsgType::CloseConnection => Content::CloseConnection,
        MsgType::MessageError => Content::MessageError,
        MsgType::Fragment => {
            let request_id = if v12 { Some(d.read_u32()?) } else { None };
            Content::Fragment(Fragment {
                request_id,
                body_offset: d.offset(),
                body: d.rest(),
            })
        }
    })
}

/// A `Request` after the message header, in the layout of `v`.
fn decode_request(v: Version, d: &mut Decoder) -> Result<Request, GiopError> {
    let header = if has_12_layout(v) {
        let request_id = d.read_u32()?;
        let response_flags = d.read_u8()?;
        let reserved = read_reserved(d)?;
        let target = TargetAddress::decode(d)?;
        let operation = Operation::decode(d)?;
        let service_context = ServiceContextList::decode(d)?;
        body_start_12(d)?;
        RequestHeader {
            request_id,
            response_flags,
            target,
            operation,
            service_context,
            requesting_principal: Bytes::new(),
            reserved,
        }
    } else {
        let service_context = ServiceContextList::decode(d)?;
        let request_id = d.read_u32()?;
        let response_expected = d.read_bool()?;
        let reserved = if v >= Version::V1_1 {
            read_reserved(d)?
        } else {
            [0; 3]
        };
        let key = d.read_octet_seq()?;
        let operation = Operation::decode(d)?;
        let requesting_principal = d.read_octet_seq()?;
        RequestHeader {
            request_id,
            response_flags: if response_expected {
                RESPONSE_WITH_TARGET
            } else {
                RESPONSE_NONE
            },
            target: TargetAddress::Key(key),
            operation,
            service_context,
            requesting_principal,
            reserved,
        }
    };
    Ok(Request {
        header,
        body_offset: d.offset(),
        body: d.rest(),
    })
}

/// A `Reply` after the message header, in the layout of `v`.
fn decode_reply(v: Version, d: &mut Decoder) -> Result<Reply, GiopError> {
    let v12 = has_12_layout(v);
    let (service_context, request_id, status) = if v12 {
        let request_id = d.read_u32()?;
        let status = d.read_u32()?;
        let sc = ServiceContextList::decode(d)?;
        (sc, request_id, status)
    } else {
        let sc = ServiceContextList::decode(d)?;
        (sc, d.read_u32()?, d.read_u32()?)
    };
    let reply_status = ReplyStatus::from_u32(status, v)
        .ok_or(GiopError::InvalidReplyStatus { status, version: v })?;
    if v12 {
        body_start_12(d)?;
    }
    Ok(Reply {
        header: ReplyHeader {
            request_id,
            reply_status,
            service_context,
        },
        body_offset: d.offset(),
        body: d.rest(),
    })
}

/// A `LocateReply` after the message header, in the layout of `v`.
fn decode_locate_reply(v: Version, d: &mut Decoder) -> Result<LocateReply, GiopError> {
    let v12 = has_12_layout(v);
    let request_id = d.read_u32()?;
    let code = d.read_u32()?;
    let max = if v12 { 5 } else { 2 };
    if code > max {
        return Err(GiopError::InvalidLocateStatus {
            status: code,
            version: v,
        });
    }
    if v12 && code >= 2 {
        skip_locate_reply_padding(d)?;
    }
    let status = LocateStatus::decode_body(code, d)?;
    Ok(LocateReply { request_id, status })
}
