//! [`OrbConfig`]: the settings of an ORB, their defaults and limits; and
//! [`ConnectionStrategy`], the value of one of them.

use std::time::Duration;

use crate::codesets::CodeSetConfig;
use crate::orb::strategy::ServerStrategy;
use crate::policy::{ClientProtocolPolicy, SyncScope};
use crate::rt::{
    LaneBuffering, LaneConfig, LaneCpus, MappingKind, SchedPolicy, ThreadpoolConfig, WhenDenied,
};

/// How the client side uses its connections to an endpoint.
///
/// Set with [`crate::orb::OrbBuilder::connection_strategy`] or
/// `-ORBClientConnectionStrategy exclusive|multiplexed`.
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use rtorb::orb::{ConnectionStrategy, Orb};
/// use rtorb::exception::{bad_operation, SystemException};
/// use rtorb::servant::{ServerRequest, Skeleton};
/// use rtorb_cdr::{CdrDecode, CdrEncode};
///
/// struct Echo;
/// impl Skeleton for Echo {
///     fn repository_ids(&self) -> &'static [&'static str] { &["IDL:Echo:1.0"] }
///     fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
///         match req.operation() {
///             "echo" => {
///                 let l = i32::decode(req.arguments())?;
///                 req.write_results(|e| l.encode(e))
///             }
///             _ => Err(bad_operation()),
///         }
///     }
/// }
///
/// let server = Orb::builder().listen("iiop://127.0.0.1:0").build().unwrap();
/// let ior = server.object_to_string(&server.activate(Arc::new(Echo)).unwrap()).unwrap();
///
/// let (client, _) = Orb::init(["-ORBClientConnectionStrategy", "multiplexed"]).unwrap();
/// assert_eq!(client.config().connection_strategy, ConnectionStrategy::Multiplexed);
/// let obj = client.string_to_object(&ior).unwrap();
/// // Explicit binding: connected before the first call.
/// assert_eq!(obj.validate_connection(), Ok(true));
/// let calls: Vec<_> = (0..4)
///     .map(|i: i32| {
///         let obj = obj.clone();
///         std::thread::spawn(move || {
///             obj.invoke("echo", |e| i.encode(e)).unwrap()
///                 .decode::<i32, SystemException>(i32::decode).unwrap()
///         })
///     })
///     .collect();
/// for (i, c) in calls.into_iter().enumerate() {
///     assert_eq!(c.join().unwrap(), i as i32);
/// }
/// // One shared connection carried every call.
/// assert_eq!(client.stats().idle_client_connections, 1);
/// server.shutdown();
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ConnectionStrategy {
    /// One request in flight per connection: a call takes an idle
    /// connection to the endpoint (or opens one) and has it to itself
    /// until its reply has come. Concurrent calls use as many
    /// connections. The default: no thread ever waits for another's
    /// reply, which keeps priorities apart.
    #[default]
    Exclusive,
    /// One connection per endpoint shared by every call: many requests in
    /// flight at once, each calling thread waiting for its own reply
    /// (leader/followers: one waiting thread reads and hands the other
    /// replies to their threads).
    Multiplexed,
}

impl ConnectionStrategy {
    /// Parses `exclusive` or `multiplexed` (any case; `mux` too).
    pub fn parse(s: &str) -> Option<ConnectionStrategy> {
        match s.to_ascii_lowercase().as_str() {
            "exclusive" => Some(ConnectionStrategy::Exclusive),
            "multiplexed" | "mux" => Some(ConnectionStrategy::Multiplexed),
            _ => None,
        }
    }
}

