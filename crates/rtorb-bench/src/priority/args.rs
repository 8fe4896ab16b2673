//! The command-line options of the priority benchmark's commands.

use std::path::PathBuf;

use clap::Args;

use super::config::Policy;
use super::flood;
use super::schedule::{self, RateSet};
use super::tick;

/// Which rate sets to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Rates {
    /// The seed's: C0 at 20 Hz, each low thread at 10 Hz.
    Seed,
    /// C0 at 2000 Hz, each low thread at 1000 Hz.
    Scaled,
    /// Both.
    Both,
}

impl Rates {
    /// The rate sets chosen.
    pub(super) fn sets(self) -> Vec<RateSet> {
        match self {
            Rates::Seed => vec![RateSet::Seed],
            Rates::Scaled => vec![RateSet::Scaled],
            Rates::Both => RateSet::ALL.to_vec(),
        }
    }
}

/// The options of `rtorb-bench priority`.
#[derive(Debug, Args)]
pub(crate) struct PriorityArgs {
    /// The numbers of low-priority threads, comma-separated
    /// (default 1,5,10,20,30,40,50; 1,2 with --quick).
    #[arg(short = 'n', value_name = "N,...", value_delimiter = ',',
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub(super) n: Vec<u32>,
    /// The rate sets: the seed's (20 Hz / 10 Hz), the scaled one
    /// (2000 Hz / 1000 Hz), or both.
    #[arg(long, value_enum, default_value_t = Rates::Both)]
    pub(super) rates: Rates,
    /// The length of each point, ms (default 20000 at the seed's rates,
    /// 5000 at the scaled ones: a full run of both configurations takes
    /// about 6 minutes; 300 with --quick).
    #[arg(long = "duration-ms", value_name = "MS",
          value_parser = clap::value_parser!(u64).range(50..=3_600_000))]
    pub(super) duration_ms: Option<u64>,
    /// The client threads' scheduling: C0 at SCHED_FIFO 90 and the low
    /// threads at SCHED_FIFO 10 (fifo), or all under SCHED_OTHER (other).
    #[arg(long, value_enum, default_value_t = Policy::Fifo)]
    pub(super) policy: Policy,
    /// Few points and short ones, to check that the benchmark works.
    #[arg(long)]
    pub(super) quick: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub(super) json: bool,
    /// Write the plots (SVG and PNG) of mean latency and jitter against n
    /// into this directory.
    #[arg(long, value_name = "DIR")]
    pub(super) plots: Option<PathBuf>,
    /// Run every point again under each of these floods aimed at the Low
    /// object's own endpoint (the low lane's, in the real-time
    /// configuration): connections, garbage, half-messages,
    /// unread-replies, or all.
    #[arg(long, value_enum, value_name = "KIND,...", value_delimiter = ',')]
    pub(super) flood: Vec<flood::FloodArg>,
    /// Measure only the machine's floor (C0's slots calling a bare TCP
    /// echo between two processes), no ORB.
    #[arg(long = "floor-only")]
    pub(super) floor_only: bool,
    /// Do not lock the memory of the clients and servers (mlockall).
    #[arg(long = "no-mlock")]
    pub(super) no_mlock: bool,
    /// Do not hold the CPUs' wake-up latency at 0 through
    /// /dev/cpu_dma_latency for the run (held by default, as cyclictest
    /// does: see docs/guide/benchmarks.md).
    #[arg(long = "no-pm-qos")]
    pub(super) no_pm_qos: bool,
    /// Where C0's slots fall against the kernel's scheduler tick: as far
    /// from every tick as C0's period allows (between), a tick this many
    /// µs after one of them (a few µs: inside its call, the worst case),
    /// or wherever each point's start falls (any). Every client of the
    /// run, the floor's included, starts at the same phase.
    #[arg(
        long = "tick-phase",
        value_name = "between|any|MICROS",
        default_value = "between"
    )]
    pub(super) tick_phase: tick::TickPhase,
}

/// The options of `rtorb-bench priority-server`.
#[derive(Debug, Args)]
pub(crate) struct ServerArgs {
    /// Where to listen (`iiop://127.0.0.1:PORT`); may be given several
    /// times (default `iiop://127.0.0.1:0`).
    #[arg(long = "endpoint", value_name = "URL")]
    pub(super) endpoints: Vec<String>,
    /// The conventional configuration: one pool of server threads, no
    /// lanes, no priorities (today's default).
    #[arg(long, conflicts_with = "real_time")]
    pub(super) conventional: bool,
    /// The real-time configuration: High in a high lane, Low in a low
    /// lane, server-declared priorities.
    #[arg(long)]
    pub(super) real_time: bool,
    /// The real-time server's watchdog, ms: past it every thread is put
    /// under SCHED_OTHER (default: an hour).
    #[arg(long = "watchdog-ms", value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) watchdog_ms: Option<u64>,
    /// Do not lock the process's memory (mlockall).
    #[arg(long = "no-mlock")]
    pub(super) no_mlock: bool,
    /// `-ORB` options for the server's ORB, after `--`.
    #[arg(last = true, value_name = "-ORB OPTIONS")]
    pub(super) orb_options: Vec<String>,
}

/// The options of `rtorb-bench priority-client`.
#[derive(Debug, Args)]
pub(crate) struct ClientArgs {
    /// Low-priority threads.
    #[arg(long, default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub(super) lows: u32,
    /// C0's calls per second.
    #[arg(long = "high-hz", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub(super) high_hz: u32,
    /// Each low thread's calls per second.
    #[arg(long = "low-hz", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub(super) low_hz: u32,
    /// The length of the run, ms.
    #[arg(long = "duration-ms", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub(super) duration_ms: u64,
    /// The threads' scheduling (fifo: C0 at SCHED_FIFO 90, the others at
    /// 10; other: SCHED_OTHER).
    #[arg(long, value_enum, default_value_t = Policy::Fifo)]
    pub(super) policy: Policy,
    /// The conventional configuration: one multiplexed connection for
    /// every thread's calls (today's default).
    #[arg(long, conflicts_with = "real_time")]
    pub(super) conventional: bool,
    /// The real-time configuration: a connection of its own for each
    /// thread's calls.
    #[arg(long)]
    pub(super) real_time: bool,
    /// The watchdog's deadline, ms: past it every thread is put under
    /// SCHED_OTHER and the run fails (default: twice the run, and 20 s).
    #[arg(long = "watchdog-ms", value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) watchdog_ms: Option<u64>,
    /// Do not lock the process's memory (mlockall).
    #[arg(long = "no-mlock")]
    pub(super) no_mlock: bool,
    #[command(flatten)]
    pub(super) slots: schedule::SlotPhase,
    /// The `High` object (`corbaloc::1.2@HOST:PORT/High`, or an IOR).
    pub(super) high: String,
    /// The `Low` object.
    pub(super) low: String,
    /// `-ORB` options for the client's ORB, after `--`.
    #[arg(last = true, value_name = "-ORB OPTIONS")]
    pub(super) orb_options: Vec<String>,
}
