//! Priority mappings: CORBA priorities onto a scheduling policy's native
//! priorities and back.
//!
//! Real-time CORBA leaves the mapping to the ORB and the application; the
//! three built in are the ones TAO users configure with
//! `-ORBPriorityMapping`:
//!
//! - [`DirectMapping`]: the native priority *is* the CORBA priority, where
//!   the policy has it (SCHED_FIFO 1..=99: CORBA 1..=99).
//! - [`LinearMapping`]: the whole CORBA range spread evenly over the
//!   policy's range (CORBA 0 is the policy's least urgent priority, 32767
//!   its most urgent).
//! - [`ContinuousMapping`]: CORBA 0 is the least urgent native priority,
//!   CORBA 1 the next, and so on; CORBA priorities past the policy's most
//!   urgent have none.
//!
//! An application with its own rule implements [`PriorityMapping`].
//! Native priorities grow with urgency in every [`SchedPolicy`], including
//! SCHED_OTHER, whose native priority is the negated nice value.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use super::native::{self, SchedPolicy};
use super::priority::{NativePriority, Priority};

/// A name that is not a [`SchedPolicy`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a scheduling policy (SCHED_FIFO, SCHED_RR or SCHED_OTHER)")]
pub struct UnknownSchedPolicy(pub String);

impl FromStr for SchedPolicy {
    type Err = UnknownSchedPolicy;

    /// `SCHED_FIFO`, `SCHED_RR` or `SCHED_OTHER`, in any case, with or
    /// without the `SCHED_` prefix (`fifo`, `rr`, `other`).
    fn from_str(s: &str) -> Result<SchedPolicy, UnknownSchedPolicy> {
        let t = s.trim().to_ascii_lowercase();
        match t.strip_prefix("sched_").unwrap_or(&t) {
            "fifo" => Ok(SchedPolicy::Fifo),
            "rr" | "round-robin" => Ok(SchedPolicy::RoundRobin),
            "other" | "normal" => Ok(SchedPolicy::Other),
            _ => Err(UnknownSchedPolicy(s.to_owned())),
        }
    }
}

/// The native priorities of a policy, least urgent to most urgent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NativeRange {
    min: i16,
    max: i16,
}

impl NativeRange {
    /// The native priorities from `min` to `max`; `None` if `min > max`.
    pub const fn new(min: i16, max: i16) -> Option<NativeRange> {
        if min > max {
            None
        } else {
            Some(NativeRange { min, max })
        }
    }

    /// The range of `policy` on this host: SCHED_FIFO and SCHED_RR as the
    /// kernel reports them (1..=99 on Linux), SCHED_OTHER the negated nice
    /// values -19..=20.
    pub fn of(policy: SchedPolicy) -> NativeRange {
        match policy {
            SchedPolicy::Other => NativeRange { min: -19, max: 20 },
            _ => {
                let (min, max) = native::priority_range(policy);
                NativeRange { min, max }
            }
        }
    }

    /// The least urgent.
    pub const fn min(self) -> i16 {
        self.min
    }

    /// The most urgent.
    pub const fn max(self) -> i16 {
        self.max
    }

    /// Whether `native` is in the range.
    pub const fn contains(self, native: NativePriority) -> bool {
        self.min <= native.get() && native.get() <= self.max
    }
}

/// Converts CORBA priorities to native ones and back
/// (`RTCORBA::PriorityMapping`).
///
/// Both directions answer `None` where there is no priority on the other
/// side; the ORB then raises `DATA_CONVERSION` (OMG minor 2), as Real-time
/// CORBA says. `to_native(to_corba(n))` should give `n` back.
///
/// ```
/// use rtorb_rt::{NativePriority, Priority, PriorityMapping};
///
/// /// Two native priorities: urgent and not.
/// #[derive(Debug)]
/// struct TwoLevels;
///
/// impl PriorityMapping for TwoLevels {
///     fn to_native(&self, p: Priority) -> Option<NativePriority> {
///         Some(NativePriority::new(if p.get() >= 16_384 { 80 } else { 10 }))
///     }
///     fn to_corba(&self, n: NativePriority) -> Option<Priority> {
///         match n.get() {
///             80 => Priority::new(16_384).ok(),
///             10 => Some(Priority::MIN),
///             _ => None,
///         }
///     }
/// }
///
/// let m = TwoLevels;
/// assert_eq!(m.to_native(Priority::MAX), Some(NativePriority::new(80)));
/// assert_eq!(m.to_corba(NativePriority::new(42)), None);
/// ```
pub trait PriorityMapping: fmt::Debug + Send + Sync {
    /// The native priority for `priority`, if the mapping has one.
    fn to_native(&self, priority: Priority) -> Option<NativePriority>;

