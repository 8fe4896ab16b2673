//! The listen backlog reaches the socket: by default the system's maximum
//! (`net.core.somaxconn`, at most 65535), else what `-ORBListenBacklog`
//! (or the builder) says, under every server strategy. Read back as the
//! kernel reports it: the `Send-Q` column that `ss -ltn` shows for a
//! listening socket is its backlog.

use std::process::Command;

use rtorb::orb::{Orb, ServerStrategy};
use rtorb_test_support::net::iiop_address;
use rtorb_test_support::server;

/// The backlog of the listening TCP socket on `address` (`host:port`), as
/// `ss` reports it.
fn backlog_of(address: &str) -> u64 {
    let port = address.rsplit(':').next().expect("a port");
    let out = Command::new("ss")
        .args(["-H", "-l", "-t", "-n", &format!("sport = :{port}")])
        .output()
        .unwrap_or_else(|e| panic!("`ss` (iproute2) is needed to read the backlog back: {e}"));
    assert!(out.status.success(), "ss: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one listening socket on {address}: {text}");
    // State, Recv-Q, Send-Q, local address, peer address.
    let columns: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(columns.first(), Some(&"LISTEN"), "{text}");
    columns
        .get(2)
        .and_then(|q| q.parse().ok())
        .unwrap_or_else(|| panic!("no Send-Q in {text}"))
}

fn somaxconn() -> u64 {
    std::fs::read_to_string("/proc/sys/net/core/somaxconn")
        .expect("net.core.somaxconn")
        .trim()
        .parse()
        .expect("a number")
}

#[test]
fn the_default_backlog_is_the_system_maximum() {
    let expected = somaxconn().min(65535);
    for strategy in ServerStrategy::ALL {
        let server = server::with_strategy(strategy);
        assert_eq!(backlog_of(&iiop_address(&server)), expected, "{strategy}");
        server.shutdown();
    }
}

#[test]
fn a_configured_backlog_is_applied() {
    for strategy in ServerStrategy::ALL {
        let (server, rest) = Orb::init([
            "server",
            "-ORBListenEndpoints",
            "iiop://127.0.0.1:0",
            "-ORBServerStrategy",
            &strategy.to_string(),
            "-ORBListenBacklog",
            "77",
        ])
        .unwrap();
        assert_eq!(rest, ["server"]);
        assert_eq!(backlog_of(&iiop_address(&server)), 77, "{strategy}");
        server.shutdown();
        let server = server::builder()
            .server_strategy(strategy)
            .listen_backlog(5)
            .build()
            .unwrap();
        assert_eq!(backlog_of(&iiop_address(&server)), 5, "{strategy}");
        server.shutdown();
    }
}
