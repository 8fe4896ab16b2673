//! Opening the ORB's acceptors and starting the threads that serve them
//! under the configured [`ServerStrategy`]: at build for the endpoints
//! the ORB is given, and for its default endpoint when it first serves
//! objects (see `Orb::serve`).

use std::sync::Arc;
use std::thread::JoinHandle;

use super::config::orb_config::OrbConfig;
use super::error::OrbError;
use super::server::server_core::ServerCore;
use super::server::{leader_followers, reactive, thread_per_connection};
use super::strategy::ServerStrategy;
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
