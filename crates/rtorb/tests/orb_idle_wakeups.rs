//! An idle server makes no periodic wake-ups: on a CPU shared with
//! real-time work each one would preempt it. Acceptor threads and the
//! threads of idle connections sleep until input comes or the ORB shuts
//! down, and still serve at once and stop promptly.
//!
//! The wake-ups of the ORB's idle threads are counted while a thread
//! that polls, as the ORB's would if they polled, wakes many times: the
//! idle period is as long as that poller needs, however loaded the
//! machine.
//!
//! The tests of this file run in a process of their own. The second
//! uses the event-loop strategies, which start no `rtorb-acceptor` or
//! `rtorb-connection` threads: those the first counts are its ORB's.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use rtorb_test_support::echo::{Echo, echo};
use rtorb_test_support::net::socket_path;
use rtorb_test_support::wait::eventually;
use rtorb_test_support::{TIMEOUT, client, server};

/// A thread that wakes every `period`, as a thread that polls does, and
/// counts its wake-ups; it stops when dropped.
struct Poller {
    woken: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Poller {
    fn every(period: Duration) -> Poller {
        let (woken, stop) = (
            Arc::new(AtomicU64::new(0)),
            Arc::new(AtomicBool::new(false)),
        );
        let (w, s) = (Arc::clone(&woken), Arc::clone(&stop));
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                // The poll period: the wake-ups are what it measures.
                std::thread::sleep(period);
                w.fetch_add(1, Ordering::Relaxed);
            }
        });
        Poller {
            woken,
            stop,
            thread: Some(thread),
        }
    }

    /// Waits until it has woken `n` times more: as long as a thread
    /// polling at its period would take to wake `n` times.
    fn wakes(&self, n: u64) {
        let from = self.woken.load(Ordering::Relaxed);
        assert!(
            eventually(TIMEOUT, || self.woken.load(Ordering::Relaxed) >= from + n),
            "the poller did not wake {n} times"
        );
    }
}

impl Drop for Poller {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Every thread of this process: its `/proc` directory and its name.
fn tasks() -> Vec<(std::path::PathBuf, String)> {
    let mut out: Vec<_> = std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task")
        .map(|task| task.expect("task entry").path())
        .map(|path| {
            let comm = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
            (path, comm.trim().to_owned())
        })
        .collect();
    out.sort();
    out
}

/// The voluntary context switches of every thread named `name` in this
/// process, by thread id.
fn switches(name: &str) -> Vec<(String, u64)> {
    tasks()
        .into_iter()
        .filter(|(_, comm)| comm == name)
        .map(|(path, _)| {
            let status = std::fs::read_to_string(path.join("status")).unwrap_or_default();
            let n = status
                .lines()
                .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
                .and_then(|v| v.trim().parse().ok())
                .expect("voluntary_ctxt_switches in status");
            (path.display().to_string(), n)
        })
        .collect()
}

/// The wake-ups of each thread listed in both `before` and `after`, by
/// thread: the listings are matched by thread id, not by position, since a
/// thread may start or end between them.
fn woken(before: &[(String, u64)], after: &[(String, u64)]) -> Vec<(String, u64)> {
    before
        .iter()
        .filter_map(|(task, b)| {
            let (_, a) = after.iter().find(|(t, _)| t == task)?;
            Some((task.clone(), a.saturating_sub(*b)))
        })
        .collect()
}

/// Whether `n` threads are named `name` and every one of them is asleep
/// (state `S`, waiting for an event).
fn asleep(name: &str, n: usize) -> bool {
    let states: Vec<bool> = tasks()
        .into_iter()
        .filter(|(_, comm)| comm == name)
        .map(|(path, _)| {
            std::fs::read_to_string(path.join("status"))
                .unwrap_or_default()
                .lines()
                .any(|l| l.starts_with("State:") && l.contains("S (sleeping)"))
        })
        .collect();
    states.len() == n && states.iter().all(|s| *s)
}

/// The name of every thread of this process.
fn thread_names() -> Vec<String> {
    let mut names: Vec<String> = tasks().into_iter().map(|(_, name)| name).collect();
    names.sort();
    names
}

#[test]
fn idle_acceptors_and_connections_sleep_until_input_or_shutdown() {
    let path = socket_path("idle");
    let orb = server::builder()
        .listen(format!("uiop://{path}"))
        .build()
        .unwrap();
    let obj = orb.activate_with_key(&b"Echo"[..], Arc::new(Echo)).unwrap();
    let ior = orb.object_to_string(&obj).unwrap();
    let _ = eventually(TIMEOUT, || asleep("rtorb-acceptor", 2));

    let before = switches("rtorb-acceptor");
    assert_eq!(
        before.len(),
        2,
        "one acceptor thread per endpoint: {before:?}"
    );
    // Long enough for an acceptor polling every 5 ms to wake 120 times.
    Poller::every(Duration::from_millis(5)).wakes(120);
    let after = switches("rtorb-acceptor");
    let counts = woken(&before, &after);
    assert_eq!(counts.len(), 2, "both acceptors still run: {after:?}");
    for (task, n) in counts {
        assert!(
            n <= 2,
            "{task}: {n} wake-ups while idle, as long as a 5 ms poller woke 120 times"
        );
    }

    // A sleeping acceptor still takes a connection at once.
    let client = client::orb();
    let target = client.string_to_object(&ior).unwrap();
    assert_eq!(echo(&target, 7).unwrap(), 7);

    // The connection's thread, idle between requests, sleeps too. The
    // other test of this file runs beside this one and may be ending
    // threads of its ORBs meanwhile; a listing of /proc/self/task taken
    // while threads exit can miss live ones, so it is read again for a
    // while, and on a failure every thread of the process is listed.
    let _ = eventually(TIMEOUT, || asleep("rtorb-connectio", 1));
    let mut before = Vec::new();
    let _ = eventually(TIMEOUT, || {
        before = switches("rtorb-connectio");
        before.len() == 1
    });
    assert_eq!(
        before.len(),
        1,
        "one connection thread: {before:?}; every thread: {:?}",
        thread_names()
    );
    // Long enough for a thread polling every 5 ms to wake 120 times.
    Poller::every(Duration::from_millis(5)).wakes(120);
    let after = switches("rtorb-connectio");
    let counts = woken(&before, &after);
    assert_eq!(
        counts.len(),
        1,
        "the connection thread still runs: {after:?}"
    );
    let n = counts[0].1;
    assert!(
        n <= 2,
        "an idle connection thread woke {n} times, as long as a 5 ms poller woke 120 times"
    );
    assert_eq!(echo(&target, 8).unwrap(), 8);

    // Shutdown wakes the acceptors and the idle connection's thread.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        orb.shutdown();
        let _ = tx.send(());
    });
    rx.recv_timeout(TIMEOUT)
        .expect("the server ORB shuts down with its acceptors asleep");
    client.shutdown();
    let _ = std::fs::remove_file(&path);
}

