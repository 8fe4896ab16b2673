//! A bounded fuzz run on stable Rust, over the paths of the
//! `giop_message` fuzz target: byte streams, random or made of valid
//! messages (some fragmented) with octets flipped, overwritten, inserted
//! or cut, go through a `FrameDecoder` in pieces, GIOP frames through a
//! `Reassembler`, and every frame is decoded. Nothing may panic, and
//! whatever decodes must re-encode, decode again to the same message,
//! fragment and reassemble back to itself, and cross between GIOP 1.2 and
//! GIOPlite; the in-place request and reply views must agree with the
//! full decoding.
//!
//! Below the property tests: the inputs the fuzz target found bugs with,
//! byte for byte, and a replay of the target's corpus (`fuzz/corpus`).

use bytes::Bytes;
use proptest::prelude::*;
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::fragment::MIN_FRAGMENT_SIZE;
use rtorb_giop::message::{
    CancelRequest, Content, Fragment, LocateReply, LocateRequest, LocateStatus, Message, Reply,
    ReplyHeader, ReplyStatus, Request, RequestHeader,
};
use rtorb_giop::service_context::{ServiceContext, ServiceContextList, TypedServiceContext};
use rtorb_giop::target::{AddressingDisposition, TargetAddress};
use rtorb_giop::{FrameProtocol, encode_lite, encode_message, fragment_message};

const CASES: u32 = 2000;
#[path = "../../rtorb-cdr/tests/support/fuzz_corpus.rs"]
mod fuzz_corpus;
#[path = "support/stream_checks.rs"]
mod stream_checks;

use stream_checks::{run_fuzz_input, run_stream};

// ---------------------------------------------------------------------------
// Inputs

fn protocol() -> impl Strategy<Value = FrameProtocol> {
    prop_oneof![Just(FrameProtocol::Giop), Just(FrameProtocol::Lite)]
}

fn bytes(max: usize) -> impl Strategy<Value = Bytes> {
    proptest::collection::vec(any::<u8>(), 0..max).prop_map(Bytes::from)
}

/// Service context lists: random ones, and the one the in-place views
/// read (a lone `RTCorbaPriority` context, in either byte order).
fn contexts() -> impl Strategy<Value = ServiceContextList> {
    let random = proptest::collection::vec(
        (any::<u32>(), bytes(8)).prop_map(|(id, data)| ServiceContext { id, data }),
        0..3,
    )
    .prop_map(ServiceContextList);
    let order = prop_oneof![Just(ByteOrder::Big), Just(ByteOrder::Little)];
    let priority = (any::<i16>(), order).prop_map(|(p, order)| {
        let mut list = ServiceContextList::new();
        list.push_typed(&TypedServiceContext::RtCorbaPriority(p), order)
            .expect("a priority context encodes");
        list
    });
    prop_oneof![3 => random, 1 => priority]
}

fn operation() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("cube_long".to_string()),
        Just("cube_octet_sequence".to_string()),
        "[a-z_]{1,12}",
    ]
}

/// A message of any type that `version` has, addressed by object key.
fn content(version: Version) -> BoxedStrategy<Content> {
    let v12 = version >= Version::V1_2;
    let statuses: Vec<ReplyStatus> = [
        ReplyStatus::NoException,
        ReplyStatus::UserException,
        ReplyStatus::SystemException,
        ReplyStatus::LocationForward,
        ReplyStatus::NeedsAddressingMode,
    ]
    .into_iter()
    .filter(|s| s.allowed_in(version))
    .collect();
    let flags = if v12 {
        any::<u8>().boxed()
    } else {
        prop_oneof![Just(0u8), Just(3u8)].boxed()
    };
    let request = (
        any::<u32>(),
        flags,
        bytes(8),
        operation(),
        contexts(),
        bytes(48),
    )
        .prop_map(move |(id, response_flags, key, op, sc, body)| {
            let mut header = RequestHeader::new(id, key, op);
            header.response_flags = response_flags;
            header.service_context = sc;
            Content::Request(Request {
                header,
                body,
                body_offset: 0,
            })
        });
    let reply = (
        any::<u32>(),
        proptest::sample::select(statuses),
        contexts(),
        bytes(48),
    )
        .prop_map(|(id, status, sc, body)| {
            let mut header = ReplyHeader::new(id, status);
            header.service_context = sc;
            Content::Reply(Reply {
                header,
                body,
                body_offset: 0,
            })
        });
    let locate_status = if v12 {
        prop_oneof![
            Just(LocateStatus::UnknownObject),
            Just(LocateStatus::ObjectHere),
            any::<i16>()
                .prop_map(|d| LocateStatus::LocNeedsAddressingMode(AddressingDisposition(d))),
        ]
        .boxed()
    } else {
        prop_oneof![
            Just(LocateStatus::UnknownObject),
            Just(LocateStatus::ObjectHere)
        ]
        .boxed()
    };
    let mut choices = vec![
        request.boxed(),
        reply.boxed(),
        any::<u32>()
            .prop_map(|request_id| Content::CancelRequest(CancelRequest { request_id }))
            .boxed(),
        (any::<u32>(), bytes(8))
            .prop_map(|(request_id, key)| {
                Content::LocateRequest(LocateRequest {
                    request_id,
                    target: TargetAddress::Key(key),
                })
            })
            .boxed(),
        (any::<u32>(), locate_status)
            .prop_map(|(request_id, status)| {
                Content::LocateReply(LocateReply { request_id, status })
            })
            .boxed(),
        Just(Content::CloseConnection).boxed(),
        Just(Content::MessageError).boxed(),
    ];
    if version >= Version::V1_1 {
        choices.push(
            (any::<u32>(), bytes(24))
                .prop_map(move |(id, body)| {
                    Content::Fragment(Fragment {
                        request_id: v12.then_some(id),
                        body,
                        body_offset: 0,
                    })
                })
                .boxed(),
        );
    }
    proptest::strategy::Union::new(choices).boxed()
}

