//! [`Object`], the untyped object reference (`CORBA::Object`), and
//! [`Stub`], what typed references (generated stubs) implement.

use std::fmt;
use std::sync::Arc;

use rtorb_cdr::{CdrDecode, CdrError, Encoder};
use rtorb_giop::{Operation, SystemException, SystemExceptionKind};

use super::invoker::{Invoker, Reply};
use super::target::Target;
use crate::policy::{Policy, SyncScope};
use crate::servant::OBJECT_REPOSITORY_ID;

/// An untyped object reference, `CORBA::Object`: a [`Target`] and the
/// [`Invoker`] that reaches it. Cloning it is cheap (two reference
/// counts). A nil reference is `Option::<Object>::None`.
///
/// It carries the operations every object has (`_is_a`,
/// `_non_existent`), and every typed stub wraps one.
#[derive(Clone)]
pub struct Object {
    invoker: Arc<dyn Invoker>,
    target: Arc<Target>,
}

impl fmt::Debug for Object {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Object")
            .field("target", &self.target)
            .finish_non_exhaustive()
    }
}

impl Object {
    /// The object's `corbaloc:` URL, for people and for ORBs that take
    /// one (`rtorb_giop::corbaloc::Corbaloc::for_reference`): its IIOP
    /// and UIOP addresses and its object key, `%`-escaped where it is
    /// binary, as a POA's keys are. `None` for an object without such a
    /// profile.
    pub fn corbaloc(&self) -> Option<String> {
        rtorb_giop::corbaloc::Corbaloc::for_reference(&self.target.designating_reference()?)
            .map(|c| c.to_string())
    }

    /// A reference to `target` through `invoker`.
    pub fn new(invoker: Arc<dyn Invoker>, target: Target) -> Object {
        Object {
            invoker,
            target: Arc::new(target),
        }
    }

    /// The target.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// The invoker.
    pub fn invoker(&self) -> &Arc<dyn Invoker> {
        &self.invoker
    }

    /// The repository id the reference was made with (may be empty).
    pub fn type_id(&self) -> &str {
        Target::type_id(&self.target)
    }

    /// A twoway call: what a generated stub method does, with
    /// `arguments` writing the `in` and `inout` parameters.
    pub fn invoke<F>(
        &self,
        operation: impl Into<Operation>,
        arguments: F,
    ) -> Result<Reply, SystemException>
    where
        F: Fn(&mut Encoder) -> Result<(), CdrError>,
    {
        self.invoker
            .invoke(&self.target, operation.into(), &arguments)
    }

    /// A oneway call with the effective sync scope: the reference's
    /// override, else the thread's, else the ORB's
    /// ([`Invoker::default_sync_scope`]).
    pub fn invoke_oneway<F>(
        &self,
        operation: impl Into<Operation>,
        arguments: F,
    ) -> Result<(), SystemException>
    where
        F: Fn(&mut Encoder) -> Result<(), CdrError>,
    {
        let sync = self
            .target
            .effective_policy(|p| match p {
                Policy::SyncScope(s) => Some(*s),
                _ => None,
            })
            .unwrap_or_else(|| self.invoker.default_sync_scope());
        self.invoke_oneway_with(operation, sync, arguments)
    }

    /// A oneway call that waits as far as `sync` says.
    pub fn invoke_oneway_with<F>(
        &self,
        operation: impl Into<Operation>,
        sync: SyncScope,
        arguments: F,
    ) -> Result<(), SystemException>
    where
        F: Fn(&mut Encoder) -> Result<(), CdrError>,
    {
        self.invoker
            .invoke_oneway(&self.target, operation.into(), sync, &arguments)
    }

