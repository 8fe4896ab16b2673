//! omniORB, which has no Real-time CORBA, reaches an object served by a
//! thread pool lane through a `corbaloc` to the rtorb server's own port:
//! the server forwards it to the lane's endpoint, omniORB follows the
//! forward, and every request runs in the lane's threads at the lane's
//! priority. A missing omniORB fails this test.

mod rt_support;

use rt_support::{Noting, cubit_client, two_lane_server};
use rtorb::rt::{Priority, PriorityModelPolicy};

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn omniorb_reaches_a_lane_object_through_its_forward() {
    let (low, high) = (Priority::new(0).unwrap(), Priority::new(8_000).unwrap());
    let (orb, main) = two_lane_server(low, high);
    let noting = Noting::new();
    orb.activate_with_key_at(
        &b"High"[..],
        noting.clone(),
        PriorityModelPolicy::server_declared(high),
    )
    .unwrap();
    let output = cubit_client(&format!("corbaloc::1.2@{main}/High"));
    orb.shutdown();
    let seen = noting.seen();
    assert!(!seen.is_empty(), "no upcall: {output}");
    assert!(
        seen.iter()
            .all(|(thread, p)| thread == "rtorb-lane-0-1" && *p == Some(8_000)),
        "{seen:?}"
    );
}
