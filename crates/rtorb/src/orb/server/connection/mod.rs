//! One server connection, in any strategy: its transport, its
//! [`Machine`](machine::Machine) (the GIOP protocol of the connection,
//! without I/O), and its dispatch to the object adapters.
//!
//! Every strategy drives it the same way: it calls
//! [`Connection::turn`](driver::Connection::turn) when the connection may
//! have input (or room to write), which does what the machine asks (reads,
//! dispatches each whole message, writes) until the input would block,
//! the turn's budget is spent, or the connection must close;
//! [`Progress`](driver::Progress) says which. When it says close, the
//! strategy calls [`Connection::close`](driver::Connection::close), which
//! sends what is queued (the last message among it) and shuts the
//! transport down. A lane's reader takes turns too, reading ahead with a
//! [`ReadAhead`](driver::ReadAhead) policy that holds the next message for
//! a thread of the lane instead of dispatching it.
//!
//! Each file uses only files of the rows below its own:
//!
//! ```text
//! driver.rs               Connection: the machine, its transport, the turns
//!  |
//! dispatch.rs             a whole message to the adapters and back (the upcalls)
//!  |
//! machine.rs  write.rs    the state machine; the writes
//!  |
//! input.rs  output.rs     framing and reassembly, their memory; what is to be
//! linger.rs               written; the close of a connection whose message
//!  |                      was refused
//! now.rs                  the time of one step
//! ```

mod dispatch;
pub(super) mod driver;
mod input;
mod linger;
pub(super) mod machine;
mod now;
mod output;
mod write;
