//! [`Orb`]: the ORB itself (Object Request Broker), on top of the client
//! and server sides it puts together: what it holds, where it listens,
//! activation and shutdown. Its other methods are in the files above it,
//! by concern: building it (`builder.rs`), `ORB_init` (`init.rs`),
//! references from strings and initial references (`url.rs`), statistics
//! (`stats.rs`) and thread pools (`server/threadpool/orb.rs`).

use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::Duration;

use bytes::Bytes;
use rtorb_giop::{ObjectReference, SystemException};

use super::client::client_core::ClientCore;
use super::collocation::OrbInvoker;
use super::config::orb_config::OrbConfig;
use super::error::OrbError;
use super::listening::{open_acceptors, serve_acceptors};
use super::server::server_core::ServerCore;
use super::server::threadpool::running::Threadpool;
use crate::object::{Invoker, Object, Target};
use crate::poa::adapter_table::{AdapterTable, Entry};
use crate::poa::{Poa, PoaError};
use crate::rt::{Current, PriorityControl};
use crate::servant::Skeleton;
use crate::sync::Mutex;
use crate::transport::{Endpoint, ProtocolRegistry};

/// The ORB: it owns the [`ProtocolRegistry`], the server's object
/// adapters (plain object keys → [`Skeleton`], and the POAs of
/// [`crate::poa`] from the Root POA down), the server's threads, and the
/// client's connection cache. Calls on its own objects are served in
/// process ([`collocation`](super::collocation)). The client does blocking
/// I/O on the calling thread (see [`client`](super::client)). The
/// server's threads follow the configured
/// [`ServerStrategy`](super::ServerStrategy): a thread per connection (the
/// default), a single reactive thread, or a leader/followers pool, all
/// handing each message to the same code (see [`server`](super::server)),
/// with the same bounds on hostile input (maximum message size,
/// incomplete-message timeout, connection limit, queued-reply bound) and
/// the same shutdown.
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use rtorb::orb::Orb;
/// use rtorb::exception::{bad_operation, SystemException};
/// use rtorb::servant::{ServerRequest, Skeleton};
/// use rtorb_cdr::{CdrDecode, CdrEncode};
///
/// struct Twice;
/// impl Skeleton for Twice {
///     fn repository_ids(&self) -> &'static [&'static str] { &["IDL:Twice:1.0"] }
///     fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
///         match req.operation() {
///             "twice" => {
///                 let l = i32::decode(req.arguments())?;
///                 req.write_results(|e| l.wrapping_mul(2).encode(e))
///             }
///             _ => Err(bad_operation()),
///         }
///     }
/// }
///
/// // No endpoint given: the ORB listens on an ephemeral IIOP port once it
/// // serves an object (see `OrbBuilder::default_endpoint`).
/// let server = Orb::builder().build().unwrap();
/// let obj = server.activate_with_key(&b"Twice"[..], Arc::new(Twice)).unwrap();
/// let ior = server.object_to_string(&obj).unwrap();
///
/// let client = Orb::builder().round_trip_timeout(Duration::from_secs(5)).build().unwrap();
/// let obj = client.string_to_object(&ior).unwrap();
/// let r: i32 = obj.invoke("twice", |e| 21i32.encode(e)).unwrap()
///     .decode::<i32, SystemException>(i32::decode).unwrap();
/// assert_eq!(r, 42);
/// server.shutdown();
/// ```
///
/// Dropping it shuts it down ([`Orb::shutdown`]). References it made keep
/// working for calls to other servers.
pub struct Orb {
    pub(super) registry: ProtocolRegistry,
    pub(super) config: OrbConfig,
    pub(super) client: Arc<ClientCore>,
    pub(super) server: Arc<ServerCore>,
    /// Whether the ORB listens, once that is settled: at build for an ORB
    /// given endpoints (or none and no default endpoint), else when it
    /// first serves objects (see `Orb::serve`).
    pub(super) listening: OnceLock<Result<(), Arc<OrbError>>>,
    pub(super) acceptor_threads: Mutex<Vec<JoinHandle<()>>>,
    pub(super) adapters: Arc<AdapterTable>,
    pub(super) invoker: Arc<OrbInvoker>,
    pub(super) root: Poa,
    pub(super) priorities: PriorityControl,
    /// The thread pools with lanes, in creation order.
    pub(super) pools: Mutex<Vec<Threadpool>>,
    /// The CPUs' wake-up latency bound held while the ORB runs
    /// (`-ORBCpuLatency`), released at shutdown.
    pub(super) cpu_latency: Mutex<Option<crate::rt::CpuLatencyBound>>,
}

