//! The standard POA policies and the checks of their combinations.

use super::poa_error::PoaError;
use crate::rt::{PriorityModelPolicy, ThreadpoolId};

/// `LifespanPolicy`: whether references outlive the POA instance that
/// made them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LifespanPolicy {
    /// `TRANSIENT`: references are valid only while this POA (in this
    /// ORB instance) exists.
    #[default]
    Transient,
    /// `PERSISTENT`: references stay valid across POA and process
    /// instances that have the same POA path and endpoint.
    Persistent,
}

/// `IdUniquenessPolicy`: whether a servant may incarnate several objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum IdUniquenessPolicy {
    /// `UNIQUE_ID`: a servant is active under one id at most.
    #[default]
    UniqueId,
    /// `MULTIPLE_ID`: a servant may be active under several ids.
    MultipleId,
}

/// `IdAssignmentPolicy`: who chooses object ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum IdAssignmentPolicy {
    /// `SYSTEM_ID`: the POA does (and demultiplexes them directly).
    #[default]
    SystemId,
    /// `USER_ID`: the application does.
    UserId,
}

/// `ImplicitActivationPolicy`: whether `servant_to_id` and
/// `servant_to_reference` activate a servant that is not active.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ImplicitActivationPolicy {
    /// `IMPLICIT_ACTIVATION` (needs `SYSTEM_ID` and `RETAIN`).
    ImplicitActivation,
    /// `NO_IMPLICIT_ACTIVATION`.
    #[default]
    NoImplicitActivation,
}

/// `ServantRetentionPolicy`: whether the POA keeps an active object map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ServantRetentionPolicy {
    /// `RETAIN`: active objects are kept in the active object map.
    #[default]
    Retain,
    /// `NON_RETAIN`: every request finds its servant anew (default
    /// servant or servant locator).
    NonRetain,
}

/// `RequestProcessingPolicy`: where a request's servant comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RequestProcessingPolicy {
    /// `USE_ACTIVE_OBJECT_MAP_ONLY` (needs `RETAIN`).
    #[default]
    UseActiveObjectMapOnly,
    /// `USE_DEFAULT_SERVANT`: the default servant serves ids not in the
    /// active object map.
    UseDefaultServant,
    /// `USE_SERVANT_MANAGER`: a servant activator (with `RETAIN`) or a
    /// servant locator (with `NON_RETAIN`) finds servants.
    UseServantManager,
}

/// One policy object, as passed to [`super::Poa::create_poa`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Policy {
    /// A [`LifespanPolicy`].
    Lifespan(LifespanPolicy),
    /// An [`IdUniquenessPolicy`].
    IdUniqueness(IdUniquenessPolicy),
    /// An [`IdAssignmentPolicy`].
    IdAssignment(IdAssignmentPolicy),
    /// An [`ImplicitActivationPolicy`].
    ImplicitActivation(ImplicitActivationPolicy),
    /// A [`ServantRetentionPolicy`].
    ServantRetention(ServantRetentionPolicy),
    /// A [`RequestProcessingPolicy`].
    RequestProcessing(RequestProcessingPolicy),
    /// Real-time CORBA's `PriorityModelPolicy`: the priority the POA's
    /// requests run at, published in its references' `TAG_POLICIES`
    /// component.
    PriorityModel(PriorityModelPolicy),
    /// Real-time CORBA's `ThreadpoolPolicy`: the POA's objects are served
    /// by the lanes of this thread pool (see
    /// [`crate::orb::Orb::create_threadpool`]), each referenced through
    /// the endpoints of the lane its priority model selects.
    Threadpool(ThreadpoolId),
}

impl Policy {
    /// The CORBA `PolicyType` number of the policy (`LIFESPAN_POLICY_ID`
    /// is 17, ...).
    pub fn policy_type(&self) -> u32 {
        match self {
            Policy::IdUniqueness(_) => 18,
            Policy::IdAssignment(_) => 19,
            Policy::ImplicitActivation(_) => 20,
            Policy::Lifespan(_) => 17,
            Policy::ServantRetention(_) => 21,
            Policy::RequestProcessing(_) => 22,
            Policy::PriorityModel(_) => rtorb_giop::ior::tags::PRIORITY_MODEL_POLICY_TYPE,
            Policy::Threadpool(_) => rtorb_giop::ior::tags::THREADPOOL_POLICY_TYPE,
        }
    }

    /// Where the policy's type counts in [`Policies::from_list`]'s check
    /// for repeats.
    fn slot(&self) -> usize {
        match self {
            Policy::Lifespan(_) => 0,
            Policy::IdUniqueness(_) => 1,
            Policy::IdAssignment(_) => 2,
            Policy::ImplicitActivation(_) => 3,
            Policy::ServantRetention(_) => 4,
            Policy::RequestProcessing(_) => 5,
            Policy::PriorityModel(_) => 6,
            Policy::Threadpool(_) => 7,
        }
    }
}

