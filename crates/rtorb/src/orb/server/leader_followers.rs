//! The leader/followers strategy: a pool of threads takes turns as the
//! leader of the event loop (`event_loop/`). When a connection has input
//! the leader hands leadership to a follower and then reads and runs the
//! request itself, so the thread that reads a request runs it (no
//! hand-off between threads, no queue of requests), up to the pool size
//! at once.

use std::sync::Arc;
use std::thread::JoinHandle;

use super::event_loop::threads;
use super::server_core::ServerCore;
use crate::transport::Acceptor;

/// Starts a pool of `threads` (at least one) over `acceptors`.
pub(crate) fn spawn(
    core: Arc<ServerCore>,
    acceptors: Vec<Box<dyn Acceptor>>,
    threads: usize,
) -> std::io::Result<Vec<JoinHandle<()>>> {
    threads::spawn(core, acceptors, threads)
}
