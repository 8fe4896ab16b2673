//! CORBA priorities and native priorities.
//!
//! A [`Priority`] is Real-time CORBA's `RTCORBA::Priority`: one scale,
//! `0` (least urgent) to `32767` (most urgent), the same on every host, so
//! that it can travel with a request and be published in a reference. A
//! [`NativePriority`] (`RTCORBA::NativePriority`) is what one host's
//! scheduler knows: a SCHED_FIFO priority, or a nice value under
//! SCHED_OTHER (see [`SchedPolicy`](super::SchedPolicy)). A
//! [`PriorityMapping`](super::PriorityMapping) converts between the two.

use std::fmt;
use std::str::FromStr;

use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind, minor};

/// A CORBA priority (`RTCORBA::Priority`): `0..=32767`, larger is more
/// urgent.
///
/// ```
/// use rtorb_rt::{Priority, PriorityError};
///
/// let high = Priority::new(30_000)?;
/// assert!(high > Priority::MIN);
/// assert_eq!(high.get(), 30_000);
/// assert_eq!(Priority::new(-1), Err(PriorityError::OutOfRange(-1)));
/// assert_eq!("120".parse::<Priority>()?, Priority::new(120)?);
/// # Ok::<(), rtorb_rt::PriorityError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Priority(i16);

impl Priority {
    /// `RTCORBA::minPriority`, 0.
    pub const MIN: Priority = Priority(0);
    /// `RTCORBA::maxPriority`, 32767.
    pub const MAX: Priority = Priority(i16::MAX);

    /// The priority `value`; [`PriorityError::OutOfRange`] if it is
    /// negative.
    pub const fn new(value: i16) -> Result<Priority, PriorityError> {
        if value < 0 {
            Err(PriorityError::OutOfRange(value as i32))
        } else {
            Ok(Priority(value))
        }
    }

    /// The priority as the `short` that goes on the wire.
    pub const fn get(self) -> i16 {
        self.0
    }
}

impl TryFrom<i16> for Priority {
    type Error = PriorityError;

    fn try_from(value: i16) -> Result<Priority, PriorityError> {
        Priority::new(value)
    }
}

impl TryFrom<i32> for Priority {
    type Error = PriorityError;

    fn try_from(value: i32) -> Result<Priority, PriorityError> {
        i16::try_from(value)
            .map_err(|_| PriorityError::OutOfRange(value))
            .and_then(Priority::new)
    }
}

impl From<Priority> for i16 {
    fn from(p: Priority) -> i16 {
        p.0
    }
}

impl fmt::Display for Priority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl FromStr for Priority {
    type Err = PriorityError;

    fn from_str(s: &str) -> Result<Priority, PriorityError> {
        let value: i64 = s
            .trim()
            .parse()
            .map_err(|_| PriorityError::NotANumber(s.to_owned()))?;
        let value = i32::try_from(value).unwrap_or(if value < 0 { i32::MIN } else { i32::MAX });
        Priority::try_from(value)
    }
}

/// A native priority (`RTCORBA::NativePriority`): a priority of this
/// host's scheduler, in the range of a [`SchedPolicy`](super::SchedPolicy)
/// (larger is more urgent in every policy rtorb maps onto).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NativePriority(i16);

impl NativePriority {
    /// The native priority `value`.
    pub const fn new(value: i16) -> NativePriority {
        NativePriority(value)
    }

    /// The value.
    pub const fn get(self) -> i16 {
        self.0
    }
}

impl fmt::Display for NativePriority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// What went wrong with a priority.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PriorityError {
    /// A CORBA priority outside `0..=32767` (Real-time CORBA: `BAD_PARAM`).
    #[error("CORBA priority {0} is outside 0..=32767")]
    OutOfRange(i32),
    /// Text that is not a number.
    #[error("{0:?} is not a CORBA priority (a number in 0..=32767)")]
    NotANumber(String),
    /// The mapping has no native priority for the CORBA priority
    /// (Real-time CORBA: `DATA_CONVERSION`).
    #[error("the {mapping} priority mapping has no native priority for CORBA priority {priority}")]
    NotMappable {
        /// The CORBA priority.
        priority: Priority,
        /// The mapping's name.
        mapping: String,
    },
    /// The mapping has no CORBA priority for the native priority
    /// (Real-time CORBA: `DATA_CONVERSION`).
    #[error("the {mapping} priority mapping has no CORBA priority for native priority {native}")]
    NativeNotMappable {
        /// The native priority.
        native: NativePriority,
        /// The mapping's name.
        mapping: String,
    },
}

impl PriorityError {
    /// The system exception Real-time CORBA names for it: `BAD_PARAM` for a
    /// priority out of range, `DATA_CONVERSION` (OMG minor 2) for one the
    /// mapping cannot convert.
    pub fn to_system_exception(&self) -> SystemException {
        let (kind, code) = match self {
            PriorityError::OutOfRange(_) | PriorityError::NotANumber(_) => (
                SystemExceptionKind::BadParam,
                minor::BAD_PARAM_PRIORITY_OUT_OF_RANGE,
            ),
            PriorityError::NotMappable { .. } | PriorityError::NativeNotMappable { .. } => (
                SystemExceptionKind::DataConversion,
                minor::DATA_CONVERSION_PRIORITY_MAPPING,
            ),
        };
        SystemException::new(kind, code, CompletionStatus::No).with_detail(self)
    }
}

impl From<PriorityError> for SystemException {
    fn from(e: PriorityError) -> SystemException {
        e.to_system_exception()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_is_zero_to_32767() {
        assert_eq!(Priority::new(0), Ok(Priority::MIN));
        assert_eq!(Priority::new(32767), Ok(Priority::MAX));
        assert_eq!(Priority::new(-1), Err(PriorityError::OutOfRange(-1)));
        assert_eq!(
            Priority::try_from(40_000),
            Err(PriorityError::OutOfRange(40_000))
        );
        assert_eq!(
            "99999999999".parse::<Priority>(),
            Err(PriorityError::OutOfRange(i32::MAX))
        );
        assert!(matches!(
            "high".parse::<Priority>(),
            Err(PriorityError::NotANumber(_))
        ));
    }

    #[test]
    fn errors_become_the_exceptions_real_time_corba_names() {
        let e = PriorityError::OutOfRange(-5).to_system_exception();
        assert_eq!(e.kind(), Some(SystemExceptionKind::BadParam));
        assert_eq!(e.minor, minor::BAD_PARAM_PRIORITY_OUT_OF_RANGE);
        let e = SystemException::from(PriorityError::NotMappable {
            priority: Priority::MAX,
            mapping: "direct".into(),
        });
        assert_eq!(e.kind(), Some(SystemExceptionKind::DataConversion));
        assert_eq!(e.minor, rtorb_cdr::OMG_VMCID | 2);
        assert!(e.detail().unwrap().contains("32767"), "{e}");
    }
}
