//! Collocated calls through generated stubs: the servant is called
//! through its servant trait, without marshaling.
//!
//! A generated stub method calls [`Object::call`] with three closures:
//! the direct call of the servant trait `T` (`dyn CubitServant`), the
//! writer of the arguments, and the reader of the reply. When the
//! object's invoker serves the object in this process
//! ([`Invoker::invoke_collocated`](super::Invoker::invoke_collocated)),
//! it finds the servant as a request from the network would (POA manager
//! state, servant managers) and hands over its skeleton; the stub asks
//! the skeleton for its servant as a `T` ([`ServantCast`]) and calls it.
//! A skeleton that cannot give one is called with marshaled arguments
//! instead, in memory, and an object served elsewhere is called as usual.

use std::any::Any;

use bytes::Bytes;
use rtorb_cdr::{CdrError, Encoder};
use rtorb_giop::{CompletionStatus, Operation, SystemException, SystemExceptionKind};

use super::client::{Collocated, Object, Reply};
use super::exception::MARSHAL_UNEXPECTED_REPLY;
use super::loopback::MAX_FORWARDS;
use super::server::Skeleton;

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

impl Object {
    /// A twoway call as a generated stub makes it: `direct` on the
    /// servant (as its servant trait `T`) when the object is collocated
    /// and its skeleton gives one, else a request with `arguments` whose
    /// reply `results` reads.
    pub fn call<T, R, E>(
        &self,
        operation: &'static str,
        direct: impl FnOnce(&T) -> Result<R, E>,
        arguments: impl Fn(&mut Encoder) -> Result<(), CdrError>,
        results: impl FnOnce(Reply) -> Result<R, E>,
    ) -> Result<R, E>
    where
        T: ?Sized + 'static,
        E: From<SystemException>,
    {
        let op = Operation::from(operation);
        let mut direct = Some(direct);
        let mut out: Option<Result<R, E>> = None;
        let mut current: Option<Object> = None;
        for _ in 0..=MAX_FORWARDS {
            let object = current.as_ref().unwrap_or(self);
            let mut upcall = |skeleton: &dyn Skeleton| match ServantCast::<T>::find(skeleton) {
                Some(servant) => match direct.take() {
                    Some(f) => {
                        out = Some(f(servant));
                        true
                    }
                    None => false,
                },
                None => false,
            };
            let collocated = object.invoker().invoke_collocated(
                object.target(),
                &op,
                true,
                &mut upcall,
                &arguments,
            );
            match collocated {
                None => break,
                Some(Err(e)) => return Err(E::from(e)),
                Some(Ok(Collocated::Direct)) => {
                    return out.unwrap_or_else(|| Err(E::from(unexpected())));
                }
                Some(Ok(Collocated::Reply(Some(reply)))) => return results(reply),
                Some(Ok(Collocated::Reply(None))) => {
                    return Err(E::from(unexpected()));
                }
                Some(Ok(Collocated::Forward(t))) => {
                    current = Some(Object::new(object.invoker().clone(), t));
                }
            }
        }
        let object = current.as_ref().unwrap_or(self);
        results(object.invoke(op, arguments).map_err(E::from)?)
    }

    /// A oneway call as a generated stub makes it: `direct` on the
    /// collocated servant (its outcome is not reported, as for any
    /// oneway), else a request with `arguments`.
    pub fn call_oneway<T>(
        &self,
        operation: &'static str,
        direct: impl FnOnce(&T) -> Result<(), SystemException>,
        arguments: impl Fn(&mut Encoder) -> Result<(), CdrError>,
    ) -> Result<(), SystemException>
    where
        T: ?Sized + 'static,
    {
        let op = Operation::from(operation);
        let mut direct = Some(direct);
        let mut current: Option<Object> = None;
        for _ in 0..=MAX_FORWARDS {
            let object = current.as_ref().unwrap_or(self);
            let mut upcall = |skeleton: &dyn Skeleton| match ServantCast::<T>::find(skeleton) {
                Some(servant) => match direct.take() {
                    Some(f) => {
                        let _ = f(servant);
                        true
                    }
                    None => false,
                },
                None => false,
            };
            let collocated = object.invoker().invoke_collocated(
                object.target(),
                &op,
                false,
                &mut upcall,
                &arguments,
            );
            match collocated {
                None => break,
                // Not reported, as over a connection.
                Some(Err(_)) | Some(Ok(Collocated::Direct | Collocated::Reply(_))) => {
                    return Ok(());
                }
                Some(Ok(Collocated::Forward(t))) => {
                    current = Some(Object::new(object.invoker().clone(), t));
                }
            }
        }
        let object = current.as_ref().unwrap_or(self);
        object.invoke_oneway(op, arguments)
    }
}

fn unexpected() -> SystemException {
    SystemException::new(
        SystemExceptionKind::Marshal,
        MARSHAL_UNEXPECTED_REPLY,
        CompletionStatus::Maybe,
    )
}
