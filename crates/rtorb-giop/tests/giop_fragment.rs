//! Fragmentation and reassembly.

use bytes::Bytes;
use proptest::prelude::*;
use rtorb_cdr::{ByteOrder, Encoding, Version};
use rtorb_giop::GiopError;
use rtorb_giop::fragment::{
    MIN_FRAGMENT_SIZE, Reassembler, ReassemblyLimits, fragment_chunks, fragment_message,
};
use rtorb_giop::header::{HEADER_LEN, MessageHeader, MsgType};
use rtorb_giop::message::{
    CancelRequest, Content, Message, MessageWriter, RequestHeader, decode_message, encode_message,
};

fn request(version: Version, order: ByteOrder, id: u32, body_len: usize) -> Bytes {
    let enc = Encoding::native().with_order(order).with_version(version);
    let h = RequestHeader::new(id, Bytes::from_static(b"Cubit"), "cube_long_sequence");
    let mut w = MessageWriter::request(enc, &h).unwrap();
    let seq: Vec<i32> = (0..body_len as i32).collect();
    w.body().write_prim_seq(&seq).unwrap();
    w.finish().unwrap()
}

fn reassemble(r: &mut Reassembler, pieces: &[Bytes]) -> Option<Bytes> {
    let mut out = None;
    for (i, p) in pieces.iter().enumerate() {
        let got = r.push(p.clone()).unwrap();
        if i + 1 < pieces.len() {
            assert!(got.is_none(), "piece {i} completed early");
        } else {
            out = got;
        }
    }
    out
}

#[test]
fn split_pieces_follow_the_rules() {
    for version in [Version::V1_1, Version::V1_2] {
        for order in [ByteOrder::Big, ByteOrder::Little] {
            let msg = request(version, order, 42, 1024);
            let pieces = fragment_message(&msg, 100).unwrap();
            assert!(pieces.len() > 40);
            for (i, p) in pieces.iter().enumerate() {
                let h = MessageHeader::parse(p, u32::MAX).unwrap();
                assert!(p.len() <= 100);
                assert_eq!(h.message_len(), p.len());
                assert_eq!(h.order, order);
                assert_eq!(h.version, version);
                let last = i + 1 == pieces.len();
                assert_eq!(h.more_fragments, !last);
                if i == 0 {
                    assert_eq!(h.msg_type, MsgType::Request);
                    // Where a fragment's body starts, modulo 8.
                    let body_start = if version == Version::V1_2 { 0 } else { 4 };
                    assert_eq!(p.len() % 8, body_start);
                } else {
                    assert_eq!(h.msg_type, MsgType::Fragment);
                    let frag_header = if version == Version::V1_2 { 16 } else { 12 };
                    if !last {
                        assert_eq!((p.len() - frag_header) % 8, 0);
                    }
                    let m = decode_message(p.clone()).unwrap();
                    let Content::Fragment(f) = m.content else {
                        panic!()
                    };
                    assert_eq!(f.request_id, (version == Version::V1_2).then_some(42));
                }
            }
            let mut r = Reassembler::default();
            let back = reassemble(&mut r, &pieces).unwrap();
            assert_eq!(back, msg);
            assert_eq!(r.pending(), 0);
            assert_eq!(r.held_bytes(), 0);
            decode_message(back).unwrap();
        }
    }
}

#[test]
fn small_messages_are_not_split_and_pass_through() {
    let msg = request(Version::V1_2, ByteOrder::Big, 1, 2);
    assert_eq!(fragment_message(&msg, 1024).unwrap(), vec![msg.clone()]);
    let mut r = Reassembler::default();
    assert_eq!(r.push(msg.clone()).unwrap(), Some(msg));
}

#[test]
fn giop_1_0_cannot_fragment() {
    let msg = request(Version::V1_0, ByteOrder::Big, 1, 100);
    assert_eq!(fragment_message(&msg, 64), Err(GiopError::CannotFragment));
    let close = encode_message(&Message::new(
        Version::V1_2,
        ByteOrder::Big,
        Content::CloseConnection,
    ))
    .unwrap();
    assert!(fragment_message(&close, 64).is_ok());
    let msg = request(Version::V1_2, ByteOrder::Big, 1, 100);
    assert_eq!(
        fragment_message(&msg, MIN_FRAGMENT_SIZE - 1),
        Err(GiopError::FragmentSizeTooSmall(MIN_FRAGMENT_SIZE - 1))
    );
}

