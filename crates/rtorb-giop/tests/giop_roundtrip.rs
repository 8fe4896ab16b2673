//! Property tests: every message type, in every version and byte order,
//! encodes and decodes to itself, and decoded messages re-encode to the
//! same octets.

use bytes::Bytes;
use proptest::prelude::*;
use rtorb_cdr::{ByteOrder, Ior, TaggedProfile, Version};
use rtorb_giop::exception::{
    CompletionStatus, SystemException, SystemExceptionId, SystemExceptionKind,
};
use rtorb_giop::message::{
    CancelRequest, Content, Fragment, LocateReply, LocateRequest, LocateStatus, Message, Reply,
    ReplyHeader, ReplyStatus, Request, RequestHeader, decode_message, encode_message,
};
use rtorb_giop::service_context::{ServiceContext, ServiceContextList};
use rtorb_giop::target::{AddressingDisposition, IORAddressingInfo, TargetAddress};
use rtorb_giop::{decode_lite, encode_lite};

fn bytes(max: usize) -> impl Strategy<Value = Bytes> {
    proptest::collection::vec(any::<u8>(), 0..max).prop_map(Bytes::from)
}

fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z_][a-zA-Z0-9_:/.]{0,24}"
}

fn order() -> impl Strategy<Value = ByteOrder> {
    prop_oneof![Just(ByteOrder::Big), Just(ByteOrder::Little)]
}

fn version() -> impl Strategy<Value = Version> {
    prop_oneof![
        Just(Version::V1_0),
        Just(Version::V1_1),
        Just(Version::V1_2),
        Just(Version::new(1, 3))
    ]
}

fn contexts() -> impl Strategy<Value = ServiceContextList> {
    proptest::collection::vec(
        (any::<u32>(), bytes(12)).prop_map(|(id, data)| ServiceContext { id, data }),
        0..3,
    )
    .prop_map(ServiceContextList)
}

fn ior() -> impl Strategy<Value = Ior> {
    (
        name(),
        proptest::collection::vec(
            (any::<u32>(), bytes(12)).prop_map(|(tag, data)| TaggedProfile { tag, data }),
            0..3,
        ),
    )
        .prop_map(|(type_id, profiles)| Ior { type_id, profiles })
}

fn system_exception() -> impl Strategy<Value = SystemException> {
    let id = prop_oneof![
        proptest::sample::select(SystemExceptionKind::ALL).prop_map(SystemExceptionId::Standard),
        "IDL:[a-z]{1,8}/[A-Z_]{1,8}:1\\.0".prop_map(SystemExceptionId::Other),
    ];
    let completed = prop_oneof![
        Just(CompletionStatus::Yes),
        Just(CompletionStatus::No),
        Just(CompletionStatus::Maybe)
    ];
    (id, any::<u32>(), completed)
        .prop_map(|(id, minor, completed)| SystemException::with_id(id, minor, completed))
}

fn target(v12: bool) -> BoxedStrategy<TargetAddress> {
    if !v12 {
        return bytes(16).prop_map(TargetAddress::Key).boxed();
    }
    prop_oneof![
        bytes(16).prop_map(TargetAddress::Key),
        (any::<u32>(), bytes(16))
            .prop_map(|(tag, data)| TargetAddress::Profile(TaggedProfile { tag, data })),
        (any::<u32>(), ior()).prop_map(|(selected_profile_index, ior)| {
            TargetAddress::Reference(IORAddressingInfo {
                selected_profile_index,
                ior,
            })
        }),
    ]
    .boxed()
}

fn request(v: Version) -> BoxedStrategy<Content> {
    let v12 = v >= Version::V1_2;
    let flags = if v12 {
        any::<u8>().boxed()
    } else {
        prop_oneof![Just(0u8), Just(3u8)].boxed()
    };
    let principal = if v12 {
        Just(Bytes::new()).boxed()
    } else {
        bytes(8).boxed()
    };
    let reserved = if v >= Version::V1_1 {
        any::<[u8; 3]>().boxed()
    } else {
        Just([0u8; 3]).boxed()
    };
    (
        reserved,
        any::<u32>(),
        flags,
        target(v12),
        name(),
        contexts(),
        principal,
        bytes(40),
    )
        .prop_map(
            |(
                reserved,
                request_id,
                response_flags,
                target,
                operation,
                service_context,
                p,
                body,
            )| {
                Content::Request(Request {
                    header: RequestHeader {
                        request_id,
                        response_flags,
                        target,
                        operation: operation.into(),
                        service_context,
                        requesting_principal: p,
                        reserved,
                    },
                    body,
                    body_offset: 0,
                })
            },
        )
        .boxed()
}

fn reply(v: Version) -> BoxedStrategy<Content> {
    let statuses: Vec<ReplyStatus> = [
        ReplyStatus::NoException,
        ReplyStatus::UserException,
        ReplyStatus::SystemException,
        ReplyStatus::LocationForward,
        ReplyStatus::LocationForwardPerm,
        ReplyStatus::NeedsAddressingMode,
    ]
    .into_iter()
    .filter(|s| s.allowed_in(v))
    .collect();
    (
        any::<u32>(),
        proptest::sample::select(statuses),
        contexts(),
        bytes(40),
    )
        .prop_map(|(request_id, reply_status, service_context, body)| {
            Content::Reply(Reply {
                header: ReplyHeader {
                    request_id,
                    reply_status,
                    service_context,
                },
                body,
                body_offset: 0,
            })
        })
        .boxed()
}

