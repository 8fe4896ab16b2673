//! The work of each stage as a command object ([`Command`]), which a
//! dispatching thread runs (as the paper's §4 has it): a supplier's push
//! becomes a `Filter` command, each filter the event passes a
//! `Correlate` command, each delivery a `Dispatch` command. Each command
//! carries the priority it runs at, so that a queue per priority can
//! hold it until a thread of that priority takes it.

use crate::idl::rtorb_event::{
    ANY_SOURCE, CriticalityLevel, DEADLINE_TIMEOUT, EventHeader, INTERVAL_TIMEOUT, TimeT,
};

use super::filter::Match;
use super::qos::{ConsumerId, SupplierId};

/// A dispatching priority: 0 lowest, [`Priority::HIGHEST`] highest.
/// The channel maps each to a priority of `rtorb`'s lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Priority(pub u8);

impl Priority {
    /// The highest priority, that of `VERY_HIGH` criticality.
    pub const HIGHEST: Priority = Priority(4);
    /// How many priorities there are.
    pub const LEVELS: usize = 5;

    /// The priority of work of `criticality`.
    pub fn of(criticality: CriticalityLevel) -> Priority {
        Priority(match criticality {
            CriticalityLevel::VeryLow => 0,
            CriticalityLevel::Low => 1,
            CriticalityLevel::Medium => 2,
            CriticalityLevel::High => 3,
            CriticalityLevel::VeryHigh => 4,
        })
    }
}

/// Why a consumer receives a timeout event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeoutCause {
    /// An interval timeout it asked for.
    Interval,
    /// A deadline timeout it asked for.
    Deadline,
    /// The deadline of its conjunction `group` passed before the set was
    /// complete; what the group held is dropped.
    Watchdog {
        /// The group.
        group: u16,
    },
}

impl TimeoutCause {
    /// The header of the timeout event a consumer receives for a timer
    /// of this cause that expired at `deadline`.
    pub fn header(self, deadline: TimeT) -> EventHeader {
        EventHeader {
            r#type: match self {
                TimeoutCause::Interval => INTERVAL_TIMEOUT,
                TimeoutCause::Deadline | TimeoutCause::Watchdog { .. } => DEADLINE_TIMEOUT,
            },
            source: ANY_SOURCE,
            ttl: 0,
            creation_time: deadline,
        }
    }
}

/// What a consumer is given.
#[derive(Debug, Clone, PartialEq)]
pub enum Delivery<E> {
    /// An event that passed a filter of a disjunction.
    Event(E),
    /// The set that completed a conjunction, an event per filter in the
    /// order of the group's filters.
    Set {
        /// The group.
        group: u16,
        /// The events.
        events: Vec<E>,
    },
    /// A timeout event.
    Timeout {
        /// Why.
        cause: TimeoutCause,
        /// Its header: the type `INTERVAL_TIMEOUT` or
        /// `DEADLINE_TIMEOUT`, the source `ANY_SOURCE`, created at the
        /// deadline that passed.
        header: EventHeader,
    },
}

/// A stage's work, to be run by a dispatching thread.
#[derive(Debug, Clone, PartialEq)]
pub enum Command<E> {
    /// Find the consumers whose filters an event from `supplier` passes.
    Filter {
        /// Who pushed it.
        supplier: SupplierId,
        /// The event.
        event: E,
        /// The priority to filter it at (the supplier's).
        priority: Priority,
    },
    /// Correlate an event that passed the filter `at`.
    Correlate {
        /// The filter it passed.
        at: Match,
        /// The event.
        event: E,
        /// The consumer's priority.
        priority: Priority,
    },
    /// Deliver to a consumer.
    Dispatch {
        /// The consumer.
        consumer: ConsumerId,
        /// What it is given.
        delivery: Delivery<E>,
        /// The consumer's priority.
        priority: Priority,
    },
}

impl<E> Command<E> {
    /// The priority the command runs at.
    pub fn priority(&self) -> Priority {
        match self {
            Command::Filter { priority, .. }
            | Command::Correlate { priority, .. }
            | Command::Dispatch { priority, .. } => *priority,
        }
    }

    /// The consumer the command works for, if it is one consumer's.
    pub fn consumer(&self) -> Option<ConsumerId> {
        match self {
            Command::Filter { .. } => None,
            Command::Correlate { at, .. } => Some(at.consumer),
            Command::Dispatch { consumer, .. } => Some(*consumer),
        }
    }
}