#[test]
fn interleaved_1_2_streams() {
    let a = request(Version::V1_2, ByteOrder::Little, 1, 300);
    let b = request(Version::V1_2, ByteOrder::Little, 2, 200);
    let pa = fragment_message(&a, 64).unwrap();
    let pb = fragment_message(&b, 48).unwrap();
    let mut r = Reassembler::default();
    let mut done = Vec::new();
    let (mut ia, mut ib) = (pa.iter(), pb.iter());
    loop {
        let (x, y) = (ia.next(), ib.next());
        if x.is_none() && y.is_none() {
            break;
        }
        for p in [x, y].into_iter().flatten() {
            if let Some(m) = r.push(p.clone()).unwrap() {
                done.push(m);
            }
        }
        // Other messages may pass between the fragments.
        let cancel = encode_message(&Message::new(
            Version::V1_2,
            ByteOrder::Little,
            Content::CancelRequest(CancelRequest { request_id: 99 }),
        ))
        .unwrap();
        assert_eq!(r.push(cancel.clone()).unwrap(), Some(cancel));
    }
    assert_eq!(done.len(), 2);
    assert!(done.contains(&a) && done.contains(&b));
}

#[test]
fn giop_1_1_cannot_interleave() {
    let a = request(Version::V1_1, ByteOrder::Big, 1, 100);
    let b = request(Version::V1_1, ByteOrder::Big, 2, 100);
    let pa = fragment_message(&a, 64).unwrap();
    let pb = fragment_message(&b, 64).unwrap();
    let mut r = Reassembler::default();
    assert_eq!(r.push(pa[0].clone()).unwrap(), None);
    assert!(matches!(
        r.push(pb[0].clone()),
        Err(GiopError::FragmentInterleaved(_))
    ));
}

#[test]
fn unknown_fragments_are_errors() {
    let a = request(Version::V1_2, ByteOrder::Big, 7, 100);
    let pa = fragment_message(&a, 64).unwrap();
    let mut r = Reassembler::default();
    let e = r.push(pa[1].clone()).unwrap_err();
    assert_eq!(e, GiopError::UnexpectedFragment(Some(7)));
    assert!(e.is_protocol_error());
    let b = request(Version::V1_1, ByteOrder::Big, 7, 100);
    let pb = fragment_message(&b, 64).unwrap();
    assert_eq!(
        r.push(pb[1].clone()),
        Err(GiopError::UnexpectedFragment(None))
    );
    // A duplicate start of the same request id.
    r.push(pa[0].clone()).unwrap();
    assert_eq!(
        r.push(pa[0].clone()),
        Err(GiopError::FragmentInterleaved(Some(7)))
    );
}

#[test]
fn mismatched_byte_order_is_an_error() {
    let a = request(Version::V1_2, ByteOrder::Big, 7, 100);
    let b = request(Version::V1_2, ByteOrder::Little, 7, 100);
    let pa = fragment_message(&a, 64).unwrap();
    let pb = fragment_message(&b, 64).unwrap();
    let mut r = Reassembler::default();
    r.push(pa[0].clone()).unwrap();
    // pb[1] continues request 7, but in little-endian order.
    assert_eq!(r.push(pb[1].clone()), Err(GiopError::FragmentMismatch));
}

#[test]
fn cancel_drops_partial_message() {
    for version in [Version::V1_1, Version::V1_2] {
        let a = request(version, ByteOrder::Big, 5, 100);
        let pa = fragment_message(&a, 64).unwrap();
        let mut r = Reassembler::default();
        r.push(pa[0].clone()).unwrap();
        assert_eq!(r.pending(), 1);
        assert!(r.held_bytes() > 0);
        let cancel = encode_message(&Message::new(
            version,
            ByteOrder::Big,
            Content::CancelRequest(CancelRequest { request_id: 5 }),
        ))
        .unwrap();
        assert_eq!(r.push(cancel.clone()).unwrap(), Some(cancel));
        assert_eq!(r.pending(), 0);
        assert_eq!(r.held_bytes(), 0);
        let id = (version == Version::V1_2).then_some(5);
        assert_eq!(
            r.push(pa[1].clone()),
            Err(GiopError::UnexpectedFragment(id))
        );
    }
}

