//! Client-side policies and where they are set: the ORB, the calling
//! thread ([`PolicyCurrent`]) and the object reference
//! ([`Object::with_policies`](crate::object::Object::with_policies),
//! CORBA's `_set_policy_overrides`).
//!
//! A call uses, for each policy type, the override of its object
//! reference if there is one, else the calling thread's, else the ORB's
//! (configured on the ORB, see `rtorb::orb::OrbConfig`).
//!
//! ```
//! use std::time::Duration;
//! use rtorb::policy::{Policy, PolicyCurrent, SyncScope};
//!
//! let _scope = PolicyCurrent::scoped(&[
//!     Policy::RelativeRoundtripTimeout(Duration::from_millis(250)),
//!     Policy::SyncScope(SyncScope::WithServer),
//! ]);
//! assert_eq!(
//!     PolicyCurrent::relative_roundtrip_timeout(),
//!     Some(Duration::from_millis(250))
//! );
//! drop(_scope);
//! assert_eq!(PolicyCurrent::relative_roundtrip_timeout(), None);
//! ```

use std::cell::RefCell;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Duration;

use rtorb_giop::FrameProtocol;
use rtorb_giop::ior::PriorityBand;
use rtorb_giop::message::{RESPONSE_NONE, RESPONSE_WITH_SERVER, RESPONSE_WITH_TARGET};

/// `Messaging::SYNC_SCOPE_POLICY_TYPE`.
pub const SYNC_SCOPE_POLICY_TYPE: u32 = 24;
/// `Messaging::RELATIVE_RT_TIMEOUT_POLICY_TYPE`.
pub const RELATIVE_RT_TIMEOUT_POLICY_TYPE: u32 = 32;
/// `RTCORBA::CLIENT_PROTOCOL_POLICY_TYPE`.
pub const CLIENT_PROTOCOL_POLICY_TYPE: u32 = 43;
/// `RTCORBA::PRIVATE_CONNECTION_POLICY_TYPE`.
pub const PRIVATE_CONNECTION_POLICY_TYPE: u32 = 44;
/// `RTCORBA::PRIORITY_BANDED_CONNECTION_POLICY_TYPE`.
pub const PRIORITY_BANDED_CONNECTION_POLICY_TYPE: u32 = 45;

/// How far a oneway call waits (`Messaging::SyncScope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SyncScope {
    /// `SYNC_NONE`: return before the request is handed to a transport.
    /// The rtorb ORB encodes it in the calling thread and one background
    /// thread per ORB sends such requests, in order; failures to send
    /// are not reported.
    None,
    /// `SYNC_WITH_TRANSPORT`: return once the transport has the request
    /// (the default, as in most ORBs).
    #[default]
    WithTransport,
    /// `SYNC_WITH_SERVER`: wait for the server to acknowledge the request
    /// before it invokes the target.
    WithServer,
    /// `SYNC_WITH_TARGET`: wait until the target has run (a twoway call
    /// without results).
    WithTarget,
}

impl SyncScope {
    /// The GIOP 1.2 `response_flags` of a oneway request with this scope.
    pub fn response_flags(self) -> u8 {
        match self {
            SyncScope::None | SyncScope::WithTransport => RESPONSE_NONE,
            SyncScope::WithServer => RESPONSE_WITH_SERVER,
            SyncScope::WithTarget => RESPONSE_WITH_TARGET,
        }
    }

    /// Whether the client waits for a reply.
    pub fn waits_for_reply(self) -> bool {
        self.response_flags() != RESPONSE_NONE
    }
}

/// A client-side policy.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Policy {
    /// `Messaging::SyncScopePolicy`: how far a oneway call waits.
    SyncScope(SyncScope),
    /// `Messaging::RelativeRoundtripTimeoutPolicy`: how long a call may
    /// take from sending its request to receiving its reply; past it the
    /// call fails with `TIMEOUT`.
    RelativeRoundtripTimeout(Duration),
    /// `RTCORBA::ClientProtocolPolicy`: the protocols a call may use, in
    /// order of preference.
    ClientProtocol(ClientProtocolPolicy),
    /// `RTCORBA::PrivateConnectionPolicy`: the reference (and its clones)
    /// has connections of its own, shared with no other reference.
    PrivateConnection,
    /// `RTCORBA::PriorityBandedConnectionPolicy`: a connection per band of
    /// CORBA priorities to each endpoint, a call taking the band of its
    /// thread's priority (one outside every band is `INV_POLICY`). A
    /// reference whose server publishes bands uses those when it
    /// overrides none.
    PriorityBandedConnection(Vec<PriorityBand>),
}

