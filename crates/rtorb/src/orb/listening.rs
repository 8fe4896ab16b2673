//! Where the ORB listens: the acceptors of its own endpoints, and the
//! threads that serve them.

use std::sync::Arc;
use std::thread::JoinHandle;

use super::server::{self, ServerCore};
use super::{OrbConfig, OrbError};
use crate::orb::ServerStrategy;
use crate::transport::{Acceptor, ProtocolRegistry};

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
                match server::spawn_acceptor(Arc::clone(server), a) {
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
        ServerStrategy::Reactive => Ok(server::spawn_reactive(Arc::clone(server), acceptors)?),
        ServerStrategy::LeaderFollowers => Ok(server::spawn_leader_followers(
            Arc::clone(server),
            acceptors,
            config.server_threads,
        )?),
    }
}
