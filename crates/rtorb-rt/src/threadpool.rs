//! Thread pools with lanes (`RTCORBA::RTORB::create_threadpool_with_lanes`):
//! what a pool is made of, as the application describes it.
//!
//! A pool is a set of lanes; each lane has a CORBA priority its threads
//! run at for their whole life, a number of static threads, its own
//! listening endpoints, and (as in `RTCORBA::ThreadpoolLane`) a number of
//! dynamic threads and a bound on the requests it buffers. The ORB builds
//! the lanes (`rtorb::orb::Orb::create_threadpool`); objects are bound
//! to a lane by their priority.
//!
//! A lane runs its static threads, and adds dynamic ones (up to its
//! dynamic count) when all are busy, which end after an idle time.
//!
//! A lane whose threads are all running upcalls, with no dynamic thread
//! left to start, still reads its connections: its *reader*, one more
//! thread at the lane's priority that never runs an upcall, takes over
//! once the lane has stayed so for a few milliseconds, and keeps
//! each whole request, in arrival order, up to the lane's bounds
//! ([`LaneConfig::max_buffered_requests`],
//! [`LaneConfig::max_request_buffer_size`], 0 meaning no limit, as in
//! `RTCORBA::RTORB::create_threadpool_with_lanes`; the octets are charged
//! to the lane's memory budget). The next thread of the lane to finish
//! takes the oldest. A request past a bound, or any request when the pool
//! does not allow buffering ([`ThreadpoolConfig::allow_request_buffering`]),
//! is answered at once with `TRANSIENT` (minor `TRANSIENT_LANE_FULL`,
//! `COMPLETED_NO`), and a oneway dropped and counted
//! (`rtorb::orb::Orb::stats`); the connection keeps serving. A lane
//! never delays another: each has its own threads, reader, buffer and
//! locks. A connection runs its requests one at a time, in order, so the
//! requests a lane buffers are those of different connections (a client
//! thread's own connection, as in the real-time configuration of `rtorb
//! bench priority`).
//!
//! In a pool that allows borrowing ([`ThreadpoolConfig::allow_borrowing`]),
//! such a lane first asks its lower lanes: while one has a thread free,
//! the request is kept whatever the bounds, and a free thread of a lower
//! lane (or the next to be free) runs the lane's waiting requests at the
//! lane's priority, then sets its own back and returns to its lane. Only
//! lower lanes lend.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::priority::Priority;

/// Names a thread pool of an ORB (`RTCORBA::ThreadpoolId`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ThreadpoolId(u32);

impl ThreadpoolId {
    /// The id of the pool numbered `index` in its ORB: the ORB numbers its
    /// pools from 0, in creation order.
    pub fn from_index(index: u32) -> ThreadpoolId {
        ThreadpoolId(index)
    }

    /// The pool's number in its ORB (from 0, in creation order).
    pub fn index(self) -> u32 {
        self.0
    }
}

impl fmt::Display for ThreadpoolId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "threadpool {}", self.0)
    }
}

/// Names one lane of one pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LaneId {
    /// The pool.
    pub pool: ThreadpoolId,
    /// The lane's place in the pool (from 0, as configured).
    pub index: u16,
}

impl fmt::Display for LaneId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "lane {} of {}", self.index, self.pool)
    }
}

/// How long a lane's dynamic thread stays with nothing to do, by default,
/// before it ends.
pub const DEFAULT_DYNAMIC_THREAD_IDLE: Duration = Duration::from_secs(60);

/// The requests a lane buffers by default when all its threads are busy.
pub const DEFAULT_LANE_BUFFERED_REQUESTS: usize = 64;

/// One lane (`RTCORBA::ThreadpoolLane`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaneConfig {
    priority: Priority,
    static_threads: usize,
    dynamic_threads: usize,
    endpoints: Vec<String>,
    max_buffered_requests: usize,
    max_request_buffer_size: usize,
    dynamic_idle: Duration,
    cpus: Vec<usize>,
}

