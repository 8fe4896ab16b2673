//! omniORB, which has no Real-time CORBA, calls rtorb objects whose POAs
//! have a priority model: it reads references that carry the
//! `TAG_POLICIES` component, sends no priority, and its requests run at
//! the priority the server declared, or at the POA's default for the
//! `CLIENT_PROPAGATED` model. A missing omniORB fails these tests.

mod rt_support;

use rt_support::{cubit_client, noting_in_poa};
use rtorb::rt::{Priority, PriorityModelPolicy};

/// Runs omniORB's `cubit_client` on a Cubit in a POA of `model`; the
/// priorities its upcalls ran at.
fn omniorb_calls(model: PriorityModelPolicy) -> Vec<Option<i16>> {
    let (orb, noting, ior) = noting_in_poa(model);
    let output = cubit_client(&ior);
    orb.shutdown();
    let seen = noting.seen();
    assert!(!seen.is_empty(), "no upcall: {output}");
    seen.into_iter().map(|(_, p)| p).collect()
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn omniorb_requests_run_at_the_declared_priority() {
    let declared = Priority::new(4567).unwrap();
    let seen = omniorb_calls(PriorityModelPolicy::server_declared(declared));
    assert!(seen.iter().all(|p| *p == Some(4567)), "{seen:?}");
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn omniorb_requests_run_at_the_client_propagated_default() {
    let default = Priority::new(123).unwrap();
    let seen = omniorb_calls(PriorityModelPolicy::client_propagated(default));
    assert!(seen.iter().all(|p| *p == Some(123)), "{seen:?}");
}
