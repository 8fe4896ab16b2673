//! The ORB: object references over real connections, and a server that
//! dispatches the requests its acceptors receive.
//!
//! An [`Orb`] owns the [`ProtocolRegistry`], the server's object
//! adapters (plain object keys → [`Skeleton`], and the POAs of
//! [`crate::poa`] from the Root POA down), the server's threads, and the
//! client's connection cache. Calls on its own objects are served in
//! process ([`collocation`]). The client does blocking I/O on the calling
//! thread (see [`client`]). The server's threads follow the configured
//! [`ServerStrategy`] (see [`strategy`]): a thread per connection (the
//! default), a single reactive thread, or a leader/followers pool, all
//! handing each message to the same code (see [`server`]), with the same
//! bounds on hostile input (maximum message size, incomplete-message
//! timeout, connection limit, queued-reply bound) and the same shutdown.
//!
//! ```
//! use std::sync::Arc;
//! use std::time::Duration;
//! use rtorb::orb::Orb;
//! use rtorb::runtime::{bad_operation, ServerRequest, Skeleton, SystemException};
//! use rtorb_cdr::{CdrDecode, CdrEncode};
//!
//! struct Twice;
//! impl Skeleton for Twice {
//!     fn repository_ids(&self) -> &'static [&'static str] { &["IDL:Twice:1.0"] }
//!     fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
//!         match req.operation() {
//!             "twice" => {
//!                 let l = i32::decode(req.arguments())?;
//!                 req.write_results(|e| l.wrapping_mul(2).encode(e))
//!             }
//!             _ => Err(bad_operation()),
//!         }
//!     }
//! }
//!
//! // No endpoint given: the ORB listens on an ephemeral IIOP port once it
//! // serves an object (see `OrbBuilder::default_endpoint`).
//! let server = Orb::builder().build().unwrap();
//! let obj = server.activate_with_key(&b"Twice"[..], Arc::new(Twice)).unwrap();
//! let ior = server.object_to_string(&obj).unwrap();
//!
//! let client = Orb::builder().round_trip_timeout(Duration::from_secs(5)).build().unwrap();
//! let obj = client.string_to_object(&ior).unwrap();
//! let r: i32 = obj.invoke("twice", |e| 21i32.encode(e)).unwrap()
//!     .decode::<i32, SystemException>(i32::decode).unwrap();
//! assert_eq!(r, 42);
//! server.shutdown();
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
mod realtime_process;
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
