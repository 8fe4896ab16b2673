//! IIOP over TCP on the loopback interface.

mod transport_common;

use std::io::ErrorKind;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rtorb_giop::corbaloc::Host;
use rtorb_test_support::TIMEOUT;
use rtorb_transport::iiop::{IiopEndpoint, local_host_name};
use rtorb_transport::{
    FrameReader, IiopAcceptor, IiopConnector, OutChain, ProtocolRegistry, Transport, TransportError,
};
use transport_common::*;

fn registry() -> ProtocolRegistry {
    ProtocolRegistry::with_default_protocols()
}

#[test]
fn giop_over_ipv4_loopback() {
    let published = bounded(|| exercise("iiop://127.0.0.1:0"));
    let ep = IiopEndpoint::parse(&published).unwrap();
    assert_eq!(ep.host, Host::Ipv4(Ipv4Addr::LOCALHOST));
    assert_ne!(ep.port, 0, "the acceptor reports the port it got");
}

#[test]
fn giop_lite_over_ipv4_loopback() {
    let published = bounded(|| exercise("iiop://127.0.0.1:0/?giop=lite"));
    assert!(published.ends_with("?giop=lite"), "{published}");
}

/// Needs the IPv6 loopback address: a machine without `[::1]` fails this
/// test, saying so, rather than passing it untested.
#[test]
fn giop_over_ipv6_loopback() {
    if let Err(e) = TcpListener::bind("[::1]:0") {
        panic!(
            "IIOP over IPv6 cannot be tested: the IPv6 loopback address [::1] cannot be bound \
             on this machine ({e}); enable IPv6 on the loopback interface \
             (sysctl net.ipv6.conf.lo.disable_ipv6=0)"
        );
    }
    let published = bounded(|| exercise("iiop://1.1@[::1]:0"));
    assert!(published.starts_with("iiop://1.1@[::1]:"), "{published}");
}

#[test]
fn partial_writes_are_continued() {
    bounded(|| {
        let acceptor =
            IiopAcceptor::open(&IiopEndpoint::parse("iiop://127.0.0.1:0").unwrap()).unwrap();
        let ep = acceptor.published_endpoint().clone();
        let rx = accept_one(Box::new(acceptor));
        let client = IiopConnector::new().connect_to(&ep, Some(TIMEOUT)).unwrap();
        let (_a, mut server) = accepted(&rx);
        limit(&mut *server);
        // Every gathered write takes at most 1000 octets, whatever it is
        // offered: the message must still arrive whole.
        let mut trickle = Trickle {
            inner: client,
            max: 1000,
            writes: 0,
        };
        let chain = chunked(4, 4, 5000);
        let total: usize = chain.iter().map(|c| c.len()).sum();
        trickle.write_all_vectored(&chain).unwrap();
        assert_eq!(trickle.writes, total.div_ceil(1000));
        let mut r = FrameReader::new(server.messaging());
        assert_eq!(read_one(&mut r, &mut *server), concat(&chain));

        // Empty buffers anywhere in the chain are skipped.
        let mut gappy = vec![bytes::Bytes::new()];
        for c in &chain {
            gappy.push(c.clone());
            gappy.push(bytes::Bytes::new());
        }
        trickle.write_all_vectored(&gappy).unwrap();
        assert_eq!(read_one(&mut r, &mut *server), concat(&chain));
        trickle.write_all_vectored(&[]).unwrap();

        // The same through an OutChain.
        let mut out = OutChain::new();
        out.extend(chain.iter().cloned());
        assert_eq!(out.len(), total);
        trickle.writes = 0;
        out.write_all_to(&mut trickle).unwrap();
        assert!(out.is_empty());
        assert_eq!(trickle.writes, total.div_ceil(1000));
        assert_eq!(read_one(&mut r, &mut *server), concat(&chain));
    });
}

