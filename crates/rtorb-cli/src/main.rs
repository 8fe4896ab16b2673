//! The `rtorb` command-line tool.
//!
//! ```text
//! rtorb ior decode [--json] <IOR | corbaloc | corbaname | file>
//! rtorb ior encode [--type-id ID] [--byte-order big|little] <corbaloc>
//! rtorb options [--markdown]
//! rtorb options --check [FILE] [-- -ORBName VALUE ...]
//! rtorb event-channel --endpoint URL --name NAME [--config FILE] [--queue-length N]
//!                     [--overflow drop-oldest|drop-newest|disconnect] [--max-proxies N] [-- -ORB...]
//! rtorb events push --channel URL [-- -ORB...]
//! rtorb events listen --channel URL [--endpoint URL] [-- -ORB...]
//! rtorb demo
//! ```
//!
//! The benchmarks are another program, `rtorb-bench` (`crates/rtorb-bench`).

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

mod any_text;
mod channel_client;
mod demo;
mod event_channel;
mod events_listen;
mod events_push;
mod interrupt;
mod ior;
mod options;

/// rtorb: a real-time CORBA ORB endsystem.
#[derive(Debug, Parser)]
#[command(name = "rtorb", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Decode and make object references.
    #[command(subcommand)]
    Ior(IorCommand),
    /// List the ORB's options, or check a configuration file.
    Options {
        /// Print the options as a Markdown table.
        #[arg(long, conflicts_with = "check")]
        markdown: bool,
        /// Read a configuration file (and the `-ORB` options after `--`)
        /// as an ORB would, and print the settings that result.
        #[arg(long)]
        check: bool,
        /// The configuration file to check.
        #[arg(requires = "check")]
        file: Option<std::path::PathBuf>,
        /// `-ORB` options to apply after the file, as a program's command
        /// line gives them.
        #[arg(last = true, requires = "check")]
        orb_args: Vec<String>,
    },
    /// Serve an event channel under a plain object key until interrupted.
    EventChannel(event_channel::ChannelOptions),
    /// Supply events to an event channel, or listen to one.
    #[command(subcommand)]
    Events(EventsCommand),
    /// Round-trip real GIOP messages and object references and print them.
    Demo,
}

#[derive(Debug, Subcommand)]
enum EventsCommand {
    /// Push each line of standard input to the channel as one event (a
    /// string in an `Any`).
    Push {
        /// The channel: an `IOR:`, `corbaloc:` or `corbaname:` URL, or a
        /// file holding one.
        #[arg(long)]
        channel: String,
        /// ORB options, after `--`.
        #[arg(last = true)]
        orb_args: Vec<String>,
    },
    /// Print each event the channel pushes, a line each, until
    /// interrupted.
    Listen {
        /// The channel: an `IOR:`, `corbaloc:` or `corbaname:` URL, or a
        /// file holding one.
        #[arg(long)]
        channel: String,
        /// The endpoint the consumer is served on (by default the ORB's
        /// default endpoint).
        #[arg(long)]
        endpoint: Option<String>,
        /// ORB options, after `--`.
        #[arg(last = true)]
        orb_args: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
enum IorCommand {
    /// Print every field of an object reference.
    Decode {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// An `IOR:` string, a `corbaloc:` or `corbaname:` URL, or a file
        /// (also `file://PATH`) holding one of them.
        reference: String,
    },
    /// Print the stringified IOR for a `corbaloc:` address.
    Encode {
        /// Repository id to put in the reference.
        #[arg(long, default_value = "")]
        type_id: String,
        /// Byte order of the encoded reference.
        #[arg(long, value_enum, default_value_t = Order::Native)]
        byte_order: Order,
        /// The `corbaloc:` URL.
        url: String,
    },
}

/// A byte order chosen on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Order {
    /// The machine's own.
    Native,
    /// Big-endian.
    Big,
    /// Little-endian.
    Little,
}

impl From<Order> for rtorb_cdr::ByteOrder {
    fn from(o: Order) -> Self {
        match o {
            Order::Native => rtorb_cdr::ByteOrder::NATIVE,
            Order::Big => rtorb_cdr::ByteOrder::Big,
            Order::Little => rtorb_cdr::ByteOrder::Little,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Ior(IorCommand::Decode { json, reference }) => ior::decode(&reference, json),
        Command::Ior(IorCommand::Encode {
            type_id,
            byte_order,
            url,
        }) => ior::encode(&url, &type_id, byte_order.into()),
        Command::Options {
            markdown,
            check,
            file,
            orb_args,
        } => {
            if check {
                options::check(file.as_deref(), &orb_args)
            } else {
                Ok(options::list(markdown))
            }
        }
        Command::EventChannel(options) => event_channel::run(&options),
        Command::Events(EventsCommand::Push { channel, orb_args }) => {
            events_push::run(&channel, &orb_args)
        }
        Command::Events(EventsCommand::Listen {
            channel,
            endpoint,
            orb_args,
        }) => events_listen::run(&channel, endpoint.as_deref(), &orb_args),
        Command::Demo => demo::run(),
    };
    match result {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("rtorb: {e}");
            ExitCode::FAILURE
        }
    }
}