/// One message of `protocol`, encoded, and for GIOP sometimes split into
/// fragments; with whether it should come out of the framing and
/// reassembly decoded (a lone GIOP `Fragment` should not).
fn encoded(protocol: FrameProtocol) -> BoxedStrategy<(Vec<u8>, bool)> {
    let version = match protocol {
        FrameProtocol::Giop => prop_oneof![
            Just(Version::V1_0),
            Just(Version::V1_1),
            Just(Version::V1_2)
        ]
        .boxed(),
        FrameProtocol::Lite => Just(Version::V1_2).boxed(),
    };
    let order = prop_oneof![Just(ByteOrder::Big), Just(ByteOrder::Little)];
    let fragment = proptest::option::of(MIN_FRAGMENT_SIZE..96usize);
    (version, order, fragment)
        .prop_flat_map(move |(v, o, fragment)| {
            content(v).prop_map(move |c| {
                let m = Message::new(v, o, c);
                match protocol {
                    FrameProtocol::Lite => (encode_lite(&m).expect("valid").to_vec(), true),
                    FrameProtocol::Giop => {
                        let bytes = encode_message(&m).expect("valid");
                        let whole = !matches!(m.content, Content::Fragment(_));
                        match fragment.map(|max| fragment_message(&bytes, max)) {
                            Some(Ok(pieces)) => (pieces.concat(), whole),
                            _ => (bytes.to_vec(), whole),
                        }
                    }
                }
            })
        })
        .boxed()
}

/// How one octet of a valid stream is damaged.
#[derive(Debug, Clone, Copy)]
enum Mutation {
    Flip(usize, u8),
    Set(usize, u8),
    Insert(usize, u8),
    Remove(usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), 1..=255u8).prop_map(|(i, x)| Mutation::Flip(i, x)),
        3 => (any::<usize>(), any::<u8>()).prop_map(|(i, x)| Mutation::Set(i, x)),
        1 => (any::<usize>(), any::<u8>()).prop_map(|(i, x)| Mutation::Insert(i, x)),
        1 => any::<usize>().prop_map(Mutation::Remove),
        1 => any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(stream: &mut Vec<u8>, m: Mutation) {
    if stream.is_empty() {
        return;
    }
    let n = stream.len();
    match m {
        Mutation::Flip(i, x) => stream[i % n] ^= x,
        Mutation::Set(i, x) => stream[i % n] = x,
        Mutation::Insert(i, x) => stream.insert(i % (n + 1), x),
        Mutation::Remove(i) => {
            stream.remove(i % n);
        }
        Mutation::Truncate(i) => stream.truncate(i % n),
    }
}

