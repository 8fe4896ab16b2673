//! The ORB client's connections over real IIOP and UIOP connections: the
//! multiplexed strategy (leader/followers, replies out of order, broken
//! connections, timed-out waiters), idle-connection timeouts, explicit
//! binding (`_validate_connection`, pre-established connections), oneway
//! sync scopes, `ClientProtocolPolicy`, round-trip timeouts at object and
//! thread level, and fragmentation of large requests and replies.

mod counting;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::time::Duration;

use bytes::Bytes;
use counting::{Counts, counting_registry, unsharable_registry};
use rtorb::exception::{SystemException, SystemExceptionKind, bad_operation};
use rtorb::minor::{COMM_FAILURE_CONNECTION_LOST, INV_POLICY_CANNOT_RECONCILE, TIMEOUT_ROUND_TRIP};
use rtorb::object::Object;
use rtorb::orb::{ConnectionStrategy, Orb};
use rtorb::policy::{
    ClientProtocolPolicy, Policy, PolicyCurrent, Protocol, ProtocolFallback, SyncScope,
};
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb::transport::{FrameReader, ProtocolRegistry, Transport};
use rtorb_cdr::{CdrDecode, CdrEncode, Encoding};
use rtorb_giop::message::{Content, Message, MessageWriter, ReplyHeader, ReplyStatus};
use rtorb_giop::{Reassembler, ReassemblyLimits, decode_message};
use rtorb_test_support::hold::Hold;
use rtorb_test_support::net::socket_path;
use rtorb_test_support::wait::{self, NO_TIMEOUT};
use rtorb_test_support::{TIMEOUT, client};

/// A servant for the tests: echoes, slow echoes, large octet sequences,
/// and operations that wait at a gate (a hold the test opens).
#[derive(Default)]
struct Lab {
    gate: Hold,
    done: AtomicUsize,
    recorded: Mutex<Vec<i64>>,
}

struct LabSkeleton(Arc<Lab>);

impl Skeleton for LabSkeleton {
    fn repository_ids(&self) -> &'static [&'static str] {
        &["IDL:rtorb/Lab:1.0"]
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        match req.operation() {
            "echo" => {
                let v = i32::decode(req.arguments())?;
                req.write_results(|e| v.encode(e))
            }
            "slow_echo" => {
                let ms = u32::decode(req.arguments())?;
                let v = i32::decode(req.arguments())?;
                // A reply that comes late is what the callers test.
                std::thread::sleep(Duration::from_millis(u64::from(ms)));
                req.write_results(|e| v.encode(e))
            }
            "reverse_octets" => {
                let mut data = req.arguments().read_octet_seq()?.to_vec();
                data.reverse();
                let data = Bytes::from(data);
                req.write_results(|e| e.write_octet_seq_bytes(&data))
            }
            "record" => {
                let v = i32::decode(req.arguments())?;
                self.0.recorded.lock().unwrap().push(i64::from(v));
                Ok(())
            }
            "record_octets" => {
                let n = req.arguments().read_octet_seq()?.len();
                self.0.recorded.lock().unwrap().push(-(n as i64));
                Ok(())
            }
            "wait_gate" => {
                // Some tests never open it: the request ends with the
                // process, or at the tests' deadline.
                let _ = self.0.gate.enter(TIMEOUT);
                self.0.done.fetch_add(1, Ordering::SeqCst);
                Ok(())
            }
            _ => Err(bad_operation()),
        }
    }
}

/// A server ORB (with a counting registry) serving a `Lab` under `Lab`.
struct Server {
    orb: Orb,
    counts: Arc<Counts>,
    lab: Arc<Lab>,
    ior: String,
}

fn server_with(
    endpoints: &[&str],
    configure: impl FnOnce(rtorb::orb::OrbBuilder) -> rtorb::orb::OrbBuilder,
) -> Server {
    let (registry, counts) = counting_registry();
    let mut b = Orb::builder().registry(registry);
    for e in endpoints {
        b = b.listen(*e);
    }
    let orb = configure(b).build().unwrap();
    let lab = Arc::new(Lab::default());
    let obj = orb
        .activate_with_key(&b"Lab"[..], Arc::new(LabSkeleton(Arc::clone(&lab))))
        .unwrap();
    let ior = orb.object_to_string(&obj).unwrap();
    Server {
        orb,
        counts,
        lab,
        ior,
    }
}

fn server(endpoint: &str) -> Server {
    server_with(&[endpoint], |b| b)
}

fn echo(obj: &Object, v: i32) -> Result<i32, SystemException> {
    obj.invoke("echo", |e| v.encode(e))?.decode(i32::decode)
}

fn slow_echo(obj: &Object, ms: u32, v: i32) -> Result<i32, SystemException> {
    obj.invoke("slow_echo", |e| {
        ms.encode(e)?;
        v.encode(e)
    })?
    .decode(i32::decode)
}

/// Waits until `n` more `wait_gate` upcalls have started.
fn started(lab: &Lab, n: usize, what: &str) {
    for i in 0..n {
        assert!(
            lab.gate.wait_entered(TIMEOUT),
            "never happened: {what} ({i} of {n})"
        );
    }
}

