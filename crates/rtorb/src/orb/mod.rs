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
//! let server = Orb::builder().listen("iiop://127.0.0.1:0").build().unwrap();
//! let obj = server.activate_with_key(&b"Twice"[..], Arc::new(Twice));
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
mod habits;
mod init;
pub mod options;
pub mod server;
pub use server::strategy;
mod url;

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use bytes::Bytes;
use rtorb_cdr::CodeSetId;
use rtorb_giop::{ObjectReference, SystemException};

use crate::poa::table::{AdapterTable, Entry, References};
use crate::poa::{Poa, PoaError};
use crate::rt::{
    Current, LaneConfig, MappingKind, PriorityControl, PriorityMapping, SchedPolicy,
    ThreadpoolConfig, WhenDenied,
};
use crate::runtime::{ClientProtocolPolicy, Invoker, Object, Skeleton, SyncScope, Target};
use crate::sync::Mutex;
use crate::transport::{Endpoint, ProtocolRegistry, TransportError};

pub use collocation::CollocationStats;
pub use config::{
    CONFIG_ENV, ConnectionStrategy, DEFAULT_MAX_MESSAGE_SIZE, DEFAULT_MEMORY_BUDGET,
    DEFAULT_SERVER_THREADS, MAX_CONFIG_FILE_SIZE, OrbConfig,
};

pub use server::{MESSAGES_PER_TURN, ServerStrategy, UnknownStrategy, derived_max_connections};

use client::{ClientConfig, ClientCore};
use collocation::OrbInvoker;
use server::{ServerCore, ServerLimits};

