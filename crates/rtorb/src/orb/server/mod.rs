//! The server side of the ORB: the object adapters and bounds shared by
//! the server's threads (`ServerCore`), the connections they serve, and
//! the concurrency strategies that bring threads and connections
//! together.
//!
//! Whatever the [`ServerStrategy`], a connection is one `Connection`
//! (`connection/`): a state machine without I/O (framing, limits,
//! deadlines, what to write), driven by turns that read, dispatch each
//! whole request to the adapters and write the replies. The strategies
//! differ only in how threads meet connections: `thread_per_connection.rs`
//! (with the accept loop of `acceptor.rs`), and `reactive.rs` and
//! `leader_followers.rs`, two uses of one event loop (`event_loop/`);
//! `threadpool/` runs Real-time CORBA thread pools, an event loop per
//! lane.
//!
//! Messages of one connection are handled one at a time, in order: a
//! connection is never read by two threads at once, and a request runs to
//! completion before the next message is read (but for `SYNC_WITH_SERVER`
//! oneways, acknowledged as read, their upcalls queued: `deferred.rs`).
//!
//! Hostile or broken peers are bounded: the maximum message size and the
//! ORB's memory budget (`budget.rs`) refuse a message before anything is
//! buffered for it; part of a message held too long closes its
//! connection; replies a client does not read are queued up to a bound;
//! at the connection cap (`descriptors.rs`, shared by the ORB's endpoints
//! and its lanes: `connection_cap.rs`) a connection with nothing in
//! progress is shed to make room (`shedding.rs`).
//!
//! On shutdown (`ServerCore::stop`) the acceptors stop, every connection
//! finishes the request it is running, sends `CloseConnection` (a request
//! that arrives after that point is not started, so the client may send it
//! again), and closes.

mod acceptor;
mod budget;
mod connection;
mod connection_cap;
mod deferred;
pub(super) mod descriptors;
mod event_loop;
pub(super) mod leader_followers;
pub(super) mod limits;
pub(super) mod reactive;
pub(super) mod server_core;
mod shedding;
pub(super) mod thread_per_connection;
pub(super) mod threadpool;
mod upcall;

pub use super::strategy::{self, ServerStrategy, UnknownStrategy};
pub use descriptors::derived_max_connections;
pub use event_loop::MESSAGES_PER_TURN;
