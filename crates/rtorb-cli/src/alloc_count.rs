//! A global allocator that counts the heap allocations of each thread, so
//! that `rtorb bench` can say how many allocations a call makes on each
//! side.
//!
//! It forwards everything to the system allocator. An allocation, a zeroed
//! allocation and a reallocation each add one to a counter of the calling
//! thread (a `const` thread-local, which never allocates itself);
//! deallocations are not counted.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    /// Allocations made by this thread.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// The system allocator, counting allocations per thread.
pub(crate) struct CountingAllocator;

#[inline]
fn count() {
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get().wrapping_add(1)));
}

/// Allocations the calling thread has made since it started.
pub(crate) fn thread_allocations() -> u64 {
    ALLOCATIONS.try_with(Cell::get).unwrap_or(0)
}

// SAFETY: every method forwards to `System` with the arguments it was
// given, so `GlobalAlloc`'s contract holds as it does for `System`; the
// counter is a `const`-initialised thread-local `Cell`, which neither
// allocates nor can be reached from another thread.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_counted_on_the_allocating_thread() {
        let before = thread_allocations();
        let v: Vec<u64> = Vec::with_capacity(16);
        let b = Box::new(7u32);
        let after = thread_allocations();
        assert_eq!(after - before, 2, "{v:?} {b}");
        let other = std::thread::spawn(|| {
            let before = thread_allocations();
            let _s = String::from("x");
            thread_allocations() - before
        })
        .join()
        .unwrap();
        // The string was counted on its own thread.
        assert_eq!(other, 1);
    }
}
