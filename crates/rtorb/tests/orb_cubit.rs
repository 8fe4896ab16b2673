//! rtorb client ↔ rtorb server over real connections: every Cubit
//! operation over IIOP and UIOP, GIOP 1.0, 1.1, 1.2 and GIOPlite; unknown
//! keys; a server that shuts down and comes back; garbage on one
//! connection; concurrent calls; the round-trip timeout; shutdown. Every
//! test that runs a server runs it under each server concurrency strategy.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::Duration;

use rtorb::exception::{SystemException, SystemExceptionKind};
use rtorb::object::Stub;
use rtorb::orb::{Orb, ServerStrategy};
use rtorb::policy::Policy;
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb_cdr::{ByteOrder, CdrEncode, Version};
use rtorb_giop::message::{Content, LocateRequest, LocateStatus, Message, RequestHeader};
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{decode_message, encode_message, fragment_message};
use rtorb_test_support::cubit::guarded::CheckedCubeError;
use rtorb_test_support::cubit::{Cubit, CubitImpl, Guarded, GuardedSkeleton, cubit};
use rtorb_test_support::hold::HeldServant;
use rtorb_test_support::net::{iiop_address, read_message, socket_path};
use rtorb_test_support::wait::eventually;
use rtorb_test_support::{TIMEOUT, client, server};

/// A server Orb on `endpoint` with `strategy`.
fn server_orb(endpoint: &str, strategy: ServerStrategy) -> Orb {
    Orb::builder()
        .listen(endpoint)
        .server_strategy(strategy)
        .build()
        .unwrap()
}

/// A server Orb on `endpoint` serving a Guarded (a Cubit) under `Cubit`,
/// and its stringified reference.
fn guarded_server(endpoint: &str, strategy: ServerStrategy) -> (Orb, String) {
    let orb = server_orb(endpoint, strategy);
    let obj = orb
        .activate_with_key(
            &b"Cubit"[..],
            Arc::new(GuardedSkeleton(CubitImpl::default())),
        )
        .unwrap();
    let ior = orb.object_to_string(&obj).expect("a reference");
    (orb, ior)
}

fn cube_everything(cubit: &Cubit) {
    cubit.cube_void().unwrap();
    assert_eq!(cubit.cube_octet(3).unwrap(), 27);
    assert_eq!(cubit.cube_short(-7).unwrap(), -343);
    assert_eq!(cubit.cube_long(1234).unwrap(), 1_879_080_904);
    let m = cubit::Many { o: 2, l: -3, s: 5 };
    assert_eq!(
        cubit.cube_struct(&m).unwrap(),
        cubit::Many {
            o: 8,
            l: -27,
            s: 125
        }
    );
    assert_eq!(
        cubit.cube_long_sequence(&[1, 2, 3, -4]).unwrap(),
        vec![1, 8, 27, -64]
    );
    let longs: Vec<i32> = (0..1024).collect();
    let cubed: Vec<i32> = longs
        .iter()
        .map(|l| l.wrapping_mul(*l).wrapping_mul(*l))
        .collect();
    assert_eq!(cubit.cube_long_sequence(&longs).unwrap(), cubed);
    for len in [0usize, 16, 2000, 100_000] {
        let octets: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
        let want: Vec<u8> = octets
            .iter()
            .map(|o| o.wrapping_mul(*o).wrapping_mul(*o))
            .collect();
        assert_eq!(&cubit.cube_octet_sequence(&octets).unwrap()[..], &want[..]);
    }
    assert!(cubit.is_a("IDL:Cubit:1.0").unwrap());
    assert!(!cubit.is_a("IDL:Other:1.0").unwrap());
    assert!(!cubit.non_existent().unwrap());
    cubit.shutdown().unwrap();
    // The oneway went before this call on the same connection.
    assert_eq!(cubit.cube_long(2).unwrap(), 8);
}

fn check_endpoint(endpoint: &str, strategy: ServerStrategy) {
    let (server, ior) = guarded_server(endpoint, strategy);
    let client = client::orb();
    let obj = client.string_to_object(&ior).unwrap();
    let guarded = Guarded::narrow(obj).unwrap().expect("a Guarded");
    cube_everything(&guarded);
    assert_eq!(guarded.checked_cube(10).unwrap(), 1000);
    assert!(matches!(
        guarded.checked_cube(2000),
        Err(CheckedCubeError::Overflow(o)) if o.limit == 1290
    ));
    client.shutdown();
    server.shutdown();
}