/// Why an ORB could not be set up, or a name not resolved.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OrbError {
    /// A listening endpoint could not be opened.
    #[error("cannot listen on {endpoint}: {source}")]
    Listen {
        /// The endpoint string.
        endpoint: String,
        /// Why.
        source: TransportError,
    },
    /// A thread could not be started.
    #[error("cannot start a thread: {0}")]
    Thread(#[from] std::io::Error),
    /// A command-line option is malformed.
    #[error("{0}")]
    Args(String),
    /// `resolve_initial_references` was asked for a name it does not know
    /// (`CORBA::ORB::InvalidName`).
    #[error("no initial reference named {0:?}")]
    InvalidName(String),
    /// A configuration file could not be read, or one of its lines not
    /// applied.
    #[error("{}{}: {message}", file.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    ConfigFile {
        /// The file.
        file: std::path::PathBuf,
        /// The line (from 1), if the error is in one.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A reference string could not be used.
    #[error("{0}")]
    System(#[from] SystemException),
    /// A thread could not be given its priority (a lane's thread, under
    /// `-ORBSchedDenied fail`).
    #[error("{0}")]
    Scheduling(#[from] crate::rt::SchedulingError),
}

/// Builds an [`Orb`].
#[derive(Debug, Default)]
pub struct OrbBuilder {
    config: OrbConfig,
    registry: Option<ProtocolRegistry>,
    error: Option<OrbError>,
    mapping: Option<Arc<dyn PriorityMapping>>,
    threadpools: Vec<ThreadpoolConfig>,
}

impl OrbBuilder {
    /// Listens on `endpoint` (`iiop://127.0.0.1:0`, `uiop:///tmp/x.sock`,
    /// `iiop://1.1@host:2809`, `...?giop=lite`).
    pub fn listen(mut self, endpoint: impl Into<String>) -> Self {
        self.config.listen.push(endpoint.into());
        self
    }

    /// Sets the relative round-trip timeout of every call.
    pub fn round_trip_timeout(mut self, timeout: Duration) -> Self {
        self.config.round_trip_timeout = Some(timeout);
        self
    }

    /// Sets how long opening a connection may take.
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.config.connect_timeout = timeout;
        self
    }

    /// Sets how calls use connections: [`ConnectionStrategy::Exclusive`]
    /// (the default) or [`ConnectionStrategy::Multiplexed`].
    pub fn connection_strategy(mut self, strategy: ConnectionStrategy) -> Self {
        self.config.connection_strategy = strategy;
        self
    }

    /// Closes client connections left unused for `timeout`.
    pub fn connection_idle_timeout(mut self, timeout: Duration) -> Self {
        self.config.connection_idle_timeout = Some(timeout);
        self
    }

    /// Sends GIOP 1.2 requests and replies larger than `octets` as
    /// fragments of at most `octets` (at least
    /// [`rtorb_giop::fragment::MIN_FRAGMENT_SIZE`]; smaller values are
    /// raised to it). GIOP 1.0 and 1.1 ones go whole: see
    /// [`client::ORB_FRAGMENTS`].
    pub fn fragment_size(mut self, octets: usize) -> Self {
        self.config.fragment_size = Some(octets.max(rtorb_giop::fragment::MIN_FRAGMENT_SIZE));
        self
    }

    /// Sets the ORB-level sync scope of oneway calls.
    pub fn sync_scope(mut self, scope: SyncScope) -> Self {
        self.config.sync_scope = scope;
        self
    }

    /// Sets the ORB-level `ClientProtocolPolicy`.
    pub fn client_protocol(mut self, policy: ClientProtocolPolicy) -> Self {
        self.config.client_protocol = Some(policy);
        self
    }

    /// Sets how many requests a POA manager in the holding state lets
    /// wait ([`OrbConfig::poa_hold_limit`]).
    pub fn poa_hold_limit(mut self, limit: usize) -> Self {
        self.config.poa_hold_limit = limit;
        self
    }

    /// Sets the native code sets for `char` and `wchar` data
    /// ([`crate::codesets::CodeSetConfig::native_char`]; UTF-8 or ISO 8859-1, UTF-16 or
    /// UCS-2). Others make [`OrbBuilder::build`] fail.
    pub fn native_code_sets(mut self, char_data: CodeSetId, wchar_data: CodeSetId) -> Self {
        self.config.code_sets.native_char = char_data;
        self.config.code_sets.native_wchar = wchar_data;
        self
    }

    /// Sets the code sets assumed for a reference without code set
    /// information and on a server connection on which no `CodeSets`
    /// context arrived ([`crate::codesets::CodeSetConfig::assumed_char`]): ISO 8859-1 or
    /// UTF-8 for `char`, and for `wchar` UTF-16, UCS-2 or
    /// [`CodeSetId::NONE`]. Others make [`OrbBuilder::build`] fail.
    ///
    /// ```
    /// use rtorb::orb::Orb;
    /// use rtorb_cdr::CodeSetId;
    ///
    /// // Talk to a JacORB server by corbaloc: it assumes UTF-8 and UTF-16.
    /// let orb = Orb::builder()
    ///     .assumed_code_sets(CodeSetId::UTF_8, CodeSetId::UTF_16)
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(orb.config().code_sets.assumed_char, CodeSetId::UTF_8);
    /// ```
    pub fn assumed_code_sets(mut self, char_data: CodeSetId, wchar_data: CodeSetId) -> Self {
        self.config.code_sets.assumed_char = char_data;
        self.config.code_sets.assumed_wchar = wchar_data;
        self
    }

    /// Registers an initial reference for
    /// [`Orb::resolve_initial_references`].
    pub fn initial_reference(mut self, name: impl Into<String>, url: impl Into<String>) -> Self {
        self.config
            .initial_references
            .push((name.into(), url.into()));
        self
    }

    /// Uses `registry` instead of the default protocols (IIOP and UIOP).
    pub fn registry(mut self, registry: ProtocolRegistry) -> Self {
        self.registry = Some(registry);
        self
    }

    /// Chooses how the server's threads serve connections (see
    /// [`ServerStrategy`]; thread-per-connection by default).
    pub fn server_strategy(mut self, strategy: ServerStrategy) -> Self {
        self.config.server_strategy = strategy;
        self
    }

    /// Sets the size of the leader/followers pool (at least 1).
    pub fn server_threads(mut self, threads: usize) -> Self {
        self.config.server_threads = threads.max(1);
        self
    }

    /// Sets the largest message body the server accepts, in octets.
    pub fn max_message_size(mut self, octets: u32) -> Self {
        self.config.max_message_size = octets;
        self
    }

    /// Sets how long a server connection may hold part of a message
    /// without completing a message.
    pub fn incomplete_message_timeout(mut self, timeout: Duration) -> Self {
        self.config.incomplete_message_timeout = timeout;
        self
    }

    /// Sets the most connections the server keeps open at once (0: derived
    /// from the descriptor limit, see [`derived_max_connections`]).
    pub fn max_connections(mut self, connections: usize) -> Self {
        self.config.max_connections = connections;
        self
    }

    /// Sets the most reply octets queued for a client that does not read
    /// them (event-driven strategies).
    pub fn max_output_buffer(mut self, octets: usize) -> Self {
        self.config.max_output_buffer = octets;
        self
    }

    /// Sets how long the server waits for a reply to be written (or, in
    /// the event-driven strategies, for queued replies to drain).
    pub fn server_write_timeout(mut self, timeout: Duration) -> Self {
        self.config.server_write_timeout = timeout;
        self
    }

    /// Sets how many connections may wait to be accepted on each listening
    /// endpoint (the listen backlog; by default the system's maximum).
    pub fn listen_backlog(mut self, connections: u32) -> Self {
        self.config.listen_backlog = Some(connections);
        self
    }

    /// Sets how long a server connection may stay idle before the server
    /// closes it with `CloseConnection` (by default, no limit).
    pub fn server_idle_timeout(mut self, timeout: Duration) -> Self {
        self.config.server_idle_timeout = Some(timeout).filter(|t| !t.is_zero());
        self
    }

    /// Applies a configuration file (see [`OrbConfig::apply_file`]) to
    /// the configuration so far; settings made after it override the
    /// file's. A file that cannot be applied makes [`OrbBuilder::build`]
    /// fail with its [`OrbError::ConfigFile`] error.
    pub fn config_file(mut self, path: impl AsRef<std::path::Path>) -> Self {
        if self.error.is_none() {
            if let Err(e) = self.config.apply_file(path) {
                self.error = Some(e);
            }
        }
        self
    }

    /// Replaces the whole configuration.
    pub fn config(mut self, config: OrbConfig) -> Self {
        self.config = config;
        self
    }

    /// Sets the most octets the server buffers for all its connections
    /// together (see [`OrbConfig::memory_budget`]).
    pub fn memory_budget(mut self, octets: usize) -> Self {
        self.config.memory_budget = octets;
        self
    }

    /// Sets the scheduling policy CORBA priorities map onto (see
    /// [`OrbConfig::sched_policy`]).
    pub fn sched_policy(mut self, policy: SchedPolicy) -> Self {
        self.config.sched_policy = policy;
        self
    }

    /// Sets the built-in priority mapping (see
    /// [`OrbConfig::priority_mapping`]).
    pub fn priority_mapping(mut self, kind: MappingKind) -> Self {
        self.config.priority_mapping = kind;
        self.mapping = None;
        self
    }

    /// Maps CORBA priorities onto the scheduling policy with the
    /// application's own `mapping` (`RTCORBA::PriorityMapping`).
    pub fn custom_priority_mapping(mut self, mapping: Arc<dyn PriorityMapping>) -> Self {
        self.mapping = Some(mapping);
        self
    }

    /// Locks the process's memory when the ORB starts (see
    /// [`OrbConfig::lock_memory`]).
    pub fn lock_memory(mut self, lock: bool) -> Self {
        self.config.lock_memory = lock;
        self
    }

    /// Bounds the CPUs' wake-up latency while the ORB runs (see
    /// [`OrbConfig::cpu_latency`]).
    pub fn cpu_latency(mut self, latency: Option<Duration>) -> Self {
        self.config.cpu_latency = latency;
        self
    }

    /// Sets what happens where the system refuses the scheduling policy
    /// (see [`OrbConfig::sched_denied`]).
    pub fn sched_denied(mut self, then: WhenDenied) -> Self {
        self.config.sched_denied = then;
        self
    }

    /// Starts a thread pool with lanes with the ORB (see
    /// [`Orb::create_threadpool`]); pools are numbered in the order given,
    /// after the pool of the `-ORBLane` options if there are any.
    pub fn threadpool(mut self, config: ThreadpoolConfig) -> Self {
        self.threadpools.push(config);
        self
    }

    /// Opens the acceptors, starts their threads, and returns the ORB.
    pub fn build(self) -> Result<Orb, OrbError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let registry = self
            .registry
            .unwrap_or_else(ProtocolRegistry::with_default_protocols);
        let config = self.config;
        config.code_sets.check().map_err(OrbError::Args)?;
        if let Some(c) = config
            .lane_cpus
            .iter()
            .find(|c| !config.lanes.iter().any(|l| l.priority() == c.priority))
        {
            return Err(OrbError::Args(format!(
                "-ORBLaneCpus {}: no -ORBLane has priority {}",
                c.priority.get(),
                c.priority.get()
            )));
        }
        let cpu_latency = habits::take_up(&config);
        let priorities = match self.mapping {
            Some(m) => PriorityControl::with_mapping(config.sched_policy, m, config.sched_denied),
            None => PriorityControl::new(
                config.sched_policy,
                config.priority_mapping,
                config.sched_denied,
            ),
        };
        let client_config = ClientConfig {
            round_trip_timeout: config.round_trip_timeout,
            connect_timeout: config.connect_timeout,
            strategy: config.connection_strategy,
            idle_timeout: config.connection_idle_timeout,
            fragment_size: config.fragment_size,
            sync_scope: config.sync_scope,
            client_protocol: config.client_protocol.clone(),
            code_sets: config.code_sets,
        };
        let client =
            Arc::new_cyclic(|me| ClientCore::new(registry.clone(), client_config, me.clone()));
        client::spawn_idle_reaper(&client)?;
        let adapters = AdapterTable::new(config.poa_hold_limit);
        let root = adapters
            .root()
            .cloned()
            .ok_or_else(|| OrbError::Args("no Root POA".into()))?;
        let invoker = Arc::new(OrbInvoker::new(client.clone(), adapters.clone()));
        // A server raises the descriptor limit (once per process) before
        // its connection cap is derived from it.
        let limits = if config.listen.is_empty() {
            ServerLimits::from_config(&config)
        } else {
            ServerLimits::with_descriptors(&config, server::raise_descriptor_limit())
        };
        let server = Arc::new(
            ServerCore::new(limits, invoker.clone(), adapters.clone())
                .with_fragment_size(config.fragment_size)
                .with_priorities(priorities.clone()),
        );
        let mut acceptors = Vec::new();
        for s in &config.listen {
            let acceptor = registry.listen(s).map_err(|source| OrbError::Listen {
                endpoint: s.clone(),
                source,
            })?;
            if let Some(backlog) = config.listen_backlog {
                acceptor
                    .set_backlog(backlog)
                    .map_err(|e| OrbError::Listen {
                        endpoint: s.clone(),
                        source: e.into(),
                    })?;
            }
            acceptors.push(acceptor);
        }
        let endpoints: Vec<Box<dyn Endpoint>> =
            acceptors.iter().map(|a| a.endpoint().clone_box()).collect();
        if acceptors.is_empty() {
            server.leave_cap();
        }
        let threads = match config.server_strategy {
            _ if acceptors.is_empty() => Vec::new(),
            ServerStrategy::ThreadPerConnection => {
                let mut threads = Vec::new();
                for a in acceptors {
                    match server::spawn_acceptor(Arc::clone(&server), a) {
                        Ok(h) => threads.push(h),
                        Err(e) => {
                            server.stop();
                            for h in threads {
                                let _ = h.join();
                            }
                            return Err(OrbError::Thread(e));
                        }
                    }
                }
                threads
            }
            ServerStrategy::Reactive => server::spawn_reactive(Arc::clone(&server), acceptors)?,
            ServerStrategy::LeaderFollowers => server::spawn_leader_followers(
                Arc::clone(&server),
                acceptors,
                config.server_threads,
            )?,
        };
        // The endpoints of the ORB's own profiles, as a client reads them
        // back: what makes a reference collocated.
        let local = endpoints
            .iter()
            .filter_map(|e| {
                let profile = registry.make_profile(&**e, Bytes::new(), &[]).ok()?;
                let back = registry.endpoint_from_profile(&profile).ok()?;
                Some(back.to_string())
            })
            .collect();
        invoker.set_local_endpoints(local);
        invoker.set_priorities(priorities.clone());
        let orb_invoker: Arc<dyn Invoker> = invoker.clone();
        adapters.set_references(References {
            registry: registry.clone(),
            endpoints: endpoints.clone(),
            invoker: Arc::downgrade(&orb_invoker),
            code_sets: config.code_sets,
        });
        let lanes: Vec<LaneConfig> = config
            .lanes
            .iter()
            .map(
                |l| match config.lane_cpus.iter().find(|c| c.priority == l.priority()) {
                    Some(c) => l.clone().cpus(c.cpus.iter().copied()),
                    None => l.clone(),
                },
            )
            .collect();
        let (buffering, borrowing) = (config.lane_buffering, config.lane_borrowing);
        let orb = Orb {
            registry,
            config,
            client,
            server,
            endpoints,
            acceptor_threads: Mutex::new(threads),
            adapters,
            invoker,
            root,
            priorities,
            pools: Mutex::new(Vec::new()),
            cpu_latency: Mutex::new(cpu_latency),
        };
        let from_options = (!lanes.is_empty()).then(|| {
            lanes
                .into_iter()
                .map(|l| {
                    l.max_buffered_requests(buffering.max_requests)
                        .max_request_buffer_size(buffering.max_octets)
                })
                .fold(ThreadpoolConfig::new(), ThreadpoolConfig::lane)
                .allow_request_buffering(buffering.allowed)
                .allow_borrowing(borrowing)
        });
        for pool in from_options.into_iter().chain(self.threadpools) {
            orb.create_threadpool(pool)?;
        }
        Ok(orb)
    }
}

