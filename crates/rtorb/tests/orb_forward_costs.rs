//! A call through a reference that remembers a forward costs the calling
//! thread what a call to the forward's target costs: no heap allocation
//! and no lock acquisition (exclusive connections, the default).
//! Allocations are counted by a global allocator, locks by `rtorb::sync`
//! (the tests build rtorb with `lock-count`).

use rtorb::sync::thread_acquisitions;
use rtorb_test_support::alloc::{CountingAllocator, allocations_per_call};
use rtorb_test_support::cubit::{self, Cubit};
use rtorb_test_support::{client, server};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

const CALLS: u64 = 2000;

#[test]
fn a_call_through_a_remembered_forward_allocates_nothing_and_locks_nothing() {
    let target = server::orb();
    let reference = cubit::serve(&target);
    let forwarder = server::orb();
    let to = forwarder.string_to_object(&reference).unwrap();
    let moved = forwarder
        .forward(&b"Moved"[..], to.target().reference().unwrap().clone())
        .unwrap();
    let client = client::orb();
    let moved: Cubit = client
        .string_to_object(&forwarder.object_to_string(&moved).unwrap())
        .unwrap()
        .unchecked_narrow();
    assert_eq!(moved.cube_long(2).unwrap(), 8);
    // Calls no longer reach the forwarder: they go to the target.
    assert!(forwarder.deactivate(b"Moved"));
    let mut l = 0i32;
    let (allocs, _) = allocations_per_call(50, CALLS, || {
        l = l.wrapping_add(1);
        assert_eq!(moved.cube_long(l).unwrap(), l.wrapping_pow(3));
    });
    assert_eq!(allocs, 0.0, "client allocations per call");
    let before = thread_acquisitions().expect("built with lock-count");
    for l in 0..CALLS as i32 {
        assert_eq!(moved.cube_long(l).unwrap(), l.wrapping_pow(3));
    }
    let locks = thread_acquisitions().unwrap() - before;
    assert_eq!(locks, 0, "client lock acquisitions in {CALLS} calls");
}
