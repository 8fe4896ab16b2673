//! Hostile input: truncated, oversized, malformed and random messages give
//! typed errors and never panic; framing rejects bad headers before it
//! buffers their bodies.

use bytes::Bytes;
use proptest::prelude::*;
use rtorb_cdr::{ByteOrder, Encoding, Version};
use rtorb_giop::framing::{FrameDecoder, FrameProtocol};
use rtorb_giop::header::{DEFAULT_MAX_MESSAGE_SIZE, MessageHeader, MsgType};
use rtorb_giop::lite::{decode_lite, lite_request};
use rtorb_giop::message::{MessageWriter, RequestHeader, decode_message};
use rtorb_giop::{GiopError, Reassembler, ServiceContext};

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
        assert!(decode_lite(lite.slice(..n)).is_err());
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
            // Whatever decodes encodes again.
            let _ = rtorb_giop::encode_message(&m);
        }
        let mut r = Reassembler::default();
        let _ = r.push(b.clone());
        let _ = r.push(b);
        let mut lite = vec![flags, msg_type, 0, 0];
        lite.extend_from_slice(&if order == 1 { size.to_le_bytes() } else { size.to_be_bytes() });
        lite.extend_from_slice(&body);
        if let Ok(m) = decode_lite(Bytes::from(lite)) {
            let _ = rtorb_giop::encode_lite(&m);
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
}