#[test]
fn nonblocking_writes_resume_where_they_stopped() {
    bounded(|| {
        let r = registry();
        let acceptor = r.listen("iiop://127.0.0.1:0").unwrap();
        let ep = acceptor.endpoint().clone_box();
        let rx = accept_one(acceptor);
        let mut client = r.connect(&*ep, Some(TIMEOUT)).unwrap();
        let (_a, mut server) = accepted(&rx);
        limit(&mut *server);
        client.set_nonblocking(true).unwrap();
        let chain = chunked(5, 4, 2 * 1024 * 1024);
        let expected = concat(&chain);
        let mut out = OutChain::new();
        out.extend(chain);
        // Write until the socket buffers are full.
        let mut blocked = false;
        while !out.is_empty() {
            match out.write_to(&mut *client) {
                Ok(_) => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    blocked = true;
                    break;
                }
                Err(e) => panic!("write failed: {e}"),
            }
        }
        assert!(blocked, "8 MB should not fit in the socket buffers");
        let left = out.len();
        assert!(left > 0 && left < expected.len());
        // Drain on another thread, and finish the chain as the socket
        // becomes writable again.
        let reader = std::thread::spawn(move || {
            let mut fr = FrameReader::new(server.messaging());
            read_one(&mut fr, &mut *server)
        });
        let mut poll = mio::Poll::new().unwrap();
        let mut events = mio::Events::with_capacity(1);
        let fd = client.as_raw_fd();
        poll.registry()
            .register(
                &mut mio::unix::SourceFd(&fd),
                mio::Token(0),
                mio::Interest::WRITABLE,
            )
            .unwrap();
        while !out.is_empty() {
            match out.write_to(&mut *client) {
                Ok(_) => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    // Until the socket has room again.
                    poll.poll(&mut events, Some(TIMEOUT)).unwrap();
                    assert!(!events.is_empty(), "the writes never finished");
                }
                Err(e) => panic!("write failed: {e}"),
            }
        }
        let got = reader.join().unwrap();
        assert!(got == expected, "the message arrived changed");
    });
}

#[test]
fn reads_report_truncation_and_clean_close() {
    bounded(|| {
        let r = registry();
        let acceptor = r.listen("iiop://127.0.0.1:0").unwrap();
        let ep = acceptor.endpoint().clone_box();
        let rx = accept_one(acceptor);
        let mut client = r.connect(&*ep, Some(TIMEOUT)).unwrap();
        let (_a, mut server) = accepted(&rx);
        limit(&mut *server);
        let m = request(1, 40, rtorb_cdr::ByteOrder::Big);
        client.write_all_vectored(&[m.slice(..30)]).unwrap();
        drop(client);
        let mut fr = FrameReader::new(server.messaging());
        match fr.read_frame(&mut *server) {
            Err(TransportError::TruncatedMessage { buffered: 30 }) => {}
            other => panic!("expected a truncated message, got {other:?}"),
        }
    });
}

#[test]
fn garbage_is_a_giop_error() {
    bounded(|| {
        let r = registry();
        let acceptor = r.listen("iiop://127.0.0.1:0").unwrap();
        let ep = acceptor.endpoint().clone_box();
        let rx = accept_one(acceptor);
        let mut client = r.connect(&*ep, Some(TIMEOUT)).unwrap();
        let (_a, mut server) = accepted(&rx);
        limit(&mut *server);
        client
            .write_all_vectored(&[bytes::Bytes::from_static(b"HTTP/1.1 200 OK\r\n\r\n")])
            .unwrap();
        let mut fr = FrameReader::new(server.messaging());
        assert!(matches!(
            fr.read_frame(&mut *server),
            Err(TransportError::Giop(_))
        ));
    });
}

#[test]
fn connect_to_closed_port_is_refused() {
    bounded(|| {
        let port = {
            let l = TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        let ep = IiopEndpoint::parse(&format!("iiop://127.0.0.1:{port}")).unwrap();
        match registry().connect(&ep, Some(TIMEOUT)) {
            Err(TransportError::Connect { source, .. }) => {
                assert_eq!(source.kind(), ErrorKind::ConnectionRefused)
            }
            other => panic!("expected a refused connection, got {other:?}"),
        }
    });
}

#[test]
fn connect_times_out_when_the_peer_does_not_answer() {
    bounded(|| {
        // A listener with a backlog of 0 that never accepts: once its
        // queue is full the kernel drops further SYNs, so a connect waits.
        let socket =
            socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
        socket
            .bind(&SocketAddr::from((Ipv4Addr::LOCALHOST, 0)).into())
            .unwrap();
        socket.listen(0).unwrap();
        let port = socket.local_addr().unwrap().as_socket().unwrap().port();
        let ep = IiopEndpoint::parse(&format!("iiop://127.0.0.1:{port}")).unwrap();
        let timeout = Duration::from_millis(300);
        // Connects until the queue is full: one then gives up.
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
        // A connect without a timeout waits for the kernel's retries
        // (minutes); one with a timeout, begun after it, gives up at its
        // own while the other still waits.
        let untimed = waiting_connect(ep.clone());
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
    });
}

/// Connects to `ep` without a timeout on a thread of its own; the
/// outcome arrives once it ends.
fn waiting_connect(ep: IiopEndpoint) -> mpsc::Receiver<Result<(), TransportError>> {
    let (done, outcome) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(registry().connect(&ep, None).map(|_| ()));
    });
    outcome
}

