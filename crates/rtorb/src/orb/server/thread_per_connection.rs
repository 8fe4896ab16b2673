//! The thread-per-connection strategy: each acceptor runs on its own
//! thread and gives every connection it accepts a thread of its own, which
//! reads blocking and writes each reply before reading on.
//!
//! The acceptor does not wait for a thread to be created: a connection's
//! thread, when its connection ends, parks for [`PARKED_FOR`] waiting for
//! another, and the acceptor hands a new connection to a parked thread if
//! there is one (a queue push and a wake-up), starting a thread only when
//! none is parked. Under open/close churn the threads are reused, so
//! accepting costs neither a thread creation nor its stack.
//!
//! A connection's thread reads with no timeout while no message is partly
//! received (shutdown ends its read through [`ServerCore::watch`]), so an
//! idle connection costs no wake-ups; with the time left of the
//! incomplete-message timeout while one is. A transport that cannot give
//! the handle shutdown needs is read with the poll interval as timeout
//! instead.
//!
//! What a connection costs: its thread's stack is the standard library's
//! default (2 MiB of address space, of which only the pages touched are
//! memory; asking for a smaller stack does not make them fewer), its read
//! buffer (8 KiB, taken at its first read) and a few hundred octets more.
//! The connection is set up on the acceptor's thread, so that its own
//! thread, which only serves it, touches two pages of its stack (8 KiB,
//! most of it the thread's descriptor and thread-local storage) while it
//! waits for input, not the third that the frames setting a connection
//! up would take: about 19 KiB for an idle connection in all, besides
//! what the kernel keeps for the thread and the socket.

use std::collections::VecDeque;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use super::acceptor::accept_loop;
use super::connection::driver::{Connection, Progress};
use super::server_core::{OpenConnection, ServerCore};
use super::shedding::Activity;
use crate::sync::{Condvar, Mutex};
use crate::transport::{Acceptor, Transport};

/// How long a thread whose connection ended waits for another before it
/// exits.
const PARKED_FOR: Duration = Duration::from_secs(10);

/// An accepted connection on its way to a thread.
struct Job {
    /// Set up on the acceptor's thread, on the heap: the thread that
    /// serves it does not go through its setting up, so it keeps less of
    /// its stack (see the module's documentation).
    connection: Box<Connection>,
    watched: Option<u64>,
    open: OpenConnection,
}

/// Connections handed from the acceptor to parked threads.
#[derive(Default)]
struct Handoff {
    state: Mutex<Waiting>,
    arrived: Condvar,
}

#[derive(Default)]
struct Waiting {
    jobs: VecDeque<Job>,
    /// Threads parked, waiting for a job.
    parked: usize,
    /// The acceptor has stopped: parked threads exit.
    closed: bool,
}

/// Starts the thread of `acceptor`.
pub(crate) fn spawn(
    core: Arc<ServerCore>,
    acceptor: Box<dyn Acceptor>,
) -> std::io::Result<JoinHandle<()>> {
    acceptor.set_nonblocking(true)?;
    let handoff = Arc::new(Handoff::default());
    std::thread::Builder::new()
        .name("rtorb-acceptor".into())
        .spawn(move || {
            accept_loop(
                &core,
                &*acceptor,
                || core.shed_watched(),
                |t, open| start(&core, &handoff, t, open),
            );
            handoff.state.lock().closed = true;
            handoff.arrived.notify_all();
        })
}

/// Gives an accepted connection a thread: a parked one if any, else a new
/// one. It is set up and watched from here, on the acceptor's thread, so
/// that the acceptor can shed it as soon as it is counted.
fn start(
    core: &Arc<ServerCore>,
    handoff: &Arc<Handoff>,
    transport: Box<dyn Transport>,
    open: OpenConnection,
) {
    let activity = Arc::new(Activity::new());
    let watched = core.watch(&*transport, &activity);
    let Some(connection) = set_up(core, transport, activity) else {
        if let Some(id) = watched {
            core.unwatch(id);
        }
        return;
    };
    let job = Job {
        connection,
        watched,
        open,
    };
    let job = {
        let mut waiting = handoff.state.lock();
        if waiting.parked > waiting.jobs.len() {
            waiting.jobs.push_back(job);
            drop(waiting);
            handoff.arrived.notify_one();
            return;
        }
        job
    };
    let c = Arc::clone(core);
    let h = Arc::clone(handoff);
    // The job moves into the thread only once it is created: if it cannot
    // be, the connection is closed here.
    let job = Arc::new(Mutex::new(Some(job)));
    let taken = Arc::clone(&job);
    let spawned = std::thread::Builder::new()
        .name("rtorb-connection".into())
        .spawn(move || {
            crate::object::set_thread_invoker(&c.invoker);
            let first = taken.lock().take();
            drop(taken);
            let mut next = first;
            while let Some(job) = next {
                let open = serve_connection(&c, job);
                next = park(&c, &h, open);
            }
        });
    match spawned {
        Ok(handle) => core.add_connection(handle),
        Err(_) => {
            if let Some(Job {
                watched: Some(id), ..
            }) = job.lock().take()
            {
                core.unwatch(id);
            }
        }
    }
}

/// Counts the connection just served out, and waits up to [`PARKED_FOR`]
/// for another; `None` when none came, or the acceptor or the ORB stopped.
/// The thread is counted as parked before the connection is counted out,
/// so a connection accepted after that finds it.
fn park(core: &ServerCore, handoff: &Handoff, served: OpenConnection) -> Option<Job> {
    let mut waiting = handoff.state.lock();
    waiting.parked += 1;
    drop(served);
    let mut waited = Duration::ZERO;
    let job = loop {
        if let Some(job) = waiting.jobs.pop_front() {
            break Some(job);
        }
        if waiting.closed || core.stopping() || waited >= PARKED_FOR {
            break None;
        }
        let start = std::time::Instant::now();
        let (w, _) = handoff
            .arrived
            .wait_timeout(waiting, PARKED_FOR.saturating_sub(waited));
        waiting = w;
        waited += start.elapsed();
    };
    waiting.parked -= 1;
    job
}

/// The connection of `transport`, blocking, with `activity`, on the heap.
fn set_up(
    core: &ServerCore,
    transport: Box<dyn Transport>,
    activity: Arc<Activity>,
) -> Option<Box<Connection>> {
    let mut connection = Connection::new(core, transport, true).ok()?;
    connection.set_activity(activity);
    Some(Box::new(connection))
}

/// Serves one connection on this thread, until it closes; returns its
/// place in the open-connection count.
fn serve_connection(core: &Arc<ServerCore>, job: Job) -> OpenConnection {
    let Job {
        mut connection,
        watched,
        open,
    } = job;
    if watched.is_some() {
        connection.wait_while_idle();
    }
    while connection.turn(core, usize::MAX, None) != Progress::Close {}
    connection.close(core);
    // What it holds of the memory budget goes back at once.
    drop(connection);
    if let Some(id) = watched {
        core.unwatch(id);
    }
    open
}