#[test]
fn every_operation_over_iiop_in_every_giop_version_and_giop_lite() {
    for endpoint in [
        "iiop://1.0@127.0.0.1:0",
        "iiop://1.1@127.0.0.1:0",
        "iiop://1.2@127.0.0.1:0",
        "iiop://127.0.0.1:0?giop=lite",
    ] {
        for strategy in ServerStrategy::ALL {
            check_endpoint(endpoint, strategy);
        }
    }
}

#[test]
fn every_operation_over_uiop_in_every_giop_version_and_giop_lite() {
    for (version, query) in [("1.0@", ""), ("1.1@", ""), ("", ""), ("", "?giop=lite")] {
        for strategy in ServerStrategy::ALL {
            let endpoint = format!("uiop://{version}{}{query}", socket_path("ops"));
            check_endpoint(&endpoint, strategy);
        }
    }
}

#[test]
fn corbaloc_urls_reach_plain_keys() {
    for strategy in ServerStrategy::ALL {
        let (server, _) = guarded_server(server::IIOP_LOOPBACK, strategy);
        let addr = iiop_address(&server);
        let client = client::orb();
        for v in ["1.0", "1.1", "1.2"] {
            let obj = client
                .string_to_object(&format!("corbaloc::{v}@{addr}/Cubit"))
                .unwrap();
            let cubit: Cubit = obj.unchecked_narrow();
            assert_eq!(cubit.cube_long(-3).unwrap(), -27);
        }
    }
}

#[test]
fn an_unknown_key_is_object_not_exist() {
    for strategy in ServerStrategy::ALL {
        let (server, _) = guarded_server(server::IIOP_LOOPBACK, strategy);
        let addr = iiop_address(&server);
        let client = client::orb();
        let cubit: Cubit = client
            .string_to_object(&format!("corbaloc::1.2@{addr}/Nobody"))
            .unwrap()
            .unchecked_narrow();
        let e = cubit.cube_long(1).unwrap_err();
        assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist));
        assert!(cubit.non_existent().unwrap());
        // A deactivated object is gone too.
        assert!(server.deactivate(b"Cubit"));
        let gone: Cubit = client
            .string_to_object(&format!("corbaloc::1.2@{addr}/Cubit"))
            .unwrap()
            .unchecked_narrow();
        assert_eq!(
            gone.cube_long(1).unwrap_err().kind(),
            Some(SystemExceptionKind::ObjectNotExist)
        );
    }
}

/// A servant whose every operation raises `NO_IMPLEMENT`.
struct Refusing;

impl Skeleton for Refusing {
    fn repository_ids(&self) -> &'static [&'static str] {
        &["IDL:Refusing:1.0"]
    }

    fn dispatch(&self, _request: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        Err(SystemException::new(
            SystemExceptionKind::NoImplement,
            0,
            rtorb_giop::CompletionStatus::No,
        ))
    }
}

#[test]
fn a_plain_key_rebound_or_removed_is_seen_by_the_next_request_on_a_connection() {
    for strategy in ServerStrategy::ALL {
        let (server, _) = guarded_server(server::IIOP_LOOPBACK, strategy);
        let client = client::orb();
        let cubit: Cubit = client
            .string_to_object(&format!("corbaloc::1.2@{}/Cubit", iiop_address(&server)))
            .unwrap()
            .unchecked_narrow();
        for _ in 0..3 {
            assert_eq!(cubit.cube_long(3).unwrap(), 27);
        }
        // The same connection throughout (the server remembers the
        // servant of the key last called on it).
        assert_eq!(server.stats().server_connections, 1);
        server
            .activate_with_key(&b"Cubit"[..], Arc::new(Refusing))
            .unwrap();
        assert_eq!(
            cubit.cube_long(3).unwrap_err().kind(),
            Some(SystemExceptionKind::NoImplement),
            "{strategy:?}"
        );
        assert!(server.deactivate(b"Cubit"));
        assert_eq!(
            cubit.cube_long(3).unwrap_err().kind(),
            Some(SystemExceptionKind::ObjectNotExist),
            "{strategy:?}"
        );
        server
            .activate_with_key(
                &b"Cubit"[..],
                Arc::new(GuardedSkeleton(CubitImpl::default())),
            )
            .unwrap();
        assert_eq!(cubit.cube_long(2).unwrap(), 8);
        assert_eq!(server.stats().server_connections, 1);
    }
}

