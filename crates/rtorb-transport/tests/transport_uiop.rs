//! UIOP over Unix-domain stream sockets.

mod transport_common;

use std::io::ErrorKind;
use std::os::unix::fs::FileTypeExt;
use std::os::unix::net::UnixListener;
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rtorb_test_support::TIMEOUT;
use rtorb_transport::uiop::UiopEndpoint;
use rtorb_transport::{FrameReader, ProtocolRegistry, TransportError, UiopAcceptor};
use transport_common::*;

fn registry() -> ProtocolRegistry {
    ProtocolRegistry::with_default_protocols()
}

fn is_socket(path: &str) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_socket())
}

#[test]
fn giop_over_unix_socket() {
    let path = temp_socket_path("giop");
    let listen = format!("uiop://{path}");
    let published = bounded(move || exercise(&listen));
    assert_eq!(published, format!("uiop://{path}"));
    assert!(
        !Path::new(&path).exists(),
        "the acceptor's drop removes its socket"
    );
}

#[test]
fn giop_lite_over_unix_socket() {
    let path = temp_socket_path("lite");
    let listen = format!("uiop://{path}?giop=lite");
    let published = bounded(move || exercise(&listen));
    assert!(published.ends_with("?giop=lite"));
}

#[test]
fn stale_socket_is_replaced() {
    bounded(|| {
        let path = temp_socket_path("stale");
        // A server that died without removing its socket file.
        drop(UnixListener::bind(&path).unwrap());
        assert!(is_socket(&path));
        let r = registry();
        let acceptor = r.listen(&format!("uiop://{path}")).unwrap();
        // The new socket answers.
        let ep = acceptor.endpoint().clone_box();
        let rx = accept_one(acceptor);
        let mut client = r.connect(&*ep, Some(TIMEOUT)).unwrap();
        let (acceptor, mut server) = accepted(&rx);
        limit(&mut *server);
        let m = request(5, 8, rtorb_cdr::ByteOrder::Big);
        client.write_all_vectored(std::slice::from_ref(&m)).unwrap();
        assert_eq!(
            read_one(&mut FrameReader::new(server.messaging()), &mut *server),
            m
        );
        assert!(client.peer().contains(&path));
        drop(acceptor);
        assert!(!Path::new(&path).exists());
    });
}

#[test]
fn live_socket_and_other_files_are_left_alone() {
    bounded(|| {
        let r = registry();
        // A live server keeps its path.
        let path = temp_socket_path("live");
        let first = r.listen(&format!("uiop://{path}")).unwrap();
        match r.listen(&format!("uiop://{path}")) {
            Err(TransportError::SocketInUse { path: p }) => assert_eq!(p, path),
            other => panic!("expected the socket in use, got {other:?}"),
        }
        assert!(is_socket(&path));
        drop(first);
        assert!(!Path::new(&path).exists());

        // A regular file is not removed.
        let path = temp_socket_path("file");
        std::fs::write(&path, b"precious").unwrap();
        match r.listen(&format!("uiop://{path}")) {
            Err(TransportError::NotASocket { path: p }) => assert_eq!(p, path),
            other => panic!("expected not a socket, got {other:?}"),
        }
        assert_eq!(std::fs::read(&path).unwrap(), b"precious");
        std::fs::remove_file(&path).unwrap();

        // A file that replaced the acceptor's socket survives its drop.
        let path = temp_socket_path("replaced");
        let acceptor = UiopAcceptor::open(&UiopEndpoint::new(path.clone()).unwrap()).unwrap();
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, b"someone else's").unwrap();
        drop(acceptor);
        assert_eq!(std::fs::read(&path).unwrap(), b"someone else's");
        std::fs::remove_file(&path).unwrap();

        // A directory that does not exist.
        let missing = format!("{}/no/such/dir/x.sock", std::env::temp_dir().display());
        assert!(matches!(
            r.listen(&format!("uiop://{missing}")),
            Err(TransportError::Listen { .. })
        ));
    });
}

