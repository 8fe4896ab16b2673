//! Heap allocations per call through the loopback, counted by a global
//! allocator that wraps the system one.
//!
//! A `cube_long` call writes a GIOP request, decodes it, dispatches it,
//! writes the reply and decodes it: with pooled message buffers and
//! operation names and object keys carried as slices, none of it should
//! allocate once the pools are warm.

use std::sync::Arc;

use rtorb::loopback::Loopback;
use rtorb::object::Stub;
use rtorb_cdr::{ByteOrder, Version};
use rtorb_test_support::alloc::{CountingAllocator, allocations_per_call};
use rtorb_test_support::cubit::{Cubit, CubitImpl, CubitSkeleton, cubit};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

const CALLS: u64 = 1000;

/// Allocations (and reallocations) per call of `f`, after a warm-up.
/// Only allocations made on the calling thread count: the loopback runs
/// client and servant on it, and the test harness's own threads (output
/// capture, timers) must not be counted.
fn allocs_per_call(f: impl FnMut()) -> f64 {
    allocations_per_call(10, CALLS, f).0
}

#[test]
fn allocations_per_call_through_the_loopback() {
    let mut cube_long_max: f64 = 0.0;
    for v in [Version::V1_0, Version::V1_1, Version::V1_2] {
        for o in [ByteOrder::Big, ByteOrder::Little] {
            let orb = Loopback::new(v, o);
            let obj = orb.activate(&b"Cubit"[..], Arc::new(CubitSkeleton(CubitImpl::default())));
            let c = Cubit::unchecked_narrow(obj);
            let mut l = 0i32;
            let long = allocs_per_call(|| {
                l = l.wrapping_add(1);
                assert_eq!(c.cube_long(l).unwrap(), l.wrapping_pow(3));
            });
            let void = allocs_per_call(|| c.cube_void().unwrap());
            let m = cubit::Many { o: 2, l: 3, s: 4 };
            let many = allocs_per_call(|| {
                assert_eq!(c.cube_struct(&m).unwrap().l, 27);
            });
            let octets = [3u8; 64];
            let octet_seq = allocs_per_call(|| {
                assert_eq!(c.cube_octet_sequence(&octets).unwrap()[0], 27);
            });
            let oneway = allocs_per_call(|| c.shutdown().unwrap());
            println!(
                "GIOP {}.{} {o:?}: allocations per call: cube_long {long}, cube_void {void}, \
                 cube_struct {many}, cube_octet_sequence(64) {octet_seq}, shutdown (oneway) {oneway}",
                v.major, v.minor
            );
            cube_long_max = cube_long_max.max(long);
            // Primitive arguments and results: nothing allocated.
            assert_eq!(long, 0.0, "cube_long in GIOP {v:?} {o:?}");
            assert_eq!(void, 0.0, "cube_void in GIOP {v:?} {o:?}");
            assert_eq!(many, 0.0, "cube_struct in GIOP {v:?} {o:?}");
            assert_eq!(oneway, 0.0, "shutdown in GIOP {v:?} {o:?}");
            // The servant builds its result sequence: one Vec, frozen
            // into the shared buffer the stub receives.
            // It also shows that the counter counts.
            assert!(
                (1.0..=2.0).contains(&octet_seq),
                "cube_octet_sequence: {octet_seq}"
            );
        }
    }
    println!("cube_long through the loopback: at most {cube_long_max} allocations per call");
}
