//! What an [`super::Orb`] is configured with, and the `-ORB` command-line
//! options that set it.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rtorb_cdr::CodeSetId;

use super::OrbError;
use super::strategy::ServerStrategy;
use crate::codesets::CodeSetConfig;
use crate::rt::{LaneConfig, MappingKind, SchedPolicy, WhenDenied};
use crate::runtime::{ClientProtocolPolicy, SyncScope};

/// How the client side uses its connections to an endpoint.
///
/// Set with [`super::OrbBuilder::connection_strategy`] or
/// `-ORBClientConnectionStrategy exclusive|multiplexed`.
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use rtorb::orb::{ConnectionStrategy, Orb};
/// use rtorb::runtime::{bad_operation, ServerRequest, Skeleton, SystemException};
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
/// let ior = server.object_to_string(&server.activate(Arc::new(Echo))).unwrap();
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
/// assert_eq!(client.idle_connections(), 1);
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

/// The settings of an ORB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrbConfig {
    /// Endpoints to listen on (`iiop://127.0.0.1:0`, `uiop:///tmp/x.sock`).
    pub listen: Vec<String>,
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
    /// [`derived_max_connections`](super::derived_max_connections)).
    /// The cap holds per lane of a thread pool as well: the connections
    /// to a lane's endpoints are counted and shed within that lane.
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
    /// sent whole: see [`super::client::ORB_FRAGMENTS`]). `None` (the default): never fragment.
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
}

/// The largest configuration file (or `file://` reference file) read, in
/// octets; a larger one is an error rather than a large allocation.
pub const MAX_CONFIG_FILE_SIZE: u64 = 1024 * 1024;

/// The environment variable [`super::Orb::init`] reads the configuration
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

/// The default number of leader/followers threads.
pub const DEFAULT_SERVER_THREADS: usize = 4;

impl Default for OrbConfig {
    fn default() -> Self {
        OrbConfig {
            listen: Vec::new(),
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
        }
    }
}

