//! [`OrbBuilder`]: an [`OrbConfig`] set step by step, and the ORB built
//! from it.

use std::sync::{Arc, OnceLock};

use super::broker::Orb;
use super::client::client_core::{ClientConfig, ClientCore, spawn_idle_reaper};
use super::collocation::OrbInvoker;
use super::config::option_error::ConfigFileError;
use super::config::orb_config::OrbConfig;
use super::error::OrbError;
use super::listening::{open_acceptors, serve_acceptors};
use super::realtime_setup;
use super::server::descriptors::raise_descriptor_limit;
use super::server::limits::ServerLimits;
use super::server::server_core::ServerCore;
use crate::object::Invoker;
use crate::poa::adapter_table::{AdapterTable, References};
use crate::rt::{LaneConfig, PriorityControl, PriorityMapping, ThreadpoolConfig};
use crate::sync::Mutex;
use crate::transport::{Endpoint, ProtocolRegistry};

/// Builds an [`Orb`] from an [`OrbConfig`] set step by step.
///
/// The builder holds one [`OrbConfig`] and its setters change it in the
/// order they are called, each as its `-ORB` option would: the setters
/// are made from the table of options ([`super::options`]), and a later
/// setter, or a later [`config_file`](OrbBuilder::config_file), wins over
/// an earlier one. To start from a configuration read elsewhere
/// ([`OrbConfig::from_env`], a file), take [`Orb::builder_with`]; a setter
/// called after that changes the one setting it names and keeps the
/// others. Besides the configuration the builder holds two objects that
/// are not settings: the protocol registry ([`OrbBuilder::registry`]) and
/// an application's own priority mapping
/// ([`OrbBuilder::custom_priority_mapping`]).
///
/// ```
/// use std::time::Duration;
/// use rtorb::orb::{Orb, OrbConfig};
///
/// // A configuration from the command line's options, then one setting
/// // more: the setter adds to it, nothing of it is lost.
/// let mut config = OrbConfig::default();
/// config.apply_args(["-ORBEndpoint", "iiop://127.0.0.1:0"]).unwrap();
/// let orb = Orb::builder_with(config)
///     .listen("iiop://127.0.0.1:0")
///     .round_trip_timeout(Duration::from_secs(5))
///     .build()
///     .unwrap();
/// assert_eq!(orb.endpoints().len(), 2);
/// ```
#[derive(Debug, Default)]
pub struct OrbBuilder {
    config: OrbConfig,
    registry: Option<ProtocolRegistry>,
    /// The first error of a setter (a configuration file that cannot be
    /// applied), which [`OrbBuilder::build`] returns.
    error: Option<OrbError>,
    mapping: Option<Arc<dyn PriorityMapping>>,
}

impl From<OrbConfig> for OrbBuilder {
    /// A builder that starts from `config` (as [`Orb::builder_with`]).
    fn from(config: OrbConfig) -> OrbBuilder {
        OrbBuilder {
            config,
            ..OrbBuilder::default()
        }
    }
}

impl OrbBuilder {
    /// Applies a setter's change to the configuration; the first error
    /// (of a configuration file) is kept for [`OrbBuilder::build`].
    pub(crate) fn set(
        mut self,
        change: impl FnOnce(&mut OrbConfig) -> Result<(), ConfigFileError>,
    ) -> Self {
        if let (Err(e), None) = (change(&mut self.config), &self.error) {
            self.error = Some(OrbError::ConfigFile(e));
        }
        self
    }

    /// The configuration so far.
    pub fn configuration(&self) -> &OrbConfig {
        &self.config
    }

    /// Uses `registry` instead of the default protocols (IIOP and UIOP).
    pub fn registry(mut self, registry: ProtocolRegistry) -> Self {
        self.registry = Some(registry);
        self
    }

