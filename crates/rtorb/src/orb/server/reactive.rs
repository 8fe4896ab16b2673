//! The reactive strategy: one thread runs the event loop
//! (`event_loop/`) over every acceptor and connection. It reads whatever
//! is ready without blocking, keeps each connection's partial message,
//! runs requests inline, and queues replies that cannot be written at
//! once until the socket is writable. With no follower to hand leadership
//! to, the thread handles each event itself and goes back to waiting.

use std::sync::Arc;
use std::thread::JoinHandle;

use super::event_loop::threads;
use super::server_core::ServerCore;
use crate::transport::Acceptor;

/// Starts the reactive thread over `acceptors`.
pub(crate) fn spawn(
    core: Arc<ServerCore>,
    acceptors: Vec<Box<dyn Acceptor>>,
) -> std::io::Result<Vec<JoinHandle<()>>> {
    threads::spawn(core, acceptors, 1)
}