    /// The CORBA priority for `native`, if the mapping has one.
    fn to_corba(&self, native: NativePriority) -> Option<Priority>;

    /// A name for messages ("linear", "custom").
    fn name(&self) -> &str {
        "custom"
    }
}

/// The native priority is the CORBA priority, within the policy's range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DirectMapping {
    range: NativeRange,
}

impl DirectMapping {
    /// The direct mapping onto `range`.
    pub const fn new(range: NativeRange) -> DirectMapping {
        DirectMapping { range }
    }
}

impl PriorityMapping for DirectMapping {
    fn to_native(&self, priority: Priority) -> Option<NativePriority> {
        let n = NativePriority::new(priority.get());
        self.range.contains(n).then_some(n)
    }

    fn to_corba(&self, native: NativePriority) -> Option<Priority> {
        if !self.range.contains(native) {
            return None;
        }
        Priority::new(native.get()).ok()
    }

    fn name(&self) -> &str {
        "direct"
    }
}

/// The CORBA range spread evenly over the policy's: CORBA 0 is the least
/// urgent native priority, 32767 the most urgent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinearMapping {
    range: NativeRange,
}

impl LinearMapping {
    /// The linear mapping onto `range`.
    pub const fn new(range: NativeRange) -> LinearMapping {
        LinearMapping { range }
    }

    fn span(&self) -> i64 {
        i64::from(self.range.max) - i64::from(self.range.min)
    }
}

impl PriorityMapping for LinearMapping {
    fn to_native(&self, priority: Priority) -> Option<NativePriority> {
        let offset = self.span() * i64::from(priority.get()) / i64::from(Priority::MAX.get());
        let n = i64::from(self.range.min) + offset;
        i16::try_from(n).ok().map(NativePriority::new)
    }

    /// The least CORBA priority that maps onto `native`, so that
    /// `to_native(to_corba(n)) == n`.
    fn to_corba(&self, native: NativePriority) -> Option<Priority> {
        if !self.range.contains(native) {
            return None;
        }
        let span = self.span();
        if span == 0 {
            return Some(Priority::MIN);
        }
        let k = i64::from(native.get()) - i64::from(self.range.min);
        let p = (k * i64::from(Priority::MAX.get()) + span - 1) / span;
        i16::try_from(p).ok().and_then(|p| Priority::new(p).ok())
    }

    fn name(&self) -> &str {
        "linear"
    }
}

/// CORBA 0 is the least urgent native priority, each CORBA priority the
/// next native one; past the most urgent there is none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContinuousMapping {
    range: NativeRange,
}

impl ContinuousMapping {
    /// The continuous mapping onto `range`.
    pub const fn new(range: NativeRange) -> ContinuousMapping {
        ContinuousMapping { range }
    }
}

impl PriorityMapping for ContinuousMapping {
    fn to_native(&self, priority: Priority) -> Option<NativePriority> {
        let n = i32::from(self.range.min) + i32::from(priority.get());
        let n = NativePriority::new(i16::try_from(n).ok()?);
        self.range.contains(n).then_some(n)
    }

    fn to_corba(&self, native: NativePriority) -> Option<Priority> {
        if !self.range.contains(native) {
            return None;
        }
        let p = i32::from(native.get()) - i32::from(self.range.min);
        Priority::try_from(p).ok()
    }

    fn name(&self) -> &str {
        "continuous"
    }
}

/// The built-in mappings, by name (`-ORBPriorityMapping`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MappingKind {
    /// [`DirectMapping`].
    Direct,
    /// [`LinearMapping`], the default.
    #[default]
    Linear,
    /// [`ContinuousMapping`].
    Continuous,
}

impl MappingKind {
    /// The mapping of this kind onto `range`.
    pub fn onto(self, range: NativeRange) -> Arc<dyn PriorityMapping> {
        match self {
            MappingKind::Direct => Arc::new(DirectMapping::new(range)),
            MappingKind::Linear => Arc::new(LinearMapping::new(range)),
            MappingKind::Continuous => Arc::new(ContinuousMapping::new(range)),
        }
    }

