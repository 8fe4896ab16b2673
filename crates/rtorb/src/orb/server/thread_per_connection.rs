//! The thread-per-connection strategy: each acceptor runs on its own
//! thread and starts a thread for every connection it accepts, which
//! reads blocking and writes each reply before reading on.
//!
//! A connection's thread reads with no timeout while no message is partly
//! received (shutdown ends its read through [`ServerCore::watch`]), so an
//! idle connection costs no wake-ups; with the time left of the
//! incomplete-message timeout while one is. A transport that cannot give
//! the handle shutdown needs is read with the poll interval as timeout
//! instead.

use std::sync::Arc;
use std::thread::JoinHandle;

use super::acceptor::accept_loop;
use super::connection::{Connection, Progress};
use super::{OpenConnection, ServerCore};
use crate::transport::{Acceptor, Transport};

/// Starts the thread of `acceptor`.
pub(crate) fn spawn(
    core: Arc<ServerCore>,
    acceptor: Box<dyn Acceptor>,
) -> std::io::Result<JoinHandle<()>> {
    acceptor.set_nonblocking(true)?;
    std::thread::Builder::new()
        .name("rtorb-acceptor".into())
        .spawn(move || accept_loop(&core, &*acceptor, |t, open| start(&core, t, open)))
}

/// Starts the thread of an accepted connection.
fn start(core: &Arc<ServerCore>, transport: Box<dyn Transport>, open: OpenConnection) {
    let c = Arc::clone(core);
    let spawned = std::thread::Builder::new()
        .name("rtorb-connection".into())
        .spawn(move || serve_connection(&c, transport, open));
    if let Ok(h) = spawned {
        core.add_connection(h);
    }
}

/// Serves one connection on its own thread, until it closes.
fn serve_connection(core: &Arc<ServerCore>, transport: Box<dyn Transport>, _open: OpenConnection) {
    crate::runtime::set_thread_invoker(&core.invoker);
    let watched = core.watch(&*transport);
    if let Ok(mut conn) = Connection::new(core, transport, true) {
        if watched.is_some() {
            conn.wait_while_idle();
        }
        while conn.receive(core, usize::MAX) != Progress::Close {}
        conn.close(core);
    }
    if let Some(id) = watched {
        core.unwatch(id);
    }
}
