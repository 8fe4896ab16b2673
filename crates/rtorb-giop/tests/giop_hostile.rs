//! Hostile input: truncated, oversized, malformed and random messages give
//! typed errors and never panic; framing rejects bad headers before it
//! buffers their bodies.

use bytes::Bytes;
use proptest::prelude::*;
use rtorb_cdr::{ByteOrder, Encoding, Ior, TaggedProfile, Version};
use rtorb_giop::framing::{FrameDecoder, FrameProtocol};
use rtorb_giop::header::{DEFAULT_MAX_MESSAGE_SIZE, HEADER_LEN, MessageHeader, MsgType};
use rtorb_giop::lite::{LITE_FLAG_SERVICE_CONTEXTS, LITE_HEADER_LEN, decode_lite, lite_request};
use rtorb_giop::message::{
    Content, LocateReply, LocateRequest, LocateStatus, Message, MessageWriter, Reply, ReplyHeader,
    ReplyStatus, Request, RequestHeader, decode_message,
};
use rtorb_giop::{GiopError, Reassembler, ServiceContext, ServiceContextList, TargetAddress};

fn sample() -> Bytes {
    let enc = Encoding::native()
        .with_order(ByteOrder::Big)
        .with_version(Version::V1_2);
    let h = RequestHeader::new(1, Bytes::from_static(b"Cubit"), "cube_long");
    let mut w = MessageWriter::request(enc, &h).unwrap();
    w.body().write_i32(3);
    w.finish().unwrap()
}

fn sample_lite() -> Bytes {
    let enc = Encoding::native().with_order(ByteOrder::Little);
    let h = RequestHeader::new(1, Bytes::from_static(b"Cubit"), "cube_long");
    let mut w = lite_request(enc, &h).unwrap();
    w.body().write_i32(3);
    w.finish().unwrap()
}

#[test]
fn truncated_at_every_length() {
    let msg = sample();
    for n in 0..msg.len() {
        let e = decode_message(msg.slice(..n)).unwrap_err();
        assert!(matches!(e, GiopError::Truncated { .. }), "{n}: {e:?}");
        assert!(e.is_protocol_error());
    }
    // Truncated with the size field fixed up: a body (CDR) error.
    for n in 12..msg.len() - 4 {
        let mut v = msg[..n].to_vec();
        v[8..12].copy_from_slice(&((n - 12) as u32).to_be_bytes());
        let e = decode_message(Bytes::from(v)).unwrap_err();
        assert!(matches!(e, GiopError::Cdr(_)), "{n}: {e:?}");
        assert!(!e.is_protocol_error());
        assert_eq!(
            e.to_system_exception().kind(),
            Some(rtorb_giop::SystemExceptionKind::Marshal)
        );
    }
    let lite = sample_lite();
    for n in 0..lite.len() {
        let e = decode_lite(lite.slice(..n)).unwrap_err();
        assert!(
            matches!(e, GiopError::Truncated { available, .. } if available == n),
            "{n}: {e:?}"
        );
    }
}

#[test]
fn size_larger_than_what_remains() {
    let mut v = sample().to_vec();
    v[8..12].copy_from_slice(&0x7fff_0000u32.to_be_bytes());
    assert!(matches!(
        decode_message(Bytes::from(v.clone())),
        Err(GiopError::MessageTooLarge { .. })
    ));
    v[8..12].copy_from_slice(&1000u32.to_be_bytes());
    assert!(matches!(
        decode_message(Bytes::from(v.clone())),
        Err(GiopError::Truncated { .. })
    ));
    v[8..12].copy_from_slice(&4u32.to_be_bytes());
    assert!(matches!(
        decode_message(Bytes::from(v)),
        Err(GiopError::SizeMismatch { .. })
    ));
}

