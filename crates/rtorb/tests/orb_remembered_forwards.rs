//! A reference remembers where its calls were forwarded to: later calls
//! go there directly, until the object is no longer there; then the
//! reference goes back to the original, which forwards afresh. A
//! `LOCATION_FORWARD_PERM` replaces the original for good.

mod poa_common;

use std::net::TcpListener;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use poa_common::{TAGGED_ID, tagged, who};
use rtorb::exception::SystemExceptionKind;
use rtorb::object::Object;
use rtorb::orb::Orb;
use rtorb::poa::{
    Cookie, ForwardRequest, IdAssignmentPolicy, Poa, Policy, RequestProcessingPolicy,
    ServantActivator, ServantLocator, ServantManager, ServantManagerError, ServantRetentionPolicy,
};
use rtorb::servant::Skeleton;
use rtorb_cdr::{ByteOrder, CdrEncode, Encoding, Version};
use rtorb_giop::message::{Content, MessageWriter, ReplyHeader, ReplyStatus};
use rtorb_test_support::cubit::{Cubit, CubitImpl, CubitSkeleton};
use rtorb_test_support::server::remote;
use rtorb_test_support::{client, server};

/// The repository id of the Cubit.
const CUBIT_ID: &str = "IDL:Cubit:1.0";

/// How many calls the tests make through a forwarded reference.
const CALLS: u32 = 1000;

/// Forwards every object to where `to` says, counting how often it is
/// asked, as an activator and as a locator.
#[derive(Default)]
struct Forwarder {
    to: Mutex<Option<Object>>,
    asked: AtomicU32,
}

impl Forwarder {
    fn forward(&self) -> ServantManagerError {
        self.asked.fetch_add(1, Ordering::SeqCst);
        let to = self
            .to
            .lock()
            .unwrap()
            .clone()
            .expect("somewhere to forward");
        ForwardRequest(to).into()
    }

    fn asked(&self) -> u32 {
        self.asked.load(Ordering::SeqCst)
    }
}

impl ServantActivator for Forwarder {
    fn incarnate(&self, _: &[u8], _: &Poa) -> Result<Arc<dyn Skeleton>, ServantManagerError> {
        Err(self.forward())
    }

    fn etherealize(&self, _: &[u8], _: &Poa, _: Arc<dyn Skeleton>, _: bool, _: bool) {}
}

impl ServantLocator for Forwarder {
    fn preinvoke(
        &self,
        _: &[u8],
        _: &Poa,
        _: &str,
    ) -> Result<(Arc<dyn Skeleton>, Cookie), ServantManagerError> {
        Err(self.forward())
    }

    fn postinvoke(&self, _: &[u8], _: &Poa, _: &str, _: Cookie, _: Arc<dyn Skeleton>) {}
}

/// A POA of `orb` whose servant manager is a new [`Forwarder`], an
/// activator or a locator.
fn forwarding_poa(orb: &Orb, locator: bool) -> (Poa, Arc<Forwarder>) {
    let root = orb.root_poa();
    let mut policies = vec![
        Policy::IdAssignment(IdAssignmentPolicy::UserId),
        Policy::RequestProcessing(RequestProcessingPolicy::UseServantManager),
    ];
    if locator {
        policies.push(Policy::ServantRetention(ServantRetentionPolicy::NonRetain));
    }
    let poa = root
        .create_poa("forwarding", Some(&root.the_poa_manager()), &policies)
        .unwrap();
    let forwarder = Arc::new(Forwarder::default());
    let manager = if locator {
        ServantManager::Locator(forwarder.clone())
    } else {
        ServantManager::Activator(forwarder.clone())
    };
    poa.set_servant_manager(manager).unwrap();
    root.the_poa_manager().activate().unwrap();
    (poa, forwarder)
}

/// A server ORB serving `Tagged(tag)`, and the object as the forwarder
/// names it.
fn target(forwarder_orb: &Orb, tag: u32) -> (Orb, Object) {
    let orb = server::orb();
    let object = orb.activate(tagged(tag)).unwrap();
    let named = remote(&orb, forwarder_orb, &object);
    (orb, named)
}

#[test]
fn calls_through_a_forwarded_reference_ask_the_servant_manager_once() {
    for locator in [false, true] {
        let forwarding = server::orb();
        let (poa, forwarder) = forwarding_poa(&forwarding, locator);
        let (_b, at_b) = target(&forwarding, 7);
        *forwarder.to.lock().unwrap() = Some(at_b);
        let c = client::orb();
        let original = poa.create_reference_with_id(b"moved", TAGGED_ID).unwrap();
        let obj = remote(&forwarding, &c, &original);
        for _ in 0..CALLS {
            assert_eq!(who(&obj).unwrap(), 7);
        }
        assert_eq!(forwarder.asked(), 1, "locator: {locator}");
        // Clones, and stubs narrowed from them, share what it remembers.
        let copy = obj.clone();
        assert_eq!(who(&copy).unwrap(), 7);
        let narrowed = copy.narrow::<Object>().unwrap().unwrap();
        assert_eq!(who(&narrowed).unwrap(), 7);
        assert_eq!(forwarder.asked(), 1, "locator: {locator}");
        // A reference made anew from the IOR starts fresh.
        let fresh = remote(&forwarding, &c, &original);
        assert_eq!(who(&fresh).unwrap(), 7);
        assert_eq!(forwarder.asked(), 2, "locator: {locator}");
    }
}