impl Policy {
    /// The policy's type (`CORBA::PolicyType`).
    pub fn policy_type(&self) -> u32 {
        match self {
            Policy::SyncScope(_) => SYNC_SCOPE_POLICY_TYPE,
            Policy::RelativeRoundtripTimeout(_) => RELATIVE_RT_TIMEOUT_POLICY_TYPE,
            Policy::ClientProtocol(_) => CLIENT_PROTOCOL_POLICY_TYPE,
            Policy::PrivateConnection => PRIVATE_CONNECTION_POLICY_TYPE,
            Policy::PriorityBandedConnection(_) => PRIORITY_BANDED_CONNECTION_POLICY_TYPE,
        }
    }
}

/// One protocol of a [`ClientProtocolPolicy`]: a transport by name
/// (`"iiop"`, `"uiop"`, or any registered one) and, optionally, the
/// messaging protocol on it (GIOP or GIOPlite; `None` takes either).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Protocol {
    /// The transport's protocol name, as in endpoint strings.
    pub transport: String,
    /// The messaging protocol, or `None` for any.
    pub messaging: Option<FrameProtocol>,
}

impl Protocol {
    /// `transport` with either messaging protocol.
    pub fn transport(transport: impl Into<String>) -> Protocol {
        Protocol {
            transport: transport.into(),
            messaging: None,
        }
    }

    /// IIOP (GIOP or GIOPlite).
    pub fn iiop() -> Protocol {
        Protocol::transport("iiop")
    }

    /// UIOP (GIOP or GIOPlite).
    pub fn uiop() -> Protocol {
        Protocol::transport("uiop")
    }

    /// Only with standard GIOP.
    pub fn giop(mut self) -> Protocol {
        self.messaging = Some(FrameProtocol::Giop);
        self
    }

    /// Only with GIOPlite.
    pub fn lite(mut self) -> Protocol {
        self.messaging = Some(FrameProtocol::Lite);
        self
    }

    /// Whether a profile of `transport` speaking `messaging` is this one.
    pub fn matches(&self, transport: &str, messaging: FrameProtocol) -> bool {
        self.transport.eq_ignore_ascii_case(transport)
            && self.messaging.is_none_or(|m| m == messaging)
    }

    /// Parses `iiop`, `uiop`, `iiop+giop`, `iiop+lite` (any case).
    pub fn parse(s: &str) -> Option<Protocol> {
        let (t, m) = match s.split_once('+') {
            Some((t, m)) => (t, Some(m)),
            None => (s, None),
        };
        if t.is_empty() || !t.chars().all(|c| c.is_ascii_alphanumeric()) {
            return None;
        }
        let p = Protocol::transport(t.to_ascii_lowercase());
        match m.map(str::to_ascii_lowercase).as_deref() {
            None => Some(p),
            Some("giop") => Some(p.giop()),
            Some("lite" | "gioplite") => Some(p.lite()),
            Some(_) => None,
        }
    }
}

/// What a call does when no profile of the reference matches a
/// [`ClientProtocolPolicy`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ProtocolFallback {
    /// Fail with `INV_POLICY` ([`INV_POLICY_CANNOT_RECONCILE`](crate::minor::INV_POLICY_CANNOT_RECONCILE)), as
    /// RT-CORBA says.
    #[default]
    Fail,
    /// Use any profile a registered protocol can reach, after the
    /// preferred ones.
    AnyUsable,
}

/// `RTCORBA::ClientProtocolPolicy`: an ordered preference of protocols.
/// A call tries the reference's profiles of the first protocol first (in
/// the order of the reference), then those of the second, and so on.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ClientProtocolPolicy {
    /// The protocols, most preferred first.
    pub protocols: Vec<Protocol>,
    /// What to do when no profile matches.
    pub fallback: ProtocolFallback,
}

