//! The kernel's scheduler tick, and where C0's slots fall against it.
//!
//! A Linux kernel without `nohz_full` interrupts every CPU that is not
//! idle once per tick (1/HZ s: 4 ms at HZ=250) and, on that interrupt,
//! does its own bookkeeping before the interrupted thread goes on: the
//! scheduler's load balancing (the SCHED softirq), RCU, expired
//! timer-wheel timers. On a virtual machine each of those interrupts is
//! also a trip through the hypervisor. A call that the tick lands in
//! takes that much longer, whatever its thread's priority.
//!
//! The ticks fall at fixed times on `CLOCK_MONOTONIC`: every tick period,
//! at a phase that on current kernels is 0 (the tick is aligned to a
//! multiple of its period) unless `skew_tick=1` moves it per CPU. C0's
//! slots are periodic too, so where the first slot falls against the
//! ticks decides whether the tick lands in the same one of C0's calls in
//! every tick period (at 2000 Hz and HZ=250, one call in eight), or in
//! none. Left to chance, that phase adds the tick's interrupt (several µs
//! on a virtual machine) to one call in eight of C0's at some points and
//! to none at others. So the benchmark chooses it
//! ([`TickPhase`]): by default C0's slots fall as far from the ticks as
//! they can, half the greatest common divisor of C0's period and the
//! tick period; a number of µs puts a tick that long after one of C0's
//! slots (a few µs: inside its call, the worst case); `any` leaves it to
//! the start.
//!
//! The tick period is the resolution of `CLOCK_MONOTONIC_COARSE`, which
//! advances once per tick. Its phase is read from `/proc/timer_list` (the
//! expiry of the tick's timer on C0's CPU, readable by root); where that
//! cannot be read, the phase is taken to be 0 and the results say so.

use rustix::time::{ClockId, clock_getres};
use serde::Serialize;

use super::schedule::{RateSet, SlotPhase};

/// Where C0's slots fall against the kernel's ticks: `between`, `any`,
/// or a number of µs (`--tick-phase 10`: a tick 10 µs after one of C0's
/// slots).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TickPhase {
    /// As far from every tick as C0's period allows.
    Between,
    /// A tick this many ns after one of C0's slots, in every tick period
    /// (or every few): a few µs lands it inside C0's call, the worst case.
    After(u64),
    /// Wherever the start falls: the phase changes from point to point.
    Any,
}

impl std::str::FromStr for TickPhase {
    type Err = String;

    fn from_str(s: &str) -> Result<TickPhase, String> {
        match s {
            "between" => Ok(TickPhase::Between),
            "any" => Ok(TickPhase::Any),
            us => us
                .parse::<u64>()
                .ok()
                .filter(|us| *us <= 1_000_000)
                .map(|us| TickPhase::After(us * 1000))
                .ok_or_else(|| {
                    format!(
                        "{us:?}: `between`, `any`, or the µs (0 to 1000000) from one of C0's \
                         slots to a tick"
                    )
                }),
        }
    }
}

impl std::fmt::Display for TickPhase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TickPhase::Between => f.write_str("between"),
            TickPhase::Any => f.write_str("any"),
            TickPhase::After(ns) => write!(f, "{}", ns / 1000),
        }
    }
}

impl Serialize for TickPhase {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The ticks of one CPU: every `period_ns` on `CLOCK_MONOTONIC`, at
/// times congruent to `phase_ns`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct TickGrid {
    /// The tick period, ns (1/HZ s).
    pub(crate) period_ns: u64,
    /// A tick falls at every time that is `phase_ns` modulo the period.
    pub(crate) phase_ns: u64,
    /// Whether the phase was read from `/proc/timer_list` (otherwise it
    /// is taken to be 0).
    pub(crate) phase_read: bool,
}

/// Where `/proc/timer_list` is.
const TIMER_LIST: &str = "/proc/timer_list";

