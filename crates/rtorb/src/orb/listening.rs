//! Where the ORB listens: the acceptors of its own endpoints, the threads
//! that serve them, and the default endpoint of an ORB given none.
//!
//! An ORB built with endpoints listens on them from the start. One built
//! with none listens nowhere until it serves objects: when its Root POA
//! is first asked for, or an object is first activated through it, it
//! opens its default endpoint ([`OrbConfig::default_endpoint`],
//! `iiop://0.0.0.0:0` unless configured otherwise), as TAO and omniORB
//! open theirs when their Root POA is first resolved; so a client-only
//! ORB never listens, and a server's first reference can be called from
//! another process. Where the default endpoint cannot be opened, the ORB
//! says so once in the log and serves in process only, and activation
//! through the ORB fails with [`OrbError::NoEndpoint`].

use std::sync::Arc;
use std::thread::JoinHandle;

use bytes::Bytes;

use super::broker::Orb;
use super::config::orb_config::OrbConfig;
use super::error::OrbError;
use super::server::server_core::ServerCore;
use super::server::{leader_followers, reactive, thread_per_connection};
use super::strategy::ServerStrategy;
use crate::transport::{Acceptor, Endpoint, ProtocolRegistry};

/// Opens an acceptor on each of `endpoints`, with the listen `backlog` if
/// one is set.
pub(super) fn open_acceptors(
    registry: &ProtocolRegistry,
    endpoints: &[String],
    backlog: Option<u32>,
) -> Result<Vec<Box<dyn Acceptor>>, OrbError> {
    let mut acceptors = Vec::with_capacity(endpoints.len());
    for s in endpoints {
        let listen_error = |source| OrbError::Listen {
            endpoint: s.clone(),
            source,
        };
        let acceptor = registry.listen(s).map_err(listen_error)?;
        if let Some(backlog) = backlog {
            acceptor
                .set_backlog(backlog)
                .map_err(|e| listen_error(e.into()))?;
        }
        acceptors.push(acceptor);
    }
    Ok(acceptors)
}

/// Starts the threads that serve `acceptors` under the configured server
/// strategy (none for no acceptors).
pub(super) fn serve_acceptors(
    server: &Arc<ServerCore>,
    config: &OrbConfig,
    acceptors: Vec<Box<dyn Acceptor>>,
) -> Result<Vec<JoinHandle<()>>, OrbError> {
    if acceptors.is_empty() {
        return Ok(Vec::new());
    }
    match config.server_strategy {
        ServerStrategy::ThreadPerConnection => {
            let mut threads = Vec::with_capacity(acceptors.len());
            for a in acceptors {
                match thread_per_connection::spawn(Arc::clone(server), a) {
                    Ok(h) => threads.push(h),
                    Err(e) => {
                        // The threads started for the other acceptors end.
                        if !threads.is_empty() {
                            server.stop();
                        }
                        for h in threads {
                            let _ = h.join();
                        }
                        return Err(OrbError::Thread(e));
                    }
                }
            }
            Ok(threads)
        }
        ServerStrategy::Reactive => Ok(reactive::spawn(Arc::clone(server), acceptors)?),
        ServerStrategy::LeaderFollowers => Ok(leader_followers::spawn(
            Arc::clone(server),
            acceptors,
            config.server_threads,
        )?),
    }
}

impl Orb {
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
    /// object of its own: an ORB given no endpoint opens its default one
    /// the first time (see the [module](self)). The error says why it
    /// could not, every time.
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
}
