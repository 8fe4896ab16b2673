//! The server side of Real-time CORBA's priority models: a POA with a
//! `PriorityModelPolicy` publishes it in its references, and runs each
//! upcall at the priority the model names (the client's, propagated in
//! an `RTCorbaPriority` context, or the server's declared one), in every
//! server strategy; a propagated priority out of range, one the mapping
//! cannot map, or a context that holds none is answered with the
//! exception Real-time CORBA names, and the connection keeps serving.
//!
//! The priorities map onto nice values (SCHED_OTHER), which needs no
//! privilege for the priorities used here.

use std::io::Write;
use std::net::TcpStream;
use std::sync::Arc;

use rtorb::exception::SystemException;
use rtorb::object::Object;
use rtorb::orb::{Orb, ServerStrategy};
use rtorb::rt::{ExposedPolicies, MappingKind, Priority, PriorityModelPolicy};
use rtorb_cdr::{ByteOrder, Encoding, Version};
use rtorb_giop::ior::Profile;
use rtorb_giop::message::{
    Content, MessageWriter, RESPONSE_WITH_TARGET, ReplyStatus, RequestHeader,
};
use rtorb_giop::service_context::{RT_CORBA_PRIORITY, ServiceContext, ServiceContextList};
use rtorb_giop::target::TargetAddress;
use rtorb_test_support::TIMEOUT;
use rtorb_test_support::net::{endpoint_address, read_message};
use rtorb_test_support::priority::{
    Reporter, activate_in_poa, decode_report, nice_client, nice_server_mapped,
};

/// A server of `strategy` whose priorities map linearly onto nice values,
/// with a reporter in a POA of `model`; the server and the reporter's
/// reference.
fn server(
    strategy: ServerStrategy,
    kind: MappingKind,
    model: PriorityModelPolicy,
) -> (Orb, Object) {
    let orb = nice_server_mapped(kind)
        .server_strategy(strategy)
        .build()
        .unwrap();
    let object = activate_in_poa(&orb, "rt", Some(model), Arc::new(Reporter));
    (orb, object)
}

/// Calls `where` on the object of `ior` through `client` from a thread at
/// `priority` (none: a thread without a CORBA priority).
fn report(
    client: &Orb,
    ior: &str,
    priority: Option<Priority>,
) -> Result<(i16, i32), SystemException> {
    let object = client.string_to_object(ior).unwrap();
    let current = client.rt_current();
    std::thread::spawn(move || {
        if let Some(p) = priority {
            current.set_priority(p).unwrap();
        }
        object
            .invoke("where", |_| Ok(()))?
            .decode::<_, SystemException>(decode_report)
    })
    .join()
    .unwrap()
}

const STRATEGIES: [ServerStrategy; 3] = [
    ServerStrategy::ThreadPerConnection,
    ServerStrategy::Reactive,
    ServerStrategy::LeaderFollowers,
];

#[test]
fn a_client_propagated_poa_runs_each_upcall_at_the_client_s_priority() {
    let client = nice_client();
    for strategy in STRATEGIES {
        let default = Priority::new(16_384).unwrap();
        let (orb, object) = server(
            strategy,
            MappingKind::Linear,
            PriorityModelPolicy::client_propagated(default),
        );
        let ior = orb.object_to_string(&object).unwrap();
        // The reference publishes the model.
        let profile = Profile::Iiop(object_profile(&orb, &object));
        assert_eq!(
            ExposedPolicies::of(&profile).priority_model,
            Some(PriorityModelPolicy::client_propagated(default))
        );
        // Nice 19 is CORBA 0 under the linear mapping; nice 0 is 16384.
        for (p, nice) in [(0, 19), (100, 19), (16_384, 0)] {
            let p = Priority::new(p).unwrap();
            assert_eq!(
                report(&client, &ior, Some(p)).unwrap(),
                (p.get(), nice),
                "{strategy}"
            );
        }
        // A client that sends no priority: the POA's default.
        assert_eq!(
            report(&client, &ior, None).unwrap(),
            (16_384, 0),
            "{strategy}"
        );
        orb.shutdown();
    }
}

#[test]
fn a_server_declared_poa_runs_at_its_priority_whatever_the_client_s() {
    let client = nice_client();
    for strategy in STRATEGIES {
        let declared = Priority::new(0).unwrap();
        let (orb, object) = server(
            strategy,
            MappingKind::Linear,
            PriorityModelPolicy::server_declared(declared),
        );
        let ior = orb.object_to_string(&object).unwrap();
        for p in [None, Some(Priority::new(20_000).unwrap())] {
            assert_eq!(report(&client, &ior, p).unwrap(), (0, 19), "{strategy}");
        }
        orb.shutdown();
    }
}

/// The IIOP profile of `object`.
fn object_profile(orb: &Orb, object: &Object) -> rtorb_giop::ior::IiopProfile {
    let ior = orb.object_to_string(object).unwrap();
    let reference = rtorb_giop::ObjectReference::from_stringified(&ior).unwrap();
    match &reference.profiles[0] {
        Profile::Iiop(p) => p.clone(),
        other => panic!("not IIOP: {other:?}"),
    }
}

