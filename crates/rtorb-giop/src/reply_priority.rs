//! A `Reply` whose service contexts are one `RTCorbaPriority` context:
//! what a server of Real-time CORBA's `CLIENT_PROPAGATED` model sends back
//! to a client that propagated its priority (TAO's servers put the
//! request's context into the reply), written from fixed octets into the
//! writer's buffer like a reply without contexts, so that it costs no
//! allocation.

use rtorb_cdr::{ByteOrder, Encoding};

use crate::header::{GiopError, HEADER_LEN, MessageHeader, MsgType, has_12_layout};
use crate::message::{MessageWriter, ReplyStatus, check_reply};
use crate::service_context::RT_CORBA_PRIORITY;

/// The octets after the message header: request id, status, and the
/// service context list (count, context id, data length, data).
const REPLY_HEADERS: usize = 4 + 4 + 4 + 4 + 4 + 4;

impl MessageWriter {
    /// Starts a `Reply` to `request_id` with `status` whose only service
    /// context is `RTCorbaPriority` holding `priority`, in place of what
    /// the writer held, reusing its buffer (see
    /// [`MessageWriter::restart_reply`]).
    ///
    /// The context's data is an encapsulation in the reply's byte order:
    /// the byte-order octet, one octet of padding, the `short`.
    pub fn restart_reply_with_priority(
        &mut self,
        encoding: Encoding,
        request_id: u32,
        status: ReplyStatus,
        priority: i16,
    ) -> Result<(), GiopError> {
        let version = encoding.version;
        check_reply(version, status)?;
        let order = encoding.order;
        let ulong = |v: u32| match order {
            ByteOrder::Big => v.to_be_bytes(),
            ByteOrder::Little => v.to_le_bytes(),
        };
        let [a, b] = match order {
            ByteOrder::Big => priority.to_be_bytes(),
            ByteOrder::Little => priority.to_le_bytes(),
        };
        let data = [u8::from(order == ByteOrder::Little), 0, a, b];
        let contexts = [ulong(1), ulong(RT_CORBA_PRIORITY), ulong(4), data];
        let (id, status) = (ulong(request_id), ulong(status as u32));
        let v12 = has_12_layout(version);
        // GIOP 1.2: id, status, contexts; before: contexts, id, status.
        let fields: [[u8; 4]; 6] = if v12 {
            [
                id,
                status,
                contexts[0],
                contexts[1],
                contexts[2],
                contexts[3],
            ]
        } else {
            [
                contexts[0],
                contexts[1],
                contexts[2],
                contexts[3],
                id,
                status,
            ]
        };
        let mut octets = [0u8; HEADER_LEN + REPLY_HEADERS];
        let header = MessageHeader {
            version,
            order,
            more_fragments: false,
            msg_type: MsgType::Reply,
            size: 0,
        }
        .encode();
        octets[..HEADER_LEN].copy_from_slice(&header);
        for (at, field) in fields.iter().enumerate() {
            let start = HEADER_LEN + 4 * at;
            octets[start..start + 4].copy_from_slice(field);
        }
        self.restart_with(encoding, &octets, HEADER_LEN, 8, if v12 { 8 } else { 1 });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use bytes::BytesMut;
    use rtorb_cdr::Version;

    use super::*;
    use crate::message::{Content, Message, Reply, ReplyHeader, encode_message};
    use crate::service_context::{ServiceContext, ServiceContextList, TypedServiceContext};

    #[test]
    fn it_is_the_reply_the_encoder_writes_with_the_context() {
        let mut w = MessageWriter::empty_with_buffer(BytesMut::new(), Encoding::native());
        for version in [Version::V1_0, Version::V1_1, Version::V1_2] {
            for order in [ByteOrder::Big, ByteOrder::Little] {
                for body in [&[][..], &[1, 2, 3][..]] {
                    let encoding = Encoding::native().with_order(order).with_version(version);
                    w.restart_reply_with_priority(
                        encoding,
                        0x0102_0304,
                        ReplyStatus::NoException,
                        0x1234,
                    )
                    .unwrap();
                    w.body().write_raw(body);
                    let got = w.seal().unwrap().unwrap();
                    let context = ServiceContext::from_typed(
                        &TypedServiceContext::RtCorbaPriority(0x1234),
                        order,
                    )
                    .unwrap();
                    let mut header = ReplyHeader::new(0x0102_0304, ReplyStatus::NoException);
                    header.service_context = ServiceContextList(vec![context]);
                    let expected = encode_message(&Message::new(
                        version,
                        order,
                        Content::Reply(Reply {
                            header,
                            body: bytes::Bytes::copy_from_slice(body),
                            body_offset: 0,
                        }),
                    ))
                    .unwrap();
                    assert_eq!(got, &expected[..], "{version:?} {order:?} {body:?}");
                }
            }
        }
    }
}