impl OrbConfig {
    /// Takes the `-ORB` options out of `args` into the configuration and
    /// returns the other arguments, in order.
    ///
    /// The options, their other names (omniORB's among them), builder
    /// methods, policies and defaults are the table
    /// [`ORB_OPTIONS`](super::options::ORB_OPTIONS), which the README
    /// shows.
    ///
    /// Options (names in any case): `-ORBListenEndpoints E` (several
    /// endpoints separated by `;` or spaces), `-ORBEndpoint E`,
    /// `-ORBInitRef Name=URL`, `-ORBRoundTripTimeout MS` (0: none) and
    /// `-ORBConnectTimeout MS` (milliseconds), and for the server
    /// `-ORBServerStrategy reactive|thread-per-connection|leader-followers`,
    /// `-ORBServerThreads N`, `-ORBMaxMessageSize OCTETS`,
    /// `-ORBIncompleteMessageTimeout MS`, `-ORBMaxConnections N`,
    /// `-ORBMaxOutputBuffer OCTETS`, `-ORBServerWriteTimeout MS` and
    /// `-ORBMemoryBudget OCTETS`, and
    /// for the client `-ORBClientConnectionStrategy exclusive|multiplexed`,
    /// `-ORBConnectionIdleTimeout MS`, `-ORBFragmentSize OCTETS`,
    /// `-ORBSyncScope none|transport|server|target`,
    /// `-ORBClientProtocolPolicy LIST` (see
    /// [`ClientProtocolPolicy::parse`]: `uiop,iiop+lite,*`), for the
    /// object adapters `-ORBPoaHoldLimit N`, and for text
    /// `-ORBNativeCharCodeSet UTF-8|ISO-8859-1`,
    /// `-ORBNativeWCharCodeSet UTF-16|UCS-2`,
    /// `-ORBAssumedCharCodeSet ISO-8859-1|UTF-8` and
    /// `-ORBAssumedWCharCodeSet none|UTF-16|UCS-2` (see [`CodeSetConfig`];
    /// code sets named as in the OSF registry, in any case, or by number,
    /// `0x05010001`). `-ORBConfigFile PATH`
    /// applies a configuration file (see [`OrbConfig::apply_file`]) at
    /// that point of the arguments; [`super::Orb::init`] instead applies
    /// it before every other option (see [`OrbConfig::from_init_args`]).
    /// Any other argument starting with `-ORB` is an error.
    pub fn apply_args<I, S>(&mut self, args: I) -> Result<Vec<String>, OrbError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut rest = Vec::new();
        let mut it = args.into_iter().map(Into::into);
        while let Some(arg) = it.next() {
            if !arg.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("-ORB")) {
                rest.push(arg);
                continue;
            }
            // By its name or an alias, in any case: the table's name.
            let Some(known) = super::options::find(&arg[4..]) else {
                return Err(OrbError::Args(format!("unknown option {arg}")));
            };
            let option = known.name.to_ascii_lowercase();
            let mut value = || {
                it.next()
                    .ok_or_else(|| OrbError::Args(format!("{arg} needs a value")))
            };
            match option.as_str() {
                "listenendpoints" => {
                    let v = value()?;
                    self.listen.extend(
                        v.split([';', ' '])
                            .filter(|s| !s.is_empty())
                            .map(str::to_owned),
                    );
                }
                "endpoint" => {
                    let v = value()?;
                    self.listen.push(v);
                }
                "initref" => {
                    let v = value()?;
                    let Some((name, url)) = v.split_once('=') else {
                        return Err(OrbError::Args(format!("{arg} wants Name=URL, not {v:?}")));
                    };
                    self.initial_references
                        .push((name.to_owned(), url.to_owned()));
                }
                "roundtriptimeout" => {
                    let v = value()?;
                    // 0: no limit, as omniORB's clientCallTimeOutPeriod.
                    self.round_trip_timeout = Some(millis(&arg, &v)?).filter(|t| !t.is_zero());
                }
                "connecttimeout" => {
                    let v = value()?;
                    self.connect_timeout = millis(&arg, &v)?;
                }
                "serverstrategy" => {
                    let v = value()?;
                    self.server_strategy = v
                        .parse()
                        .map_err(|e| OrbError::Args(format!("{arg}: {e}")))?;
                }
                "serverthreads" => {
                    let v = value()?;
                    self.server_threads = count(&arg, &v)?.max(1);
                }
                "maxmessagesize" => {
                    let v = value()?;
                    self.max_message_size = v.parse().map_err(|_| {
                        OrbError::Args(format!("{arg} wants a number of octets, not {v:?}"))
                    })?;
                }
                "incompletemessagetimeout" => {
                    let v = value()?;
                    self.incomplete_message_timeout = millis(&arg, &v)?;
                }
                "maxconnections" => {
                    let v = value()?;
                    self.max_connections = count(&arg, &v)?;
                }
                "listenbacklog" => {
                    let v = value()?;
                    self.listen_backlog = if v.trim().eq_ignore_ascii_case("system") {
                        None
                    } else {
                        Some(v.parse().map_err(|_| {
                            OrbError::Args(format!(
                                "{arg} wants a number of connections or system, not {v:?}"
                            ))
                        })?)
                    };
                }
                "maxoutputbuffer" => {
                    let v = value()?;
                    self.max_output_buffer = count(&arg, &v)?;
                }
                "memorybudget" => {
                    let v = value()?;
                    self.memory_budget = count(&arg, &v)?;
                }
                "serveridletimeout" => {
                    let v = value()?;
                    // 0: never.
                    self.server_idle_timeout = Some(millis(&arg, &v)?).filter(|t| !t.is_zero());
                }
                "schedpolicy" => {
                    let v = value()?;
                    self.sched_policy = v
                        .parse()
                        .map_err(|e| OrbError::Args(format!("{arg}: {e}")))?;
                }
                "prioritymapping" => {
                    let v = value()?;
                    self.priority_mapping = v
                        .parse()
                        .map_err(|e| OrbError::Args(format!("{arg}: {e}")))?;
                }
                "scheddenied" => {
                    let v = value()?;
                    self.sched_denied = v
                        .parse()
                        .map_err(|e| OrbError::Args(format!("{arg}: {e}")))?;
                }
                "lane" => {
                    let v = value()?;
                    let lane = v
                        .parse()
                        .map_err(|e| OrbError::Args(format!("{arg}: {e}")))?;
                    self.lanes.push(lane);
                }
                "serverwritetimeout" => {
                    let v = value()?;
                    self.server_write_timeout = millis(&arg, &v)?;
                }
                "clientconnectionstrategy" => {
                    let v = value()?;
                    self.connection_strategy = ConnectionStrategy::parse(&v).ok_or_else(|| {
                        OrbError::Args(format!("{arg} wants exclusive or multiplexed, not {v:?}"))
                    })?;
                }
                "connectionidletimeout" => {
                    let v = value()?;
                    self.connection_idle_timeout = Some(millis(&arg, &v)?);
                }
                "fragmentsize" => {
                    let v = value()?;
                    let n = v
                        .parse::<usize>()
                        .ok()
                        .filter(|n| *n >= rtorb_giop::fragment::MIN_FRAGMENT_SIZE)
                        .ok_or_else(|| {
                            OrbError::Args(format!(
                                "{arg} wants a size of at least {} octets, not {v:?}",
                                rtorb_giop::fragment::MIN_FRAGMENT_SIZE
                            ))
                        })?;
                    self.fragment_size = Some(n);
                }
                "syncscope" => {
                    let v = value()?;
                    self.sync_scope = match v.to_ascii_lowercase().as_str() {
                        "none" => SyncScope::None,
                        "transport" => SyncScope::WithTransport,
                        "server" => SyncScope::WithServer,
                        "target" => SyncScope::WithTarget,
                        _ => {
                            return Err(OrbError::Args(format!(
                                "{arg} wants none, transport, server or target, not {v:?}"
                            )));
                        }
                    };
                }
                "clientprotocolpolicy" => {
                    let v = value()?;
                    self.client_protocol =
                        Some(ClientProtocolPolicy::parse(&v).ok_or_else(|| {
                            OrbError::Args(format!(
                                "{arg} wants a list like uiop,iiop+lite,*, not {v:?}"
                            ))
                        })?);
                }
                "poaholdlimit" => {
                    let v = value()?;
                    self.poa_hold_limit = v
                        .parse()
                        .map_err(|_| OrbError::Args(format!("{arg} wants a number, not {v:?}")))?;
                }
                "nativecharcodeset" => {
                    let v = value()?;
                    self.code_sets.native_char = code_set(&arg, &v, false)?;
                    self.code_sets.check().map_err(OrbError::Args)?;
                }
                "nativewcharcodeset" => {
                    let v = value()?;
                    self.code_sets.native_wchar = code_set(&arg, &v, false)?;
                    self.code_sets.check().map_err(OrbError::Args)?;
                }
                "assumedcharcodeset" => {
                    let v = value()?;
                    self.code_sets.assumed_char = code_set(&arg, &v, false)?;
                    self.code_sets.check().map_err(OrbError::Args)?;
                }
                "assumedwcharcodeset" => {
                    let v = value()?;
                    self.code_sets.assumed_wchar = code_set(&arg, &v, true)?;
                    self.code_sets.check().map_err(OrbError::Args)?;
                }
                "configfile" => {
                    let v = value()?;
                    self.apply_file(v)?;
                }
                _ => return Err(OrbError::Args(format!("unknown option {arg}"))),
            }
        }
        Ok(rest)
    }

    /// The configuration `CORBA::ORB_init` builds from `args`, and the
    /// arguments that are not `-ORB` options.
    ///
    /// Precedence: the command line over the configuration file over the
    /// defaults. The file is the last `-ORBConfigFile PATH` of `args`, or,
    /// when there is none, `env_file` ([`super::Orb::init`] passes the
    /// [`CONFIG_ENV`] variable, `RTORB_CONFIG`); it is applied first, then
    /// every other option of `args` in order. Options that may repeat
    /// (endpoints, `InitRef`) accumulate, the file's first; of two
    /// `InitRef`s with the same name the later, the command line's, wins.
    pub fn from_init_args<I, S>(
        args: I,
        env_file: Option<OsString>,
    ) -> Result<(OrbConfig, Vec<String>), OrbError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut others = Vec::new();
        let mut file = None;
        let mut it = args.into_iter().map(Into::into);
        while let Some(arg) = it.next() {
            if arg.len() == 14 && arg.eq_ignore_ascii_case("-ORBConfigFile") {
                let path = it
                    .next()
                    .ok_or_else(|| OrbError::Args(format!("{arg} needs a value")))?;
                file = Some(PathBuf::from(path));
            } else {
                others.push(arg);
            }
        }
        let mut config = OrbConfig::default();
        if let Some(path) = file.or_else(|| env_file.filter(|p| !p.is_empty()).map(PathBuf::from)) {
            config.apply_file(&path)?;
        }
        let rest = config.apply_args(others)?;
        Ok((config, rest))
    }

    /// Applies a configuration file in the style of omniORB's
    /// `omniORB.cfg`: one `name = value` per line, the name being a `-ORB`
    /// option's without the prefix (any case), the value the option's
    /// (see [`OrbConfig::apply_args`]); blank lines and lines starting
    /// with `#` are ignored, and an option that may repeat (`Endpoint`,
    /// `ListenEndpoints`, `InitRef`) may appear on several lines.
    ///
    /// ```text
    /// # A server on a well-known port, serving from a thread pool.
    /// ListenEndpoints = iiop://0.0.0.0:2809
    /// InitRef         = NameService=corbaloc::host:2809/NameService
    /// ServerStrategy  = leader-followers
    /// ServerThreads   = 8
    /// ```
    ///
    /// A file that cannot be read, is larger than
    /// [`MAX_CONFIG_FILE_SIZE`] or is not UTF-8, and a line that is not
    /// `name = value`, names an unknown option or has a bad value, are
    /// [`OrbError::ConfigFile`] errors naming the file and the line.
    pub fn apply_file(&mut self, path: impl AsRef<Path>) -> Result<(), OrbError> {
        let path = path.as_ref();
        let text = read_bounded(path).map_err(|message| OrbError::ConfigFile {
            file: path.to_owned(),
            line: None,
            message,
        })?;
        self.apply_config_text(path, &text)
    }

    /// Applies the text of a configuration file (see
    /// [`OrbConfig::apply_file`]); `file` names it in errors.
    pub fn apply_config_text(&mut self, file: &Path, text: &str) -> Result<(), OrbError> {
        for (n, raw) in text.lines().enumerate() {
            let err = |message: String| OrbError::ConfigFile {
                file: file.to_owned(),
                line: Some(n + 1),
                message,
            };
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((name, value)) = line.split_once('=') else {
                return Err(err(format!("expected name = value, not {line:?}")));
            };
            let (name, value) = (name.trim(), value.trim());
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(err(format!("bad option name {name:?}")));
            }
            if name.eq_ignore_ascii_case("ConfigFile") {
                return Err(err(
                    "ConfigFile cannot be set in a configuration file".into()
                ));
            }
            if value.is_empty() {
                return Err(err(format!("{name} needs a value")));
            }
            self.apply_args([format!("-ORB{name}"), value.to_owned()])
                .map_err(|e| err(e.to_string()))?;
        }
        Ok(())
    }
}