#[test]
fn a_forward_key_is_followed_once_per_reference() {
    let forwarding = server::orb();
    let (_b, at_b) = target(&forwarding, 3);
    let moved = forwarding
        .forward(&b"Moved"[..], at_b.target().reference().unwrap().clone())
        .unwrap();
    let c = client::orb();
    let obj = remote(&forwarding, &c, &moved);
    let original = c.object_to_string(&obj).unwrap();
    assert_eq!(who(&obj).unwrap(), 3);
    // A LOCATION_FORWARD does not change what designates the object.
    assert_eq!(c.object_to_string(&obj).unwrap(), original);
    // The forwarder stops forwarding: the reference still reaches B.
    assert!(forwarding.deactivate(b"Moved"));
    for _ in 0..CALLS {
        assert_eq!(who(&obj).unwrap(), 3);
    }
}

#[test]
fn validate_connection_remembers_the_forward_it_found() {
    let forwarding = server::orb();
    let (poa, forwarder) = forwarding_poa(&forwarding, false);
    let (_b, at_b) = target(&forwarding, 5);
    *forwarder.to.lock().unwrap() = Some(at_b);
    let c = client::orb();
    let obj = remote(
        &forwarding,
        &c,
        &poa.create_reference_with_id(b"moved", TAGGED_ID).unwrap(),
    );
    assert_eq!(obj.validate_connection(), Ok(true));
    assert_eq!(forwarder.asked(), 1);
    for _ in 0..10 {
        assert_eq!(who(&obj).unwrap(), 5);
    }
    assert_eq!(forwarder.asked(), 1);
}

#[test]
fn a_reference_goes_back_to_the_original_when_the_object_is_gone_from_the_forward() {
    for locator in [false, true] {
        let forwarding = server::orb();
        let (poa, forwarder) = forwarding_poa(&forwarding, locator);
        let (b, at_b) = target(&forwarding, 1);
        *forwarder.to.lock().unwrap() = Some(at_b.clone());
        let c = client::orb();
        let obj = remote(
            &forwarding,
            &c,
            &poa.create_reference_with_id(b"moved", TAGGED_ID).unwrap(),
        );
        assert_eq!(who(&obj).unwrap(), 1);
        assert_eq!(forwarder.asked(), 1);

        // Deactivated at B: OBJECT_NOT_EXIST there, and the call goes to
        // the original, which now forwards to C.
        let (c_orb, at_c) = target(&forwarding, 2);
        *forwarder.to.lock().unwrap() = Some(at_c);
        assert!(b.deactivate(at_b.target().object_key()));
        assert_eq!(who(&obj).unwrap(), 2, "locator: {locator}");
        assert_eq!(forwarder.asked(), 2);
        assert_eq!(who(&obj).unwrap(), 2);
        assert_eq!(forwarder.asked(), 2);

        // C shut down: it cannot be reached, and the original forwards
        // to D.
        let (_d, at_d) = target(&forwarding, 3);
        *forwarder.to.lock().unwrap() = Some(at_d);
        c_orb.shutdown();
        drop(c_orb);
        assert_eq!(who(&obj).unwrap(), 3, "locator: {locator}");
        assert_eq!(forwarder.asked(), 3);
        assert_eq!(who(&obj).unwrap(), 3);
        assert_eq!(forwarder.asked(), 3);
    }
}

/// A server that answers every request with `LOCATION_FORWARD_PERM` to
/// `to`, counting the requests; its address.
fn forwarding_for_good(to: &Object) -> (String, Arc<AtomicU32>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let ior = to.target().reference().unwrap().to_ior().unwrap();
    let asked = Arc::new(AtomicU32::new(0));
    let counted = Arc::clone(&asked);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let ior = ior.clone();
            let counted = Arc::clone(&counted);
            std::thread::spawn(move || {
                loop {
                    let message = rtorb_test_support::net::read_message(&mut stream);
                    let Content::Request(r) = message.content else {
                        return;
                    };
                    counted.fetch_add(1, Ordering::SeqCst);
                    let header = ReplyHeader {
                        request_id: r.header.request_id,
                        reply_status: ReplyStatus::LocationForwardPerm,
                        service_context: Default::default(),
                    };
                    let encoding = Encoding::native()
                        .with_order(ByteOrder::Big)
                        .with_version(Version::V1_2);
                    let mut w = MessageWriter::reply(encoding, &header).unwrap();
                    ior.encode(w.body()).unwrap();
                    let reply = w.finish().unwrap();
                    if std::io::Write::write_all(&mut stream, &reply).is_err() {
                        return;
                    }
                }
            });
        }
    });
    (address, asked)
}

