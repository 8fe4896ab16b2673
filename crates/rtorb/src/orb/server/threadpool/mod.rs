//! Thread pools with lanes (`RTCORBA::RTORB::create_threadpool_with_lanes`),
//! as they run: what the application describes is
//! [`crate::rt::ThreadpoolConfig`].
//!
//! Each lane is a leader/followers event loop of its own over acceptors of
//! its own, its threads set once, when they start, to the lane's priority
//! (`lane.rs`). It has a [`ServerCore`] of its own: stop flag, wakers,
//! event loop, memory budget and share of the connection cap belong to it
//! alone, so a flood on one lane's endpoints is shed and refused within
//! that lane; the lanes share only the object adapters (read without
//! locks), the priority control and the cap's accounting (one atomic
//! word). The thread that reads a request runs it, at the lane's priority,
//! which the thread already has: a lane never waits for another lane's
//! thread, queue or lock.
//!
//! - `lane.rs`: a lane, its threads and what it adds to its event loop;
//!   `dynamic_threads.rs`: the threads it adds when all are busy;
//! - `buffering.rs`: the requests that arrive while every thread of a lane
//!   is busy, kept or refused; `read_ahead.rs`: the lane's reader, which
//!   reads them;
//! - `borrowing.rs`: threads lent by a pool's lower lanes;
//! - `binding.rs`, `forward.rs`: which lanes serve an object (a plain key
//!   bound to a lane, a POA bound to a pool), and the `LOCATION_FORWARD`
//!   of a request that arrives on an endpoint that does not serve it;
//! - `orb.rs`: the ORB's operations (`Orb::create_threadpool`, ...).

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