#[test]
fn limits_are_enforced() {
    let limits = ReassemblyLimits {
        max_total_bytes: 1000,
        max_partial_messages: 2,
        max_fragments_per_message: 10,
    };
    // Too many partial messages.
    let mut r = Reassembler::new(limits);
    for id in 0..2 {
        let p = fragment_message(&request(Version::V1_2, ByteOrder::Big, id, 100), 64).unwrap();
        r.push(p[0].clone()).unwrap();
    }
    let p = fragment_message(&request(Version::V1_2, ByteOrder::Big, 9, 100), 64).unwrap();
    assert_eq!(
        r.push(p[0].clone()),
        Err(GiopError::TooManyPartialMessages(2))
    );

    // Too many fragments.
    let mut r = Reassembler::new(limits);
    let p = fragment_message(&request(Version::V1_2, ByteOrder::Big, 1, 200), 64).unwrap();
    assert!(p.len() > 10);
    let mut err = None;
    for piece in &p {
        if let Err(e) = r.push(piece.clone()) {
            err = Some(e);
            break;
        }
    }
    assert_eq!(err, Some(GiopError::TooManyFragments(10)));
    assert_eq!(r.pending(), 0);

    // Too many bytes.
    let limits = ReassemblyLimits {
        max_fragments_per_message: 1000,
        ..limits
    };
    let mut r = Reassembler::new(limits);
    let p = fragment_message(&request(Version::V1_2, ByteOrder::Big, 1, 400), 256).unwrap();
    let mut err = None;
    for piece in &p {
        if let Err(e) = r.push(piece.clone()) {
            err = Some(e);
            break;
        }
    }
    assert_eq!(err, Some(GiopError::ReassemblyLimit(1000)));
    assert_eq!(r.held_bytes(), 0);
}

#[test]
fn fragments_that_never_end_hit_a_bound() {
    let mut r = Reassembler::new(ReassemblyLimits {
        max_total_bytes: 1 << 20,
        max_partial_messages: 4,
        max_fragments_per_message: 100_000,
    });
    let first = fragment_message(&request(Version::V1_2, ByteOrder::Big, 3, 100), 64).unwrap();
    r.push(first[0].clone()).unwrap();
    // An endless stream of Fragment messages with the more-fragments flag.
    let mut frag = vec![b'G', b'I', b'O', b'P', 1, 2, 2, 7, 0, 0, 4, 4, 0, 0, 0, 3];
    frag.resize(HEADER_LEN + 0x404, 0);
    let frag = Bytes::from(frag);
    let mut n = 0;
    let err = loop {
        match r.push(frag.clone()) {
            Ok(None) => n += 1,
            Ok(Some(_)) => panic!("completed"),
            Err(e) => break e,
        }
        assert!(n < 10_000);
    };
    assert_eq!(err, GiopError::ReassemblyLimit(1 << 20));
    assert!(err.is_protocol_error());
    assert_eq!(r.held_bytes(), 0);
}

proptest! {
    #[test]
    fn split_then_reassemble_is_identity(
        v12 in any::<bool>(),
        little in any::<bool>(),
        body_len in 0usize..2000,
        max in MIN_FRAGMENT_SIZE..600,
    ) {
        let version = if v12 { Version::V1_2 } else { Version::V1_1 };
        let order = if little { ByteOrder::Little } else { ByteOrder::Big };
        let msg = request(version, order, 77, body_len);
        let pieces = fragment_message(&msg, max).unwrap();
        prop_assert!(pieces.iter().all(|p| p.len() <= max.max(msg.len().min(max))));
        let mut r = Reassembler::default();
        let back = reassemble(&mut r, &pieces).unwrap();
        prop_assert_eq!(back, msg);
    }
}

