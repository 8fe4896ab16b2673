//! The ORB: object references over real connections, and a server that
//! dispatches the requests its acceptors receive. Start at [`Orb`], built
//! with an [`OrbBuilder`] or [`Orb::init`]; its settings are an
//! [`OrbConfig`], each one row of the table of [`options`].
//!
//! # Files
//!
//! The files depend one way: each uses only files of the rows below its
//! own (the test `module_layering` checks that no file depends on itself
//! through others), and a `mod.rs` only declares and re-exports.
//!
//! ```text
//! init.rs             ORB_init: a command line's options, then the builder
//!  |
//! options/            the table of every setting: the builder's setters, the
//!                     -ORB options, configuration files, the listings
//!  |
//! builder.rs          OrbBuilder: an OrbConfig set step by step; the ORB built
//!  |
//! url.rs  stats.rs    more of Orb's methods: references from strings, initial
//!                     references; statistics (the thread pools' methods are
//!                     in server/threadpool/orb.rs)
//!  |
//! broker.rs           Orb: what it holds, where it listens, activation, shutdown
//!  |
//! listening.rs        the acceptors of its endpoints, and the threads serving them
//! collocation.rs      calls on the ORB's own objects, in process
//!  |
//! server/             the server side: connections, strategies, thread pools
//! client/             the client side: connections, requests, replies
//! realtime_process.rs memory locking and the CPUs' latency bound
//! error.rs            OrbError
//!  |
//! config/             OrbConfig and ConnectionStrategy, parsers of values, errors
//!  |
//! strategy.rs         ServerStrategy
//! ```

pub mod client;
pub mod collocation;
pub mod config;
pub mod options;
pub mod server;
pub mod strategy;

mod broker;
mod builder;
mod error;
mod init;
mod listening;
mod realtime_setup;
mod stats;
mod url;

pub use broker::Orb;
pub use builder::OrbBuilder;
pub use collocation::CollocationStats;
pub use config::{
    CONFIG_ENV, ConfigFileError, ConfigFileProblem, ConnectionStrategy, DEFAULT_ENDPOINT,
    DEFAULT_MAX_MESSAGE_SIZE, DEFAULT_MEMORY_BUDGET, DEFAULT_SERVER_THREADS, MAX_CONFIG_FILE_SIZE,
    OptionError, OptionProblem, OrbConfig, ReadFileError, ValueError,
};
pub use error::OrbError;
pub use server::{MESSAGES_PER_TURN, derived_max_connections};
pub use stats::OrbStats;
pub use strategy::{ServerStrategy, UnknownStrategy};
