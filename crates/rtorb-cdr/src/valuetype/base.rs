//! [`ValueBase`]: what a Rust type that is an IDL valuetype gives the
//! value writer and reader.

use std::any::{Any, TypeId};
use std::fmt;
use std::sync::Arc;

use crate::encoder::Encoder;
use crate::error::Result;

/// A Rust type that is an IDL valuetype (or value box): what the value
/// writer needs to put it on the wire and the reader to hand it out as the
/// declared type.
pub trait ValueBase: Any + Send + Sync + fmt::Debug {
    /// The repository id of the (most derived) type.
    fn repository_id(&self) -> &'static str;
    /// For a truncatable type, the repository ids of the bases it may be
    /// truncated to, nearest first (written after its own id, so that a
    /// receiver that does not know the type can read it as a base); empty
    /// for a type that is not truncatable.
    fn truncatable_ids(&self) -> &'static [&'static str] {
        &[]
    }
    /// Writes the state members, those of the bases first.
    fn write_state(&self, e: &mut Encoder) -> Result<()>;
    /// This value as an `Any`, to downcast it to its Rust type.
    fn as_any(&self) -> &dyn Any;
    /// This value as an `Arc<T>` boxed in an `Any`, if `to` is
    /// `TypeId::of::<T>()` for `T` its own type or the trait object of
    /// one of the IDL types it derives from (how a value decoded as
    /// `Arc<dyn ValueBase>` becomes an `Arc<dyn DeclaredType>`).
    fn upcast(self: Arc<Self>, to: TypeId) -> Option<Box<dyn Any>>;
}

/// The value of type `T` behind `value` (a `dyn ValueBase` or the trait
/// object of any IDL valuetype), if that is its type.
pub fn downcast_value<T: ValueBase, V: ValueBase + ?Sized>(value: &V) -> Option<&T> {
    value.as_any().downcast_ref::<T>()
}
