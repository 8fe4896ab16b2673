//! A server raises the process's soft descriptor limit to the hard one
//! when it starts, once per process, and says so in the log; its default
//! connection cap is derived from the raised limit.
//!
//! One test in this binary: the raise happens once per process.

use rtorb::orb::{Orb, ServerStrategy, derived_max_connections};
use rtorb_test_support::log::capture;
use rtorb_test_support::server;
use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

fn soft_limit() -> u64 {
    getrlimit(Resource::Nofile).current.unwrap_or(u64::MAX)
}

#[test]
fn the_first_server_raises_the_descriptor_limit_and_derives_its_cap_from_it() {
    let before = getrlimit(Resource::Nofile);
    let hard = before.maximum.unwrap_or(u64::MAX);
    // A soft limit below the hard one, for the server to raise.
    let low = (hard / 2).min(512);
    setrlimit(
        Resource::Nofile,
        Rlimit {
            current: Some(low),
            maximum: before.maximum,
        },
    )
    .expect("lowering the soft descriptor limit");

    // A client-only ORB leaves it alone.
    let (client, lines) = capture(|| Orb::builder().build().unwrap());
    assert!(lines.is_empty(), "a client-only ORB logged {lines:?}");
    assert_eq!(soft_limit(), low);
    client.shutdown();

    let (server, lines) = capture(|| server::with_strategy(ServerStrategy::Reactive));
    let raised = soft_limit();
    assert!(raised > low, "the soft limit stayed at {raised}");
    assert!(raised <= hard);
    let line = lines
        .iter()
        .find(|l| l.message.contains("descriptor limit"))
        .unwrap_or_else(|| panic!("no log line about the descriptor limit in {lines:?}"));
    assert_eq!(line.level, tracing::Level::INFO, "{line:?}");
    assert_eq!(
        line.message,
        format!("raised the descriptor limit (RLIMIT_NOFILE) from {low} to {raised}")
    );
    assert_eq!(line.field("from"), Some(low.to_string().as_str()));
    assert_eq!(line.field("to"), Some(raised.to_string().as_str()));
    assert_eq!(
        server.stats().max_server_connections,
        derived_max_connections(raised, ServerStrategy::Reactive)
    );
    server.shutdown();

    // Once per process: a second server logs nothing, and derives its cap
    // for its own strategy from the same limit; a configured cap stays.
    let (again, lines) = capture(|| server::with_strategy(ServerStrategy::ThreadPerConnection));
    assert!(lines.is_empty(), "a second server logged {lines:?}");
    assert_eq!(
        again.stats().max_server_connections,
        derived_max_connections(raised, ServerStrategy::ThreadPerConnection)
    );
    again.shutdown();
    let configured = server::builder().max_connections(16).build().unwrap();
    assert_eq!(configured.stats().max_server_connections, 16);
    configured.shutdown();
}
