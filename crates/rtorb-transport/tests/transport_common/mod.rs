//! Helpers shared by the transport tests.

#![allow(dead_code)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use rtorb_cdr::{ByteOrder, Encoding, Version};
use rtorb_giop::lite::lite_request;
use rtorb_giop::message::{MessageWriter, ReplyHeader, ReplyStatus, RequestHeader};
use rtorb_test_support::TIMEOUT;
use rtorb_transport::{Acceptor, FrameReader, Transport, TransportError};

/// The longest any single test may take: longer than any one of its
/// waits (connects and reads, bounded by [`TIMEOUT`]), so that a wait that
/// fails says so first.
pub(crate) const TEST_LIMIT: Duration = TIMEOUT.saturating_mul(3);

/// Runs `f` on its own thread and fails if it takes longer than
/// [`TEST_LIMIT`]; re-raises its panic.
pub(crate) fn bounded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    let handle = thread::spawn(move || {
        let r = f();
        let _ = tx.send(());
        r
    });
    match rx.recv_timeout(TEST_LIMIT) {
        Ok(()) => handle.join().expect("test body panicked"),
        Err(mpsc::RecvTimeoutError::Disconnected) => match handle.join() {
            Ok(_) => unreachable!("sender dropped without sending"),
            Err(p) => std::panic::resume_unwind(p),
        },
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("test did not finish in {TEST_LIMIT:?}"),
    }
}

/// What [`accept_one`] hands back: the acceptor and the accepted
/// connection.
pub(crate) type AcceptResult = (
    Box<dyn Acceptor>,
    Result<Box<dyn Transport>, TransportError>,
);

/// Accepts one connection on another thread, so that a failing client
/// cannot hang the test; the result arrives within [`TIMEOUT`].
pub(crate) fn accept_one(acceptor: Box<dyn Acceptor>) -> mpsc::Receiver<AcceptResult> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let r = acceptor.accept();
        let _ = tx.send((acceptor, r));
    });
    rx
}

/// Waits for [`accept_one`]'s connection.
pub(crate) fn accepted(
    rx: &mpsc::Receiver<AcceptResult>,
) -> (Box<dyn Acceptor>, Box<dyn Transport>) {
    let (a, t) = rx
        .recv_timeout(TIMEOUT)
        .expect("no connection accepted in time");
    (a, t.expect("accept failed"))
}

/// Sets read and write timeouts of [`TIMEOUT`].
pub(crate) fn limit(t: &mut dyn Transport) {
    t.set_read_timeout(Some(TIMEOUT)).unwrap();
    t.set_write_timeout(Some(TIMEOUT)).unwrap();
}

/// A GIOP 1.2 request with `body_len` octets of body.
pub(crate) fn request(id: u32, body_len: usize, order: ByteOrder) -> Bytes {
    let enc = Encoding::native()
        .with_order(order)
        .with_version(Version::V1_2);
    let h = RequestHeader::new(id, Bytes::from_static(b"ObjKey"), "op");
    let mut w = MessageWriter::request(enc, &h).unwrap();
    let body: Vec<u8> = (0..body_len).map(|i| (i * 7 + id as usize) as u8).collect();
    w.body().write_octet_seq(&body).unwrap();
    w.finish().unwrap()
}

/// A GIOP 1.1 reply.
pub(crate) fn reply(id: u32) -> Bytes {
    let enc = Encoding::native().with_version(Version::V1_1);
    let mut w = MessageWriter::reply(enc, &ReplyHeader::new(id, ReplyStatus::NoException)).unwrap();
    w.body().write_i32(-7);
    w.finish().unwrap()
}

/// A GIOPlite request.
pub(crate) fn lite(id: u32, body_len: usize) -> Bytes {
    let h = RequestHeader::new(id, Bytes::from_static(b"Key"), "lite_op");
    let mut w = lite_request(Encoding::native(), &h).unwrap();
    w.body().write_octet_seq(&vec![0x5a; body_len]).unwrap();
    w.finish().unwrap()
}

/// A request whose body holds `n` large octet sequences written by
/// reference, returned as the chain of `finish_chunks` (more than one
/// buffer).
pub(crate) fn chunked(id: u32, n: usize, each: usize) -> Vec<Bytes> {
    let enc = Encoding::native().with_version(Version::V1_2);
    let h = RequestHeader::new(id, Bytes::from_static(b"Chunky"), "put");
    let mut w = MessageWriter::request(enc, &h).unwrap();
    w.body()
        .set_zero_copy_threshold(rtorb_cdr::DEFAULT_ZERO_COPY_THRESHOLD);
    for k in 0..n {
        let data: Bytes = (0..each).map(|i| (i + k) as u8).collect::<Vec<u8>>().into();
        w.body().write_u32(k as u32);
        w.body().write_octet_seq_bytes(&data).unwrap();
    }
    let chunks = w.finish_chunks().unwrap();
    assert!(chunks.len() > 1, "the message should be a chain of buffers");
    chunks
}

