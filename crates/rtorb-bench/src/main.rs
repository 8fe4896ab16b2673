//! `rtorb bench`: the Cubit benchmark of "The Design and Performance of a
//! Pluggable Protocols Framework for Object Request Broker Middleware"
//! (§4) on the rtorb ORB, against omniORB and a raw-socket floor.
//!
//! - `cubit-server`: serves the Cubit object, counting what each call
//!   costs the server ([`server`]).
//! - `cubit-client`: measures every operation against a Cubit object
//!   ([`client`]).
//! - `cubit`: the whole comparison, servers and clients as child
//!   processes, pinned or not ([`compare`]).
//! - `raw-server` / `raw-client`: the raw-socket floor ([`raw`]).
//! - `overload`: hostile peers against each server strategy and omniORB,
//!   with a well-behaved client throughout ([`overload`]).
//! - `priority`, `priority-server`, `priority-client`: the
//!   priority-inversion benchmark ([`priority`]).

use clap::{Args, Subcommand};

mod affinity;
mod client;
mod compare;
mod omni;
mod ops;
mod overload;
mod priority;
mod raw;
mod server;
mod stats;

/// Default calls per operation.
const DEFAULT_CALLS: u64 = 10_000;

/// The `rtorb bench` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum BenchCommand {
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
    /// it open: `sleep infinity | rtorb bench priority-server` in the
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
pub(crate) struct Common {
    /// Calls per operation (after a warm-up of a tenth of them, at least
    /// 100 and at most 2000).
    #[arg(short = 'n', long = "calls", default_value_t = DEFAULT_CALLS,
          value_parser = clap::value_parser!(u64).range(1..))]
    calls: u64,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Runs a `rtorb bench` command; returns what to print.
pub(crate) fn run(command: BenchCommand) -> Result<String, String> {
    match command {
        BenchCommand::CubitServer {
            endpoints,
            orb_options,
        } => server::run(&endpoints, &orb_options),
        BenchCommand::CubitClient {
            common,
            shutdown,
            ops,
            timeout_ms,
            target,
        } => {
            let timeout = timeout_ms.map(std::time::Duration::from_millis);
            let results = client::run_all(&target, common.calls, &ops, timeout, shutdown)?;
            Ok(if common.json {
                format!("{}\n", client::to_json(&results))
            } else {
                client::to_table(&results)
            })
        }
        BenchCommand::Cubit {
            common,
            pinned: _,
            unpinned,
            both,
            fifo,
            rounds,
        } => {
            let modes = if both {
                compare::Modes::Both
            } else if unpinned {
                compare::Modes::Unpinned
            } else {
                compare::Modes::Pinned
            };
            compare::run(common.calls, rounds, common.json, modes, fifo)
        }
        BenchCommand::Overload(args) => overload::run(&args),
        BenchCommand::Priority(args) => priority::run(&args),
        BenchCommand::PriorityServer(args) => priority::run_server(&args),
        BenchCommand::PriorityClient(args) => priority::run_client(&args),
        BenchCommand::PriorityEcho(args) => priority::run_echo(&args),
        BenchCommand::PriorityEchoClient(args) => priority::run_echo_client(&args),
        BenchCommand::RawServer { endpoint } => raw::run_server(&endpoint),
        BenchCommand::RawClient {
            calls,
            ops,
            endpoint,
        } => {
            let results = raw::run_client(&endpoint, calls, &ops)?;
            Ok(format!("{}\n", client::to_json(&results)))
        }
    }
}
