//! The exceptions of the POA and its manager as Rust errors, and the
//! system exceptions requests get from them.

use rtorb_cdr::{OMG_VMCID, RTORB_VMCID};
use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

/// `OBJ_ADAPTER` minor code of a request to a POA whose manager is
/// inactive (OMG minor 1, as other ORBs answer it).
pub const OBJ_ADAPTER_INACTIVE: u32 = OMG_VMCID | 1;
/// `OBJ_ADAPTER` minor code: the POA has `USE_DEFAULT_SERVANT` and no
/// default servant (OMG minor 3).
pub const OBJ_ADAPTER_NO_DEFAULT_SERVANT: u32 = OMG_VMCID | 3;
/// `OBJ_ADAPTER` minor code: the POA has `USE_SERVANT_MANAGER` and no
/// servant manager, or one of the wrong kind (OMG minor 4).
pub const OBJ_ADAPTER_NO_SERVANT_MANAGER: u32 = OMG_VMCID | 4;
/// `TRANSIENT` minor code of a request discarded by a POA manager in the
/// discarding state, or because its hold queue is full (OMG minor 1).
pub const TRANSIENT_DISCARDED: u32 = OMG_VMCID | 1;
/// `TRANSIENT` minor code of a request held by a manager when the ORB
/// shut down (rtorb).
pub const TRANSIENT_SHUTTING_DOWN: u32 = RTORB_VMCID | 0x320;
/// `OBJECT_NOT_EXIST` minor code: no POA for the key (destroyed, from an
/// earlier ORB instance, or never made) (OMG minor 2).
pub const OBJECT_NOT_EXIST_NO_ADAPTER: u32 = OMG_VMCID | 2;
/// `OBJECT_NOT_EXIST` minor code: the POA has no object under the key's
/// id (rtorb).
pub const OBJECT_NOT_EXIST_NOT_ACTIVE: u32 = RTORB_VMCID | 0x321;
/// `BAD_INV_ORDER` minor code: the operation would wait for the request
/// that calls it to complete (OMG minor 3, "would deadlock").
pub const BAD_INV_ORDER_WOULD_DEADLOCK: u32 = OMG_VMCID | 3;
/// `BAD_INV_ORDER` minor code: a servant manager is already set (OMG
/// minor 6).
pub const BAD_INV_ORDER_SERVANT_MANAGER_SET: u32 = OMG_VMCID | 6;
/// `BAD_PARAM` minor code: an object id this POA did not assign given to
/// a `SYSTEM_ID` POA (OMG minor 14).
pub const BAD_PARAM_FOREIGN_ID: u32 = OMG_VMCID | 14;
/// `BAD_PARAM` minor code: an object id this `SYSTEM_ID` POA assigned
/// once, whose slot went to another object after it was deactivated: it
/// can no longer be activated (references to it stay `OBJECT_NOT_EXIST`)
/// (rtorb).
pub const BAD_PARAM_STALE_ID: u32 = RTORB_VMCID | 0x323;

/// An exception of a `PortableServer::POA` operation.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PoaError {
    /// `AdapterAlreadyExists`: the parent already has a child of that name.
    #[error("a POA of that name already exists")]
    AdapterAlreadyExists,
    /// `AdapterNonExistent`: no child of that name (and no adapter
    /// activator made one).
    #[error("no POA of that name")]
    AdapterNonExistent,
    /// `InvalidPolicy`: the policy at `index` cannot be used, alone or
    /// with the others.
    #[error("invalid policy at index {index}")]
    InvalidPolicy {
        /// Index of the offending policy in the list given.
        index: u16,
    },
    /// `NoServant`: no default servant is set.
    #[error("no default servant")]
    NoServant,
    /// `ObjectAlreadyActive`: the id is active already.
    #[error("object already active")]
    ObjectAlreadyActive,
    /// `ObjectNotActive`: the id is not active.
    #[error("object not active")]
    ObjectNotActive,
    /// `ServantAlreadyActive`: with `UNIQUE_ID`, the servant is active
    /// under another id.
    #[error("servant already active")]
    ServantAlreadyActive,
    /// `ServantNotActive`: the servant is not active (and is not
    /// activated implicitly).
    #[error("servant not active")]
    ServantNotActive,
    /// `WrongAdapter`: the reference was not made by this POA.
    #[error("reference not made by this POA")]
    WrongAdapter,
    /// `PortableServer::Current::NoContext`: the calling thread runs no
    /// request of a POA object.
    #[error("the thread runs no request of a POA object (NoContext)")]
    NoContext,
    /// `WrongPolicy`: the POA's policies do not allow the operation.
    #[error("the POA's policies do not allow this operation")]
    WrongPolicy,
    /// `POAManager::AdapterInactive`: the manager is inactive, and stays
    /// so.
    #[error("the POA manager is inactive")]
    AdapterInactive,
    /// A system exception: `OBJECT_NOT_EXIST` on a destroyed POA,
    /// `BAD_INV_ORDER`, `BAD_PARAM`, `OBJ_ADAPTER`.
    #[error("{0}")]
    System(SystemException),
}

impl From<SystemException> for PoaError {
    fn from(e: SystemException) -> PoaError {
        PoaError::System(e)
    }
}

pub(crate) fn system(kind: SystemExceptionKind, minor: u32) -> SystemException {
    SystemException::new(kind, minor, CompletionStatus::No)
}

pub(crate) fn no_adapter() -> SystemException {
    system(
        SystemExceptionKind::ObjectNotExist,
        OBJECT_NOT_EXIST_NO_ADAPTER,
    )
}

pub(crate) fn not_active() -> SystemException {
    system(
        SystemExceptionKind::ObjectNotExist,
        OBJECT_NOT_EXIST_NOT_ACTIVE,
    )
}

pub(crate) fn would_deadlock() -> SystemException {
    system(
        SystemExceptionKind::BadInvOrder,
        BAD_INV_ORDER_WOULD_DEADLOCK,
    )
}

pub(crate) fn destroyed() -> PoaError {
    PoaError::System(no_adapter())
}
