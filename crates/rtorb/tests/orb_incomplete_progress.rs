//! The incomplete-message timeout measures a lack of progress, under every
//! server concurrency strategy: a pipelining client whose writes always
//! end inside the next message keeps its connection however long it goes
//! on (twice the timeout here), because its messages keep completing; one
//! that completes a few messages and then stalls inside the next is
//! closed.

use std::io::Write;
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb::orb::{Orb, ServerStrategy};
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::encode_message;
use rtorb_giop::message::{Content, LocateRequest, Message};
use rtorb_giop::target::TargetAddress;
use rtorb_test_support::cubit;
use rtorb_test_support::net::RawGiopClient;

/// The server's incomplete-message timeout. The pipelining client
/// completes a message a fraction of a millisecond after the one before
/// on an idle machine: two seconds between two of them is a stall no
/// loaded machine that runs the tests comes near. The tests last a few
/// times this.
const INCOMPLETE: Duration = Duration::from_secs(2);

/// Runs `test` under every server strategy side by side, each on a thread
/// named after it: the test lasts as long as one strategy's run, not
/// three times as long.
fn under_every_strategy(test: fn(ServerStrategy)) {
    std::thread::scope(|scope| {
        for strategy in ServerStrategy::ALL {
            std::thread::Builder::new()
                .name(strategy.to_string())
                .spawn_scoped(scope, move || test(strategy))
                .unwrap();
        }
    });
}

/// A server of a Cubit whose incomplete-message timeout is [`INCOMPLETE`].
fn server(strategy: ServerStrategy) -> Orb {
    let server = rtorb_test_support::server::builder()
        .server_strategy(strategy)
        .server_threads(2)
        .incomplete_message_timeout(INCOMPLETE)
        .build()
        .unwrap();
    cubit::serve(&server);
    server
}

fn locate(id: u32) -> Bytes {
    encode_message(&Message::new(
        Version::V1_2,
        ByteOrder::Little,
        Content::LocateRequest(LocateRequest {
            request_id: id,
            target: TargetAddress::Key(Bytes::from_static(b"Cubit")),
        }),
    ))
    .unwrap()
}

/// Expects the `LocateReply` to request `id` on `client`.
fn replied(client: &mut RawGiopClient, id: u32, what: &str) {
    match client.next(what).map(|m| m.content) {
        Some(Content::LocateReply(r)) => assert_eq!(r.request_id, id, "{what}"),
        other => panic!("{what}: the reply to request {id} is {other:?}"),
    }
}

#[test]
fn a_pipelining_client_whose_writes_end_inside_a_message_is_never_cut_off() {
    under_every_strategy(pipelining_client_kept);
}

fn pipelining_client_kept(strategy: ServerStrategy) {
    let what = format!("{strategy}");
    let server = server(strategy);
    let mut client = RawGiopClient::connect(&server);
    // Requests back to back; every write ends inside the next request,
    // so the server always holds part of one.
    let one = locate(0).len();
    let mut stream = Vec::new();
    let mut next_id = 0u32;
    let mut answered = 0u32;
    let mut sent = 0usize;
    let start = Instant::now();
    // Twice the timeout, held mid-message throughout.
    while start.elapsed() < INCOMPLETE * 2 {
        // Up to the middle of the request after the next two.
        let end = (sent / one + 3) * one + one / 2;
        while stream.len() < end {
            stream.extend_from_slice(&locate(next_id));
            next_id += 1;
        }
        client.stream.write_all(&stream[sent..end]).unwrap();
        sent = end;
        // Each completed request is answered before the next write, so
        // the partial one is certainly held meanwhile.
        let complete = (sent / one) as u32;
        while answered < complete {
            replied(&mut client, answered, &what);
            answered += 1;
        }
    }
    // The rest of the partial request: answered, the connection open.
    let end = (sent / one + 1) * one;
    client.stream.write_all(&stream[sent..end]).unwrap();
    replied(&mut client, answered, &what);
    assert!(answered > 10, "{what}: only {answered} requests answered");
    server.shutdown();
}

#[test]
fn a_client_that_completes_no_message_within_the_timeout_is_closed() {
    under_every_strategy(stalled_client_closed);
}

fn stalled_client_closed(strategy: ServerStrategy) {
    let what = format!("{strategy}");
    let server = server(strategy);
    let mut client = RawGiopClient::connect(&server);
    // Three whole requests, then half of a fourth, and nothing more.
    let mut stream = Vec::new();
    for id in 0..4 {
        stream.extend_from_slice(&locate(id));
    }
    let end = stream.len() - locate(3).len() / 2;
    let start = Instant::now();
    client.stream.write_all(&stream[..end]).unwrap();
    for id in 0..3 {
        replied(&mut client, id, &what);
    }
    // Then the server closes it, silently: no message was started.
    assert!(
        client.next(&what).is_none(),
        "{what}: a message after the stall"
    );
    assert!(
        start.elapsed() >= INCOMPLETE,
        "{what}: closed before the timeout"
    );
    server.shutdown();
}