/// A GIOP 1.1 request whose body is `sequence<double>`, and its values.
fn doubles_request(order: ByteOrder, n: usize) -> (Bytes, Vec<f64>) {
    let enc = Encoding::native()
        .with_order(order)
        .with_version(Version::V1_1);
    let h = RequestHeader::new(9, Bytes::from_static(b"Points"), "big_points");
    let mut w = MessageWriter::request(enc, &h).unwrap();
    let values: Vec<f64> = (0..n).map(|i| i as f64 * 0.25 - 3.0).collect();
    w.body().write_prim_seq(&values).unwrap();
    (w.finish().unwrap(), values)
}

fn read_doubles(m: &Message, whole: &Bytes) -> Vec<f64> {
    let mut d = m
        .body_decoder(whole, rtorb_cdr::TransmissionCodeSets::DEFAULT)
        .expect("a body");
    d.read_prim_seq::<f64>().unwrap()
}

/// Regression: a GIOP 1.1 `Fragment` is aligned relative to its own start,
/// as omniORB sends them: after a first message of 8192 octets, the
/// fragment's 12-octet header puts its body 4 octets off an 8-octet
/// boundary, so the next double follows 4 octets of padding. Reassembled
/// by plain concatenation, the doubles after the boundary were read 4
/// octets off.
#[test]
fn giop_1_1_fragments_are_aligned_from_their_own_start() {
    for order in [ByteOrder::Big, ByteOrder::Little] {
        let (msg, values) = doubles_request(order, 3000);
        let h = MessageHeader::parse(&msg, u32::MAX).unwrap();
        // The first message: 8192 octets, ending on an 8-octet boundary of
        // the original, between two doubles.
        let cut = 8192;
        let first_header = MessageHeader {
            more_fragments: true,
            size: (cut - HEADER_LEN) as u32,
            ..h
        };
        let mut first = first_header.encode().to_vec();
        first.extend_from_slice(&msg[HEADER_LEN..cut]);
        // The fragment: header, 4 octets of padding (its body starts at
        // 12), then the rest of the doubles.
        let rest = &msg[cut..];
        let frag_header = MessageHeader {
            version: Version::V1_1,
            order,
            more_fragments: false,
            msg_type: MsgType::Fragment,
            size: (4 + rest.len()) as u32,
        };
        let mut frag = frag_header.encode().to_vec();
        frag.extend_from_slice(&[0; 4]);
        frag.extend_from_slice(rest);

        let mut r = Reassembler::default();
        assert!(r.push_message(Bytes::from(first)).unwrap().is_none());
        let (m, whole) = r
            .push_message(Bytes::from(frag))
            .unwrap()
            .expect("complete");
        assert!(m.realign.is_some());
        let got = read_doubles(&m, &whole);
        let first_wrong = got.iter().zip(&values).position(|(a, b)| a != b);
        assert_eq!((got.len(), first_wrong), (values.len(), None));
    }
}

/// What `fragment_message` cuts in GIOP 1.1 reads back right, whether
/// fragments are taken as aligned from their own start or not.
#[test]
fn giop_1_1_fragments_of_fragment_message_keep_the_alignment() {
    for order in [ByteOrder::Big, ByteOrder::Little] {
        let (msg, values) = doubles_request(order, 700);
        for max in [32, 100, 1000, 4096] {
            let pieces = fragment_message(&msg, max).unwrap();
            assert!(pieces.len() > 1);
            let mut r = Reassembler::default();
            let mut out = None;
            for p in &pieces {
                out = r.push_message(p.clone()).unwrap();
            }
            let (m, whole) = out.expect("complete");
            assert_eq!(m.realign, None, "no shift to record");
            assert_eq!(whole, msg);
            assert!(read_doubles(&m, &whole) == values, "max {max}");
        }
    }
}

