//! `SYNC_WITH_SERVER` oneways are acknowledged on receipt, not behind the
//! servant of the request before them, under every server strategy, with
//! the server in a process of its own.
//!
//! The server is this test binary run again with `SYNC_SERVER_STRATEGY`
//! set ([`serve_when_asked`]). It serves `hold`, a oneway whose upcall
//! blocks until the client writes `release` to the server's standard
//! input, and `ping`, a twoway; it reports each upcall's start and end on
//! its standard output. The client sends two `SYNC_WITH_SERVER` `hold`s
//! on one reference: the second returns while the first upcall is still
//! blocked (it cannot end before the release, which comes after), and
//! once released the upcalls run in the order they were sent, before the
//! `ping` that follows them on the connection.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use rtorb::orb::{Orb, ServerStrategy};
use rtorb::runtime::{
    Object, Policy, ServerRequest, Skeleton, SyncScope, SystemException, bad_operation,
};
use rtorb_cdr::{CdrDecode, CdrEncode};
use rtorb_test_support::wait::Latch;

/// The environment variable that makes this binary the server.
const STRATEGY_VAR: &str = "SYNC_SERVER_STRATEGY";
/// What starts each line of the server's reports.
const PREFIX: &str = "sync-server: ";
/// The round-trip timeout of the client's calls.
const CALL_TIMEOUT: Duration = Duration::from_secs(20);
/// How long the client waits for a report of the server at most.
const REPORT_TIMEOUT: Duration = Duration::from_secs(60);

/// `hold` blocks until `release`; `ping` answers.
struct Holder {
    released: Latch,
}

impl Skeleton for Holder {
    fn repository_ids(&self) -> &'static [&'static str] {
        &["IDL:rtorb/Holder:1.0"]
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        match req.operation() {
            "hold" => {
                let n = i32::decode(req.arguments())?;
                println!("{PREFIX}started {n}");
                // Released by the client; bounded so that a lost client
                // cannot keep the process forever.
                let released = self.released.wait(Duration::from_secs(300));
                println!("{PREFIX}ended {n} released={released}");
                Ok(())
            }
            "ping" => {
                println!("{PREFIX}ping");
                req.write_results(|e| 1i32.encode(e))
            }
            _ => Err(bad_operation()),
        }
    }
}

/// The server process: serves a `Holder` with the strategy named in
/// `SYNC_SERVER_STRATEGY`, prints its IOR, opens the latch on `release`
/// from its standard input and shuts down at the end of it. Does nothing
/// in a plain test run.
#[test]
fn serve_when_asked() {
    let Ok(strategy) = std::env::var(STRATEGY_VAR) else {
        return;
    };
    let strategy: ServerStrategy = strategy.parse().unwrap();
    let orb = Orb::builder()
        .listen("iiop://127.0.0.1:0")
        .server_strategy(strategy)
        .build()
        .unwrap();
    let holder = Arc::new(Holder {
        released: Latch::new(1),
    });
    let obj = orb
        .activate_with_key(&b"Holder"[..], Arc::clone(&holder) as Arc<dyn Skeleton>)
        .unwrap();
    println!("{PREFIX}{}", orb.object_to_string(&obj).unwrap());
    for line in std::io::stdin().lock().lines() {
        if line.unwrap().trim() == "release" {
            holder.released.count_down();
        }
    }
    holder.released.count_down();
    orb.shutdown();
    println!("{PREFIX}exit");
}

/// A server process and its reports.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    reports: Receiver<String>,
}