/// The chain as one buffer.
pub(crate) fn concat(chunks: &[Bytes]) -> Bytes {
    let mut all = BytesMut::new();
    for c in chunks {
        all.extend_from_slice(c);
    }
    all.freeze()
}

/// Reads one whole message, failing on end of stream.
pub(crate) fn read_one(reader: &mut FrameReader, t: &mut dyn Transport) -> Bytes {
    reader
        .read_frame(t)
        .expect("read failed")
        .expect("stream ended early")
}

/// A fresh socket path in the temporary directory.
pub(crate) fn temp_socket_path(tag: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir()
        .join(format!("rtorb-t-{}-{tag}-{n}.sock", std::process::id()))
        .to_string_lossy()
        .into_owned()
}

/// A transport wrapper whose gathered writes take at most `max` octets, to
/// force partial writes.
#[derive(Debug)]
pub(crate) struct Trickle<T> {
    /// The wrapped transport.
    pub(crate) inner: T,
    /// The most octets one write takes.
    pub(crate) max: usize,
    /// How many writes were made.
    pub(crate) writes: usize,
}

impl<T: Transport> std::os::fd::AsRawFd for Trickle<T> {
    fn as_raw_fd(&self) -> std::os::fd::RawFd {
        self.inner.as_raw_fd()
    }
}

impl<T: Transport> Transport for Trickle<T> {
    fn protocol(&self) -> &'static str {
        self.inner.protocol()
    }
    fn messaging(&self) -> rtorb_giop::FrameProtocol {
        self.inner.messaging()
    }
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.inner.read(buf)
    }
    fn writev(&mut self, bufs: &[std::io::IoSlice<'_>]) -> std::io::Result<usize> {
        self.writes += 1;
        let mut left = self.max;
        let mut cut = Vec::new();
        for b in bufs {
            if left == 0 {
                break;
            }
            let take = b.len().min(left);
            cut.push(std::io::IoSlice::new(&b[..take]));
            left -= take;
        }
        self.inner.writev(&cut)
    }
    fn shutdown(&mut self, how: std::net::Shutdown) -> std::io::Result<()> {
        self.inner.shutdown(how)
    }
    fn peer(&self) -> String {
        self.inner.peer()
    }
    fn set_nonblocking(&mut self, nb: bool) -> std::io::Result<()> {
        self.inner.set_nonblocking(nb)
    }
    fn set_read_timeout(&mut self, t: Option<Duration>) -> std::io::Result<()> {
        self.inner.set_read_timeout(t)
    }
    fn set_write_timeout(&mut self, t: Option<Duration>) -> std::io::Result<()> {
        self.inner.set_write_timeout(t)
    }
}

