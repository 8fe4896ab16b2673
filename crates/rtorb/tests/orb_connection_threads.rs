//! Thread-per-connection accepts without starting a thread for each
//! connection: the thread of a connection that ended waits, parked, for
//! the next one, which it serves.
//!
//! One test in this binary: it counts the process's connection threads.

use std::collections::BTreeSet;
use std::io::Write;
use std::net::TcpStream;

use bytes::Bytes;
use rtorb::orb::{Orb, ServerStrategy};
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::encode_message;
use rtorb_giop::message::{Content, LocateRequest, Message};
use rtorb_giop::target::TargetAddress;
use rtorb_test_support::cubit;
use rtorb_test_support::net::{iiop_address, read_message};
use rtorb_test_support::sched::threads_named;
use rtorb_test_support::wait::eventually;
use rtorb_test_support::{TIMEOUT, server};

/// The thread ids of the server's connection threads.
fn connection_threads() -> BTreeSet<u32> {
    // The kernel keeps 15 octets of the name.
    threads_named("rtorb-connectio").into_iter().collect()
}

/// Connects, is answered, and closes.
fn one_connection(server: &Orb) {
    let mut raw = TcpStream::connect(iiop_address(server)).unwrap();
    raw.set_read_timeout(Some(TIMEOUT)).unwrap();
    let locate = encode_message(&Message::new(
        Version::V1_2,
        ByteOrder::Little,
        Content::LocateRequest(LocateRequest {
            request_id: 1,
            target: TargetAddress::Key(Bytes::from_static(b"Cubit")),
        }),
    ))
    .unwrap();
    raw.write_all(&locate).unwrap();
    assert!(matches!(
        read_message(&mut raw).content,
        Content::LocateReply(_)
    ));
}

#[test]
fn a_connection_thread_serves_the_next_connection_after_its_own() {
    let server = server::with_strategy(ServerStrategy::ThreadPerConnection);
    cubit::serve(&server);
    one_connection(&server);
    assert!(eventually(TIMEOUT, || server.stats().server_connections == 0));
    // Its thread stays, parked.
    let parked = connection_threads();
    assert_eq!(parked.len(), 1, "connection threads: {parked:?}");
    for _ in 0..20 {
        one_connection(&server);
        assert!(eventually(TIMEOUT, || server.stats().server_connections == 0));
    }
    // Every later connection was served by it: no thread was started.
    assert_eq!(connection_threads(), parked);
    server.shutdown();
    assert!(
        connection_threads().is_empty(),
        "threads left after shutdown"
    );
}