#[test]
fn malformed_references_are_bad_param() {
    let client = client::orb();
    for s in [
        "IOR:zz",
        "corbaloc::1.2@/",
        "http://x",
        "corbaloc:rir:/Nothing",
    ] {
        let e = client.string_to_object(s).unwrap_err();
        assert_eq!(e.kind(), Some(SystemExceptionKind::BadParam), "{s}");
    }
}

fn restart_case(endpoint_of: impl Fn(&Orb) -> String, first: &str, strategy: ServerStrategy) {
    let (server, ior) = guarded_server(first, strategy);
    let endpoint = endpoint_of(&server);
    let client = client::orb();
    let cubit: Cubit = client.string_to_object(&ior).unwrap().unchecked_narrow();
    assert_eq!(cubit.cube_long(3).unwrap(), 27);
    assert_eq!(client.stats().idle_client_connections, 1);
    server.shutdown();
    drop(server);

    // The server is gone: the cached connection carries CloseConnection,
    // and a new one cannot be opened.
    let e = cubit.cube_long(3).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            Some(SystemExceptionKind::Transient | SystemExceptionKind::CommFailure)
        ),
        "{e:?}"
    );

    // A new server on the same endpoint: calls work again.
    let (again, _) = guarded_server(&endpoint, strategy);
    assert_eq!(cubit.cube_long(4).unwrap(), 64);

    // Shut down while a connection is cached, restart before the next
    // call: the request is sent again on a new connection, unseen by the
    // caller.
    again.shutdown();
    drop(again);
    let (third, _) = guarded_server(&endpoint, strategy);
    assert_eq!(cubit.cube_long(5).unwrap(), 125);
    drop(third);
}

#[test]
fn a_server_that_shuts_down_and_comes_back_over_iiop() {
    for strategy in ServerStrategy::ALL {
        restart_case(
            |s| s.endpoints()[0].clone(),
            "iiop://1.2@127.0.0.1:0",
            strategy,
        );
    }
}

#[test]
fn a_server_that_shuts_down_and_comes_back_over_uiop() {
    for strategy in ServerStrategy::ALL {
        let path = socket_path("restart");
        restart_case(
            |s| s.endpoints()[0].clone(),
            &format!("uiop://{path}"),
            strategy,
        );
    }
}

#[test]
fn garbage_closes_only_its_own_connection() {
    for strategy in ServerStrategy::ALL {
        let (server, ior) = guarded_server(server::IIOP_LOOPBACK, strategy);
        let addr = iiop_address(&server);
        let client = client::orb();
        let cubit: Cubit = client.string_to_object(&ior).unwrap().unchecked_narrow();
        assert_eq!(cubit.cube_octet(2).unwrap(), 8);

        let mut raw = TcpStream::connect(&addr).unwrap();
        raw.set_read_timeout(Some(TIMEOUT)).unwrap();
        raw.write_all(b"this is not GIOP at all, not even close")
            .unwrap();
        let mut answer = Vec::new();
        raw.read_to_end(&mut answer).unwrap();
        let msg = decode_message(answer.into()).expect("a MessageError and then the end");
        assert_eq!(msg.content, Content::MessageError);

        // The other connection is untouched.
        assert_eq!(cubit.cube_octet(3).unwrap(), 27);
        let other = client::orb();
        let cubit2: Cubit = other.string_to_object(&ior).unwrap().unchecked_narrow();
        assert_eq!(cubit2.cube_short(2).unwrap(), 8);
    }
}

fn raw_exchange(stream: &mut TcpStream, pieces: &[bytes::Bytes]) -> Message {
    for p in pieces {
        stream.write_all(p).unwrap();
    }
    read_message(stream)
}

