//! The client side of Real-time CORBA's `CLIENT_PROPAGATED` model: a call
//! to a reference that exposes it carries the calling thread's CORBA
//! priority in an `RTCorbaPriority` service context, byte for byte as TAO
//! writes it; a call to one that does not (a server without Real-time
//! CORBA, or `SERVER_DECLARED`) carries none, and neither does a call from
//! a thread without a priority.
//!
//! The server is a raw socket peer that reports each request's context.

use std::io::Write;
use std::net::TcpListener;
use std::sync::mpsc::{Receiver, channel};

use rtorb::cdr::{CdrDecode, CdrEncode};
use rtorb::object::Object;
use rtorb::orb::ConnectionStrategy;
use rtorb::rt::{
    ExposedPolicies, MappingKind, Priority, PriorityControl, PriorityModelPolicy, SchedPolicy,
    WhenDenied,
};
use rtorb_cdr::ByteOrder;
use rtorb_giop::message::Content;
use rtorb_giop::service_context::RT_CORBA_PRIORITY;
use rtorb_test_support::alloc::{CountingAllocator, allocations_per_call};
use rtorb_test_support::net::try_read_message;
use rtorb_test_support::priority::{activate_in_poa, nice_server};
use rtorb_test_support::wire::{raw_reference, reply};
use rtorb_test_support::{TIMEOUT, client};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Held by each test: the allocations of the process are counted, so the
/// tests of this binary run one at a time.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What the peer saw of a request: its `RTCorbaPriority` context's data,
/// if it had one, and the byte order of the request.
type Seen = (Option<Vec<u8>>, ByteOrder);

/// A peer that answers every request with 7 and reports its priority
/// context.
fn peer() -> (u16, Receiver<Seen>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let tx = tx.clone();
            std::thread::spawn(move || {
                while let Some(m) = try_read_message(&mut stream) {
                    let Content::Request(r) = &m.content else {
                        continue;
                    };
                    let context = r
                        .header
                        .service_context
                        .0
                        .iter()
                        .find(|c| c.id == RT_CORBA_PRIORITY)
                        .map(|c| c.data.to_vec());
                    let _ = tx.send((context, m.order));
                    let _ = stream.write_all(&reply(r.header.request_id, m.version, &7i32));
                }
            });
        }
    });
    (port, rx)
}

/// The `RTCorbaPriority` context's data for `priority`: an encapsulation
/// (byte-order octet, one octet of padding, the `short`).
fn encapsulated(priority: i16, order: ByteOrder) -> Vec<u8> {
    let [a, b] = priority.to_be_bytes();
    match order {
        ByteOrder::Big => vec![0, 0, a, b],
        ByteOrder::Little => vec![1, 0, b, a],
    }
}

fn call(object: &Object) -> i32 {
    object
        .invoke("cube_long", |e| 2i32.encode(e))
        .unwrap()
        .decode::<i32, rtorb::exception::SystemException>(i32::decode)
        .unwrap()
}

/// Runs `f` in a thread whose CORBA priority is `priority` (nice values:
/// no privilege needed, and a refusal still sets the CORBA priority).
fn at_priority<T: Send + 'static>(priority: Priority, f: impl FnOnce() -> T + Send + 'static) -> T {
    let control = PriorityControl::new(
        SchedPolicy::Other,
        MappingKind::Linear,
        WhenDenied::RunAtOther,
    );
    std::thread::spawn(move || {
        control.set_thread_priority(priority).unwrap();
        f()
    })
    .join()
    .unwrap()
}

