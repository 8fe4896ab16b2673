//! Collocated calls through generated stubs ([`Object::call`],
//! [`Object::call_oneway`]): the servant is called through its servant
//! trait, without marshaling.
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

use std::sync::Arc;

use rtorb_cdr::{CdrError, Encoder};
use rtorb_giop::{CompletionStatus, Operation, SystemException, SystemExceptionKind};

use super::invoker::{Arguments, Collocated, Reply};
use super::location_forward::{Hop, follow_forwards_to};
use super::reference::Object;
use super::target::Forwarded;
use crate::minor::MARSHAL_UNEXPECTED_REPLY;
use crate::servant::{ServantCast, Skeleton};

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
        let first =
            self.invoker()
                .invoke_collocated(self.target(), &op, true, &mut upcall, &arguments);
        let ended = match first {
            None => return results(self.invoke(op, arguments).map_err(E::from)?),
            Some(Ok(Collocated::Forward(to))) => {
                let to = Object::new(self.invoker().clone(), to);
                let ended = follow_forwards_to(to, |object| {
                    Ok::<_, SystemException>(attempt(object, &op, true, &mut upcall, &arguments))
                })
                .map_err(E::from)?;
                self.remember(ended)
            }
            Some(here) => Ended::Here(here),
        };
        match ended {
            Ended::Elsewhere(object) => results(object.invoke(op, arguments).map_err(E::from)?),
            Ended::Here(Err(e)) => Err(E::from(e)),
            Ended::Here(Ok(Collocated::Direct)) => {
                out.unwrap_or_else(|| Err(E::from(unexpected())))
            }
            Ended::Here(Ok(Collocated::Reply(Some(reply)))) => results(reply),
            Ended::Here(Ok(_)) => Err(E::from(unexpected())),
        }
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
        let first =
            self.invoker()
                .invoke_collocated(self.target(), &op, false, &mut upcall, &arguments);
        let ended = match first {
            None => return self.invoke_oneway(op, arguments),
            Some(Ok(Collocated::Forward(to))) => {
                let to = Object::new(self.invoker().clone(), to);
                let ended = follow_forwards_to(to, |object| {
                    Ok::<_, SystemException>(attempt(object, &op, false, &mut upcall, &arguments))
                })?;
                self.remember(ended)
            }
            Some(here) => Ended::Here(here),
        };
        match ended {
            Ended::Elsewhere(object) => object.invoke_oneway(op, arguments),
            // Not reported, as over a connection.
            Ended::Here(_) => Ok(()),
        }
    }
}

impl Object {
    /// Where a forwarded call ended: the later calls through this
    /// reference go to the object it ended at, unless it failed there.
    fn remember(&self, (ended, last): (Ended, Object)) -> Ended {
        if !matches!(ended, Ended::Here(Err(_))) {
            self.target().remember_forward(Arc::new(Forwarded {
                target: last.target().clone(),
                permanent: false,
            }));
        }
        ended
    }
}

/// Where a stub's call ended up, once forwards are followed.
enum Ended {
    /// Served in process: how (never [`Collocated::Forward`]).
    Here(Result<Collocated, SystemException>),
    /// Served elsewhere: to be called through its invoker.
    Elsewhere(Object),
}

/// A collocated call of `operation` on `object`, the target of a forward:
/// where it ended, or the next target.
fn attempt(
    object: &Object,
    operation: &Operation,
    response_expected: bool,
    direct: &mut dyn FnMut(&dyn Skeleton) -> bool,
    arguments: Arguments<'_>,
) -> Hop<Object, Ended> {
    let invoker = object.invoker();
    match invoker.invoke_collocated(
        object.target(),
        operation,
        response_expected,
        direct,
        arguments,
    ) {
        None => Hop::Done(Ended::Elsewhere(object.clone())),
        Some(Ok(Collocated::Forward(to))) => Hop::Forward(Object::new(invoker.clone(), to)),
        Some(here) => Hop::Done(Ended::Here(here)),
    }
}

fn unexpected() -> SystemException {
    SystemException::new(
        SystemExceptionKind::Marshal,
        MARSHAL_UNEXPECTED_REPLY,
        CompletionStatus::Maybe,
    )
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use crate::minor::TRANSIENT_TOO_MANY_FORWARDS;
    use rtorb_cdr::{CdrDecode, CdrEncode, Decoder, Encoding};

    use super::*;
    use crate::object::{Invoker, MAX_FORWARDS, Target};
    use crate::policy::SyncScope;

    /// Serves `here` in process, forwards `hop` to `here`, `away` to the
    /// remote `far`, and `loop` to itself; counts collocated attempts.
    #[derive(Default)]
    struct Forwarding {
        attempts: AtomicUsize,
    }

    fn reply(value: i32) -> Reply {
        let mut e = Encoder::new(Encoding::native());
        value.encode(&mut e).unwrap();
        Reply::results(Decoder::new(e.into_bytes(), Encoding::native()))
    }

    impl Invoker for Forwarding {
        fn invoke(
            &self,
            _target: &Target,
            _operation: Operation,
            _arguments: Arguments<'_>,
        ) -> Result<Reply, SystemException> {
            Ok(reply(7))
        }

        fn invoke_oneway(
            &self,
            _target: &Target,
            _operation: Operation,
            _sync: SyncScope,
            _arguments: Arguments<'_>,
        ) -> Result<(), SystemException> {
            Ok(())
        }

        fn invoke_collocated(
            &self,
            target: &Target,
            _operation: &Operation,
            _response_expected: bool,
            _direct: &mut dyn FnMut(&dyn Skeleton) -> bool,
            _arguments: Arguments<'_>,
        ) -> Option<Result<Collocated, SystemException>> {
            self.attempts.fetch_add(1, Ordering::Relaxed);
            let to = |key: &'static [u8]| Some(Ok(Collocated::Forward(Target::from_key("", key))));
            match &target.object_key()[..] {
                b"here" => Some(Ok(Collocated::Reply(Some(reply(42))))),
                b"hop" => to(b"here"),
                b"away" => to(b"far"),
                b"loop" => to(b"loop"),
                _ => None,
            }
        }
    }

    fn call(invoker: &Arc<Forwarding>, key: &'static [u8]) -> Result<i32, SystemException> {
        let object = Object::new(invoker.clone(), Target::from_key("", key));
        object.call::<(), i32, SystemException>(
            "op",
            |_| Ok(0),
            |_| Ok(()),
            |reply| reply.decode::<i32, SystemException>(i32::decode),
        )
    }

    #[test]
    fn a_stub_call_follows_forwards_in_process_and_out() {
        let invoker = Arc::new(Forwarding::default());
        assert_eq!(call(&invoker, b"hop").unwrap(), 42);
        assert_eq!(call(&invoker, b"away").unwrap(), 7);
        assert_eq!(call(&invoker, b"far").unwrap(), 7);
    }

    #[test]
    fn a_stub_call_forwarded_in_a_loop_is_transient() {
        let invoker = Arc::new(Forwarding::default());
        let e = call(&invoker, b"loop").unwrap_err();
        assert_eq!(e.minor, TRANSIENT_TOO_MANY_FORWARDS);
        assert_eq!(invoker.attempts.load(Ordering::Relaxed), MAX_FORWARDS + 1);
        let object = Object::new(invoker.clone(), Target::from_key("", &b"loop"[..]));
        let oneway = object.call_oneway::<()>("op", |_| Ok(()), |_| Ok(()));
        assert_eq!(oneway.unwrap_err().minor, TRANSIENT_TOO_MANY_FORWARDS);
    }
}
