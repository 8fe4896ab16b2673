//! `SYNC_WITH_SERVER` oneways are acknowledged on receipt, not behind the
//! servant of the request before them, under every server strategy, with
//! the server in a process of its own.
//!
//! The server is this test binary run again, for the one test that starts
//! it, with `SYNC_SERVER_STRATEGY` set: in that process the test serves
//! ([`serve`]) instead of calling. It serves a [`HeldServant`], whose `hold`
//! upcalls stop at its hold until the client writes `release` to the
//! server's standard input, and answers the client's questions there:
//! whether an upcall has entered the hold, and what the upcalls have
//! noted. The client sends two `SYNC_WITH_SERVER` `hold`s on one
//! reference: the second returns while the first upcall is still held
//! (it cannot end before the release, which comes after), and once
//! released the upcalls run in the order they were sent, before the
//! twoway `record` that follows them on the connection.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use rtorb::object::Object;
use rtorb::orb::ServerStrategy;
use rtorb::policy::{Policy, SyncScope};
use rtorb_cdr::CdrEncode;
use rtorb_test_support::hold::HeldServant;
use rtorb_test_support::{TIMEOUT, client, server};

/// The environment variable that makes a test of this binary the server
/// (set to the strategy it serves with, for whoever reads the process).
const STRATEGY_VAR: &str = "SYNC_SERVER_STRATEGY";
/// What starts each line of the server's answers.
const PREFIX: &str = "sync-server: ";

/// Runs `client` against a server process of `strategy`, for the test
/// named `test`: that test run again in a child process with
/// `SYNC_SERVER_STRATEGY` set, in which this function serves ([`serve`])
/// instead. So every test of this file runs its own checks, and none
/// passes without them.
fn against_a_server_process(
    test: &str,
    strategy: ServerStrategy,
    client: impl FnOnce(&mut Server, &str),
) {
    if std::env::var_os(STRATEGY_VAR).is_some() {
        serve(strategy);
        return;
    }
    let (mut server, ior) = Server::start(test, strategy);
    client(&mut server, &ior);
    assert_eq!(
        server.finish(),
        ["exit"],
        "{strategy}: the server's last words"
    );
}

/// The server process: serves a [`HeldServant`] with `strategy`, prints
/// its IOR, and answers each line of its standard input: `entered`
/// (whether an upcall not yet asked about has entered the hold, waiting
/// for one), `entered now` (the same, without waiting), `recorded` (what
/// the upcalls have noted) and `release` (opens the hold). At the end of
/// its input it opens the hold and shuts down.
fn serve(strategy: ServerStrategy) {
    let orb = server::with_strategy(strategy);
    // Released by the client, or by the end of its input should it be
    // lost: the upcalls never wait out the bound.
    let held = HeldServant::new(TIMEOUT);
    let obj = orb.activate_with_key(&b"Held"[..], held.clone()).unwrap();
    println!("{PREFIX}{}", orb.object_to_string(&obj).unwrap());
    for line in std::io::stdin().lock().lines() {
        match line.unwrap().trim() {
            "entered" => println!("{PREFIX}entered {}", held.hold().wait_entered(TIMEOUT)),
            "entered now" => println!(
                "{PREFIX}entered {}",
                held.hold().wait_entered(Duration::ZERO)
            ),
            "recorded" => println!("{PREFIX}recorded {:?}", held.recorded()),
            "release" => held.hold().open(),
            other => println!("{PREFIX}unknown {other}"),
        }
    }
    held.hold().open();
    orb.shutdown();
    println!("{PREFIX}exit");
}

/// A server process and its answers.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<String>,
}