impl LaneConfig {
    /// A lane at `priority` with one static thread, no dynamic thread,
    /// one ephemeral endpoint of the ORB's first protocol on its first
    /// host, and [`DEFAULT_LANE_BUFFERED_REQUESTS`].
    pub fn new(priority: Priority) -> LaneConfig {
        LaneConfig {
            priority,
            static_threads: 1,
            dynamic_threads: 0,
            endpoints: Vec::new(),
            max_buffered_requests: DEFAULT_LANE_BUFFERED_REQUESTS,
            max_request_buffer_size: 0,
            dynamic_idle: DEFAULT_DYNAMIC_THREAD_IDLE,
            cpus: Vec::new(),
        }
    }

    /// Sets the threads started with the lane (at least 1).
    pub fn static_threads(mut self, threads: usize) -> LaneConfig {
        self.static_threads = threads.max(1);
        self
    }

    /// Sets the threads the lane may add when all are busy (0: none): a
    /// thread that takes a connection when no other thread of the lane is
    /// free starts one, at the lane's priority, up to this many at once.
    pub fn dynamic_threads(mut self, threads: usize) -> LaneConfig {
        self.dynamic_threads = threads;
        self
    }

    /// Sets how long a dynamic thread waits for work as the lane's leader
    /// before it ends ([`DEFAULT_DYNAMIC_THREAD_IDLE`] by default); one
    /// that finishes a request and finds another thread of the lane free
    /// ends at once.
    pub fn dynamic_thread_idle(mut self, idle: Duration) -> LaneConfig {
        self.dynamic_idle = idle;
        self
    }

    /// Adds a listening endpoint of the lane's own (by default one
    /// ephemeral endpoint of the ORB's first protocol on its first host).
    pub fn listen(mut self, endpoint: impl Into<String>) -> LaneConfig {
        self.endpoints.push(endpoint.into());
        self
    }

    /// Sets the most requests the lane buffers while its threads are all
    /// busy (0: no limit; [`DEFAULT_LANE_BUFFERED_REQUESTS`] by default).
    pub fn max_buffered_requests(mut self, requests: usize) -> LaneConfig {
        self.max_buffered_requests = requests;
        self
    }

    /// Sets the most octets of requests the lane buffers, their GIOP
    /// headers included (0, the default: no limit but the lane's memory
    /// budget, which they are charged to in any case).
    pub fn max_request_buffer_size(mut self, octets: usize) -> LaneConfig {
        self.max_request_buffer_size = octets;
        self
    }

    /// Restricts the lane's threads (static and dynamic) to `cpus`, set
    /// when each starts (by default they may run on any CPU of the
    /// process). With the client threads of the lane's priority on the
    /// same CPUs, a request and its reply wake their threads without
    /// crossing CPUs (see [`crate::set_thread_affinity`]). A CPU the
    /// process may not use makes the lane fail to start.
    pub fn cpus(mut self, cpus: impl IntoIterator<Item = usize>) -> LaneConfig {
        self.cpus = cpus.into_iter().collect();
        self.cpus.sort_unstable();
        self.cpus.dedup();
        self
    }

    /// The CPUs its threads are restricted to (empty: any).
    pub fn affinity(&self) -> &[usize] {
        &self.cpus
    }

    /// The lane's CORBA priority.
    pub fn priority(&self) -> Priority {
        self.priority
    }

    /// Its static threads.
    pub fn threads(&self) -> usize {
        self.static_threads
    }

    /// Its dynamic threads.
    pub fn dynamic(&self) -> usize {
        self.dynamic_threads
    }

    /// How long a dynamic thread stays idle before it ends.
    pub fn dynamic_idle(&self) -> Duration {
        self.dynamic_idle
    }

    /// Its own endpoints, as configured (empty: the default one).
    pub fn endpoints(&self) -> &[String] {
        &self.endpoints
    }

