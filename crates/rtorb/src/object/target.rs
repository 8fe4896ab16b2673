//! [`Target`]: where an object lives, as far as an invoker needs to
//! know, and where its calls were forwarded to.

use std::any::Any;
use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use rtorb_giop::{CompletionStatus, ObjectReference, SystemException, SystemExceptionKind};

use super::location_forward::ForwardSlot;
use crate::minor::INV_OBJREF_NO_OBJECT_KEY;
use crate::policy::{Policy, find, merge};

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
/// of an [`Object`](super::Object) (and the stubs narrowed from it) share one target,
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
    /// calling thread's ([`PolicyCurrent`](crate::policy::PolicyCurrent)); `None` leaves it to
    /// the ORB.
    pub fn effective_policy<T>(&self, pick: impl Fn(&Policy) -> Option<T>) -> Option<T> {
        find(self.policy_overrides(), pick)
    }
}
