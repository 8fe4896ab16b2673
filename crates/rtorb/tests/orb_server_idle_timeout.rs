//! The server's idle timeout, under every server concurrency strategy: a
//! connection that stays idle for it is closed with `CloseConnection`; one
//! whose calls keep coming is not, however long it lasts.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb::orb::ServerStrategy;
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::message::{Content, LocateRequest, Message};
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{FrameDecoder, FrameProtocol, decode_message, encode_message};
use rtorb_test_support::cubit::{self, Cubit};
use rtorb_test_support::net::iiop_address;
use rtorb_test_support::{TIMEOUT, client, server};

/// The server's idle timeout: small, so the test is fast.
const IDLE: Duration = Duration::from_millis(200);

/// Every message until the server closes the connection.
fn until_closed(stream: &mut TcpStream, what: &str) -> Vec<Message> {
    let mut decoder = FrameDecoder::new(FrameProtocol::Giop);
    let mut buf = [0u8; 4096];
    let mut got = Vec::new();
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => decoder.push(&buf[..n]).unwrap(),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => panic!("{what}: the idle connection was kept: {e}"),
        }
    }
    while let Some(frame) = decoder.next_frame().unwrap() {
        got.push(decode_message(frame).unwrap());
    }
    got
}

#[test]
fn idle_connections_are_closed_with_close_connection_and_busy_ones_kept() {
    for strategy in ServerStrategy::ALL {
        let what = format!("{strategy}");
        let server = server::builder()
            .server_strategy(strategy)
            .server_threads(2)
            .server_idle_timeout(IDLE)
            .build()
            .unwrap();
        let ior = cubit::serve(&server);

        // A client whose calls keep coming, for many times the timeout.
        let client = client::orb();
        let cubit: Cubit = client.string_to_object(&ior).unwrap().unchecked_narrow();
        let start = Instant::now();
        while start.elapsed() < IDLE * 4 {
            assert_eq!(cubit.cube_long(3), Ok(27), "{what}");
        }
        assert_eq!(
            server.stats().server_connections,
            1,
            "{what}: the busy client's connection was replaced"
        );

        // A raw client that makes one request and then stays idle.
        let mut raw = TcpStream::connect(iiop_address(&server)).unwrap();
        raw.set_read_timeout(Some(TIMEOUT)).unwrap();
        let locate = encode_message(&Message::new(
            Version::V1_1,
            ByteOrder::Little,
            Content::LocateRequest(LocateRequest {
                request_id: 9,
                target: TargetAddress::Key(Bytes::from_static(b"Cubit")),
            }),
        ))
        .unwrap();
        let idle_from = Instant::now();
        raw.write_all(&locate).unwrap();
        let got = until_closed(&mut raw, &what);
        assert!(idle_from.elapsed() >= IDLE, "{what}: closed early");
        assert_eq!(got.len(), 2, "{what}: {got:?}");
        assert!(matches!(got[0].content, Content::LocateReply(_)), "{what}");
        assert_eq!(got[1].content, Content::CloseConnection, "{what}");
        // In the GIOP version the client spoke.
        assert_eq!(got[1].version, Version::V1_1, "{what}");
        client.shutdown();
        server.shutdown();
    }
}
