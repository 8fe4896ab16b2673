//! One server connection, in any strategy: its transport, its
//! [`Machine`] (the GIOP protocol of the connection, without I/O), and
//! its dispatch to the object adapters.
//!
//! Every strategy drives it the same way: it calls [`Connection::turn`]
//! when the connection may have input (or room to write), which does what
//! the machine asks (reads, dispatches each whole message, writes) until
//! the input would block, the turn's budget is spent, or the connection
//! must close; [`Progress`] says which. When it says close, the strategy
//! calls [`Connection::close`], which sends what is queued (the last
//! message among it) and shuts the transport down. A lane's reader takes
//! turns too, reading ahead with a [`ReadAhead`] policy that holds the
//! next message for a thread of the lane instead of dispatching it.
//!
//! - `machine.rs`: the state machine, with `input.rs` (framing,
//!   reassembly, their memory) and `output.rs` (what is to be written);
//!   `linger.rs`: the close of a connection whose message was refused;
//! - `dispatch.rs`: a whole message to the adapters and back (the
//!   upcalls); `write.rs`: the writes.

mod dispatch;
pub(super) mod driver;
mod input;
mod linger;
pub(super) mod machine;
mod now;
mod output;
mod write;