/// What `fragment_chunks` cuts in GIOP 1.1 (requests and replies written
/// as fragments by the ORB) keeps the alignment too: it cuts where
/// `fragment_message` does.
#[test]
fn giop_1_1_gathered_fragments_keep_the_alignment() {
    for order in [ByteOrder::Big, ByteOrder::Little] {
        let (msg, values) = doubles_request(order, 700);
        for max in [32, 100, 1000, 4096] {
            let chunks = [msg.slice(..40), msg.slice(40..)];
            let pieces = fragment_chunks(&chunks, max).unwrap();
            // The chain, cut into its messages.
            let all = concat(&pieces);
            let mut r = Reassembler::default();
            let mut out = None;
            let mut at = 0;
            while at < all.len() {
                let h = MessageHeader::parse(&all[at..at + HEADER_LEN], u32::MAX).unwrap();
                let end = at + HEADER_LEN + h.size as usize;
                assert!(end - at <= max.max(HEADER_LEN), "max {max}");
                out = r
                    .push_message(Bytes::copy_from_slice(&all[at..end]))
                    .unwrap();
                at = end;
            }
            let (m, whole) = out.expect("complete");
            assert_eq!(m.realign, None, "no shift to record, max {max}");
            assert_eq!(whole, msg);
            assert!(read_doubles(&m, &whole) == values, "max {max}");
        }
    }
}

/// `pieces` (a chain of headers and slices) cut into its messages.
fn concat(pieces: &[Bytes]) -> Vec<u8> {
    pieces.iter().flat_map(|p| p.iter().copied()).collect()
}

/// The whole message `msg` cut at `cuts` into a chain of chunks.
fn cut(msg: &Bytes, cuts: &[usize]) -> Vec<Bytes> {
    let mut at = 0;
    let mut out = Vec::new();
    let mut points: Vec<usize> = cuts.iter().map(|c| c % msg.len()).collect();
    points.sort_unstable();
    for p in points {
        out.push(msg.slice(at..p));
        at = p;
    }
    out.push(msg.slice(at..));
    out
}

proptest! {
    #[test]
    fn gathered_fragments_equal_copied_ones(
        v12 in any::<bool>(),
        little in any::<bool>(),
        body_len in 0usize..2000,
        max in MIN_FRAGMENT_SIZE..700,
        cuts in proptest::collection::vec(any::<usize>(), 0..6),
    ) {
        let version = if v12 { Version::V1_2 } else { Version::V1_1 };
        let order = if little { ByteOrder::Little } else { ByteOrder::Big };
        let msg = request(version, order, 7, body_len);
        let chunks = cut(&msg, &cuts);
        let gathered = fragment_chunks(&chunks, max).unwrap();
        let copied = fragment_message(&msg, max).unwrap();
        prop_assert_eq!(concat(&gathered), concat(&copied));
        // Every octet of the body comes from the input, not a copy.
        let base = msg.as_ptr() as usize;
        let in_input: usize = gathered
            .iter()
            .filter(|p| {
                let at = p.as_ptr() as usize;
                at >= base && at + p.len() <= base + msg.len()
            })
            .map(Bytes::len)
            .sum();
        // All but the original header (replaced when fragmented).
        let expected = if copied.len() == 1 { msg.len() } else { msg.len() - HEADER_LEN };
        prop_assert_eq!(in_input, expected);
    }
}

#[test]
fn gathered_fragmentation_refuses_what_cannot_be_fragmented() {
    let msg = request(Version::V1_0, ByteOrder::Big, 1, 100);
    assert!(matches!(
        fragment_chunks(std::slice::from_ref(&msg), 64),
        Err(GiopError::CannotFragment)
    ));
    // Fits: passes through, even in 1.0.
    assert_eq!(
        fragment_chunks(std::slice::from_ref(&msg), 4096).unwrap(),
        vec![msg.clone()]
    );
    let msg = request(Version::V1_2, ByteOrder::Big, 1, 100);
    assert!(matches!(
        fragment_chunks(std::slice::from_ref(&msg), 8),
        Err(GiopError::FragmentSizeTooSmall(8))
    ));
    // A chain shorter than its header says.
    assert_eq!(
        fragment_chunks(&[msg.slice(..msg.len() - 1)], 64),
        Err(GiopError::Truncated {
            needed: msg.len(),
            available: msg.len() - 1
        })
    );
    assert_eq!(
        fragment_chunks(&[msg.slice(..5)], 64),
        Err(GiopError::Truncated {
            needed: 12,
            available: 5
        })
    );
}