impl std::fmt::Debug for Orb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Orb")
            .field("endpoints", &self.endpoints())
            .finish_non_exhaustive()
    }
}

impl Orb {
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

    /// The invoker of references this ORB makes: objects of this ORB
    /// are called in process (see [`collocation`](super::collocation)), the others over
    /// connections.
    pub fn invoker(&self) -> Arc<dyn Invoker> {
        self.invoker.clone()
    }

    /// `PortableServer::Current` (also
    /// `resolve_initial_references("POACurrent")`): what the request the
    /// calling thread runs is for.
    pub fn poa_current(&self) -> crate::poa::Current {
        crate::poa::Current
    }

    /// The Root POA (also `resolve_initial_references("RootPOA")`). An
    /// ORB given no endpoint opens its default endpoint the first time
    /// (see [`OrbBuilder::default_endpoint`](super::OrbBuilder::default_endpoint)); where it cannot, it logs
    /// why and its POAs serve in process only.
    pub fn root_poa(&self) -> Poa {
        // A failure is logged, and returned by activation through the ORB.
        let _ = self.serve();
        self.root.clone()
    }

    /// A reference to whatever is (or will be) served here under
    /// `object_key`: one profile per listening endpoint (the default
    /// endpoint opened first, as [`Orb::root_poa`] does).
    pub fn reference(&self, type_id: &str, object_key: &Bytes) -> ObjectReference {
        let _ = self.serve();
        match self.adapters.references() {
            Some(r) => r.reference(type_id, object_key),
            None => ObjectReference::new(type_id, Vec::new()),
        }
    }

    /// The endpoints the ORB listens on, as published (actual ports): none
    /// before an ORB given none opens its default endpoint (see
    /// [`OrbBuilder::default_endpoint`](super::OrbBuilder::default_endpoint)).
    pub fn endpoints(&self) -> Vec<String> {
        self.adapters
            .references()
            .and_then(|r| r.endpoints.get())
            .map_or_else(Vec::new, |e| e.iter().map(|e| e.to_string()).collect())
    }

    /// Makes `endpoints` the ORB's own: its references name them, and a
    /// reference that names one is collocated.
    pub(super) fn publish(&self, endpoints: Vec<Box<dyn Endpoint>>) {
        // The endpoints of the ORB's own profiles, as a client reads them
        // back: what makes a reference collocated.
        let local = endpoints
            .iter()
            .filter_map(|e| {
                let profile = self.registry.make_profile(&**e, Bytes::new(), &[]).ok()?;
                let back = self.registry.endpoint_from_profile(&profile).ok()?;
                Some(back.to_string())
            })
            .collect();
        self.invoker.set_local_endpoints(local);
        if let Some(references) = self.adapters.references() {
            let _ = references.endpoints.set(endpoints);
        }
    }

    /// Makes sure the ORB listens before it makes a reference to an
    /// object of its own. The error says why it could not, every time.
    ///
    /// An ORB built with endpoints listens on them from the start. One
    /// built with none listens nowhere until it serves objects: when its
    /// Root POA is first asked for, or an object is first activated
    /// through it, it opens its default endpoint
    /// ([`OrbConfig::default_endpoint`], `iiop://0.0.0.0:0` unless
    /// configured otherwise), as TAO and omniORB open theirs when their
    /// Root POA is first resolved; so a client-only ORB never listens, and
    /// a server's first reference can be called from another process.
    /// Where the default endpoint cannot be opened, the ORB says so once
    /// in the log and serves in process only, and activation through the
    /// ORB fails with [`OrbError::NoEndpoint`].
    pub(super) fn serve(&self) -> Result<(), OrbError> {
        match self.listening.get_or_init(|| self.listen_by_default()) {
            Ok(()) => Ok(()),
            Err(e) => Err(OrbError::NoEndpoint(Arc::clone(e))),
        }
    }

