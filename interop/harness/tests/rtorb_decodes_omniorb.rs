//! rtorb's wire layer against what omniORB 4.2.5 puts on the wire: every
//! recorded message (GIOP 1.0, 1.1, 1.2, fragmented, and live captures
//! made now) is decoded by rtorb, every field is checked against what the
//! omniORB client sent, and rtorb encodes the same message to the same
//! octets.
//!
//! omniORB does not zero alignment padding, so "the same octets" means
//! every octet that is not padding. Where the padding lies is found
//! without trusting rtorb's decoder: rtorb encodes each message twice, once
//! filling gaps with 0x00 and once with 0xff, and the octets that differ
//! are the gaps. The padding inside request and reply headers is also
//! found independently (`peek::header_padding`) and must be among them.

use std::collections::{BTreeSet, HashMap};

use bytes::Bytes;
use rtorb_cdr::{CdrDecode, CdrEncode, Decoder, Encoder, Encoding, TransmissionCodeSets};
use rtorb_giop::message::{Content, Message, MessageWriter, decode_message, encode_message};
use rtorb_giop::{MsgType, Reassembler, ReassemblyLimits, ReplyStatus};
use rtorb_interop::fixtures::{capture_sets, omniorb_fixtures_dir, read_capture_dir};
use rtorb_interop::{Capture, CaptureOptions, Direction, GiopVersion, capture_cubit, peek};

/// One Cubit argument or result.
#[derive(Debug, Clone, PartialEq)]
enum Arg {
    Void,
    Octet(u8),
    Short(i16),
    Long(i32),
    Struct(u8, i32, i16),
    LongSeq(Vec<i32>),
    OctetSeq(Bytes),
}

impl Arg {
    fn encode(&self, e: &mut Encoder) {
        match self {
            Arg::Void => {}
            Arg::Octet(v) => e.write_u8(*v),
            Arg::Short(v) => e.write_i16(*v),
            Arg::Long(v) => e.write_i32(*v),
            Arg::Struct(o, l, s) => {
                e.write_u8(*o);
                e.write_i32(*l);
                e.write_i16(*s);
            }
            Arg::LongSeq(v) => v.encode(e).unwrap(),
            Arg::OctetSeq(v) => v.encode(e).unwrap(),
        }
    }

    fn decode_like(&self, d: &mut Decoder) -> rtorb_cdr::Result<Arg> {
        Ok(match self {
            Arg::Void => Arg::Void,
            Arg::Octet(_) => Arg::Octet(d.read_u8()?),
            Arg::Short(_) => Arg::Short(d.read_i16()?),
            Arg::Long(_) => Arg::Long(d.read_i32()?),
            Arg::Struct(..) => Arg::Struct(d.read_u8()?, d.read_i32()?, d.read_i16()?),
            Arg::LongSeq(_) => Arg::LongSeq(Vec::decode(d)?),
            Arg::OctetSeq(_) => Arg::OctetSeq(Bytes::decode(d)?),
        })
    }

    fn cubed(&self) -> Arg {
        let c8 = |x: u8| x.wrapping_mul(x).wrapping_mul(x);
        let c32 = |x: i32| x.wrapping_mul(x).wrapping_mul(x);
        match self {
            Arg::Void => Arg::Void,
            Arg::Octet(v) => Arg::Octet(c8(*v)),
            Arg::Short(v) => Arg::Short(v.wrapping_mul(*v).wrapping_mul(*v)),
            Arg::Long(v) => Arg::Long(c32(*v)),
            Arg::Struct(o, l, s) => {
                Arg::Struct(c8(*o), c32(*l), s.wrapping_mul(*s).wrapping_mul(*s))
            }
            Arg::LongSeq(v) => Arg::LongSeq(v.iter().map(|x| c32(*x)).collect()),
            Arg::OctetSeq(v) => Arg::OctetSeq(v.iter().map(|x| c8(*x)).collect::<Vec<u8>>().into()),
        }
    }
}

/// The calls `cubit_client` makes (see the comment at the top of
/// interop/omniorb/cubit_client.cc), in order.
fn client_calls(options: &CaptureOptions) -> Vec<(&'static str, Arg)> {
    let mut calls = vec![
        ("cube_octet", Arg::Octet(3)),
        ("cube_short", Arg::Short(-7)),
        ("cube_long", Arg::Long(1234)),
        ("cube_struct", Arg::Struct(2, -3, 5)),
        ("cube_long_sequence", Arg::LongSeq(vec![1, 2, 3, -4])),
        ("cube_long_sequence", Arg::LongSeq((0..1024).collect())),
        (
            "cube_octet_sequence",
            Arg::OctetSeq((1..=16).collect::<Vec<u8>>().into()),
        ),
        (
            "cube_octet_sequence",
            Arg::OctetSeq(
                (0..2000)
                    .map(|i| (i % 256) as u8)
                    .collect::<Vec<u8>>()
                    .into(),
            ),
        ),
    ];
    if let Some(n) = options.big_octet_sequence {
        calls.push((
            "cube_octet_sequence",
            Arg::OctetSeq(
                (0..n)
                    .map(|i| ((7 * i) % 256) as u8)
                    .collect::<Vec<u8>>()
                    .into(),
            ),
        ));
    }
    calls.push(("cube_void", Arg::Void));
    if options.shutdown {
        calls.push(("shutdown", Arg::Void));
    }
    calls
}

