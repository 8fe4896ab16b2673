//! Byte vectors worked out by hand from the GIOP layouts of the
//! specification, in both byte orders.

use bytes::Bytes;
use rtorb_cdr::codeset::CodeSetContext;
use rtorb_cdr::{ByteOrder, CdrError, CodeSetId, Decoder, Encoding, Ior, TaggedProfile, Version};
use rtorb_giop::exception::{CompletionStatus, SystemException, SystemExceptionKind};
use rtorb_giop::message::{
    CancelRequest, Content, Fragment, LocateReply, LocateRequest, LocateStatus, Message,
    MessageWriter, RESPONSE_WITH_TARGET, Reply, ReplyHeader, ReplyStatus, Request, RequestHeader,
    decode_message, encode_message,
};
use rtorb_giop::service_context::{
    BiDirIIOPServiceContext, ListenPoint, ServiceContext, ServiceContextList, TypedServiceContext,
};
use rtorb_giop::target::TargetAddress;

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Decodes `bytes`, checks the model, and checks that encoding the model
/// gives `bytes` back.
fn check(bytes: &[u8], expect: &Message) -> Message {
    let m = decode_message(Bytes::copy_from_slice(bytes)).unwrap();
    let mut normalised = m.clone();
    match (&mut normalised.content, &expect.content) {
        (Content::Request(a), Content::Request(b)) => a.body_offset = b.body_offset,
        (Content::Reply(a), Content::Reply(b)) => a.body_offset = b.body_offset,
        (Content::Fragment(a), Content::Fragment(b)) => a.body_offset = b.body_offset,
        _ => {}
    }
    assert_eq!(&normalised, expect);
    assert_eq!(&encode_message(expect).unwrap()[..], bytes);
    m
}

fn cube_long_request(version: Version, order: ByteOrder, body: &[u8]) -> Message {
    Message::new(
        version,
        order,
        Content::Request(Request {
            header: RequestHeader::new(1, Bytes::from_static(b"Cubit"), "cube_long"),
            body: Bytes::copy_from_slice(body),
            body_offset: 0,
        }),
    )
}