impl Server {
    fn start(strategy: ServerStrategy) -> (Server, String) {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "serve_when_asked",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(STRATEGY_VAR, strategy.as_str())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the server process starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (send, reports) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                // The test harness may have begun the line.
                if let Some((_, report)) = line.split_once(PREFIX) {
                    if send.send(report.to_owned()).is_err() {
                        return;
                    }
                }
            }
        });
        let mut server = Server {
            child,
            stdin,
            reports,
        };
        let ior = server.next_report();
        assert!(ior.starts_with("IOR:"), "the server's first report: {ior}");
        (server, ior)
    }

    /// The next report, within the bound.
    fn next_report(&mut self) -> String {
        let deadline = Instant::now() + REPORT_TIMEOUT;
        match self
            .reports
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(r) => r,
            Err(RecvTimeoutError::Timeout) => panic!("no report from the server within the bound"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server ended its output"),
        }
    }

    fn release(&mut self) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(b"release\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Ends the server's input, and waits for it to exit.
    fn finish(mut self) -> Vec<String> {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "the server process failed: {status}");
        // Until the reader has forwarded the last line (the process's
        // output has ended).
        self.reports.iter().collect()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.stdin.is_some() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn second_acknowledgement_does_not_wait_for_the_first_upcall(strategy: ServerStrategy) {
    let (mut server, ior) = Server::start(strategy);
    let client = Orb::builder()
        .round_trip_timeout(CALL_TIMEOUT)
        .build()
        .unwrap();
    let obj = client.string_to_object(&ior).unwrap();
    let with_server = obj.with_policies(&[Policy::SyncScope(SyncScope::WithServer)]);

    with_server
        .invoke_oneway("hold", |e| 1i32.encode(e))
        .unwrap();
    assert_eq!(server.next_report(), "started 1");
    // The first upcall is blocked until the release, sent below: the
    // second acknowledgement comes while it is.
    with_server
        .invoke_oneway("hold", |e| 2i32.encode(e))
        .unwrap_or_else(|e| {
            panic!(
                "{strategy}: the second SYNC_WITH_SERVER oneway waited for the first upcall: {e}"
            )
        });
    assert_eq!(
        client.stats().idle_client_connections,
        1,
        "both on one connection"
    );
    assert!(
        server.reports.try_recv().is_err(),
        "{strategy}: nothing ends before the release"
    );
    server.release();
    // A twoway on the same connection runs after the upcalls before it.
    let reports = ping_after_the_upcalls(&obj, &mut server);
    assert_eq!(
        reports,
        [
            "started 1",
            "ended 1 released=true",
            "started 2",
            "ended 2 released=true",
            "ping"
        ],
        "{strategy}: the requests of a connection run in the order sent"
    );
    drop(obj);
    drop(with_server);
    client.shutdown();
    assert_eq!(server.finish(), ["exit"]);
}

/// Calls `ping` on `obj` (a twoway, run after the upcalls queued before
/// it on the connection) and returns the server's reports from the first
/// upcall, `"started 1"`, up to the ping's.
fn ping_after_the_upcalls(obj: &Object, server: &mut Server) -> Vec<String> {
    assert_eq!(
        obj.invoke("ping", |_| Ok(()))
            .unwrap()
            .decode::<_, SystemException>(i32::decode)
            .unwrap(),
        1
    );
    let mut reports = vec!["started 1".to_owned()];
    while reports.last().map(String::as_str) != Some("ping") {
        reports.push(server.next_report());
    }
    reports
}

#[test]
fn sync_with_server_acknowledged_on_receipt_thread_per_connection() {
    second_acknowledgement_does_not_wait_for_the_first_upcall(ServerStrategy::ThreadPerConnection);
}

#[test]
fn sync_with_server_acknowledged_on_receipt_reactive() {
    second_acknowledgement_does_not_wait_for_the_first_upcall(ServerStrategy::Reactive);
}

#[test]
fn sync_with_server_acknowledged_on_receipt_leader_followers() {
    second_acknowledgement_does_not_wait_for_the_first_upcall(ServerStrategy::LeaderFollowers);
}

/// `SYNC_WITH_TRANSPORT` oneways are not acknowledged, and run in order
/// behind a `SYNC_WITH_SERVER` one sent before them on the connection.
#[test]
fn other_sync_scopes_run_in_order_behind_a_deferred_upcall() {
    let (mut server, ior) = Server::start(ServerStrategy::ThreadPerConnection);
    let client = Orb::builder()
        .round_trip_timeout(CALL_TIMEOUT)
        .build()
        .unwrap();
    let obj = client.string_to_object(&ior).unwrap();
    obj.with_policies(&[Policy::SyncScope(SyncScope::WithServer)])
        .invoke_oneway("hold", |e| 1i32.encode(e))
        .unwrap();
    assert_eq!(server.next_report(), "started 1");
    for n in [2i32, 3] {
        obj.invoke_oneway_with("hold", SyncScope::WithTransport, |e| n.encode(e))
            .unwrap();
    }
    assert_eq!(client.stats().idle_client_connections, 1, "one connection");
    server.release();
    let reports = ping_after_the_upcalls(&obj, &mut server);
    assert_eq!(
        reports,
        [
            "started 1",
            "ended 1 released=true",
            "started 2",
            "ended 2 released=true",
            "started 3",
            "ended 3 released=true",
            "ping"
        ]
    );
    drop(obj);
    client.shutdown();
    assert_eq!(server.finish(), ["exit"]);
}