/// Listens on `listen`, connects to the acceptor's endpoint, and checks
/// messages both ways: GIOP requests and replies (or GIOPlite requests if
/// the endpoint says so), a gathered multi-chunk message, a several-MB
/// message sent while the peer reads, and a clean close. Returns the
/// acceptor's published endpoint string.
pub(crate) fn exercise(listen: &str) -> String {
    use rtorb_giop::FrameProtocol;
    use rtorb_transport::ProtocolRegistry;

    let registry = ProtocolRegistry::with_default_protocols();
    let acceptor = registry.listen(listen).expect("listen");
    let published = acceptor.endpoint().to_string();
    let endpoint = acceptor.endpoint().clone_box();
    let messaging = endpoint.messaging();
    let rx = accept_one(acceptor);
    let mut client = registry
        .connect(&*endpoint, Some(TIMEOUT))
        .expect("connect");
    let (_acceptor, mut server) = accepted(&rx);
    limit(&mut *client);
    limit(&mut *server);
    assert_eq!(client.messaging(), messaging);
    assert_eq!(server.messaging(), messaging);
    assert_eq!(client.protocol(), endpoint.protocol());
    assert!(!client.peer().is_empty() && !server.peer().is_empty());

    // Small messages, client to server, several per write.
    let small: Vec<Bytes> = match messaging {
        FrameProtocol::Giop => vec![
            request(1, 0, ByteOrder::Big),
            request(2, 13, ByteOrder::Little),
            reply(3),
        ],
        FrameProtocol::Lite => vec![lite(1, 0), lite(2, 100), lite(3, 5)],
    };
    client.write_all_vectored(&small).unwrap();
    let mut server_reader = FrameReader::new(server.messaging());
    for m in &small {
        let got = read_one(&mut server_reader, &mut *server);
        assert_eq!(&got, m);
        match messaging {
            FrameProtocol::Giop => rtorb_giop::decode_message(got).unwrap(),
            FrameProtocol::Lite => rtorb_giop::decode_lite(got).unwrap(),
        };
    }

    // Server to client: a gathered multi-chunk message (GIOP) or a lite
    // one, byte-identical at the other end.
    let mut client_reader = FrameReader::new(client.messaging());
    let chain = match messaging {
        FrameProtocol::Giop => chunked(9, 5, 3000),
        FrameProtocol::Lite => vec![lite(9, 4000)],
    };
    server.write_all_vectored(&chain).unwrap();
    let got = read_one(&mut client_reader, &mut *client);
    assert_eq!(got, concat(&chain));

    // Large: 6 MB, more than the socket buffers hold, so the writes are
    // partial while the peer reads on another thread.
    let big = match messaging {
        FrameProtocol::Giop => chunked(10, 3, 2 * 1024 * 1024),
        FrameProtocol::Lite => vec![lite(10, 6 * 1024 * 1024)],
    };
    let expected = concat(&big);
    let reader = thread::spawn(move || {
        let mut r = FrameReader::new(server.messaging());
        let m = read_one(&mut r, &mut *server);
        // Then the clean close between messages.
        let end = r.read_frame(&mut *server).unwrap();
        (m, end)
    });
    client.write_all_vectored(&big).unwrap();
    client.shutdown(std::net::Shutdown::Write).unwrap();
    let (m, end) = reader.join().unwrap();
    assert_eq!(m.len(), expected.len());
    assert!(m == expected, "large message differs");
    assert!(end.is_none());
    published
}

/// Registers an acceptor on `listen`, and then the connection it accepts,
/// with a `mio` poller through their descriptors (as the ORB's event-driven
/// server strategies do), and checks that the poller reports the waiting
/// connection and then the arriving message, which a nonblocking
/// [`FrameReader`] takes whole.
pub(crate) fn readiness_through_a_poller(listen: &str) {
    use mio::unix::SourceFd;
    use mio::{Events, Interest, Poll, Token};
    use rtorb_transport::ProtocolRegistry;

    let registry = ProtocolRegistry::with_default_protocols();
    let acceptor = registry.listen(listen).expect("listen");
    acceptor.set_nonblocking(true).unwrap();
    let mut poll = Poll::new().unwrap();
    let mut events = Events::with_capacity(8);
    let acceptor_fd = acceptor.as_raw_fd();
    poll.registry()
        .register(&mut SourceFd(&acceptor_fd), Token(1), Interest::READABLE)
        .unwrap();
    // Nothing waits yet.
    assert!(acceptor.accept().unwrap_err().is_would_block());

    let mut client = registry
        .connect(acceptor.endpoint(), Some(TIMEOUT))
        .expect("connect");
    let wait_for = |poll: &mut Poll, events: &mut Events, token: Token| {
        let start = std::time::Instant::now();
        while start.elapsed() < TIMEOUT {
            poll.poll(events, Some(Duration::from_millis(100))).unwrap();
            if events.iter().any(|e| e.token() == token && e.is_readable()) {
                return;
            }
        }
        panic!("no readiness for {token:?}");
    };
    wait_for(&mut poll, &mut events, Token(1));
    let mut server = acceptor.accept().expect("a connection is waiting");
    server.set_nonblocking(true).unwrap();
    let server_fd = server.as_raw_fd();
    poll.registry()
        .register(&mut SourceFd(&server_fd), Token(2), Interest::READABLE)
        .unwrap();
    let mut reader = FrameReader::new(server.messaging());
    let mut scratch = [0u8; 16];
    assert_eq!(
        server.read(&mut scratch).unwrap_err().kind(),
        std::io::ErrorKind::WouldBlock
    );

    let message = request(7, 100, ByteOrder::Little);
    client
        .write_all_vectored(std::slice::from_ref(&message))
        .unwrap();
    wait_for(&mut poll, &mut events, Token(2));
    let got = loop {
        match reader.fill(&mut *server) {
            Ok(0) => panic!("the stream ended"),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                wait_for(&mut poll, &mut events, Token(2));
            }
            Err(e) => panic!("read: {e}"),
        }
        if let Some(m) = reader.next_frame().unwrap() {
            break m;
        }
    };
    assert_eq!(got, message);
    poll.registry()
        .deregister(&mut SourceFd(&server_fd))
        .unwrap();
}
