//! Runs every example as a user would and checks what it prints, so that
//! the examples keep working as the ORB changes.
//!
//! The examples are the binaries `cargo test -p rtorb-examples` builds
//! beside this test (`target/<profile>/examples/`).

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
use rustix::thread::CapabilitySet;

/// How long an example may run.
const DEADLINE: Duration = Duration::from_secs(120);

/// The binary of the example `name`.
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    // target/<profile>/deps/examples-HASH -> target/<profile>/examples/NAME
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("a target directory")
        .join("examples");
    let path = dir.join(name);
    assert!(
        path.exists(),
        "{} is missing: run `cargo test -p rtorb-examples`, which builds the examples",
        path.display()
    );
    path
}

fn start(name: &str, args: &[&str]) -> Child {
    Command::new(example(name))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{name} does not start: {e}"))
}

/// Waits for `child` to end within the deadline (killing it otherwise)
/// and returns its status, standard output and standard error.
fn finish(name: &str, mut child: Child) -> (ExitStatus, String, String) {
    let mut stdout = child.stdout.take().expect("a piped stdout");
    let mut stderr = child.stderr.take().expect("a piped stderr");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let (mut out, mut err) = (String::new(), String::new());
        let _ = stdout.read_to_string(&mut out);
        let _ = stderr.read_to_string(&mut err);
        let _ = tx.send((out, err));
    });
    match rx.recv_timeout(DEADLINE) {
        Ok((out, err)) => {
            let status = child.wait().expect("the example's status");
            (status, out, err)
        }
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{name} did not end within {DEADLINE:?}");
        }
    }
}

/// Runs the example `name` to its end; its standard output.
fn run(name: &str, args: &[&str]) -> String {
    let (status, out, err) = finish(name, start(name, args));
    assert!(
        status.success(),
        "{name} {args:?}: {status}\nstdout:\n{out}\nstderr:\n{err}"
    );
    out
}

#[test]
fn the_cubit_client_calls_the_cubit_server_and_stops_it() {
    let mut server = start("cubit_server", &["iiop://127.0.0.1:0"]);
    // The server prints its IOR first.
    let stdout = server.stdout.take().expect("a piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(stdout).lines();
        let first = lines.next();
        let _ = tx.send(first);
        let rest: Vec<String> = lines.map_while(Result::ok).collect();
        let _ = tx.send(Some(Ok(rest.join("\n"))));
    });
    let ior = match rx.recv_timeout(DEADLINE) {
        Ok(Some(Ok(line))) => line,
        other => {
            let _ = server.kill();
            panic!("cubit_server printed no IOR: {other:?}");
        }
    };
    assert!(ior.starts_with("IOR:"), "{ior}");
    let out = run("cubit_client", &[&ior, "50", "--shutdown"]);
    for op in [
        "cube_void",
        "cube_octet",
        "cube_short",
        "cube_long",
        "cube_struct",
        "cube_long_sequence(100)",
        "cube_octet_sequence(1000)",
    ] {
        assert!(out.contains(op), "no {op} in:\n{out}");
    }
    // The oneway `shutdown` ends the server.
    let rest = match rx.recv_timeout(DEADLINE) {
        Ok(Some(Ok(rest))) => rest,
        other => {
            let _ = server.kill();
            panic!("cubit_server did not shut down: {other:?}");
        }
    };
    let status = server.wait().expect("the server's status");
    assert!(status.success(), "cubit_server: {status}");
    assert!(rest.contains("listening on iiop://"), "{rest}");
    assert!(rest.ends_with("shut down"), "{rest}");
}

#[test]
fn server_strategy_serves_concurrent_clients_under_every_strategy() {
    for strategy in ["thread-per-connection", "reactive", "leader-followers"] {
        let out = run(
            "server_strategy",
            &["-ORBServerStrategy", strategy, "2", "50"],
        );
        assert!(out.contains(&format!("{strategy} server")), "{out}");
        assert!(out.contains("2 clients x 50 cube_long"), "{out}");
    }
}

#[test]
fn connection_strategies_measures_both_strategies_on_both_protocols() {
    let out = run("connection_strategies", &["2", "20"]);
    assert!(out.contains("== iiop://"), "{out}");
    assert!(out.contains("== uiop://"), "{out}");
    assert_eq!(out.matches("Exclusive").count(), 2, "{out}");
    assert_eq!(out.matches("Multiplexed").count(), 2, "{out}");
}

#[test]
fn the_poa_example_calls_each_of_its_objects() {
    let out = run("poa", &[]);
    for what in ["root", "persistent", "activated"] {
        assert!(
            out.contains(&format!("{what}: cube_long(3) over IIOP = 27")),
            "{out}"
        );
    }
    assert!(
        out.contains("activated, collocated: cube_long(4) = 64"),
        "{out}"
    );
    assert!(
        out.contains("after deactivation: cube_long(2) = 8"),
        "{out}"
    );
}

#[test]
fn the_default_servant_learns_each_object_id_from_current() {
    let out = run("poa_current", &[]);
    assert!(out.contains("request for \"alice\""), "{out}");
    assert!(out.contains("alice: balance 500"), "{out}");
    assert!(out.contains("bob: balance 300"), "{out}");
}

#[test]
fn priorities_travel_with_calls_and_declared_ones_hold() {
    let out = run("rt_priorities", &[]);
    for line in [
        "caller at 100: Propagated object ran at 100",
        "caller at 100: Declared object ran at 20000",
        "caller at 30000: Propagated object ran at 30000",
        "caller at 30000: Declared object ran at 20000",
    ] {
        assert!(out.contains(line), "{line:?} not in {out}");
    }
}