#[test]
fn a_client_propagated_reference_carries_the_thread_s_priority() {
    let _serial = serial();
    for strategy in [
        ConnectionStrategy::Exclusive,
        ConnectionStrategy::Multiplexed,
    ] {
        let (port, seen) = peer();
        let orb = client::with_strategy(strategy);
        let propagated = ExposedPolicies {
            priority_model: Some(PriorityModelPolicy::client_propagated(Priority::MIN)),
            priority_bands: None,
        };
        let object = raw_reference(&orb, port, &propagated);
        let p = Priority::new(0x1234).unwrap();
        let o = object.clone();
        // Twice: the second from the kept headers.
        at_priority(p, move || (call(&o), call(&o)));
        for _ in 0..2 {
            let (context, order) = seen.recv_timeout(TIMEOUT).unwrap();
            assert_eq!(context, Some(encapsulated(0x1234, order)), "{strategy:?}");
        }
        // Another priority on the same connection: its own context.
        let o = object.clone();
        at_priority(Priority::new(5).unwrap(), move || call(&o));
        let (context, order) = seen.recv_timeout(TIMEOUT).unwrap();
        assert_eq!(context, Some(encapsulated(5, order)), "{strategy:?}");
        // A thread without a priority sends none.
        assert_eq!(call(&object), 7);
        assert_eq!(seen.recv_timeout(TIMEOUT).unwrap().0, None);
    }
}

#[test]
fn other_references_carry_no_priority() {
    let _serial = serial();
    let (port, seen) = peer();
    let orb = client::orb();
    let declared = ExposedPolicies {
        priority_model: Some(PriorityModelPolicy::server_declared(
            Priority::new(90).unwrap(),
        )),
        priority_bands: None,
    };
    for policies in [ExposedPolicies::default(), declared] {
        let object = raw_reference(&orb, port, &policies);
        at_priority(Priority::new(100).unwrap(), move || call(&object));
        assert_eq!(seen.recv_timeout(TIMEOUT).unwrap().0, None, "{policies:?}");
    }
}

#[test]
fn a_propagated_priority_costs_no_allocation_per_call() {
    let _serial = serial();
    let (port, _seen) = peer();
    let orb = client::orb();
    let propagated = ExposedPolicies {
        priority_model: Some(PriorityModelPolicy::client_propagated(Priority::MIN)),
        priority_bands: None,
    };
    let object = raw_reference(&orb, port, &propagated);
    let (mine, _) = at_priority(Priority::new(7).unwrap(), move || {
        allocations_per_call(100, 1000, || {
            call(&object);
        })
    });
    assert_eq!(mine, 0.0);
}

/// `cube_long` answers its argument cubed.
struct Cuber;

impl rtorb::servant::Skeleton for Cuber {
    fn repository_ids(&self) -> &'static [&'static str] {
        &["IDL:rtorb/Cuber:1.0"]
    }

    fn dispatch(
        &self,
        req: &mut rtorb::servant::ServerRequest<'_>,
    ) -> Result<(), rtorb::exception::SystemException> {
        let l = i32::decode(req.arguments())?;
        req.write_results(|e| l.wrapping_pow(3).encode(e))
    }
}

/// Between two rtorb ORBs, a call that propagates its priority to a
/// `CLIENT_PROPAGATED` POA, which runs the upcall at it and sends it back
/// in the reply, allocates nothing on either side.
#[test]
fn a_priority_propagated_and_sent_back_costs_no_allocation_on_either_side() {
    let _serial = serial();
    let server = nice_server()
        .sched_denied(WhenDenied::RunAtOther)
        .build()
        .unwrap();
    let object = activate_in_poa(
        &server,
        "propagated",
        Some(PriorityModelPolicy::client_propagated(Priority::MIN)),
        std::sync::Arc::new(Cuber),
    );
    let ior = server.object_to_string(&object).unwrap();
    let client = client::orb();
    let object = client.string_to_object(&ior).unwrap();
    let (on_client, on_server) = at_priority(Priority::new(7).unwrap(), move || {
        allocations_per_call(100, 1000, || {
            assert_eq!(call(&object), 8);
        })
    });
    assert_eq!((on_client, on_server), (0.0, 0.0));
    server.shutdown();
}
