//! The server side of an object, as generated code implements it: the
//! [`Skeleton`] and the [`ServerRequest`] it serves.
//!
//! - `rtorb-idl` generates, for each IDL interface, a servant trait with
//!   one method per operation, taking `&self` (servants are shared
//!   between threads: `Send + Sync`), `in` parameters by value or
//!   reference, and returning `Result<T, E>` as the stub does.
//! - The generated skeleton wraps a servant and implements [`Skeleton`]:
//!   its repository ids (most derived first), and a `dispatch` that finds
//!   the operation (through the interface's
//!   [`OpTable`](crate::codegen::OpTable), a perfect hash `rtorb-idl`
//!   computes), decodes the arguments from
//!   [`ServerRequest::arguments`], calls the servant, and writes
//!   [`ServerRequest::write_results`] or
//!   [`ServerRequest::write_user_exception`], or returns the
//!   `SystemException`.
//! - [`dispatch`] answers `_is_a`, `_non_existent` and `_interface`
//!   before a skeleton sees a request.
//! - For collocated calls a skeleton also gives its servant
//!   ([`Skeleton::servant`]) and answers [`ServantCast`] for the servant
//!   trait of its interface and of each base, so that a stub in the same
//!   process calls the servant without marshaling; [`ParamFrom`] gives
//!   the servant the owned `in` arguments the stub borrowed.
//!
//! A skeleton is served by an object adapter (`rtorb::poa`, or the ORB's
//! table of plain keys) or by the in-process
//! [`Loopback`](crate::loopback::Loopback), whose documentation shows a
//! hand-written stub and skeleton exactly as generated code looks.

mod servant_cast;
mod server_request;
mod skeleton;

pub use servant_cast::{ParamFrom, ServantCast};
pub use server_request::ServerRequest;
pub use skeleton::{OBJECT_REPOSITORY_ID, Skeleton, dispatch};

pub(crate) use server_request::ReplyBuilder;