/// The settings of an ORB: what [`OrbBuilder`](crate::orb::OrbBuilder)'s
/// setters, the `-ORB` options and configuration files set, each through
/// its row of the table of options ([`crate::orb::options`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrbConfig {
    /// Endpoints to listen on (`iiop://127.0.0.1:0`, `uiop:///tmp/x.sock`).
    pub listen: Vec<String>,
    /// Where an ORB with no [`listen`](OrbConfig::listen) endpoints
    /// listens once it serves objects (`-ORBDefaultEndpoint`; see
    /// [`OrbBuilder::default_endpoint`](crate::orb::OrbBuilder::default_endpoint)):
    /// by default `iiop://0.0.0.0:0`; `None`: such an ORB serves in process
    /// only.
    pub default_endpoint: Option<String>,
    /// Initial references by name (`-ORBInitRef Name=URL`).
    pub initial_references: Vec<(String, String)>,
    /// How long a twoway call may take from sending the request to
    /// receiving its reply (the relative round-trip timeout); `None`: no
    /// limit. An expired call fails with `TIMEOUT`.
    pub round_trip_timeout: Option<Duration>,
    /// How long opening a connection may take.
    pub connect_timeout: Duration,
    /// How long the server waits to write a reply to a client that does
    /// not read.
    pub server_write_timeout: Duration,
    /// How often an idle server connection looks whether the ORB is
    /// shutting down (and, in the event-driven strategies, how often
    /// connections are checked for the timeouts below).
    pub server_poll_interval: Duration,
    /// How the server's threads serve connections (`-ORBServerStrategy`);
    /// thread-per-connection by default (see [`ServerStrategy`] for why).
    pub server_strategy: ServerStrategy,
    /// The threads of the [`ServerStrategy::LeaderFollowers`] pool
    /// (`-ORBServerThreads`, at least 1).
    pub server_threads: usize,
    /// The largest message the server accepts, in octets after the
    /// header (`-ORBMaxMessageSize`); a header announcing more is refused
    /// before anything is buffered for it, with `IMP_LIMIT` (minor
    /// [`IMP_LIMIT_MESSAGE_TOO_LARGE`](crate::minor::IMP_LIMIT_MESSAGE_TOO_LARGE))
    /// in a reply to a request whose id has arrived, else with
    /// `MessageError`, and the connection closed. It also bounds a
    /// reassembled fragmented message.
    /// [`DEFAULT_MAX_MESSAGE_SIZE`] by default.
    pub max_message_size: u32,
    /// How long a connection may hold part of a message (an incomplete
    /// message or fragmented request) without completing a message before
    /// it is closed (`-ORBIncompleteMessageTimeout`): the clock starts
    /// again at every whole message, so a client whose messages keep
    /// completing is never cut off.
    pub incomplete_message_timeout: Duration,
    /// The most connections the server keeps open at once
    /// (`-ORBMaxConnections`); at it, a connection with no request in
    /// progress is closed with `CloseConnection` to make room for a new
    /// one (of those that never completed a message, the oldest, one
    /// silent for a second before one that sent part of a message, one
    /// that just connected last; else the least recently active of those
    /// that did), which is closed at once (with `CloseConnection` too)
    /// only if none can be.
    /// 0 (the default): derived from the process's descriptor limit, which
    /// a server raises to the hard limit when it starts (see
    /// [`derived_max_connections`](crate::orb::derived_max_connections)).
    /// The cap bounds the connections of the ORB's own endpoints and of
    /// every thread pool lane together; each of them is reserved a share
    /// the others never take, and a lane's connections are shed within
    /// that lane (see [`OrbStats::total_server_connections`]).
    ///
    /// [`OrbStats::total_server_connections`]: crate::orb::OrbStats::total_server_connections
    pub max_connections: usize,
    /// How many connections may wait to be accepted on each listening
    /// endpoint (`-ORBListenBacklog`); `None` (the default): the system's
    /// maximum (`net.core.somaxconn`, at most 65535).
    pub listen_backlog: Option<u32>,
    /// How long a server connection may stay idle (no part of a message
    /// held, no reply queued) before the server closes it with
    /// `CloseConnection` (`-ORBServerIdleTimeout`); `None` (the default):
    /// never. Off by default because timing every idle connection wakes
    /// the server for it, and at the connection cap idle connections are
    /// shed anyway, oldest first, when a new one needs the room.
    pub server_idle_timeout: Option<Duration>,
    /// The most reply octets the event-driven strategies queue for a
    /// connection that is not reading them (`-ORBMaxOutputBuffer`): past
    /// it the connection's requests are not read until the queue drains,
    /// and a queue that does not drain for
    /// [`server_write_timeout`](OrbConfig::server_write_timeout) closes
    /// the connection. (A thread per connection writes blocking and holds
    /// one reply at most.)
    pub max_output_buffer: usize,
    /// How client calls use connections (default
    /// [`ConnectionStrategy::Exclusive`]).
    pub connection_strategy: ConnectionStrategy,
    /// How long a client connection may stay unused before it is closed;
    /// `None` (the default): until the ORB is dropped or the server
    /// closes it.
    pub connection_idle_timeout: Option<Duration>,
    /// The largest GIOP message sent in one piece, client requests and
    /// server replies alike; a larger GIOP 1.2 message goes out as
    /// fragments of at most this size (GIOP 1.0, 1.1 and GIOPlite ones are
    /// sent whole: see [`ORB_FRAGMENTS`]). `None` (the default): never fragment.
    pub fragment_size: Option<usize>,
    /// The sync scope of oneway calls that set none at object or thread
    /// level (default [`SyncScope::WithTransport`]).
    pub sync_scope: SyncScope,
    /// The ORB's `ClientProtocolPolicy`, unless the object or thread
    /// overrides it; `None` (the default): every profile in the order of
    /// the reference.
    pub client_protocol: Option<ClientProtocolPolicy>,
    /// How many requests a POA manager in the holding state lets wait;
    /// more get `TRANSIENT` (`-ORBPoaHoldLimit N`).
    pub poa_hold_limit: usize,
    /// The most octets the server buffers for all its connections
    /// together (`-ORBMemoryBudget`): the part received of messages larger
    /// than 16 KiB, fragments held for reassembly, `SYNC_WITH_SERVER`
    /// requests queued for their upcall, and replies queued for clients
    /// that do not read them. A message whose header announces
    /// more than what remains is refused (`NO_MEMORY`, minor
    /// [`NO_MEMORY_BUDGET`](crate::minor::NO_MEMORY_BUDGET), in a reply
    /// to a request whose id has arrived, else `MessageError`) and its connection
    /// closed; a connection with replies queued is not read while the
    /// budget is spent. [`DEFAULT_MEMORY_BUDGET`] by default.
    ///
    /// Each lane of a thread pool has a budget of its own of this size
    /// for the connections to its endpoints, so that what one lane's
    /// peers hold never refuses another lane's requests: a server with
    /// lanes buffers at most this much per lane and for its own
    /// endpoints.
    pub memory_budget: usize,
    /// The native code sets, and those assumed when the other side tells
    /// none (`-ORBNativeCharCodeSet`, `-ORBNativeWCharCodeSet`,
    /// `-ORBAssumedCharCodeSet`, `-ORBAssumedWCharCodeSet`; see
    /// [`CodeSetConfig`]).
    pub code_sets: CodeSetConfig,
    /// The scheduling policy CORBA priorities map onto
    /// (`-ORBSchedPolicy`): SCHED_FIFO by default.
    pub sched_policy: SchedPolicy,
    /// The priority mapping onto it (`-ORBPriorityMapping`): linear by
    /// default (see [`crate::rt::MappingKind`]).
    pub priority_mapping: MappingKind,
    /// What happens when the system refuses the policy
    /// (`-ORBSchedDenied`): by default threads run on under SCHED_OTHER,
    /// after one warning.
    pub sched_denied: WhenDenied,
    /// The lanes of a thread pool the ORB starts with (`-ORBLane
    /// PRIORITY:THREADS[:ENDPOINT]`, repeatable; none by default).
    pub lanes: Vec<LaneConfig>,
    /// How the lanes of `-ORBLane` buffer requests while their threads
    /// are all busy (`-ORBLaneBuffering REQUESTS[:OCTETS]` or `no`; 64
    /// requests by default).
    pub lane_buffering: LaneBuffering,
    /// Whether the lanes of `-ORBLane` borrow threads of lower lanes
    /// (`-ORBLaneBorrowing yes|no`; no by default).
    pub lane_borrowing: bool,
    /// The CPUs of the `-ORBLane` lanes (`-ORBLaneCpus PRIORITY:CPUS`,
    /// repeatable; each names the lane at its priority, which must be
    /// one of `lanes`): by default a lane's threads may run on any CPU.
    pub lane_cpus: Vec<LaneCpus>,
    /// The thread pools the ORB starts with besides the one of
    /// [`lanes`](OrbConfig::lanes), in order
    /// ([`OrbBuilder::threadpool`](crate::orb::OrbBuilder::threadpool); no
    /// `-ORB` option).
    pub threadpools: Vec<ThreadpoolConfig>,
    /// Whether the ORB locks its process's memory when it starts
    /// (`-ORBLockMemory yes|no`; no by default): every page the process
    /// has and will map stays in RAM, so that no request waits for one to
    /// be read back in. Process-wide, for the life of the process; where
    /// the system refuses, one `warn` line and the ORB runs on (see
    /// [`crate::rt::lock_memory`]).
    pub lock_memory: bool,
    /// A bound on every CPU's wake-up latency held while the ORB runs
    /// (`-ORBCpuLatency MICROSECONDS` or `none`; none by default), through
    /// `/dev/cpu_dma_latency`, so that a lane's thread on an idle CPU wakes
    /// for a request without leaving a deep sleep state. Machine-wide;
    /// where the system refuses, one `warn` line and the ORB runs on (see
    /// [`crate::rt::CpuLatencyBound`]).
    pub cpu_latency: Option<Duration>,
}

