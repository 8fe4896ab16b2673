//! Property tests of the in-place views: a view agrees field by field with
//! the full decoder, covers every message of its shape, and never accepts
//! a message the full decoder rejects (checked on mutated messages).

use bytes::Bytes;
use proptest::prelude::*;
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::framing::FrameProtocol;
use rtorb_giop::message::{
    Content, Message, Reply, ReplyHeader, ReplyStatus, Request, RequestHeader, decode_message,
    encode_message,
};
use rtorb_giop::service_context::{
    RT_CORBA_PRIORITY, ServiceContext, ServiceContextList, TypedServiceContext,
};
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{decode_lite, encode_lite, reply_view, request_view};

/// GIOP 1.0 to 1.3, or GIOPlite (`None`).
fn protocol() -> impl Strategy<Value = Option<Version>> {
    prop_oneof![
        Just(Some(Version::V1_0)),
        Just(Some(Version::V1_1)),
        Just(Some(Version::V1_2)),
        Just(Some(Version::new(1, 3))),
        Just(None),
    ]
}

fn order() -> impl Strategy<Value = ByteOrder> {
    prop_oneof![Just(ByteOrder::Big), Just(ByteOrder::Little)]
}

fn bytes(max: usize) -> impl Strategy<Value = Bytes> {
    proptest::collection::vec(any::<u8>(), 0..max).prop_map(Bytes::from)
}

fn contexts() -> impl Strategy<Value = ServiceContextList> {
    prop_oneof![
        3 => Just(ServiceContextList::new()),
        // An RTCorbaPriority context: well formed, or not.
        1 => (any::<i16>(), order(), bytes(3), any::<bool>()).prop_map(|(p, o, junk, good)| {
            let data = if good {
                ServiceContext::from_typed(&TypedServiceContext::RtCorbaPriority(p), o)
                    .unwrap()
                    .data
            } else {
                junk
            };
            ServiceContextList(vec![ServiceContext { id: RT_CORBA_PRIORITY, data }])
        }),
        1 => proptest::collection::vec(
            (any::<u32>(), bytes(8)).prop_map(|(id, data)| ServiceContext { id, data }),
            1..3,
        )
        .prop_map(ServiceContextList),
    ]
}

fn encode(protocol: Option<Version>, order: ByteOrder, content: Content) -> Option<Bytes> {
    let version = protocol.unwrap_or(Version::V1_2);
    let msg = Message::new(version, order, content);
    match protocol {
        Some(_) => encode_message(&msg).ok(),
        None => encode_lite(&msg).ok(),
    }
}

fn decode(protocol: Option<Version>, message: &Bytes) -> Option<Message> {
    match protocol {
        Some(_) => decode_message(message.clone()).ok(),
        None => decode_lite(message.clone()).ok(),
    }
}

fn framing(protocol: Option<Version>) -> FrameProtocol {
    match protocol {
        Some(_) => FrameProtocol::Giop,
        None => FrameProtocol::Lite,
    }
}

/// A request, `Some` when its version can carry it.
fn request() -> impl Strategy<Value = (Option<Version>, ByteOrder, Content)> {
    (
        protocol(),
        order(),
        any::<u32>(),
        any::<bool>(),
        any::<u8>(),
        bytes(12),
        "[a-z_][a-z0-9_]{0,12}",
        contexts(),
        bytes(24),
    )
        .prop_map(
            |(protocol, order, request_id, expected, flags, key, op, sc, body)| {
                let v12 = protocol.is_none_or(|v| v >= Version::V1_2);
                let response_flags = if v12 {
                    flags
                } else if expected {
                    3
                } else {
                    0
                };
                let header = RequestHeader {
                    request_id,
                    response_flags,
                    target: TargetAddress::Key(key),
                    operation: op.into(),
                    service_context: sc,
                    requesting_principal: Bytes::new(),
                    reserved: [0; 3],
                };
                let content = Content::Request(Request {
                    header,
                    body,
                    body_offset: 0,
                });
                (protocol, order, content)
            },
        )
}

fn reply() -> impl Strategy<Value = (Option<Version>, ByteOrder, Content)> {
    (
        protocol(),
        order(),
        any::<u32>(),
        prop_oneof![
            Just(ReplyStatus::NoException),
            Just(ReplyStatus::UserException),
            Just(ReplyStatus::SystemException),
            Just(ReplyStatus::LocationForward),
        ],
        contexts(),
        bytes(24),
    )
        .prop_map(|(protocol, order, request_id, reply_status, sc, body)| {
            let content = Content::Reply(Reply {
                header: ReplyHeader {
                    request_id,
                    reply_status,
                    service_context: sc,
                },
                body,
                body_offset: 0,
            });
            (protocol, order, content)
        })
}

