//! Object references: [`Object`] (`CORBA::Object`), the typed references
//! generated code wraps it in ([`Stub`]), and the [`Invoker`] that
//! carries their calls.
//!
//! - An [`Object`] is a [`Target`] (type id, object key, and the IOR it
//!   came from) plus the `Arc<dyn Invoker>` that reaches it: the ORB
//!   core over its connections, or the in-process
//!   [`Loopback`](crate::loopback::Loopback). A nil reference is `None`.
//!   It offers `_is_a` ([`Object::is_a`]), `_non_existent`
//!   ([`Object::non_existent`]), narrowing ([`Object::narrow`]) and the
//!   policy overrides of CORBA's `_set_policy_overrides`
//!   ([`Object::with_policies`]).
//! - A generated stub is a newtype over `Object` implementing [`Stub`]
//!   (its repository id, wrap, unwrap; `narrow` comes with the trait).
//! - A stub method is one expression: [`Object::invoke`] with the
//!   operation name and a closure that writes the `in`/`inout` arguments
//!   ([`Arguments`]), then [`Reply::decode`] with a closure that reads the
//!   results. Stub methods whose arguments are all `Clone` call
//!   [`Object::call`] instead, with a closure that calls the servant
//!   directly when the object is served in the same process
//!   ([`Invoker::invoke_collocated`]). Oneway operations call
//!   [`Object::invoke_oneway`].
//! - A reference travels in a message as an IOR: [`write_object`] and
//!   [`read_object`], which binds what it reads to the invoker of
//!   [`with_invoker`].
//! - A reference to an object of a local interface, which never travels,
//!   is a [`Local`].
//!
//! The errors of a call are [`crate::exception`]'s; the policies a
//! reference may override are [`crate::policy`]'s.

mod collocated_call;
mod invoker;
mod local;
mod location_forward;
mod marshaling;
mod reference;
mod target;

pub use crate::servant::OBJECT_REPOSITORY_ID;
pub use invoker::{Arguments, Collocated, Invoker, Reply};
pub use local::Local;
pub use location_forward::MAX_FORWARDS;
pub use marshaling::{object_reference, read_object, with_invoker, write_object};
pub use reference::{Object, Stub};
pub use rtorb_giop::Operation;
pub use target::{Binding, Target};

pub(crate) use invoker::NoInvoker;
pub(crate) use location_forward::{Hop, follow_forwards, follow_forwards_to, moved_away};
pub(crate) use marshaling::set_thread_invoker;
pub(crate) use target::Forwarded;
