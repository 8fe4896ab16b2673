//! The first call after a server restart: a client whose cached
//! connection the previous server process closed (it shut down in order,
//! sending `CloseConnection`, or was killed) makes its next call on a new
//! connection to the restarted server, and the call succeeds. The server
//! is `rtorb-bench cubit-server` in a child process, restarted on the same
//! port, where its Cubit object has the same key.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use rtorb::cdr::{CdrDecode, CdrEncode};
use rtorb::exception::SystemException;
use rtorb::object::Object;
use rtorb::orb::ConnectionStrategy;
use rtorb_test_support::client;
use rtorb_test_support::clock::idle_past_reuse_check;
use rtorb_test_support::net::free_port;

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

fn cube_long(cubit: &Object, l: i32) -> Result<i32, SystemException> {
    cubit
        .invoke("cube_long", |e| l.encode(e))?
        .decode(i32::decode)
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
            let orb = client::with_strategy(strategy);
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
            // The client looks whether its connection was closed only
            // once it has been idle for a while.
            idle_past_reuse_check();
            assert_eq!(cube_long(&cubit, 4), Ok(64), "{strategy:?}, {ending:?}");
            assert_eq!(cube_long(&cubit, 5), Ok(125));
        }
    }
}
