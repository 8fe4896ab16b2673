//! The server's idle timeout, under every server concurrency strategy: a
//! connection that stays idle for it is closed with `CloseConnection`; one
//! whose requests keep coming is not, however long it lasts.

use std::io::Write;
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb::orb::ServerStrategy;
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::encode_message;
use rtorb_giop::message::{Content, LocateRequest, Message};
use rtorb_giop::target::TargetAddress;
use rtorb_test_support::cubit;
use rtorb_test_support::net::RawGiopClient;
use rtorb_test_support::server;

/// The server's idle timeout. The busy client's requests come a fraction
/// of a millisecond apart on an idle machine: two seconds between two of
/// them is a stall no loaded machine that runs the tests comes near. The
/// test lasts about three times this.
const IDLE: Duration = Duration::from_secs(2);

/// A GIOP 1.1 `LocateRequest` for the Cubit, numbered `id`.
fn locate(id: u32) -> Bytes {
    encode_message(&Message::new(
        Version::V1_1,
        ByteOrder::Little,
        Content::LocateRequest(LocateRequest {
            request_id: id,
            target: TargetAddress::Key(Bytes::from_static(b"Cubit")),
        }),
    ))
    .unwrap()
}

/// A client whose requests keep coming, for twice the idle timeout, keeps
/// its connection: every request is answered on it. Once quiet after a
/// last request, it gets that request's reply, then `CloseConnection`
/// when the timeout has passed.
fn idle_closed_and_busy_kept(strategy: ServerStrategy) {
    let what = format!("{strategy}");
    let server = server::builder()
        .server_strategy(strategy)
        .server_threads(2)
        .server_idle_timeout(IDLE)
        .build()
        .unwrap();
    cubit::serve(&server);

    let mut client = RawGiopClient::connect(&server);
    let start = Instant::now();
    let mut id = 0u32;
    while start.elapsed() < IDLE * 2 {
        client.stream.write_all(&locate(id)).unwrap();
        match client.next(&what).map(|m| m.content) {
            Some(Content::LocateReply(r)) if r.request_id == id => {}
            other => panic!(
                "{what}: the busy connection, {:?} after its first request, answered \
                 request {id} with {other:?}",
                start.elapsed()
            ),
        }
        id += 1;
    }
    assert_eq!(server.stats().server_connections, 1, "{what}");

    // The last request, and then nothing.
    let idle_from = Instant::now();
    client.stream.write_all(&locate(id)).unwrap();
    let mut got = Vec::new();
    while let Some(message) = client.next(&what) {
        got.push(message);
    }
    assert!(idle_from.elapsed() >= IDLE, "{what}: closed early");
    assert_eq!(got.len(), 2, "{what}: {got:?}");
    assert!(matches!(got[0].content, Content::LocateReply(_)), "{what}");
    assert_eq!(got[1].content, Content::CloseConnection, "{what}");
    // In the GIOP version the client spoke.
    assert_eq!(got[1].version, Version::V1_1, "{what}");
    server.shutdown();
}

#[test]
fn idle_connections_are_closed_with_close_connection_and_busy_ones_kept() {
    // The strategies side by side, each on a thread named after it: the
    // test lasts a few idle timeouts, not three times as many.
    std::thread::scope(|scope| {
        for strategy in ServerStrategy::ALL {
            std::thread::Builder::new()
                .name(strategy.to_string())
                .spawn_scoped(scope, move || idle_closed_and_busy_kept(strategy))
                .unwrap();
        }
    });
}