    /// The most requests it buffers (0: no limit).
    pub fn buffered_requests(&self) -> usize {
        self.max_buffered_requests
    }

    /// The most octets of requests it buffers (0: no limit).
    pub fn request_buffer_size(&self) -> usize {
        self.max_request_buffer_size
    }
}

/// What a lane has counted: its request buffering and its connections
/// (`rtorb::orb::OrbStats::lanes`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LaneStats {
    /// Requests (and other messages) waiting for a thread of the lane now.
    pub waiting: usize,
    /// Requests buffered since the lane started.
    pub buffered: u64,
    /// Requests answered with `TRANSIENT` (`TRANSIENT_LANE_FULL`) since
    /// the lane started.
    pub refused: u64,
    /// Oneway requests dropped since the lane started, for want of a
    /// thread or of room in the buffer.
    pub dropped_oneways: u64,
    /// Connections open now on the lane's endpoints (the lane's count
    /// against `rtorb::orb::OrbStats::max_server_connections`).
    pub connections: usize,
}

/// How the lanes of the ORB's `-ORBLane` pool buffer requests
/// (`-ORBLaneBuffering`): `REQUESTS[:OCTETS]` bounds every lane (0: no
/// limit), `no` answers `TRANSIENT` at once when a lane's threads are all
/// busy.
///
/// ```
/// use rtorb_rt::LaneBuffering;
///
/// let b: LaneBuffering = "16:65536".parse().unwrap();
/// assert_eq!((b.allowed, b.max_requests, b.max_octets), (true, 16, 65536));
/// assert!(!"no".parse::<LaneBuffering>().unwrap().allowed);
/// assert_eq!(LaneBuffering::default().to_string(), "64");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneBuffering {
    /// Whether lanes buffer ([`ThreadpoolConfig::allow_request_buffering`]).
    pub allowed: bool,
    /// [`LaneConfig::max_buffered_requests`] of every lane.
    pub max_requests: usize,
    /// [`LaneConfig::max_request_buffer_size`] of every lane.
    pub max_octets: usize,
}

impl Default for LaneBuffering {
    /// Allowed, [`DEFAULT_LANE_BUFFERED_REQUESTS`], no octet bound.
    fn default() -> LaneBuffering {
        LaneBuffering {
            allowed: true,
            max_requests: DEFAULT_LANE_BUFFERED_REQUESTS,
            max_octets: 0,
        }
    }
}

/// `-ORBLaneBuffering` is neither `no` nor `REQUESTS[:OCTETS]`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed lane buffering {0:?} (REQUESTS[:OCTETS], 0 for no limit, or no)")]
pub struct BadLaneBuffering(pub String);

impl FromStr for LaneBuffering {
    type Err = BadLaneBuffering;

    fn from_str(s: &str) -> Result<LaneBuffering, BadLaneBuffering> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("no") {
            return Ok(LaneBuffering {
                allowed: false,
                ..LaneBuffering::default()
            });
        }
        let bad = || BadLaneBuffering(s.to_owned());
        let (requests, octets) = s.split_once(':').unwrap_or((s, "0"));
        Ok(LaneBuffering {
            allowed: true,
            max_requests: requests.trim().parse().map_err(|_| bad())?,
            max_octets: octets.trim().parse().map_err(|_| bad())?,
        })
    }
}

impl fmt::Display for LaneBuffering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.allowed {
            return f.write_str("no");
        }
        write!(f, "{}", self.max_requests)?;
        if self.max_octets != 0 {
            write!(f, ":{}", self.max_octets)?;
        }
        Ok(())
    }
}

/// The CPUs of the lane at a priority, written `PRIORITY:CPUS`
/// (`-ORBLaneCpus`), the CPUs a comma-separated list of numbers and
/// ranges (`2`, `0,2`, `1-3`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaneCpus {
    /// The lane's priority.
    pub priority: Priority,
    /// Its CPUs, in increasing order.
    pub cpus: Vec<usize>,
}