#[test]
fn request_1_0_big_endian() {
    let bytes = hex("47494f50 01 00 00 00 00000030
        00000000 00000001 01 000000 00000005 4375626974 000000
        0000000a 637562655f6c6f6e6700 0000 00000000 00000003");
    let m = check(
        &bytes,
        &cube_long_request(Version::V1_0, ByteOrder::Big, &[0, 0, 0, 3]),
    );
    let Content::Request(r) = &m.content else {
        panic!()
    };
    assert_eq!(r.body_offset, 56);
    // The body is read relative to the message start.
    let mut d = m
        .body_decoder(&Bytes::from(bytes.clone()), Default::default())
        .unwrap();
    assert_eq!(d.read_i32().unwrap(), 3);
}

#[test]
fn request_1_1_little_endian() {
    let bytes = hex("47494f50 01 01 01 00 30000000
        00000000 01000000 01 000000 05000000 4375626974 000000
        0a000000 637562655f6c6f6e6700 0000 00000000 03000000");
    check(
        &bytes,
        &cube_long_request(Version::V1_1, ByteOrder::Little, &[3, 0, 0, 0]),
    );
}

#[test]
fn request_1_2_both_orders() {
    let be = hex("47494f50 01 02 00 00 00000030
        00000001 03 000000 0000 0000 00000005 4375626974 000000
        0000000a 637562655f6c6f6e6700 0000 00000000 00000003");
    check(
        &be,
        &cube_long_request(Version::V1_2, ByteOrder::Big, &[0, 0, 0, 3]),
    );
    let le = hex("47494f50 01 02 01 00 30000000
        01000000 03 000000 0000 0000 05000000 4375626974 000000
        0a000000 637562655f6c6f6e6700 0000 00000000 03000000");
    check(
        &le,
        &cube_long_request(Version::V1_2, ByteOrder::Little, &[3, 0, 0, 0]),
    );
}

#[test]
fn request_1_2_body_is_aligned_on_8() {
    // A 4-octet key and a 4-octet operation end the service context
    // count at 44: four octets of padding put the body at 48.
    let be = hex("47494f50 01 02 00 00 00000025
        00000009 03 000000 0000 0000 00000004 43756269
        00000004 6f6e6500 00000000 00000000 07");
    let mut header = RequestHeader::new(9, Bytes::from_static(b"Cubi"), "one");
    header.response_flags = RESPONSE_WITH_TARGET;
    let m = Message::new(
        Version::V1_2,
        ByteOrder::Big,
        Content::Request(Request {
            header,
            body: Bytes::from_static(&[7]),
            body_offset: 0,
        }),
    );
    let d = check(&be, &m);
    let Content::Request(r) = d.content else {
        panic!()
    };
    assert_eq!(r.body_offset, 48);
}

#[test]
fn request_1_2_empty_body_has_no_padding() {
    // cube_void: header ends at 52 + 4 = 56? operation "cube_void\0" is 10
    // octets at 40..50, pad 2, count 52..56: the message ends at 56.
    let be = hex("47494f50 01 02 00 00 0000002c
        00000002 03 000000 0000 0000 00000005 4375626974 000000
        0000000a 637562655f766f696400 0000 00000000");
    let m = Message::new(
        Version::V1_2,
        ByteOrder::Big,
        Content::Request(Request {
            header: RequestHeader::new(2, Bytes::from_static(b"Cubit"), "cube_void"),
            body: Bytes::new(),
            body_offset: 0,
        }),
    );
    check(&be, &m);
    // "one": the header ends at 48.
    let be = hex("47494f50 01 02 00 00 00000024
        00000002 03 000000 0000 0000 00000005 4375626974 000000
        00000004 6f6e6500 00000000");
    let mut m2 = m.clone();
    if let Content::Request(r) = &mut m2.content {
        r.header.operation = "one".into();
    }
    check(&be, &m2);
    // A sender that pads anyway is still understood.
    let padded = hex("47494f50 01 02 00 00 00000024
        00000002 03 000000 0000 0000 00000004 43756269
        00000004 6f6e6500 00000000 00000000");
    let d = decode_message(Bytes::from(padded)).unwrap();
    let Content::Request(r) = d.content else {
        panic!()
    };
    assert!(r.body.is_empty());
}

#[test]
fn request_1_2_profile_and_reference_targets() {
    // ProfileAddr: discriminator 1, pad 2, tag, octet sequence.
    let le = hex("47494f50 01 02 01 00 24000000
        04000000 00 000000 0100 0000 00000000 02000000 0102 0000
        02000000 6f00 0000 00000000");
    let mut header = RequestHeader::new(4, Bytes::new(), "o");
    header.response_flags = 0;
    header.target = TargetAddress::Profile(TaggedProfile {
        tag: 0,
        data: Bytes::from_static(&[1, 2]),
    });
    let m = Message::new(
        Version::V1_2,
        ByteOrder::Little,
        Content::Request(Request {
            header,
            body: Bytes::new(),
            body_offset: 0,
        }),
    );
    check(&le, &m);
}

#[test]
fn reply_1_2_with_priority_context() {
    let be = hex("47494f50 01 02 00 01 00000020
        00000001 00000000 00000001 0000000a 00000004 00000064
        00000000 0000001b");
    let mut sc = ServiceContextList::new();
    sc.push_typed(&TypedServiceContext::RtCorbaPriority(100), ByteOrder::Big)
        .unwrap();
    let m = Message::new(
        Version::V1_2,
        ByteOrder::Big,
        Content::Reply(Reply {
            header: ReplyHeader {
                request_id: 1,
                reply_status: ReplyStatus::NoException,
                service_context: sc,
            },
            body: Bytes::from_static(&[0, 0, 0, 27]),
            body_offset: 0,
        }),
    );
    let d = check(&be, &m);
    let Content::Reply(r) = d.content else {
        panic!()
    };
    assert_eq!(r.body_offset, 40);
    assert_eq!(
        r.header
            .service_context
            .rt_corba_priority()
            .unwrap()
            .unwrap(),
        100
    );
}

#[test]
fn reply_1_0_and_1_1() {
    let be = hex("47494f50 01 00 00 01 00000010 00000000 00000007 00000000 0000001b");
    let m = Message::new(
        Version::V1_0,
        ByteOrder::Big,
        Content::Reply(Reply {
            header: ReplyHeader::new(7, ReplyStatus::NoException),
            body: Bytes::from_static(&[0, 0, 0, 27]),
            body_offset: 0,
        }),
    );
    check(&be, &m);
    let le = hex("47494f50 01 01 01 01 10000000 00000000 07000000 00000000 1b000000");
    let m = Message::new(
        Version::V1_1,
        ByteOrder::Little,
        Content::Reply(Reply {
            header: ReplyHeader::new(7, ReplyStatus::NoException),
            body: Bytes::from_static(&[27, 0, 0, 0]),
            body_offset: 0,
        }),
    );
    check(&le, &m);
}

#[test]
fn reply_1_2_system_exception() {
    let be = hex("47494f50 01 02 00 01 00000038
        00000005 00000002 00000000
        0000001e 49444c3a6f6d672e6f72672f434f5242412f4d41525348414c3a312e3000 0000
        4f4d0004 00000001");
    let ex = SystemException::new(
        SystemExceptionKind::Marshal,
        0x4f4d_0004,
        CompletionStatus::No,
    );
    let m = decode_message(Bytes::from(be.clone())).unwrap();
    let Content::Reply(r) = &m.content else {
        panic!()
    };
    assert_eq!(r.header.reply_status, ReplyStatus::SystemException);
    assert_eq!(r.system_exception(ByteOrder::Big).unwrap(), ex);
    // Writing the same reply with the writer gives the same octets.
    let enc = Encoding::native()
        .with_order(ByteOrder::Big)
        .with_version(Version::V1_2);
    let mut w =
        MessageWriter::reply(enc, &ReplyHeader::new(5, ReplyStatus::SystemException)).unwrap();
    rtorb_cdr::CdrEncode::encode(&ex, w.body()).unwrap();
    assert_eq!(&w.finish().unwrap()[..], &be[..]);
}

#[test]
fn reply_status_not_in_version() {
    // LOCATION_FORWARD_PERM (4) in GIOP 1.1.
    let be = hex("47494f50 01 01 00 01 0000000c 00000000 00000007 00000004");
    assert!(matches!(
        decode_message(Bytes::from(be)),
        Err(rtorb_giop::GiopError::InvalidReplyStatus { status: 4, .. })
    ));
}

fn cubit_ior() -> Ior {
    Ior {
        type_id: "IDL:Cubit:1.0".into(),
        profiles: vec![TaggedProfile {
            tag: 0,
            data: Bytes::from_static(&[0xde, 0xad, 0xbe, 0xef]),
        }],
    }
}

/// A GIOP 1.2 `LocateReply` body follows the status unaligned, as TAO
/// writes it and omniORB reads it.
#[test]
fn locate_reply_forward_1_2_follows_the_status() {
    let be = hex("47494f50 01 02 00 04 0000002c
        00000002 00000002
        0000000e 49444c3a43756269743a312e3000 0000
        00000001 00000000 00000004 deadbeef");
    let m = Message::new(
        Version::V1_2,
        ByteOrder::Big,
        Content::LocateReply(LocateReply {
            request_id: 2,
            status: LocateStatus::ObjectForward(cubit_ior()),
        }),
    );
    check(&be, &m);
}

/// The body aligned on 8, as GIOP 1.2 was first published and some ORBs
/// still write it, is read too.
#[test]
fn locate_reply_forward_1_2_aligned_on_8_is_read() {
    let be = hex("47494f50 01 02 00 04 00000030
        00000002 00000002 00000000
        0000000e 49444c3a43756269743a312e3000 0000
        00000001 00000000 00000004 deadbeef");
    let m = decode_message(Bytes::from(be)).unwrap();
    assert_eq!(
        m.content,
        Content::LocateReply(LocateReply {
            request_id: 2,
            status: LocateStatus::ObjectForward(cubit_ior()),
        })
    );
}

#[test]
fn locate_reply_forward_1_0_little_endian() {
    let le = hex("47494f50 01 00 01 04 2c000000
        02000000 02000000
        0e000000 49444c3a43756269743a312e3000 0000
        01000000 00000000 04000000 deadbeef");
    let m = Message::new(
        Version::V1_0,
        ByteOrder::Little,
        Content::LocateReply(LocateReply {
            request_id: 2,
            status: LocateStatus::ObjectForward(cubit_ior()),
        }),
    );
    check(&le, &m);
}

#[test]
fn locate_reply_simple_statuses() {
    let be = hex("47494f50 01 02 00 04 00000008 00000003 00000001");
    let m = Message::new(
        Version::V1_2,
        ByteOrder::Big,
        Content::LocateReply(LocateReply {
            request_id: 3,
            status: LocateStatus::ObjectHere,
        }),
    );
    check(&be, &m);
    // LOC_NEEDS_ADDRESSING_MODE: the short right after the status.
    let be = hex("47494f50 01 02 00 04 0000000a 00000003 00000005 0001");
    let m = Message::new(
        Version::V1_2,
        ByteOrder::Big,
        Content::LocateReply(LocateReply {
            request_id: 3,
            status: LocateStatus::LocNeedsAddressingMode(
                rtorb_giop::AddressingDisposition::PROFILE_ADDR,
            ),
        }),
    );
    check(&be, &m);
    // Padded to 24 first, as an aligning writer sends it: read the same.
    let padded = hex("47494f50 01 02 00 04 0000000e 00000003 00000005 00000000 0001");
    assert_eq!(
        decode_message(Bytes::from(padded)).unwrap().content,
        m.content
    );
    // OBJECT_FORWARD_PERM does not exist in 1.1.
    let be = hex("47494f50 01 01 00 04 00000008 00000003 00000003");
    assert_eq!(
        decode_message(Bytes::from(be)).unwrap_err(),
        rtorb_giop::GiopError::InvalidLocateStatus {
            status: 3,
            version: Version::V1_1
        }
    );
}

#[test]
fn locate_requests() {
    let be = hex("47494f50 01 00 00 03 0000000d 00000006 00000005 4375626974");
    let m = Message::new(
        Version::V1_0,
        ByteOrder::Big,
        Content::LocateRequest(LocateRequest {
            request_id: 6,
            target: TargetAddress::Key(Bytes::from_static(b"Cubit")),
        }),
    );
    check(&be, &m);
    let le = hex("47494f50 01 02 01 03 11000000 06000000 0000 0000 05000000 4375626974");
    let m = Message::new(
        Version::V1_2,
        ByteOrder::Little,
        Content::LocateRequest(LocateRequest {
            request_id: 6,
            target: TargetAddress::Key(Bytes::from_static(b"Cubit")),
        }),
    );
    check(&le, &m);
}

#[test]
fn cancel_close_error() {
    let le = hex("47494f50 01 01 01 02 04000000 07000000");
    let m = Message::new(
        Version::V1_1,
        ByteOrder::Little,
        Content::CancelRequest(CancelRequest { request_id: 7 }),
    );
    check(&le, &m);
    let be = hex("47494f50 01 02 00 05 00000000");
    check(
        &be,
        &Message::new(Version::V1_2, ByteOrder::Big, Content::CloseConnection),
    );
    let le = hex("47494f50 01 00 01 06 00000000");
    check(
        &le,
        &Message::new(Version::V1_0, ByteOrder::Little, Content::MessageError),
    );
}

#[test]
fn fragments() {
    let be = hex("47494f50 01 02 02 07 00000008 00000005 aabbccdd");
    let m = Message {
        version: Version::V1_2,
        order: ByteOrder::Big,
        more_fragments: true,
        content: Content::Fragment(Fragment {
            request_id: Some(5),
            body: Bytes::from_static(&[0xaa, 0xbb, 0xcc, 0xdd]),
            body_offset: 16,
        }),
        realign: None,
    };
    check(&be, &m);
    let le = hex("47494f50 01 01 01 07 04000000 aabbccdd");
    let m = Message::new(
        Version::V1_1,
        ByteOrder::Little,
        Content::Fragment(Fragment {
            request_id: None,
            body: Bytes::from_static(&[0xaa, 0xbb, 0xcc, 0xdd]),
            body_offset: 12,
        }),
    );
    check(&le, &m);
}

#[test]
fn typed_service_contexts() {
    let cs = TypedServiceContext::CodeSets(CodeSetContext {
        char_data: CodeSetId::ISO_8859_1,
        wchar_data: CodeSetId::UTF_16,
    });
    let sc = ServiceContext::from_typed(&cs, ByteOrder::Big).unwrap();
    assert_eq!(sc.id, 1);
    assert_eq!(&sc.data[..], &hex("00000000 00010001 00010109")[..]);
    assert_eq!(sc.typed().unwrap(), cs);
    let sc = ServiceContext::from_typed(&cs, ByteOrder::Little).unwrap();
    assert_eq!(&sc.data[..], &hex("01000000 01000100 09010100")[..]);
    assert_eq!(sc.typed().unwrap(), cs);

    let bidir = TypedServiceContext::BiDirIiop(BiDirIIOPServiceContext {
        listen_points: vec![ListenPoint {
            host: "h".into(),
            port: 2809,
        }],
    });
    let sc = ServiceContext::from_typed(&bidir, ByteOrder::Big).unwrap();
    assert_eq!(sc.id, 5);
    assert_eq!(
        &sc.data[..],
        &hex("00000000 00000001 00000002 6800 0af9")[..]
    );
    assert_eq!(sc.typed().unwrap(), bidir);

    let prio =
        ServiceContext::from_typed(&TypedServiceContext::RtCorbaPriority(-2), ByteOrder::Little)
            .unwrap();
    assert_eq!(&prio.data[..], &hex("01 00 feff")[..]);
    assert_eq!(
        prio.typed().unwrap(),
        TypedServiceContext::RtCorbaPriority(-2)
    );

    let unknown = ServiceContext::new(0x4f4d_0001, Bytes::from_static(&[9, 8, 7]));
    assert_eq!(
        unknown.typed().unwrap(),
        TypedServiceContext::Unknown(unknown.clone())
    );

    // A list encodes as a count and (id, octet sequence) pairs.
    let list = ServiceContextList(vec![prio.clone(), unknown.clone()]);
    let mut e = rtorb_cdr::Encoder::new(Encoding::native().with_order(ByteOrder::Big));
    rtorb_cdr::CdrEncode::encode(&list, &mut e).unwrap();
    let bytes = e.into_bytes();
    assert_eq!(
        &bytes[..],
        &hex("00000002 0000000a 00000004 0100feff 4f4d0001 00000003 090807")[..]
    );
    let mut d = Decoder::new(bytes, Encoding::native().with_order(ByteOrder::Big));
    let back: ServiceContextList = rtorb_cdr::CdrDecode::decode(&mut d).unwrap();
    assert_eq!(back, list);
    // A malformed typed context is an error, not a panic.
    // CodeSets: the byte-order octet, then one of the 3 octets of padding
    // before the char code set.
    assert_eq!(
        ServiceContext::new(1, Bytes::from_static(&[0, 0])).typed(),
        Err(CdrError::UnexpectedEnd {
            needed: 3,
            remaining: 1
        })
    );
    assert_eq!(
        ServiceContext::new(10, Bytes::from_static(&[7, 0, 0, 1])).typed(),
        Err(CdrError::InvalidByteOrder(7))
    );
}

#[test]
fn system_exception_names_and_ids() {
    assert_eq!(SystemExceptionKind::ALL.len(), 40);
    for k in SystemExceptionKind::ALL {
        assert_eq!(
            SystemExceptionKind::from_repository_id(k.repository_id()),
            Some(*k)
        );
        assert_eq!(
            k.repository_id(),
            format!("IDL:omg.org/CORBA/{}:1.0", k.name())
        );
    }
    assert_eq!(
        SystemExceptionKind::ObjectNotExist.repository_id(),
        "IDL:omg.org/CORBA/OBJECT_NOT_EXIST:1.0"
    );
    assert_eq!(
        SystemExceptionKind::from_repository_id("IDL:omg.org/CORBA/NOPE:1.0"),
        None
    );
    let e = SystemException::from(rtorb_cdr::CdrError::InvalidBoolean(7));
    assert_eq!(e.kind(), Some(SystemExceptionKind::Marshal));
    assert_eq!(e.minor, rtorb_cdr::CdrError::InvalidBoolean(7).minor());
    assert_eq!(e.completed, CompletionStatus::No);
    assert!(e.to_string().starts_with("CORBA::MARSHAL"));

    // Unknown ids are kept; an invalid completion status is an error.
    let enc = Encoding::native().with_order(ByteOrder::Big);
    let bytes = hex("00000008 49444c3a783a3100 00000001 00000002");
    let mut d = Decoder::new(Bytes::from(bytes.clone()), enc);
    let ex: SystemException = rtorb_cdr::CdrDecode::decode(&mut d).unwrap();
    assert_eq!(ex.repository_id(), "IDL:x:1\0".trim_end_matches('\0'));
    assert_eq!(ex.kind(), None);
    let mut e = rtorb_cdr::Encoder::new(enc);
    rtorb_cdr::CdrEncode::encode(&ex, &mut e).unwrap();
    assert_eq!(&e.into_bytes()[..], &bytes[..]);
    let bad = hex("00000008 49444c3a783a3100 00000001 00000003");
    let mut d = Decoder::new(Bytes::from(bad), enc);
    assert_eq!(
        <SystemException as rtorb_cdr::CdrDecode>::decode(&mut d).unwrap_err(),
        CdrError::InvalidEnum { value: 3, count: 3 }
    );
}

#[test]
fn principal_is_kept() {
    let be = hex("47494f50 01 00 00 00 00000030
        00000000 00000001 01 000000 00000005 4375626974 000000
        0000000a 637562655f6c6f6e6700 0000 00000003 616263 00");
    // The principal "abc" then one body octet.
    let m = decode_message(Bytes::from(be.clone())).unwrap();
    let Content::Request(r) = &m.content else {
        panic!()
    };
    assert_eq!(&r.header.requesting_principal[..], b"abc");
    assert_eq!(&r.body[..], &[0]);
    assert_eq!(&encode_message(&m).unwrap()[..], &be[..]);
}

#[test]
fn writer_gathers_large_octet_sequences_without_copying() {
    let payload = Bytes::from(vec![5u8; 4000]);
    let enc = Encoding::native()
        .with_order(ByteOrder::Little)
        .with_version(Version::V1_2);
    let h = RequestHeader::new(8, Bytes::from_static(b"Cubit"), "cube_octet_sequence");
    let write = |zero_copy: bool| {
        let mut w = MessageWriter::request(enc, &h).unwrap();
        if zero_copy {
            w.body().set_zero_copy_threshold(1024);
        }
        w.body().write_octet_seq_bytes(&payload).unwrap();
        w.body().write_u8(1);
        w.finish_chunks().unwrap()
    };
    let gathered = write(true);
    assert!(gathered.len() >= 3);
    // The payload chunk is the caller's buffer itself.
    assert!(gathered.iter().any(|c| c.as_ptr() == payload.as_ptr()));
    let contiguous = write(false);
    assert_eq!(contiguous.len(), 1);
    assert_eq!(gathered.concat(), contiguous[0].to_vec());
    let m = decode_message(contiguous[0].clone()).unwrap();
    let Content::Request(r) = m.content else {
        panic!()
    };
    assert_eq!(r.body.len(), 4 + 4000 + 1);
}

#[test]
fn reserved_request_octets_are_kept_as_received() {
    // A GIOP 1.1 request whose sender left garbage in the reserved octets
    // (as omniORB does) re-encodes to the same octets.
    let mut raw = vec![
        b'G', b'I', b'O', b'P', 1, 1, 0, 0, 0, 0, 0, 0, // header, size patched below
        0, 0, 0, 0, // no service contexts
        0, 0, 0, 9, // request id
        1, 0x75, 0xbe, 0xef, // response expected, reserved
        0, 0, 0, 1, b'K', 0, 0, 0, // object key "K"
        0, 0, 0, 2, b'o', 0, 0, 0, // operation "o"
        0, 0, 0, 0, // principal
    ];
    let size = (raw.len() - 12) as u32;
    raw[8..12].copy_from_slice(&size.to_be_bytes());
    let bytes = bytes::Bytes::from(raw);
    let msg = rtorb_giop::decode_message(bytes.clone()).unwrap();
    let rtorb_giop::Content::Request(req) = &msg.content else {
        panic!("not a request")
    };
    assert_eq!(req.header.reserved, [0x75, 0xbe, 0xef]);
    assert_eq!(rtorb_giop::encode_message(&msg).unwrap(), bytes);
}