    /// `CORBA::Object::_set_policy_overrides` (`ADD_OVERRIDE`): a new
    /// reference to the same object whose calls use `policies` over the
    /// thread's and the ORB's. This reference is unchanged.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::time::Duration;
    /// use rtorb::loopback::Loopback;
    /// use rtorb::object::{Object, Target};
    /// use rtorb::policy::Policy;
    /// use rtorb_cdr::{ByteOrder, Version};
    ///
    /// let loopback = Loopback::new(Version::V1_2, ByteOrder::Big);
    /// let obj = Object::new(loopback, Target::from_key("", &b"k"[..]));
    /// let quick = obj.with_policies(&[Policy::RelativeRoundtripTimeout(Duration::from_millis(10))]);
    /// assert_eq!(quick.policy_overrides().len(), 1);
    /// assert!(obj.policy_overrides().is_empty());
    /// ```
    pub fn with_policies(&self, policies: &[Policy]) -> Object {
        Object {
            invoker: Arc::clone(&self.invoker),
            target: Arc::new(self.target.with_policy_overrides(policies)),
        }
    }

    /// `CORBA::Object::_get_policy_overrides`: the policies this
    /// reference overrides.
    pub fn policy_overrides(&self) -> &[Policy] {
        self.target.policy_overrides()
    }

    /// `CORBA::Object::_validate_connection`: binds the reference now (a
    /// connection opened, forwards followed) so that the first call opens
    /// nothing. `Ok(true)`: bound; `Ok(false)`: the effective policies
    /// allow none of the reference's profiles; `Err`: binding failed with
    /// the system exception a call would get (`TRANSIENT`,
    /// `OBJECT_NOT_EXIST`, ...).
    pub fn validate_connection(&self) -> Result<bool, SystemException> {
        self.invoker.validate_connection(&self.target)
    }

    /// `CORBA::Object::_is_a`: whether the object supports the interface
    /// `repository_id` (asked of the object itself).
    pub fn is_a(&self, repository_id: &str) -> Result<bool, SystemException> {
        self.invoke("_is_a", |e| e.write_string(repository_id))?
            .decode(bool::decode)
    }

    /// `CORBA::Object::_non_existent`: whether the object is known to be
    /// gone. An `OBJECT_NOT_EXIST` answer is `true`, as the specification
    /// maps it.
    pub fn non_existent(&self) -> Result<bool, SystemException> {
        let reply = self.invoke("_non_existent", |_| Ok(()));
        match reply.and_then(|r| r.decode::<bool, SystemException>(bool::decode)) {
            Err(e) if e.kind() == Some(SystemExceptionKind::ObjectNotExist) => Ok(true),
            other => other,
        }
    }

    /// The reference as a `T`, if the object is one: without a remote
    /// call when the reference's type id is `T`'s, else by asking the
    /// object `_is_a`.
    pub fn narrow<T: Stub>(self) -> Result<Option<T>, SystemException> {
        if self.type_id() == T::REPOSITORY_ID
            || T::REPOSITORY_ID == OBJECT_REPOSITORY_ID
            || self.is_a(T::REPOSITORY_ID)?
        {
            Ok(Some(T::from_object(self)))
        } else {
            Ok(None)
        }
    }

    /// The reference as a `T`, unchecked: calls of operations the object
    /// lacks fail with `BAD_OPERATION`.
    pub fn unchecked_narrow<T: Stub>(self) -> T {
        T::from_object(self)
    }
}

/// A typed object reference (a generated stub): a wrapper of an
/// [`Object`] that knows its interface's repository id.
pub trait Stub: Sized {
    /// The repository id of the stub's interface.
    const REPOSITORY_ID: &'static str;

    /// Wraps `object` without checking its type.
    fn from_object(object: Object) -> Self;

    /// The untyped reference.
    fn as_object(&self) -> &Object;

    /// Unwraps the untyped reference.
    fn into_object(self) -> Object;

    /// `object` as this interface if it is one ([`Object::narrow`]).
    fn narrow(object: Object) -> Result<Option<Self>, SystemException> {
        object.narrow()
    }

    /// `object` as this interface, unchecked.
    fn unchecked_narrow(object: Object) -> Self {
        Self::from_object(object)
    }
}

impl Stub for Object {
    const REPOSITORY_ID: &'static str = OBJECT_REPOSITORY_ID;

    fn from_object(object: Object) -> Self {
        object
    }

    fn as_object(&self) -> &Object {
        self
    }

    fn into_object(self) -> Object {
        self
    }
}