/// Octet positions where two encodings with different padding fills differ.
fn gaps(a: &[u8], b: &[u8]) -> BTreeSet<usize> {
    assert_eq!(a.len(), b.len());
    (0..a.len()).filter(|&i| a[i] != b[i]).collect()
}

/// Asserts that `ours` equals `theirs` in every octet outside `padding`.
fn assert_same_outside(ours: &[u8], theirs: &[u8], padding: &BTreeSet<usize>, what: &str) {
    assert_eq!(ours.len(), theirs.len(), "{what}: length differs");
    for i in 0..ours.len() {
        if !padding.contains(&i) {
            assert_eq!(
                ours[i], theirs[i],
                "{what}: octet {i} differs (rtorb {:#04x}, omniORB {:#04x})",
                ours[i], theirs[i]
            );
        }
    }
}

fn header_padding(message: &[u8]) -> BTreeSet<usize> {
    peek::header_padding(message)
        .into_iter()
        .flatten()
        .collect()
}

/// Encodes a request or reply the way rtorb would send it, with the given
/// padding fill.
fn encode_like(msg: &Message, arg: &Arg, fill: u8) -> Bytes {
    let enc = msg.encoding().with_padding(fill);
    let mut w = match &msg.content {
        Content::Request(r) => MessageWriter::request(enc, &r.header).unwrap(),
        Content::Reply(r) => MessageWriter::reply(enc, &r.header).unwrap(),
        other => panic!("not a request or reply: {other:?}"),
    };
    arg.encode(w.body());
    w.finish().unwrap()
}

/// Checks one exchange: every message decodes, fields and values are what
/// the omniORB client sent and the omniORB server answered, and rtorb
/// re-encodes each message to the same octets.
fn check_exchange(
    label: &str,
    version: GiopVersion,
    options: &CaptureOptions,
    exchange: &[(String, Direction, Vec<u8>)],
) {
    let calls = client_calls(options);
    let mut next_call = 0usize;
    let mut pending: HashMap<u32, Arg> = HashMap::new();
    let mut replies = 0usize;
    let mut reassemblers = [
        Reassembler::new(ReassemblyLimits::default()),
        Reassembler::new(ReassemblyLimits::default()),
    ];
    let mut fragments = 0usize;
    for (name, dir, raw) in exchange {
        let what = format!("{label}/{name}");
        let raw = Bytes::from(raw.clone());
        let slot = usize::from(*dir == Direction::ServerToClient);
        let header = rtorb_giop::MessageHeader::parse(&raw[..12], u32::MAX)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(header.version.minor, version.minor(), "{what}: version");
        if header.more_fragments || header.msg_type == MsgType::Fragment {
            fragments += 1;
        }
        let Some(whole) = reassemblers[slot]
            .push(raw.clone())
            .unwrap_or_else(|e| panic!("{what}: {e}"))
        else {
            continue;
        };
        let msg = decode_message(whole.clone()).unwrap_or_else(|e| panic!("{what}: {e}"));
        match &msg.content {
            Content::Request(req) => {
                let (op, arg) = calls
                    .get(next_call)
                    .unwrap_or_else(|| panic!("{what}: more requests than calls"));
                next_call += 1;
                let peeked = peek::request(&whole).expect("peek reads the request");
                assert_eq!(req.header.operation, *op, "{what}: operation");
                assert_eq!(peeked.operation, *op);
                assert_eq!(
                    req.header.request_id, peeked.request_id,
                    "{what}: request id"
                );
                assert_eq!(
                    req.header.response_expected(),
                    *op != "shutdown",
                    "{what}: response flags"
                );
                assert_eq!(
                    req.header.target.object_key().map(|k| &k[..]),
                    Some(&b"Cubit"[..]),
                    "{what}: key"
                );
                assert!(
                    req.header.service_context.is_empty(),
                    "{what}: omniORB sent no contexts"
                );
                let mut d = msg
                    .body_decoder(&whole, TransmissionCodeSets::DEFAULT)
                    .unwrap();
                assert_eq!(&arg.decode_like(&mut d).unwrap(), arg, "{what}: arguments");
                assert!(
                    d.is_empty(),
                    "{what}: {} octets left in the body",
                    d.remaining()
                );
                if req.header.response_expected() {
                    pending.insert(req.header.request_id, arg.cubed());
                }
                check_reencoding(&what, &msg, arg, &whole);
            }
            Content::Reply(rep) => {
                replies += 1;
                assert_eq!(
                    rep.header.reply_status,
                    ReplyStatus::NoException,
                    "{what}: status"
                );
                let result = pending
                    .remove(&rep.header.request_id)
                    .unwrap_or_else(|| panic!("{what}: reply to an unknown request"));
                let mut d = msg
                    .body_decoder(&whole, TransmissionCodeSets::DEFAULT)
                    .unwrap();
                assert_eq!(
                    result.decode_like(&mut d).unwrap(),
                    result,
                    "{what}: results"
                );
                assert!(
                    d.is_empty(),
                    "{what}: {} octets left in the body",
                    d.remaining()
                );
                check_reencoding(&what, &msg, &result, &whole);
            }
            Content::LocateRequest(_) | Content::LocateReply(_) | Content::CloseConnection => {
                let ours = encode_message(&msg).unwrap();
                let theirs_padding = locate_padding(&msg, &whole);
                assert_same_outside(&ours, &whole, &theirs_padding, &what);
            }
            other => panic!("{what}: unexpected message {other:?}"),
        }
    }
    assert_eq!(next_call, calls.len(), "{label}: every call was seen");
    assert!(
        pending.is_empty(),
        "{label}: unanswered requests {pending:?}"
    );
    assert_eq!(
        replies,
        calls.iter().filter(|(op, _)| *op != "shutdown").count()
    );
    if options.big_octet_sequence.is_some() && version != GiopVersion::V1_0 {
        assert!(fragments > 0, "{label}: expected fragmented messages");
    }
}

