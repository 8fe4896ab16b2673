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
use super::shedding::Activity;
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
        .spawn(move || {
            accept_loop(
                &core,
                &*acceptor,
                || core.shed_watched(),
                |t, open| start(&core, t, open),
            )
        })
}

/// Starts the thread of an accepted connection. It is watched from here,
/// on the acceptor's thread, so that the acceptor can shed it as soon as
/// it is counted.
fn start(core: &Arc<ServerCore>, transport: Box<dyn Transport>, open: OpenConnection) {
    let activity = Arc::new(Activity::new());
    let watched = core.watch(&*transport, &activity);
    let c = Arc::clone(core);
    let spawned = std::thread::Builder::new()
        .name("rtorb-connection".into())
        .spawn(move || serve_connection(&c, transport, activity, watched, open));
    match spawned {
        Ok(h) => core.add_connection(h),
        Err(_) => {
            if let Some(id) = watched {
                core.unwatch(id);
            }
        }
    }
}

/// Serves one connection on its own thread, until it closes.
fn serve_connection(
    core: &Arc<ServerCore>,
    transport: Box<dyn Transport>,
    activity: Arc<Activity>,
    watched: Option<u64>,
    _open: OpenConnection,
) {
    crate::runtime::set_thread_invoker(&core.invoker);
    if let Ok(conn) = Connection::new(core, transport, true) {
        let mut conn = conn.with_activity(activity);
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