impl Server {
    /// Runs the test `test` of this binary again as the server.
    fn start(test: &str, strategy: ServerStrategy) -> (Server, String) {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", test, "--nocapture", "--test-threads=1"])
            .env(STRATEGY_VAR, strategy.as_str())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the server process starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (send, answers) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                // The test harness may have begun the line.
                if let Some((_, answer)) = line.split_once(PREFIX) {
                    if send.send(answer.to_owned()).is_err() {
                        return;
                    }
                }
            }
        });
        let mut server = Server {
            child,
            stdin,
            answers,
        };
        let ior = server.next_answer();
        assert!(ior.starts_with("IOR:"), "the server's first line: {ior}");
        (server, ior)
    }

    /// The next answer, within the bound.
    fn next_answer(&mut self) -> String {
        match self.answers.recv_timeout(TIMEOUT) {
            Ok(r) => r,
            Err(RecvTimeoutError::Timeout) => panic!("no answer from the server within the bound"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server ended its output"),
        }
    }

    fn tell(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Asks `question`; the answer.
    fn ask(&mut self, question: &str) -> String {
        self.tell(question);
        self.next_answer()
    }

    fn release(&mut self) {
        self.tell("release");
    }

    /// Ends the server's input, and waits for it to exit.
    fn finish(mut self) -> Vec<String> {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "the server process failed: {status}");
        // Until the reader has forwarded the last line (the process's
        // output has ended).
        self.answers.iter().collect()
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

fn second_acknowledgement_does_not_wait_for_the_first_upcall(
    server: &mut Server,
    ior: &str,
    strategy: ServerStrategy,
) {
    let client = client::orb();
    let obj = client.string_to_object(ior).unwrap();
    let with_server = obj.with_policies(&[Policy::SyncScope(SyncScope::WithServer)]);

    with_server
        .invoke_oneway("hold", |e| 1u32.encode(e))
        .unwrap();
    assert_eq!(server.ask("entered"), "entered true", "{strategy}");
    // The first upcall is held until the release, sent below: the second
    // acknowledgement comes while it is.
    with_server
        .invoke_oneway("hold", |e| 2u32.encode(e))
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
    assert_eq!(
        server.ask("recorded"),
        "recorded []",
        "{strategy}: nothing ends before the release"
    );
    assert_eq!(
        server.ask("entered now"),
        "entered false",
        "{strategy}: the second upcall waits for the first"
    );
    server.release();
    // A twoway on the same connection runs after the upcalls before it.
    assert_eq!(
        record_after_the_upcalls(&obj, server, 3),
        "recorded [1, 2, 3]",
        "{strategy}: the requests of a connection run in the order sent"
    );
    assert_eq!(server.ask("entered now"), "entered true", "{strategy}");
    drop(obj);
    drop(with_server);
    client.shutdown();
}

/// Calls `record(n)` on `obj` (a twoway, run after the upcalls queued
/// before it on the connection) and returns what the server's upcalls
/// have noted once it has returned.
fn record_after_the_upcalls(obj: &Object, server: &mut Server, n: u32) -> String {
    obj.invoke("record", |e| n.encode(e)).unwrap();
    server.ask("recorded")
}

#[test]
fn sync_with_server_acknowledged_on_receipt_thread_per_connection() {
    let strategy = ServerStrategy::ThreadPerConnection;
    against_a_server_process(
        "sync_with_server_acknowledged_on_receipt_thread_per_connection",
        strategy,
        |server, ior| {
            second_acknowledgement_does_not_wait_for_the_first_upcall(server, ior, strategy)
        },
    );
}

#[test]
fn sync_with_server_acknowledged_on_receipt_reactive() {
    let strategy = ServerStrategy::Reactive;
    against_a_server_process(
        "sync_with_server_acknowledged_on_receipt_reactive",
        strategy,
        |server, ior| {
            second_acknowledgement_does_not_wait_for_the_first_upcall(server, ior, strategy)
        },
    );
}

#[test]
fn sync_with_server_acknowledged_on_receipt_leader_followers() {
    let strategy = ServerStrategy::LeaderFollowers;
    against_a_server_process(
        "sync_with_server_acknowledged_on_receipt_leader_followers",
        strategy,
        |server, ior| {
            second_acknowledgement_does_not_wait_for_the_first_upcall(server, ior, strategy)
        },
    );
}

/// `SYNC_WITH_TRANSPORT` oneways are not acknowledged, and run in order
/// behind a `SYNC_WITH_SERVER` one sent before them on the connection.
#[test]
fn other_sync_scopes_run_in_order_behind_a_deferred_upcall() {
    against_a_server_process(
        "other_sync_scopes_run_in_order_behind_a_deferred_upcall",
        ServerStrategy::ThreadPerConnection,
        |server, ior| {
            let client = client::orb();
            let obj = client.string_to_object(ior).unwrap();
            obj.with_policies(&[Policy::SyncScope(SyncScope::WithServer)])
                .invoke_oneway("hold", |e| 1u32.encode(e))
                .unwrap();
            assert_eq!(server.ask("entered"), "entered true");
            for n in [2u32, 3] {
                obj.invoke_oneway_with("hold", SyncScope::WithTransport, |e| n.encode(e))
                    .unwrap();
            }
            assert_eq!(client.stats().idle_client_connections, 1, "one connection");
            assert_eq!(server.ask("recorded"), "recorded []");
            server.release();
            assert_eq!(
                record_after_the_upcalls(&obj, server, 4),
                "recorded [1, 2, 3, 4]"
            );
            drop(obj);
            client.shutdown();
        },
    );
}