#[test]
fn bad_headers() {
    let good = *b"GIOP\x01\x02\x00\x05\x00\x00\x00\x00";
    assert!(MessageHeader::parse(&good, DEFAULT_MAX_MESSAGE_SIZE).is_ok());
    let mut h = good;
    h[0] = b'X';
    assert_eq!(
        MessageHeader::parse(&h, DEFAULT_MAX_MESSAGE_SIZE),
        Err(GiopError::BadMagic(*b"XIOP"))
    );
    for (major, minor) in [(1, 4), (2, 0), (0, 9)] {
        let mut h = good;
        h[4] = major;
        h[5] = minor;
        assert_eq!(
            MessageHeader::parse(&h, DEFAULT_MAX_MESSAGE_SIZE),
            Err(GiopError::UnsupportedVersion(Version::new(major, minor)))
        );
    }
    // GIOP 1.3 is read with the 1.2 layout.
    let mut h = good;
    h[5] = 3;
    assert_eq!(
        MessageHeader::parse(&h, DEFAULT_MAX_MESSAGE_SIZE)
            .unwrap()
            .version,
        Version::new(1, 3)
    );
    for t in [8u8, 9, 0xff] {
        let mut h = good;
        h[7] = t;
        assert_eq!(
            MessageHeader::parse(&h, DEFAULT_MAX_MESSAGE_SIZE),
            Err(GiopError::UnknownMessageType(t))
        );
    }
    // Fragment in 1.0.
    let h = *b"GIOP\x01\x00\x00\x07\x00\x00\x00\x00";
    assert_eq!(
        MessageHeader::parse(&h, DEFAULT_MAX_MESSAGE_SIZE),
        Err(GiopError::MessageTypeNotInVersion {
            msg_type: MsgType::Fragment,
            version: Version::V1_0
        })
    );
    // GIOP 1.0 byte order is a boolean.
    let h = *b"GIOP\x01\x00\x02\x05\x00\x00\x00\x00";
    assert_eq!(
        MessageHeader::parse(&h, DEFAULT_MAX_MESSAGE_SIZE),
        Err(GiopError::InvalidFlags(2))
    );
    // A configurable maximum size.
    let h = *b"GIOP\x01\x02\x01\x00\x01\x00\x01\x00";
    assert_eq!(
        MessageHeader::parse(&h, 1000),
        Err(GiopError::MessageTooLarge {
            size: 0x10001,
            max: 1000
        })
    );
    for e in [
        GiopError::BadMagic(*b"XIOP"),
        GiopError::UnknownMessageType(9),
        GiopError::UnsupportedVersion(Version::new(2, 0)),
    ] {
        assert!(e.is_protocol_error());
    }
}

#[test]
fn framing_splits_a_stream_at_any_chunking() {
    let a = sample();
    let b = rtorb_giop::encode_message(&rtorb_giop::Message::new(
        Version::V1_0,
        ByteOrder::Little,
        rtorb_giop::Content::CloseConnection,
    ))
    .unwrap();
    let mut stream = a.to_vec();
    stream.extend_from_slice(&b);
    stream.extend_from_slice(&a);
    for chunk in 1..stream.len() + 1 {
        let mut f = FrameDecoder::new(FrameProtocol::Giop);
        let mut out = Vec::new();
        for piece in stream.chunks(chunk) {
            assert!(f.needed() > 0);
            f.push(piece).unwrap();
            while let Some(m) = f.next_frame().unwrap() {
                out.push(m);
            }
        }
        assert_eq!(out, vec![a.clone(), b.clone(), a.clone()], "chunk {chunk}");
        assert_eq!(f.buffered(), 0);
        assert_eq!(f.needed(), 12);
    }
}

#[test]
fn framing_needed_counts_down() {
    let a = sample();
    let mut f = FrameDecoder::new(FrameProtocol::Giop);
    assert_eq!(f.needed(), 12);
    f.push(&a[..12]).unwrap();
    assert_eq!(f.needed(), a.len() - 12);
    f.push(&a[12..20]).unwrap();
    assert_eq!(f.needed(), a.len() - 20);
    f.push(&a[20..]).unwrap();
    assert_eq!(f.needed(), 0);
    assert_eq!(f.next_frame().unwrap(), Some(a));
}

#[test]
fn framing_rejects_hostile_headers_before_buffering() {
    let mut f = FrameDecoder::with_max_message_size(FrameProtocol::Giop, 4096);
    f.push(b"GIOP\x01\x02\x00\x00").unwrap();
    let e = f.push(b"\xff\xff\xff\xf0").unwrap_err();
    assert!(matches!(e, GiopError::MessageTooLarge { .. }));
    assert!(e.is_protocol_error());
    assert!(f.buffer_mut().capacity() < 4096);
    assert_eq!(f.needed(), 0);

    let mut f = FrameDecoder::new(FrameProtocol::Giop);
    assert!(matches!(
        f.push(b"HTTP/1.1 200 OK\r\n"),
        Err(GiopError::BadMagic(_))
    ));

    let mut f = FrameDecoder::with_max_message_size(FrameProtocol::Lite, 100);
    assert!(matches!(
        f.push(&[0, 0, 0, 0, 0xff, 0xff, 0, 0]),
        Err(GiopError::MessageTooLarge { .. })
    ));
    let mut f = FrameDecoder::new(FrameProtocol::Lite);
    assert!(matches!(
        f.push(&[0x80, 0, 0, 0, 0, 0, 0, 0]),
        Err(GiopError::InvalidFlags(0x80))
    ));
}

