//! Persistent POAs keep their references across ORB (process)
//! instances on a fixed endpoint; transient and system ids of an earlier
//! instance do not reach anything.

mod poa_common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use poa_common::{TAGGED_ID, tagged, who};
use rtorb::exception::SystemExceptionKind;
use rtorb::orb::Orb;
use rtorb::poa::{AdapterActivator, IdAssignmentPolicy, LifespanPolicy, Poa, Policy};
use rtorb_test_support::client;
use rtorb_test_support::net::free_port;

fn persistent_user_ids() -> [Policy; 2] {
    [
        Policy::Lifespan(LifespanPolicy::Persistent),
        Policy::IdAssignment(IdAssignmentPolicy::UserId),
    ]
}

/// An ORB on `endpoint` with the persistent POA `Outer/Inner` serving
/// `Tagged(tag)` under the id `obj`, and its stringified reference.
fn serve(endpoint: &str, tag: u32) -> (Orb, String) {
    let orb = Orb::builder().listen(endpoint).build().unwrap();
    let root = orb.root_poa();
    let manager = root.the_poa_manager();
    let outer = root
        .create_poa("Outer", Some(&manager), &persistent_user_ids())
        .unwrap();
    let inner = outer
        .create_poa("Inner", Some(&manager), &persistent_user_ids())
        .unwrap();
    inner.activate_object_with_id(b"obj", tagged(tag)).unwrap();
    manager.activate().unwrap();
    let ior = orb
        .object_to_string(&inner.id_to_reference(b"obj").unwrap())
        .unwrap();
    (orb, ior)
}

#[test]
fn a_persistent_reference_reaches_the_object_after_a_restart() {
    let endpoint = format!("iiop://127.0.0.1:{}", free_port());
    let c = client::orb();
    let (first, ior) = serve(&endpoint, 1);
    let obj = c.string_to_object(&ior).unwrap();
    assert_eq!(who(&obj).unwrap(), 1);
    first.shutdown();
    drop(first);
    let e = who(&obj).unwrap_err();
    assert_eq!(
        e.kind(),
        Some(SystemExceptionKind::Transient),
        "nobody listens: {e}"
    );
    assert_eq!(e.minor, rtorb::minor::TRANSIENT_CONNECT_FAILED, "{e}");
    let (second, ior2) = serve(&endpoint, 2);
    assert_eq!(ior, ior2, "the same reference");
    assert_eq!(
        who(&obj).unwrap(),
        2,
        "the old reference reaches the new servant"
    );
    second.shutdown();
}

/// Recreates `Outer/Inner` when a request for it arrives.
struct Recreate(AtomicU32);

impl AdapterActivator for Recreate {
    fn unknown_adapter(&self, parent: &Poa, name: &str) -> bool {
        self.0.fetch_add(1, Ordering::SeqCst);
        let Ok(poa) = parent.create_poa(
            name,
            Some(&parent.the_poa_manager()),
            &persistent_user_ids(),
        ) else {
            return false;
        };
        poa.set_the_activator(parent.the_activator());
        if name == "Inner" {
            poa.activate_object_with_id(b"obj", tagged(3)).unwrap();
        }
        true
    }
}

#[test]
fn an_adapter_activator_recreates_persistent_poas_on_the_first_request() {
    let endpoint = format!("iiop://127.0.0.1:{}", free_port());
    let c = client::orb();
    let (first, ior) = serve(&endpoint, 1);
    first.shutdown();
    drop(first);
    let second = Orb::builder().listen(endpoint.as_str()).build().unwrap();
    let root = second.root_poa();
    let recreate = Arc::new(Recreate(AtomicU32::new(0)));
    root.set_the_activator(Some(recreate.clone()));
    root.the_poa_manager().activate().unwrap();
    let obj = c.string_to_object(&ior).unwrap();
    assert_eq!(who(&obj).unwrap(), 3);
    assert_eq!(recreate.0.load(Ordering::SeqCst), 2, "Outer, then Inner");
    assert_eq!(who(&obj).unwrap(), 3);
    assert_eq!(recreate.0.load(Ordering::SeqCst), 2, "made once");
    let inner = root
        .find_poa("Outer", false)
        .unwrap()
        .find_poa("Inner", false)
        .unwrap();
    assert!(inner.policies().persistent());
}

#[test]
fn a_system_id_of_an_earlier_instance_does_not_reach_a_new_object() {
    let endpoint = format!("iiop://127.0.0.1:{}", free_port());
    let c = client::orb();
    let make = || {
        let orb = Orb::builder().listen(endpoint.as_str()).build().unwrap();
        let root = orb.root_poa();
        let poa = root
            .create_poa(
                "P",
                Some(&root.the_poa_manager()),
                &[Policy::Lifespan(LifespanPolicy::Persistent)],
            )
            .unwrap();
        root.the_poa_manager().activate().unwrap();
        (orb, poa)
    };
    let (first, poa) = make();
    let id = poa.activate_object(tagged(1)).unwrap();
    assert_eq!(id.len(), 16);
    let ior = first
        .object_to_string(&poa.id_to_reference(&id).unwrap())
        .unwrap();
    first.shutdown();
    drop(first);
    let (second, poa) = make();
    // The same slot and generation, another instance.
    let id2 = poa.activate_object(tagged(2)).unwrap();
    assert_eq!(id[8..], id2[8..]);
    assert_ne!(id, id2);
    let old = c.string_to_object(&ior).unwrap();
    let e = who(&old).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist));
    let new = c
        .string_to_object(
            &second
                .object_to_string(&poa.id_to_reference(&id2).unwrap())
                .unwrap(),
        )
        .unwrap();
    assert_eq!(who(&new).unwrap(), 2);
    assert_eq!(new.type_id(), TAGGED_ID);
}