/// Whether this process may lock all of its memory: `CAP_IPC_LOCK` (root
/// has it), or no limit on the memory it may lock.
fn may_lock_memory() -> bool {
    let capable = rustix::thread::capabilities(None)
        .is_ok_and(|c| c.effective.contains(CapabilitySet::IPC_LOCK));
    capable || getrlimit(Resource::Memlock).current.is_none()
}

/// Whether this process may bound the CPUs' wake-up latency: it may open
/// the PM QoS device for writing (opening it asks for no bound).
fn may_bound_latency() -> bool {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/cpu_dma_latency")
        .is_ok()
}

/// Runs `rt_realtime_process ARGS` without the privilege to lock memory:
/// `RLIMIT_MEMLOCK` 0 and, for root, `CAP_IPC_LOCK` out of the
/// capabilities it keeps across `exec`. Its standard output.
#[allow(unsafe_code)]
fn realtime_process_without_memory_locking(args: &[&str]) -> String {
    use std::os::unix::process::CommandExt as _;
    let mut command = Command::new(example("rt_realtime_process"));
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let give_up = || -> std::io::Result<()> {
        let none = Rlimit {
            current: Some(0),
            maximum: Some(0),
        };
        setrlimit(Resource::Memlock, none)?;
        // Without CAP_SETPCAP the process is not root: it gets no
        // capability on exec to give up.
        match rustix::thread::remove_capability_from_bounding_set(CapabilitySet::IPC_LOCK) {
            Ok(()) | Err(rustix::io::Errno::PERM) => Ok(()),
            Err(e) => Err(e.into()),
        }
    };
    // SAFETY: the closure runs in the child between fork and exec, where
    // only async-signal-safe work may be done: it makes two system calls
    // through rustix, which neither allocates nor takes a lock.
    unsafe {
        command.pre_exec(give_up);
    }
    let child = command
        .spawn()
        .unwrap_or_else(|e| panic!("rt_realtime_process does not start: {e}"));
    let (status, out, err) = finish("rt_realtime_process", child);
    assert!(
        status.success(),
        "rt_realtime_process {args:?}: {status}\nstdout:\n{out}\nstderr:\n{err}"
    );
    out
}

/// The lines of `rt_realtime_process` for what the process may do.
fn check_realtime_process(out: &str, locked: bool, latency: &str) {
    let memory = out
        .lines()
        .find_map(|l| l.strip_prefix("memory locked: "))
        .unwrap_or_else(|| panic!("no memory line in {out}"));
    if locked {
        let kb = memory
            .strip_suffix(" kB")
            .and_then(|k| k.parse::<u64>().ok());
        assert!(kb.is_some_and(|k| k > 0), "{out}");
    } else {
        assert_eq!(memory, "none (not permitted here)", "{out}");
    }
    let bound = if may_bound_latency() {
        latency
    } else {
        "none (not permitted here)"
    };
    let line = format!("wake-up latency bound held: {bound}");
    assert!(out.lines().any(|l| l == line), "{line:?} not in {out}");
    assert!(out.contains("serving at iiop://"), "{out}");
    assert!(out.contains("shut down: the bound is released"), "{out}");
}

#[test]
fn an_orb_sets_up_its_real_time_process_or_says_why_not() {
    // With the privileges this process has: memory locked where it may
    // lock it (root, as CI runs), else refused; the same for the bound.
    let locked = may_lock_memory();
    let out = if locked {
        run("rt_realtime_process", &[])
    } else {
        realtime_process_without_memory_locking(&[])
    };
    check_realtime_process(&out, locked, "0 µs");
    // Without the privilege to lock memory: refused, and said so; the ORB
    // serves all the same.
    let out = realtime_process_without_memory_locking(&["-ORBCpuLatency", "10"]);
    check_realtime_process(&out, false, "10 µs");
}

#[test]
fn lanes_serve_their_objects_at_their_priorities() {
    let out = run("rt_lanes", &[]);
    for line in [
        "lane at 0: iiop://",
        "lane at 8000: iiop://",
        "Low object ran at 0",
        "High object ran at 8000",
    ] {
        assert!(out.contains(line), "{line:?} not in {out}");
    }
    let forwarded = out
        .lines()
        .filter(|l| l.starts_with("corbaloc::") && l.ends_with("/High ran at 8000"))
        .count();
    assert_eq!(forwarded, 2, "{out}");
}

#[test]
fn transport_echo_echoes_over_iiop_and_uiop() {
    let socket =
        std::env::temp_dir().join(format!("rtorb-example-echo-{}.sock", std::process::id()));
    let uiop = format!("uiop://{}", socket.display());
    for endpoint in ["iiop://127.0.0.1:0", "iiop://127.0.0.1:0/?giop=lite", &uiop] {
        let out = run("transport_echo", &[endpoint]);
        assert!(
            out.contains("server echoed 4 messages"),
            "{endpoint}: {out}"
        );
    }
    let _ = std::fs::remove_file(&socket);
}

#[test]
fn the_event_channel_example_delivers_to_a_push_and_a_pull_consumer() {
    let out = run("event_channel", &[]);
    assert!(out.contains("channel at corbaloc:"), "{out}");
    for quote in ["ACME 12.50", "INITECH 3.75", "GLOBEX 101.00"] {
        assert!(
            out.contains(&format!("push consumer got: {quote}")),
            "{out}"
        );
        assert!(
            out.contains(&format!("pull consumer got: {quote}")),
            "{out}"
        );
    }
    assert!(out.contains("another event waiting? false"), "{out}");
    assert!(out.contains("events supplied: 3, dropped: 0"), "{out}");
}