#[test]
fn locate_requests_and_fragmented_requests_are_served() {
    for strategy in ServerStrategy::ALL {
        let (server, _) = guarded_server(server::IIOP_LOOPBACK, strategy);
        let addr = iiop_address(&server);
        let mut raw = TcpStream::connect(&addr).unwrap();
        raw.set_read_timeout(Some(TIMEOUT)).unwrap();
        for (version, key, want) in [
            (Version::V1_0, &b"Cubit"[..], LocateStatus::ObjectHere),
            (Version::V1_2, &b"Cubit"[..], LocateStatus::ObjectHere),
            (Version::V1_1, &b"Nobody"[..], LocateStatus::UnknownObject),
        ] {
            let locate = Message::new(
                version,
                ByteOrder::Big,
                Content::LocateRequest(LocateRequest {
                    request_id: 9,
                    target: TargetAddress::Key(bytes::Bytes::copy_from_slice(key)),
                }),
            );
            let reply = raw_exchange(&mut raw, &[encode_message(&locate).unwrap()]);
            assert_eq!(reply.version, version);
            let Content::LocateReply(l) = reply.content else {
                panic!("{reply:?}")
            };
            assert_eq!((l.request_id, l.status), (9, want));
        }
        for version in [Version::V1_1, Version::V1_2] {
            let enc = rtorb_cdr::Encoding::native()
                .with_order(ByteOrder::Big)
                .with_version(version);
            let header = RequestHeader::new(
                77,
                bytes::Bytes::from_static(b"Cubit"),
                "cube_octet_sequence",
            );
            let mut w = rtorb_giop::MessageWriter::request(enc, &header).unwrap();
            let octets = vec![3u8; 5000];
            w.body().write_octet_seq(&octets).unwrap();
            let whole = w.finish().unwrap();
            let pieces = fragment_message(&whole, 1024).unwrap();
            assert!(pieces.len() > 3);
            let reply = raw_exchange(&mut raw, &pieces);
            let Content::Reply(r) = &reply.content else {
                panic!("{reply:?}")
            };
            assert_eq!(r.header.request_id, 77);
            let mut d = rtorb_cdr::Decoder::with_position(
                encode_message(&reply).unwrap(),
                0,
                r.body_offset,
                reply.encoding(),
            );
            let got = d.read_octet_seq().unwrap();
            assert_eq!(&got[..], &[27u8; 5000][..]);
        }
    }
}