    /// Maps CORBA priorities onto the scheduling policy with the
    /// application's own `mapping` (`RTCORBA::PriorityMapping`), in place
    /// of the configuration's
    /// [`priority_mapping`](OrbConfig::priority_mapping), whenever either
    /// is set.
    pub fn custom_priority_mapping(mut self, mapping: Arc<dyn PriorityMapping>) -> Self {
        self.mapping = Some(mapping);
        self
    }

    /// Starts a thread pool with lanes with the ORB (see
    /// [`Orb::create_threadpool`] and [`OrbConfig::threadpools`]); pools
    /// are numbered in the order given, after the pool of the `-ORBLane`
    /// options if there are any.
    pub fn threadpool(mut self, config: ThreadpoolConfig) -> Self {
        self.config.threadpools.push(config);
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
        check(&config)?;
        let cpu_latency = realtime_setup::set_up(&config);
        let priorities = match self.mapping {
            Some(m) => PriorityControl::with_mapping(config.sched_policy, m, config.sched_denied),
            None => PriorityControl::new(
                config.sched_policy,
                config.priority_mapping,
                config.sched_denied,
            ),
        };
        let client = start_client(&registry, &config)?;
        let adapters = AdapterTable::new(config.poa_hold_limit);
        let root = adapters.root().cloned().ok_or_else(no_root_poa)?;
        let invoker = Arc::new(OrbInvoker::new(client.clone(), adapters.clone()));
        // A server raises the descriptor limit (once per process) before
        // its connection cap is derived from it.
        let limits = if config.listen.is_empty() {
            ServerLimits::from_config(&config)
        } else {
            ServerLimits::with_descriptors(&config, raise_descriptor_limit())
        };
        let server = Arc::new(
            ServerCore::new(limits, invoker.clone(), adapters.clone())
                .with_fragment_size(config.fragment_size)
                .with_priorities(priorities.clone()),
        );
        let acceptors = open_acceptors(&registry, &config.listen, config.listen_backlog)?;
        let endpoints: Vec<Box<dyn Endpoint>> =
            acceptors.iter().map(|a| a.endpoint().clone_box()).collect();
        if acceptors.is_empty() {
            // Its own endpoints take no share of the connection cap from
            // the lanes (a default endpoint opened later takes what the
            // lanes' shares leave).
            server.leave_cap();
        }
        let threads = serve_acceptors(&server, &config, acceptors)?;
        invoker.set_priorities(priorities.clone());
        let orb_invoker: Arc<dyn Invoker> = invoker.clone();
        adapters.set_references(References {
            registry: registry.clone(),
            endpoints: OnceLock::new(),
            invoker: Arc::downgrade(&orb_invoker),
            code_sets: config.code_sets,
        });
        let orb = Orb {
            registry,
            config,
            client,
            server,
            listening: OnceLock::new(),
            acceptor_threads: Mutex::new(threads),
            adapters,
            invoker,
            root,
            priorities,
            pools: Mutex::new(Vec::new()),
            cpu_latency: Mutex::new(cpu_latency),
        };
        if !endpoints.is_empty() || orb.config.default_endpoint.is_none() {
            orb.publish(endpoints);
            let _ = orb.listening.set(Ok(()));
        }
        for pool in pools_of(&orb.config) {
            orb.create_threadpool(pool)?;
        }
        Ok(orb)
    }
}

impl Orb {
    /// A builder.
    pub fn builder() -> OrbBuilder {
        OrbBuilder::default()
    }

    /// A builder that starts from `config`: the setters called on it
    /// change the settings they name, and keep the others.
    pub fn builder_with(config: OrbConfig) -> OrbBuilder {
        OrbBuilder::from(config)
    }
}

/// What the options cannot check one by one: the code sets set through
/// the builder, and that every `-ORBLaneCpus` names a lane.
fn check(config: &OrbConfig) -> Result<(), OrbError> {
    config.code_sets.check()?;
    match config
        .lane_cpus
        .iter()
        .find(|c| !config.lanes.iter().any(|l| l.priority() == c.priority))
    {
        Some(c) => Err(OrbError::LaneCpusWithoutLane(c.priority)),
        None => Ok(()),
    }
}

