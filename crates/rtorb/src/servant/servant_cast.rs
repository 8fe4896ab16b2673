//! What lets a collocated stub call a servant through its servant trait,
//! without marshaling: [`ServantCast`], the query a skeleton answers
//! with its servant as the trait object of one of its interfaces, and
//! [`ParamFrom`], the owned `in` arguments a servant method takes.

use std::any::Any;

use bytes::Bytes;

use super::skeleton::Skeleton;

/// A query, through [`Skeleton::servant_cast`], for the way to view a
/// skeleton's [`Skeleton::servant`] as the servant trait object `T` of
/// one of its interfaces.
///
/// Generated skeletons answer with [`ServantCast::offer`] for their
/// interface's servant trait and each base's.
pub struct ServantCast<T: ?Sized + 'static> {
    cast: Option<for<'a> fn(&'a dyn Any) -> Option<&'a T>>,
}

impl<T: ?Sized + 'static> std::fmt::Debug for ServantCast<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServantCast")
            .field("answered", &self.cast.is_some())
            .finish()
    }
}

impl<T: ?Sized + 'static> ServantCast<T> {
    /// Answers `query` with `cast` if it asks for `T`.
    pub fn offer(query: &mut dyn Any, cast: for<'a> fn(&'a dyn Any) -> Option<&'a T>) {
        if let Some(q) = query.downcast_mut::<ServantCast<T>>() {
            q.cast.get_or_insert(cast);
        }
    }

    /// The servant of `skeleton` as a `T`, if the skeleton gives one.
    pub fn find(skeleton: &dyn Skeleton) -> Option<&T> {
        let mut query = ServantCast::<T> { cast: None };
        skeleton.servant_cast(&mut query);
        (query.cast?)(skeleton.servant()?)
    }
}

/// The owned value a servant method takes for an `in` argument a stub
/// method borrows: `String` from `&str`, `Vec<T>` from `&[T]`, `Bytes`
/// from `&[u8]`, a clone otherwise.
pub trait ParamFrom<T: ?Sized> {
    /// The owned value of `value`.
    fn param_from(value: &T) -> Self;
}

impl<T: Clone> ParamFrom<T> for T {
    fn param_from(value: &T) -> T {
        value.clone()
    }
}

impl ParamFrom<str> for String {
    fn param_from(value: &str) -> String {
        value.to_owned()
    }
}

impl<T: Clone> ParamFrom<[T]> for Vec<T> {
    fn param_from(value: &[T]) -> Vec<T> {
        value.to_vec()
    }
}

impl ParamFrom<[u8]> for Bytes {
    fn param_from(value: &[u8]) -> Bytes {
        Bytes::copy_from_slice(value)
    }
}
