//! The table of options, [`ORB_OPTIONS`], with the macros that declare it
//! and [`find`], which looks an option up in it.
//!
//! Its rows are one per setting, in the order the user guide shows them. A
//! row's doc comment documents its [`OrbBuilder`](crate::orb::OrbBuilder)
//! setter; `values`, `default` and `example` are what the user guide and
//! `help` show and what the tests check against the parser.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rtorb_cdr::CodeSetId;

use super::option::{ApplyError, OrbOption};
use crate::orb::config::orb_config::{ConnectionStrategy, OrbConfig};
use crate::orb::config::values;
use crate::orb::strategy::ServerStrategy;
use crate::policy::{ClientProtocolPolicy, SyncScope};
use crate::rt::{LaneBuffering, LaneConfig, LaneCpus, MappingKind, SchedPolicy, WhenDenied};

/// Declares the table of options: every row gives a setting's names,
/// what the user guide and [`help`](super::help) say of it, the parser of its value and
/// how the value is applied to an [`OrbConfig`], and the builder setter
/// (`fn name(args) => value`, documented by the row's doc comment) or
/// `none`. It makes [`ORB_OPTIONS`] and the setters.
macro_rules! orb_options {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident {
            aliases: [$($alias:literal),* $(,)?],
            policy: $policy:expr,
            omniorb: $omniorb:expr,
            values: $values:literal,
            default: $default:literal,
            example: $example:literal,
            parse: $parse:path => |$c:ident, $v:ident: $t:ty| $apply:expr,
            setter: $($setter:tt)*
        }
    )*) => {
        /// Every setting the `-ORB` options, configuration files and
        /// [`OrbBuilder`](crate::orb::OrbBuilder) setters set, in the
        /// order the user guide shows them.
        pub const ORB_OPTIONS: &[OrbOption] = &[$(
            OrbOption {
                name: stringify!($name),
                aliases: &[$($alias),*],
                builder: orb_option_setter_name!($($setter)*),
                policy: $policy,
                omniorb: $omniorb,
                values: $values,
                default: $default,
                example: $example,
                apply: {
                    fn apply(config: &mut OrbConfig, value: &str) -> Result<(), ApplyError> {
                        let $v: $t = $parse(value).map_err(ApplyError::Value)?;
                        let $c = config;
                        $apply;
                        Ok(())
                    }
                    apply
                },
            }
        ),*];

        impl crate::orb::builder::OrbBuilder {
            $(
                orb_option_setter! {
                    [$(#[doc = $doc])*] ($t) |$c, $v| ($apply); $($setter)*
                }
            )*
        }
    };
}

/// The name of a row's setter, if it has one.
macro_rules! orb_option_setter_name {
    (fn $setter:ident $($rest:tt)*) => {
        Some(stringify!($setter))
    };
    (none $(,)?) => {
        None
    };
}

/// A row's setter: it applies its value to the builder's configuration
/// as the option would.
macro_rules! orb_option_setter {
    (
        [$($doc:tt)*] ($t:ty) |$c:ident, $v:ident| ($apply:expr);
        fn $setter:ident($($arg:ident: $arg_ty:ty),*) => $value:expr $(,)?
    ) => {
        $($doc)*
        pub fn $setter(self, $($arg: $arg_ty),*) -> Self {
            let $v: $t = $value;
            self.set(|$c: &mut OrbConfig| {
                $apply;
                Ok(())
            })
        }
    };
    ([$($doc:tt)*] ($t:ty) |$c:ident, $v:ident| ($apply:expr); none $(,)?) => {};
}

orb_options! {
    ListenEndpoints {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "endpoints separated by `;` or spaces; repeatable (in code, `listen` once each)",
        default: "none",
        example: "iiop://127.0.0.1:0;uiop:///tmp/rtorb-example.sock",
        parse: values::endpoints => |c, v: Vec<String>| c.listen.extend(v),
        setter: none
    }

    /// Listens on `endpoint` (`iiop://127.0.0.1:0`, `uiop:///tmp/x.sock`,
    /// `iiop://1.1@host:2809`, `...?giop=lite`); repeatable. An ORB given
    /// no endpoint listens on its default one once it serves objects (see
    /// [`OrbBuilder::default_endpoint`](crate::orb::OrbBuilder::default_endpoint)).
    Endpoint {
        aliases: [],
        policy: None,
        omniorb: Some("`endPoint` (values `giop:tcp:host:port`)"),
        values: "one endpoint, `iiop://host:port`, `uiop:///path`; repeatable",
        default: "none",
        example: "iiop://127.0.0.1:0",
        parse: values::text => |c, v: String| c.listen.push(v),
        setter: fn listen(endpoint: impl Into<String>) => endpoint.into()
    }

    /// Where an ORB given no endpoint listens once it serves objects: when
    /// its Root POA is first asked for ([`Orb::root_poa`],
    /// `resolve_initial_references("RootPOA")`) or an object is first
    /// activated through it ([`Orb::activate`], [`Orb::activate_with_key`],
    /// [`Orb::forward`]), as TAO and omniORB open theirs when their Root
    /// POA is first resolved. A client-only ORB never listens.
    ///
    /// By default `iiop://0.0.0.0:0`: an ephemeral IIOP port on every
    /// IPv4 interface, profiles publishing the host's name (as TAO does,
    /// and omniORB, which publishes the host's first non-loopback
    /// address). `None` keeps such an ORB from listening: its objects are
    /// then reachable in process only. Its connections count against the
    /// connection cap as it was derived when the ORB was built, without a
    /// reserved share beside thread pool lanes; a server that must have
    /// one lists its endpoints.
    ///
    /// [`Orb::root_poa`]: crate::orb::Orb::root_poa
    /// [`Orb::activate`]: crate::orb::Orb::activate
    /// [`Orb::activate_with_key`]: crate::orb::Orb::activate_with_key
    /// [`Orb::forward`]: crate::orb::Orb::forward
    DefaultEndpoint {
        aliases: [],
        policy: None,
        omniorb: Some("`endPoint = giop:tcp::` (its default)"),
        values: "the endpoint an ORB given none listens on once it serves objects (its Root POA asked for, or an object activated), or `none`: in process only",
        default: "iiop://0.0.0.0:0",
        example: "iiop://127.0.0.1:0",
        parse: values::endpoint_or_none => |c, v: Option<String>| c.default_endpoint = v,
        setter: fn default_endpoint(endpoint: Option<String>) => endpoint
    }

    /// Registers an initial reference for
    /// [`Orb::resolve_initial_references`](crate::orb::Orb::resolve_initial_references);
    /// of two with the same name, the later wins.
    InitRef {
        aliases: [],
        policy: None,
        omniorb: Some("`InitRef`"),
        values: "`Name=URL`; repeatable",
        default: "none",
        example: "NameService=corbaloc::127.0.0.1:2809/NameService",
        parse: values::initial_reference => |c, v: (String, String)| c.initial_references.push(v),
        setter: fn initial_reference(name: impl Into<String>, url: impl Into<String>) =>
            (name.into(), url.into())
    }

    /// Sets the relative round-trip timeout of every call
    /// ([`OrbConfig::round_trip_timeout`]; `None`: no limit).
    RoundTripTimeout {
        aliases: ["RelativeRoundtripTimeout", "clientCallTimeOutPeriod"],
        policy: Some("Policy::RelativeRoundtripTimeout"),
        omniorb: Some("`clientCallTimeOutPeriod`"),
        values: "milliseconds; 0: none",
        default: "none",
        example: "250",
        parse: values::millis_or_none => |c, v: Option<Duration>| c.round_trip_timeout = v,
        setter: fn round_trip_timeout(timeout: impl Into<Option<Duration>>) => timeout.into()
    }

    /// Sets how long opening a connection may take.
    ConnectTimeout {
        aliases: [],
        policy: None,
        omniorb: Some("`clientConnectTimeOutPeriod` (0 there: the call timeout)"),
        values: "milliseconds",
        default: "10000",
        example: "2000",
        parse: values::millis => |c, v: Duration| c.connect_timeout = v,
        setter: fn connect_timeout(timeout: Duration) => timeout
    }

    /// Chooses how the server's threads serve connections (see
    /// [`ServerStrategy`]; thread-per-connection by default).
    ServerStrategy {
        aliases: [],
        policy: None,
        omniorb: Some("`threadPerConnectionPolicy` (1: thread per connection, 0: a pool)"),
        values: "`reactive`, `thread-per-connection`, `leader-followers`",
        default: "thread-per-connection",
        example: "leader-followers",
        parse: values::server_strategy => |c, v: ServerStrategy| c.server_strategy = v,
        setter: fn server_strategy(strategy: ServerStrategy) => strategy
    }

    /// Sets the size of the leader/followers pool (at least 1).
    ServerThreads {
        aliases: [],
        policy: None,
        omniorb: Some("`maxServerThreadPoolSize` (an upper bound there)"),
        values: "threads of the leader/followers pool, at least 1",
        default: "4",
        example: "3",
        parse: values::at_least_one => |c, v: usize| c.server_threads = v.max(1),
        setter: fn server_threads(threads: usize) => threads
    }

    /// Sets the largest message body the server accepts, in octets
    /// ([`OrbConfig::max_message_size`]).
    MaxMessageSize {
        aliases: ["giopMaxMsgSize"],
        policy: None,
        omniorb: Some("`giopMaxMsgSize`"),
        values: "octets after the GIOP header",
        default: "16777216",
        example: "65536",
        parse: values::count_u32 => |c, v: u32| c.max_message_size = v,
        setter: fn max_message_size(octets: u32) => octets
    }

    /// Sets how long a server connection may hold part of a message
    /// without completing a message.
    IncompleteMessageTimeout {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "milliseconds",
        default: "10000",
        example: "1500",
        parse: values::millis => |c, v: Duration| c.incomplete_message_timeout = v,
        setter: fn incomplete_message_timeout(timeout: Duration) => timeout
    }

    /// Sets the most connections the server keeps open at once (0:
    /// derived from the descriptor limit, see
    /// [`derived_max_connections`](crate::orb::derived_max_connections)).
    MaxConnections {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "server connections open at once (0: derived from the descriptor limit)",
        default: "0",
        example: "16",
        parse: values::count => |c, v: usize| c.max_connections = v,
        setter: fn max_connections(connections: usize) => connections
    }

    /// Sets the most reply octets queued for a client that does not read
    /// them (event-driven strategies).
    MaxOutputBuffer {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "octets of replies queued for one connection",
        default: "1048576",
        example: "4096",
        parse: values::count => |c, v: usize| c.max_output_buffer = v,
        setter: fn max_output_buffer(octets: usize) => octets
    }

    /// Sets how long the server waits for a reply to be written (or, in
    /// the event-driven strategies, for queued replies to drain).
    ServerWriteTimeout {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "milliseconds",
        default: "30000",
        example: "700",
        parse: values::millis => |c, v: Duration| c.server_write_timeout = v,
        setter: fn server_write_timeout(timeout: Duration) => timeout
    }

    /// Sets how calls use connections: [`ConnectionStrategy::Exclusive`]
    /// (the default) or [`ConnectionStrategy::Multiplexed`].
    ClientConnectionStrategy {
        aliases: [],
        policy: None,
        omniorb: Some("`oneCallPerConnection` (0 there: calls share connections)"),
        values: "`exclusive`, `multiplexed`",
        default: "exclusive",
        example: "multiplexed",
        parse: values::connection_strategy => |c, v: ConnectionStrategy| c.connection_strategy = v,
        setter: fn connection_strategy(strategy: ConnectionStrategy) => strategy
    }

    /// Closes client connections left unused for `timeout` (`None`: when
    /// the ORB is dropped or the server closes them).
    ConnectionIdleTimeout {
        aliases: [],
        policy: None,
        omniorb: Some("`outConScanPeriod` (in seconds there)"),
        values: "milliseconds",
        default: "none",
        example: "60000",
        parse: values::some_millis => |c, v: Option<Duration>| c.connection_idle_timeout = v,
        setter: fn connection_idle_timeout(timeout: impl Into<Option<Duration>>) => timeout.into()
    }

    /// Sends GIOP 1.2 requests and replies larger than `octets` as
    /// fragments of at most `octets` (at least
    /// [`rtorb_giop::fragment::MIN_FRAGMENT_SIZE`]; smaller values are
    /// raised to it; `None`: never). GIOP 1.0 and 1.1 ones go whole: see
    /// [`ORB_FRAGMENTS`](crate::orb::client::ORB_FRAGMENTS).
    FragmentSize {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "octets, at least 32",
        default: "none",
        example: "32768",
        parse: values::fragment_size => |c, v: Option<usize>|
            c.fragment_size = v.map(|n| n.max(rtorb_giop::fragment::MIN_FRAGMENT_SIZE)),
        setter: fn fragment_size(octets: impl Into<Option<usize>>) => octets.into()
    }

    /// Sets the ORB-level sync scope of oneway calls.
    SyncScope {
        aliases: [],
        policy: Some("Policy::SyncScope"),
        omniorb: None,
        values: "`none`, `transport`, `server`, `target`",
        default: "transport",
        example: "server",
        parse: values::sync_scope => |c, v: SyncScope| c.sync_scope = v,
        setter: fn sync_scope(scope: SyncScope) => scope
    }

    /// Sets the ORB-level `ClientProtocolPolicy` (`None`: every profile in
    /// the order of the reference).
    ClientProtocolPolicy {
        aliases: [],
        policy: Some("Policy::ClientProtocol"),
        omniorb: Some("`clientTransportRule` (rules by address there)"),
        values: "protocols in order, `uiop,iiop+lite,*`",
        default: "none",
        example: "uiop,iiop",
        parse: values::client_protocol => |c, v: Option<ClientProtocolPolicy>| c.client_protocol = v,
        setter: fn client_protocol(policy: impl Into<Option<ClientProtocolPolicy>>) => policy.into()
    }

    /// Sets how many requests a POA manager in the holding state lets
    /// wait ([`OrbConfig::poa_hold_limit`]).
    PoaHoldLimit {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "requests a holding POA manager keeps",
        default: "1024",
        example: "3",
        parse: values::count => |c, v: usize| c.poa_hold_limit = v,
        setter: fn poa_hold_limit(limit: usize) => limit
    }

    /// Sets the native code set for `char` data
    /// ([`CodeSetConfig::native_char`](crate::codesets::CodeSetConfig::native_char):
    /// UTF-8 or ISO 8859-1); others make
    /// [`OrbBuilder::build`](crate::orb::OrbBuilder::build) fail.
    NativeCharCodeSet {
        aliases: [],
        policy: None,
        omniorb: Some("`nativeCharCodeSet`"),
        values: "`UTF-8`, `ISO-8859-1`",
        default: "UTF-8",
        example: "ISO-8859-1",
        parse: values::native_char => |c, v: CodeSetId| c.code_sets.native_char = v,
        setter: fn native_char_code_set(code_set: CodeSetId) => code_set
    }

    /// Sets the native code set for `wchar` data
    /// ([`CodeSetConfig::native_wchar`](crate::codesets::CodeSetConfig::native_wchar):
    /// UTF-16 or UCS-2); others make
    /// [`OrbBuilder::build`](crate::orb::OrbBuilder::build) fail.
    NativeWCharCodeSet {
        aliases: [],
        policy: None,
        omniorb: Some("`nativeWCharCodeSet`"),
        values: "`UTF-16`, `UCS-2`",
        default: "UTF-16",
        example: "UCS-2",
        parse: values::native_wchar => |c, v: CodeSetId| c.code_sets.native_wchar = v,
        setter: fn native_wchar_code_set(code_set: CodeSetId) => code_set
    }

    /// Sets the `char` code set assumed for a reference without code set
    /// information and on a server connection on which no `CodeSets`
    /// context arrived
    /// ([`CodeSetConfig::assumed_char`](crate::codesets::CodeSetConfig::assumed_char):
    /// ISO 8859-1 or UTF-8); others make
    /// [`OrbBuilder::build`](crate::orb::OrbBuilder::build) fail.
    ///
    /// ```
    /// use rtorb::orb::Orb;
    /// use rtorb_cdr::CodeSetId;
    ///
    /// // Talk to a JacORB server by corbaloc: it assumes UTF-8 and UTF-16.
    /// let orb = Orb::builder()
    ///     .assumed_char_code_set(CodeSetId::UTF_8)
    ///     .assumed_wchar_code_set(CodeSetId::UTF_16)
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(orb.config().code_sets.assumed_char, CodeSetId::UTF_8);
    /// ```
    AssumedCharCodeSet {
        aliases: [],
        policy: None,
        omniorb: Some("`defaultCharCodeSet` (for servers' references only there)"),
        values: "`ISO-8859-1`, `UTF-8`",
        default: "ISO-8859-1",
        example: "UTF-8",
        parse: values::assumed_char => |c, v: CodeSetId| c.code_sets.assumed_char = v,
        setter: fn assumed_char_code_set(code_set: CodeSetId) => code_set
    }

    /// Sets the `wchar` code set assumed in the same cases
    /// ([`CodeSetConfig::assumed_wchar`](crate::codesets::CodeSetConfig::assumed_wchar):
    /// UTF-16, UCS-2 or [`CodeSetId::NONE`]); others make
    /// [`OrbBuilder::build`](crate::orb::OrbBuilder::build) fail.
    AssumedWCharCodeSet {
        aliases: [],
        policy: None,
        omniorb: Some("`defaultWCharCodeSet` (for servers' references only there)"),
        values: "`none`, `UTF-16`, `UCS-2`",
        default: "none",
        example: "UTF-16",
        parse: values::assumed_wchar => |c, v: CodeSetId| c.code_sets.assumed_wchar = v,
        setter: fn assumed_wchar_code_set(code_set: CodeSetId) => code_set
    }

    /// Applies a configuration file (see [`OrbConfig::apply_file`]) to
    /// the configuration so far; settings made after it override the
    /// file's. A file that cannot be applied makes
    /// [`OrbBuilder::build`](crate::orb::OrbBuilder::build) fail with its
    /// [`OrbError::ConfigFile`](crate::orb::OrbError::ConfigFile) error.
    ConfigFile {
        aliases: [],
        policy: None,
        omniorb: Some("`configFile`"),
        values: "a configuration file's path (command line only)",
        default: "the file `RTORB_CONFIG` names",
        example: "/dev/null",
        parse: values::path => |c, v: PathBuf| c.apply_file(&v)?,
        setter: fn config_file(path: impl AsRef<Path>) => path.as_ref().to_owned()
    }

    /// Sets the most octets the server buffers for all its connections
    /// together (see [`OrbConfig::memory_budget`]).
    MemoryBudget {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "octets buffered for all server connections together",
        default: "67108864",
        example: "4194304",
        parse: values::count => |c, v: usize| c.memory_budget = v,
        setter: fn memory_budget(octets: usize) => octets
    }

    /// Sets how many connections may wait to be accepted on each listening
    /// endpoint (the listen backlog; `None`, the default: the system's
    /// maximum).
    ListenBacklog {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "connections waiting to be accepted per endpoint, or `system`",
        default: "system",
        example: "1024",
        parse: values::count_or_system => |c, v: Option<u32>| c.listen_backlog = v,
        setter: fn listen_backlog(connections: impl Into<Option<u32>>) => connections.into()
    }

    /// Sets how long a server connection may stay idle before the server
    /// closes it with `CloseConnection` (by default, and for `None` or
    /// zero, no limit).
    ServerIdleTimeout {
        aliases: [],
        policy: None,
        omniorb: Some("`inConScanPeriod` (seconds; a periodic scan)"),
        values: "milliseconds a server connection may stay idle, 0: no limit",
        default: "0",
        example: "180000",
        parse: values::millis_or_none => |c, v: Option<Duration>|
            c.server_idle_timeout = v.filter(|t| !t.is_zero()),
        setter: fn server_idle_timeout(timeout: impl Into<Option<Duration>>) => timeout.into()
    }

    /// Sets the scheduling policy CORBA priorities map onto (see
    /// [`OrbConfig::sched_policy`]).
    SchedPolicy {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "SCHED_FIFO, SCHED_RR or SCHED_OTHER (nice values): what CORBA priorities map onto (as TAO's -ORBSchedPolicy)",
        default: "SCHED_FIFO",
        example: "SCHED_RR",
        parse: values::sched_policy => |c, v: SchedPolicy| c.sched_policy = v,
        setter: fn sched_policy(policy: SchedPolicy) => policy
    }

    /// Sets the built-in priority mapping (see
    /// [`OrbConfig::priority_mapping`]); a mapping given with
    /// [`OrbBuilder::custom_priority_mapping`](crate::orb::OrbBuilder::custom_priority_mapping)
    /// takes its place.
    PriorityMapping {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "direct, linear or continuous (as TAO's -ORBPriorityMapping); a mapping of one's own through the builder",
        default: "linear",
        example: "direct",
        parse: values::priority_mapping => |c, v: MappingKind| c.priority_mapping = v,
        setter: fn priority_mapping(kind: MappingKind) => kind
    }

    /// Sets what happens where the system refuses the scheduling policy
    /// (see [`OrbConfig::sched_denied`]).
    SchedDenied {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "fail (NO_PERMISSION) or other (run on under SCHED_OTHER) where the system refuses the policy",
        default: "other",
        example: "fail",
        parse: values::when_denied => |c, v: WhenDenied| c.sched_denied = v,
        setter: fn sched_denied(then: WhenDenied) => then
    }

    /// Adds a lane to the thread pool the ORB starts with (see
    /// [`OrbConfig::lanes`]; more pools with
    /// [`OrbBuilder::threadpool`](crate::orb::OrbBuilder::threadpool)).
    Lane {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "a lane of the ORB's thread pool, `PRIORITY:THREADS[:ENDPOINT]` (as TAO's RTORB lanes); repeatable",
        default: "none",
        example: "20000:2:iiop://127.0.0.1:0",
        parse: values::lane => |c, v: LaneConfig| c.lanes.push(v),
        setter: fn lane(lane: LaneConfig) => lane
    }

    /// Sets how the lanes of [`OrbConfig::lanes`] buffer requests while
    /// their threads are all busy.
    LaneBuffering {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "what each `-ORBLane` lane buffers while its threads are all busy, `REQUESTS[:OCTETS]` (0: no limit), or no (TRANSIENT at once)",
        default: "64",
        example: "16:65536",
        parse: values::lane_buffering => |c, v: LaneBuffering| c.lane_buffering = v,
        setter: fn lane_buffering(buffering: LaneBuffering) => buffering
    }

    /// Sets whether the lanes of [`OrbConfig::lanes`] borrow threads of
    /// lower lanes.
    LaneBorrowing {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "yes or no: a busy `-ORBLane` lane runs requests on a free thread of a lower lane, at its own priority",
        default: "no",
        example: "yes",
        parse: values::yes_or_no => |c, v: bool| c.lane_borrowing = v,
        setter: fn lane_borrowing(borrow: bool) => borrow
    }

    /// Sets the CPUs of the lane of [`OrbConfig::lanes`] at a priority;
    /// repeatable.
    LaneCpus {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "the CPUs of the `-ORBLane` lane at a priority, `PRIORITY:CPUS` (CPUS as 3, 0,2 or 1-3; without it, any CPU); repeatable",
        default: "none",
        example: "90:1",
        parse: values::lane_cpus => |c, v: LaneCpus| c.lane_cpus.push(v),
        setter: fn lane_cpus(cpus: LaneCpus) => cpus
    }

    /// Locks the process's memory when the ORB starts (see
    /// [`OrbConfig::lock_memory`]).
    LockMemory {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "yes or no: lock the process's memory when the ORB starts (mlockall), so that no request waits for a page",
        default: "no",
        example: "yes",
        parse: values::yes_or_no => |c, v: bool| c.lock_memory = v,
        setter: fn lock_memory(lock: bool) => lock
    }

    /// Bounds the CPUs' wake-up latency while the ORB runs (see
    /// [`OrbConfig::cpu_latency`]).
    CpuLatency {
        aliases: [],
        policy: None,
        omniorb: None,
        values: "microseconds, or none: the CPUs' wake-up latency bound held through /dev/cpu_dma_latency while the ORB runs",
        default: "none",
        example: "0",
        parse: values::micros_or_none => |c, v: Option<Duration>| c.cpu_latency = v,
        setter: fn cpu_latency(latency: impl Into<Option<Duration>>) => latency.into()
    }
}

/// The option `name` (what follows `-ORB`, in any case) names, by its
/// name or an alias.
pub fn find(name: &str) -> Option<&'static OrbOption> {
    ORB_OPTIONS
        .iter()
        .find(|o| o.names().any(|n| n.eq_ignore_ascii_case(name)))
}
