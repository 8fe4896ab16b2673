//! Valuetypes, abstract interfaces and natives: what programs hold of
//! them, beside the wire machinery of [`rtorb_cdr::valuetype`].
//!
//! - A concrete `valuetype V` is a struct `V` holding its state (the
//!   state of its concrete bases first), plus a trait `VValue` that `V`
//!   and every type derived from `V` implement, with a method reading each
//!   state member `V` declares. A member, parameter or result declared of
//!   type `V` is an `Option<Arc<dyn VValue>>`: `None` is the null value,
//!   and any value of a type derived from `V` fits; [`downcast_value`]
//!   gives the concrete struct.
//! - **Sharing** is `Arc` identity: the same `Arc` written twice in one
//!   message is encoded once and then as an indirection, and decodes to
//!   one `Arc` (`Arc::ptr_eq` holds on the receiver). `Arc`s cannot form
//!   cycles, so a received graph that refers back to a value still being
//!   decoded is a `MARSHAL` error ([`CdrError::BadValue`])
//!   rather than a leak or a panic.
//! - An abstract valuetype is only the trait; a value box is a newtype
//!   held by value (`Option<B>`), never shared when written.
//! - Decoding builds the most derived type the receiver knows: the
//!   declared type's own, or one registered with
//!   [`register_value_factory`] (each generated concrete type has a
//!   `register_factory()` doing that). A value of an unknown type is
//!   truncated to a known base if it is truncatable and is otherwise
//!   `MARSHAL` with the OMG minor code 1
//!   ([`CdrError::UnknownValueType`]).
//! - An abstract interface is an [`Abstract`]: an object reference or a
//!   value, marshalled as a boolean discriminator and one of them.
//! - A native type is an [`Opaque`] handle, never marshalled (nor is a
//!   reference to a local interface, a
//!   [`Local`](crate::object::Local)).

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use rtorb_cdr::valuetype::{ValueBase, read_value, write_value};
use rtorb_cdr::{CdrError, Decoder, Encoder};

pub use rtorb_cdr::valuetype::{
    StateReader, downcast_value, lookup_value_factory, register_value_factory,
    unregister_value_factory,
};

use crate::object::{Stub, read_object, write_object};

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