/// The ORB. See the [module](self).
///
/// Dropping it shuts it down ([`Orb::shutdown`]). References it made keep
/// working for calls to other servers.
pub struct Orb {
    registry: ProtocolRegistry,
    config: OrbConfig,
    client: Arc<ClientCore>,
    server: Arc<ServerCore>,
    endpoints: Vec<Box<dyn Endpoint>>,
    acceptor_threads: Mutex<Vec<JoinHandle<()>>>,
    adapters: Arc<AdapterTable>,
    invoker: Arc<OrbInvoker>,
    root: Poa,
    priorities: PriorityControl,
    /// The thread pools with lanes, in creation order.
    pools: Mutex<Vec<server::Threadpool>>,
    /// The CPUs' wake-up latency bound held while the ORB runs
    /// (`-ORBCpuLatency`), released at shutdown.
    cpu_latency: Mutex<Option<crate::rt::CpuLatencyBound>>,
}

impl std::fmt::Debug for Orb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Orb")
            .field("endpoints", &self.endpoints())
            .finish_non_exhaustive()
    }
}

impl Orb {
    /// A builder.
    pub fn builder() -> OrbBuilder {
        OrbBuilder::default()
    }

    /// The protocol registry.
    pub fn registry(&self) -> &ProtocolRegistry {
        &self.registry
    }