    /// Opens the default endpoint and serves it; on failure, one `warn`
    /// line, and the ORB serves in process only.
    fn listen_by_default(&self) -> Result<(), Arc<OrbError>> {
        let Some(endpoint) = self.config.default_endpoint.clone() else {
            self.publish(Vec::new());
            return Ok(());
        };
        if self.server.stopping() {
            self.publish(Vec::new());
            return Err(Arc::new(OrbError::ShutDown));
        }
        let opened = open_acceptors(
            &self.registry,
            std::slice::from_ref(&endpoint),
            self.config.listen_backlog,
        )
        .and_then(|acceptors| {
            let endpoints = acceptors.iter().map(|a| a.endpoint().clone_box()).collect();
            Ok((
                endpoints,
                serve_acceptors(&self.server, &self.config, acceptors)?,
            ))
        });
        match opened {
            Ok((endpoints, threads)) => {
                self.acceptor_threads.lock().extend(threads);
                self.publish(endpoints);
                Ok(())
            }
            Err(e) => {
                tracing::warn!(
                    "the ORB listens on no endpoint and could not open its default one \
                     ({e}): its objects are reachable in process only"
                );
                self.publish(Vec::new());
                Err(Arc::new(e))
            }
        }
    }

    fn object_for(&self, type_id: &str, key: Bytes) -> Object {
        match self.adapters.object(type_id, key.clone()) {
            Some(o) => o,
            None => Object::new(self.invoker(), Target::from_key(type_id, key)),
        }
    }

    /// Ready to activate an object: not shut down, and listening (an ORB
    /// given no endpoint opens its default one the first time).
    fn ready_to_activate(&self) -> Result<(), OrbError> {
        if self.is_shut_down() {
            return Err(OrbError::ShutDown);
        }
        self.serve()
    }

    /// Serves `skeleton` under `object_key` (a plain key such as `Cubit`,
    /// reachable as `corbaloc::host:port/Cubit`), replacing what was
    /// there, and returns a reference to it.
    ///
    /// Fails with [`OrbError::ShutDown`] after [`Orb::shutdown`], and with
    /// [`OrbError::NoEndpoint`] when the ORB was given no endpoint and
    /// could not open its default one (see
    /// [`OrbBuilder::default_endpoint`](super::OrbBuilder::default_endpoint)).
    pub fn activate_with_key(
        &self,
        object_key: impl Into<Bytes>,
        skeleton: Arc<dyn Skeleton>,
    ) -> Result<Object, OrbError> {
        self.ready_to_activate()?;
        let key = object_key.into();
        let type_id = skeleton.repository_ids().first().copied().unwrap_or("");
        self.server.insert(key.clone(), Entry::Servant(skeleton));
        Ok(self.object_for(type_id, key))
    }

    /// Serves `skeleton` on the Root POA (`activate_object`) and returns
    /// a reference to it (the one it has, if it is active already). So
    /// that it is served at once, the Root POA's manager is activated if
    /// nothing has changed its state yet (a manager the application put
    /// in the holding state stays there).
    ///
    /// Fails as [`Orb::activate_with_key`] does, and with the Root POA's
    /// error if it refuses.
    pub fn activate(&self, skeleton: Arc<dyn Skeleton>) -> Result<Object, OrbError> {
        self.ready_to_activate()?;
        let root = &self.root;
        let type_id = skeleton.repository_ids().first().copied().unwrap_or("");
        let _ = root.the_poa_manager().activate_if_untouched();
        let id = match root.activate_object(skeleton.clone()) {
            // Active already (the Root POA has UNIQUE_ID): its reference.
            Err(PoaError::ServantAlreadyActive) => root.servant_to_id(&skeleton)?,
            other => other?,
        };
        Ok(self.object_for(type_id, root.object_key(&id)))
    }

    /// Answers requests to `object_key` with `LOCATION_FORWARD` to
    /// `reference` (and locate requests with `OBJECT_FORWARD`), replacing
    /// what was there; returns a reference to the key. Fails as
    /// [`Orb::activate_with_key`] does.
    pub fn forward(
        &self,
        object_key: impl Into<Bytes>,
        reference: ObjectReference,
    ) -> Result<Object, OrbError> {
        self.ready_to_activate()?;
        let key = object_key.into();
        let type_id = reference.type_id.clone();
        self.server.insert(key.clone(), Entry::Forward(reference));
        Ok(self.object_for(&type_id, key))
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
        let mut pools: Vec<Threadpool> = self.pools.lock().drain(..).collect();
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
