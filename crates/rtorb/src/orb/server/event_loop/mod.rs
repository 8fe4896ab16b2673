//! The event loop under the event-driven strategies (`reactive.rs`: one
//! thread; `leader_followers.rs`: a pool; `threadpool/`: a loop per lane).
//!
//! It is a `mio` [`Poll`](mio::Poll) (`epoll`) over the acceptors and every
//! connection, registered edge-triggered for reading and writing, and one
//! or more threads that take turns as its *leader* (`lead.rs`). The
//! leader waits for events, accepts new connections itself, and claims
//! each connection that has input (or room to write); it then gives up
//! leadership (a follower becomes the leader) and serves one claimed
//! connection itself: the thread that reads a request is the thread that
//! runs it. With one thread ([`ServerStrategy::Reactive`]) the same thread
//! handles the event inline and goes back to waiting.
//!
//! A connection is claimed by a small state machine ([`Slot`](slot::Slot)),
//! so that it is never read by two threads at once. A turn
//! (`Connection::turn`) handles at most [`MESSAGES_PER_TURN`] messages and
//! reads a bounded
//! amount; a connection with more then waits behind the others, so one
//! busy client cannot starve them. The leader also looks at the
//! connections' timeouts: a connection due is served, which closes it. No
//! thread ever blocks on one connection.
//!
//! A thread pool lane adds to its loop through
//! [`LaneHooks`](shared::LaneHooks): its threads' priority, dynamic
//! threads, request buffering and borrowing.
//!
//! On shutdown the leader stops waiting; threads serving a connection
//! finish the request they run, send `CloseConnection` and close it; the
//! last thread to leave closes every other connection with
//! `CloseConnection` and the acceptors.
//!
//! Each file uses only files of the rows below its own:
//!
//! ```text
//! threads.rs   the loop's threads: started over the acceptors, their life
//!  |
//! lead.rs      EventLoop::lead: what the leader does
//!  |
//! shared.rs    EventLoop: the loop as its threads share it; serving a claimed
//!  |           connection
//! leader.rs    Leader: what only the leader touches
//!  |
//! slot.rs      Slot: a connection's place in the loop, claimed by one thread
//! ```
//!
//! [`ServerStrategy::Reactive`]: crate::orb::ServerStrategy::Reactive

mod lead;
mod leader;
pub(super) mod shared;
pub(super) mod slot;
pub(super) mod threads;

pub use shared::MESSAGES_PER_TURN;

#[cfg(test)]
mod tests;