    /// The configuration.
    pub fn config(&self) -> &OrbConfig {
        &self.config
    }

    /// How this ORB turns CORBA priorities into native ones: the
    /// scheduling policy, the mapping, and what happens where the system
    /// refuses (`-ORBSchedPolicy`, `-ORBPriorityMapping`,
    /// `-ORBSchedDenied`).
    pub fn priority_control(&self) -> &PriorityControl {
        &self.priorities
    }

    /// The CPUs' wake-up latency bound this ORB holds (`-ORBCpuLatency`):
    /// `None` when none was asked for, when the system refused it, or
    /// after shutdown.
    pub fn cpu_latency_bound(&self) -> Option<Duration> {
        self.cpu_latency.lock().as_ref().map(|b| b.latency())
    }

    /// `RTCORBA::Current`: reads and sets the calling thread's CORBA
    /// priority, which travels with its calls to objects of the
    /// `CLIENT_PROPAGATED` model.
    ///
    /// ```
    /// use rtorb::orb::Orb;
    /// use rtorb::rt::{Priority, SchedPolicy};
    ///
    /// let orb = Orb::builder().sched_policy(SchedPolicy::Other).build()?;
    /// let current = orb.rt_current();
    /// std::thread::spawn(move || {
    ///     current.set_priority(Priority::MIN).unwrap();
    ///     assert_eq!(current.priority().unwrap(), Priority::MIN);
    /// })
    /// .join()
    /// .unwrap();
    /// # Ok::<(), rtorb::orb::OrbError>(())
    /// ```
    pub fn rt_current(&self) -> Current {
        Current::new(self.priorities.clone())
    }