impl ClientProtocolPolicy {
    /// A preference of `protocols` with [`ProtocolFallback::Fail`].
    pub fn new(protocols: impl IntoIterator<Item = Protocol>) -> ClientProtocolPolicy {
        ClientProtocolPolicy {
            protocols: protocols.into_iter().collect(),
            fallback: ProtocolFallback::Fail,
        }
    }

    /// The same preference, with `fallback`.
    pub fn with_fallback(mut self, fallback: ProtocolFallback) -> ClientProtocolPolicy {
        self.fallback = fallback;
        self
    }

    /// The rank of a profile of `transport` speaking `messaging`: the
    /// index of the first protocol it matches, `protocols.len()` if none
    /// does but the fallback allows it, `None` if it may not be used.
    pub fn rank(&self, transport: &str, messaging: FrameProtocol) -> Option<usize> {
        match self
            .protocols
            .iter()
            .position(|p| p.matches(transport, messaging))
        {
            Some(i) => Some(i),
            None if self.fallback == ProtocolFallback::AnyUsable => Some(self.protocols.len()),
            None => None,
        }
    }

    /// Parses a comma-separated list of [`Protocol::parse`] forms, with
    /// an optional last element `*` meaning [`ProtocolFallback::AnyUsable`]
    /// (`uiop,iiop+lite,*`).
    pub fn parse(s: &str) -> Option<ClientProtocolPolicy> {
        let mut policy = ClientProtocolPolicy::default();
        let items: Vec<&str> = s.split(',').map(str::trim).collect();
        for (i, item) in items.iter().enumerate() {
            if *item == "*" && i + 1 == items.len() {
                policy.fallback = ProtocolFallback::AnyUsable;
            } else {
                policy.protocols.push(Protocol::parse(item)?);
            }
        }
        Some(policy)
    }
}

/// A set of overrides: at most one policy of each type, the last given
/// winning.
pub(crate) fn merge(base: &[Policy], overrides: &[Policy]) -> Arc<[Policy]> {
    let mut out: Vec<Policy> = base
        .iter()
        .filter(|p| !overrides.iter().any(|o| o.policy_type() == p.policy_type()))
        .cloned()
        .collect();
    for o in overrides {
        out.retain(|p| p.policy_type() != o.policy_type());
        out.push(o.clone());
    }
    out.into()
}

thread_local! {
    static CURRENT: RefCell<Vec<Policy>> = const { RefCell::new(Vec::new()) };
}

/// How [`PolicyCurrent::set_policy_overrides`] combines the new policies
/// with those already set (`CORBA::SetOverrideType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetOverrideType {
    /// `SET_OVERRIDE`: the new policies replace all of them.
    Set,
    /// `ADD_OVERRIDE`: the new policies replace those of their types.
    Add,
}

/// `CORBA::PolicyCurrent`: the calling thread's policy overrides. They
/// apply to every call the thread makes, unless the object reference
/// overrides the same policy type.
#[derive(Debug, Clone, Copy, Default)]
pub struct PolicyCurrent;

impl PolicyCurrent {
    /// `set_policy_overrides` on the calling thread.
    pub fn set_policy_overrides(policies: &[Policy], how: SetOverrideType) {
        CURRENT.with(|c| {
            let mut c = c.borrow_mut();
            let base: &[Policy] = match how {
                SetOverrideType::Set => &[],
                SetOverrideType::Add => &c,
            };
            let merged = merge(base, policies);
            *c = merged.to_vec();
        });
    }

    /// `get_policy_overrides`: the calling thread's overrides.
    pub fn policy_overrides() -> Vec<Policy> {
        CURRENT.with(|c| c.borrow().clone())
    }

    /// Adds `policies` to the calling thread's overrides until the
    /// returned guard is dropped, which restores the overrides as they
    /// were.
    pub fn scoped(policies: &[Policy]) -> PolicyScope {
        let previous = PolicyCurrent::policy_overrides();
        PolicyCurrent::set_policy_overrides(policies, SetOverrideType::Add);
        PolicyScope {
            previous,
            _not_send: PhantomData,
        }
    }

    /// Runs `f` with `policies` added to the calling thread's overrides.
    pub fn with<R>(policies: &[Policy], f: impl FnOnce() -> R) -> R {
        let _scope = PolicyCurrent::scoped(policies);
        f()
    }

