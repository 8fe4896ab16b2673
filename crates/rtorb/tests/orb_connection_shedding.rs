//! At the connection cap the server sheds instead of refusing, under every
//! server concurrency strategy: with the cap held by idle connections (that
//! never sent a byte) or by half GIOP headers, a new well-behaved client is
//! served, and one held connection is closed to make room: an idle one
//! with `CloseConnection`, a half-header one without a message.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;

use rtorb::orb::{Orb, ServerStrategy};
use rtorb_giop::message::{Content, Message};
use rtorb_giop::{FrameDecoder, FrameProtocol, decode_message};
use rtorb_test_support::cubit::{self, Cubit};
use rtorb_test_support::net::iiop_address;
use rtorb_test_support::wait::eventually;
use rtorb_test_support::{TIMEOUT, client, server};

/// The server's connection cap in these tests.
const CAP: usize = 8;

/// A new client ORB (a new connection) makes three calls: all succeed.
fn served(ior: &str, what: &str) -> Orb {
    let client = client::orb();
    let cubit: Cubit = client.string_to_object(ior).unwrap().unchecked_narrow();
    for l in [2, -3, 5] {
        assert_eq!(cubit.cube_long(l), Ok(l * l * l), "{what}: a new client");
    }
    client
}

/// What a held connection saw: the messages it received, and whether the
/// server closed it; `None` while it is open and silent.
fn closed(raw: &mut TcpStream) -> Option<Vec<Message>> {
    raw.set_nonblocking(true).unwrap();
    let mut decoder = FrameDecoder::new(FrameProtocol::Giop);
    let mut buf = [0u8; 1024];
    let mut got = Vec::new();
    let outcome = loop {
        match raw.read(&mut buf) {
            Ok(0) => break Some(()),
            Ok(n) => decoder.push(&buf[..n]).unwrap(),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break Some(()),
            Err(e) if e.kind() == ErrorKind::WouldBlock => break None,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => panic!("read: {e}"),
        }
    };
    while let Some(frame) = decoder.next_frame().unwrap() {
        got.push(decode_message(frame).unwrap());
    }
    assert!(
        outcome.is_some() || got.is_empty(),
        "a message on a connection left open: {got:?}"
    );
    outcome.map(|()| got)
}

/// Holds the cap with `CAP` raw connections, each sent `first`; then a
/// new client is served, and exactly one raw connection is closed; returns
/// what it received.
fn shed_one(strategy: ServerStrategy, first: &[u8]) -> Vec<Message> {
    let what = format!("{strategy}");
    let server = server::capped(strategy, CAP);
    let ior = cubit::serve(&server);
    let address = iiop_address(&server);
    let mut raws: Vec<TcpStream> = (0..CAP)
        .map(|_| {
            let mut r = TcpStream::connect(&address).unwrap();
            r.write_all(first).unwrap();
            r
        })
        .collect();
    assert!(
        eventually(TIMEOUT, || server.stats().server_connections == CAP),
        "{what}: {} connections, not {CAP}",
        server.stats().server_connections
    );
    let client = served(&ior, &what);
    let mut shed = Vec::new();
    assert!(
        eventually(TIMEOUT, || {
            for (i, r) in raws.iter_mut().enumerate() {
                if !shed.iter().any(|(j, _)| *j == i)
                    && let Some(got) = closed(r)
                {
                    shed.push((i, got));
                }
            }
            !shed.is_empty()
        }),
        "{what}: no held connection was closed"
    );
    assert!(server.stats().server_connections <= CAP, "{what}");
    // Only one made room; the others are still open.
    for (i, r) in raws.iter_mut().enumerate() {
        if shed.iter().all(|(j, _)| *j != i) {
            assert!(closed(r).is_none(), "{what}: connection {i} closed too");
        }
    }
    assert_eq!(shed.len(), 1, "{what}: {shed:?}");
    client.shutdown();
    server.shutdown();
    shed.remove(0).1
}

#[test]
fn idle_connections_at_the_cap_are_shed_with_close_connection() {
    for strategy in ServerStrategy::ALL {
        let got = shed_one(strategy, &[]);
        let contents: Vec<&Content> = got.iter().map(|m| &m.content).collect();
        assert_eq!(contents, [&Content::CloseConnection], "{strategy}");
    }
}

#[test]
fn half_header_connections_at_the_cap_are_shed() {
    // Half a GIOP 1.2 header: the server cannot know what it will be.
    for strategy in ServerStrategy::ALL {
        let got = shed_one(strategy, b"GIOP\x01\x02");
        // Closed; at most with CloseConnection, if the server had not yet
        // read the half header when it chose it.
        assert!(
            got.iter().all(|m| m.content == Content::CloseConnection),
            "{strategy}: {got:?}"
        );
    }
}
