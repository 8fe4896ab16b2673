//! GIOPlite: byte vectors of its layout, and the Cubit messages being
//! smaller than in GIOP 1.2.

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, Encoder, Encoding, Version};
use rtorb_giop::exception::{CompletionStatus, SystemException, SystemExceptionKind};
use rtorb_giop::lite::{LiteHeader, decode_lite, encode_lite, lite_reply, lite_request};
use rtorb_giop::message::{
    Content, LocateReply, LocateStatus, Message, MessageWriter, RESPONSE_NONE, ReplyHeader,
    ReplyStatus, RequestHeader,
};
use rtorb_giop::service_context::{ServiceContextList, TypedServiceContext};
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{GiopError, MsgType};

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn request_and_reply_vectors() {
    let enc = Encoding::native().with_order(ByteOrder::Big);
    let h = RequestHeader::new(1, Bytes::from_static(b"Cubit"), "cube_octet");
    let mut w = lite_request(enc, &h).unwrap();
    w.body().write_u8(7);
    let req = w.finish().unwrap();
    assert_eq!(
        &req[..],
        &hex("00 00 03 00 00000020 00000001 00000005 4375626974 000000
              0000000b 637562655f6f6374657400 07")[..]
    );
    let m = decode_lite(req.clone()).unwrap();
    let Content::Request(r) = &m.content else {
        panic!()
    };
    assert_eq!(r.header.operation, "cube_octet");
    assert_eq!(
        r.header.target,
        TargetAddress::Key(Bytes::from_static(b"Cubit"))
    );
    assert_eq!(r.body_offset, 39);
    assert_eq!(&r.body[..], &[7]);

    let enc = Encoding::native().with_order(ByteOrder::Little);
    let mut w = lite_reply(enc, &ReplyHeader::new(1, ReplyStatus::NoException)).unwrap();
    w.body().write_i32(343);
    let rep = w.finish().unwrap();
    assert_eq!(&rep[..], &hex("01 01 00 00 08000000 01000000 57010000")[..]);
    let m = decode_lite(rep).unwrap();
    let Content::Reply(r) = &m.content else {
        panic!()
    };
    assert_eq!(r.header.reply_status, ReplyStatus::NoException);
    assert_eq!(r.body_offset, 12);
}

#[test]
fn service_contexts_are_flagged() {
    let enc = Encoding::native().with_order(ByteOrder::Big);
    let mut sc = ServiceContextList::new();
    sc.push_typed(&TypedServiceContext::RtCorbaPriority(5), ByteOrder::Big)
        .unwrap();
    let h = ReplyHeader {
        request_id: 2,
        reply_status: ReplyStatus::UserException,
        service_context: sc.clone(),
    };
    let rep = lite_reply(enc, &h).unwrap().finish().unwrap();
    assert_eq!(
        &rep[..],
        &hex("04 01 01 00 00000014 00000002 00000001 0000000a 00000004 00000005")[..]
    );
    let m = decode_lite(rep).unwrap();
    let Content::Reply(r) = &m.content else {
        panic!()
    };
    assert_eq!(r.header.service_context, sc);
}

#[test]
fn locate_reply_and_others() {
    let ex = SystemException::new(SystemExceptionKind::Transient, 2, CompletionStatus::No);
    let m = Message::new(
        Version::V1_2,
        ByteOrder::Big,
        Content::LocateReply(LocateReply {
            request_id: 9,
            status: LocateStatus::LocSystemException(ex),
        }),
    );
    let b = encode_lite(&m).unwrap();
    // Status 4 in octet 2; no padding before the body at offset 12.
    assert_eq!(&b[..4], &[0, 4, 4, 0]);
    assert_eq!(&b[12..16], &[0, 0, 0, 32]);
    assert_eq!(decode_lite(b).unwrap(), m);
    let close = Message::new(Version::V1_2, ByteOrder::Little, Content::CloseConnection);
    assert_eq!(
        &encode_lite(&close).unwrap()[..],
        &hex("01 05 00 00 00000000")[..]
    );
}

#[test]
fn lite_rejects_what_it_cannot_carry() {
    let enc = Encoding::native();
    let mut h = RequestHeader::new(1, Bytes::new(), "x");
    h.target = TargetAddress::Profile(rtorb_cdr::TaggedProfile {
        tag: 0,
        data: Bytes::new(),
    });
    assert!(matches!(
        lite_request(enc, &h),
        Err(GiopError::NotRepresentable { .. })
    ));
    // Reserved bits and octets must be zero; statuses must be valid.
    assert_eq!(
        LiteHeader::parse(&hex("08 05 00 00 00000000"), 100),
        Err(GiopError::InvalidFlags(8))
    );
    // Status information on a CloseConnection, the reserved octet, service
    // contexts on a CancelRequest.
    assert_eq!(
        LiteHeader::parse(&hex("00 05 01 00 00000000"), 100),
        Err(GiopError::InvalidFlags(1))
    );
    assert_eq!(
        LiteHeader::parse(&hex("00 05 00 01 00000000"), 100),
        Err(GiopError::InvalidFlags(1))
    );
    assert_eq!(
        LiteHeader::parse(&hex("04 02 00 00 00000000"), 100),
        Err(GiopError::InvalidFlags(4))
    );
    assert_eq!(
        LiteHeader::parse(&hex("00 08 00 00 00000000"), 100),
        Err(GiopError::UnknownMessageType(8))
    );
    assert_eq!(
        decode_lite(Bytes::from(hex("00 01 06 00 00000004 00000001"))),
        Err(GiopError::InvalidReplyStatus {
            status: 6,
            version: Version::V1_2
        })
    );
    assert_eq!(
        decode_lite(Bytes::from(hex("00 04 06 00 00000004 00000001"))),
        Err(GiopError::InvalidLocateStatus {
            status: 6,
            version: Version::V1_2
        })
    );
    let h = LiteHeader::parse(&hex("03 07 00 00 00000004"), u32::MAX).unwrap();
    assert_eq!(h.msg_type, MsgType::Fragment);
    assert!(h.more_fragments);
    assert_eq!(h.order, ByteOrder::Little);
    assert_eq!(h.size, 0x0400_0000);
}

type WriteArgs = fn(&mut Encoder);

/// Every Cubit operation of `cubit.idl` with its argument (the result has
/// the same type).
fn cubit_ops() -> Vec<(&'static str, WriteArgs)> {
    vec![
        ("cube_void", |_| {}),
        ("cube_octet", |e| e.write_u8(3)),
        ("cube_short", |e| e.write_i16(3)),
        ("cube_long", |e| e.write_i32(3)),
        ("cube_struct", |e| {
            e.write_u8(3);
            e.write_i32(3);
            e.write_i16(3);
        }),
        ("cube_long_sequence", |e| {
            e.write_prim_seq(&[3i32; 1024]).unwrap()
        }),
        ("cube_octet_sequence", |e| {
            e.write_octet_seq(&[3u8; 1024]).unwrap()
        }),
        ("shutdown", |_| {}),
    ]
}

#[test]
fn cubit_messages_are_smaller_in_giop_lite() {
    for order in [ByteOrder::Big, ByteOrder::Little] {
        let enc = Encoding::native()
            .with_order(order)
            .with_version(Version::V1_2);
        for (op, write) in cubit_ops() {
            let mut req = RequestHeader::new(17, Bytes::from_static(b"Cubit"), op);
            if op == "shutdown" {
                req.response_flags = RESPONSE_NONE;
            }
            let mut w = MessageWriter::request(enc, &req).unwrap();
            write(w.body());
            let giop = w.finish().unwrap();
            let mut w = lite_request(enc, &req).unwrap();
            write(w.body());
            let lite = w.finish().unwrap();
            // 12 octets of header plus, at least, the 4 reserved and
            // response-flag octets and the target discriminator.
            assert!(
                lite.len() + 16 <= giop.len(),
                "{op} request: lite {} giop {}",
                lite.len(),
                giop.len()
            );
            // Both carry the same header and arguments.
            let g = rtorb_giop::decode_message(giop.clone()).unwrap();
            let l = decode_lite(lite.clone()).unwrap();
            let (Content::Request(gr), Content::Request(lr)) = (&g.content, &l.content) else {
                panic!()
            };
            assert_eq!(gr.header, lr.header);

            let rep = ReplyHeader::new(17, ReplyStatus::NoException);
            let mut w = MessageWriter::reply(enc, &rep).unwrap();
            write(w.body());
            let giop = w.finish().unwrap();
            let mut w = lite_reply(enc, &rep).unwrap();
            write(w.body());
            let lite = w.finish().unwrap();
            assert!(lite.len() + 12 <= giop.len(), "{op} reply");
        }
    }
    // The figures the documentation quotes.
    let enc = Encoding::native()
        .with_order(ByteOrder::Big)
        .with_version(Version::V1_2);
    let req = RequestHeader::new(1, Bytes::from_static(b"Cubit"), "cube_octet");
    let mut w = MessageWriter::request(enc, &req).unwrap();
    w.body().write_u8(3);
    assert_eq!(w.finish().unwrap().len(), 57);
    let mut w = lite_request(enc, &req).unwrap();
    w.body().write_u8(3);
    assert_eq!(w.finish().unwrap().len(), 40);
    let rep = ReplyHeader::new(1, ReplyStatus::NoException);
    let mut w = MessageWriter::reply(enc, &rep).unwrap();
    w.body().write_u8(3);
    assert_eq!(w.finish().unwrap().len(), 25);
    let mut w = lite_reply(enc, &rep).unwrap();
    w.body().write_u8(3);
    assert_eq!(w.finish().unwrap().len(), 13);
}

#[test]
fn system_exception_reply_after_service_contexts() {
    // The service context leaves the body at an offset that is not a
    // multiple of 4; the exception is aligned relative to the message.
    let enc = Encoding::native().with_order(ByteOrder::Little);
    let mut sc = ServiceContextList::new();
    sc.push(rtorb_giop::ServiceContext::new(
        99,
        Bytes::from_static(&[1]),
    ));
    let h = ReplyHeader {
        request_id: 3,
        reply_status: ReplyStatus::SystemException,
        service_context: sc,
    };
    let ex = SystemException::new(SystemExceptionKind::BadParam, 7, CompletionStatus::Maybe);
    let mut w = lite_reply(enc, &h).unwrap();
    rtorb_cdr::CdrEncode::encode(&ex, w.body()).unwrap();
    let bytes = w.finish().unwrap();
    let m = decode_lite(bytes).unwrap();
    let Content::Reply(r) = &m.content else {
        panic!()
    };
    assert_eq!(r.body_offset, 25);
    assert_eq!(r.system_exception(ByteOrder::Little).unwrap(), ex);
}