    /// The endpoints the ORB listens on, as published (actual ports).
    pub fn endpoints(&self) -> Vec<String> {
        self.endpoints.iter().map(|e| e.to_string()).collect()
    }

    /// The invoker of references this ORB makes: objects of this ORB
    /// are called in process (see [`collocation`]), the others over
    /// connections.
    pub fn invoker(&self) -> Arc<dyn Invoker> {
        self.invoker.clone()
    }

    /// What collocated calls have done so far.
    pub fn collocation_stats(&self) -> CollocationStats {
        self.invoker.stats()
    }

    /// `PortableServer::Current` (also
    /// `resolve_initial_references("POACurrent")`): what the request the
    /// calling thread runs is for.
    pub fn poa_current(&self) -> crate::poa::Current {
        crate::poa::Current
    }

    /// The Root POA (also `resolve_initial_references("RootPOA")`).
    pub fn root_poa(&self) -> Poa {
        self.root.clone()
    }

    /// A reference to whatever is (or will be) served here under
    /// `object_key`: one profile per listening endpoint.
    pub fn reference(&self, type_id: &str, object_key: &Bytes) -> ObjectReference {
        match self.adapters.references() {
            Some(r) => r.reference(type_id, object_key),
            None => ObjectReference::new(type_id, Vec::new()),
        }
    }

