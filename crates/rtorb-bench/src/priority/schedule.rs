//! When each call of the priority benchmark is due: rate sets, and
//! periodic slots at absolute times on `CLOCK_MONOTONIC`.
//!
//! Every thread's slot `k` is due at `start + k * period`, with `start`
//! common to all threads, so that the phases of the high- and
//! low-priority threads are aligned (every low thread's slot falls on one
//! of the high thread's: the worst case). A thread waits for its slot
//! with `clock_nanosleep(TIMER_ABSTIME)`; a call whose slot is already
//! past is issued at once, and no slot is skipped. A call's deadline is
//! its next slot: a reply after it is a missed call.
//!
//! A missed call is the timer's rather than the calls' when the thread
//! woke late for its slot, or for an earlier slot whose lateness it still
//! carries, and every call since took no longer than the period: had the
//! thread woken on time, every reply would have met its deadline. A call
//! longer than the period makes the lateness that follows its own. Those
//! misses are counted apart ([`SlotLog::missed_late_wakeup`]), so that a
//! miss the system's timer caused is told from one the calls' latency
//! caused.

use clap::Args;
use rustix::thread::{ClockId, clock_nanosleep_absolute};
use rustix::time::{Timespec, clock_gettime};
use serde::{Deserialize, Serialize};

/// The rates of the high- and low-priority threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum RateSet {
    /// The seed's: C0 at 20 Hz, the low threads at 10 Hz.
    Seed,
    /// A hundred times the seed's: 2000 Hz and 1000 Hz.
    Scaled,
}

impl RateSet {
    /// Both rate sets, in the order of the table.
    pub(crate) const ALL: [RateSet; 2] = [RateSet::Seed, RateSet::Scaled];

    /// Calls per second of the high-priority thread C0.
    pub(crate) fn high_hz(self) -> u32 {
        match self {
            RateSet::Seed => 20,
            RateSet::Scaled => 2000,
        }
    }

    /// Calls per second of each low-priority thread.
    pub(crate) fn low_hz(self) -> u32 {
        self.high_hz() / 2
    }

    /// The name on the command line and in the results.
    pub(crate) fn name(self) -> &'static str {
        match self {
            RateSet::Seed => "seed",
            RateSet::Scaled => "scaled",
        }
    }

    /// The default time of one point, ms: enough calls of C0 at each
    /// rate (400 at the seed's, 10000 at the scaled one) that every
    /// default point of both sets, in both configurations, fits in about
    /// six minutes.
    pub(crate) fn default_duration_ms(self) -> u64 {
        match self {
            RateSet::Seed => 20_000,
            RateSet::Scaled => 5_000,
        }
    }
}

/// The nanoseconds between two slots at `hz` calls per second.
pub(crate) fn period_ns(hz: u32) -> u64 {
    1_000_000_000 / u64::from(hz.max(1))
}

/// The number of slots of a thread at `hz` within `duration_ms`.
pub(crate) fn slots(hz: u32, duration_ms: u64) -> u64 {
    (duration_ms.saturating_mul(1_000_000) / period_ns(hz)).max(1)
}

/// The time on `CLOCK_MONOTONIC`, in nanoseconds.
pub(crate) fn now_ns() -> u64 {
    let t = clock_gettime(ClockId::Monotonic);
    (t.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(t.tv_nsec as u64)
}

/// Sleeps until `CLOCK_MONOTONIC` reads `at_ns` (at once if it already
/// has), resuming after signals.
pub(crate) fn sleep_until(at_ns: u64) {
    let request = Timespec {
        tv_sec: (at_ns / 1_000_000_000) as _,
        tv_nsec: (at_ns % 1_000_000_000) as _,
    };
    while clock_nanosleep_absolute(ClockId::Monotonic, &request).is_err() {
        if now_ns() >= at_ns {
            break;
        }
    }
}

/// Where the common start of the slots may fall: at a time congruent to
/// `at_ns` modulo `grid_ns` on `CLOCK_MONOTONIC` (see [`super::tick`],
/// which chooses it against the kernel's ticks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Args)]
pub(crate) struct SlotPhase {
    /// The grid the start is aligned to, ns (1: anywhere).
    #[arg(long = "slot-grid-ns", value_name = "NS", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub(crate) grid_ns: u64,
    /// Where on the grid the start falls, ns past a multiple of it.
    #[arg(long = "slot-at-ns", value_name = "NS", default_value_t = 0)]
    pub(crate) at_ns: u64,
}

impl SlotPhase {
    /// A start wherever it falls.
    pub(crate) const ANY: SlotPhase = SlotPhase {
        grid_ns: 1,
        at_ns: 0,
    };

    /// The first time at or after `t_ns` where the start may fall.
    pub(crate) fn start_after(&self, t_ns: u64) -> u64 {
        let grid = self.grid_ns.max(1);
        let want = self.at_ns % grid;
        t_ns.saturating_add((want + grid - t_ns % grid) % grid)
    }

    /// Whether a start at `start_ns` falls where it may.
    pub(crate) fn holds(&self, start_ns: u64) -> bool {
        let grid = self.grid_ns.max(1);
        start_ns % grid == self.at_ns % grid
    }

    /// `Ok` if `who` started its slots at `start_ns` where they may fall,
    /// else an error that says so.
    pub(crate) fn check(&self, who: &str, start_ns: u64) -> Result<(), String> {
        if self.holds(start_ns) {
            Ok(())
        } else {
            Err(format!(
                "{who} started its slots at {start_ns} ns, not at {} ns past a multiple of {} ns",
                self.at_ns, self.grid_ns
            ))
        }
    }

    /// The client's command-line arguments that ask for this phase.
    pub(crate) fn args(&self) -> [String; 4] {
        [
            "--slot-grid-ns".to_owned(),
            self.grid_ns.to_string(),
            "--slot-at-ns".to_owned(),
            self.at_ns.to_string(),
        ]
    }
}

/// The slots of one thread: `count` of them, `period_ns` apart from
/// `start_ns`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Schedule {
    /// The common start, ns on `CLOCK_MONOTONIC`.
    pub(crate) start_ns: u64,
    /// Between two slots.
    pub(crate) period_ns: u64,
    /// How many.
    pub(crate) count: u64,
}