#[test]
fn connect_to_missing_socket_fails() {
    let path = temp_socket_path("missing");
    let ep = UiopEndpoint::new(path).unwrap();
    for timeout in [None, Some(Duration::from_millis(200))] {
        match registry().connect(&ep, timeout) {
            Err(TransportError::Connect { source, .. }) => {
                assert_eq!(source.kind(), ErrorKind::NotFound)
            }
            other => panic!("expected a failed connect, got {other:?}"),
        }
    }
}

#[test]
fn connect_times_out_when_the_backlog_is_full() {
    bounded(|| {
        let path = temp_socket_path("full");
        let socket =
            socket2::Socket::new(socket2::Domain::UNIX, socket2::Type::STREAM, None).unwrap();
        socket
            .bind(&socket2::SockAddr::unix(&path).unwrap())
            .unwrap();
        socket.listen(0).unwrap();
        let ep = UiopEndpoint::new(path.clone()).unwrap();
        let timeout = Duration::from_millis(200);
        // Connects until the backlog is full: one then gives up.
        let mut held = Vec::new();
        let full = (0..8).any(|_| match registry().connect(&ep, Some(timeout)) {
            Ok(t) => {
                held.push(t);
                false
            }
            Err(TransportError::ConnectTimeout { .. }) => true,
            Err(e) => panic!("expected a timeout, got {e}"),
        });
        assert!(full, "no connect timed out ({} connected)", held.len());
        // A connect without a timeout waits until there is room; one with a
        // timeout, begun after it, gives up at its own while the other
        // still waits.
        let (done, untimed) = mpsc::channel();
        let untimed_ep = ep.clone();
        std::thread::spawn(move || {
            let _ = done.send(registry().connect(&untimed_ep, None).map(|_| ()));
        });
        let start = Instant::now();
        match registry().connect(&ep, Some(timeout)) {
            Err(e @ TransportError::ConnectTimeout { timeout: t, .. }) => {
                assert!(e.is_timeout());
                assert_eq!(t, timeout);
            }
            other => panic!("expected a timeout, got {other:?}"),
        }
        let waited = start.elapsed();
        assert!(waited >= timeout, "gave up after {waited:?}");
        assert!(
            matches!(untimed.try_recv(), Err(mpsc::TryRecvError::Empty)),
            "the timed connect waited as long as one without a timeout"
        );
        // The listener gone, the waiting connect ends: refused.
        drop(socket);
        std::fs::remove_file(&path).unwrap();
        match untimed.recv_timeout(TIMEOUT) {
            Ok(Err(TransportError::Connect { .. })) => {}
            other => panic!("expected a refused connect, got {other:?}"),
        }
    });
}

#[test]
fn profile_of_an_acceptor_leads_back_to_it() {
    bounded(|| {
        let r = registry();
        let path = temp_socket_path("profile");
        let acceptor = r.listen(&format!("uiop://1.1@{path}")).unwrap();
        let profile = r
            .make_profile(acceptor.endpoint(), bytes::Bytes::from_static(b"obj"), &[])
            .unwrap();
        let rtorb_giop::ior::Profile::Uiop(p) = &profile else {
            panic!("not a UIOP profile")
        };
        assert_eq!(p.path, path);
        assert_eq!(p.version, rtorb_cdr::Version::V1_1);
        let ep = r.endpoint_from_profile(&profile).unwrap();
        let rx = accept_one(acceptor);
        let mut client = r.connect(&*ep, None).unwrap();
        let (_a, mut server) = accepted(&rx);
        limit(&mut *server);
        let chain = chunked(3, 3, 4096);
        client.write_all_vectored(&chain).unwrap();
        let mut fr = FrameReader::new(server.messaging());
        assert_eq!(read_one(&mut fr, &mut *server), concat(&chain));
    });
}

#[test]
fn acceptor_and_connection_are_polled_through_their_descriptors() {
    let path = temp_socket_path("poll");
    let listen = format!("uiop://{path}");
    bounded(move || transport_common::readiness_through_a_poller(&listen));
}
