//! The configurations of the ORB the priority benchmark compares, and the
//! scheduling of its client threads.

use rtorb::orb::{ConnectionStrategy, OrbConfig};
use rtorb::rt::{LaneConfig, MappingKind, Priority, SchedPolicy, WhenDenied};
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
    /// A thread pool with a lane per priority: `High` in a lane at CORBA
    /// priority [`HIGH_FIFO`], `Low` in one at [`LOW_FIFO`] (the direct
    /// mapping onto SCHED_FIFO), server-declared, each lane with its own
    /// endpoint; the client's threads each call over an exclusive
    /// connection of their own (the high thread's to the high lane); C0
    /// and the high lane share a CPU ([`Configuration::high_cpus`]).
    RealTime,
}

/// The high lane's threads: one per high-priority client thread.
const HIGH_LANE_THREADS: usize = 1;
/// The low lane's threads.
const LOW_LANE_THREADS: usize = 2;

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
    /// threads, whatever the requests' priorities), or the two lanes at
    /// SCHED_FIFO (SCHED_OTHER, with a warning, where the system does
    /// not permit it).
    pub(crate) fn server(self) -> Result<OrbConfig, String> {
        match self {
            Configuration::Conventional => Ok(OrbConfig::default()),
            Configuration::RealTime => Ok(OrbConfig {
                sched_policy: SchedPolicy::Fifo,
                priority_mapping: MappingKind::Direct,
                sched_denied: WhenDenied::RunAtOther,
                lanes: vec![
                    LaneConfig::new(fifo(HIGH_FIFO)?)
                        .static_threads(HIGH_LANE_THREADS)
                        .cpus(self.high_cpus()),
                    LaneConfig::new(fifo(LOW_FIFO)?)
                        .static_threads(LOW_LANE_THREADS)
                        .cpus(self.other_cpus()),
                ],
                ..OrbConfig::default()
            }),
        }
    }

    /// The CPUs of the high-priority path: in the real-time configuration,
    /// on a machine of two CPUs or more, C0 and the high lane share the
    /// last CPU (a request and its reply then wake their threads without
    /// crossing CPUs), and the low lane and the low client threads run on
    /// the others ([`Configuration::other_cpus`]); otherwise none (any
    /// CPU).
    pub(crate) fn high_cpus(self) -> Vec<usize> {
        match self {
            Configuration::Conventional => Vec::new(),
            Configuration::RealTime => match rtorb::rt::available_cpus() {
                Ok(cpus) if cpus.len() >= 2 => cpus.last().copied().into_iter().collect(),
                _ => Vec::new(),
            },
        }
    }

    /// The CPUs of the low lane, the low client threads and a flood's
    /// attacker: in the real-time
    /// configuration, every CPU but [`Configuration::high_cpus`], as a
    /// real-time system keeps the work of traffic it does not serve first
    /// (its threads, and the interrupts and protocol work of its packets)
    /// away from the CPU of its high-priority path; otherwise none (any
    /// CPU). With the low lane free to run on C0's CPU, a garbage flood it
    /// served raised C0's mean and p99 at small n (BENCHMARKS.md).
    pub(crate) fn other_cpus(self) -> Vec<usize> {
        let high = self.high_cpus();
        if high.is_empty() {
            return Vec::new();
        }
        rtorb::rt::available_cpus()
            .map(|cpus| cpus.into_iter().filter(|c| !high.contains(c)).collect())
            .unwrap_or_default()
    }

    /// The priority the server declares for the object of class `class`
    /// (0: `High`, 1: `Low`), where its objects live in lanes.
    pub(crate) fn declared(self, class: usize) -> Result<Option<Priority>, String> {
        match self {
            Configuration::Conventional => Ok(None),
            Configuration::RealTime => {
                fifo(if class == 0 { HIGH_FIFO } else { LOW_FIFO }).map(Some)
            }
        }
    }

    /// The client ORB's settings: one multiplexed connection per server,
    /// which every thread's calls share (conventional), or a connection
    /// per calling thread (real-time).
    pub(crate) fn client(self) -> Result<OrbConfig, String> {
        let connection_strategy = match self {
            Configuration::Conventional => ConnectionStrategy::Multiplexed,
            Configuration::RealTime => ConnectionStrategy::Exclusive,
        };
        Ok(OrbConfig {
            connection_strategy,
            ..OrbConfig::default()
        })
    }
}

/// The CORBA priority that the direct mapping puts at SCHED_FIFO `fifo`.
fn fifo(fifo: i16) -> Result<Priority, String> {
    Priority::new(fifo).map_err(|e| e.to_string())
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
