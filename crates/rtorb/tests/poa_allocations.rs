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
#![allow(unsafe_code)]

mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use rtorb::orb::Orb;
use rtorb::poa::{IdAssignmentPolicy, Policy};
use support::{Cubit, CubitImpl, CubitSkeleton};

/// The system allocator, counting allocations while counting is on.
struct CountingAllocator;

/// Whether allocations are being counted.
static COUNTING: AtomicBool = AtomicBool::new(false);
/// Allocations on every thread.
static ALL: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Allocations on this thread while counting was on.
    static MINE: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    if COUNTING.load(Ordering::Relaxed) {
        ALL.fetch_add(1, Ordering::Relaxed);
        let _ = MINE.try_with(|c| c.set(c.get() + 1));
    }
}

// SAFETY: every method forwards to `System` with the arguments it was
// given, so `GlobalAlloc`'s contract holds as it does for `System`; the
// counters are atomics and a const thread-local cell, which never
// allocate.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller meets `GlobalAlloc::alloc`'s requirements,
        // which are `System::alloc`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, hence from `System`, for
        // `layout`, as the caller guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: `ptr` came from `System` for `layout`, and the caller
        // meets the requirements on `new_size`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

const CALLS: u64 = 2000;

/// Allocations per call of `f` after a warm-up: (client thread, rest of
/// the process).
fn allocs_per_call(mut f: impl FnMut()) -> (f64, f64) {
    for _ in 0..50 {
        f();
    }
    MINE.with(|c| c.set(0));
    ALL.store(0, Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    for _ in 0..CALLS {
        f();
    }
    COUNTING.store(false, Ordering::SeqCst);
    let all = ALL.load(Ordering::SeqCst);
    let mine = MINE.with(Cell::get);
    let per_call = |n: u64| n as f64 / CALLS as f64;
    (per_call(mine), per_call(all.saturating_sub(mine)))
}

#[test]
fn allocations_per_cube_long_on_poa_objects() {
    let server = Orb::builder().listen("iiop://127.0.0.1:0").build().unwrap();
    let root = server.root_poa();
    let system_id = server.activate(Arc::new(CubitSkeleton(CubitImpl::default())));
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
    let client = Orb::builder()
        .round_trip_timeout(Duration::from_secs(10))
        .build()
        .unwrap();
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