/// A stream of valid messages, with its protocol and the number of
/// messages that should decode from it.
fn valid_stream() -> impl Strategy<Value = (FrameProtocol, Vec<u8>, usize)> {
    protocol().prop_flat_map(|p| {
        proptest::collection::vec(encoded(p), 1..4).prop_map(move |msgs| {
            let expected = msgs.iter().filter(|(_, whole)| *whole).count();
            let stream = msgs.into_iter().flat_map(|(b, _)| b).collect();
            (p, stream, expected)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn random_streams(
        protocol in protocol(),
        piece in 1..80usize,
        fragment_size in MIN_FRAGMENT_SIZE..96usize,
        stream in proptest::collection::vec(any::<u8>(), 0..256),
    ) {
        run_stream(protocol, piece, fragment_size, &stream);
    }

    #[test]
    fn random_bodies_behind_valid_headers(
        protocol in protocol(),
        piece in 1..80usize,
        fragment_size in MIN_FRAGMENT_SIZE..96usize,
        version in 0..3u8,
        flags in 0..4u8,
        msg_type in 0..8u8,
        body in proptest::collection::vec(any::<u8>(), 0..128),
    ) {
        // A header that frames, so the random octets reach the decoders.
        let mut stream = match protocol {
            FrameProtocol::Giop => {
                let mut h = b"GIOP\x01".to_vec();
                h.extend_from_slice(&[version, flags & if version == 0 { 1 } else { 3 }, msg_type]);
                h
            }
            FrameProtocol::Lite => vec![flags, msg_type, body.first().copied().unwrap_or(0) % 6, 0],
        };
        let size = body.len() as u32;
        let little = flags & 1 != 0;
        stream.extend_from_slice(&if little { size.to_le_bytes() } else { size.to_be_bytes() });
        stream.extend_from_slice(&body);
        run_stream(protocol, piece, fragment_size, &stream);
    }

    #[test]
    fn valid_streams_decode_whole(
        (protocol, stream, expected) in valid_stream(),
        piece in 1..80usize,
    ) {
        // Undamaged, every message (reassembled when fragmented) decodes.
        prop_assert_eq!(run_stream(protocol, piece, 64, &stream), expected);
    }

    #[test]
    fn mutated_valid_streams(
        (protocol, mut stream, _) in valid_stream(),
        mutations in proptest::collection::vec(mutation(), 1..6),
        piece in 1..80usize,
        fragment_size in MIN_FRAGMENT_SIZE..96usize,
    ) {
        for m in mutations {
            mutate(&mut stream, m);
        }
        run_stream(protocol, piece, fragment_size, &stream);
    }
}

// ---------------------------------------------------------------------------
// Inputs of the `giop_message` fuzz target, byte for byte: first the ones
// that found bugs (the first octet is the target's control octet, see
// `run_fuzz_input`), then its whole corpus.

/// A GIOP 1.1 Reply (big-endian) whose only service context is an
/// `RTCorbaPriority` one (priority 100), which the reply view reads: the
/// check once asserted that a viewed reply had no service context at all.
#[rustfmt::skip]
const GIOP11_REPLY_WITH_PRIORITY: &[u8] = &[
    0x3f, // control: GIOP, pieces of 64 octets
    b'G', b'I', b'O', b'P', 1, 1, 0, 1, 0, 0, 0, 28, // header: Reply, 28 octets
    0, 0, 0, 1, // one service context
    0, 0, 0, 10, // RTCorbaPriority
    0, 0, 0, 4, 0, 0, 0, 100, // its encapsulation: big-endian, priority 100
    0, 0, 0, 7, // request id
    0, 0, 0, 0, // NO_EXCEPTION
    0, 0, 0, 42, // body: a long
];

/// A GIOP 1.2 Request (big-endian) with the same lone context, which the
/// request view reads.
#[rustfmt::skip]
const GIOP12_REQUEST_WITH_PRIORITY: &[u8] = &[
    0x3f, // control: GIOP, pieces of 64 octets
    b'G', b'I', b'O', b'P', 1, 2, 0, 0, 0, 0, 0, 64, // header: Request, 64 octets
    0, 0, 0, 5, 3, 0, 0, 0, // request id, response flags, reserved
    0, 0, 0, 0, // KeyAddr, padding
    0, 0, 0, 5, b'C', b'u', b'b', b'i', b't', 0, 0, 0, // object key, padding
    0, 0, 0, 10, b'c', b'u', b'b', b'e', b'_', b'l', b'o', b'n', b'g', 0, 0, 0, // operation
    0, 0, 0, 1, // one service context
    0, 0, 0, 10, // RTCorbaPriority
    0, 0, 0, 4, 0, 0, 0, 100, // its encapsulation: big-endian, priority 100
    0, 0, 0, 0, // padding to 8
    0, 0, 0, 3, // body: a long
];

#[test]
fn a_viewed_reply_may_carry_its_priority_context() {
    let message = &GIOP11_REPLY_WITH_PRIORITY[1..];
    let view = rtorb_giop::reply_view(message, FrameProtocol::Giop).expect("the view reads it");
    assert_eq!((view.request_id, view.priority), (7, Some(100)));
    assert_eq!(run_fuzz_input(GIOP11_REPLY_WITH_PRIORITY), 1);
}

#[test]
fn a_viewed_request_may_carry_its_priority_context() {
    let message = &GIOP12_REQUEST_WITH_PRIORITY[1..];
    let view = rtorb_giop::request_view(message, FrameProtocol::Giop).expect("the view reads it");
    assert_eq!((view.request_id, view.priority), (5, Some(100)));
    assert_eq!(run_fuzz_input(GIOP12_REQUEST_WITH_PRIORITY), 1);
}

#[test]
fn the_fuzz_corpus_passes_the_checks() {
    fuzz_corpus::replay("giop_message", |input| {
        run_fuzz_input(input);
    });
}
