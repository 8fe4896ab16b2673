//! The checks shared by the bounded fuzz test (`tests/giop_fuzz_bounded.rs`)
//! and the `giop_message` cargo-fuzz target (which includes this file by
//! path): a byte stream goes through a `FrameDecoder` in pieces, GIOP
//! frames through a `Reassembler`, and whatever decodes must re-encode,
//! decode again to the same message, fragment and reassemble back to
//! itself, and cross between GIOP 1.2 and GIOPlite; the in-place views
//! must agree with the full decoding.

use rtorb_cdr::Bytes;
use rtorb_cdr::{CdrDecode, TransmissionCodeSets, Version};
use rtorb_giop::fragment::MIN_FRAGMENT_SIZE;
use rtorb_giop::message::{Content, Message};
use rtorb_giop::service_context::{RT_CORBA_PRIORITY, ServiceContextList};
use rtorb_giop::{
    FrameDecoder, FrameProtocol, MessageHeader, Reassembler, ReassemblyLimits, decode_lite,
    decode_message, encode_lite, encode_message, fragment_message,
};

const MAX_MESSAGE: u32 = 1 << 16;

fn limits() -> ReassemblyLimits {
    ReassemblyLimits {
        max_total_bytes: 1 << 16,
        max_partial_messages: 4,
        max_fragments_per_message: 64,
    }
}

fn normalized(m: &Message) -> Message {
    let mut m = m.clone();
    match &mut m.content {
        Content::Request(r) => r.body_offset = 0,
        Content::Reply(r) => r.body_offset = 0,
        Content::Fragment(f) => f.body_offset = 0,
        _ => {}
    }
    m
}

/// The message as GIOPlite can carry it: without the requesting principal
/// and the reserved octets, which only GIOP has.
fn without_giop_only_fields(m: &Message) -> Message {
    let mut m = normalized(m);
    if let Content::Request(r) = &mut m.content {
        r.header.requesting_principal = Bytes::new();
        r.header.reserved = [0; 3];
    }
    m
}

fn check_body(m: &Message, bytes: &Bytes) {
    let (body, offset) = match &m.content {
        Content::Request(r) => (&r.body, r.body_offset),
        Content::Reply(r) => (&r.body, r.body_offset),
        Content::Fragment(f) => (&f.body, f.body_offset),
        _ => {
            assert!(
                m.body_decoder(bytes, TransmissionCodeSets::DEFAULT)
                    .is_none()
            );
            return;
        }
    };
    assert_eq!(&bytes[offset..], &body[..], "the body ends the message");
    let mut d = m
        .body_decoder(bytes, TransmissionCodeSets::DEFAULT)
        .expect("requests, replies and fragments have a body decoder");
    assert_eq!(d.remaining(), body.len());
    let _ = Vec::<i32>::decode(&mut d);
    let _ = Bytes::decode(&mut d);
    let _ = String::decode(&mut d);
}

fn check_fragmentation(message: &Bytes, max: usize) {
    let Ok(pieces) = fragment_message(message, max) else {
        return;
    };
    assert!(
        pieces.iter().all(|p| p.len() <= max),
        "pieces fit the maximum"
    );
    // Not the stream's limits, which a long message cut small exceeds:
    // those under which any fragmentation of it reassembles.
    let mut r = Reassembler::new(ReassemblyLimits::for_message(message.len()));
    let n = pieces.len();
    for (i, p) in pieces.into_iter().enumerate() {
        let out = r.push(p).expect("our own fragments reassemble");
        if i + 1 < n {
            assert!(out.is_none());
        } else {
            assert_eq!(
                out.as_ref(),
                Some(message),
                "reassembly restores the message"
            );
        }
    }
    assert_eq!((r.pending(), r.held_bytes()), (0, 0));
}

/// What a view's `priority` promises of the message's service contexts:
/// none at all (`None`), or exactly one, an `RTCorbaPriority` context
/// whose data decodes to that priority.
fn check_view_priority(priority: Option<i16>, contexts: &ServiceContextList) {
    let Some(priority) = priority else {
        assert!(
            contexts.is_empty(),
            "a view without a priority reads a message with service contexts: {contexts:?}"
        );
        return;
    };
    assert_eq!(
        contexts.iter().map(|c| c.id).collect::<Vec<_>>(),
        [RT_CORBA_PRIORITY],
        "a view with a priority reads a message whose only context is RTCorbaPriority"
    );
    match contexts.rt_corba_priority() {
        Some(Ok(decoded)) => assert_eq!(priority, decoded, "the view's priority is the context's"),
        other => panic!("a view read priority {priority} where the context decodes to {other:?}"),
    }
}