    fn object_for(&self, type_id: &str, key: Bytes) -> Object {
        match self.adapters.object(type_id, key.clone()) {
            Some(o) => o,
            None => Object::new(self.invoker(), Target::from_key(type_id, key)),
        }
    }

    /// Serves `skeleton` under `object_key` (a plain key such as `Cubit`,
    /// reachable as `corbaloc::host:port/Cubit`), replacing what was
    /// there, and returns a reference to it.
    pub fn activate_with_key(
        &self,
        object_key: impl Into<Bytes>,
        skeleton: Arc<dyn Skeleton>,
    ) -> Object {
        let key = object_key.into();
        let type_id = skeleton.repository_ids().first().copied().unwrap_or("");
        self.server.insert(key.clone(), Entry::Servant(skeleton));
        self.object_for(type_id, key)
    }

    /// Serves `skeleton` on the Root POA (`activate_object`) and returns
    /// a reference to it. So that it is served at once, the Root POA's
    /// manager is activated if nothing has changed its state yet (a
    /// manager the application put in the holding state stays there).
    pub fn activate(&self, skeleton: Arc<dyn Skeleton>) -> Object {
        let root = self.root_poa();
        let type_id = skeleton.repository_ids().first().copied().unwrap_or("");
        let _ = activate_root(&root);
        let activated = match root.activate_object(skeleton.clone()) {
            // Active already (the Root POA has UNIQUE_ID): its reference.
            Err(PoaError::ServantAlreadyActive) => root.servant_to_id(&skeleton),
            other => other,
        };
        match activated {
            Ok(id) => self.object_for(type_id, root.object_key(&id)),
            // The Root POA is destroyed (the ORB shut down): a reference
            // that gets OBJECT_NOT_EXIST.
            Err(_) => self.object_for(type_id, root.object_key(b"")),
        }
    }

    /// Answers requests to `object_key` with `LOCATION_FORWARD` to
    /// `reference` (and locate requests with `OBJECT_FORWARD`), replacing
    /// what was there; returns a reference to the key.
    pub fn forward(&self, object_key: impl Into<Bytes>, reference: ObjectReference) -> Object {
        let key = object_key.into();
        let type_id = reference.type_id.clone();
        self.server.insert(key.clone(), Entry::Forward(reference));
        self.object_for(&type_id, key)
    }

    /// Stops serving `object_key` (a plain key, or an object of a POA,
    /// which is deactivated); whether anything was served there.
    pub fn deactivate(&self, object_key: &[u8]) -> bool {
        self.server.remove(object_key)
    }

    /// `CORBA::ORB::object_to_string`: the stringified IOR of `object`, if
    /// it has a reference.
    pub fn object_to_string(&self, object: &Object) -> Option<String> {
        object
            .target()
            .designating_reference()?
            .to_stringified()
            .ok()
    }