/// Checks `request_view` against the full decoder on `message`; with
/// `covered`, a message the full decoder reads in the view's shape must
/// also be read by the view.
fn check_request(protocol: Option<Version>, message: &Bytes, covered: bool) {
    let view = request_view(message, framing(protocol));
    let full = decode(protocol, message);
    let Some(full) = full else {
        assert_eq!(view, None, "the view accepts what the decoder rejects");
        return;
    };
    let in_shape = match &full.content {
        Content::Request(r) => {
            contexts_in_shape(protocol, &r.header.service_context)
                && matches!(r.header.target, TargetAddress::Key(_))
                && !full.more_fragments
        }
        _ => false,
    };
    let Some(v) = view else {
        assert!(
            !(covered && in_shape),
            "a request of the view's shape is not read"
        );
        return;
    };
    let Content::Request(r) = &full.content else {
        panic!("the view reads a {:?} as a request", full.msg_type());
    };
    assert!(in_shape);
    assert_eq!(v.version, full.version);
    assert_eq!(v.order, full.order);
    assert_eq!(v.request_id, r.header.request_id);
    assert_eq!(v.response_flags, r.header.response_flags);
    assert_eq!(v.response_expected(), r.header.response_expected());
    assert_eq!(
        Some(v.object_key),
        r.header.target.object_key().map(|k| &k[..])
    );
    assert_eq!(v.operation, r.header.operation.as_bytes());
    assert_eq!(v.body_offset, r.body_offset);
    assert_eq!(&message[v.body_offset..], &r.body[..]);
    assert_eq!(v.priority, context_priority(&r.header.service_context));
}

/// Whether the views read a message with `contexts`: GIOP messages with
/// no context or only a well-formed `RTCorbaPriority` one, GIOPlite
/// messages with none.
fn contexts_in_shape(protocol: Option<Version>, contexts: &ServiceContextList) -> bool {
    contexts.0.is_empty()
        || (protocol.is_some()
            && contexts.len() == 1
            && matches!(contexts.rt_corba_priority(), Some(Ok(_))))
}

/// The priority of the well-formed `RTCorbaPriority` context of
/// `contexts`, if there is one.
fn context_priority(contexts: &ServiceContextList) -> Option<i16> {
    contexts.rt_corba_priority().and_then(Result::ok)
}

fn check_reply(protocol: Option<Version>, message: &Bytes, covered: bool) {
    let view = reply_view(message, framing(protocol));
    let Some(full) = decode(protocol, message) else {
        assert_eq!(view, None, "the view accepts what the decoder rejects");
        return;
    };
    let in_shape = match &full.content {
        Content::Reply(r) => {
            contexts_in_shape(protocol, &r.header.service_context)
                && matches!(
                    r.header.reply_status,
                    ReplyStatus::NoException | ReplyStatus::UserException
                )
                && !full.more_fragments
        }
        _ => false,
    };
    let Some(v) = view else {
        assert!(
            !(covered && in_shape),
            "a reply of the view's shape is not read"
        );
        return;
    };
    let Content::Reply(r) = &full.content else {
        panic!("the view reads a {:?} as a reply", full.msg_type());
    };
    assert!(in_shape);
    assert_eq!(v.version, full.version);
    assert_eq!(v.order, full.order);
    assert_eq!(v.request_id, r.header.request_id);
    assert_eq!(v.reply_status, r.header.reply_status);
    assert_eq!(v.body_offset, r.body_offset);
    assert_eq!(&message[v.body_offset..], &r.body[..]);
    assert_eq!(v.priority, context_priority(&r.header.service_context));
}

/// `message` with the octet at `at` (modulo its length) replaced, or cut
/// short there.
fn mutate(message: &Bytes, at: usize, value: u8, cut: bool) -> Bytes {
    let mut m = message.to_vec();
    if m.is_empty() {
        return Bytes::new();
    }
    let at = at % m.len();
    if cut {
        m.truncate(at);
    } else {
        m[at] = value;
    }
    Bytes::from(m)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn request_views_agree_with_the_decoder((protocol, order, content) in request()) {
        if let Some(message) = encode(protocol, order, content) {
            check_request(protocol, &message, true);
            // A reply view never reads a request.
            prop_assert_eq!(reply_view(&message, framing(protocol)), None);
        }
    }

    #[test]
    fn reply_views_agree_with_the_decoder((protocol, order, content) in reply()) {
        if let Some(message) = encode(protocol, order, content) {
            check_reply(protocol, &message, true);
            prop_assert_eq!(request_view(&message, framing(protocol)), None);
        }
    }

    #[test]
    fn mutated_messages_are_never_misread(
        (protocol, order, content) in prop_oneof![request(), reply()],
        at in any::<usize>(),
        value in any::<u8>(),
        cut in any::<bool>(),
    ) {
        if let Some(message) = encode(protocol, order, content) {
            let bad = mutate(&message, at, value, cut);
            check_request(protocol, &bad, false);
            check_reply(protocol, &bad, false);
        }
    }
}

#[test]
fn garbage_and_empty_input_give_no_view() {
    for protocol in [FrameProtocol::Giop, FrameProtocol::Lite] {
        assert_eq!(request_view(&[], protocol), None);
        assert_eq!(reply_view(&[], protocol), None);
        assert_eq!(request_view(&[0xff; 64], protocol), None);
        assert_eq!(reply_view(&[0xff; 64], protocol), None);
    }
}
