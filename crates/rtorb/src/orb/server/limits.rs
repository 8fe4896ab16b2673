//! [`ServerLimits`]: the server's bounds and timeouts, from the
//! configuration.

use std::time::Duration;

use super::descriptors::derived_max_connections;
use crate::orb::config::orb_config::OrbConfig;

/// The bounds and timeouts of the server, from the [`OrbConfig`].
///
/// Hostile or broken peers are bounded: the maximum message size and the
/// ORB's memory budget (`budget.rs`) refuse a message before anything is
/// buffered for it; part of a message held too long closes its
/// connection; replies a client does not read are queued up to a bound;
/// at the connection cap (`descriptors.rs`, shared by the ORB's endpoints
/// and its lanes: `connection_cap.rs`) a connection with nothing in
/// progress is shed to make room (`shedding.rs`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ServerLimits {
    /// How often an idle connection (or the event loop) wakes to look at
    /// shutdown and timeouts.
    pub(crate) poll_interval: Duration,
    /// How long a reply may wait to be written.
    pub(crate) write_timeout: Duration,
    /// The largest message body accepted.
    pub(crate) max_message_size: u32,
    /// How long part of a message may be held.
    pub(crate) incomplete_message_timeout: Duration,
    /// How long a connection may stay idle, if there is a limit.
    pub(crate) idle_timeout: Option<Duration>,
    /// The most open connections of the ORB's endpoints and its lanes
    /// together (resolved: never 0).
    pub(crate) max_connections: usize,
    /// The most reply octets queued for one connection before its input
    /// is no longer read.
    pub(crate) max_output_buffer: usize,
    /// The code sets of a connection on which no `CodeSets` context came.
    pub(crate) assumed_code_sets: rtorb_cdr::TransmissionCodeSets,
    /// The most octets buffered for all connections together.
    pub(crate) memory_budget: usize,
}

impl ServerLimits {
    /// The limits `config` sets, with the process's descriptor limit as it
    /// is now.
    pub(crate) fn from_config(config: &OrbConfig) -> ServerLimits {
        let descriptors = rustix::process::getrlimit(rustix::process::Resource::Nofile)
            .current
            .unwrap_or(u64::MAX);
        ServerLimits::with_descriptors(config, descriptors)
    }

    /// The limits `config` sets; a connection cap of 0 (the default) is
    /// derived from the descriptor limit `descriptors` (see
    /// [`derived_max_connections`]).
    pub(crate) fn with_descriptors(config: &OrbConfig, descriptors: u64) -> ServerLimits {
        let max_connections = match config.max_connections {
            0 => derived_max_connections(descriptors, config.server_strategy),
            n => n,
        };
        ServerLimits {
            poll_interval: config.server_poll_interval,
            write_timeout: config.server_write_timeout,
            max_message_size: config.max_message_size,
            incomplete_message_timeout: config.incomplete_message_timeout,
            idle_timeout: config.server_idle_timeout,
            max_connections,
            max_output_buffer: config.max_output_buffer,
            assumed_code_sets: config.code_sets.assumed(),
            memory_budget: config.memory_budget,
        }
    }
}
