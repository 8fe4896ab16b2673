//! The exceptions of the POA and its manager as Rust errors, and the
//! system exceptions requests get from them.

use crate::minor::{
    BAD_INV_ORDER_WOULD_DEADLOCK, OBJECT_NOT_EXIST_NO_ADAPTER, OBJECT_NOT_EXIST_NOT_ACTIVE,
};
use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

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

pub(crate) fn no_adapter() -> SystemException {
    SystemException::new(
        SystemExceptionKind::ObjectNotExist,
        OBJECT_NOT_EXIST_NO_ADAPTER,
        CompletionStatus::No,
    )
}

pub(crate) fn not_active() -> SystemException {
    SystemException::new(
        SystemExceptionKind::ObjectNotExist,
        OBJECT_NOT_EXIST_NOT_ACTIVE,
        CompletionStatus::No,
    )
}

pub(crate) fn would_deadlock() -> SystemException {
    SystemException::new(
        SystemExceptionKind::BadInvOrder,
        BAD_INV_ORDER_WOULD_DEADLOCK,
        CompletionStatus::No,
    )
}

pub(crate) fn destroyed() -> PoaError {
    PoaError::System(no_adapter())
}
