//! `rtorb-bench`: the benchmarks of rtorb, with the instrumentation they
//! need (a counting global allocator, the ORB's lock counting, probe
//! stage times, plots), kept out of the `rtorb` tool a user installs.
//!
//! ```text
//! rtorb-bench cubit [-n CALLS] [--json] [--pinned|--unpinned|--both] [--fifo PRIORITY] [--rounds N]
//! rtorb-bench cubit-server --endpoint iiop://127.0.0.1:PORT [--endpoint uiop:///PATH] [-- -ORB...]
//! rtorb-bench cubit-client [-n CALLS] [--json] [--shutdown] [--op NAME]... <IOR | corbaloc>
//! rtorb-bench overload [--scenario NAME]... [--server NAME]... [--connections N]... [--quick] [--json]
//! rtorb-bench priority [-n N,...] [--rates seed|scaled|both] [--duration-ms MS] [--quick] [--json] [--plots DIR]
//! rtorb-bench priority-server [--endpoint URL]... [--conventional|--real-time] [-- -ORB...]
//! rtorb-bench priority-client [--lows N] [--high-hz HZ] [--low-hz HZ] [--duration-ms MS] HIGH LOW
//! ```
//!
//! The benchmarks, one module each, which never import one another:
//!
//! - [`cubit`]: the Cubit comparison of "The Design and Performance of a
//!   Pluggable Protocols Framework for Object Request Broker Middleware"
//!   (§4): rtorb against omniORB and a raw-socket floor;
//! - [`overload`]: hostile peers against each server strategy and
//!   omniORB, with a well-behaved client throughout;
//! - [`priority`]: the priority-inversion benchmark of "Software
//!   Architectures for Reducing Priority Inversion and Non-determinism in
//!   Real-time Object Request Brokers" (§2).
//!
//! What they share: the Cubit operations, server and client
//! ([`cubit_ops`], [`cubit_server`], [`cubit_client`], on the code
//! [`cubit_idl`] generated), latency statistics ([`stats`]), the omniORB
//! peers ([`omniorb`]), child processes ([`process`]), CPU affinity
//! ([`affinity`]), the hostile peers ([`attack`]) with their GIOP client
//! ([`giop_client`]) and stop flag ([`stop`]).

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

mod affinity;
mod attack;
mod cubit;
mod cubit_client;
mod cubit_idl;
mod cubit_ops;
mod cubit_server;
mod giop_client;
mod omniorb;
mod overload;
mod priority;
mod process;
mod stats;
mod stop;

/// Counts each thread's heap allocations, for the allocations per call
/// the benchmarks report.
#[global_allocator]
static ALLOCATOR: rtorb_test_support::alloc::CountingAllocator =
    rtorb_test_support::alloc::CountingAllocator;

/// rtorb-bench: the benchmarks of the rtorb ORB.
#[derive(Debug, Parser)]
#[command(name = "rtorb-bench", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Default calls per operation.
const DEFAULT_CALLS: u64 = 10_000;

