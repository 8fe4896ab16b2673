//! # rtorb-rt: the Real-time CORBA layer of rtorb
//!
//! Real-time CORBA's priorities: CORBA priorities, the mappings onto this
//! host's scheduling policies, the priority of the calling thread, a mutex
//! with priority inheritance, a watchdog for real-time work, the CPUs
//! a thread may run on, what a real-time process sets up for itself
//! (memory locked, the CPUs' wake-up latency bounded), and the
//! descriptions of thread pools with lanes. Below them, [`sync`]: the
//! locks every part of rtorb takes, counted with the `lock-count` feature.
//!
//! It depends on the wire crates (`rtorb-cdr`, `rtorb-giop`) and on
//! nothing of the ORB; the ORB, `rtorb`, re-exports it as `rtorb::rt` (and
//! [`sync`] as `rtorb::sync`), the paths applications use.
//!
//! A [`Priority`] (`0..=32767`) is the same on every host and travels with
//! requests; a [`PriorityControl`] maps it onto a [`SchedPolicy`]
//! (SCHED_FIFO, SCHED_RR, or SCHED_OTHER's nice values) through a
//! [`PriorityMapping`] ([`DirectMapping`], [`LinearMapping`],
//! [`ContinuousMapping`], or the application's own) and applies it to the
//! calling thread; [`Current`] is `RTCORBA::Current` over it. Where the
//! system refuses real-time scheduling, rtorb says so once and follows
//! [`WhenDenied`].
//!
//! ```
//! use rtorb_giop::SystemException;
//! use rtorb_rt::{Current, MappingKind, Priority, PriorityControl, SchedPolicy, WhenDenied};
//!
//! // SCHED_FIFO where the process may use it (root, CAP_SYS_NICE or
//! // RLIMIT_RTPRIO), else the thread runs on under SCHED_OTHER.
//! let control = PriorityControl::new(SchedPolicy::Fifo, MappingKind::Linear, WhenDenied::RunAtOther);
//! let current = Current::new(control);
//! std::thread::spawn(move || {
//!     current.set_priority(Priority::MIN)?;
//!     assert_eq!(current.priority()?, Priority::MIN);
//!     Ok::<(), SystemException>(())
//! })
//! .join()
//! .unwrap()?;
//! # Ok::<(), SystemException>(())
//! ```
//!
//! The system calls are in one small module (`native`), and the mutex's in
//! another; no other module has `unsafe` code.

mod affinity;
mod control;
mod mapping;
mod mutex;
mod native;
mod policy;
mod priority;
mod realtime_process;
pub mod sync;
mod threadpool;
mod watchdog;

pub use affinity::{AffinityError, available_cpus, set_thread_affinity, thread_affinity};
pub use control::{
    Current, PriorityControl, SchedulingError, UnknownWhenDenied, WhenDenied, thread_priority,
};
pub use mapping::{
    ContinuousMapping, DirectMapping, LinearMapping, MappingKind, NativeRange, PriorityMapping,
    UnknownPriorityMapping, UnknownSchedPolicy,
};
pub use mutex::{PriorityInheritanceGuard, PriorityInheritanceMutex};
pub use native::SchedPolicy;
pub use policy::{
    ExposedPolicies, PriorityModelPolicy, lane_priority_component, lane_priority_of,
    priority_context,
};
pub use priority::{NativePriority, Priority, PriorityError};
pub use realtime_process::{CPU_DMA_LATENCY, CpuLatencyBound, RealtimeProcessError, lock_memory};
pub use threadpool::{
    BadLane, BadLaneBuffering, BadLaneCpus, DEFAULT_DYNAMIC_THREAD_IDLE,
    DEFAULT_LANE_BUFFERED_REQUESTS, LaneBuffering, LaneConfig, LaneCpus, LaneId, LaneStats,
    ThreadpoolConfig, ThreadpoolId,
};
pub use watchdog::{Watchdog, WatchdogExpired, realtime_revoked};
