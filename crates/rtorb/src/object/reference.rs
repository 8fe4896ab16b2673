//! The client side: object references, the [`Invoker`] that carries a
//! call, the [`Reply`] a stub reads its results from, and typed stubs.

use std::any::Any;
use std::fmt;
use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use rtorb_cdr::{CdrDecode, CdrError, Decoder, Encoder};
use rtorb_giop::{
    CompletionStatus, ObjectReference, Operation, SystemException, SystemExceptionKind,
};

use super::exception::{OperationError, marshal_completed, read_repository_id};
use super::forward::ForwardSlot;
use super::policy::{Policy, SyncScope, find, merge};
use crate::minor::{INV_OBJREF_NO_OBJECT_KEY, UNKNOWN_UNLISTED_USER_EXCEPTION};

/// The repository id of `CORBA::Object`, which every object is.
pub const OBJECT_REPOSITORY_ID: &str = "IDL:omg.org/CORBA/Object:1.0";

/// Writes the arguments of a request (its `in` and `inout` parameters, in
/// order) into the request body.
///
/// An invoker may call it more than once for one call, when it must send
/// the request again (a `LOCATION_FORWARD` reply), so it only reads what it
/// captured.
pub type Arguments<'a> = &'a dyn Fn(&mut Encoder) -> Result<(), CdrError>;

/// Carries requests to objects: the ORB core over its connections, or the
/// in-process [`super::loopback::Loopback`].
///
/// A stub holds one as `Arc<dyn Invoker>` inside its [`Object`]. The
/// invoker frames the request (GIOP version, byte order, request id,
/// service contexts), calls `arguments` to write the body, sends it,
/// waits for the reply, follows `LOCATION_FORWARD` replies itself, turns a
/// `SYSTEM_EXCEPTION` reply into `Err`, and hands back the body of a
/// `NO_EXCEPTION` or `USER_EXCEPTION` reply.
///
/// An implementation should not allocate per call in steady state when
/// the arguments are primitives: reuse message buffers (the writers of
/// `rtorb_giop::message::MessageWriter` take a buffer to write into) and
/// keep the reply body a slice of the received message.
pub trait Invoker: Send + Sync {
    /// A twoway call of `operation` on `target`.
    fn invoke(
        &self,
        target: &Target,
        operation: Operation,
        arguments: Arguments<'_>,
    ) -> Result<Reply, SystemException>;

    /// A oneway call: returns once `sync` is satisfied, with no results.
    /// With [`SyncScope::WithServer`] or [`SyncScope::WithTarget`] a
    /// system exception from the server is returned; otherwise only local
    /// failures are.
    fn invoke_oneway(
        &self,
        target: &Target,
        operation: Operation,
        sync: SyncScope,
        arguments: Arguments<'_>,
    ) -> Result<(), SystemException>;

    /// The sync scope of oneway calls whose reference and thread set none
    /// (the ORB's): [`SyncScope::WithTransport`] unless the invoker is
    /// configured otherwise.
    fn default_sync_scope(&self) -> SyncScope {
        SyncScope::default()
    }

    /// `Object::_validate_connection`: binds `target` (opens a connection
    /// to it, following forwards) without making a call. `Ok(true)` when
    /// calls can be made under the effective policies, `Ok(false)` when
    /// the policies rule out every profile of the reference, and the
    /// system exception a call would raise when binding fails. An
    /// invoker without connections has nothing to bind: `Ok(true)`.
    fn validate_connection(&self, target: &Target) -> Result<bool, SystemException> {
        let _ = target;
        Ok(true)
    }

    /// A call on an object this invoker serves in the calling process
    /// (collocation), without a connection: `None` if `target` is not
    /// one. Otherwise the servant is found as for a request from the
    /// network (object adapter state, servant managers), and `direct` is
    /// called with its skeleton; if `direct` returns `false` (it cannot
    /// call the servant itself), the request is marshaled with
    /// `arguments` and dispatched to the skeleton in memory, giving
    /// [`Collocated::Reply`] (`None` for a oneway). The default: `None`.
    fn invoke_collocated(
        &self,
        target: &Target,
        operation: &Operation,
        response_expected: bool,
        direct: &mut dyn FnMut(&dyn super::Skeleton) -> bool,
        arguments: Arguments<'_>,
    ) -> Option<Result<Collocated, SystemException>> {
        let _ = (target, operation, response_expected, direct, arguments);
        None
    }
}

/// How a collocated call ([`Invoker::invoke_collocated`]) went.
#[derive(Debug)]
pub enum Collocated {
    /// The `direct` call ran.
    Direct,
    /// The request was marshaled and dispatched: its reply, if any.
    Reply(Option<Reply>),
    /// The object is elsewhere: call this target instead.
    Forward(Target),
}

