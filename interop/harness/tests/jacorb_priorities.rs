//! JacORB, whose client sends no RTCorbaPriority context, calls rtorb
//! objects with a priority model: its requests run at the priority the
//! server declared, or at the POA's default for the `CLIENT_PROPAGATED`
//! model, and an object bound to a thread pool lane, reached through a
//! `corbaloc` to the server's own port, is forwarded to the lane and
//! served by the lane's threads at the lane's priority. A missing JDK,
//! Maven or JacORB fails these tests.

mod rt_support;

use rt_support::{Noting, Upcall, jacorb_client, noting_in_poa, two_lane_server};
use rtorb::rt::{Priority, PriorityModelPolicy};

const CALLS: u32 = 10;

/// Runs JacORB's client on a Cubit in a POA of `model`; where its upcalls
/// ran.
fn jacorb_calls(model: PriorityModelPolicy) -> Vec<Upcall> {
    let (orb, noting, ior) = noting_in_poa(model);
    let output = jacorb_client(&ior, CALLS);
    orb.shutdown();
    let seen = noting.seen();
    assert_eq!(seen.len(), CALLS as usize, "{seen:?}: {output}");
    seen
}

#[test]
#[ignore = "needs JacORB (a JDK, Maven and JacORB's jars): scripts/test.sh installs them and runs this"]
fn jacorb_requests_run_at_the_declared_priority() {
    let declared = Priority::new(4567).unwrap();
    let seen = jacorb_calls(PriorityModelPolicy::server_declared(declared));
    assert!(seen.iter().all(|(_, p)| *p == Some(4567)), "{seen:?}");
}

#[test]
#[ignore = "needs JacORB (a JDK, Maven and JacORB's jars): scripts/test.sh installs them and runs this"]
fn jacorb_requests_run_at_the_client_propagated_default() {
    let default = Priority::new(123).unwrap();
    let seen = jacorb_calls(PriorityModelPolicy::client_propagated(default));
    assert!(seen.iter().all(|(_, p)| *p == Some(123)), "{seen:?}");
}

#[test]
#[ignore = "needs JacORB (a JDK, Maven and JacORB's jars): scripts/test.sh installs them and runs this"]
fn jacorb_reaches_a_lane_object_through_its_forward() {
    let (low, high) = (Priority::new(0).unwrap(), Priority::new(8_000).unwrap());
    let (orb, main) = two_lane_server(low, high);
    let (in_high, in_low) = (Noting::new(), Noting::new());
    orb.activate_with_key_at(
        &b"High"[..],
        in_high.clone(),
        PriorityModelPolicy::server_declared(high),
    )
    .unwrap();
    orb.activate_with_key_at(
        &b"Low"[..],
        in_low.clone(),
        PriorityModelPolicy::server_declared(low),
    )
    .unwrap();
    let high_output = jacorb_client(&format!("corbaloc::1.2@{main}/High"), CALLS);
    let low_output = jacorb_client(&format!("corbaloc::1.2@{main}/Low"), CALLS);
    orb.shutdown();
    let (high_seen, low_seen) = (in_high.seen(), in_low.seen());
    assert_eq!(high_seen.len(), CALLS as usize, "{high_output}");
    assert_eq!(low_seen.len(), CALLS as usize, "{low_output}");
    assert!(
        high_seen
            .iter()
            .all(|(thread, p)| thread == "rtorb-lane-0-1" && *p == Some(8_000)),
        "{high_seen:?}"
    );
    assert!(
        low_seen
            .iter()
            .all(|(thread, p)| thread == "rtorb-lane-0-0" && *p == Some(0)),
        "{low_seen:?}"
    );
}