    /// The name, as `-ORBPriorityMapping` takes it.
    pub const fn name(self) -> &'static str {
        match self {
            MappingKind::Direct => "direct",
            MappingKind::Linear => "linear",
            MappingKind::Continuous => "continuous",
        }
    }
}

impl fmt::Display for MappingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a [`MappingKind`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a priority mapping (direct, linear or continuous)")]
pub struct UnknownPriorityMapping(pub String);

impl FromStr for MappingKind {
    type Err = UnknownPriorityMapping;

    /// `direct`, `linear` or `continuous`, in any case.
    fn from_str(s: &str) -> Result<MappingKind, UnknownPriorityMapping> {
        match s.trim().to_ascii_lowercase().as_str() {
            "direct" => Ok(MappingKind::Direct),
            "linear" => Ok(MappingKind::Linear),
            "continuous" => Ok(MappingKind::Continuous),
            _ => Err(UnknownPriorityMapping(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIFO: NativeRange = NativeRange { min: 1, max: 99 };
    const NICE: NativeRange = NativeRange { min: -19, max: 20 };

    fn p(v: i16) -> Priority {
        Priority::new(v).unwrap()
    }

    fn n(v: i16) -> NativePriority {
        NativePriority::new(v)
    }

    #[test]
    fn direct_keeps_the_number_where_the_policy_has_it() {
        let m = DirectMapping::new(FIFO);
        assert_eq!(m.to_native(p(0)), None);
        assert_eq!(m.to_native(p(1)), Some(n(1)));
        assert_eq!(m.to_native(p(99)), Some(n(99)));
        assert_eq!(m.to_native(p(100)), None);
        assert_eq!(m.to_corba(n(42)), Some(p(42)));
        assert_eq!(m.to_corba(n(0)), None);
    }

    #[test]
    fn linear_spreads_the_whole_range() {
        let m = LinearMapping::new(FIFO);
        assert_eq!(m.to_native(Priority::MIN), Some(n(1)));
        assert_eq!(m.to_native(Priority::MAX), Some(n(99)));
        assert_eq!(m.to_native(p(16_384)), Some(n(50)));
        let nice = LinearMapping::new(NICE);
        assert_eq!(nice.to_native(Priority::MIN), Some(n(-19)));
        assert_eq!(nice.to_native(Priority::MAX), Some(n(20)));
        assert_eq!(m.to_corba(n(100)), None);
    }

    #[test]
    fn continuous_counts_up_from_the_least_urgent() {
        let m = ContinuousMapping::new(FIFO);
        assert_eq!(m.to_native(p(0)), Some(n(1)));
        assert_eq!(m.to_native(p(98)), Some(n(99)));
        assert_eq!(m.to_native(p(99)), None);
        assert_eq!(m.to_corba(n(99)), Some(p(98)));
        assert_eq!(m.to_corba(n(0)), None);
    }

    #[test]
    fn every_native_priority_comes_back_through_each_mapping() {
        for range in [FIFO, NICE, NativeRange { min: 5, max: 5 }] {
            for kind in [
                MappingKind::Direct,
                MappingKind::Linear,
                MappingKind::Continuous,
            ] {
                let m = kind.onto(range);
                for v in range.min()..=range.max() {
                    if let Some(c) = m.to_corba(n(v)) {
                        assert_eq!(m.to_native(c), Some(n(v)), "{kind} {range:?} {v}");
                    }
                }
            }
        }
    }

    #[test]
    fn linear_is_monotonic_over_every_corba_priority() {
        let m = LinearMapping::new(FIFO);
        let mut last = m.to_native(Priority::MIN).unwrap();
        for v in 1..=i16::MAX {
            let now = m.to_native(p(v)).unwrap();
            assert!(now >= last && FIFO.contains(now), "{v}");
            last = now;
        }
    }

    #[test]
    fn names_parse() {
        assert_eq!("SCHED_FIFO".parse(), Ok(SchedPolicy::Fifo));
        assert_eq!("rr".parse(), Ok(SchedPolicy::RoundRobin));
        assert_eq!("sched_other".parse(), Ok(SchedPolicy::Other));
        assert_eq!(
            "batch".parse::<SchedPolicy>(),
            Err(UnknownSchedPolicy("batch".to_owned()))
        );
        assert_eq!("Continuous".parse(), Ok(MappingKind::Continuous));
        assert_eq!(
            "log".parse::<MappingKind>(),
            Err(UnknownPriorityMapping("log".to_owned()))
        );
        assert_eq!(NativeRange::new(3, 2), None);
    }
}
