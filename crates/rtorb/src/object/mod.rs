//! The runtime interface of generated code.
//!
//! `rtorb-idl` generates, for each IDL interface, a client stub type and a
//! servant trait with a skeleton. They call only what this module
//! defines; the transport behind it (the ORB core's connections, or the
//! in-process [`loopback`]) is invisible to them.
//!
//! # Client side
//!
//! - [`Object`] is `CORBA::Object`: a [`Target`] (type id, object key,
//!   and the IOR it came from) plus the `Arc<dyn` [`Invoker`]`>` that
//!   reaches it. A nil reference is `None`. It offers `_is_a`
//!   ([`Object::is_a`]), `_non_existent` ([`Object::non_existent`]) and
//!   narrowing ([`Object::narrow`], which asks `_is_a` remotely unless the
//!   reference's type id already matches).
//! - A generated stub is a newtype over `Object` implementing [`Stub`]
//!   (its repository id, wrap, unwrap; `narrow`/`unchecked_narrow` come
//!   with the trait), and usually `Deref<Target = Object>`.
//! - A stub method is one expression: [`Object::invoke`] with the
//!   operation name (a `&'static str`, carried without allocation) and a
//!   closure that writes the `in`/`inout` arguments into an
//!   [`rtorb_cdr::Encoder`]; then [`Reply::decode`] with a closure that
//!   reads the return value and `inout`/`out` parameters from an
//!   [`rtorb_cdr::Decoder`]. The invoker may run the argument closure
//!   again when it follows a `LOCATION_FORWARD`, so it borrows the
//!   arguments and nothing else.
//! - Stub methods whose arguments are all `Clone` call [`Object::call`]
//!   (or [`Object::call_oneway`]) instead, adding a closure that calls
//!   the servant trait directly: an invoker that serves the object in
//!   the same process ([`Invoker::invoke_collocated`]) runs it without
//!   marshaling, after its object adapter has found the servant (see
//!   [`ServantCast`] and [`ParamFrom`]).
//! - Oneway operations call [`Object::invoke_oneway`] (or
//!   [`Object::invoke_oneway_with`] and a [`SyncScope`]).
//! - Errors: an operation without `raises` returns
//!   `Result<T, SystemException>`. One with `raises` returns
//!   `Result<T, E>` for a generated enum `E` with a variant per user
//!   exception and `System(SystemException)`, implementing
//!   `From<SystemException>` and [`OperationError`] (decoding the members
//!   of the exception whose repository id it knows). Each user exception
//!   type implements [`UserException`] (its repository id) with
//!   `CdrEncode`/`CdrDecode` for its members. A system exception reply
//!   arrives as `Err` from [`Object::invoke`]; a user exception the
//!   operation does not declare becomes `UNKNOWN`.
//!
//! # Server side
//!
//! - The generated servant trait has one method per operation, taking
//!   `&self` (servants are shared between threads: `Send + Sync`), `in`
//!   parameters by value or reference, and returning `Result<T, E>` as the
//!   stub does.
//! - The generated skeleton is a wrapper of a servant implementing
//!   [`Skeleton`]: [`Skeleton::repository_ids`] (most derived first) and
//!   [`Skeleton::dispatch`], a `match` on [`ServerRequest::operation`]
//!   that decodes the arguments from [`ServerRequest::arguments`], calls
//!   the servant, and writes [`ServerRequest::write_results`] or
//!   [`ServerRequest::write_user_exception`], or returns the
//!   `SystemException`. An unknown name returns [`bad_operation`]. The
//!   operation is found by a `static` [`OpTable`] (a perfect hash that
//!   `rtorb-idl` computes) whose [`OpTable::lookup`] gives its index, which
//!   the dispatch `match`es densely (`Some(0) => ..`, `Some(1) => ..`). For
//!   interface inheritance, emit the per-interface dispatch as a generic
//!   function over the servant trait and let a derived interface's
//!   fall-through arm call its bases' functions.
//! - Generated skeletons also give their servant to collocated stubs:
//!   [`Skeleton::servant`] (the servant as `Any`) and
//!   [`Skeleton::servant_cast`] (answering [`ServantCast::offer`] for
//!   the servant trait of the interface and of each base).
//! - The runtime answers `_is_a`, `_non_existent` and `_interface` itself
//!   ([`dispatch`]) before the skeleton sees a request.
//!
//! # Values, abstract and local interfaces, native types
//!
//! Valuetypes are written and read by [`rtorb_cdr::valuetype`]; sharing is
//! `Arc` identity within one message, and values of types the receiver
//! does not declare are built by the factories of
//! [`register_value_factory`]. An abstract interface is an [`Abstract`]
//! (a reference or a value), a local interface reference a [`Local`], a
//! native value an [`Opaque`]; the last two are never marshalled
//! ([`not_marshalable`]).
//!
//! # Example
//!
//! A hand-written stub and skeleton for
//! `interface Calc { long twice(in long l); };`, exactly as generated
//! code looks, called through the loopback:
//!
//! ```
//! use std::sync::Arc;
//! use rtorb::exception::bad_operation;
//! use rtorb::object::{Object, Stub};
//! use rtorb::servant::{ServerRequest, Skeleton};
//! use rtorb::loopback::Loopback;
//! use rtorb_cdr::{ByteOrder, CdrDecode, CdrEncode, Version};
//! use rtorb_giop::SystemException;
//!
//! /// Stub of `Calc`.
//! #[derive(Debug, Clone)]
//! pub struct Calc(Object);
//!
//! impl Stub for Calc {
//!     const REPOSITORY_ID: &'static str = "IDL:Calc:1.0";
//!     fn from_object(object: Object) -> Self { Calc(object) }
//!     fn as_object(&self) -> &Object { &self.0 }
//!     fn into_object(self) -> Object { self.0 }
//! }
//!
//! impl Calc {
//!     pub fn twice(&self, l: i32) -> Result<i32, SystemException> {
//!         self.0.invoke("twice", |e| l.encode(e))?.decode(i32::decode)
//!     }
//! }
//!
//! /// Servant trait of `Calc`.
//! pub trait CalcServant: Send + Sync {
//!     fn twice(&self, l: i32) -> Result<i32, SystemException>;
//! }
//!
//! /// Skeleton of `Calc`.
//! pub struct CalcSkeleton<S>(pub S);
//!
//! impl<S: CalcServant> Skeleton for CalcSkeleton<S> {
//!     fn repository_ids(&self) -> &'static [&'static str] { &["IDL:Calc:1.0"] }
//!     fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
//!         match req.operation() {
//!             "twice" => {
//!                 let l = i32::decode(req.arguments())?;
//!                 let r = self.0.twice(l)?;
//!                 req.write_results(|e| r.encode(e))
//!             }
//!             _ => Err(bad_operation()),
//!         }
//!     }
//! }
//!
//! struct Doubler;
//! impl CalcServant for Doubler {
//!     fn twice(&self, l: i32) -> Result<i32, SystemException> { Ok(l.wrapping_mul(2)) }
//! }
//!
//! let orb = Loopback::new(Version::V1_2, ByteOrder::Big);
//! let obj = orb.activate(&b"calc"[..], Arc::new(CalcSkeleton(Doubler)));
//! let calc = Calc::narrow(obj).unwrap().expect("a Calc");
//! assert_eq!(calc.twice(21).unwrap(), 42);
//! assert!(!calc.as_object().non_existent().unwrap());
//! ```