/// The lowest GIOP version whose messages the ORB sends as fragments
/// (requests and replies larger than the configured fragment size).
///
/// GIOP 1.2, not 1.1: a GIOP 1.1 `Fragment` is aligned from its own start
/// (its body 12 octets in, as omniORB writes and reads them), so a message
/// already encoded cannot be cut into 1.1 fragments without encoding it
/// again: a cut on an 8-octet boundary of the message leaves the next
/// 8-octet item 4 octets short of the padding the peer expects, any other
/// cut splits a primitive. GIOP 1.1 messages go whole (fragmenting is
/// never required); in GIOP 1.2 the 16-octet fragment header keeps the
/// alignment.
pub const ORB_FRAGMENTS: rtorb_cdr::Version = rtorb_cdr::Version::V1_2;

/// The largest configuration file (or `file://` reference file) read, in
/// octets; a larger one is an error rather than a large allocation.
pub const MAX_CONFIG_FILE_SIZE: u64 = 1024 * 1024;

/// The environment variable [`crate::orb::Orb::init`] reads the configuration
/// file's path from when the arguments name none with `-ORBConfigFile`.
pub const CONFIG_ENV: &str = "RTORB_CONFIG";

/// The default largest message the server accepts, in octets after the
/// header: 16 MiB. omniORB's `giopMaxMsgSize` is 2 MiB, which turns away
/// the large sequences some applications send in one call; 16 MiB keeps
/// those, while four messages of the largest size fit in the default
/// [memory budget](DEFAULT_MEMORY_BUDGET). Larger messages need a larger
/// `-ORBMaxMessageSize` (and budget).
pub const DEFAULT_MAX_MESSAGE_SIZE: u32 = 16 * 1024 * 1024;

