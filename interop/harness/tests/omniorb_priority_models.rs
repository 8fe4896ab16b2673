//! omniORB, which has no Real-time CORBA, calls rtorb objects whose POAs
//! have a priority model: it reads references that carry the
//! `TAG_POLICIES` component, sends no priority, and its requests run at
//! the priority the server declared, or at the POA's default for the
//! `CLIENT_PROPAGATED` model. A missing omniORB fails these tests.

mod rt_support;

use rt_support::{Noting, cubit_client};
use rtorb::orb::Orb;
use rtorb::rt::{Priority, PriorityModelPolicy, SchedPolicy};
use rtorb_test_support::priority::activate_in_poa;

/// Runs omniORB's `cubit_client` on a Cubit in a POA of `model`; the
/// priorities its upcalls ran at.
fn omniorb_calls(model: PriorityModelPolicy) -> Vec<Option<i16>> {
    // Nice values: no privilege needed for the priorities used here.
    let orb = Orb::builder()
        .listen("iiop://127.0.0.1:0")
        .sched_policy(SchedPolicy::Other)
        .build()
        .unwrap();
    let noting = Noting::new();
    let object = activate_in_poa(&orb, "rt", Some(model), noting.clone());
    let ior = orb.object_to_string(&object).unwrap();
    let output = cubit_client(&ior);
    orb.shutdown();
    let seen = noting.seen();
    assert!(!seen.is_empty(), "no upcall: {output}");
    seen.into_iter().map(|(_, p)| p).collect()
}

#[test]
fn omniorb_requests_run_at_the_declared_priority() {
    let declared = Priority::new(4567).unwrap();
    let seen = omniorb_calls(PriorityModelPolicy::server_declared(declared));
    assert!(seen.iter().all(|p| *p == Some(4567)), "{seen:?}");
}

#[test]
fn omniorb_requests_run_at_the_client_propagated_default() {
    let default = Priority::new(123).unwrap();
    let seen = omniorb_calls(PriorityModelPolicy::client_propagated(default));
    assert!(seen.iter().all(|p| *p == Some(123)), "{seen:?}");
}
