//! The real-time event channel's core, with no ORB, thread, clock or
//! socket in it: the stages of the paper "Patterns and Performance of
//! DRE Publisher/Subscriber Architectures" (§3, §4) as plain data and
//! functions, which the channel's servants and dispatching threads will
//! drive.
//!
//! Its data are those of `idl/RtorbEvent.idl` ([`rtorb_event`]): an
//! event's header and payload; a consumer's QoS (groups of filters, OR or
//! AND, with masks, timeouts and dependency information); a supplier's
//! publications. Times are `TimeT`s given by the caller.
//!
//! A supplier's event becomes a `Filter` [`Command`]; filtering makes a
//! `Correlate` command for each filter the event passes; correlation
//! makes a `Dispatch` command for each delivery; timers make `Dispatch`
//! commands of timeout events. Commands wait in [`PriorityQueues`] for a
//! thread of their priority.
//!
//! # Modules
//!
//! Each uses only those of the rows below its own.
//!
//! ```text
//! stages          Stages: connect/disconnect, run a command, expire timers
//!  |
//! dispatch_queue  a bounded queue of commands per priority
//!  |
//! commands        Command (filter, correlate, dispatch), Priority, Delivery
//!  |
//! publications    supplier-based filtering: who can hear a supplier
//! correlation     AND/OR over the events that passed a consumer's filters
//! timers          a heap of interval, deadline and watchdog timers
//!  |
//! filter          the subscriptions indexed by masks: event → filters passed
//!  |
//! qos             ids, normalised filters, the QoS limits and their check
//! ```
//!
//! [`rtorb_event`]: crate::rtorb_event

mod commands;
mod correlation;
mod dispatch_queue;
mod filter;
mod publications;
mod qos;
mod stages;
mod timers;

pub use commands::{Command, Delivery, Priority, TimeoutCause};
pub use correlation::{Correlated, CorrelationCounts, Correlator};
pub use dispatch_queue::{CommandQueue, PriorityQueues, Pushed};
pub use filter::{Match, SubscriptionIndex};
pub use publications::Publications;
pub use qos::{
    ConsumerId, MAX_CONJUNCTION_FILTERS, MaskedFilter, QosError, QosLimits, Routed, SupplierId,
    check_consumer_qos, check_supplier_qos,
};
pub use stages::{ConnectError, StageCounts, Stages};
pub use timers::{Expired, MAX_TIMER_CAPACITY, TimerError, TimerId, TimerQueue};