impl Schedule {
    /// When slot `k` is due.
    pub(crate) fn due(&self, k: u64) -> u64 {
        self.start_ns
            .saturating_add(k.saturating_mul(self.period_ns))
    }

    /// The deadline of slot `k`'s call: slot `k + 1`.
    pub(crate) fn deadline(&self, k: u64) -> u64 {
        self.due(k + 1)
    }

    /// The end of the last slot: a call not issued by then cannot meet
    /// its deadline, and the thread stops.
    pub(crate) fn end(&self) -> u64 {
        self.due(self.count)
    }
}

/// What a thread's loop did with its slots: the calls it issued and how
/// many of its slots it missed (replies after their deadlines, and the
/// slots it could not issue before the end).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SlotLog {
    /// Round-trip times of the calls issued, ns.
    pub(crate) latencies_ns: Vec<u64>,
    /// Slots missed.
    pub(crate) missed: u64,
    /// Of the slots missed, those a late wake-up caused: the thread woke
    /// late for the slot or for an earlier one, and no call since took
    /// longer than the period (see the module's documentation).
    pub(crate) missed_late_wakeup: u64,
}

/// Runs `call` once per slot of `schedule`: waits for each slot (or not,
/// when it is past), issues the call, notes its round trip and whether
/// the reply came after the deadline. Stops issuing at the schedule's
/// end, counting the slots left as missed. `call` returns `Err` to stop
/// at once (a failed call).
pub(crate) fn run_slots<E>(
    schedule: &Schedule,
    mut clock: impl FnMut() -> u64,
    mut wait_until: impl FnMut(u64),
    mut call: impl FnMut(u64) -> Result<(), E>,
) -> Result<SlotLog, E> {
    let mut log = SlotLog {
        latencies_ns: Vec::with_capacity(schedule.count.min(1 << 24) as usize),
        missed: 0,
        missed_late_wakeup: 0,
    };
    // Whether the lateness the thread carries, if any, is its timer's:
    // set when it sleeps for a slot, lost when a call overruns the period.
    let mut timer_late = true;
    for k in 0..schedule.count {
        let due = schedule.due(k);
        let mut now = clock();
        if now < due {
            wait_until(due);
            now = clock();
            timer_late = true;
        }
        if now >= schedule.end() {
            log.missed += schedule.count - k;
            break;
        }
        call(k)?;
        let replied = clock();
        let round_trip = replied.saturating_sub(now);
        log.latencies_ns.push(round_trip);
        if replied > schedule.deadline(k) {
            log.missed += 1;
            if timer_late && round_trip <= schedule.period_ns {
                log.missed_late_wakeup += 1;
            }
        }
        timer_late &= round_trip <= schedule.period_ns;
    }
    Ok(log)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_start_falls_on_its_phase() {
        let phase = SlotPhase {
            grid_ns: 4_000_000,
            at_ns: 250_000,
        };
        assert_eq!(phase.start_after(0), 250_000);
        assert_eq!(phase.start_after(250_000), 250_000);
        assert_eq!(phase.start_after(250_001), 4_250_000);
        assert_eq!(phase.start_after(7_999_999), 8_250_000);
        assert!(phase.holds(12_250_000));
        assert!(!phase.holds(12_250_001));
        assert_eq!(phase.check("C", 12_250_000), Ok(()));
        assert_eq!(
            phase.check("C", 12_250_001),
            Err("C started its slots at 12250001 ns, not at 250000 ns past a multiple of 4000000 ns".into())
        );
        // An `at` past the grid is taken modulo it.
        let wrapped = SlotPhase {
            grid_ns: 1000,
            at_ns: 2300,
        };
        assert_eq!(wrapped.start_after(1000), 1300);
        assert!(wrapped.holds(1300));
        assert_eq!(SlotPhase::ANY.start_after(12_345), 12_345);
        assert!(SlotPhase::ANY.holds(12_345));
        assert_eq!(
            SlotPhase::ANY.args(),
            ["--slot-grid-ns", "1", "--slot-at-ns", "0"].map(String::from)
        );
    }

    #[test]
    fn rate_sets_and_slots() {
        assert_eq!((RateSet::Seed.high_hz(), RateSet::Seed.low_hz()), (20, 10));
        assert_eq!(
            (RateSet::Scaled.high_hz(), RateSet::Scaled.low_hz()),
            (2000, 1000)
        );
        assert_eq!(period_ns(2000), 500_000);
        assert_eq!(slots(20, 1000), 20);
        assert_eq!(slots(1000, 1), 1);
        assert_eq!(slots(10, 50), 1);
    }

    /// A simulated clock: waiting moves it to the slot; each call takes
    /// the time `took` gives for its slot.
    fn simulate(schedule: Schedule, took: impl Fn(u64) -> u64) -> (SlotLog, Vec<u64>) {
        simulate_waking(schedule, |t| t, took)
    }

    /// [`simulate`], the thread waking at `woke(t)` from a wait for `t`.
    fn simulate_waking(
        schedule: Schedule,
        woke: impl Fn(u64) -> u64,
        took: impl Fn(u64) -> u64,
    ) -> (SlotLog, Vec<u64>) {
        let now = Cell::new(0u64);
        let issued = std::cell::RefCell::new(Vec::new());
        let log = run_slots::<()>(
            &schedule,
            || now.get(),
            |t| now.set(now.get().max(woke(t))),
            |k| {
                issued.borrow_mut().push(now.get());
                now.set(now.get() + took(k));
                Ok(())
            },
        )
        .unwrap();
        (log, issued.into_inner())
    }

    #[test]
    fn calls_on_time_wait_for_their_slots() {
        let s = Schedule {
            start_ns: 1000,
            period_ns: 100,
            count: 4,
        };
        let (log, issued) = simulate(s, |_| 10);
        assert_eq!(issued, [1000, 1100, 1200, 1300]);
        assert_eq!(log.latencies_ns, [10, 10, 10, 10]);
        assert_eq!(log.missed, 0);
    }

    #[test]
    fn a_late_call_goes_at_once_and_no_slot_is_skipped() {
        let s = Schedule {
            start_ns: 0,
            period_ns: 100,
            count: 5,
        };
        // Slot 1's call takes 250 ns: it misses its deadline (200), slots
        // 2 and 3 go at once, late; slot 2's reply (at 360) misses its
        // deadline (300) too.
        let (log, issued) = simulate(s, |k| if k == 1 { 250 } else { 10 });
        assert_eq!(issued, [0, 100, 350, 360, 400]);
        assert_eq!(log.missed, 2);
        // Neither miss is the timer's: slot 1's call took longer than a
        // period, and slot 2 was late because of it.
        assert_eq!(log.missed_late_wakeup, 0);
        assert_eq!(log.latencies_ns.len(), 5);
    }

    #[test]
    fn a_miss_after_a_late_wake_up_is_the_timer_s() {
        let s = Schedule {
            start_ns: 0,
            period_ns: 100,
            count: 4,
        };
        // The thread wakes 95 ns late for slot 2 (at 295): its 10 ns call
        // ends at 305, after the deadline (300), though it took less than
        // a period.
        let late = |t| if t == 200 { 295 } else { t };
        let (log, issued) = simulate_waking(s, late, |_| 10);
        assert_eq!(issued, [0, 100, 295, 305]);
        assert_eq!((log.missed, log.missed_late_wakeup), (1, 1));
    }

    #[test]
    fn the_slots_a_late_wake_up_pushes_late_are_the_timer_s_too() {
        let s = Schedule {
            start_ns: 0,
            period_ns: 100,
            count: 5,
        };
        // The thread wakes for slot 1 at 290: slot 1's reply comes at 300
        // (deadline 200), slot 2 goes at once with its reply at 310
        // (deadline 300), slot 3 goes at once and meets its deadline (400).
        // Both misses are the late wake-up's.
        let late = |t| if t == 100 { 290 } else { t };
        let (log, issued) = simulate_waking(s, late, |_| 10);
        assert_eq!(issued, [0, 290, 300, 310, 400]);
        assert_eq!((log.missed, log.missed_late_wakeup), (2, 2));
    }

    #[test]
    fn slots_left_at_the_end_are_missed() {
        let s = Schedule {
            start_ns: 0,
            period_ns: 100,
            count: 4,
        };
        let (log, issued) = simulate(s, |k| if k == 0 { 450 } else { 10 });
        assert_eq!(issued, [0]);
        assert_eq!(log.missed, 4);
    }

    #[test]
    fn the_monotonic_clock_sleeps_until_a_time() {
        let t = now_ns();
        sleep_until(t + 1_000_000);
        assert!(now_ns() >= t + 1_000_000);
        sleep_until(0);
    }
}
