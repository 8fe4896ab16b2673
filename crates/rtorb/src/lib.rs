//! # rtorb: a real-time CORBA ORB
//!
//! The ORB core. For now it holds the runtime interface that code generated
//! by `rtorb-idl` calls: an invoker for client stubs and a server request
//! view for skeletons, with an in-process loopback that puts every call
//! through real GIOP octets.
//!
//! - [`runtime::Object`], [`runtime::Invoker`], [`runtime::Reply`] and
//!   [`runtime::Stub`]: what a generated client stub holds and calls.
//! - [`runtime::Skeleton`], [`runtime::ServerRequest`] and
//!   [`runtime::dispatch`]: what a generated skeleton implements and
//!   reads from.
//! - [`runtime::UserException`] and [`runtime::OperationError`]: user
//!   exceptions and the error types of operations that raise them.
//! - [`runtime::loopback::Loopback`]: the in-process invoker.
//! - [`orb::Orb`]: the ORB over real connections: a client invoker with a
//!   connection cache, and a server behind the acceptors of [`transport`]
//!   whose concurrency strategy is chosen by configuration
//!   ([`orb::ServerStrategy`]: reactive, thread-per-connection or
//!   leader/followers).
//! - [`sync`]: the locks the ORB takes, counted per thread with the
//!   `lock-count` feature; [`whitebox`]: the time of each stage of a call,
//!   with the `whitebox` feature. Both cost nothing when off.
//! - [`poa`]: the Portable Object Adapter (Root POA, child POAs,
//!   managers, policies, servant managers), with active demultiplexing
//!   of its object keys and collocated calls.

// Generated code names `::rtorb::codegen`, also when included here.
extern crate self as rtorb;

pub mod codegen;
pub mod orb;
pub mod poa;
pub mod runtime;
pub mod sync;
pub mod transport;
pub mod whitebox;
