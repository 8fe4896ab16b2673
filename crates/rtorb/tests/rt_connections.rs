//! Real-time CORBA's connection policies on the client: priority-banded
//! connections (a connection per band, taken by the calling thread's
//! priority; the server's published bands when the client overrides
//! none), private connections, and explicit binding that opens every
//! band's connection before the first call.
//!
//! The server is a raw socket peer that numbers its connections and
//! reports which one each request came on.

use std::io::Write;
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, channel};

use rtorb::cdr::CdrDecode;
use rtorb::exception::{SystemException, SystemExceptionKind};
use rtorb::object::Object;
use rtorb::policy::Policy;
use rtorb::rt::{ExposedPolicies, MappingKind, Priority, PriorityControl, SchedPolicy, WhenDenied};
use rtorb_cdr::ByteOrder;
use rtorb_giop::encode_message;
use rtorb_giop::ior::PriorityBand;
use rtorb_giop::message::{Content, LocateReply, LocateStatus, Message};
use rtorb_test_support::net::try_read_message;
use rtorb_test_support::wait::eventually;
use rtorb_test_support::wire::{raw_reference, reply};
use rtorb_test_support::{TIMEOUT, client};

/// A peer that answers every request with the number of the connection
/// it came on (from 0) and every LocateRequest with `OBJECT_HERE`; its
/// port, the connections it accepted so far, and the numbers of the
/// connections requests came on.
fn peer() -> (u16, Arc<AtomicUsize>, Receiver<usize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let accepted = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = channel();
    let count = Arc::clone(&accepted);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let n = count.fetch_add(1, Ordering::SeqCst);
            let tx = tx.clone();
            std::thread::spawn(move || {
                while let Some(m) = try_read_message(&mut stream) {
                    match &m.content {
                        Content::Request(r) => {
                            let _ = tx.send(n);
                            let _ = stream.write_all(&reply(
                                r.header.request_id,
                                m.version,
                                &(n as u32),
                            ));
                        }
                        Content::LocateRequest(l) => {
                            let reply = Message::new(
                                m.version,
                                ByteOrder::Big,
                                Content::LocateReply(LocateReply {
                                    request_id: l.request_id,
                                    status: LocateStatus::ObjectHere,
                                }),
                            );
                            let _ = stream.write_all(&encode_message(&reply).unwrap());
                        }
                        _ => {}
                    }
                }
            });
        }
    });
    (port, accepted, rx)
}

/// Calls `which` on `object` from a thread at `priority` (none: a thread
/// without a CORBA priority); the number of the connection it came on.
fn call_at(object: &Object, priority: Option<i16>) -> Result<u32, SystemException> {
    let object = object.clone();
    let control = PriorityControl::new(
        SchedPolicy::Other,
        MappingKind::Linear,
        WhenDenied::RunAtOther,
    );
    std::thread::spawn(move || {
        if let Some(p) = priority {
            control
                .set_thread_priority(Priority::new(p).unwrap())
                .unwrap();
        }
        object
            .invoke("which", |_| Ok(()))?
            .decode::<u32, SystemException>(u32::decode)
    })
    .join()
    .unwrap()
}

fn bands() -> Vec<PriorityBand> {
    vec![
        PriorityBand { low: 0, high: 99 },
        PriorityBand {
            low: 100,
            high: 32767,
        },
    ]
}

#[test]
fn each_band_has_its_connection_and_a_thread_takes_its_band_s() {
    let (port, accepted, seen) = peer();
    let orb = client::orb();
    let object = raw_reference(&orb, port, &ExposedPolicies::default())
        .with_policies(&[Policy::PriorityBandedConnection(bands())]);
    let low = call_at(&object, Some(10)).unwrap();
    let high = call_at(&object, Some(20_000)).unwrap();
    assert_ne!(low, high);
    assert_eq!(call_at(&object, Some(99)).unwrap(), low);
    assert_eq!(call_at(&object, Some(100)).unwrap(), high);
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
    for _ in 0..4 {
        seen.recv_timeout(TIMEOUT).unwrap();
    }
    // A thread whose priority is in no band (here: none set).
    let e = call_at(&object, None).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::InvPolicy), "{e}");
    assert_eq!(e.minor, rtorb::minor::INV_POLICY_NO_PRIORITY_BAND);
    // Without the policy, every priority shares the connections.
    let plain = raw_reference(&orb, port, &ExposedPolicies::default());
    assert_eq!(
        call_at(&plain, Some(10)).unwrap(),
        call_at(&plain, Some(20_000)).unwrap()
    );
}

#[test]
fn the_server_s_published_bands_are_used_when_the_client_overrides_none() {
    let (port, accepted, _seen) = peer();
    let orb = client::orb();
    let published = ExposedPolicies {
        priority_model: None,
        priority_bands: Some(bands()),
    };
    let object = raw_reference(&orb, port, &published);
    let low = call_at(&object, Some(5)).unwrap();
    let high = call_at(&object, Some(5_000)).unwrap();
    assert_ne!(low, high);
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}

#[test]
fn explicit_binding_opens_every_band_s_connection_before_the_first_call() {
    let (port, accepted, _seen) = peer();
    let orb = client::orb();
    let object = raw_reference(&orb, port, &ExposedPolicies::default())
        .with_policies(&[Policy::PriorityBandedConnection(bands())]);
    assert!(object.validate_connection().unwrap());
    // The second band's connection is open once validate_connection
    // returns; the peer's thread accepts it when it gets to it.
    assert!(
        eventually(TIMEOUT, || accepted.load(Ordering::SeqCst) == 2),
        "{} connections accepted",
        accepted.load(Ordering::SeqCst)
    );
    let low = call_at(&object, Some(1)).unwrap();
    let high = call_at(&object, Some(30_000)).unwrap();
    assert_ne!(low, high);
    // The calls opened nothing more.
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}

#[test]
fn a_private_reference_has_a_connection_of_its_own() {
    let (port, accepted, _seen) = peer();
    let orb = client::orb();
    let shared_a = raw_reference(&orb, port, &ExposedPolicies::default());
    let shared_b = raw_reference(&orb, port, &ExposedPolicies::default());
    // Calls one after the other share the cached connection.
    assert_eq!(
        call_at(&shared_a, None).unwrap(),
        call_at(&shared_b, None).unwrap()
    );
    let private = raw_reference(&orb, port, &ExposedPolicies::default())
        .with_policies(&[Policy::PrivateConnection]);
    let mine = call_at(&private, None).unwrap();
    assert_ne!(mine, call_at(&shared_a, None).unwrap());
    // Its clones share it; nobody else gets it.
    assert_eq!(call_at(&private.clone(), None).unwrap(), mine);
    assert_ne!(call_at(&shared_b, None).unwrap(), mine);
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}
