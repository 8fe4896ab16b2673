//! Heap allocations per call to an object of a POA over IIOP: the
//! server's demultiplexing of a system-assigned key (POA slot, object
//! slot) and the POA's bookkeeping allocate nothing in steady state.
//! Counted by a global allocator that wraps the system one.
//!
//! The client side is counted on the calling thread. The server side runs
//! on the ORB's connection thread, so it is counted as every allocation in
//! the process during the measurement minus the calling thread's: the
//! test runs alone in its binary, and the only other threads (acceptors,
//! the idle connection thread of the warm-up) do not allocate while they
//! wait (a stray allocation among them is tolerated, not one per call).

use std::sync::Arc;

use rtorb::poa::{IdAssignmentPolicy, Policy};
use rtorb_test_support::alloc::{CountingAllocator, allocations_per_call};
use rtorb_test_support::cubit::{Cubit, CubitImpl, CubitSkeleton};
use rtorb_test_support::{client, server};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

const CALLS: u64 = 2000;

/// Allocations per call of `f` after a warm-up: (client thread, rest of
/// the process).
fn allocs_per_call(f: impl FnMut()) -> (f64, f64) {
    allocations_per_call(50, CALLS, f)
}

#[test]
fn allocations_per_cube_long_on_poa_objects() {
    let server = server::orb();
    let root = server.root_poa();
    let system_id = server
        .activate(Arc::new(CubitSkeleton(CubitImpl::default())))
        .unwrap();
    let users = root
        .create_poa(
            "users",
            Some(&root.the_poa_manager()),
            &[Policy::IdAssignment(IdAssignmentPolicy::UserId)],
        )
        .unwrap();
    users
        .activate_object_with_id(b"cubit", Arc::new(CubitSkeleton(CubitImpl::default())))
        .unwrap();
    let user_id = users.id_to_reference(b"cubit").unwrap();
    let client = client::orb();
    let mut worst = 0.0f64;
    for (what, obj) in [("system id", &system_id), ("user id", &user_id)] {
        let ior = server.object_to_string(obj).expect("a reference");
        let cubit: Cubit = client.string_to_object(&ior).unwrap().unchecked_narrow();
        let mut l = 0i32;
        let (on_client, on_server) = allocs_per_call(|| {
            l = l.wrapping_add(1);
            assert_eq!(cubit.cube_long(l).unwrap(), l.wrapping_pow(3));
        });
        println!(
            "POA object ({what}): allocations per cube_long: client {on_client}, server {on_server}"
        );
        assert_eq!(on_client, 0.0, "client allocations per call ({what})");
        worst = worst.max(on_server);
    }
    // Counted process-wide: room for a stray allocation by another
    // thread, not for one per call.
    assert!(worst < 0.01, "server: {worst} allocations per call");
    client.shutdown();
    server.shutdown();
}