#[test]
fn a_permanent_forward_replaces_the_original() {
    let c = client::orb();
    let b = server::orb();
    let at_b = b.activate(tagged(9)).unwrap();
    let (address, asked) = forwarding_for_good(&remote(&b, &c, &at_b));
    let obj = c
        .string_to_object(&format!("corbaloc:iiop:1.2@{address}/Old"))
        .unwrap();
    let old_ior = c.object_to_string(&obj).unwrap();
    for _ in 0..10 {
        assert_eq!(who(&obj).unwrap(), 9);
    }
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    // What designates the object to others is B's reference now: its
    // string, its corbaloc URL, and (through them) a new reference.
    let b_ior = c.object_to_string(&remote(&b, &c, &at_b)).unwrap();
    assert_ne!(old_ior, b_ior);
    assert_eq!(c.object_to_string(&obj).unwrap(), b_ior);
    assert_eq!(obj.corbaloc(), remote(&b, &c, &at_b).corbaloc());
    assert_eq!(
        obj.target().reference().unwrap().to_stringified().unwrap(),
        old_ior
    );
    // Gone from B: the failure is the caller's; the reference does not go
    // back to the server that forwarded it for good.
    assert!(b.deactivate(at_b.target().object_key()));
    let e = who(&obj).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist));
    assert_eq!(asked.load(Ordering::SeqCst), 1);
}

#[test]
fn collocated_calls_remember_forwards_too() {
    for locator in [false, true] {
        let orb = server::orb();
        let (poa, forwarder) = forwarding_poa(&orb, locator);
        let first = orb
            .activate_with_key(&b"First"[..], Arc::new(CubitSkeleton(CubitImpl::default())))
            .unwrap();
        *forwarder.to.lock().unwrap() = Some(first.clone());
        let original = poa.create_reference_with_id(b"moved", CUBIT_ID).unwrap();
        // Through a stub (the servant called directly) and untyped (the
        // request marshaled in memory).
        let stub: Cubit = original.clone().unchecked_narrow();
        for l in 0..CALLS as i32 {
            assert_eq!(stub.cube_long(l).unwrap(), l.wrapping_pow(3));
        }
        assert_eq!(forwarder.asked(), 1, "locator: {locator}");
        let untyped = poa.create_reference_with_id(b"moved", CUBIT_ID).unwrap();
        for l in 0..10 {
            assert_eq!(cube_long(&untyped, l).unwrap(), l * l * l);
        }
        assert_eq!(forwarder.asked(), 2, "locator: {locator}");

        // The target deactivated: back to the original, forwarded afresh.
        let second = orb
            .activate_with_key(
                &b"Second"[..],
                Arc::new(CubitSkeleton(CubitImpl::default())),
            )
            .unwrap();
        *forwarder.to.lock().unwrap() = Some(second);
        assert!(orb.deactivate(b"First"));
        assert_eq!(stub.cube_long(2).unwrap(), 8, "locator: {locator}");
        assert_eq!(cube_long(&untyped, 3).unwrap(), 27);
        assert_eq!(forwarder.asked(), 4, "locator: {locator}");
        assert_eq!(stub.cube_long(4).unwrap(), 64);
        assert_eq!(cube_long(&untyped, 5).unwrap(), 125);
        assert_eq!(forwarder.asked(), 4, "locator: {locator}");
    }
}

#[test]
fn a_remote_reference_forwarded_to_an_object_of_the_calling_orb_remembers_it() {
    let forwarding = server::orb();
    let (poa, forwarder) = forwarding_poa(&forwarding, true);
    // The client serves the object the forward names.
    let c = server::orb();
    let here = c
        .activate_with_key(&b"Here"[..], Arc::new(CubitSkeleton(CubitImpl::default())))
        .unwrap();
    *forwarder.to.lock().unwrap() = Some(remote(&c, &forwarding, &here));
    let original = poa.create_reference_with_id(b"moved", CUBIT_ID).unwrap();
    let stub: Cubit = remote(&forwarding, &c, &original).unchecked_narrow();
    for l in 0..CALLS as i32 {
        assert_eq!(stub.cube_long(l).unwrap(), l.wrapping_pow(3));
    }
    assert_eq!(forwarder.asked(), 1);
}

fn cube_long(object: &Object, l: i32) -> Result<i32, rtorb::exception::SystemException> {
    object
        .invoke("cube_long", |e| l.encode(e))?
        .decode(<i32 as rtorb::cdr::CdrDecode>::decode)
}
