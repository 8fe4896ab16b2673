//! The server side of the ORB: the connections it serves, and the threads
//! that serve them under every [`ServerStrategy`].
//!
//! A connection is one `Connection` (`connection/`): a state machine
//! without I/O, driven in turns that read, dispatch each whole request to
//! the object adapters and write the replies. The strategies differ only
//! in how threads meet connections: a thread per connection, or one event
//! loop run by a thread (reactive), a pool (leader/followers) or each lane
//! of a thread pool (`threadpool/`). What the threads share (the object
//! adapters, the limits, the connection cap, the memory budget, the stop
//! flag) is the `ServerCore`. How hostile peers are bounded is on
//! `ServerLimits`; how the server shuts down, on `ServerCore::stop`.
//!
//! # Files
//!
//! Each uses only files of the rows below its own:
//!
//! ```text
//! threadpool/             thread pools with lanes, an event loop per lane (its
//!                         orb.rs, the Orb's methods for them, is above the Orb)
//! reactive.rs  leader_followers.rs     the event-driven strategies
//!  |
//! event_loop/             the event loop: its threads take turns as its leader
//! thread_per_connection.rs            a thread per connection, an accept loop
//!  |
//! acceptor.rs             accepting; at the connection cap, shedding to make room
//!  |
//! connection/             one connection: its machine, its driver, its dispatch
//!  |
//! upcall.rs  deferred.rs  an upcall at its priority; SYNC_WITH_SERVER upcalls;
//! threadpool/forward.rs   the forward of a request that belongs to other lanes
//!  |
//! server_core.rs          ServerCore: what the threads share; OpenConnection
//!  |
//! limits.rs  budget.rs  connection_cap.rs  shedding.rs  threadpool/binding.rs
//!  |
//! descriptors.rs          the process's descriptor limit, the derived cap
//! ```

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