/// Waits until `cond` holds, failing the test after a generous bound.
fn eventually(what: &str, cond: impl Fn() -> bool) {
    assert!(wait::eventually(TIMEOUT, cond), "never happened: {what}");
}

// ---------------------------------------------------------------------
// Multiplexed strategy against the rtorb server.

fn many_threads_share_one_connection(endpoint: &str) {
    let s = server(endpoint);
    let client = client::with_strategy(ConnectionStrategy::Multiplexed);
    let obj = client.string_to_object(&s.ior).unwrap();
    let threads = 12;
    let barrier = Arc::new(Barrier::new(threads));
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let obj = obj.clone();
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                barrier.wait();
                for i in 0..15 {
                    let v = (t * 1000 + i) as i32;
                    // Mixed fast and slow operations.
                    let got = if (t + i) % 3 == 0 {
                        slow_echo(&obj, 3, v)
                    } else {
                        echo(&obj, v)
                    };
                    assert_eq!(got.unwrap(), v, "thread {t} call {i}");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    assert_eq!(s.counts.accepted(), 1, "every call on one connection");
    assert_eq!(client.stats().idle_client_connections, 1);
}

#[test]
fn multiplexed_calls_from_many_threads_share_one_iiop_connection() {
    many_threads_share_one_connection("iiop://127.0.0.1:0");
}

#[test]
fn multiplexed_calls_from_many_threads_share_one_uiop_connection() {
    many_threads_share_one_connection(&format!("uiop://{}", socket_path("mux")));
}

#[test]
fn multiplexed_calls_share_one_giop_lite_connection() {
    many_threads_share_one_connection("iiop://127.0.0.1:0?giop=lite");
}

#[test]
fn exclusive_calls_in_flight_together_use_a_connection_each() {
    let s = server("iiop://127.0.0.1:0");
    let client = client::orb();
    let obj = client.string_to_object(&s.ior).unwrap();
    let calls: Vec<_> = (0..3)
        .map(|_| {
            let obj = obj.clone();
            std::thread::spawn(move || obj.invoke("wait_gate", |_| Ok(())).map(|_| ()))
        })
        .collect();
    started(&s.lab, 3, "three calls started");
    s.lab.gate.open();
    for c in calls {
        c.join().unwrap().unwrap();
    }
    assert_eq!(s.counts.accepted(), 3);
}

#[test]
fn multiplexed_waiters_that_time_out_hand_the_connection_on() {
    let s = server("iiop://127.0.0.1:0");
    let client = client::with_strategy(ConnectionStrategy::Multiplexed);
    let obj = client.string_to_object(&s.ior).unwrap();
    let impatient =
        obj.with_policies(&[Policy::RelativeRoundtripTimeout(Duration::from_millis(10))]);
    let handles: Vec<_> = (0..8)
        .map(|t| {
            let obj = obj.clone();
            let impatient = impatient.clone();
            std::thread::spawn(move || {
                for i in 0..8 {
                    if t % 2 == 0 {
                        // Slow on the server: always past its deadline,
                        // and often the leader when it leaves.
                        let err = slow_echo(&impatient, 30, i).unwrap_err();
                        assert_eq!(err.kind(), Some(SystemExceptionKind::Timeout));
                    } else {
                        assert_eq!(echo(&obj, t * 100 + i).unwrap(), t * 100 + i);
                    }
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    assert_eq!(echo(&obj, 7).unwrap(), 7);
    assert_eq!(
        s.counts.accepted(),
        1,
        "timeouts do not cost the connection"
    );
}

#[test]
fn multiplexed_falls_back_to_exclusive_on_transports_that_cannot_be_shared() {
    let s = server("iiop://127.0.0.1:0");
    let (registry, client_counts) = unsharable_registry();
    let client = Orb::builder()
        .registry(registry)
        .connection_strategy(ConnectionStrategy::Multiplexed)
        .round_trip_timeout(TIMEOUT)
        .build()
        .unwrap();
    let obj = client.string_to_object(&s.ior).unwrap();
    let calls: Vec<_> = (0..2)
        .map(|_| {
            let obj = obj.clone();
            std::thread::spawn(move || obj.invoke("wait_gate", |_| Ok(())).map(|_| ()))
        })
        .collect();
    started(&s.lab, 2, "two calls started");
    s.lab.gate.open();
    for c in calls {
        c.join().unwrap().unwrap();
    }
    assert_eq!(s.counts.accepted(), 2);
    assert_eq!(client_counts.open(), 2);
    assert_eq!(echo(&obj, 3).unwrap(), 3);
    assert_eq!(s.counts.accepted(), 2);
}

// ---------------------------------------------------------------------
// Multiplexed strategy against a hand-driven server, to control the order
// and timing of replies.

/// A listening endpoint the test answers by hand, and a reference to it.
struct RawServer {
    acceptor: Box<dyn rtorb::transport::Acceptor>,
    corbaloc: String,
}

impl RawServer {
    fn new() -> RawServer {
        let registry = ProtocolRegistry::with_default_protocols();
        let acceptor = registry.listen("iiop://127.0.0.1:0").unwrap();
        let addr = rtorb_test_support::net::endpoint_address(&acceptor.endpoint().to_string());
        RawServer {
            corbaloc: format!("corbaloc::1.2@{addr}/Raw"),
            acceptor,
        }
    }

    fn accept(&self) -> RawConnection {
        let mut t = self.acceptor.accept().unwrap();
        t.set_read_timeout(Some(TIMEOUT)).unwrap();
        RawConnection {
            reader: FrameReader::new(t.messaging()),
            reassembler: Reassembler::new(ReassemblyLimits::default()),
            transport: t,
        }
    }
}

struct RawConnection {
    transport: Box<dyn Transport>,
    reader: FrameReader,
    reassembler: Reassembler,
}

impl RawConnection {
    /// The next whole message and how many frames it came in.
    fn message(&mut self) -> (Message, Bytes, usize, usize) {
        let mut frames = 0;
        let mut largest = 0;
        loop {
            let frame = self
                .reader
                .read_frame(&mut *self.transport)
                .unwrap()
                .unwrap();
            frames += 1;
            largest = largest.max(frame.len());
            if let Some(whole) = self.reassembler.push(frame).unwrap() {
                return (
                    decode_message(whole.clone()).unwrap(),
                    whole,
                    frames,
                    largest,
                );
            }
        }
    }

    /// The request id and `echo` argument of the next request.
    fn echo_request(&mut self) -> (u32, i32) {
        let (msg, whole, _, _) = self.message();
        let Content::Request(r) = &msg.content else {
            panic!("not a request: {msg:?}")
        };
        let mut d = msg
            .body_decoder(&whole, Encoding::native().codesets)
            .unwrap();
        (r.header.request_id, i32::decode(&mut d).unwrap())
    }

    fn reply(&mut self, request_id: u32, v: i32) {
        let h = ReplyHeader::new(request_id, ReplyStatus::NoException);
        let mut w = MessageWriter::reply(Encoding::native(), &h).unwrap();
        v.encode(w.body()).unwrap();
        let m = w.finish().unwrap();
        self.transport.write_all_vectored(&[m]).unwrap();
    }
}

#[test]
fn replies_in_reverse_order_reach_their_own_callers() {
    let raw = RawServer::new();
    let client = client::with_strategy(ConnectionStrategy::Multiplexed);
    let obj = client.string_to_object(&raw.corbaloc).unwrap();
    let n = 8;
    let calls: Vec<_> = (0..n)
        .map(|i| {
            let obj = obj.clone();
            std::thread::spawn(move || echo(&obj, 100 + i))
        })
        .collect();
    let mut conn = raw.accept();
    // Every request arrives on the one connection before any reply.
    let mut requests: Vec<(u32, i32)> = (0..n).map(|_| conn.echo_request()).collect();
    requests.reverse();
    for (id, v) in requests {
        conn.reply(id, v);
    }
    for (i, c) in calls.into_iter().enumerate() {
        assert_eq!(c.join().unwrap().unwrap(), 100 + i as i32);
    }
}

#[test]
fn a_timed_out_waiter_leaves_and_its_late_reply_is_dropped() {
    let raw = RawServer::new();
    let client = client::with_strategy(ConnectionStrategy::Multiplexed);
    let obj = client.string_to_object(&raw.corbaloc).unwrap();
    let quick = obj.with_policies(&[Policy::RelativeRoundtripTimeout(Duration::from_millis(100))]);
    let impatient = std::thread::spawn(move || echo(&quick, 1));
    let mut conn = raw.accept();
    let (late_id, _) = conn.echo_request();
    let err = impatient.join().unwrap().unwrap_err();
    assert_eq!(err.kind(), Some(SystemExceptionKind::Timeout));
    assert_eq!(err.minor, TIMEOUT_ROUND_TRIP);
    // A patient call on the same connection, answered after the late
    // reply to the call that left.
    let o = obj.clone();
    let patient = std::thread::spawn(move || echo(&o, 2));
    let (id, v) = conn.echo_request();
    conn.reply(late_id, 1);
    conn.reply(id, v);
    assert_eq!(patient.join().unwrap().unwrap(), 2);
    let o = obj.clone();
    let again = std::thread::spawn(move || echo(&o, 3));
    let (id, v) = conn.echo_request();
    conn.reply(id, v);
    assert_eq!(again.join().unwrap().unwrap(), 3);
}

#[test]
fn a_broken_connection_fails_every_waiter_with_comm_failure() {
    let raw = RawServer::new();
    let client = client::with_strategy(ConnectionStrategy::Multiplexed);
    let obj = client.string_to_object(&raw.corbaloc).unwrap();
    let n = 5;
    let calls: Vec<_> = (0..n)
        .map(|i| {
            let obj = obj.clone();
            std::thread::spawn(move || echo(&obj, i))
        })
        .collect();
    let mut conn = raw.accept();
    for _ in 0..n {
        conn.echo_request();
    }
    drop(conn);
    for c in calls {
        let err = c.join().unwrap().unwrap_err();
        assert_eq!(err.kind(), Some(SystemExceptionKind::CommFailure));
        assert_eq!(err.minor, COMM_FAILURE_CONNECTION_LOST);
    }
    // The next call connects anew.
    let o = obj.clone();
    let next = std::thread::spawn(move || echo(&o, 9));
    let mut conn = raw.accept();
    let (id, v) = conn.echo_request();
    conn.reply(id, v);
    assert_eq!(next.join().unwrap().unwrap(), 9);
}

// ---------------------------------------------------------------------
// Idle connections.

fn idle_connections_close(strategy: ConnectionStrategy, endpoint: &str) {
    let s = server(endpoint);
    let client = Orb::builder()
        .connection_strategy(strategy)
        .connection_idle_timeout(Duration::from_millis(100))
        .round_trip_timeout(TIMEOUT)
        .build()
        .unwrap();
    let obj = client.string_to_object(&s.ior).unwrap();
    assert_eq!(echo(&obj, 5).unwrap(), 5);
    assert_eq!(s.counts.accepted(), 1);
    eventually("the server sees the idle connection closed", || {
        s.counts.open() == 0
    });
    assert_eq!(client.stats().idle_client_connections, 0);
    // A later call connects again.
    assert_eq!(echo(&obj, 6).unwrap(), 6);
    assert_eq!(s.counts.accepted(), 2);
}

#[test]
fn idle_exclusive_connections_are_closed_after_the_idle_timeout() {
    idle_connections_close(ConnectionStrategy::Exclusive, "iiop://127.0.0.1:0");
    idle_connections_close(
        ConnectionStrategy::Exclusive,
        &format!("uiop://{}", socket_path("idle")),
    );
}

#[test]
fn idle_multiplexed_connections_are_closed_after_the_idle_timeout() {
    idle_connections_close(ConnectionStrategy::Multiplexed, "iiop://127.0.0.1:0");
    idle_connections_close(
        ConnectionStrategy::Multiplexed,
        &format!("uiop://{}", socket_path("idlemux")),
    );
}

#[test]
fn without_an_idle_timeout_connections_stay_open() {
    let s = server("iiop://127.0.0.1:0");
    let client = client::orb();
    let obj = client.string_to_object(&s.ior).unwrap();
    echo(&obj, 1).unwrap();
    // Nothing is to happen to it: a client with an idle timeout, whose
    // connection idles meanwhile, shows when it would have.
    let timed = client::builder()
        .connection_idle_timeout(Duration::from_millis(100))
        .build()
        .unwrap();
    echo(&timed.string_to_object(&s.ior).unwrap(), 2).unwrap();
    assert_eq!(s.counts.accepted(), 2);
    eventually("the timed client's idle connection is closed", || {
        timed.stats().idle_client_connections == 0 && s.counts.open() == 1
    });
    assert_eq!(client.stats().idle_client_connections, 1);
    assert_eq!(echo(&obj, 3).unwrap(), 3);
    assert_eq!(s.counts.accepted(), 2, "the connection was kept");
}

// ---------------------------------------------------------------------
// Explicit binding.

#[test]
fn validate_connection_binds_before_the_first_call() {
    for strategy in [
        ConnectionStrategy::Exclusive,
        ConnectionStrategy::Multiplexed,
    ] {
        for endpoint in [
            "iiop://127.0.0.1:0".to_owned(),
            format!("uiop://{}", socket_path("validate")),
            "iiop://1.0@127.0.0.1:0".to_owned(),
            "iiop://127.0.0.1:0?giop=lite".to_owned(),
        ] {
            let s = server(&endpoint);
            let client = client::with_strategy(strategy);
            let obj = client.string_to_object(&s.ior).unwrap();
            assert_eq!(s.counts.accepted(), 0);
            assert_eq!(obj.validate_connection(), Ok(true), "{endpoint}");
            assert_eq!(s.counts.accepted(), 1);
            assert_eq!(echo(&obj, 4).unwrap(), 4);
            assert_eq!(s.counts.accepted(), 1, "the first call opened nothing");
        }
    }
}

#[test]
fn validate_connection_reports_what_a_call_would_get() {
    let s = server("iiop://127.0.0.1:0");
    let client = client::orb();
    // An unknown key.
    let ior = s.ior.clone();
    let obj = client.string_to_object(&ior).unwrap();
    s.orb.deactivate(b"Lab");
    let err = obj.validate_connection().unwrap_err();
    assert_eq!(err.kind(), Some(SystemExceptionKind::ObjectNotExist));
    // A forwarded key is followed to the object.
    let target = server("iiop://127.0.0.1:0");
    let forwarded = s
        .orb
        .forward(
            &b"Moved"[..],
            target
                .orb
                .string_to_object(&target.ior)
                .unwrap()
                .target()
                .reference()
                .unwrap()
                .clone(),
        )
        .unwrap();
    let forwarded = client
        .string_to_object(&s.orb.object_to_string(&forwarded).unwrap())
        .unwrap();
    assert_eq!(forwarded.validate_connection(), Ok(true));
    assert_eq!(target.counts.accepted(), 1);
    // Nobody listening.
    let gone = {
        let s = server("iiop://127.0.0.1:0");
        let ior = s.ior.clone();
        drop(s);
        ior
    };
    let err = client
        .string_to_object(&gone)
        .unwrap()
        .validate_connection()
        .unwrap_err();
    assert_eq!(err.kind(), Some(SystemExceptionKind::Transient));
    // Policies that allow no profile: false.
    let obj = client
        .string_to_object(&target.ior)
        .unwrap()
        .with_policies(&[Policy::ClientProtocol(ClientProtocolPolicy::new([
            Protocol::uiop(),
        ]))]);
    assert_eq!(obj.validate_connection(), Ok(false));
}

#[test]
fn preconnected_connections_serve_the_first_calls() {
    let s = server("iiop://127.0.0.1:0");
    let client = client::orb();
    let obj = client.string_to_object(&s.ior).unwrap();
    assert_eq!(client.preconnect(&obj, 4).unwrap(), 4);
    eventually("four connections accepted", || s.counts.accepted() == 4);
    assert_eq!(client.stats().idle_client_connections, 4);
    let calls: Vec<_> = (0..4)
        .map(|_| {
            let obj = obj.clone();
            std::thread::spawn(move || obj.invoke("wait_gate", |_| Ok(())).map(|_| ()))
        })
        .collect();
    started(&s.lab, 4, "four calls started");
    s.lab.gate.open();
    for c in calls {
        c.join().unwrap().unwrap();
    }
    assert_eq!(s.counts.accepted(), 4, "no call opened a connection");
    // Asking again opens nothing more.
    assert_eq!(client.preconnect(&obj, 2).unwrap(), 4);
    assert_eq!(s.counts.accepted(), 4);
}

// ---------------------------------------------------------------------
// Sync scopes of oneway calls.

fn oneway_wait_gate(obj: &Object) -> Result<(), SystemException> {
    obj.invoke_oneway("wait_gate", |_| Ok(()))
}

fn sync_scopes_end_to_end(endpoint: impl Fn() -> String) {
    // WITH_TARGET at ORB level: the call returns after the upcall ran.
    let s = server(&endpoint());
    let client = Orb::builder()
        .sync_scope(SyncScope::WithTarget)
        .round_trip_timeout(TIMEOUT)
        .build()
        .unwrap();
    let obj = client.string_to_object(&s.ior).unwrap();
    s.lab.gate.open();
    oneway_wait_gate(&obj).unwrap();
    assert_eq!(s.lab.done.load(Ordering::SeqCst), 1);

    // WITH_SERVER at object level: acknowledged before the upcall, which
    // is still waiting at the gate when the call returns.
    let s = server(&endpoint());
    let obj = client
        .string_to_object(&s.ior)
        .unwrap()
        .with_policies(&[Policy::SyncScope(SyncScope::WithServer)]);
    oneway_wait_gate(&obj).unwrap();
    assert_eq!(s.lab.done.load(Ordering::SeqCst), 0);
    started(&s.lab, 1, "the upcall starts");
    s.lab.gate.open();
    eventually("the upcall ends", || s.lab.done.load(Ordering::SeqCst) == 1);
    // ... and a server that lacks the object says so.
    let unknown = client.string_to_object(&s.ior).unwrap();
    s.orb.deactivate(b"Lab");
    let err = unknown
        .with_policies(&[Policy::SyncScope(SyncScope::WithServer)])
        .invoke_oneway("wait_gate", |_| Ok(()))
        .unwrap_err();
    assert_eq!(err.kind(), Some(SystemExceptionKind::ObjectNotExist));

    // WITH_TRANSPORT and NONE at thread level: returns at once, no error
    // even for an object the server lacks.
    for scope in [SyncScope::WithTransport, SyncScope::None] {
        let s = server(&endpoint());
        let obj = client.string_to_object(&s.ior).unwrap();
        PolicyCurrent::with(&[Policy::SyncScope(scope)], || {
            oneway_wait_gate(&obj).unwrap();
        });
        assert_eq!(s.lab.done.load(Ordering::SeqCst), 0);
        started(&s.lab, 1, "the request arrives");
        s.lab.gate.open();
        eventually("the upcall ends", || s.lab.done.load(Ordering::SeqCst) == 1);
        s.orb.deactivate(b"Lab");
        PolicyCurrent::with(&[Policy::SyncScope(scope)], || {
            oneway_wait_gate(&obj).unwrap();
        });
    }
}

fn sync_none_returns_before_the_transport_has_the_request(endpoint: impl Fn() -> String) {
    for strategy in [
        ConnectionStrategy::Exclusive,
        ConnectionStrategy::Multiplexed,
    ] {
        let client = Orb::builder()
            .connection_strategy(strategy)
            .sync_scope(SyncScope::None)
            .fragment_size(32 * 1024)
            .round_trip_timeout(TIMEOUT)
            .build()
            .unwrap();
        // Nobody listening: SYNC_NONE returns without trying, where
        // SYNC_WITH_TRANSPORT finds the server gone.
        let gone = {
            let s = server(&endpoint());
            let ior = s.ior.clone();
            drop(s);
            ior
        };
        let obj = client.string_to_object(&gone).unwrap();
        obj.invoke_oneway("record", |e| 1i32.encode(e)).unwrap();
        let err = obj
            .invoke_oneway_with("record", SyncScope::WithTransport, |e| 1i32.encode(e))
            .unwrap_err();
        assert_eq!(err.kind(), Some(SystemExceptionKind::Transient));

        // Delivered, in order, fragments and all.
        let s = server(&endpoint());
        let obj = client.string_to_object(&s.ior).unwrap();
        for i in 0..40 {
            obj.invoke_oneway("record", |e| i.encode(e)).unwrap();
        }
        let data = big_data();
        obj.invoke_oneway("record_octets", |e| e.write_octet_seq_bytes(&data))
            .unwrap();
        eventually("every oneway arrives", || {
            s.lab.recorded.lock().unwrap().len() == 41
        });
        let recorded = s.lab.recorded.lock().unwrap().clone();
        let mut expected: Vec<i64> = (0..40).collect();
        expected.push(-(BIG as i64));
        assert_eq!(recorded, expected);
    }
}

/// A `SYNC_NONE` oneway leaves before the next request the same thread
/// makes to the endpoint: the server has run it when that request's
/// reply comes, every time.
#[test]
fn sync_none_oneways_leave_before_the_thread_s_next_request() {
    for strategy in [
        ConnectionStrategy::Exclusive,
        ConnectionStrategy::Multiplexed,
    ] {
        let client = Orb::builder()
            .connection_strategy(strategy)
            .sync_scope(SyncScope::None)
            .round_trip_timeout(TIMEOUT)
            .build()
            .unwrap();
        let s = server("iiop://127.0.0.1:0");
        let obj = client.string_to_object(&s.ior).unwrap();
        for i in 0..300 {
            obj.invoke_oneway("record", |e| i.encode(e)).unwrap();
            assert_eq!(echo(&obj, i).unwrap(), i);
            let recorded = s.lab.recorded.lock().unwrap().clone();
            assert_eq!(
                recorded.len(),
                i as usize + 1,
                "{strategy:?}: the oneway before call {i} has not run"
            );
        }
    }
}

/// An endpoint whose connections never complete (a listener with a full
/// accept queue that never accepts) holds up `SYNC_NONE` oneways to it
/// only, not those to other endpoints.
#[test]
fn an_unreachable_endpoint_does_not_hold_up_sync_none_oneways_to_others() {
    use socket2::{Domain, Socket, Type};
    let black_hole = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
    black_hole
        .bind(
            &"127.0.0.1:0"
                .parse::<std::net::SocketAddr>()
                .unwrap()
                .into(),
        )
        .unwrap();
    black_hole.listen(0).unwrap();
    let addr = black_hole.local_addr().unwrap().as_socket().unwrap();
    // Fill the accept queue: later connection attempts get no answer.
    let mut fillers = Vec::new();
    for _ in 0..4 {
        let s = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
        s.set_nonblocking(true).unwrap();
        let _ = s.connect(&addr.into());
        fillers.push(s);
    }
    // The queue is full once a filler's connection is established in it.
    eventually("a filler's connection is queued", || {
        fillers.iter().any(|s| s.peer_addr().is_ok())
    });

    let client = Orb::builder()
        .sync_scope(SyncScope::None)
        .connect_timeout(NO_TIMEOUT)
        .round_trip_timeout(TIMEOUT)
        .build()
        .unwrap();
    let stuck = client
        .string_to_object(&format!("corbaloc::1.2@{addr}/Lab"))
        .unwrap();
    let s = server("iiop://127.0.0.1:0");
    let good = client.string_to_object(&s.ior).unwrap();
    stuck.invoke_oneway("record", |e| 1i32.encode(e)).unwrap();
    for i in 0..10 {
        good.invoke_oneway("record", |e| i.encode(e)).unwrap();
    }
    // Within the test's bound (far less than the connect timeout).
    eventually("the oneways to the good endpoint arrive", || {
        s.lab.recorded.lock().unwrap().len() == 10
    });
    assert_eq!(
        *s.lab.recorded.lock().unwrap(),
        (0..10).map(i64::from).collect::<Vec<_>>()
    );
    drop(fillers);
}

#[test]
fn sync_none_oneways_over_iiop() {
    sync_none_returns_before_the_transport_has_the_request(|| "iiop://127.0.0.1:0".to_owned());
}

#[test]
fn sync_none_oneways_over_uiop() {
    sync_none_returns_before_the_transport_has_the_request(|| {
        format!("uiop://{}", socket_path("none"))
    });
}

#[test]
fn oneway_sync_scopes_over_iiop() {
    sync_scopes_end_to_end(|| "iiop://127.0.0.1:0".to_owned());
}

#[test]
fn oneway_sync_scopes_over_uiop() {
    sync_scopes_end_to_end(|| format!("uiop://{}", socket_path("sync")));
}

#[test]
fn oneway_sync_scopes_multiplexed() {
    let s = server("iiop://127.0.0.1:0");
    let client = client::with_strategy(ConnectionStrategy::Multiplexed);
    let obj = client.string_to_object(&s.ior).unwrap();
    let with_server = obj.with_policies(&[Policy::SyncScope(SyncScope::WithServer)]);
    with_server.invoke_oneway("wait_gate", |_| Ok(())).unwrap();
    assert_eq!(s.lab.done.load(Ordering::SeqCst), 0);
    s.lab.gate.open();
    let with_target = obj.with_policies(&[Policy::SyncScope(SyncScope::WithTarget)]);
    with_target.invoke_oneway("wait_gate", |_| Ok(())).unwrap();
    assert_eq!(s.lab.done.load(Ordering::SeqCst), 2);
    assert_eq!(s.counts.accepted(), 1);
}

// ---------------------------------------------------------------------
// ClientProtocolPolicy.

#[test]
fn client_protocol_policy_picks_profiles_at_every_level() {
    let uiop = format!("uiop://{}", socket_path("proto"));
    let s = server_with(
        &["iiop://127.0.0.1:0", &uiop, "iiop://127.0.0.1:0?giop=lite"],
        |b| b,
    );
    let only = |p: Protocol| Policy::ClientProtocol(ClientProtocolPolicy::new([p]));

    // No policy: the first profile (IIOP, GIOP).
    let client = client::orb();
    let obj = client.string_to_object(&s.ior).unwrap();
    echo(&obj, 1).unwrap();
    assert_eq!(s.counts.accepted_by("iiop", false), 1);

    // Object level: UIOP.
    echo(&obj.with_policies(&[only(Protocol::uiop())]), 2).unwrap();
    assert_eq!(s.counts.accepted_by("uiop", false), 1);

    // Thread level: IIOP with GIOPlite.
    PolicyCurrent::with(&[only(Protocol::iiop().lite())], || echo(&obj, 3)).unwrap();
    assert_eq!(s.counts.accepted_by("iiop", true), 1);
    // The object's override wins over the thread's.
    PolicyCurrent::with(&[only(Protocol::iiop().lite())], || {
        echo(&obj.with_policies(&[only(Protocol::uiop())]), 4)
    })
    .unwrap();
    assert_eq!(s.counts.accepted_by("iiop", true), 1);

    // ORB level, with a preference order.
    let client = Orb::builder()
        .client_protocol(ClientProtocolPolicy::new([
            Protocol::transport("shmiop"),
            Protocol::iiop().lite(),
            Protocol::uiop(),
        ]))
        .round_trip_timeout(TIMEOUT)
        .build()
        .unwrap();
    echo(&client.string_to_object(&s.ior).unwrap(), 5).unwrap();
    assert_eq!(s.counts.accepted_by("iiop", true), 2);
    assert_eq!(s.accepted_total(), 4);
}

impl Server {
    fn accepted_total(&self) -> usize {
        self.counts.accepted()
    }
}

#[test]
fn client_protocol_policy_without_a_match_fails_or_falls_back() {
    let s = server("iiop://127.0.0.1:0");
    let client = client::orb();
    let obj = client.string_to_object(&s.ior).unwrap();
    let strict = ClientProtocolPolicy::new([Protocol::uiop(), Protocol::iiop().lite()]);
    let err = echo(
        &obj.with_policies(&[Policy::ClientProtocol(strict.clone())]),
        1,
    )
    .unwrap_err();
    assert_eq!(err.kind(), Some(SystemExceptionKind::InvPolicy));
    assert_eq!(err.minor, INV_POLICY_CANNOT_RECONCILE);
    assert_eq!(s.counts.accepted(), 0);
    let lenient = strict.with_fallback(ProtocolFallback::AnyUsable);
    assert_eq!(
        echo(&obj.with_policies(&[Policy::ClientProtocol(lenient)]), 2).unwrap(),
        2
    );
    assert_eq!(s.counts.accepted(), 1);
}

// ---------------------------------------------------------------------
// Round-trip timeouts at object and thread level.

#[test]
fn round_trip_timeouts_at_object_and_thread_level() {
    for strategy in [
        ConnectionStrategy::Exclusive,
        ConnectionStrategy::Multiplexed,
    ] {
        let s = server("iiop://127.0.0.1:0");
        // No ORB-level timeout.
        let client = Orb::builder()
            .connection_strategy(strategy)
            .build()
            .unwrap();
        let obj = client.string_to_object(&s.ior).unwrap();
        let short = Policy::RelativeRoundtripTimeout(Duration::from_millis(100));
        let err = obj
            .with_policies(std::slice::from_ref(&short))
            .invoke("wait_gate", |_| Ok(()))
            .unwrap_err();
        assert_eq!(err.kind(), Some(SystemExceptionKind::Timeout));
        let err = PolicyCurrent::with(std::slice::from_ref(&short), || {
            obj.invoke("wait_gate", |_| Ok(()))
        })
        .unwrap_err();
        assert_eq!(err.kind(), Some(SystemExceptionKind::Timeout));
        assert_eq!(err.minor, TIMEOUT_ROUND_TRIP);
        // An object-level override longer than the thread's wins.
        s.lab.gate.open();
        let long = Policy::RelativeRoundtripTimeout(TIMEOUT);
        PolicyCurrent::with(std::slice::from_ref(&short), || {
            obj.with_policies(std::slice::from_ref(&long))
                .invoke("wait_gate", |_| Ok(()))
        })
        .unwrap();
        assert_eq!(echo(&obj, 8).unwrap(), 8);
    }
}

// ---------------------------------------------------------------------
// Fragmentation.

const BIG: usize = 1_500_000;

fn big_data() -> Bytes {
    (0..BIG).map(|i| (i * 7 + i / 251) as u8).collect()
}

fn reverse_octets(obj: &Object, data: &Bytes) -> Result<Bytes, SystemException> {
    obj.invoke("reverse_octets", |e| e.write_octet_seq_bytes(data))?
        .decode(|d| d.read_octet_seq())
}

#[test]
fn large_requests_and_replies_are_fragmented_both_ways() {
    let data = big_data();
    let mut expected = data.to_vec();
    expected.reverse();
    for strategy in [
        ConnectionStrategy::Exclusive,
        ConnectionStrategy::Multiplexed,
    ] {
        for endpoint in [
            "iiop://127.0.0.1:0".to_owned(),
            "iiop://1.1@127.0.0.1:0".to_owned(),
            "iiop://1.0@127.0.0.1:0".to_owned(),
            format!("uiop://{}", socket_path("frag")),
            "iiop://127.0.0.1:0?giop=lite".to_owned(),
        ] {
            let s = server_with(&[&endpoint], |b| b.fragment_size(64 * 1024));
            let client = Orb::builder()
                .connection_strategy(strategy)
                .fragment_size(64 * 1024)
                .round_trip_timeout(TIMEOUT)
                .build()
                .unwrap();
            let obj = client.string_to_object(&s.ior).unwrap();
            let back = reverse_octets(&obj, &data).unwrap();
            assert_eq!(back.len(), BIG, "{endpoint}");
            assert!(back[..] == expected[..], "{endpoint}");
        }
    }
}

#[test]
fn client_requests_go_out_in_fragments_no_larger_than_the_maximum() {
    let raw = RawServer::new();
    let client = Orb::builder()
        .fragment_size(16 * 1024)
        .round_trip_timeout(TIMEOUT)
        .build()
        .unwrap();
    let obj = client.string_to_object(&raw.corbaloc).unwrap();
    let data = big_data();
    let d = data.clone();
    let call = std::thread::spawn(move || {
        obj.invoke("reverse_octets", |e| e.write_octet_seq_bytes(&d))
            .map(|_| ())
    });
    let mut conn = raw.accept();
    let (msg, whole, frames, largest) = conn.message();
    assert!(frames >= BIG / (16 * 1024), "{frames} frames");
    assert!(largest <= 16 * 1024, "a frame of {largest} octets");
    let Content::Request(r) = &msg.content else {
        panic!("not a request")
    };
    let mut body = msg
        .body_decoder(&whole, Encoding::native().codesets)
        .unwrap();
    assert!(body.read_octet_seq().unwrap() == data);
    conn.reply(r.header.request_id, 0);
    call.join().unwrap().unwrap();
}

#[test]
fn server_replies_go_out_in_fragments_no_larger_than_the_maximum() {
    let s = server_with(&["iiop://127.0.0.1:0"], |b| b.fragment_size(16 * 1024));
    // A hand-driven client: the request whole, the reply read frame by
    // frame.
    let registry = ProtocolRegistry::with_default_protocols();
    let endpoint = registry.parse_endpoint(&s.orb.endpoints()[0]).unwrap();
    let mut t = registry.connect(&*endpoint, Some(TIMEOUT)).unwrap();
    t.set_read_timeout(Some(TIMEOUT)).unwrap();
    let data = big_data();
    let h =
        rtorb_giop::message::RequestHeader::new(77, Bytes::from_static(b"Lab"), "reverse_octets");
    let mut w = MessageWriter::request(Encoding::native(), &h).unwrap();
    w.body().write_octet_seq_bytes(&data).unwrap();
    t.write_all_vectored(&w.finish_chunks().unwrap()).unwrap();
    let mut conn = RawConnection {
        reader: FrameReader::new(t.messaging()),
        reassembler: Reassembler::new(ReassemblyLimits::default()),
        transport: t,
    };
    let (msg, whole, frames, largest) = conn.message();
    assert!(frames >= BIG / (16 * 1024), "{frames} frames");
    assert!(largest <= 16 * 1024, "a frame of {largest} octets");
    let Content::Reply(r) = &msg.content else {
        panic!("not a reply")
    };
    assert_eq!(r.header.request_id, 77);
    let mut body = msg
        .body_decoder(&whole, Encoding::native().codesets)
        .unwrap();
    let back = body.read_octet_seq().unwrap();
    let mut expected = data.to_vec();
    expected.reverse();
    assert!(back[..] == expected[..]);
}
