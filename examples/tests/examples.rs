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

#[test]
fn an_orb_sets_up_its_real_time_process_or_says_why_not() {
    let out = run("rt_realtime_process", &[]);
    assert!(out.contains("memory locked: "), "{out}");
    // Held where the example may (CI runs as root), or said not to be.
    assert!(
        out.contains("wake-up latency bound held: 0 µs")
            || out.contains("wake-up latency bound held: none (not permitted here)"),
        "{out}"
    );
    assert!(out.contains("serving at iiop://"), "{out}");
    assert!(out.contains("shut down: the bound is released"), "{out}");
    let out = run("rt_realtime_process", &["-ORBCpuLatency", "10"]);
    assert!(
        out.contains("wake-up latency bound held: 10 µs")
            || out.contains("wake-up latency bound held: none (not permitted here)"),
        "{out}"
    );
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
