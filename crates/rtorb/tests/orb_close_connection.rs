//! The messages a server sends on its own, `CloseConnection` on shutdown
//! and `MessageError` on malformed input, go out in the GIOP version of
//! the connection (the version of the last message the client sent, 1.0
//! before any), or in GIOPlite on a GIOPlite connection, with every
//! server strategy.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;

use bytes::Bytes;
use rtorb::exception::{SystemException, bad_operation};
use rtorb::orb::{Orb, ServerStrategy};
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::message::{Content, LocateRequest, Message};
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{decode_lite, decode_message, encode_lite, encode_message};
use rtorb_test_support::TIMEOUT;
use rtorb_test_support::wait::eventually;

/// A servant that is only ever located.
struct Nothing;

impl Skeleton for Nothing {
    fn repository_ids(&self) -> &'static [&'static str] {
        &["IDL:Nothing:1.0"]
    }

    fn dispatch(&self, _req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        Err(bad_operation())
    }
}

fn server(strategy: ServerStrategy, endpoint: &str) -> Orb {
    let orb = Orb::builder()
        .listen(endpoint)
        .server_strategy(strategy)
        .build()
        .unwrap();
    orb.activate_with_key(&b"Nothing"[..], Arc::new(Nothing))
        .unwrap();
    orb
}

fn connect(orb: &Orb) -> TcpStream {
    let stream = TcpStream::connect(rtorb_test_support::net::iiop_address(orb)).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    stream
}

fn locate(version: Version) -> Message {
    Message::new(
        version,
        ByteOrder::Big,
        Content::LocateRequest(LocateRequest {
            request_id: 7,
            target: TargetAddress::Key(Bytes::from_static(b"Nothing")),
        }),
    )
}

/// Reads one GIOP message off `stream`.
fn read_giop(stream: &mut TcpStream) -> Bytes {
    let mut header = [0u8; 12];
    stream.read_exact(&mut header).unwrap();
    let size = [header[8], header[9], header[10], header[11]];
    let size = if header[6] & 1 == 1 {
        u32::from_le_bytes(size)
    } else {
        u32::from_be_bytes(size)
    };
    let mut whole = header.to_vec();
    whole.resize(12 + size as usize, 0);
    stream.read_exact(&mut whole[12..]).unwrap();
    whole.into()
}

/// Everything the server sends until it closes, as one message.
fn last_message(stream: &mut TcpStream) -> Bytes {
    let mut all = Vec::new();
    stream.read_to_end(&mut all).unwrap();
    all.into()
}

#[test]
fn close_connection_is_in_the_giop_version_of_the_connection() {
    for strategy in ServerStrategy::ALL {
        let orb = server(strategy, "iiop://127.0.0.1:0");
        let mut streams = Vec::new();
        for version in [Version::V1_0, Version::V1_1, Version::V1_2] {
            let mut s = connect(&orb);
            s.write_all(&encode_message(&locate(version)).unwrap())
                .unwrap();
            let reply = decode_message(read_giop(&mut s)).unwrap();
            assert!(matches!(reply.content, Content::LocateReply(_)));
            assert_eq!(reply.version, version, "{strategy}");
            streams.push((Some(version), s));
        }
        // A connection that has sent nothing is closed in GIOP 1.0.
        streams.push((None, connect(&orb)));
        assert!(
            eventually(TIMEOUT, || orb.stats().server_connections >= streams.len()),
            "{strategy}: every connection accepted"
        );
        orb.shutdown();
        for (version, mut s) in streams {
            let raw = last_message(&mut s);
            let msg = decode_message(raw.clone()).unwrap();
            assert_eq!(msg.content, Content::CloseConnection, "{strategy}");
            let want = version.unwrap_or(Version::V1_0);
            assert_eq!(msg.version, want, "{strategy}");
            assert_eq!(&raw[4..6], &[want.major, want.minor], "{strategy}");
        }
    }
}

#[test]
fn message_error_is_in_the_giop_version_of_the_connection() {
    for strategy in ServerStrategy::ALL {
        let orb = server(strategy, "iiop://127.0.0.1:0");
        for version in [Version::V1_0, Version::V1_1, Version::V1_2] {
            let mut s = connect(&orb);
            // A reply is not something a server receives.
            let mut wrong = encode_message(&locate(version)).unwrap().to_vec();
            wrong[7] = 1;
            s.write_all(&wrong).unwrap();
            let raw = last_message(&mut s);
            let msg = decode_message(raw).unwrap();
            assert_eq!(msg.content, Content::MessageError, "{strategy}");
            assert_eq!(msg.version, version, "{strategy}");
        }
        orb.shutdown();
    }
}

#[test]
fn close_connection_on_a_giop_lite_connection_is_giop_lite() {
    for strategy in ServerStrategy::ALL {
        let orb = server(strategy, "iiop://127.0.0.1:0?giop=lite");
        let mut s = connect(&orb);
        s.write_all(&encode_lite(&locate(Version::V1_2)).unwrap())
            .unwrap();
        // A GIOPlite header is 8 octets: flags (bit 0 the byte order),
        // the message type, two octets, and the size.
        let mut header = [0u8; 8];
        s.read_exact(&mut header).unwrap();
        let size = [header[4], header[5], header[6], header[7]];
        let size = if header[0] & 1 == 1 {
            u32::from_le_bytes(size)
        } else {
            u32::from_be_bytes(size)
        };
        let mut body = vec![0u8; size as usize];
        s.read_exact(&mut body).unwrap();
        assert!(
            eventually(TIMEOUT, || orb.stats().server_connections >= 1),
            "{strategy}: the connection accepted"
        );
        orb.shutdown();
        let msg = decode_lite(last_message(&mut s)).unwrap();
        assert_eq!(msg.content, Content::CloseConnection, "{strategy}");
    }
}