/// What a twoway call brought back: the body of a `NO_EXCEPTION` reply
/// (the return value, then the `inout` and `out` parameters) or of a
/// `USER_EXCEPTION` reply (the repository id, then the members).
///
/// Its decoder reads the reply message in place; dropping the reply
/// releases the message buffer for the invoker to reuse.
#[derive(Debug)]
pub struct Reply {
    body: Decoder,
    user_exception: bool,
}

impl Reply {
    /// The body of a `NO_EXCEPTION` reply, aligned as in its message.
    pub fn results(body: Decoder) -> Reply {
        Reply {
            body,
            user_exception: false,
        }
    }

    /// The body of a `USER_EXCEPTION` reply, aligned as in its message.
    pub fn user_exception(body: Decoder) -> Reply {
        Reply {
            body,
            user_exception: true,
        }
    }

    /// Whether the reply holds a user exception.
    pub fn is_user_exception(&self) -> bool {
        self.user_exception
    }

    /// The undecoded body.
    pub fn body(&mut self) -> &mut Decoder {
        &mut self.body
    }

    /// Reads the results with `results`, or the user exception the reply
    /// holds as one of `E`'s: what every generated stub method ends with.
    ///
    /// Results or members that fail to decode give `MARSHAL`
    /// (`COMPLETED_YES`); a user exception `E` does not know gives
    /// `UNKNOWN` with [`UNKNOWN_UNLISTED_USER_EXCEPTION`](crate::minor::UNKNOWN_UNLISTED_USER_EXCEPTION).
    pub fn decode<T, E: OperationError>(
        self,
        results: impl FnOnce(&mut Decoder) -> Result<T, CdrError>,
    ) -> Result<T, E> {
        let mut probe = crate::probe::Probe::start();
        let out = self.decode_inner(results);
        probe.lap(crate::probe::Stage::ClientDemarshal);
        out
    }

    fn decode_inner<T, E: OperationError>(
        mut self,
        results: impl FnOnce(&mut Decoder) -> Result<T, CdrError>,
    ) -> Result<T, E> {
        if !self.user_exception {
            return results(&mut self.body).map_err(|e| E::from(marshal_completed(&e)));
        }
        let id = read_repository_id(&mut self.body).map_err(|e| E::from(marshal_completed(&e)))?;
        let decoded = id
            .as_deref()
            .and_then(|id| std::str::from_utf8(id).ok())
            .and_then(|id| E::from_user_exception(id, &mut self.body));
        match decoded {
            Some(Ok(e)) => Err(e),
            Some(Err(e)) => Err(E::from(marshal_completed(&e))),
            None => Err(E::from(SystemException::new(
                SystemExceptionKind::Unknown,
                UNKNOWN_UNLISTED_USER_EXCEPTION,
                CompletionStatus::Yes,
            ))),
        }
    }
}

/// Where an object lives, as far as an invoker needs to know: its type id,
/// its object key, and, for a reference that came from an IOR, the
/// reference itself (profiles and components, for the ORB core to pick a
/// transport).
///
/// An invoker may keep what it works out from the reference (the
/// endpoints to try, say) in the target's [`Target::binding`], so that
/// calls after the first do not work it out again.
///
/// The rtorb ORB also keeps, in the target, where its calls were last
/// forwarded to (`LOCATION_FORWARD`): later calls go there directly until
/// a call there fails with `COMM_FAILURE`, `OBJECT_NOT_EXIST` or a
/// `TRANSIENT` of the connection; the target then forgets it, and the call
/// goes once more to the original reference where it cannot have been
/// processed (`COMPLETED_NO`). A forward that only
/// `LOCATION_FORWARD_PERM` replies led to is never forgotten, and replaces
/// the original in what designates the object to others too
/// ([`Target::designating_reference`]: the IOR written into messages, by
/// `object_to_string` and as a corbaloc URL), as CORBA has a client ORB
/// do with the new IOR. The clones
/// of an [`Object`] (and the stubs narrowed from it) share one target,
/// and so what it remembers; a clone of a `Target`, and a reference with
/// policy overrides made from it, start with what it remembers then; a
/// reference made anew from an IOR or a URL starts without.
#[derive(Debug)]
pub struct Target {
    type_id: String,
    object_key: Bytes,
    reference: Option<ObjectReference>,
    binding: OnceLock<Binding>,
    overrides: Option<Arc<[Policy]>>,
    forward: ForwardSlot<Forwarded>,
}

/// Where the calls to a [`Target`] were forwarded to.
#[derive(Debug)]
pub(crate) struct Forwarded {
    /// The target calls go to.
    pub(crate) target: Target,
    /// Whether every forward that led there was `LOCATION_FORWARD_PERM`:
    /// such a target replaces the original for good.
    pub(crate) permanent: bool,
}