/// The client side, with its idle connection reaper.
fn start_client(
    registry: &ProtocolRegistry,
    config: &OrbConfig,
) -> Result<Arc<ClientCore>, OrbError> {
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
    let client = Arc::new_cyclic(|me| ClientCore::new(registry.clone(), client_config, me.clone()));
    spawn_idle_reaper(&client)?;
    Ok(client)
}

/// The thread pools the ORB starts with: the one of the `-ORBLane`
/// options, if there are lanes, then those of the builder.
fn pools_of(config: &OrbConfig) -> Vec<ThreadpoolConfig> {
    let buffering = config.lane_buffering;
    let lanes: Vec<LaneConfig> = config
        .lanes
        .iter()
        .map(|l| {
            let lane = match config.lane_cpus.iter().find(|c| c.priority == l.priority()) {
                Some(c) => l.clone().cpus(c.cpus.iter().copied()),
                None => l.clone(),
            };
            lane.max_buffered_requests(buffering.max_requests)
                .max_request_buffer_size(buffering.max_octets)
        })
        .collect();
    let from_options = (!lanes.is_empty()).then(|| {
        lanes
            .into_iter()
            .fold(ThreadpoolConfig::new(), ThreadpoolConfig::lane)
            .allow_request_buffering(buffering.allowed)
            .allow_borrowing(config.lane_borrowing)
    });
    from_options
        .into_iter()
        .chain(config.threadpools.iter().cloned())
        .collect()
}

/// `OBJ_ADAPTER`: the ORB's table of adapters has no Root POA (it always
/// makes one).
fn no_root_poa() -> OrbError {
    OrbError::System(
        rtorb_giop::SystemException::new(
            rtorb_giop::SystemExceptionKind::ObjAdapter,
            0,
            rtorb_giop::CompletionStatus::No,
        )
        .with_detail("the ORB's object adapters have no Root POA"),
    )
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_builder_from_a_configuration_keeps_it_and_adds_what_its_setters_set() {
        let mut config = OrbConfig::default();
        config
            .apply_args([
                "-ORBEndpoint",
                "iiop://127.0.0.1:0",
                "-ORBServerThreads",
                "2",
            ])
            .unwrap();
        let builder = Orb::builder_with(config.clone())
            .listen("uiop:///tmp/x.sock")
            .round_trip_timeout(Duration::from_millis(5));
        let built = builder.configuration();
        assert_eq!(built.listen, ["iiop://127.0.0.1:0", "uiop:///tmp/x.sock"]);
        assert_eq!(built.server_threads, 2);
        assert_eq!(built.round_trip_timeout, Some(Duration::from_millis(5)));
        assert_eq!(
            OrbBuilder::from(config.clone()).configuration(),
            &config,
            "From starts from the configuration as it is"
        );
    }

    #[test]
    fn setters_and_files_apply_in_the_order_they_are_called() {
        let dir = std::env::temp_dir().join(format!("rtorb-builder-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("threads.cfg");
        std::fs::write(&file, "ServerThreads = 5\nEndpoint = iiop://127.0.0.1:0\n").unwrap();
        let file_last = Orb::builder().server_threads(3).config_file(&file);
        assert_eq!(file_last.configuration().server_threads, 5);
        let setter_last = Orb::builder().config_file(&file).server_threads(3);
        assert_eq!(setter_last.configuration().server_threads, 3);
        // Repeatable settings add up, in order.
        let both = Orb::builder()
            .listen("uiop:///tmp/y.sock")
            .config_file(&file);
        assert_eq!(
            both.configuration().listen,
            ["uiop:///tmp/y.sock", "iiop://127.0.0.1:0"]
        );
        // A file that cannot be applied fails the build, whatever follows.
        let missing = Orb::builder()
            .config_file(dir.join("missing.cfg"))
            .server_threads(3)
            .build();
        assert!(
            matches!(missing, Err(OrbError::ConfigFile(_))),
            "{missing:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