/// The event-loop strategies (reactive, leader/followers) poll with no
/// timeout while no connection has a timeout running: an idle server's
/// loop threads sleep, and still serve and stop promptly.
#[test]
fn idle_event_loops_sleep_until_input_or_shutdown() {
    use rtorb::orb::ServerStrategy;
    for (strategy, name) in [
        (ServerStrategy::Reactive, "rtorb-reactor"),
        (ServerStrategy::LeaderFollowers, "rtorb-leader-fo"),
    ] {
        let orb = server::builder()
            .server_strategy(strategy)
            .server_threads(3)
            .build()
            .unwrap();
        let obj = orb.activate_with_key(&b"Echo"[..], Arc::new(Echo)).unwrap();
        let ior = orb.object_to_string(&obj).unwrap();
        let client = client::orb();
        let target = client.string_to_object(&ior).unwrap();
        assert_eq!(echo(&target, 1).unwrap(), 1);
        let _ = eventually(TIMEOUT, || {
            let n = switches(name).len();
            n > 0 && asleep(name, n)
        });

        let before = switches(name);
        assert!(!before.is_empty(), "{strategy:?}: no {name} thread");
        // Long enough for a loop polling every 50 ms to wake 12 times.
        Poller::every(Duration::from_millis(50)).wakes(12);
        let after = switches(name);
        let counts = woken(&before, &after);
        assert!(
            !counts.is_empty(),
            "{strategy:?}: no {name} thread ran throughout: {before:?} then {after:?}"
        );
        for (task, n) in counts {
            assert!(
                n <= 2,
                "{strategy:?} {task}: {n} wake-ups, as long as a 50 ms poller woke 12 times"
            );
        }
        assert_eq!(echo(&target, 2).unwrap(), 2);

        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            orb.shutdown();
            let _ = tx.send(());
        });
        rx.recv_timeout(TIMEOUT)
            .expect("the server ORB shuts down with its loop asleep");
        client.shutdown();
    }
}
