//! Real-time CORBA's priorities on the wire, checked byte for byte
//! against the layouts the specification gives and TAO writes:
//!
//! - the `RTCorbaPriority` service context (id 10) is an encapsulation
//!   holding the `short`: the byte-order octet, one octet of padding, the
//!   priority. TAO reads it so (`TAO_RT_Servant_Dispatcher::
//!   pre_invoke_remote_request`: a boolean byte order, then the `short`),
//!   and for a `CLIENT_PROPAGATED` POA copies the request's context into
//!   the reply's service contexts; an rtorb server does the same (in the
//!   reply's byte order), and runs the upcall at the priority;
//! - the `TAG_POLICIES` component of a reference is an encapsulated
//!   `sequence<PolicyValue>`; the priority model's `PolicyValue` has
//!   `ptype` 40 (`PRIORITY_MODEL_POLICY_TYPE`) and a `pvalue` that is an
//!   encapsulation of the model (an enum: `unsigned long`, 0
//!   `CLIENT_PROPAGATED`, 1 `SERVER_DECLARED`) then the server priority
//!   (`short`), the order of Real-time CORBA 1.0 §4.7.3 that TAO's
//!   `TAO_PriorityModelPolicy::_tao_encode` follows.
//!
//! The server's priorities map onto nice values (SCHED_OTHER).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;

use rtorb::orb::Orb;
use rtorb::rt::{MappingKind, Priority, PriorityModelPolicy};
use rtorb_cdr::{ByteOrder, Encoding, Version};
use rtorb_giop::ObjectReference;
use rtorb_giop::ior::{Profile, tags};
use rtorb_giop::message::{
    Content, MessageWriter, RESPONSE_WITH_TARGET, ReplyStatus, RequestHeader,
};
use rtorb_giop::service_context::{RT_CORBA_PRIORITY, ServiceContext, ServiceContextList};
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{Message, decode_message};
use rtorb_test_support::TIMEOUT;
use rtorb_test_support::net::endpoint_address;
use rtorb_test_support::priority::{Reporter, activate_in_poa, decode_report, nice_server_mapped};

/// A server with a reporter in a POA of each of `models`; the server and
/// the reporters' references.
fn server(models: &[PriorityModelPolicy]) -> (Orb, Vec<ObjectReference>) {
    let orb = nice_server_mapped(MappingKind::Linear).build().unwrap();
    let references = models
        .iter()
        .enumerate()
        .map(|(n, model)| {
            let object = activate_in_poa(&orb, &format!("rt{n}"), Some(*model), Arc::new(Reporter));
            ObjectReference::from_stringified(&orb.object_to_string(&object).unwrap()).unwrap()
        })
        .collect();
    (orb, references)
}

fn object_key(reference: &ObjectReference) -> Vec<u8> {
    match &reference.profiles[0] {
        Profile::Iiop(p) => p.object_key.to_vec(),
        other => panic!("not IIOP: {other:?}"),
    }
}

/// A `where` request of `version` in big-endian order to `key`, with an
/// `RTCorbaPriority` context holding `context` if given.
fn request(version: Version, key: &[u8], context: Option<&[u8]>) -> Vec<u8> {
    let contexts = context.map(|data| ServiceContext {
        id: RT_CORBA_PRIORITY,
        data: bytes::Bytes::copy_from_slice(data),
    });
    let header = RequestHeader {
        request_id: 7,
        response_flags: RESPONSE_WITH_TARGET,
        target: TargetAddress::Key(bytes::Bytes::copy_from_slice(key)),
        operation: "where".into(),
        service_context: ServiceContextList(contexts.into_iter().collect()),
        requesting_principal: bytes::Bytes::new(),
        reserved: [0; 3],
    };
    let encoding = Encoding::native()
        .with_order(ByteOrder::Big)
        .with_version(version);
    MessageWriter::request(encoding, &header)
        .unwrap()
        .finish()
        .unwrap()
        .to_vec()
}

/// Sends `request` and reads the reply: its octets, the message, and the
/// results (the CORBA priority and nice value of the upcall).
fn exchange(stream: &mut TcpStream, request: &[u8]) -> (Vec<u8>, Message, (i16, i32)) {
    stream.write_all(request).unwrap();
    let mut octets = vec![0u8; 12];
    stream.read_exact(&mut octets).unwrap();
    assert_eq!(
        octets[6] & 1,
        0,
        "a big-endian reply to a big-endian request"
    );
    let size = u32::from_be_bytes(octets[8..12].try_into().unwrap());
    octets.resize(12 + size as usize, 0);
    stream.read_exact(&mut octets[12..]).unwrap();
    let buffer = bytes::Bytes::from(octets.clone());
    let message = decode_message(buffer.clone()).unwrap();
    let Content::Reply(r) = &message.content else {
        panic!("not a reply: {message:?}");
    };
    assert_eq!(r.header.reply_status, ReplyStatus::NoException);
    let mut d = message
        .body_decoder(&buffer, message.encoding().codesets)
        .unwrap();
    let results = decode_report(&mut d).unwrap();
    (octets, message, results)
}