#[test]
fn framing_lite_stream() {
    let a = sample_lite();
    let mut stream = a.to_vec();
    stream.extend_from_slice(&a);
    let mut f = FrameDecoder::new(FrameProtocol::Lite);
    assert_eq!(f.needed(), 8);
    let mut out = Vec::new();
    for b in &stream {
        f.push(std::slice::from_ref(b)).unwrap();
        while let Some(m) = f.next_frame().unwrap() {
            out.push(m);
        }
    }
    assert_eq!(out, vec![a.clone(), a]);
}

/// The framing of GIOP or GIOPlite, for [`assert_encodes_again`].
struct Framing {
    /// The length of its header, which ends with the message size.
    header_len: usize,
    /// Where the flags octet is, and the flags a message keeps as they
    /// are: GIOP 1.1 and 1.2 allow reserved bits, which are dropped;
    /// GIOPlite's bit 2 says whether service contexts follow, and is
    /// cleared where the list is empty.
    flags: (usize, u8),
    encode: fn(&Message) -> Result<Bytes, GiopError>,
    decode: fn(Bytes) -> Result<Message, GiopError>,
}

const GIOP: Framing = Framing {
    header_len: HEADER_LEN,
    flags: (6, 0b11),
    encode: rtorb_giop::encode_message,
    decode: decode_message,
};

const LITE: Framing = Framing {
    header_len: LITE_HEADER_LEN,
    flags: (0, 0b11),
    encode: rtorb_giop::encode_lite,
    decode: decode_lite,
};

/// Whatever decodes encodes again, to the octets it was decoded from but
/// for what the message model does not keep (see `rtorb_giop::message`):
///
/// - reserved flag bits of the header, which are dropped, and GIOPlite's
///   flag of an empty service context list, which is not written;
/// - padding octets, which a sender may fill with anything and rtorb
///   writes as zero: a re-encoding of the input's length matches it
///   octet for octet after the header except where it writes zero;
/// - octets after a message that has no body, padding with no body after
///   it, and the padding some writers put before a GIOP 1.2
///   `LocateReply` body, which are dropped: a shorter re-encoding
///   decodes to the same message.
///
/// In every case the re-encoding decodes to the message and encodes to
/// itself.
fn assert_encodes_again(input: &Bytes, m: &Message, framing: &Framing) {
    let again =
        (framing.encode)(m).unwrap_or_else(|e| panic!("{m:?} decodes but does not encode: {e}"));
    assert!(
        again.len() <= input.len(),
        "{input:02x?} became {again:02x?}"
    );
    let size_at = framing.header_len - 4;
    let (flags_at, kept) = framing.flags;
    for (i, (a, b)) in input.iter().zip(&again).take(size_at).enumerate() {
        if i == flags_at {
            assert_eq!(b & kept, a & kept, "flags of {m:?}");
        } else {
            assert_eq!(b, a, "header octet {i} of {m:?}");
        }
    }
    // The other flag bits: GIOP's reserved ones clear, GIOPlite's bit 2
    // set where service contexts follow.
    let contexts = match &m.content {
        Content::Request(r) => !r.header.service_context.0.is_empty(),
        Content::Reply(r) => !r.header.service_context.0.is_empty(),
        _ => false,
    };
    let others = if framing.header_len == LITE_HEADER_LEN && contexts {
        LITE_FLAG_SERVICE_CONTEXTS
    } else {
        0
    };
    assert_eq!(again[flags_at] & !kept, others, "flags of {m:?}");
    let back = (framing.decode)(again.clone()).expect("a re-encoded message decodes");
    if again.len() == input.len() {
        for i in size_at..input.len() {
            let (a, b) = (input[i], again[i]);
            assert!(
                a == b || b == 0,
                "octet {i}: {input:02x?} became {again:02x?}"
            );
        }
        assert_eq!(&back, m);
    } else {
        assert_eq!(
            without_body_offset(back.clone()),
            without_body_offset(m.clone())
        );
    }
    assert_eq!(
        (framing.encode)(&back).unwrap(),
        again,
        "encoding is a fixed point"
    );
}