/// The in-place views of `bytes` agree with its full decoding `m`, and
/// read nothing the full decoder rejects (`m` is `None`).
fn check_views(protocol: FrameProtocol, bytes: &Bytes, m: Option<&Message>) {
    let request = rtorb_giop::request_view(bytes, protocol);
    let reply = rtorb_giop::reply_view(bytes, protocol);
    let Some(m) = m else {
        assert!(
            request.is_none() && reply.is_none(),
            "a view reads a rejected message"
        );
        return;
    };
    if let Some(v) = request {
        let Content::Request(r) = &m.content else {
            panic!("a request view of a {:?}", m.msg_type());
        };
        assert_eq!((v.version, v.order), (m.version, m.order));
        assert_eq!(v.request_id, r.header.request_id);
        assert_eq!(v.response_flags, r.header.response_flags);
        assert_eq!(v.operation, r.header.operation.as_bytes());
        assert_eq!(
            Some(v.object_key),
            r.header.target.object_key().map(|k| &k[..])
        );
        assert_eq!(v.body_offset, r.body_offset);
        check_view_priority(v.priority, &r.header.service_context);
    }
    if let Some(v) = reply {
        let Content::Reply(r) = &m.content else {
            panic!("a reply view of a {:?}", m.msg_type());
        };
        assert_eq!((v.version, v.order), (m.version, m.order));
        assert_eq!(v.request_id, r.header.request_id);
        assert_eq!(v.reply_status, r.header.reply_status);
        assert_eq!(v.body_offset, r.body_offset);
        check_view_priority(v.priority, &r.header.service_context);
    }
}

/// Returns whether the message decoded.
fn check_giop(bytes: Bytes, fragment_size: usize) -> bool {
    let decoded = decode_message(bytes.clone());
    check_views(FrameProtocol::Giop, &bytes, decoded.as_ref().ok());
    let Ok(m) = decoded else {
        return false;
    };
    check_body(&m, &bytes);
    let again = encode_message(&m).expect("a decoded message re-encodes");
    assert!(
        again.len() <= bytes.len(),
        "re-encoding never grows a message"
    );
    let m2 = decode_message(again.clone()).expect("a re-encoded message decodes");
    assert_eq!(normalized(&m), normalized(&m2));
    assert_eq!(
        encode_message(&m2).expect("re-encodes"),
        again,
        "encoding is stable"
    );
    check_body(&m2, &again);
    if !m.more_fragments && !matches!(m.content, Content::Fragment(_)) {
        check_fragmentation(&again, fragment_size);
    }
    if m.version == Version::V1_2 {
        if let Ok(lite) = encode_lite(&m) {
            let back = decode_lite(lite).expect("GIOPlite from GIOP 1.2 decodes");
            assert_eq!(normalized(&back), without_giop_only_fields(&m));
        }
    }
    true
}

/// Returns whether the message decoded.
fn check_lite(bytes: Bytes) -> bool {
    let decoded = decode_lite(bytes.clone());
    check_views(FrameProtocol::Lite, &bytes, decoded.as_ref().ok());
    let Ok(m) = decoded else {
        return false;
    };
    check_body(&m, &bytes);
    let again = encode_lite(&m).expect("a decoded GIOPlite message re-encodes");
    assert!(
        again.len() <= bytes.len(),
        "re-encoding never grows a message"
    );
    let m2 = decode_lite(again.clone()).expect("a re-encoded GIOPlite message decodes");
    assert_eq!(normalized(&m), normalized(&m2));
    assert_eq!(
        encode_lite(&m2).expect("re-encodes"),
        again,
        "encoding is stable"
    );
    check_body(&m2, &again);
    let giop = encode_message(&m).expect("GIOPlite messages are GIOP 1.2 messages");
    let back = decode_message(giop).expect("GIOP 1.2 from GIOPlite decodes");
    assert_eq!(normalized(&back), without_giop_only_fields(&m));
    true
}

/// One input of the `giop_message` fuzz target: its first octet picks the
/// protocol (bit 7: GIOPlite, else GIOP), the size of the pieces the rest
/// arrives in (1 to 64 octets, bits 0 to 5) and the fragment size of the
/// fragmentation check; the rest is the stream. Returns how many messages
/// decoded.
pub(crate) fn run_fuzz_input(data: &[u8]) -> usize {
    let Some((&control, stream)) = data.split_first() else {
        return 0;
    };
    let protocol = if control & 0x80 != 0 {
        FrameProtocol::Lite
    } else {
        FrameProtocol::Giop
    };
    let piece = usize::from(control & 0x3f) + 1;
    let fragment_size = MIN_FRAGMENT_SIZE + usize::from(control & 0x3f);
    run_stream(protocol, piece, fragment_size, stream)
}

/// Feeds `stream` in pieces of `piece` octets; returns how many messages
/// decoded.
pub(crate) fn run_stream(
    protocol: FrameProtocol,
    piece: usize,
    fragment_size: usize,
    stream: &[u8],
) -> usize {
    let mut framing = FrameDecoder::with_max_message_size(protocol, MAX_MESSAGE);
    let mut reassembler = Reassembler::new(limits());
    let mut decoded = 0;
    for chunk in stream.chunks(piece.max(1)) {
        if framing.push(chunk).is_err() {
            return decoded;
        }
        loop {
            match framing.next_frame() {
                Ok(Some(frame)) => match protocol {
                    FrameProtocol::Lite => decoded += usize::from(check_lite(frame)),
                    FrameProtocol::Giop => {
                        check_giop(frame.clone(), fragment_size);
                        if let Ok(Some(whole)) = reassembler.push(frame) {
                            let h = MessageHeader::parse(&whole, u32::MAX)
                                .expect("the reassembler hands out whole messages");
                            assert!(!h.more_fragments);
                            assert_eq!(h.message_len(), whole.len());
                            decoded += usize::from(check_giop(whole, fragment_size));
                        }
                        assert!(reassembler.held_bytes() <= limits().max_total_bytes);
                    }
                },
                Ok(None) => {
                    assert!(framing.needed() > 0, "no frame yet means octets are needed");
                    break;
                }
                Err(_) => return decoded,
            }
        }
    }
    decoded
}