/// `-ORBLaneCpus` is malformed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "malformed lane CPUs {0:?} (PRIORITY:CPUS, PRIORITY in 0..=32767, CPUS a list such as 1 or 0,2 or 1-3)"
)]
pub struct BadLaneCpus(pub String);

/// The most CPUs a range of `-ORBLaneCpus` may name.
const MOST_LANE_CPUS: usize = 4096;

impl FromStr for LaneCpus {
    type Err = BadLaneCpus;

    fn from_str(s: &str) -> Result<LaneCpus, BadLaneCpus> {
        let bad = || BadLaneCpus(s.to_owned());
        let (priority, list) = s.trim().split_once(':').ok_or_else(bad)?;
        let priority = priority
            .trim()
            .parse::<i16>()
            .ok()
            .and_then(|p| Priority::new(p).ok())
            .ok_or_else(bad)?;
        let mut cpus = Vec::new();
        for part in list.split(',').map(str::trim) {
            let (from, to) = match part.split_once('-') {
                Some((a, b)) => (a.trim().parse::<usize>(), b.trim().parse::<usize>()),
                None => (part.parse::<usize>(), part.parse::<usize>()),
            };
            let (Ok(from), Ok(to)) = (from, to) else {
                return Err(bad());
            };
            if from > to || to >= MOST_LANE_CPUS {
                return Err(bad());
            }
            cpus.extend(from..=to);
        }
        cpus.sort_unstable();
        cpus.dedup();
        Ok(LaneCpus { priority, cpus })
    }
}

/// A lane written as `PRIORITY:THREADS[:ENDPOINT]` is malformed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "malformed lane {0:?} (PRIORITY:THREADS[:ENDPOINT], PRIORITY in 0..=32767, THREADS at least 1)"
)]
pub struct BadLane(pub String);

impl FromStr for LaneConfig {
    type Err = BadLane;

    /// Parses `PRIORITY:THREADS[:ENDPOINT]` (`-ORBLane`): the endpoint is
    /// everything after the second colon.
    fn from_str(s: &str) -> Result<LaneConfig, BadLane> {
        let bad = || BadLane(s.to_owned());
        let mut parts = s.trim().splitn(3, ':');
        let priority = parts
            .next()
            .and_then(|p| p.trim().parse::<i16>().ok())
            .and_then(|p| Priority::new(p).ok())
            .ok_or_else(bad)?;
        let threads = parts
            .next()
            .and_then(|t| t.trim().parse::<usize>().ok())
            .filter(|t| *t >= 1)
            .ok_or_else(bad)?;
        let mut lane = LaneConfig::new(priority).static_threads(threads);
        if let Some(endpoint) = parts.next().map(str::trim).filter(|e| !e.is_empty()) {
            lane = lane.listen(endpoint);
        }
        Ok(lane)
    }
}

impl fmt::Display for LaneConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.priority.get(), self.static_threads)?;
        if let Some(e) = self.endpoints.first() {
            write!(f, ":{e}")?;
        }
        Ok(())
    }
}

/// A thread pool with lanes (`RTCORBA::RTORB::create_threadpool_with_lanes`):
/// its lanes, and whether lanes may borrow threads and buffer requests.
///
/// ```
/// use rtorb_rt::{LaneConfig, Priority, ThreadpoolConfig};
///
/// let pool = ThreadpoolConfig::new()
///     .lane(LaneConfig::new(Priority::new(100).unwrap()).static_threads(1))
///     .lane(
///         LaneConfig::new(Priority::new(20_000).unwrap())
///             .static_threads(2)
///             .listen("iiop://127.0.0.1:0"),
///     );
/// assert_eq!(pool.lanes().len(), 2);
///
/// // The `-ORBLane` form: PRIORITY:THREADS[:ENDPOINT].
/// let lane: LaneConfig = "20000:2:iiop://127.0.0.1:0".parse().unwrap();
/// assert_eq!(lane.priority(), Priority::new(20_000).unwrap());
/// assert_eq!(lane.threads(), 2);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThreadpoolConfig {
    lanes: Vec<LaneConfig>,
    allow_borrowing: bool,
    allow_request_buffering: bool,
}