/// The default memory budget of the server: 64 MiB, a small fraction of
/// any machine a server runs on, and room for several of the largest
/// messages at once (see [`DEFAULT_MAX_MESSAGE_SIZE`]); the peers of a
/// small server cannot make it buffer more.
pub const DEFAULT_MEMORY_BUDGET: usize = 64 * 1024 * 1024;

/// Where an ORB given no endpoint listens once it serves objects, unless
/// configured otherwise ([`OrbConfig::default_endpoint`]): an ephemeral
/// IIOP port on every IPv4 interface, published under the host's name.
pub const DEFAULT_ENDPOINT: &str = "iiop://0.0.0.0:0";

/// The default number of leader/followers threads.
pub const DEFAULT_SERVER_THREADS: usize = 4;

impl Default for OrbConfig {
    fn default() -> Self {
        OrbConfig {
            listen: Vec::new(),
            default_endpoint: Some(DEFAULT_ENDPOINT.to_owned()),
            initial_references: Vec::new(),
            round_trip_timeout: None,
            connect_timeout: Duration::from_secs(10),
            server_write_timeout: Duration::from_secs(30),
            server_poll_interval: Duration::from_millis(50),
            server_strategy: ServerStrategy::default(),
            server_threads: DEFAULT_SERVER_THREADS,
            max_message_size: DEFAULT_MAX_MESSAGE_SIZE,
            incomplete_message_timeout: Duration::from_secs(10),
            max_connections: 0,
            listen_backlog: None,
            server_idle_timeout: None,
            max_output_buffer: 1024 * 1024,
            connection_strategy: ConnectionStrategy::Exclusive,
            connection_idle_timeout: None,
            fragment_size: None,
            sync_scope: SyncScope::WithTransport,
            client_protocol: None,
            poa_hold_limit: 1024,
            code_sets: CodeSetConfig::DEFAULT,
            memory_budget: DEFAULT_MEMORY_BUDGET,
            sched_policy: SchedPolicy::Fifo,
            priority_mapping: MappingKind::Linear,
            sched_denied: WhenDenied::RunAtOther,
            lanes: Vec::new(),
            lane_buffering: LaneBuffering::default(),
            lane_borrowing: false,
            lane_cpus: Vec::new(),
            threadpools: Vec::new(),
            lock_memory: false,
            cpu_latency: None,
        }
    }
}