impl TickGrid {
    /// The ticks of `cpu` on this machine: the period from the resolution
    /// of `CLOCK_MONOTONIC_COARSE`, the phase from `/proc/timer_list`
    /// where it can be read.
    pub(crate) fn of_cpu(cpu: Option<usize>) -> TickGrid {
        let res = clock_getres(ClockId::MonotonicCoarse);
        let period_ns = (res.tv_sec as u64)
            .saturating_mul(1_000_000_000)
            .saturating_add(res.tv_nsec as u64)
            .max(1);
        let read = std::fs::read_to_string(TIMER_LIST)
            .ok()
            .and_then(|text| tick_expiry(&text, cpu));
        TickGrid {
            period_ns,
            phase_ns: read.map_or(0, |at| at % period_ns),
            phase_read: read.is_some(),
        }
    }

    /// Where slots `period_ns` apart start, for `phase`.
    pub(crate) fn slots(&self, phase: TickPhase, period_ns: u64) -> SlotPhase {
        match phase {
            TickPhase::Any => SlotPhase::ANY,
            TickPhase::After(ns) => SlotPhase {
                grid_ns: self.period_ns,
                // A slot `ns` before a tick.
                at_ns: (self.phase_ns + self.period_ns - ns % self.period_ns) % self.period_ns,
            },
            TickPhase::Between => SlotPhase {
                grid_ns: self.period_ns,
                at_ns: (self.phase_ns + gcd(period_ns, self.period_ns) / 2) % self.period_ns,
            },
        }
    }

    /// How far the nearest tick is from any slot of a thread whose slots
    /// are `period_ns` apart and start at `slots`, ns (`None` when the
    /// start is left to chance).
    pub(crate) fn clearance_ns(&self, slots: SlotPhase, period_ns: u64) -> Option<u64> {
        if slots == SlotPhase::ANY {
            return None;
        }
        // The slots fall at (at - phase) + k * period modulo the tick
        // period: at every multiple of g from (at - phase) mod g.
        let g = gcd(period_ns, self.period_ns);
        let offset = (slots.at_ns + self.period_ns - self.phase_ns % self.period_ns) % g;
        Some(offset.min(g - offset))
    }

    /// How the results describe the grid.
    pub(crate) fn describe(&self) -> String {
        format!(
            "the kernel's tick every {} µs on CLOCK_MONOTONIC, at {} µs past a multiple of it ({})",
            self.period_ns / 1000,
            self.phase_ns / 1000,
            if self.phase_read {
                "read from /proc/timer_list"
            } else {
                "assumed: /proc/timer_list not readable"
            }
        )
    }
}

/// Where a run puts C0's slots against the ticks, as its results say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct TickPlan {
    /// Where C0's slots fall against the ticks.
    pub(crate) phase: TickPhase,
    /// The ticks of C0's CPU.
    pub(crate) grid: TickGrid,
}

impl TickPlan {
    /// Where the slots start at `rates`.
    pub(crate) fn slots(&self, rates: RateSet) -> SlotPhase {
        self.grid
            .slots(self.phase, super::schedule::period_ns(rates.high_hz()))
    }

    /// The line of the table's legend.
    pub(crate) fn describe(&self, rates: &[RateSet]) -> String {
        let placed = match self.phase {
            TickPhase::Any => {
                "C0's slots wherever each point's start fell (--tick-phase any)".to_owned()
            }
            TickPhase::After(ns) => format!(
                "a tick {} µs after one of C0's slots (--tick-phase {})",
                ns / 1000,
                self.phase
            ),
            TickPhase::Between => {
                let each: Vec<String> = rates
                    .iter()
                    .filter_map(|r| {
                        let period = super::schedule::period_ns(r.high_hz());
                        let clear = self.grid.clearance_ns(self.slots(*r), period)?;
                        Some(format!(
                            "{} µs from a tick at the {} rates",
                            clear / 1000,
                            r.name()
                        ))
                    })
                    .collect();
                format!(
                    "C0's slots between ticks (--tick-phase between): every slot at least {}",
                    each.join(", ")
                )
            }
        };
        format!("slots: {}; {placed}.", self.grid.describe())
    }
}

