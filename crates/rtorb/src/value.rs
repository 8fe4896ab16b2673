//! What generated code needs for valuetypes, abstract interfaces, local
//! interfaces and native types, beside the wire machinery of
//! [`rtorb_cdr::valuetype`].
//!
//! # How IDL value types look in Rust
//!
//! - A concrete `valuetype V` is a struct `V` holding its state (the
//!   state of its concrete bases first), plus a trait `VValue` that `V`
//!   and every type derived from `V` implement, with a method reading each
//!   state member `V` declares. A member, parameter or result declared of
//!   type `V` is an `Option<Arc<dyn VValue>>`: `None` is the null value,
//!   and any value of a type derived from `V` fits; [`downcast_value`]
//!   gives the concrete struct.
//! - **Sharing** is `Arc` identity: the same `Arc` written twice in one
//!   message (two arguments, two members, two sequence elements) is
//!   encoded once and then as an indirection, and decodes to one `Arc`
//!   (`Arc::ptr_eq` holds on the receiver). `Arc`s cannot form cycles, so
//!   a received graph that refers back to a value still being decoded is a
//!   `MARSHAL` error ([`CdrError::BadValue`]) rather than a leak or a
//!   panic.
//! - An abstract valuetype is only the trait; a value box is a newtype
//!   held by value (`Option<B>`), never shared when written.
//! - Decoding builds the most derived type the receiver knows: the
//!   declared type's own, or one registered with
//!   [`register_value_factory`] (each generated concrete type has a
//!   `register_factory()` doing that). A value of an unknown type is
//!   truncated to a known base if it is truncatable and is otherwise
//!   `MARSHAL` with the OMG minor code 1 ([`CdrError::UnknownValueType`]).
//! - An abstract interface is an [`Abstract`]: an object reference or a
//!   value, marshalled as a boolean discriminator and one of them.
//! - A local interface is a trait; a reference to one is a [`Local`]. A
//!   native type is an [`Opaque`] handle. Neither can be marshalled:
//!   generated code that would write or read one calls
//!   [`not_marshalable`] or [`not_unmarshalable`], which fail.

use std::any::Any;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use rtorb_cdr::valuetype::{ValueBase, read_value, write_value};
use rtorb_cdr::{CdrError, Decoder, Encoder, TCKind, TypeCode};

pub use rtorb_cdr::valuetype::{
    StateReader, downcast_value, lookup_value_factory, register_value_factory,
    unregister_value_factory,
};

use super::client::Stub;
use super::support::{read_object, write_object};

/// A value of an abstract interface type: an object reference or a value
/// (of a valuetype that supports the interface).
#[derive(Debug, Clone)]
pub enum Abstract<S> {
    /// An object reference, typed by the interface's stub.
    Object(S),
    /// A value.
    Value(Arc<dyn ValueBase>),
}

/// Writes an abstract interface (`None`: a null value): `TRUE` and the
/// reference, or `FALSE` and the value.
pub fn write_abstract<S: Stub>(e: &mut Encoder, v: Option<&Abstract<S>>) -> Result<(), CdrError> {
    match v {
        Some(Abstract::Object(o)) => {
            e.write_bool(true);
            write_object(e, Some(o.as_object()))
        }
        Some(Abstract::Value(v)) => {
            e.write_bool(false);
            write_value(e, Some(v))
        }
        None => {
            e.write_bool(false);
            write_value::<dyn ValueBase>(e, None)
        }
    }
}

/// Reads an abstract interface; a nil reference or a null value is `None`.
pub fn read_abstract<S: Stub>(d: &mut Decoder) -> Result<Option<Abstract<S>>, CdrError> {
    if d.read_bool()? {
        Ok(read_object(d)?.map(|o| Abstract::Object(S::from_object(o))))
    } else {
        Ok(read_value::<dyn ValueBase>(d, None)?.map(Abstract::Value))
    }
}

/// A reference to an object of a local interface: shared, never
/// marshalled.
pub struct Local<T: ?Sized>(pub Arc<T>);

impl<T: ?Sized> Local<T> {
    /// A reference to `object`.
    pub fn new(object: Arc<T>) -> Local<T> {
        Local(object)
    }
}

impl<T: ?Sized> Clone for Local<T> {
    fn clone(&self) -> Self {
        Local(self.0.clone())
    }
}

impl<T: ?Sized> Deref for Local<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: ?Sized> fmt::Debug for Local<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Local({:p})", Arc::as_ptr(&self.0) as *const ())
    }
}

/// The value of a `native` type: whatever the program that uses the
/// interface puts there, behind an opaque handle.
#[derive(Clone)]
pub struct Opaque(pub Arc<dyn Any + Send + Sync>);

impl Opaque {
    /// A handle holding `value`.
    pub fn new<T: Any + Send + Sync>(value: T) -> Opaque {
        Opaque(Arc::new(value))
    }

    /// The value held, if it is a `T`.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.downcast_ref::<T>()
    }
}

impl fmt::Debug for Opaque {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Opaque(..)")
    }
}

/// Fails: a value of the local interface or native type `what` was to be
/// written to `_e`.
pub fn not_marshalable(_e: &mut Encoder, what: &'static str) -> Result<(), CdrError> {
    Err(CdrError::Unsupported(what))
}

/// Fails: a value of the local interface or native type `what` was to be
/// read from `_d`.
pub fn not_unmarshalable<T>(_d: &mut Decoder, what: &'static str) -> Result<T, CdrError> {
    Err(CdrError::Unsupported(what))
}

thread_local! {
    static BUILDING: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Pops the id pushed by [`guarded_type_code`], also on unwinding.
struct Building;

impl Drop for Building {
    fn drop(&mut self) {
        BUILDING.with(|b| b.borrow_mut().pop());
    }
}

/// The TypeCode that `build` makes for the type of kind `kind` and
/// repository id `id`; while it runs, a TypeCode of the same id asked for
/// on this thread is a recursive placeholder ([`TypeCode::recursive`]),
/// bound by the TypeCode being built. This is how the TypeCodes of
/// valuetypes that refer to each other (`A` holds a `B` that holds an
/// `A`) end instead of recursing forever.
pub fn guarded_type_code(
    kind: TCKind,
    id: &'static str,
    build: impl FnOnce() -> TypeCode,
) -> TypeCode {
    if BUILDING.with(|b| b.borrow().contains(&id)) {
        return TypeCode::recursive(kind, id).unwrap_or_else(|_| TypeCode::null());
    }
    BUILDING.with(|b| b.borrow_mut().push(id));
    let _building = Building;
    build()
}
