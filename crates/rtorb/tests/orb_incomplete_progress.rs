//! The incomplete-message timeout measures a lack of progress, under every
//! server concurrency strategy: a pipelining client whose writes always
//! end inside the next message keeps its connection however long it goes
//! on (twice the timeout here), because its messages keep completing; one
//! that completes a few messages and then stalls inside the next is
//! closed.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb::orb::{Orb, ServerStrategy};
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::message::{Content, LocateRequest, Message};
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{FrameDecoder, FrameProtocol, decode_message, encode_message};
use rtorb_test_support::TIMEOUT;
use rtorb_test_support::cubit;
use rtorb_test_support::net::iiop_address;

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

/// A raw client and what it has received.
struct Client {
    stream: TcpStream,
    decoder: FrameDecoder,
}

impl Client {
    fn connect(server: &Orb) -> Client {
        let stream = TcpStream::connect(iiop_address(server)).unwrap();
        stream.set_read_timeout(Some(TIMEOUT)).unwrap();
        Client {
            stream,
            decoder: FrameDecoder::new(FrameProtocol::Giop),
        }
    }

    /// The next message from the server; `None` once it closes.
    fn next(&mut self, what: &str) -> Option<Message> {
        let mut buf = [0u8; 4096];
        loop {
            if let Some(frame) = self.decoder.next_frame().unwrap() {
                return Some(decode_message(frame).unwrap());
            }
            match self.stream.read(&mut buf) {
                Ok(0) => return None,
                Ok(n) => self.decoder.push(&buf[..n]).unwrap(),
                Err(e) if e.kind() == ErrorKind::ConnectionReset => return None,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => panic!("{what}: neither answered nor closed: {e}"),
            }
        }
    }

    /// Expects the `LocateReply` to request `id`.
    fn replied(&mut self, id: u32, what: &str) {
        match self.next(what).map(|m| m.content) {
            Some(Content::LocateReply(r)) => assert_eq!(r.request_id, id, "{what}"),
            other => panic!("{what}: the reply to request {id} is {other:?}"),
        }
    }
}

#[test]
fn a_pipelining_client_whose_writes_end_inside_a_message_is_never_cut_off() {
    under_every_strategy(pipelining_client_kept);
}

fn pipelining_client_kept(strategy: ServerStrategy) {
    let what = format!("{strategy}");
    let server = server(strategy);
    let mut client = Client::connect(&server);
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
            client.replied(answered, &what);
            answered += 1;
        }
    }
    // The rest of the partial request: answered, the connection open.
    let end = (sent / one + 1) * one;
    client.stream.write_all(&stream[sent..end]).unwrap();
    client.replied(answered, &what);
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
    let mut client = Client::connect(&server);
    // Three whole requests, then half of a fourth, and nothing more.
    let mut stream = Vec::new();
    for id in 0..4 {
        stream.extend_from_slice(&locate(id));
    }
    let end = stream.len() - locate(3).len() / 2;
    let start = Instant::now();
    client.stream.write_all(&stream[..end]).unwrap();
    for id in 0..3 {
        client.replied(id, &what);
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
