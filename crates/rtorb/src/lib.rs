//! # rtorb: a real-time CORBA ORB
//!
//! The ORB core. For now it holds the runtime interface that code generated
//! by `rtorb-idl` calls: an invoker for client stubs and a server request
//! view for skeletons, with an in-process loopback that puts every call
//! through real GIOP octets.

pub mod runtime;
pub mod transport;