    /// `CORBA::ORB::resolve_initial_references` for the names given with
    /// `-ORBInitRef` or [`OrbBuilder::initial_reference`].
    ///
    /// `"RootPOA"`, unless configured otherwise, is the Root POA as a
    /// local object: [`Poa::narrow`] gives the [`Poa`]; `"POACurrent"`
    /// likewise the POA's `Current` ([`crate::poa::Current::narrow`]).
    pub fn resolve_initial_references(&self, name: &str) -> Result<Object, OrbError> {
        let configured = self
            .config
            .initial_references
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, u)| u.clone());
        let url = match configured {
            Some(u) => u,
            None if name == "RootPOA" => return Ok(self.root_poa().as_object()),
            None if name == "POACurrent" => return Ok(crate::poa::Current.as_object()),
            None => return Err(OrbError::InvalidName(name.to_owned())),
        };
        Ok(self.string_to_object(&url)?)
    }

    /// The number of idle client connections: exclusive ones in the
    /// cache, and shared (multiplexed) ones with no call in flight.
    pub fn idle_connections(&self) -> usize {
        self.client.idle_connections()
    }

    /// The server connections open now (accepted, not yet closed) on the
    /// ORB's own endpoints.
    pub fn server_connections(&self) -> usize {
        self.server.open_connections()
    }

    /// The octets the server holds now against its memory budget (see
    /// [`OrbConfig::memory_budget`]): the part received of large
    /// messages, fragments held for reassembly and queued replies, over
    /// all connections, those of thread pool lanes (each lane's charged
    /// to a budget of its own) included.
    pub fn buffered_bytes(&self) -> usize {
        let lanes: usize = self
            .pools
            .lock()
            .iter()
            .flat_map(|p| p.lanes.iter())
            .map(|l| l.core.buffered_bytes())
            .sum();
        self.server.buffered_bytes() + lanes
    }

    /// The most server connections open at once, on the ORB's own
    /// endpoints and its lanes' together: the configured
    /// [`OrbConfig::max_connections`], or the cap derived from the
    /// descriptor limit (see [`derived_max_connections`]); see
    /// [`Orb::total_server_connections`].
    pub fn max_server_connections(&self) -> usize {
        self.server.max_connections()
    }

    /// Explicit binding: opens connections to the endpoint that calls on
    /// `object` would use first (under the effective
    /// `ClientProtocolPolicy`) until `count` are idle there, so that the
    /// next calls open none; returns how many are idle there. Under the
    /// multiplexed strategy one shared connection carries every call, so
    /// at most one is opened. Fails as a call would (`TRANSIENT` when no
    /// profile can be connected to).
    pub fn preconnect(&self, object: &Object, count: usize) -> Result<usize, SystemException> {
        self.client.preconnect(object.target(), count)
    }

    /// Whether [`Orb::shutdown`] has been called.
    pub fn is_shut_down(&self) -> bool {
        self.server.stopping()
    }

    /// `CORBA::ORB::shutdown(true)`: stops the acceptors, lets every
    /// connection finish the request it is running, sends
    /// `CloseConnection` on each, joins every thread, and closes the idle
    /// client connections. Calling it again does nothing.
    ///
    /// Requests held by POA managers get `TRANSIENT`, and the Root POA is
    /// destroyed (every POA with it, servant activators etherealizing
    /// their objects).
    pub fn shutdown(&self) {
        self.server.stop();
        for pool in self.pools.lock().iter() {
            pool.stop();
        }
        self.adapters.shutdown();
        let threads: Vec<JoinHandle<()>> = self.acceptor_threads.lock().drain(..).collect();
        for h in threads {
            let _ = h.join();
        }
        self.server.join_connections();
        let mut pools: Vec<server::Threadpool> = self.pools.lock().drain(..).collect();
        for pool in &mut pools {
            pool.join();
        }
        self.client.close_idle();
        self.cpu_latency.lock().take();
    }
}

impl Drop for Orb {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn activate_root(root: &Poa) -> Result<(), PoaError> {
    if root.the_poa_manager().activate_if_untouched() {
        Ok(())
    } else {
        Err(PoaError::AdapterInactive)
    }
}