fn locate_status(v12: bool) -> BoxedStrategy<LocateStatus> {
    let basic = prop_oneof![
        Just(LocateStatus::UnknownObject),
        Just(LocateStatus::ObjectHere),
        ior().prop_map(LocateStatus::ObjectForward),
    ];
    if !v12 {
        return basic.boxed();
    }
    prop_oneof![
        basic,
        ior().prop_map(LocateStatus::ObjectForwardPerm),
        system_exception().prop_map(LocateStatus::LocSystemException),
        any::<i16>().prop_map(|d| LocateStatus::LocNeedsAddressingMode(AddressingDisposition(d))),
    ]
    .boxed()
}

fn content(v: Version) -> BoxedStrategy<Content> {
    let v12 = v >= Version::V1_2;
    let mut choices: Vec<BoxedStrategy<Content>> = vec![
        request(v),
        reply(v),
        any::<u32>()
            .prop_map(|request_id| Content::CancelRequest(CancelRequest { request_id }))
            .boxed(),
        (any::<u32>(), target(v12))
            .prop_map(|(request_id, target)| {
                Content::LocateRequest(LocateRequest { request_id, target })
            })
            .boxed(),
        (any::<u32>(), locate_status(v12))
            .prop_map(|(request_id, status)| {
                Content::LocateReply(LocateReply { request_id, status })
            })
            .boxed(),
        Just(Content::CloseConnection).boxed(),
        Just(Content::MessageError).boxed(),
    ];
    if v >= Version::V1_1 {
        choices.push(
            (any::<u32>(), bytes(40))
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

fn message() -> impl Strategy<Value = Message> {
    (version(), order(), any::<bool>()).prop_flat_map(|(v, o, more)| {
        content(v).prop_map(move |c| Message {
            version: v,
            order: o,
            more_fragments: more && v >= Version::V1_1,
            content: c,
            realign: None,
        })
    })
}

fn lite_message() -> impl Strategy<Value = Message> {
    (order(), any::<bool>(), content(Version::V1_2))
        .prop_filter("GIOPlite addresses by key only", |(_, _, c)| match c {
            Content::Request(r) => matches!(r.header.target, TargetAddress::Key(_)),
            Content::LocateRequest(l) => matches!(l.target, TargetAddress::Key(_)),
            _ => true,
        })
        .prop_map(|(o, more, c)| Message {
            version: Version::V1_2,
            order: o,
            more_fragments: more,
            content: c,
            realign: None,
        })
}

/// Copies the body offsets of `decoded` into `m` (they are outputs of
/// decoding only).
fn with_offsets(mut m: Message, decoded: &Message) -> Message {
    match (&mut m.content, &decoded.content) {
        (Content::Request(a), Content::Request(b)) => a.body_offset = b.body_offset,
        (Content::Reply(a), Content::Reply(b)) => a.body_offset = b.body_offset,
        (Content::Fragment(a), Content::Fragment(b)) => a.body_offset = b.body_offset,
        _ => {}
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn giop_round_trip(m in message()) {
        let bytes = encode_message(&m).unwrap();
        let back = decode_message(bytes.clone()).unwrap();
        prop_assert_eq!(&with_offsets(m, &back), &back);
        prop_assert_eq!(encode_message(&back).unwrap(), bytes.clone());
        // Bodies start where the layout says, and are slices of the message.
        match &back.content {
            Content::Request(Request { body, body_offset, .. })
            | Content::Reply(Reply { body, body_offset, .. })
            | Content::Fragment(Fragment { body, body_offset, .. }) => {
                prop_assert_eq!(&bytes[*body_offset..], &body[..]);
                if back.version >= Version::V1_2 && !body.is_empty()
                    && back.msg_type() != rtorb_giop::MsgType::Fragment {
                    prop_assert_eq!(body_offset % 8, 0);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn lite_round_trip(m in lite_message()) {
        let bytes = encode_lite(&m).unwrap();
        let back = decode_lite(bytes.clone()).unwrap();
        let mut expect = with_offsets(m, &back);
        if let Content::Request(r) = &mut expect.content {
            // GIOPlite carries neither the principal nor reserved octets.
            r.header.requesting_principal = Bytes::new();
            r.header.reserved = [0; 3];
        }
        prop_assert_eq!(&expect, &back);
        prop_assert_eq!(encode_lite(&back).unwrap(), bytes);
    }

    #[test]
    fn lite_is_never_larger_than_giop_1_2(m in lite_message()) {
        let m = Message { more_fragments: false, ..m };
        let giop = encode_message(&m).unwrap();
        let lite = encode_lite(&m).unwrap();
        prop_assert!(lite.len() < giop.len(), "lite {} giop {}", lite.len(), giop.len());
    }
}
