//! Thread pools with lanes (`RTCORBA::RTORB::create_threadpool_with_lanes`),
//! as they run: what the application describes is
//! [`crate::rt::ThreadpoolConfig`].
//!
//! Each lane is a leader/followers event loop of its own over acceptors of
//! its own, its threads set once, when they start, to the lane's priority
//! (`lane.rs`). It has a `ServerCore` of its own: stop flag, wakers,
//! event loop, memory budget and share of the connection cap belong to it
//! alone, so a flood on one lane's endpoints is shed and refused within
//! that lane; the lanes share only the object adapters (read without
//! locks), the priority control and the cap's accounting (one atomic
//! word). The thread that reads a request runs it, at the lane's priority,
//! which the thread already has: a lane never waits for another lane's
//! thread, queue or lock.
//!
//! Each file uses only files of the rows below its own:
//!
//! ```text
//! orb.rs            the ORB's operations (Orb::create_threadpool, ...): above
//!  |                the Orb, which holds the running pools
//! running.rs        Threadpool: a pool's lanes, started and stopped together
//!  |
//! lane.rs           a running lane, and what it adds at each point of its loop
//!  |
//! read_ahead.rs     the lane's reader, which reads while every thread is busy
//!  |
//! borrowing.rs      threads lent by a pool's lower lanes
//!  |
//! lane_loop.rs      what a lane adds to its event loop, as state
//!  |
//! buffering.rs      the requests that wait for a thread, kept or refused
//! dynamic_threads.rs  the threads a lane adds when all are busy
//!  |
//! forward.rs        the LOCATION_FORWARD of a request that arrives on an
//!  |                endpoint that does not serve its object
//! binding.rs        which lanes serve an object (a plain key bound to a
//!                   lane, a POA bound to a pool)
//! ```
//!
//! `forward.rs` and `binding.rs` sit lower in the server than the rest:
//! the `ServerCore` holds the lanes' directory of `binding.rs`, and every
//! connection's dispatch asks `forward.rs` where a request belongs.

pub(super) mod binding;
mod borrowing;
mod buffering;
mod dynamic_threads;
mod forward;
mod lane;
mod lane_loop;
mod orb;
mod read_ahead;
pub(in crate::orb) mod running;