/// The effective policies of a POA: the defaults of the specification
/// for every policy not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Policies {
    /// Lifespan.
    pub lifespan: LifespanPolicy,
    /// Id uniqueness.
    pub id_uniqueness: IdUniquenessPolicy,
    /// Id assignment.
    pub id_assignment: IdAssignmentPolicy,
    /// Implicit activation.
    pub implicit_activation: ImplicitActivationPolicy,
    /// Servant retention.
    pub servant_retention: ServantRetentionPolicy,
    /// Request processing.
    pub request_processing: RequestProcessingPolicy,
    /// The Real-time CORBA priority model, if the POA has one.
    pub priority_model: Option<PriorityModelPolicy>,
    /// The thread pool whose lanes serve the POA's objects, if any.
    pub threadpool: Option<ThreadpoolId>,
}

impl Policies {
    /// The Root POA's: `TRANSIENT`, `UNIQUE_ID`, `SYSTEM_ID`,
    /// `IMPLICIT_ACTIVATION`, `RETAIN`, `USE_ACTIVE_OBJECT_MAP_ONLY`.
    pub fn root() -> Policies {
        Policies {
            implicit_activation: ImplicitActivationPolicy::ImplicitActivation,
            ..Policies::default()
        }
    }

    /// The policies `list` sets over the defaults, checked:
    /// [`PoaError::InvalidPolicy`] with the index of the first policy that
    /// repeats a type or conflicts with the others (`NON_RETAIN` without
    /// `USE_DEFAULT_SERVANT` or `USE_SERVANT_MANAGER`,
    /// `USE_ACTIVE_OBJECT_MAP_ONLY` without `RETAIN`,
    /// `IMPLICIT_ACTIVATION` without `SYSTEM_ID` and `RETAIN`).
    pub fn from_list(list: &[Policy]) -> Result<Policies, PoaError> {
        let mut p = Policies::default();
        let mut seen = 0u32;
        // Where each policy type was given, to blame the right one.
        let mut at = [None::<usize>; 8];
        for (i, policy) in list.iter().enumerate() {
            let bit = policy.slot() as u32;
            if seen & (1 << bit) != 0 {
                return Err(PoaError::InvalidPolicy { index: index(i) });
            }
            seen |= 1 << bit;
            at[bit as usize] = Some(i);
            match *policy {
                Policy::Lifespan(v) => p.lifespan = v,
                Policy::IdUniqueness(v) => p.id_uniqueness = v,
                Policy::IdAssignment(v) => p.id_assignment = v,
                Policy::ImplicitActivation(v) => p.implicit_activation = v,
                Policy::ServantRetention(v) => p.servant_retention = v,
                Policy::RequestProcessing(v) => p.request_processing = v,
                Policy::PriorityModel(v) => p.priority_model = Some(v),
                Policy::Threadpool(v) => p.threadpool = Some(v),
            }
        }
        let blame = |bits: &[u32]| {
            let i = bits
                .iter()
                .filter_map(|b| at[*b as usize])
                .max()
                .unwrap_or(0);
            Err(PoaError::InvalidPolicy { index: index(i) })
        };
        // Bits: 0 lifespan, 1 uniqueness, 2 assignment, 3 implicit,
        // 4 retention, 5 processing.
        if p.servant_retention == ServantRetentionPolicy::NonRetain
            && p.request_processing == RequestProcessingPolicy::UseActiveObjectMapOnly
        {
            return blame(&[4, 5]);
        }
        if p.implicit_activation == ImplicitActivationPolicy::ImplicitActivation
            && (p.id_assignment != IdAssignmentPolicy::SystemId
                || p.servant_retention != ServantRetentionPolicy::Retain)
        {
            return blame(&[2, 3, 4]);
        }
        Ok(p)
    }

    /// Whether the POA keeps an active object map.
    pub fn retains(&self) -> bool {
        self.servant_retention == ServantRetentionPolicy::Retain
    }

    /// Whether the POA assigns ids.
    pub fn system_ids(&self) -> bool {
        self.id_assignment == IdAssignmentPolicy::SystemId
    }

    /// Whether the POA is persistent.
    pub fn persistent(&self) -> bool {
        self.lifespan == LifespanPolicy::Persistent
    }
}

fn index(i: usize) -> u16 {
    u16::try_from(i).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_root() {
        assert_eq!(Policies::from_list(&[]).unwrap(), Policies::default());
        assert_eq!(
            Policies::root().implicit_activation,
            ImplicitActivationPolicy::ImplicitActivation
        );
    }

    #[test]
    fn conflicts_name_the_offending_policy() {
        let e = Policies::from_list(&[
            Policy::Lifespan(LifespanPolicy::Persistent),
            Policy::ServantRetention(ServantRetentionPolicy::NonRetain),
        ]);
        assert_eq!(e, Err(PoaError::InvalidPolicy { index: 1 }));
        let e = Policies::from_list(&[
            Policy::ImplicitActivation(ImplicitActivationPolicy::ImplicitActivation),
            Policy::IdAssignment(IdAssignmentPolicy::UserId),
        ]);
        assert_eq!(e, Err(PoaError::InvalidPolicy { index: 1 }));
        let e = Policies::from_list(&[
            Policy::Lifespan(LifespanPolicy::Persistent),
            Policy::Lifespan(LifespanPolicy::Transient),
        ]);
        assert_eq!(e, Err(PoaError::InvalidPolicy { index: 1 }));
    }
}