/// The greatest common divisor (`gcd(0, b) = b`).
fn gcd(mut a: u64, mut b: u64) -> u64 {
    while a != 0 {
        (a, b) = (b % a, a);
    }
    b
}

/// The expiry, ns on `CLOCK_MONOTONIC`, of the tick's timer of `cpu`
/// (the first CPU listed when `None`) in the text of `/proc/timer_list`.
fn tick_expiry(text: &str, cpu: Option<usize>) -> Option<u64> {
    let mut in_cpu = false;
    let mut tick_next = false;
    for line in text.lines() {
        let line = line.trim();
        if let Some(n) = line.strip_prefix("cpu:") {
            in_cpu = match (cpu, n.trim().parse::<usize>()) {
                (None, Ok(_)) => true,
                (Some(want), Ok(n)) => want == n,
                (_, Err(_)) => false,
            };
            tick_next = false;
            continue;
        }
        if !in_cpu {
            continue;
        }
        if tick_next {
            // " # expires at SOFT-HARD nsecs [in ...]"
            let at = line.strip_prefix("# expires at ")?;
            let soft = at.split(['-', ' ']).next()?;
            return soft.parse().ok();
        }
        // The tick's timer: `tick_nohz_handler` since Linux 6.9,
        // `tick_sched_timer` before.
        tick_next = line.starts_with('#')
            && (line.contains(", tick_nohz_handler,") || line.contains(", tick_sched_timer,"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The opening of a `/proc/timer_list` of two CPUs (Linux 6.18).
    const TIMER_LIST_TWO_CPUS: &str = "\
Timer List Version: v0.10
HRTIMER_MAX_CLOCK_BASES: 8
now at 49530931192086 nsecs

cpu: 0
 clock 0:
  .base:       00000000293d0285
  .index:      0
  .resolution: 1 nsecs
  .offset:     0 nsecs
active timers:
 #0: <000000005fff5ab4>, tick_nohz_handler, S:01
 # expires at 49530932000000-49530932000000 nsecs [in 807914 to 807914 nsecs]
 #1: <0000000063a97c50>, hrtimer_wakeup, S:01
 # expires at 49531188055158-49531188105158 nsecs [in 256863072 to 256913072 nsecs]
 clock 1:
active timers:

cpu: 1
 clock 0:
  .base:       00000000293d0285
active timers:
 #0: <0000000063a97c51>, hrtimer_wakeup, S:01
 # expires at 49530931500000-49530931550000 nsecs [in 1000 to 2000 nsecs]
 #1: <0000000035d5a64b>, tick_sched_timer, S:01
 # expires at 49530936001000-49530936001000 nsecs [in 4807914 to 4807914 nsecs]
";

    const GRID_4MS: TickGrid = TickGrid {
        period_ns: 4_000_000,
        phase_ns: 0,
        phase_read: true,
    };

    #[test]
    fn the_tick_timer_of_each_cpu_is_found() {
        assert_eq!(
            tick_expiry(TIMER_LIST_TWO_CPUS, Some(0)),
            Some(49_530_932_000_000)
        );
        assert_eq!(
            tick_expiry(TIMER_LIST_TWO_CPUS, Some(1)),
            Some(49_530_936_001_000)
        );
        assert_eq!(
            tick_expiry(TIMER_LIST_TWO_CPUS, None),
            Some(49_530_932_000_000)
        );
        assert_eq!(tick_expiry(TIMER_LIST_TWO_CPUS, Some(2)), None);
        assert_eq!(
            tick_expiry("cpu: 0\n #0: <1>, hrtimer_wakeup, S:01\n", Some(0)),
            None
        );
        assert_eq!(tick_expiry("", None), None);
        // A listing cut short after the tick's line.
        assert_eq!(
            tick_expiry("cpu: 0\n #0: <1>, tick_nohz_handler, S:01\n", Some(0)),
            None
        );
    }

    #[test]
    fn between_puts_every_slot_half_a_common_divisor_from_the_ticks() {
        // 2000 Hz against a 4 ms tick: every slot 250 µs from a tick.
        let slots = GRID_4MS.slots(TickPhase::Between, 500_000);
        assert_eq!(
            slots,
            SlotPhase {
                grid_ns: 4_000_000,
                at_ns: 250_000
            }
        );
        assert_eq!(GRID_4MS.clearance_ns(slots, 500_000), Some(250_000));
        // 20 Hz: slots 2 ms apart modulo the tick, so 1 ms from it.
        let slots = GRID_4MS.slots(TickPhase::Between, 50_000_000);
        assert_eq!(slots.at_ns, 1_000_000);
        assert_eq!(GRID_4MS.clearance_ns(slots, 50_000_000), Some(1_000_000));
        // A phase read from the kernel moves the slots with it.
        let skewed = TickGrid {
            phase_ns: 3_900_000,
            ..GRID_4MS
        };
        let slots = skewed.slots(TickPhase::Between, 500_000);
        assert_eq!(slots.at_ns, 150_000);
        assert_eq!(skewed.clearance_ns(slots, 500_000), Some(250_000));
    }

    #[test]
    fn after_puts_a_tick_that_long_after_a_slot() {
        let slots = GRID_4MS.slots(TickPhase::After(0), 500_000);
        assert_eq!((slots.grid_ns, slots.at_ns), (4_000_000, 0));
        assert_eq!(GRID_4MS.clearance_ns(slots, 500_000), Some(0));
        // A slot 10 µs before each tick.
        let slots = GRID_4MS.slots(TickPhase::After(10_000), 500_000);
        assert_eq!(slots.at_ns, 3_990_000);
        assert_eq!(GRID_4MS.clearance_ns(slots, 500_000), Some(10_000));
        let skewed = TickGrid {
            phase_ns: 1_234,
            ..GRID_4MS
        };
        assert_eq!(skewed.slots(TickPhase::After(0), 500_000).at_ns, 1_234);
        assert_eq!(
            skewed.slots(TickPhase::After(10_000), 500_000).at_ns,
            3_991_234
        );
    }

    #[test]
    fn phases_read_from_the_command_line() {
        assert_eq!("between".parse(), Ok(TickPhase::Between));
        assert_eq!("any".parse(), Ok(TickPhase::Any));
        assert_eq!("10".parse(), Ok(TickPhase::After(10_000)));
        assert_eq!("0".parse(), Ok(TickPhase::After(0)));
        for bad in ["on", "-1", "1000001", "", "10us"] {
            assert_eq!(
                bad.parse::<TickPhase>(),
                Err(format!(
                    "{bad:?}: `between`, `any`, or the µs (0 to 1000000) from one of C0's \
                     slots to a tick"
                ))
            );
        }
        for phase in [TickPhase::Between, TickPhase::Any, TickPhase::After(25_000)] {
            assert_eq!(phase.to_string().parse(), Ok(phase));
        }
        assert_eq!(
            serde_json::to_string(&TickPhase::After(10_000)).unwrap(),
            "\"10\""
        );
    }

    #[test]
    fn any_leaves_the_start_as_it_comes() {
        let slots = GRID_4MS.slots(TickPhase::Any, 500_000);
        assert_eq!(slots, SlotPhase::ANY);
        assert_eq!(slots.start_after(123_456_789), 123_456_789);
        assert_eq!(GRID_4MS.clearance_ns(slots, 500_000), None);
    }

    #[test]
    fn the_machine_has_a_tick_period() {
        let grid = TickGrid::of_cpu(None);
        assert!(grid.period_ns >= 1, "{grid:?}");
        assert!(grid.phase_ns < grid.period_ns, "{grid:?}");
    }

    #[test]
    fn gcd_of_periods() {
        assert_eq!(gcd(500_000, 4_000_000), 500_000);
        assert_eq!(gcd(50_000_000, 4_000_000), 2_000_000);
        assert_eq!(gcd(0, 7), 7);
        assert_eq!(gcd(7, 0), 7);
        assert_eq!(gcd(1_000_000, 3_333_333), 1);
    }
}
