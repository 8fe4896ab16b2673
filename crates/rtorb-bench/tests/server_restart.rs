//! The first call after a server restart: a client whose cached
//! connection the previous server process closed (it shut down in order,
//! sending `CloseConnection`, or was killed) makes its next call on a new
//! connection to the restarted server, and the call succeeds. The server
//! is `rtorb-bench cubit-server` in a child process, restarted on the same
//! port, where its Cubit object has the same key.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use rtorb::orb::{ConnectionStrategy, Orb};
use rtorb::runtime::{CdrDecode, CdrEncode, Object, SystemException};

/// A server killed if the test fails before it exits.
struct Server {
    child: Child,
    /// Its output, kept open for what it prints when it shuts down.
    _lines: std::io::Lines<BufReader<std::process::ChildStdout>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Starts `rtorb-bench cubit-server` on 127.0.0.1:`port` and waits until
/// it is ready.
fn start_server(port: u16) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rtorb-bench"))
        .args(["cubit-server", "--endpoint"])
        .arg(format!("iiop://127.0.0.1:{port}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start rtorb-bench cubit-server");
    let mut lines = BufReader::new(child.stdout.take().expect("its output")).lines();
    let ready = lines
        .by_ref()
        .map_while(Result::ok)
        .any(|line| line == "ready");
    let server = Server {
        child,
        _lines: lines,
    };
    assert!(ready, "the server ended before it was ready");
    server
}

/// A free TCP port on 127.0.0.1.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn cube_long(cubit: &Object, l: i32) -> Result<i32, SystemException> {
    cubit
        .invoke("cube_long", |e| l.encode(e))?
        .decode(i32::decode)
}

/// Lets the client's connection stay idle longer than its bound for
/// looking at idle connections before reusing them (a millisecond, on a
/// clock whose ticks are up to 10 ms): a slower machine only waits longer.
fn idle_a_while() {
    std::thread::sleep(Duration::from_millis(21));
}

/// How the server process goes away.
#[derive(Debug, Clone, Copy)]
enum Ending {
    /// Its `shutdown` operation: the ORB shuts down, closing its
    /// connections with `CloseConnection`, and the process exits.
    Orderly,
    /// `SIGKILL`: the kernel closes its connections.
    Killed,
}

#[test]
fn the_first_call_after_a_server_restart_succeeds() {
    for strategy in [
        ConnectionStrategy::Exclusive,
        ConnectionStrategy::Multiplexed,
    ] {
        for ending in [Ending::Orderly, Ending::Killed] {
            let port = free_port();
            let mut server = start_server(port);
            let orb = Orb::builder()
                .round_trip_timeout(Duration::from_secs(10))
                .connection_strategy(strategy)
                .build()
                .unwrap();
            let cubit = orb
                .string_to_object(&format!("corbaloc::1.2@127.0.0.1:{port}/Cubit"))
                .unwrap();
            for l in 1..=3 {
                assert_eq!(cube_long(&cubit, l), Ok(l * l * l));
            }
            match ending {
                Ending::Orderly => cubit.invoke_oneway("shutdown", |_| Ok(())).unwrap(),
                Ending::Killed => server.child.kill().unwrap(),
            }
            let status = server.child.wait().unwrap();
            if let Ending::Orderly = ending {
                assert!(status.success(), "{status}");
            }
            drop(server);

            let _restarted = start_server(port);
            idle_a_while();
            assert_eq!(cube_long(&cubit, 4), Ok(64), "{strategy:?}, {ending:?}");
            assert_eq!(cube_long(&cubit, 5), Ok(125));
        }
    }
}
