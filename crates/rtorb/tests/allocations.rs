//! Heap allocations per call through the loopback, counted by a global
//! allocator that wraps the system one.
//!
//! A `cube_long` call writes a GIOP request, decodes it, dispatches it,
//! writes the reply and decodes it: with pooled message buffers and
//! operation names and object keys carried as slices, none of it should
//! allocate once the pools are warm.
#![allow(unsafe_code)]

mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rtorb::runtime::Stub;
use rtorb::runtime::loopback::Loopback;
use rtorb_cdr::{ByteOrder, Version};
use support::{Cubit, CubitImpl, CubitSkeleton, cubit};

/// The system allocator, counting allocations while counting is on.
struct CountingAllocator;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Whether allocations on this thread are counted. Only the measuring
    /// thread turns it on: the loopback runs client and servant on the
    /// caller's thread, and the test harness's own threads (output
    /// capture, timers) must not be counted.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every method forwards to `System` with the arguments it was
// given, so `GlobalAlloc`'s contract holds as it does for `System`; the
// counters are atomics and never allocate.
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

const CALLS: u64 = 1000;

/// Allocations (and reallocations) per call of `f`, after a warm-up.
/// Only allocations made on the calling thread are counted.
fn allocs_per_call(mut f: impl FnMut()) -> f64 {
    for _ in 0..10 {
        f();
    }
    ALLOCS.store(0, Ordering::SeqCst);
    COUNTING.with(|c| c.set(true));
    for _ in 0..CALLS {
        f();
    }
    COUNTING.with(|c| c.set(false));
    ALLOCS.load(Ordering::SeqCst) as f64 / CALLS as f64
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
