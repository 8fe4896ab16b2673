//! The configurations of the ORB the priority benchmark compares, and the
//! scheduling of its client threads.

use rtorb::orb::{ConnectionStrategy, OrbConfig};
use serde::Serialize;

/// How the rtorb ORB is configured on both sides of a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Configuration {
    /// The seed's "conventional ORB": one server pool with no lanes and
    /// no priorities, every request at the server's one priority; the
    /// client's calls, whatever their thread's priority, share one
    /// multiplexed connection.
    Conventional,
    /// Lanes per priority, server-declared and client-propagated
    /// priorities, banded connections. Needs the ORB's real-time core,
    /// which is not built yet: choosing it is an error that says so.
    RealTime,
}

/// Why the real-time configuration cannot run yet.
pub(crate) const REAL_TIME_MISSING: &str = "the real-time configuration (lanes, server-declared \
     and client-propagated priorities, banded connections) needs the ORB's real-time core, which \
     is not built yet; use --conventional";

impl Configuration {
    /// The name in the results.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Configuration::Conventional => "conventional",
            Configuration::RealTime => "real-time",
        }
    }

    /// The server ORB's settings for this configuration, before the
    /// user's `-ORB` options: the ORB's defaults (one pool of server
    /// threads, whatever the requests' priorities).
    pub(crate) fn server(self) -> Result<OrbConfig, String> {
        match self {
            Configuration::Conventional => Ok(OrbConfig::default()),
            Configuration::RealTime => Err(REAL_TIME_MISSING.to_owned()),
        }
    }

    /// The client ORB's settings: one multiplexed connection per server,
    /// which every thread's calls share.
    pub(crate) fn client(self) -> Result<OrbConfig, String> {
        match self {
            Configuration::Conventional => Ok(OrbConfig {
                connection_strategy: ConnectionStrategy::Multiplexed,
                ..OrbConfig::default()
            }),
            Configuration::RealTime => Err(REAL_TIME_MISSING.to_owned()),
        }
    }
}

/// The SCHED_FIFO priority of the high-priority client thread C0.
pub(crate) const HIGH_FIFO: i16 = 90;
/// The SCHED_FIFO priority of the low-priority client threads.
pub(crate) const LOW_FIFO: i16 = 10;

/// The scheduling policy the client's threads ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Policy {
    /// C0 at SCHED_FIFO 90, the low threads at SCHED_FIFO 10 (SCHED_OTHER,
    /// with a warning, where the system does not permit it).
    Fifo,
    /// Every thread under SCHED_OTHER.
    Other,
}

impl Policy {
    /// The name on the command line.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Policy::Fifo => "fifo",
            Policy::Other => "other",
        }
    }
}