#[test]
fn concurrent_calls_use_separate_connections() {
    for strategy in ServerStrategy::ALL {
        let (server, ior) = guarded_server(server::IIOP_LOOPBACK, strategy);
        let client = Arc::new(client::orb());
        let cubit: Cubit = client.string_to_object(&ior).unwrap().unchecked_narrow();
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let cubit = cubit.clone();
                std::thread::spawn(move || {
                    for i in 0..200i32 {
                        let l = t * 1000 + i;
                        assert_eq!(
                            cubit.cube_long(l).unwrap(),
                            l.wrapping_mul(l).wrapping_mul(l)
                        );
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let idle = client.stats().idle_client_connections;
        assert!((2..=8).contains(&idle), "{idle} connections");
        drop(server);
    }
}

#[test]
fn a_call_that_takes_too_long_times_out() {
    for strategy in ServerStrategy::ALL {
        let server = server::with_strategy(strategy);
        let held = HeldServant::new(TIMEOUT);
        let obj = server.activate(held.clone()).unwrap();
        let ior = server.object_to_string(&obj).unwrap();
        // The ORB's round-trip timeout, which a call held in the servant
        // outlasts whatever the machine's load: the hold lasts until the
        // test releases it, and the request goes out on the connection
        // `record(1)` left idle, before the deadline is looked at.
        let client = Orb::builder()
            .round_trip_timeout(Duration::from_millis(200))
            .build()
            .unwrap();
        let obj = client.string_to_object(&ior).unwrap();
        // The calls that are to succeed, however slow the machine, wait
        // longer (an object's policy wins over the ORB's).
        let patient = obj.with_policies(&[Policy::RelativeRoundtripTimeout(TIMEOUT)]);
        let record = |n: u32| patient.invoke("record", |e| n.encode(e)).map(|_| ());
        record(1).unwrap();
        let e = obj
            .invoke("hold", |e| 2u32.encode(e))
            .map(|_| ())
            .unwrap_err();
        assert_eq!(e.kind(), Some(SystemExceptionKind::Timeout));
        assert_eq!(e.minor, rtorb::minor::TIMEOUT_ROUND_TRIP);
        // The reactive server runs one request at a time: let the held
        // one end before the next call.
        assert!(held.hold().wait_entered(TIMEOUT), "{strategy}");
        held.hold().release();
        assert!(
            eventually(TIMEOUT, || held.recorded() == [1, 2]),
            "{strategy}"
        );
        // The next call has a fresh connection.
        record(3).unwrap();
        assert_eq!(held.recorded(), [1, 2, 3], "{strategy}");
    }
}

#[test]
fn orb_init_reads_endpoints_and_initial_references() {
    for strategy in ServerStrategy::ALL {
        let (server, ior) = guarded_server(server::IIOP_LOOPBACK, strategy);
        let (orb, rest) = Orb::init([
            "prog".to_owned(),
            "-ORBListenEndpoints".to_owned(),
            format!("uiop://{}", socket_path("init")),
            "-ORBInitRef".to_owned(),
            format!("Cubit={ior}"),
            "-ORBServerStrategy".to_owned(),
            strategy.to_string(),
            "arg".to_owned(),
        ])
        .unwrap();
        assert_eq!(rest, ["prog", "arg"]);
        assert_eq!(orb.endpoints().len(), 1);
        assert_eq!(orb.config().server_strategy, strategy);
        let cubit: Cubit = orb
            .resolve_initial_references("Cubit")
            .unwrap()
            .unchecked_narrow();
        assert_eq!(cubit.cube_long(6).unwrap(), 216);
        let by_rir: Cubit = orb
            .string_to_object("corbaloc:rir:/Cubit")
            .unwrap()
            .unchecked_narrow();
        assert_eq!(by_rir.cube_long(7).unwrap(), 343);
        assert!(matches!(
            orb.resolve_initial_references("Missing").err(),
            Some(rtorb::orb::OrbError::InvalidName(name)) if name == "Missing"
        ));
        drop(server);
    }
}

#[test]
fn location_forward_is_followed_and_bounded() {
    for strategy in ServerStrategy::ALL {
        let (target, ior) = guarded_server(server::IIOP_LOOPBACK, strategy);
        let forwarder = server_orb(&("uiop://".to_owned() + &socket_path("fwd")), strategy);
        let moved = forwarder
            .forward(
                &b"Moved"[..],
                rtorb_giop::ObjectReference::from_stringified(&ior).unwrap(),
            )
            .unwrap();
        let client = client::orb();
        let moved_ior = forwarder.object_to_string(&moved).unwrap();
        let cubit: Cubit = client
            .string_to_object(&moved_ior)
            .unwrap()
            .unchecked_narrow();
        assert_eq!(cubit.cube_long(3).unwrap(), 27);

        // A key forwarded to itself is given up after a bounded number of hops.
        let looping = forwarder
            .forward(
                &b"Loop"[..],
                forwarder.reference("", &bytes::Bytes::from_static(b"Loop")),
            )
            .unwrap();
        let looping_ior = forwarder.object_to_string(&looping).unwrap();
        let e = client
            .string_to_object(&looping_ior)
            .unwrap()
            .unchecked_narrow::<Cubit>()
            .cube_long(1)
            .unwrap_err();
        assert_eq!(e.kind(), Some(SystemExceptionKind::Transient));
        assert_eq!(e.minor, rtorb::minor::TRANSIENT_TOO_MANY_FORWARDS);
        drop(target);
    }
}

/// Shutdown waits for the request in flight. The request is held in its
/// servant, so that it is surely running when shutdown begins however the
/// test's threads are scheduled, and released only once the server is
/// stopping: its upcall has ended when shutdown returns, and its reply
/// has reached the client.
#[test]
fn shutdown_finishes_the_request_in_flight() {
    for strategy in ServerStrategy::ALL {
        let server = server::with_strategy(strategy);
        let held = HeldServant::new(TIMEOUT);
        let obj = server.activate(held.clone()).unwrap();
        let ior = server.object_to_string(&obj).unwrap();
        let client = client::orb();
        let remote = client.string_to_object(&ior).unwrap();
        let call = std::thread::spawn(move || remote.invoke("hold", |e| 1u32.encode(e)).map(drop));
        assert!(
            held.hold().wait_entered(TIMEOUT),
            "{strategy}: the request reaches the servant"
        );
        std::thread::scope(|scope| {
            // Should an assertion fail, the upcall ends at once and the
            // scope does not wait out the hold.
            let _open = held.hold().open_when_dropped();
            let shutdown = scope.spawn(|| {
                server.shutdown();
                held.recorded()
            });
            assert!(
                eventually(TIMEOUT, || server.is_shut_down()),
                "{strategy}: shutdown begins"
            );
            assert!(
                !shutdown.is_finished(),
                "{strategy}: shutdown returned while the request in flight was held"
            );
            held.hold().release();
            assert_eq!(
                shutdown.join().unwrap(),
                [1],
                "{strategy}: shutdown returned before the request in flight ended"
            );
        });
        call.join()
            .unwrap()
            .unwrap_or_else(|e| panic!("{strategy}: the request in flight got {e}"));
        client.shutdown();
    }
}

#[test]
fn an_unreachable_profile_is_skipped_for_the_next() {
    for strategy in ServerStrategy::ALL {
        let (server, ior) = guarded_server(server::IIOP_LOOPBACK, strategy);
        let live = rtorb_giop::ObjectReference::from_stringified(&ior).unwrap();
        let dead = rtorb_giop::ior::Profile::Uiop(rtorb_giop::ior::UiopProfile::new(
            Version::V1_2,
            socket_path("nobody-listens"),
            bytes::Bytes::from_static(b"Cubit"),
        ));
        let mut profiles = vec![dead];
        profiles.extend(live.profiles.iter().cloned());
        let both = rtorb_giop::ObjectReference::new("IDL:Cubit:1.0", profiles);
        let client = client::orb();
        let cubit: Cubit = client
            .string_to_object(&both.to_stringified().unwrap())
            .unwrap()
            .unchecked_narrow();
        assert_eq!(cubit.cube_long(9).unwrap(), 729);
        drop(server);
        let e = cubit.cube_long(9).unwrap_err();
        assert_eq!(e.kind(), Some(SystemExceptionKind::Transient));
    }
}

#[test]
fn shutdown_sends_close_connection_on_every_connection() {
    for strategy in ServerStrategy::ALL {
        let path = socket_path("close");
        let server = server::builder()
            .listen(format!("uiop://{path}"))
            .server_strategy(strategy)
            .build()
            .unwrap();
        server
            .activate_with_key(
                &b"Cubit"[..],
                Arc::new(GuardedSkeleton(CubitImpl::default())),
            )
            .unwrap();
        let locate = encode_message(&Message::new(
            Version::V1_2,
            ByteOrder::Big,
            Content::LocateRequest(LocateRequest {
                request_id: 4,
                target: TargetAddress::Key(bytes::Bytes::from_static(b"Cubit")),
            }),
        ))
        .unwrap();
        let mut tcp: Vec<TcpStream> = (0..3)
            .map(|_| TcpStream::connect(iiop_address(&server)).unwrap())
            .collect();
        let mut unix = std::os::unix::net::UnixStream::connect(&path).unwrap();
        unix.set_read_timeout(Some(TIMEOUT)).unwrap();
        // One has been served, one is idle, one is in the middle of a
        // message.
        tcp[0].set_read_timeout(Some(TIMEOUT)).unwrap();
        let reply = raw_exchange(&mut tcp[0], std::slice::from_ref(&locate));
        assert!(matches!(reply.content, Content::LocateReply(_)));
        tcp[2].write_all(&locate[..7]).unwrap();
        unix.write_all(&locate).unwrap();
        let mut b = [0u8; 12];
        unix.read_exact(&mut b).unwrap();
        let mut rest = vec![0u8; locate_reply_len(&b)];
        unix.read_exact(&mut rest).unwrap();
        let _ = eventually(TIMEOUT, || server.stats().server_connections >= 4);
        assert_eq!(server.stats().server_connections, 4, "{strategy}");
        server.shutdown();
        assert_eq!(server.stats().server_connections, 0, "{strategy}");
        // The acceptors are closed: the socket file is gone.
        assert!(!std::path::Path::new(&path).exists(), "{strategy}");
        let mut streams: Vec<Box<dyn Read>> = tcp
            .into_iter()
            .map(|s| {
                s.set_read_timeout(Some(TIMEOUT)).unwrap();
                Box::new(s) as Box<dyn Read>
            })
            .collect();
        streams.push(Box::new(unix));
        for (i, s) in streams.iter_mut().enumerate() {
            let mut all = Vec::new();
            s.read_to_end(&mut all).unwrap();
            let msg = decode_message(all.into())
                .unwrap_or_else(|e| panic!("{strategy}: connection {i}: {e}"));
            assert_eq!(msg.content, Content::CloseConnection, "{strategy}: {i}");
        }
    }
}

/// The body length in a GIOP header.
fn locate_reply_len(header: &[u8; 12]) -> usize {
    let size = [header[8], header[9], header[10], header[11]];
    if header[6] & 1 == 1 {
        u32::from_le_bytes(size) as usize
    } else {
        u32::from_be_bytes(size) as usize
    }
}