mod client;
mod collocation;
mod exception;
mod forward;
pub mod loopback;
mod op_table;
pub mod policy;
mod pool;
mod server;
mod support;
mod values;

pub use client::{
    Arguments, Binding, Collocated, Invoker, OBJECT_REPOSITORY_ID, Object, Reply, Stub, Target,
};
pub use collocation::{ParamFrom, ServantCast};
pub use exception::{
    OperationError, UserException, bad_operation, marshal_completed, object_not_exist,
};
pub use op_table::{OpTable, op_bucket, op_hash, op_slot};
pub use policy::{
    ClientProtocolPolicy, Policy, PolicyCurrent, PolicyScope, Protocol, ProtocolFallback,
    SetOverrideType, SyncScope,
};
pub use server::{ServerRequest, Skeleton, dispatch};
pub use support::{
    IdlType, check_bound, object_reference, read_object, with_invoker, write_object,
};
pub use values::{
    Abstract, Local, Opaque, StateReader, downcast_value, guarded_type_code, lookup_value_factory,
    not_marshalable, not_unmarshalable, read_abstract, register_value_factory,
    unregister_value_factory, write_abstract,
};

pub(crate) use client::Forwarded;
pub(crate) use forward::{Hop, follow_forwards, follow_forwards_to, moved_away};
pub(crate) use server::ReplyBuilder;
pub(crate) use support::{NoInvoker, set_thread_invoker};

/// The CDR types programs use beside generated code (an `Any` and the
/// values that go into it, TypeCodes, encoders), re-exported so that they
/// need no dependency but `rtorb`.
pub use rtorb_cdr::{Any, AnyValue, CdrDecode, CdrEncode, CdrError, Decoder, Encoder, TypeCode};
pub use rtorb_giop::{CompletionStatus, Operation, SystemException, SystemExceptionKind};
