//! The priority benchmark's peers against each other: omniORB's
//! `priority_client` and `priority_server`, and each crossed with rtorb's
//! (`rtorb-bench priority-client` and `priority-server`). They check that
//! every call is answered and every figure reported, never a time. A
//! missing omniORB, or an rtorb-bench program not built beside this test
//! (`cargo test --workspace` builds it; else `cargo build -p rtorb-bench`),
//! fails these tests.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use rtorb_interop::process::{ChildGuard, line_channel, run_to_end};
use rtorb_interop::{PeerPaths, ensure_peers};
use serde_json::Value;

const TIMEOUT: Duration = Duration::from_secs(60);

/// The run every client makes: 2 low threads, 200 Hz and 100 Hz, 300 ms,
/// under SCHED_OTHER (the benchmark, not these tests, measures at
/// SCHED_FIFO).
const RUN: [&str; 6] = [
    "--high-hz",
    "200",
    "--low-hz",
    "100",
    "--duration-ms",
    "300",
];

fn peers() -> PeerPaths {
    ensure_peers().unwrap_or_else(|e| panic!("the omniORB peers cannot be built: {e}"))
}

/// The `rtorb-bench` program of this build: beside the directory of this
/// test.
fn rtorb_bench() -> PathBuf {
    let exe = std::env::current_exe().expect("this test's path");
    let program = exe
        .parent()
        .and_then(|deps| deps.parent())
        .map(|dir| dir.join("rtorb-bench"))
        .expect("the build directory");
    assert!(
        program.is_file(),
        "{} is not built: `cargo test --workspace` builds it, or run `cargo build -p rtorb-bench` first",
        program.display()
    );
    program
}

/// A running priority server: its `High` and `Low` URLs; it stops when
/// its standard input closes (or is killed when dropped).
struct Server {
    child: ChildGuard,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    high: String,
    low: String,
}

impl Server {
    /// Starts a server; `Err` if it does not get ready (its output
    /// ended, or it said nothing in time).
    fn start(mut cmd: Command, name: &str) -> Result<Server, String> {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {name}: {e}"))?;
        let stdin = child.stdin.take();
        let mut child = ChildGuard::new(child, name);
        let lines = line_channel(child.take_stdout().expect("stdout"));
        let (mut high, mut low) = (None, None);
        loop {
            let line = lines
                .recv_timeout(TIMEOUT)
                .map_err(|_| format!("{name} did not get ready"))?;
            if let Some(url) = line.strip_prefix("High ") {
                high = Some(url.to_owned());
            } else if let Some(url) = line.strip_prefix("Low ") {
                low = Some(url.to_owned());
            } else if line == "ready" {
                break;
            }
        }
        let (high, low) = (high.expect("High URL"), low.expect("Low URL"));
        for (key, url) in [("High", &high), ("Low", &low)] {
            assert!(
                url.starts_with("corbaloc::1.2@127.0.0.1:") && url.ends_with(&format!("/{key}")),
                "{name}: {url}"
            );
        }
        Ok(Server {
            child,
            stdin,
            lines,
            high,
            low,
        })
    }

    fn rtorb() -> Server {
        let mut cmd = Command::new(rtorb_bench());
        cmd.args([
            "priority-server",
            "--conventional",
            "--endpoint",
            "iiop://127.0.0.1:0",
        ]);
        Server::start(cmd, "rtorb-bench priority-server").unwrap_or_else(|e| panic!("{e}"))
    }

    fn omniorb() -> Server {
        // The port is chosen before the server binds it: another process
        // may take it in between, and then a new one is tried.
        let mut last = String::new();
        for _ in 0..3 {
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .expect("a free port")
                .port();
            let mut cmd = Command::new(peers().priority_server);
            cmd.arg("-ORBendPoint")
                .arg(format!("giop:tcp:127.0.0.1:{port}"));
            match Server::start(cmd, "omniORB priority_server") {
                Ok(server) => return server,
                Err(e) => last = e,
            }
        }
        panic!("{last}")
    }

    /// Closes its standard input and waits for it to exit; the lines it
    /// printed after.
    fn stop(mut self) -> Vec<String> {
        drop(self.stdin.take());
        let status = self.child.wait_timeout(TIMEOUT).expect("the server exits");
        assert!(status.success(), "the server failed: {status}");
        // Every line up to the end of its output, which the reader thread
        // may still be forwarding.
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(TIMEOUT) {
            rest.push(line);
        }
        rest
    }
}

/// Runs a client to its end; its JSON report.
fn run_client(mut cmd: Command, name: &str) -> Value {
    let (status, output) = run_to_end(&mut cmd, name, TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    assert!(status.success(), "{name} failed ({status}): {output}");
    let line = BufReader::new(output.as_bytes())
        .lines()
        .map_while(Result::ok)
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("{name} printed no report: {output}"));
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("{name}: {e}: {line}"))
}