    /// The thread's `RelativeRoundtripTimeout` override.
    pub fn relative_roundtrip_timeout() -> Option<Duration> {
        find(&[], |p| match p {
            Policy::RelativeRoundtripTimeout(d) => Some(*d),
            _ => None,
        })
    }
}

/// Restores the thread's policy overrides when dropped (see
/// [`PolicyCurrent::scoped`]).
#[derive(Debug)]
#[must_use = "the overrides end when the scope is dropped"]
pub struct PolicyScope {
    previous: Vec<Policy>,
    _not_send: PhantomData<*const ()>,
}

impl Drop for PolicyScope {
    fn drop(&mut self) {
        let previous = std::mem::take(&mut self.previous);
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

/// The first of `object`'s overrides, then the calling thread's, that
/// `pick` takes.
pub(crate) fn find<T>(object: &[Policy], pick: impl Fn(&Policy) -> Option<T>) -> Option<T> {
    if let Some(t) = object.iter().find_map(&pick) {
        return Some(t);
    }
    CURRENT.with(|c| match c.try_borrow() {
        Ok(c) => c.iter().find_map(&pick),
        Err(_) => None,
    })
}

/// Whether the calling thread or `object` overrides anything (a quick
/// test that spares the call path the lookups when nothing is set).
pub(crate) fn any_override(object: &[Policy]) -> bool {
    !object.is_empty() || CURRENT.with(|c| c.try_borrow().is_ok_and(|c| !c.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_overrides_win_over_thread_ones() {
        let object = [Policy::SyncScope(SyncScope::WithTarget)];
        let pick = |p: &Policy| match p {
            Policy::SyncScope(s) => Some(*s),
            _ => None,
        };
        assert_eq!(find(&[], pick), None);
        PolicyCurrent::with(&[Policy::SyncScope(SyncScope::None)], || {
            assert_eq!(find(&[], pick), Some(SyncScope::None));
            assert_eq!(find(&object, pick), Some(SyncScope::WithTarget));
            // Nested scopes add, and restore on exit.
            PolicyCurrent::with(&[Policy::SyncScope(SyncScope::WithServer)], || {
                assert_eq!(find(&[], pick), Some(SyncScope::WithServer));
            });
            assert_eq!(find(&[], pick), Some(SyncScope::None));
        });
        assert_eq!(find(&[], pick), None);
        assert!(!any_override(&[]));
    }

    #[test]
    fn set_replaces_and_add_merges() {
        let t = Policy::RelativeRoundtripTimeout(Duration::from_secs(1));
        let s = Policy::SyncScope(SyncScope::WithServer);
        PolicyCurrent::set_policy_overrides(std::slice::from_ref(&t), SetOverrideType::Set);
        PolicyCurrent::set_policy_overrides(std::slice::from_ref(&s), SetOverrideType::Add);
        assert_eq!(PolicyCurrent::policy_overrides(), [t.clone(), s.clone()]);
        PolicyCurrent::set_policy_overrides(std::slice::from_ref(&s), SetOverrideType::Set);
        assert_eq!(PolicyCurrent::policy_overrides(), [s]);
        PolicyCurrent::set_policy_overrides(&[], SetOverrideType::Set);
        assert!(PolicyCurrent::policy_overrides().is_empty());
    }

    #[test]
    fn protocol_preferences_rank_profiles() {
        let p = ClientProtocolPolicy::parse("uiop, iiop+lite").unwrap();
        assert_eq!(p.rank("uiop", FrameProtocol::Giop), Some(0));
        assert_eq!(p.rank("uiop", FrameProtocol::Lite), Some(0));
        assert_eq!(p.rank("IIOP", FrameProtocol::Lite), Some(1));
        assert_eq!(p.rank("iiop", FrameProtocol::Giop), None);
        let any = ClientProtocolPolicy::parse("iiop+giop,*").unwrap();
        assert_eq!(any.fallback, ProtocolFallback::AnyUsable);
        assert_eq!(any.rank("iiop", FrameProtocol::Giop), Some(0));
        assert_eq!(any.rank("uiop", FrameProtocol::Giop), Some(1));
        for bad in ["", "iiop+tls", "*,iiop", "ii op"] {
            assert_eq!(ClientProtocolPolicy::parse(bad), None, "{bad:?}");
        }
    }
}