/// The message with the offset of its body (where it was read from, not
/// what it holds) set to 0.
fn without_body_offset(mut m: Message) -> Message {
    match &mut m.content {
        Content::Request(r) => r.body_offset = 0,
        Content::Reply(r) => r.body_offset = 0,
        Content::Fragment(f) => f.body_offset = 0,
        _ => {}
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..200)) {
        let b = Bytes::from(data.clone());
        let _ = decode_message(b.clone());
        let _ = decode_lite(b.clone());
        let _ = Reassembler::default().push(b.clone());
        let _ = rtorb_giop::fragment_message(&b, 32);
        let _ = ServiceContext::new(1, b.clone()).typed();
        let _ = ServiceContext::new(5, b.clone()).typed();
        let _ = ServiceContext::new(10, b.clone()).typed();
        for proto in [FrameProtocol::Giop, FrameProtocol::Lite] {
            let mut f = FrameDecoder::new(proto);
            if f.push(&data).is_ok() {
                while let Ok(Some(_)) = f.next_frame() {}
            }
        }
    }

    #[test]
    fn random_bodies_behind_valid_headers_never_panic(
        version in 0u8..4,
        flags in 0u8..4,
        msg_type in 0u8..8,
        body in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        let order = flags & 1;
        let flags = if version == 0 { order } else { flags };
        let mut v = vec![b'G', b'I', b'O', b'P', 1, version, flags, msg_type];
        let size = body.len() as u32;
        v.extend_from_slice(&if order == 1 { size.to_le_bytes() } else { size.to_be_bytes() });
        v.extend_from_slice(&body);
        let b = Bytes::from(v);
        if let Ok(m) = decode_message(b.clone()) {
            assert_encodes_again(&b, &m, &GIOP);
        }
        let mut r = Reassembler::default();
        let _ = r.push(b.clone());
        let _ = r.push(b);
        let mut lite = vec![flags, msg_type, 0, 0];
        lite.extend_from_slice(&if order == 1 { size.to_le_bytes() } else { size.to_be_bytes() });
        lite.extend_from_slice(&body);
        let lite = Bytes::from(lite);
        if let Ok(m) = decode_lite(lite.clone()) {
            assert_encodes_again(&lite, &m, &LITE);
        }
    }

    #[test]
    fn mutated_messages_never_panic(i in 0usize..60, x in any::<u8>()) {
        let mut v = sample().to_vec();
        let i = i % v.len();
        v[i] ^= x;
        let _ = decode_message(Bytes::from(v));
        let mut v = sample_lite().to_vec();
        let i = i % v.len();
        v[i] ^= x;
        let _ = decode_lite(Bytes::from(v));
    }

    #[test]
    fn mutated_messages_that_decode_encode_again(
        which in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        x in 1u8..,
    ) {
        let samples = samples();
        let (whole, lite) = which.get(&samples);
        let mut v = whole.to_vec();
        v[at.index(whole.len())] ^= x;
        let v = Bytes::from(v);
        if *lite {
            if let Ok(m) = decode_lite(v.clone()) {
                assert_encodes_again(&v, &m, &LITE);
            }
        } else if let Ok(m) = decode_message(v.clone()) {
            assert_encodes_again(&v, &m, &GIOP);
        }
    }
}

/// A message of each type that has something after its header, in each
/// version and byte order and as GIOPlite (`true`), to mutate: random
/// bodies seldom decode as anything but the simplest messages.
fn samples() -> Vec<(Bytes, bool)> {
    let contexts = ServiceContextList(vec![ServiceContext::new(
        10,
        Bytes::from_static(&[0, 0, 0, 1]),
    )]);
    let mut request = RequestHeader::new(1, Bytes::from_static(b"Cubit"), "cube_long");
    request.service_context = contexts.clone();
    let forward = Ior {
        type_id: "IDL:Cubit:1.0".to_owned(),
        profiles: vec![TaggedProfile {
            tag: 0,
            data: Bytes::from_static(&[0, 1, 2, 0, 0, 0, 0, 2, b'h', 0, 0, 9]),
        }],
    };
    let contents = [
        Content::Request(Request {
            header: request,
            body: Bytes::from_static(&[0, 0, 0, 3]),
            body_offset: 0,
        }),
        Content::Reply(Reply {
            header: ReplyHeader {
                request_id: 1,
                reply_status: ReplyStatus::NoException,
                service_context: contexts,
            },
            body: Bytes::from_static(&[0, 0, 0, 27]),
            body_offset: 0,
        }),
        Content::LocateRequest(LocateRequest {
            request_id: 2,
            target: TargetAddress::Key(Bytes::from_static(b"Cubit")),
        }),
        Content::LocateReply(LocateReply {
            request_id: 2,
            status: LocateStatus::ObjectForward(forward),
        }),
    ];
    let mut out = Vec::new();
    for content in contents {
        for order in [ByteOrder::Big, ByteOrder::Little] {
            for version in [Version::V1_0, Version::V1_1, Version::V1_2] {
                let mut m = Message::new(version, order, content.clone());
                if version == Version::V1_0 {
                    if let Content::Request(r) = &mut m.content {
                        r.header.requesting_principal = Bytes::from_static(b"abc");
                    }
                }
                out.push((rtorb_giop::encode_message(&m).expect("a sample"), false));
            }
            let m = Message::new(Version::V1_2, order, content.clone());
            out.push((rtorb_giop::encode_lite(&m).expect("a sample"), true));
        }
    }
    out
}