fn omniorb_client(server: &Server) -> Value {
    let mut cmd = Command::new(peers().priority_client);
    cmd.args(["-n", "2", "--policy", "other"])
        .args(RUN)
        .args([&server.high, &server.low])
        .args(["-ORBmaxGIOPConnectionPerServer", "1"])
        .args(["-ORBoneCallPerConnection", "0"]);
    run_client(cmd, "omniORB priority_client")
}

fn rtorb_client(server: &Server) -> Value {
    let mut cmd = Command::new(rtorb_bench());
    cmd.args(["priority-client", "--lows", "2", "--policy", "other"])
        .args(RUN)
        .args([&server.high, &server.low]);
    run_client(cmd, "rtorb-bench priority-client")
}

/// Every figure of a report, and every slot accounted for.
///
/// Every call the client issued was answered: a call that fails ends the
/// client with an error, and [`run_client`] checks that it exited 0. A
/// slot without a call is one the client could not issue before the
/// run's end (a thread that fell behind catches up, it does not skip
/// slots); the design counts those as missed, together with the replies
/// that came after their deadline (calls all the same), of which the
/// misses a late wake-up caused are a part. So the slots not called and
/// the late wake-ups together are at most the misses: a call lost
/// anywhere, or a slot neither called nor counted, fails the check.
fn check(report: &Value, orb: &str) {
    assert_eq!(report["orb"], orb, "{report}");
    assert_eq!(report["policy"], "SCHED_OTHER", "{report}");
    for (class, threads, slots) in [("high", 1, 60u64), ("low", 2, 60)] {
        let c = &report[class];
        assert_eq!(c["threads"], threads, "{class}: {report}");
        assert_eq!(c["slots"], slots, "{class}: {report}");
        let calls = c["calls"].as_u64().expect("calls");
        let missed = c["missed"].as_u64().expect("missed");
        let late_wakeups = c["missed_late_wakeup"]
            .as_u64()
            .expect("missed_late_wakeup");
        assert!(calls > 0, "{class}: {report}");
        let not_called = slots.checked_sub(calls).expect("no more calls than slots");
        assert!(
            not_called + late_wakeups <= missed && missed <= slots,
            "{class}: {not_called} slots not called, {late_wakeups} late wake-ups: {report}"
        );
        for k in ["mean_us", "p50_us", "p99_us", "max_us", "stddev_us"] {
            assert!(
                c[k].as_f64().is_some_and(|v| v >= 0.0),
                "{class}.{k}: {report}"
            );
        }
        assert!(
            c["p50_us"].as_f64() <= c["p99_us"].as_f64()
                && c["p99_us"].as_f64() <= c["max_us"].as_f64(),
            "{class}: {report}"
        );
        for k in ["client_locks", "server_locks"] {
            assert!(c.get(k).is_some(), "{class}.{k}: {report}");
        }
    }
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn omniorb_client_and_server() {
    let server = Server::omniorb();
    check(&omniorb_client(&server), "omniORB");
    let rest = server.stop();
    assert!(rest.iter().any(|l| l == "shut down"), "{rest:?}");
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn omniorb_client_against_the_rtorb_priority_server() {
    let server = Server::rtorb();
    check(&omniorb_client(&server), "omniORB");
    let rest = server.stop();
    let stats = rest
        .iter()
        .find_map(|l| l.strip_prefix("stats "))
        .unwrap_or_else(|| panic!("no stats: {rest:?}"));
    let stats: Value = serde_json::from_str(stats).expect("stats JSON");
    // Warm-up and measured calls of C0 and of the low threads, less the
    // first request the server saw.
    let turns =
        stats["high"]["turns"].as_u64().unwrap_or(0) + stats["low"]["turns"].as_u64().unwrap_or(0);
    assert!(turns >= 14, "{stats}");
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn rtorb_client_against_the_omniorb_priority_server() {
    let server = Server::omniorb();
    check(&rtorb_client(&server), "rtorb");
    server.stop();
}

/// omniORB's client, its run overrunning its watchdog: every thread put
/// under SCHED_OTHER and exit status 4, with a message.
#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl): scripts/test.sh installs it and runs this"]
fn omniorb_client_overrunning_its_watchdog() {
    let server = Server::omniorb();
    let mut cmd = Command::new(peers().priority_client);
    // The run lasts 300 ms at least, its watchdog 1 ms.
    cmd.args(["-n", "1", "--policy", "other", "--watchdog-ms", "1"])
        .args(RUN)
        .args([&server.high, &server.low]);
    let (status, output) =
        run_to_end(&mut cmd, "omniORB priority_client", TIMEOUT).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status.code(), Some(4), "{output}");
    assert!(
        output.contains("watchdog: the run did not finish within 1 ms"),
        "{output}"
    );
    server.stop();
}