impl ThreadpoolConfig {
    /// A pool with no lanes yet; request buffering allowed, borrowing
    /// not.
    pub fn new() -> ThreadpoolConfig {
        ThreadpoolConfig {
            lanes: Vec::new(),
            allow_borrowing: false,
            allow_request_buffering: true,
        }
    }

    /// Adds a lane.
    pub fn lane(mut self, lane: LaneConfig) -> ThreadpoolConfig {
        self.lanes.push(lane);
        self
    }

    /// Whether a lane whose threads are all busy may borrow a thread of a
    /// lower lane of the pool, which runs the lane's waiting requests at
    /// the lane's priority and then goes back to its own lane, at its own
    /// priority (not allowed by default).
    pub fn allow_borrowing(mut self, allow: bool) -> ThreadpoolConfig {
        self.allow_borrowing = allow;
        self
    }

    /// Whether a lane buffers requests while its threads are all busy
    /// (else it answers `TRANSIENT` at once, and drops oneways).
    pub fn allow_request_buffering(mut self, allow: bool) -> ThreadpoolConfig {
        self.allow_request_buffering = allow;
        self
    }

    /// The lanes, as configured.
    pub fn lanes(&self) -> &[LaneConfig] {
        &self.lanes
    }

    /// Whether borrowing is allowed.
    pub fn borrowing(&self) -> bool {
        self.allow_borrowing
    }

    /// Whether request buffering is allowed.
    pub fn request_buffering(&self) -> bool {
        self.allow_request_buffering
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lane_parses_with_and_without_an_endpoint() {
        let l: LaneConfig = "10:3".parse().unwrap();
        assert_eq!((l.priority().get(), l.threads()), (10, 3));
        assert!(l.endpoints().is_empty());
        let l: LaneConfig = "32767:1:uiop:///tmp/x.sock".parse().unwrap();
        assert_eq!(l.endpoints(), ["uiop:///tmp/x.sock"]);
        assert_eq!(l.to_string(), "32767:1:uiop:///tmp/x.sock");
        for bad in ["", "x:1", "-1:1", "10:0", "10", "40000:1"] {
            assert_eq!(bad.parse::<LaneConfig>(), Err(BadLane(bad.to_owned())));
        }
    }

    #[test]
    fn lane_buffering_parses() {
        let b: LaneBuffering = "0".parse().unwrap();
        assert_eq!((b.allowed, b.max_requests, b.max_octets), (true, 0, 0));
        assert_eq!("NO".parse::<LaneBuffering>().unwrap().to_string(), "no");
        assert_eq!(
            "16:65536".parse::<LaneBuffering>().unwrap().to_string(),
            "16:65536"
        );
        for bad in ["", "x", "1:x", "-1", "yes"] {
            assert_eq!(
                bad.parse::<LaneBuffering>(),
                Err(BadLaneBuffering(bad.to_owned()))
            );
        }
    }

    #[test]
    fn lane_cpus_parse_lists_and_ranges() {
        let c: LaneCpus = "90:3".parse().unwrap();
        assert_eq!((c.priority.get(), c.cpus), (90, vec![3]));
        let c: LaneCpus = " 10 : 2, 0-1 ,1 ".parse().unwrap();
        assert_eq!(c.cpus, [0, 1, 2]);
        for bad in [
            "90",
            "90:",
            "x:1",
            "40000:1",
            "90:3-1",
            "90:a",
            "90:0-99999",
        ] {
            assert_eq!(bad.parse::<LaneCpus>(), Err(BadLaneCpus(bad.to_owned())));
        }
    }
}