/// The commands of `rtorb-bench`.
#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the Cubit object at the object key `Cubit`; print its IOR and
    /// a corbaloc URL per endpoint; run until a client calls `shutdown`.
    CubitServer {
        /// Where to listen (`iiop://127.0.0.1:PORT`, `uiop:///PATH`, with
        /// `?giop=lite` for GIOPlite); may be given several times
        /// (default `iiop://127.0.0.1:0`).
        #[arg(long = "endpoint")]
        endpoints: Vec<String>,
        /// `-ORB` options for the server's ORB, after `--`
        /// (`-- -ORBServerStrategy reactive`).
        #[arg(last = true, value_name = "-ORB OPTIONS")]
        orb_options: Vec<String>,
    },
    /// Measure every Cubit operation against a server, checking every
    /// result.
    CubitClient {
        #[command(flatten)]
        common: Common,
        /// Call `shutdown` at the end.
        #[arg(long)]
        shutdown: bool,
        /// Measure only this operation (`void`, `long_seq_1024`, ...); may
        /// be given several times. Every operation when absent.
        #[arg(long = "op")]
        ops: Vec<String>,
        /// A round-trip timeout for every call, in milliseconds (none by
        /// default, as in omniORB's benchmark client).
        #[arg(long = "timeout-ms", value_name = "MS")]
        timeout_ms: Option<u64>,
        /// The Cubit object: an `IOR:` string or a `corbaloc:` URL.
        target: String,
    },
    /// The whole comparison: rtorb over IIOP and UIOP with GIOP and
    /// GIOPlite, omniORB (when installed), cross pairs and the raw-socket
    /// floor.
    Cubit {
        #[command(flatten)]
        common: Common,
        /// Client and server on one CPU (the default).
        #[arg(long, conflicts_with_all = ["unpinned", "both"])]
        pinned: bool,
        /// Client and server free to run on any CPU.
        #[arg(long, conflicts_with = "both")]
        unpinned: bool,
        /// A pinned run, then an unpinned one.
        #[arg(long)]
        both: bool,
        /// Run every server and client under SCHED_FIFO at this priority
        /// (1-99; needs the permission to, as root has).
        #[arg(long, value_name = "PRIORITY",
              value_parser = clap::value_parser!(u8).range(1..=99))]
        fifo: Option<u8>,
        /// Run every combination this many times, the rounds interleaved,
        /// and report the median of the rounds.
        #[arg(long, default_value_t = 1, value_name = "N",
              value_parser = clap::value_parser!(u32).range(1..=100))]
        rounds: u32,
    },
    /// Hostile peers (memory and connection floods, a pipelining client,
    /// connect churn, a CancelRequest flood) against a fresh server of
    /// each strategy and omniORB's, with a well-behaved client calling
    /// throughout.
    Overload(overload::OverloadArgs),
    /// The priority-inversion benchmark: one high-priority client thread
    /// and n low-priority ones, every call at a fixed time, against rtorb
    /// (real-time and conventional configurations) and omniORB side by
    /// side.
    Priority(priority::PriorityArgs),
    /// Serve two Cubit objects under the plain keys `High` and `Low`;
    /// print their corbaloc URLs; run until standard input closes (keep
    /// it open: `sleep infinity | rtorb-bench priority-server` in the
    /// background). `--real-time` puts `High` and `Low` in lanes at
    /// SCHED_FIFO 90 and 10 with server-declared priorities.
    PriorityServer(priority::ServerArgs),
    /// One high-priority thread calling `High` and n low-priority threads
    /// calling `Low`, each call at its slot; print the figures as JSON.
    PriorityClient(priority::ClientArgs),
    /// The priority benchmark's machine floor: a 48-byte TCP echo at
    /// SCHED_FIFO 90; prints its address, serves until standard input
    /// closes.
    #[command(hide = true)]
    PriorityEcho(priority::EchoArgs),
    /// The priority benchmark's machine floor: C0's slots calling the
    /// echo; prints the figures as JSON.
    #[command(hide = true)]
    PriorityEchoClient(priority::EchoClientArgs),
    /// The raw-socket floor's server (`tcp://HOST:PORT`, `unix:///PATH`).
    #[command(hide = true)]
    RawServer {
        /// Where to listen.
        #[arg(long)]
        endpoint: String,
    },
    /// The raw-socket floor's client; prints JSON like `cubit-client`.
    #[command(hide = true)]
    RawClient {
        /// Calls per operation.
        #[arg(short = 'n', default_value_t = DEFAULT_CALLS)]
        calls: u64,
        /// Measure only this operation; may be given several times.
        #[arg(long = "op")]
        ops: Vec<String>,
        /// The raw server (`tcp://HOST:PORT`, `unix:///PATH`).
        endpoint: String,
    },
}

/// Options of the measuring commands.
#[derive(Debug, Args)]
struct Common {
    /// Calls per operation (after a warm-up of a tenth of them, at least
    /// 100 and at most 2000).
    #[arg(short = 'n', long = "calls", default_value_t = DEFAULT_CALLS,
          value_parser = clap::value_parser!(u64).range(1..))]
    calls: u64,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Runs a command; returns what to print.
fn run(command: Command) -> Result<String, String> {
    match command {
        Command::CubitServer {
            endpoints,
            orb_options,
        } => cubit_server::run(&endpoints, &orb_options),
        Command::CubitClient {
            common,
            shutdown,
            ops,
            timeout_ms,
            target,
        } => {
            let timeout = timeout_ms.map(std::time::Duration::from_millis);
            let results = cubit_client::run_all(&target, common.calls, &ops, timeout, shutdown)?;
            Ok(if common.json {
                format!("{}\n", cubit_client::to_json(&results))
            } else {
                cubit_client::to_table(&results)
            })
        }
        Command::Cubit {
            common,
            pinned: _,
            unpinned,
            both,
            fifo,
            rounds,
        } => {
            let modes = if both {
                cubit::Modes::Both
            } else if unpinned {
                cubit::Modes::Unpinned
            } else {
                cubit::Modes::Pinned
            };
            cubit::run(common.calls, rounds, common.json, modes, fifo)
        }
        Command::Overload(args) => overload::run(&args),
        Command::Priority(args) => priority::run(&args),
        Command::PriorityServer(args) => priority::run_server(&args),
        Command::PriorityClient(args) => priority::run_client(&args),
        Command::PriorityEcho(args) => priority::run_echo(&args),
        Command::PriorityEchoClient(args) => priority::run_echo_client(&args),
        Command::RawServer { endpoint } => cubit::raw::run_server(&endpoint),
        Command::RawClient {
            calls,
            ops,
            endpoint,
        } => {
            let results = cubit::raw::run_client(&endpoint, calls, &ops)?;
            Ok(format!("{}\n", cubit_client::to_json(&results)))
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse().command) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("rtorb-bench: {e}");
            ExitCode::FAILURE
        }
    }
}