#[test]
fn unconnectable_endpoints_are_refused() {
    for s in ["iiop://127.0.0.1:0", "iiop://127.0.0.1:9000-9010"] {
        let ep = IiopEndpoint::parse(s).unwrap();
        assert!(matches!(
            registry().connect(&ep, None),
            Err(TransportError::NotConnectable { .. })
        ));
    }
    let ep = IiopEndpoint::parse("iiop://no-such-host.invalid:1").unwrap();
    assert!(matches!(
        registry().connect(&ep, Some(TIMEOUT)),
        Err(TransportError::Resolve { .. })
    ));
}

#[test]
fn port_range_takes_the_next_free_port() {
    bounded(|| {
        // Find a port P with P+1 free; hold P, listen on P..P+1 and get
        // P+1; then with both held the range has no free port.
        for _ in 0..50 {
            let first = TcpListener::bind("127.0.0.1:0").unwrap();
            let p = first.local_addr().unwrap().port();
            if p == u16::MAX {
                continue;
            }
            let s = format!("iiop://127.0.0.1:{p}-{}", p + 1);
            let acceptor = match registry().listen(&s) {
                Ok(a) => a,
                Err(TransportError::NoFreePort { .. }) => continue, // P+1 taken by someone
                Err(e) => panic!("{e}"),
            };
            let got = IiopEndpoint::parse(&acceptor.endpoint().to_string()).unwrap();
            assert_eq!(got.port, p + 1);
            match registry().listen(&s) {
                Err(TransportError::NoFreePort { endpoint }) => assert!(endpoint.contains(&s[7..])),
                other => panic!("expected no free port, got {other:?}"),
            }
            // A single port in use is a listen error, not a range search.
            match registry().listen(&format!("iiop://127.0.0.1:{p}")) {
                Err(TransportError::Listen { source, .. }) => {
                    assert_eq!(source.kind(), ErrorKind::AddrInUse)
                }
                other => panic!("expected address in use, got {other:?}"),
            }
            return;
        }
        panic!("no pair of free ports found");
    });
}

#[test]
fn published_host() {
    bounded(|| {
        let r = registry();
        // Unspecified address: the machine's host name.
        let a = r.listen("iiop://0.0.0.0:0").unwrap();
        let ep = a.endpoint().downcast_ref::<IiopEndpoint>().unwrap().clone();
        assert_eq!(ep.host, Host::Name(local_host_name()));
        assert_ne!(ep.port, 0);
        // The configured host wins.
        let a = r
            .listen("iiop://127.0.0.1:0/?hostname_in_ior=orb.example.org")
            .unwrap();
        let ep = a.endpoint().downcast_ref::<IiopEndpoint>().unwrap();
        assert_eq!(ep.host, Host::Name("orb.example.org".into()));
        let profile = r
            .make_profile(a.endpoint(), bytes::Bytes::from_static(b"k"), &[])
            .unwrap();
        let rtorb_giop::ior::Profile::Iiop(p) = profile else {
            panic!()
        };
        assert_eq!(p.host, "orb.example.org");
        assert_eq!(p.port, ep.port);
    });
}

#[test]
fn profile_of_an_acceptor_leads_back_to_it() {
    bounded(|| {
        let r = registry();
        let acceptor = r.listen("iiop://127.0.0.1:0").unwrap();
        let profile = r
            .make_profile(acceptor.endpoint(), bytes::Bytes::from_static(b"obj"), &[])
            .unwrap();
        let ep = r.endpoint_from_profile(&profile).unwrap();
        let rx = accept_one(acceptor);
        let mut client = r.connect(&*ep, Some(TIMEOUT)).unwrap();
        let (_a, mut server) = accepted(&rx);
        limit(&mut *server);
        let m = request(77, 3, rtorb_cdr::ByteOrder::Little);
        client.write_all_vectored(std::slice::from_ref(&m)).unwrap();
        let mut fr = FrameReader::new(server.messaging());
        assert_eq!(read_one(&mut fr, &mut *server), m);
        assert!(client.peer().starts_with("iiop://127.0.0.1:"));
        assert!(client.as_raw_fd_ok());
    });
}

#[test]
fn nonblocking_accept_would_block() {
    let r = registry();
    let acceptor = r.listen("iiop://127.0.0.1:0").unwrap();
    acceptor.set_nonblocking(true).unwrap();
    match acceptor.accept() {
        Err(e) => assert!(e.is_would_block(), "{e}"),
        Ok(t) => panic!("accepted {t:?} with nobody connecting"),
    }
}

/// A file descriptor check usable on `dyn Transport`.
trait FdOk {
    fn as_raw_fd_ok(&self) -> bool;
}

impl FdOk for Box<dyn Transport> {
    fn as_raw_fd_ok(&self) -> bool {
        self.as_raw_fd() >= 0
    }
}

#[test]
fn acceptor_and_connection_are_polled_through_their_descriptors() {
    bounded(|| transport_common::readiness_through_a_poller("iiop://127.0.0.1:0"));
}