impl Clone for Target {
    fn clone(&self) -> Target {
        Target {
            type_id: self.type_id.clone(),
            object_key: self.object_key.clone(),
            reference: self.reference.clone(),
            binding: self.binding.clone(),
            overrides: self.overrides.clone(),
            forward: self.forward.snapshot(),
        }
    }
}

/// What an invoker keeps for a target: anything it likes, shared.
pub type Binding = Arc<dyn Any + Send + Sync>;

/// Targets are equal when they name the same object the same way; the
/// invoker's binding and the policy overrides do not count.
impl PartialEq for Target {
    fn eq(&self, other: &Target) -> bool {
        self.type_id == other.type_id
            && self.object_key == other.object_key
            && self.reference == other.reference
    }
}

impl Eq for Target {}

impl Target {
    /// A target known only by its object key (on the loopback, or through
    /// a connection the invoker already has).
    pub fn from_key(type_id: impl Into<String>, object_key: impl Into<Bytes>) -> Target {
        Target {
            type_id: type_id.into(),
            object_key: object_key.into(),
            reference: None,
            binding: OnceLock::new(),
            overrides: None,
            forward: ForwardSlot::default(),
        }
    }

    /// A target from an object reference: its object key is the first one
    /// a profile carries. A reference without one (nil included) is
    /// `INV_OBJREF`.
    pub fn from_reference(reference: ObjectReference) -> Result<Target, SystemException> {
        let Some(object_key) = reference.object_key().cloned() else {
            return Err(SystemException::new(
                SystemExceptionKind::InvObjref,
                INV_OBJREF_NO_OBJECT_KEY,
                CompletionStatus::No,
            ));
        };
        Ok(Target {
            type_id: reference.type_id.clone(),
            object_key,
            reference: Some(reference),
            binding: OnceLock::new(),
            overrides: None,
            forward: ForwardSlot::default(),
        })
    }

    /// The repository id of the most derived interface known for the
    /// object (may be empty).
    pub fn type_id(&self) -> &str {
        &self.type_id
    }

    /// The object key requests are addressed to.
    pub fn object_key(&self) -> &Bytes {
        &self.object_key
    }

    /// The object reference, when the target came from one.
    pub fn reference(&self) -> Option<&ObjectReference> {
        self.reference.as_ref()
    }

    /// The reference that designates the object to others: its own, or,
    /// once `LOCATION_FORWARD_PERM` replies moved it for good, the
    /// reference they forwarded it to. [`Target::reference`] stays the
    /// one the target was made from.
    pub fn designating_reference(&self) -> Option<ObjectReference> {
        match self.forwarded() {
            Some(f) if f.permanent => f
                .target
                .designating_reference()
                .or_else(|| self.reference.clone()),
            _ => self.reference.clone(),
        }
    }

    /// The slot where an invoker keeps what it has worked out for this
    /// target, set by the first call that needs it. A clone of the target
    /// shares what was set before the clone; an invoker must check that a
    /// binding it finds is its own (another invoker may have set it).
    pub fn binding(&self) -> &OnceLock<Binding> {
        &self.binding
    }

    /// The policies overridden for calls to this target (empty: none).
    pub fn policy_overrides(&self) -> &[Policy] {
        self.overrides.as_deref().unwrap_or_default()
    }

    /// The same target with `policies` overriding those of their types
    /// (CORBA's `_set_policy_overrides` with `ADD_OVERRIDE`), and a binding
    /// of its own, since the policies may change the profiles it uses.
    pub fn with_policy_overrides(&self, policies: &[Policy]) -> Target {
        Target {
            type_id: self.type_id.clone(),
            object_key: self.object_key.clone(),
            reference: self.reference.clone(),
            binding: OnceLock::new(),
            overrides: Some(merge(self.policy_overrides(), policies)),
            forward: self.forward.snapshot(),
        }
    }

    /// Whether calls to it were forwarded and go to the target of the
    /// forward (a moment's answer; see [`Target::forwarded`]).
    #[inline]
    pub(crate) fn is_forwarded(&self) -> bool {
        self.forward.is_set()
    }

    /// Where calls to it go instead, since a call was forwarded there.
    pub(crate) fn forwarded(&self) -> Option<Arc<Forwarded>> {
        self.forward.get()
    }

    /// Sends later calls to `to`.
    pub(crate) fn remember_forward(&self, to: Arc<Forwarded>) {
        self.forward.remember(to);
    }

    /// Sends later calls to the target itself again, unless another call
    /// remembered a forward other than `failed` meanwhile.
    pub(crate) fn forget_forward(&self, failed: &Arc<Forwarded>) {
        self.forward.forget(failed);
    }

    /// The effective policy `pick` takes: the target's override, else the
    /// calling thread's ([`super::PolicyCurrent`]); `None` leaves it to
    /// the ORB.
    pub fn effective_policy<T>(&self, pick: impl Fn(&Policy) -> Option<T>) -> Option<T> {
        find(self.policy_overrides(), pick)
    }
}

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