/// Reads a UTF-8 text file of at most [`MAX_CONFIG_FILE_SIZE`] octets.
pub(crate) fn read_bounded(path: &Path) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_CONFIG_FILE_SIZE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_CONFIG_FILE_SIZE {
        return Err(format!(
            "larger than the limit of {MAX_CONFIG_FILE_SIZE} octets"
        ));
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_owned())
}

fn millis(option: &str, v: &str) -> Result<Duration, OrbError> {
    v.parse::<u64>()
        .map(Duration::from_millis)
        .map_err(|_| OrbError::Args(format!("{option} wants milliseconds, not {v:?}")))
}

/// A code set by name or number; `none` too where `none_allowed`.
fn code_set(option: &str, v: &str, none_allowed: bool) -> Result<CodeSetId, OrbError> {
    if none_allowed && v.trim().eq_ignore_ascii_case("none") {
        return Ok(CodeSetId::NONE);
    }
    v.parse()
        .map_err(|e: rtorb_cdr::codeset::UnknownCodeSet| OrbError::Args(format!("{option}: {e}")))
}

fn count(option: &str, v: &str) -> Result<usize, OrbError> {
    v.parse::<usize>()
        .map_err(|_| OrbError::Args(format!("{option} wants a number, not {v:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orb_options_are_taken_and_the_rest_kept() {
        let mut c = OrbConfig::default();
        let rest = c
            .apply_args([
                "prog",
                "-ORBListenEndpoints",
                "iiop://127.0.0.1:0;uiop:///tmp/a.sock",
                "x",
                "-ORBendPoint",
                "iiop://[::1]:0",
                "-ORBInitRef",
                "Cubit=corbaloc::1.2@127.0.0.1:1/Cubit",
                "-ORBRoundTripTimeout",
                "250",
                "-ORBServerStrategy",
                "leader-followers",
                "-ORBServerThreads",
                "3",
                "-ORBMaxMessageSize",
                "65536",
                "-ORBIncompleteMessageTimeout",
                "1500",
                "-ORBMaxConnections",
                "16",
                "-ORBMaxOutputBuffer",
                "4096",
                "-ORBServerWriteTimeout",
                "700",
                "-ORBPoaHoldLimit",
                "3",
            ])
            .unwrap();
        assert_eq!(c.poa_hold_limit, 3);
        assert_eq!(rest, ["prog", "x"]);
        assert_eq!(
            c.listen,
            ["iiop://127.0.0.1:0", "uiop:///tmp/a.sock", "iiop://[::1]:0"]
        );
        assert_eq!(
            c.initial_references,
            [(
                "Cubit".to_owned(),
                "corbaloc::1.2@127.0.0.1:1/Cubit".to_owned()
            )]
        );
        assert_eq!(c.round_trip_timeout, Some(Duration::from_millis(250)));
        assert_eq!(c.server_strategy, ServerStrategy::LeaderFollowers);
        assert_eq!(c.server_threads, 3);
        assert_eq!(c.max_message_size, 65536);
        assert_eq!(c.incomplete_message_timeout, Duration::from_millis(1500));
        assert_eq!(c.max_connections, 16);
        assert_eq!(c.max_output_buffer, 4096);
        assert_eq!(c.server_write_timeout, Duration::from_millis(700));
        for s in ["reactive", "thread-per-connection", "LEADER_FOLLOWERS"] {
            let mut c = OrbConfig::default();
            c.apply_args(["-ORBServerStrategy", s]).unwrap();
            assert_eq!(
                c.server_strategy.as_str(),
                s.to_ascii_lowercase().replace('_', "-")
            );
        }
        assert_eq!(c.connection_strategy, ConnectionStrategy::Exclusive);
    }

    #[test]
    fn connection_and_policy_options_are_taken() {
        let mut c = OrbConfig::default();
        let rest = c
            .apply_args([
                "-ORBClientConnectionStrategy",
                "multiplexed",
                "-ORBConnectionIdleTimeout",
                "1500",
                "-ORBFragmentSize",
                "65536",
                "-ORBSyncScope",
                "server",
                "-ORBClientProtocolPolicy",
                "uiop,iiop+lite,*",
            ])
            .unwrap();
        assert!(rest.is_empty());
        assert_eq!(c.connection_strategy, ConnectionStrategy::Multiplexed);
        assert_eq!(c.connection_idle_timeout, Some(Duration::from_millis(1500)));
        assert_eq!(c.fragment_size, Some(65536));
        assert_eq!(c.sync_scope, SyncScope::WithServer);
        assert_eq!(
            c.client_protocol,
            ClientProtocolPolicy::parse("uiop,iiop+lite,*")
        );
    }

    #[test]
    fn bad_orb_options_are_errors() {
        for args in [
            &["-ORBEndpoint"][..],
            &["-ORBInitRef", "NoEquals"],
            &["-ORBRoundTripTimeout", "soon"],
            &["-ORBFrobnicate", "1"],
            &["-ORBServerStrategy", "thread-per-request"],
            &["-ORBServerThreads", "many"],
            &["-ORBMaxMessageSize", "-1"],
            &["-ORBMaxConnections"],
            &["-ORBClientConnectionStrategy", "shared"],
            &["-ORBFragmentSize", "8"],
            &["-ORBSyncScope", "maybe"],
            &["-ORBClientProtocolPolicy", "iiop+tls"],
            &["-ORBNativeCharCodeSet", "EBCDIC"],
            &["-ORBNativeCharCodeSet", "ISO-8859-15"],
            &["-ORBNativeWCharCodeSet", "UTF-8"],
            &["-ORBNativeWCharCodeSet", "none"],
            &["-ORBAssumedCharCodeSet", "none"],
            &["-ORBAssumedWCharCodeSet", "0x00010106"],
        ] {
            let mut c = OrbConfig::default();
            assert!(
                matches!(c.apply_args(args.iter().copied()), Err(OrbError::Args(_))),
                "{args:?}"
            );
        }
    }

    #[test]
    fn code_set_options_take_names_and_numbers() {
        let mut c = OrbConfig::default();
        assert_eq!(c.code_sets, CodeSetConfig::DEFAULT);
        c.apply_args([
            "-ORBnativeCharCodeSet",
            "ISO-8859-1",
            "-ORBnativeWCharCodeSet",
            "0x00010100",
            "-ORBassumedCharCodeSet",
            "utf8",
            "-ORBAssumedWCharCodeSet",
            "UTF-16",
        ])
        .unwrap();
        assert_eq!(
            c.code_sets,
            CodeSetConfig {
                native_char: CodeSetId::ISO_8859_1,
                native_wchar: CodeSetId::UCS_2,
                assumed_char: CodeSetId::UTF_8,
                assumed_wchar: CodeSetId::UTF_16,
            }
        );
        c.apply_args(["-ORBAssumedWCharCodeSet", "None"]).unwrap();
        assert_eq!(c.code_sets.assumed_wchar, CodeSetId::NONE);
        let e = c
            .apply_args(["-ORBAssumedCharCodeSet", "UTF-7"])
            .unwrap_err();
        assert!(e.to_string().contains("unknown code set \"UTF-7\""), "{e}");
    }
}
