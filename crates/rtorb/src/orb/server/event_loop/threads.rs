//! The event loop's threads: started over the acceptors
//! ([`spawn`], [`spawn_with`]), each leading, serving what it claimed
//! and leading again until shutdown (`EventLoop::run`); a lane adds
//! threads as it needs them (`EventLoop::start_thread`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Instant;

use mio::unix::SourceFd;
use mio::{Interest, Poll, Token, Waker};

use super::super::server_core::ServerCore;
use super::leader::{Leader, WAKER};
use super::shared::{EventLoop, LaneHooks};
use crate::sync::Mutex;
use crate::transport::Acceptor;

/// Starts `threads` event-loop threads (1: the reactive strategy; more:
/// leader/followers) over `acceptors`.
pub(crate) fn spawn(
    core: Arc<ServerCore>,
    acceptors: Vec<Box<dyn Acceptor>>,
    threads: usize,
) -> std::io::Result<Vec<JoinHandle<()>>> {
    let name = if threads <= 1 {
        "rtorb-reactor"
    } else {
        "rtorb-leader-followers"
    };
    spawn_with(core, acceptors, threads, name, None).map(|(_, threads)| threads)
}

/// As [`spawn`], the threads named `name`, with what `lane` adds; the loop
/// and its threads.
pub(in crate::orb::server) fn spawn_with(
    core: Arc<ServerCore>,
    acceptors: Vec<Box<dyn Acceptor>>,
    threads: usize,
    name: &str,
    lane: Option<Arc<dyn LaneHooks>>,
) -> std::io::Result<(Arc<EventLoop>, Vec<JoinHandle<()>>)> {
    let poll = Poll::new()?;
    let registry = poll.registry().try_clone()?;
    for (i, a) in acceptors.iter().enumerate() {
        a.set_nonblocking(true)?;
        let fd = a.as_raw_fd();
        registry.register(&mut SourceFd(&fd), Token(1 + i), Interest::READABLE)?;
    }
    let waker = Arc::new(Waker::new(&registry, WAKER)?);
    core.add_waker(Arc::clone(&waker));
    let threads = threads.max(1);
    let shared = Arc::new(EventLoop {
        core,
        registry,
        leader: Mutex::new(Leader::new(poll, acceptors)),
        closed: Mutex::new(Vec::new()),
        has_closed: AtomicBool::new(false),
        requeued: Mutex::new(Vec::new()),
        has_requeued: AtomicBool::new(false),
        polling: AtomicBool::new(false),
        timed: AtomicUsize::new(0),
        accept_retry: AtomicBool::new(false),
        waker,
        epoch: Instant::now(),
        running: AtomicUsize::new(threads),
        free: AtomicUsize::new(0),
        lane,
    });
    let mut handles = Vec::with_capacity(threads);
    for _ in 0..threads {
        let s = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || s.run(false));
        match spawned {
            Ok(h) => handles.push(h),
            Err(e) => {
                // The threads already started must see themselves as all.
                let missing = threads - handles.len();
                shared.core.stop();
                if shared.running.fetch_sub(missing, Ordering::AcqRel) == missing {
                    shared.close_all();
                }
                for h in handles {
                    let _ = h.join();
                }
                return Err(e);
            }
        }
    }
    Ok((shared, handles))
}

impl EventLoop {
    /// A thread's life: leads, serves what it was given, and leads again,
    /// until shutdown; a `dynamic` thread (a lane's) also ends when, back
    /// from a turn, it finds another thread free to lead, or after leading
    /// for its idle time.
    fn run(self: &Arc<Self>, dynamic: bool) {
        crate::object::set_thread_invoker(self.core.invoker());
        let lane = self.lane.as_deref();
        if lane.is_none_or(|l| l.thread_started(self, dynamic)) {
            let idle = lane.filter(|_| dynamic).map(|l| l.dynamic_idle());
            loop {
                if dynamic && self.free.load(Ordering::Acquire) > 0 {
                    // Another thread is free to lead: not needed now.
                    break;
                }
                self.free.fetch_add(1, Ordering::SeqCst);
                if let Some(l) = lane {
                    l.before_leading(self);
                }
                let slot = self.lead(idle, false);
                let free = self.free.fetch_sub(1, Ordering::SeqCst) - 1;
                let Some(slot) = slot else {
                    if lane.is_some_and(|l| l.lend(self)) {
                        continue;
                    }
                    break;
                };
                if free == 0
                    && let Some(l) = lane
                {
                    l.all_busy(self);
                }
                self.serve(&slot);
                if let Some(l) = lane {
                    l.after_turn(self);
                }
            }
        }
        if self.running.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.close_all();
        }
    }

    /// Starts one more thread, named `name`, that serves as a `dynamic`
    /// one and runs `then` when it ends; its handle is joined with the
    /// core's connection threads.
    pub(in crate::orb::server) fn start_thread(
        self: &Arc<Self>,
        name: String,
        dynamic: bool,
        then: impl FnOnce() + Send + 'static,
    ) -> std::io::Result<()> {
        self.running.fetch_add(1, Ordering::AcqRel);
        let s = Arc::clone(self);
        let spawned = std::thread::Builder::new().name(name).spawn(move || {
            s.run(dynamic);
            then();
        });
        match spawned {
            Ok(h) => {
                self.core.add_connection(h);
                Ok(())
            }
            Err(e) => {
                // The calling thread still runs: this is never the last.
                self.running.fetch_sub(1, Ordering::AcqRel);
                Err(e)
            }
        }
    }
}
