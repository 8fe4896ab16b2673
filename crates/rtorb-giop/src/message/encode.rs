//! Encoding a whole [`Message`] back into octets.

use bytes::Bytes;
use rtorb_cdr::{CdrEncode, Encoder, Version};

use super::content::{Content, Message};
use super::writer::{MessageWriter, write_reply_header, write_request_header};
use crate::header::{GiopError, MsgType, has_12_layout, not_representable};
use crate::target::TargetAddress;

/// Encodes a whole message. The `body_offset` fields are ignored (the
/// body goes where the layout puts it).
pub fn encode_message(m: &Message) -> Result<Bytes, GiopError> {
    let v = m.version;
    let encoding = m.encoding();
    match &m.content {
        Content::Request(r) => {
            let mut w = MessageWriter::new(encoding, MsgType::Request, m.more_fragments)?;
            w.write_headers(|e| write_request_header(e, v, &r.header))?;
            if !r.body.is_empty() {
                w.body().write_raw(&r.body);
            }
            w.finish()
        }
        Content::Reply(r) => {
            let mut w = MessageWriter::new(encoding, MsgType::Reply, m.more_fragments)?;
            w.write_headers(|e| write_reply_header(e, v, &r.header))?;
            if !r.body.is_empty() {
                w.body().write_raw(&r.body);
            }
            w.finish()
        }
        other => {
            let mut w = MessageWriter::new(encoding, other.msg_type(), m.more_fragments)?;
            w.write_headers(|e| write_other(e, v, other))?;
            w.finish()
        }
    }
}

/// Writes a message that is neither a request nor a reply, after its
/// message header.
fn write_other(e: &mut Encoder, v: Version, content: &Content) -> Result<(), GiopError> {
    match content {
        Content::CancelRequest(c) => e.write_u32(c.request_id),
        Content::LocateRequest(l) => {
            e.write_u32(l.request_id);
            if has_12_layout(v) {
                l.target.encode(e)?;
            } else {
                let TargetAddress::Key(key) = &l.target else {
                    return Err(not_representable("a target other than an object key", v));
                };
                e.write_octet_seq(key)?;
            }
        }
        Content::LocateReply(l) => {
            if !l.status.allowed_in(v) {
                return Err(not_representable("this locate status", v));
            }
            // The body follows the status unaligned, in every version:
            // see `skip_locate_reply_padding`.
            e.write_u32(l.request_id);
            e.write_u32(l.status.code());
            l.status.encode_body(e)?;
        }
        Content::Fragment(f) => {
            match (has_12_layout(v), f.request_id) {
                (true, Some(id)) => e.write_u32(id),
                (false, None) => {}
                (true, None) => {
                    return Err(not_representable("a fragment without request id", v));
                }
                (false, Some(_)) => {
                    return Err(not_representable("a fragment request id", v));
                }
            }
            e.write_raw(&f.body);
        }
        Content::CloseConnection | Content::MessageError => {}
        Content::Request(_) | Content::Reply(_) => {}
    }
    Ok(())
}