/// Padding in a LocateRequest/LocateReply: a GIOP 1.2 TargetAddress has two
/// octets after its discriminator; LocateReply 1.2 bodies are aligned on 8.
fn locate_padding(msg: &Message, whole: &[u8]) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    if msg.msg_type() == MsgType::LocateRequest && msg.version.minor >= 2 {
        out.extend([18, 19]);
    }
    if msg.msg_type() == MsgType::LocateReply && msg.version.minor >= 2 {
        out.extend(20..whole.len().min(24));
    }
    out
}

fn check_reencoding(what: &str, msg: &Message, arg: &Arg, whole: &Bytes) {
    let zeros = encode_like(msg, arg, 0x00);
    let ones = encode_like(msg, arg, 0xff);
    let padding = gaps(&zeros, &ones);
    let independent = header_padding(whole);
    assert!(
        independent.is_subset(&padding),
        "{what}: header padding {independent:?} not among rtorb's gaps {padding:?}"
    );
    assert_same_outside(&zeros, whole, &padding, what);
    // The message re-encoded from its decoded form (body kept as received)
    // is the same too.
    let again = encode_message(msg).unwrap();
    assert_same_outside(&again, whole, &padding, what);
}

#[test]
fn rtorb_decodes_and_reencodes_every_recorded_omniorb_message() {
    let dir = omniorb_fixtures_dir();
    let sets = capture_sets();
    assert_eq!(sets.len(), 6);
    for set in sets {
        let exchange = read_capture_dir(&dir.join(set.dir_name)).unwrap();
        assert!(exchange.len() >= 10, "{}: too few messages", set.dir_name);
        check_exchange(set.dir_name, set.version, &set.options, &exchange);
    }
}

fn live(version: GiopVersion, options: CaptureOptions) {
    let capture: Capture = capture_cubit(version, &options).unwrap_or_else(|e| panic!("{e}"));
    let exchange: Vec<(String, Direction, Vec<u8>)> = capture
        .exchange
        .iter()
        .enumerate()
        .map(|(i, (d, m))| (format!("live-{i}"), *d, m.clone()))
        .collect();
    check_exchange(
        &format!("live GIOP 1.{}", version.minor()),
        version,
        &options,
        &exchange,
    );
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn rtorb_decodes_a_live_omniorb_exchange_giop10() {
    live(GiopVersion::V1_0, CaptureOptions::default());
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn rtorb_decodes_a_live_omniorb_exchange_giop11_fragmented() {
    live(
        GiopVersion::V1_1,
        CaptureOptions {
            big_octet_sequence: Some(rtorb_interop::FRAGMENTING_OCTETS),
            ..CaptureOptions::default()
        },
    );
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn rtorb_decodes_a_live_omniorb_exchange_giop12_fragmented() {
    live(
        GiopVersion::V1_2,
        CaptureOptions {
            big_octet_sequence: Some(rtorb_interop::FRAGMENTING_OCTETS),
            ..CaptureOptions::default()
        },
    );
}

#[test]
fn encoding_then_decoding_with_a_fill_still_decodes() {
    // The padding fill changes only the gaps: a message written with 0xff
    // padding still decodes to the same values.
    let header = rtorb_giop::RequestHeader::new(1, Bytes::from_static(b"Cubit"), "cube_struct");
    let enc = Encoding::native().with_padding(0xff);
    let mut w = MessageWriter::request(enc, &header).unwrap();
    Arg::Struct(2, -3, 5).encode(w.body());
    let bytes = w.finish().unwrap();
    let msg = decode_message(bytes.clone()).unwrap();
    let mut d = msg
        .body_decoder(&bytes, TransmissionCodeSets::DEFAULT)
        .unwrap();
    assert_eq!(
        Arg::Struct(0, 0, 0).decode_like(&mut d).unwrap(),
        Arg::Struct(2, -3, 5)
    );
}
