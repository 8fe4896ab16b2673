//! The client side of the ORB: an [`Invoker`](crate::object::Invoker)
//! over real connections.
//!
//! A call picks a profile of the target's reference that a registered
//! protocol can reach, in the order of the reference or of the effective
//! `ClientProtocolPolicy` (the reference's override, else the thread's,
//! else the ORB's), the next one if it cannot connect; it follows
//! `LOCATION_FORWARD` replies, and the reference remembers where they
//! led; a request the server cannot have processed is sent once more on a
//! new connection (see `ClientCore` for forwards and failures). How calls
//! use the connections to an endpoint is the
//! [`ConnectionStrategy`](super::ConnectionStrategy): exclusive (the
//! default: a connection to itself until its reply has come) or
//! multiplexed (one connection per endpoint shared by every call, each
//! waiting for its own reply). [`super::Orb::preconnect`] opens
//! connections ahead of the calls,
//! [`Invoker::validate_connection`](crate::object::Invoker::validate_connection)
//! binds a reference with a `LocateRequest`, and a background thread
//! closes the connections unused for the configured idle timeout.
//!
//! # Files
//!
//! Each does one job and uses only those listed before it:
//!
//! 1. `error.rs`: the system exceptions the client raises, their minor
//!    codes;
//! 2. `request.rs`: the one request writer of every connection
//!    (`RequestWriter`, request templates, fragments, code sets), and the
//!    encoding of `SYNC_NONE` oneways;
//! 3. `reply.rs`: the one reply reader of every connection (`Inbound`:
//!    frames, reassembly, read timeouts) and the outcome of a call;
//! 4. `exclusive.rs`: a connection used by one call at a time;
//! 5. `multiplexed.rs`: a connection shared by many calls,
//!    leader/followers;
//! 6. `oneway.rs`: the queue of `SYNC_NONE` oneways of an endpoint;
//! 7. `pool.rs`: the connection cache, a pool per endpoint, the idle
//!    reaper;
//! 8. `select.rs`: the usable profiles of a target, their order under the
//!    `ClientProtocolPolicy`, and the policies in force for a call;
//! 9. `client_core.rs`: `ClientCore`, the ORB's invoker, which puts them
//!    together: a call from its profiles to its outcome.
//!
//! What they use of the rest of the ORB is its configuration
//! (`config/orb_config.rs`).

pub(super) mod client_core;
mod exclusive;
mod multiplexed;
mod oneway;
mod pool;
mod reply;
mod request;
mod select;
mod system_exceptions;

pub use super::config::orb_config::ORB_FRAGMENTS;
