//! What every protocol over stream sockets shares, checked over IIOP and
//! UIOP alike: the protocol and peer each side names, a second handle to a
//! connection, blocking mode and timeouts shared by both handles, and
//! shutdown.

mod transport_common;

use std::io::ErrorKind;
use std::net::Shutdown;
use std::time::Duration;

use rtorb_giop::FrameProtocol;
use rtorb_test_support::TIMEOUT;
use rtorb_transport::{FrameReader, ProtocolRegistry, Transport};
use transport_common::*;

/// A connected pair, client and server, for `endpoint`.
fn connected_pair(endpoint: &str) -> (Box<dyn Transport>, Box<dyn Transport>) {
    let r = ProtocolRegistry::with_default_protocols();
    let acceptor = r.listen(endpoint).unwrap();
    let ep = acceptor.endpoint().clone_box();
    let rx = accept_one(acceptor);
    let mut client = r.connect(&*ep, Some(TIMEOUT)).unwrap();
    let (_acceptor, mut server) = accepted(&rx);
    limit(&mut *client);
    limit(&mut *server);
    (client, server)
}

/// The endpoints every check runs on, with their protocol names.
fn endpoints() -> [(&'static str, String); 3] {
    [
        ("iiop", "iiop://127.0.0.1:0".to_owned()),
        ("iiop", "iiop://127.0.0.1:0/?giop=lite".to_owned()),
        ("uiop", format!("uiop://{}", temp_socket_path("stream"))),
    ]
}

#[test]
fn both_sides_name_their_protocol_messaging_and_peer() {
    bounded(|| {
        for (protocol, endpoint) in endpoints() {
            let (client, server) = connected_pair(&endpoint);
            let messaging = if endpoint.ends_with("giop=lite") {
                FrameProtocol::Lite
            } else {
                FrameProtocol::Giop
            };
            for side in [&client, &server] {
                assert_eq!(side.protocol(), protocol, "{endpoint}");
                assert_eq!(side.messaging(), messaging, "{endpoint}");
                assert!(
                    side.peer().starts_with(&format!("{protocol}://")),
                    "{endpoint}: {}",
                    side.peer()
                );
            }
            if protocol == "uiop" {
                let path = endpoint.trim_start_matches("uiop://");
                assert_eq!(client.peer(), format!("uiop://{path}"));
                assert_eq!(server.peer(), format!("uiop://{path} (client)"));
            }
        }
    });
}

#[test]
fn a_second_handle_reads_while_the_first_writes() {
    bounded(|| {
        for (_, endpoint) in endpoints() {
            let (mut client, mut server) = connected_pair(&endpoint);
            let mut reading = server.try_clone_box().unwrap();
            assert_ne!(reading.as_raw_fd(), server.as_raw_fd());
            assert_eq!(reading.peer(), server.peer());

            let message = |id, len| match server.messaging() {
                FrameProtocol::Lite => lite(id, len),
                FrameProtocol::Giop => request(id, len, rtorb_cdr::ByteOrder::Big),
            };
            let m = message(1, 100);
            client.write_all_vectored(std::slice::from_ref(&m)).unwrap();
            let mut at_server = FrameReader::new(reading.messaging());
            assert_eq!(read_one(&mut at_server, &mut *reading), m, "{endpoint}");

            let back = message(2, 10);
            server.send_all(&back).unwrap();
            let mut at_client = FrameReader::new(client.messaging());
            assert_eq!(read_one(&mut at_client, &mut *client), back, "{endpoint}");

            // The client's end of writing is seen through either handle;
            // closing one handle leaves the connection to the other.
            client.shutdown(Shutdown::Write).unwrap();
            drop(server);
            assert!(
                at_server.read_frame(&mut *reading).unwrap().is_none(),
                "{endpoint}"
            );
        }
    });
}

#[test]
fn blocking_mode_and_timeouts_are_the_sockets() {
    bounded(|| {
        for (_, endpoint) in endpoints() {
            let (_client, mut server) = connected_pair(&endpoint);
            let mut second = server.try_clone_box().unwrap();
            let mut buf = [0u8; 16];

            // Nonblocking through one handle is nonblocking through both.
            server.set_nonblocking(true).unwrap();
            let err = second.read(&mut buf).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::WouldBlock, "{endpoint}");
            server.set_nonblocking(false).unwrap();

            // A read timeout ends a blocking read with nothing arrived.
            second
                .set_read_timeout(Some(Duration::from_millis(20)))
                .unwrap();
            let err = server.read(&mut buf).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut),
                "{endpoint}: {err}"
            );

            // A zero timeout is refused rather than taken as "for ever".
            let err = server.set_read_timeout(Some(Duration::ZERO)).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidInput, "{endpoint}");
            let err = server.set_write_timeout(Some(Duration::ZERO)).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidInput, "{endpoint}");
        }
    });
}