fn connect(orb: &Orb) -> TcpStream {
    let stream = TcpStream::connect(endpoint_address(&orb.endpoints()[0])).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    stream
}

#[test]
fn a_propagated_priority_is_the_upcall_s_and_comes_back_in_the_reply() {
    let (orb, references) = server(&[PriorityModelPolicy::client_propagated(Priority::MIN)]);
    let key = object_key(&references[0]);
    let nice = |p: i16| {
        -i32::from(
            orb.priority_control()
                .to_native(Priority::new(p).unwrap())
                .unwrap()
                .get(),
        )
    };
    let mut stream = connect(&orb);
    // 0x3000, in a big-endian and in a little-endian encapsulation.
    for context in [[0, 0, 0x30, 0x00], [1, 0, 0x00, 0x30]] {
        for version in [Version::V1_1, Version::V1_2] {
            let (octets, _, results) =
                exchange(&mut stream, &request(version, &key, Some(&context)));
            assert_eq!(results, (0x3000, nice(0x3000)), "{version:?}");
            #[rustfmt::skip]
            let contexts: &[u8] = &[
                0, 0, 0, 1,          // one service context
                0, 0, 0, 10,         // RTCorbaPriority
                0, 0, 0, 4,          // four octets of data:
                0, 0, 0x30, 0x00,    // big-endian encapsulation, padding, 0x3000
            ];
            #[rustfmt::skip]
            let id_and_status: &[u8] = &[
                0, 0, 0, 7,          // request id
                0, 0, 0, 0,          // NO_EXCEPTION
            ];
            // GIOP 1.2: id, status, contexts; before: contexts, id, status.
            let expected: Vec<u8> = if version == Version::V1_2 {
                [id_and_status, contexts].concat()
            } else {
                [contexts, id_and_status].concat()
            };
            assert_eq!(&octets[12..36], &expected[..], "{version:?} {context:?}");
        }
    }
    orb.shutdown();
}

#[test]
fn no_priority_comes_back_but_a_propagated_one_to_a_client_propagated_poa() {
    let declared = Priority::new(100).unwrap();
    let (orb, references) = server(&[
        PriorityModelPolicy::client_propagated(Priority::new(16_384).unwrap()),
        PriorityModelPolicy::server_declared(declared),
    ]);
    let mut stream = connect(&orb);
    let propagated = object_key(&references[0]);
    let declared_key = object_key(&references[1]);
    for (key, context, ran_at) in [
        // No context: the POA's default, nothing sent back.
        (&propagated, None, 16_384),
        // SERVER_DECLARED: the declared priority, nothing sent back.
        (
            &declared_key,
            Some(&[0u8, 0, 0x30, 0x00][..]),
            declared.get(),
        ),
    ] {
        let (_, message, (corba, _)) = exchange(&mut stream, &request(Version::V1_2, key, context));
        assert_eq!(corba, ran_at);
        let Content::Reply(r) = &message.content else {
            panic!("not a reply");
        };
        assert!(r.header.service_context.0.is_empty(), "{context:?}");
    }
    orb.shutdown();
}

/// The `TAG_POLICIES` component of `model`, encapsulated in `order`.
fn policies_component(order: ByteOrder, model: u32, priority: i16) -> Vec<u8> {
    let ulong = |v: u32| match order {
        ByteOrder::Big => v.to_be_bytes(),
        ByteOrder::Little => v.to_le_bytes(),
    };
    let short = match order {
        ByteOrder::Big => priority.to_be_bytes(),
        ByteOrder::Little => priority.to_le_bytes(),
    };
    let flag = u8::from(order == ByteOrder::Little);
    [
        &[flag, 0, 0, 0][..], // the component's encapsulation, padding
        &ulong(1),            // one PolicyValue
        &ulong(40),           // ptype: PRIORITY_MODEL_POLICY_TYPE
        &ulong(10),           // pvalue: ten octets,
        &[flag, 0, 0, 0],     //   an encapsulation, padding
        &ulong(model),        //   the model
        &short,               //   the server priority
    ]
    .concat()
}

#[test]
fn a_reference_publishes_the_priority_model_as_real_time_corba_lays_it_out() {
    let (orb, references) = server(&[
        PriorityModelPolicy::client_propagated(Priority::new(0x0102).unwrap()),
        PriorityModelPolicy::server_declared(Priority::new(90).unwrap()),
    ]);
    for (reference, model, priority) in [(&references[0], 0, 0x0102), (&references[1], 1, 90)] {
        let Profile::Iiop(profile) = &reference.profiles[0] else {
            panic!("not IIOP");
        };
        let component = profile
            .components
            .iter()
            .find(|c| c.tag == tags::TAG_POLICIES)
            .expect("a TAG_POLICIES component");
        let order = match component.component_data.first() {
            Some(0) => ByteOrder::Big,
            Some(1) => ByteOrder::Little,
            other => panic!("not an encapsulation: {other:?}"),
        };
        assert_eq!(
            &component.component_data[..],
            &policies_component(order, model, priority)[..],
            "model {model}"
        );
    }
    orb.shutdown();
}