/// A GIOP 1.2 request for `where` to `key` with `contexts`, id `id`.
fn raw_request(key: &[u8], id: u32, contexts: Vec<ServiceContext>) -> Vec<u8> {
    let header = RequestHeader {
        request_id: id,
        response_flags: RESPONSE_WITH_TARGET | 0x02,
        target: TargetAddress::Key(bytes::Bytes::copy_from_slice(key)),
        operation: "where".into(),
        service_context: ServiceContextList(contexts),
        requesting_principal: bytes::Bytes::new(),
        reserved: [0; 3],
    };
    let encoding = Encoding::native()
        .with_order(ByteOrder::Big)
        .with_version(Version::V1_2);
    MessageWriter::request(encoding, &header)
        .unwrap()
        .finish()
        .unwrap()
        .to_vec()
}

/// What a request is answered with: a system exception's repository id
/// and minor code, or `None` for a normal reply.
type Answer = Option<(&'static str, u32)>;

fn priority_context(data: &[u8]) -> ServiceContext {
    ServiceContext {
        id: RT_CORBA_PRIORITY,
        data: bytes::Bytes::copy_from_slice(data),
    }
}

/// Sends `request` on `stream` and reads the answer: the system
/// exception's name and minor code, or `None` for a normal reply.
fn exchange(stream: &mut TcpStream, request: &[u8]) -> Option<(String, u32)> {
    stream.write_all(request).unwrap();
    let reply = read_message(stream);
    let Content::Reply(r) = reply.content else {
        panic!("not a reply: {reply:?}");
    };
    match r.header.reply_status {
        ReplyStatus::NoException => None,
        ReplyStatus::SystemException => {
            let e = r.system_exception(reply.order).unwrap();
            Some((e.repository_id().to_owned(), e.minor))
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn bad_propagated_priorities_are_answered_and_the_connection_keeps_serving() {
    for strategy in STRATEGIES {
        // The direct mapping onto nice values has native priorities -19 to
        // 20 only: CORBA priority 1000 has none.
        let (orb, object) = server(
            strategy,
            MappingKind::Direct,
            PriorityModelPolicy::client_propagated(Priority::new(5).unwrap()),
        );
        let profile = object_profile(&orb, &object);
        let address = endpoint_address(&orb.endpoints()[0]);
        let mut stream = TcpStream::connect(&address).unwrap();
        stream.set_read_timeout(Some(TIMEOUT)).unwrap();
        let key = profile.object_key.clone();
        let cases: [(&[u8], Answer); 5] = [
            // -5, big-endian: out of range.
            (
                &[0, 0, 0xff, 0xfb],
                Some((
                    "IDL:omg.org/CORBA/BAD_PARAM:1.0",
                    rtorb::minor::BAD_PARAM_PRIORITY_OUT_OF_RANGE,
                )),
            ),
            // 1000: no native priority under the direct mapping.
            (
                &[0, 0, 0x03, 0xe8],
                Some((
                    "IDL:omg.org/CORBA/DATA_CONVERSION:1.0",
                    rtorb_cdr::OMG_VMCID | 2,
                )),
            ),
            // Not an encapsulated short.
            (
                &[7],
                Some((
                    "IDL:omg.org/CORBA/MARSHAL:1.0",
                    rtorb::minor::MARSHAL_PRIORITY_CONTEXT,
                )),
            ),
            // 10, little-endian: served.
            (&[1, 0, 10, 0], None),
            // And no context: the default, served.
            (&[], None),
        ];
        for (n, (data, expected)) in cases.iter().enumerate() {
            let contexts = if data.is_empty() {
                vec![]
            } else {
                vec![priority_context(data)]
            };
            let answer = exchange(&mut stream, &raw_request(&key, n as u32 + 1, contexts));
            let answer = answer.as_ref().map(|(id, minor)| (id.as_str(), *minor));
            assert_eq!(answer, *expected, "{strategy}, case {n}");
        }
        orb.shutdown();
    }
}

#[test]
fn a_collocated_call_runs_at_the_declared_priority_or_the_caller_s() {
    let declared = Priority::new(0).unwrap();
    for (model, expected) in [
        (PriorityModelPolicy::server_declared(declared), 0),
        (
            PriorityModelPolicy::client_propagated(Priority::new(7).unwrap()),
            16_384,
        ),
    ] {
        let (orb, object) = server(
            ServerStrategy::ThreadPerConnection,
            MappingKind::Linear,
            model,
        );
        // The caller is in the server's own ORB: the call does not leave
        // the process.
        let current = orb.rt_current();
        let (corba, _) = std::thread::spawn(move || {
            current
                .set_priority(Priority::new(16_384).unwrap())
                .unwrap();
            object
                .invoke("where", |_| Ok(()))?
                .decode::<_, SystemException>(decode_report)
        })
        .join()
        .unwrap()
        .unwrap();
        assert_eq!(corba, expected, "{model:?}");
        assert!(orb.stats().collocation.marshaled_calls + orb.stats().collocation.direct_calls > 0);
        orb.shutdown();
    }
}
