//! Hostile and broken clients against the ORB server, under every server
//! concurrency strategy, over IIOP and UIOP: random bytes, truncated
//! messages, oversized lengths, unknown message types, stalled half
//! messages, a client that never reads its replies, more connections than
//! the limit (the oldest idle ones are shed with `CloseConnection`), and (the well-behaved counterpart) a slow client that ends
//! its stream with replies still queued. In every case the server answers
//! with `MessageError` or closes that one connection, and a second
//! client's calls keep succeeding during the attack. The bounds on what one
//! connection may take (memory, time, connections) are asserted through
//! what the clients see, not through timing.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::os::unix::net::UnixStream;
use std::time::Duration;

use bytes::Bytes;
use rtorb::orb::{Orb, ServerStrategy};
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::message::{Content, LocateRequest, Message};
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{FrameDecoder, FrameProtocol, decode_message, encode_message};
use rtorb_test_support::cubit::{self, Cubit};
use rtorb_test_support::net::socket_path;
use rtorb_test_support::wait::{NO_TIMEOUT, eventually};
use rtorb_test_support::wire::{cubit_request, giop_header};
use rtorb_test_support::{TIMEOUT, client};

/// The server's maximum message size in these tests.
const MAX_MESSAGE: u32 = 100_000;
/// Its connection limit.
const MAX_CONNECTIONS: usize = 12;
/// Its bound on queued replies.
const MAX_OUTPUT: usize = 64 * 1024;
/// Its write timeout.
const WRITE_TIMEOUT: Duration = Duration::from_secs(1);
/// The leader/followers pool size: fewer threads than stalled connections.
const THREADS: usize = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Protocol {
    Iiop,
    Uiop,
}

/// A server with small limits, a well-behaved client of it, and how to
/// reach it with raw sockets.
struct Fixture {
    what: String,
    server: Orb,
    _client: Orb,
    cubit: Cubit,
    /// `host:port` or a socket path.
    address: String,
    protocol: Protocol,
}

fn fixture(strategy: ServerStrategy, protocol: Protocol, incomplete: Duration) -> Fixture {
    let endpoint = match protocol {
        Protocol::Iiop => "iiop://127.0.0.1:0".to_owned(),
        Protocol::Uiop => format!("uiop://{}", socket_path("bad")),
    };
    let server = Orb::builder()
        .listen(endpoint)
        .server_strategy(strategy)
        .server_threads(THREADS)
        .max_message_size(MAX_MESSAGE)
        .incomplete_message_timeout(incomplete)
        .max_connections(MAX_CONNECTIONS)
        .max_output_buffer(MAX_OUTPUT)
        .server_write_timeout(WRITE_TIMEOUT)
        .build()
        .unwrap();
    let ior = cubit::serve(&server);
    let client = client::orb();
    let cubit: Cubit = client.string_to_object(&ior).unwrap().unchecked_narrow();
    let address = rtorb_test_support::net::endpoint_address(&server.endpoints()[0]);
    let f = Fixture {
        what: format!("{strategy} over {protocol:?}"),
        server,
        _client: client,
        cubit,
        address,
        protocol,
    };
    f.served(1);
    f
}

impl Fixture {
    /// The well-behaved client makes `n` calls; every one must succeed.
    fn served(&self, n: i32) {
        for i in 0..n {
            let l = i - 7;
            let got = self.cubit.cube_long(l);
            assert_eq!(
                got.as_ref().ok(),
                Some(&l.wrapping_pow(3)),
                "{}: the other client's call {i} failed: {got:?}",
                self.what
            );
        }
    }

    fn raw(&self) -> Raw {
        let raw = match self.protocol {
            Protocol::Iiop => Raw::Tcp(TcpStream::connect(&self.address).unwrap()),
            Protocol::Uiop => Raw::Unix(UnixStream::connect(&self.address).unwrap()),
        };
        raw.set_read_timeout(Some(TIMEOUT));
        raw
    }
}

/// Runs `case` against a fresh server of every strategy, over IIOP and
/// UIOP, and checks the well-behaved client afterwards.
fn each(incomplete: Duration, case: impl Fn(&Fixture)) {
    for strategy in ServerStrategy::ALL {
        for protocol in [Protocol::Iiop, Protocol::Uiop] {
            let f = fixture(strategy, protocol, incomplete);
            case(&f);
            f.served(3);
            f.server.shutdown();
        }
    }
}

/// A raw client connection.
enum Raw {
    Tcp(TcpStream),
    Unix(UnixStream),
}

impl Raw {
    fn set_read_timeout(&self, t: Option<Duration>) {
        match self {
            Raw::Tcp(s) => s.set_read_timeout(t).unwrap(),
            Raw::Unix(s) => s.set_read_timeout(t).unwrap(),
        }
    }

    fn shutdown_write(&self) {
        let _ = match self {
            Raw::Tcp(s) => s.shutdown(Shutdown::Write),
            Raw::Unix(s) => s.shutdown(Shutdown::Write),
        };
    }

    /// Reads what has arrived without waiting, decoding the messages into
    /// `got`; whether the server has closed the connection.
    fn drain_into(&mut self, decoder: &mut FrameDecoder, got: &mut Vec<Message>) -> bool {
        match self {
            Raw::Tcp(s) => s.set_nonblocking(true).unwrap(),
            Raw::Unix(s) => s.set_nonblocking(true).unwrap(),
        }
        let mut buf = [0u8; 1024];
        let closed = loop {
            match self.read(&mut buf) {
                Ok(0) => break true,
                Ok(n) => decoder.push(&buf[..n]).unwrap(),
                Err(e) if e.kind() == ErrorKind::ConnectionReset => break true,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => break false,
                Err(e) => panic!("read: {e}"),
            }
        };
        while let Some(frame) = decoder.next_frame().unwrap() {
            got.push(decode_message(frame).unwrap());
        }
        match self {
            Raw::Tcp(s) => s.set_nonblocking(false).unwrap(),
            Raw::Unix(s) => s.set_nonblocking(false).unwrap(),
        }
        closed
    }

    fn try_clone(&self) -> Raw {
        match self {
            Raw::Tcp(s) => Raw::Tcp(s.try_clone().unwrap()),
            Raw::Unix(s) => Raw::Unix(s.try_clone().unwrap()),
        }
    }

    /// Whether the connection is open and the server has sent nothing on
    /// it, looking without waiting.
    fn open_and_silent(&mut self) -> bool {
        let (mut decoder, mut got) = (FrameDecoder::new(FrameProtocol::Giop), Vec::new());
        !self.drain_into(&mut decoder, &mut got) && got.is_empty()
    }
}

impl Read for Raw {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Raw::Tcp(s) => s.read(buf),
            Raw::Unix(s) => s.read(buf),
        }
    }
}

impl Write for Raw {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Raw::Tcp(s) => s.write(buf),
            Raw::Unix(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Reads at most 16 KiB at a time, pausing before each read.
struct SlowReader(Raw);

impl Read for SlowReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        // A slow peer is what the test is about.
        std::thread::sleep(Duration::from_millis(1));
        let n = buf.len().min(16 * 1024);
        self.0.read(&mut buf[..n])
    }
}

/// Every message the server sends until it closes the connection (end of
/// stream or reset); fails if the connection stays open and silent for
/// [`TIMEOUT`].
fn until_closed(raw: &mut impl Read, what: &str) -> Vec<Message> {
    let mut decoder = FrameDecoder::new(FrameProtocol::Giop);
    let mut out = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match raw.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => panic!("{what}: the server kept the connection open: {e}"),
        };
        decoder.push(&buf[..n]).unwrap();
        while let Some(frame) = decoder.next_frame().unwrap() {
            out.push(decode_message(frame).unwrap());
        }
    }
    out
}

fn contents(messages: &[Message]) -> Vec<&Content> {
    messages.iter().map(|m| &m.content).collect()
}

fn next_random(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn random_bytes_get_a_message_error_and_close_only_that_connection() {
    each(NO_TIMEOUT, |f| {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for round in 0..4 {
            let mut garbage: Vec<u8> = (0..200).map(|_| next_random(&mut state) as u8).collect();
            // Anything but the GIOP magic.
            garbage[0] = b'X';
            let mut raw = f.raw();
            raw.write_all(&garbage).unwrap();
            let got = until_closed(&mut raw, &f.what);
            assert_eq!(
                contents(&got),
                [&Content::MessageError],
                "{} round {round}",
                f.what
            );
            f.served(2);
        }
    });
}

#[test]
fn truncated_messages_close_the_connection() {
    each(NO_TIMEOUT, |f| {
        // The stream ends in the middle of a message: closed, nothing sent.
        let mut raw = f.raw();
        let mut half = giop_header(2, 1, 0, 100);
        half.extend_from_slice(&[0u8; 40]);
        raw.write_all(&half).unwrap();
        raw.shutdown_write();
        assert!(until_closed(&mut raw, &f.what).is_empty(), "{}", f.what);
        f.served(2);

        // A whole message whose request header is cut short: MessageError.
        let whole = cubit_request(5, "cube_long", |w| w.body().write_i32(3));
        let mut cut = whole[..12 + 6].to_vec();
        cut[8..12].copy_from_slice(&6u32.to_le_bytes());
        let mut raw = f.raw();
        raw.write_all(&cut).unwrap();
        let got = until_closed(&mut raw, &f.what);
        assert_eq!(contents(&got), [&Content::MessageError], "{}", f.what);
        f.served(2);
    });
}

#[test]
fn a_client_that_half_closes_gets_every_reply_first() {
    const REQUESTS: u32 = 120;
    const OCTETS: usize = 95_000;
    each(NO_TIMEOUT, |f| {
        // Requests for more reply octets than the output bound and the
        // socket buffers hold, then the end of the client's stream; the
        // client reads slowly all along, so the server sees the end of the
        // stream with replies still queued.
        let raw = f.raw();
        let mut writer = raw.try_clone();
        let sender = std::thread::spawn(move || {
            for id in 0..REQUESTS {
                let r = cubit_request(id, "cube_octet_sequence", |w| {
                    w.body().write_octet_seq(&vec![2u8; OCTETS]).unwrap();
                });
                writer.write_all(&r).unwrap();
            }
            writer.shutdown_write();
        });
        let mut slow = SlowReader(raw);
        let got = until_closed(&mut slow, &f.what);
        sender.join().unwrap();
        let ids: Vec<u32> = got
            .iter()
            .map(|m| match &m.content {
                Content::Reply(r) => r.header.request_id,
                other => panic!("{}: {other:?}", f.what),
            })
            .collect();
        assert_eq!(ids, (0..REQUESTS).collect::<Vec<_>>(), "{}", f.what);
        f.served(2);
    });
}

#[test]
fn oversized_lengths_are_refused_from_the_header_alone() {
    each(NO_TIMEOUT, |f| {
        for size in [MAX_MESSAGE + 1, 64 * 1024 * 1024, u32::MAX - 16] {
            // Only the header is sent: the MessageError comes without the
            // server waiting for (or making room for) the body.
            let mut raw = f.raw();
            raw.write_all(&giop_header(2, 1, 0, size)).unwrap();
            let got = until_closed(&mut raw, &f.what);
            assert_eq!(
                contents(&got),
                [&Content::MessageError],
                "{} {size}",
                f.what
            );
            f.served(2);
        }
        // A message just within the limit is served.
        let octets = vec![3u8; MAX_MESSAGE as usize - 200];
        let got = f.cubit.cube_octet_sequence(&octets).unwrap();
        assert!(got.iter().all(|o| *o == 27), "{}", f.what);

        // Fragments that each fit but together exceed the limit.
        let big = cubit_request(9, "cube_octet_sequence", |w| {
            w.body()
                .write_octet_seq(&vec![1u8; 2 * MAX_MESSAGE as usize])
                .unwrap();
        });
        let pieces = rtorb_giop::fragment_message(&big, (MAX_MESSAGE / 2) as usize).unwrap();
        assert!(pieces.len() >= 4);
        let mut raw = f.raw();
        let mut writer = raw.try_clone();
        let sender = std::thread::spawn(move || {
            for p in pieces {
                // The server closes before the last pieces.
                if writer.write_all(&p).is_err() {
                    return;
                }
            }
        });
        let got = until_closed(&mut raw, &f.what);
        sender.join().unwrap();
        assert_eq!(contents(&got), [&Content::MessageError], "{}", f.what);
        f.served(2);
    });
}

#[test]
fn unknown_message_types_and_versions_get_a_message_error() {
    each(NO_TIMEOUT, |f| {
        let reply = Message::new(
            Version::V1_2,
            ByteOrder::Little,
            Content::Reply(rtorb_giop::message::Reply {
                header: rtorb_giop::message::ReplyHeader::new(
                    1,
                    rtorb_giop::message::ReplyStatus::NoException,
                ),
                body: Bytes::new(),
                body_offset: 0,
            }),
        );
        let wrong_way = encode_message(&reply).unwrap().to_vec();
        let mut version_3 = giop_header(2, 1, 0, 0);
        version_3[4] = 3;
        for bad in [
            giop_header(2, 1, 42, 0),
            giop_header(2, 1, 8, 4),
            giop_header(0, 1, 200, 16),
            version_3,
            wrong_way,
        ] {
            let mut raw = f.raw();
            raw.write_all(&bad).unwrap();
            let got = until_closed(&mut raw, &f.what);
            assert_eq!(
                contents(&got),
                [&Content::MessageError],
                "{} {bad:?}",
                f.what
            );
            f.served(2);
        }
    });
}

/// A half message: a header announcing 100 octets, and 8 of them.
fn half_message() -> Vec<u8> {
    let mut m = giop_header(2, 1, 0, 100);
    m.extend_from_slice(&[0u8; 8]);
    m
}

#[test]
fn stalled_half_messages_block_no_one() {
    // A long incomplete-message timeout: the stalled connections are
    // certainly still open while the other client is served, even with
    // more of them than the leader/followers pool has threads.
    each(NO_TIMEOUT, |f| {
        let mut stalled: Vec<Raw> = (0..THREADS + 2)
            .map(|_| {
                let mut r = f.raw();
                r.write_all(&half_message()).unwrap();
                r
            })
            .collect();
        f.served(20);
        for (i, r) in stalled.iter_mut().enumerate() {
            assert!(
                r.open_and_silent(),
                "{}: stalled connection {i} closed early",
                f.what
            );
        }
        // One completes its message: it is served like any other.
        let mut late = stalled.pop().unwrap();
        let locate = Message::new(
            Version::V1_2,
            ByteOrder::Little,
            Content::LocateRequest(LocateRequest {
                request_id: 1,
                target: TargetAddress::Key(Bytes::from_static(b"Cubit")),
            }),
        );
        let mut rest = vec![0u8; 92];
        rest.extend_from_slice(&encode_message(&locate).unwrap());
        late.write_all(&rest).unwrap();
        // The completed garbage request is a MessageError or a reply; the
        // connection answers either way instead of hanging.
        let mut b = [0u8; 12];
        late.read_exact(&mut b).unwrap();
        assert_eq!(&b[..4], b"GIOP", "{}", f.what);
        // The server has gone on reading meanwhile: the others stay open.
        for (i, r) in stalled.iter_mut().enumerate() {
            assert!(
                r.open_and_silent(),
                "{}: stalled connection {i} closed early",
                f.what
            );
        }
    });
}

#[test]
fn stalled_and_trickling_connections_are_closed_after_the_timeout() {
    each(Duration::from_millis(800), |f| {
        let mut stalled = f.raw();
        stalled.write_all(&half_message()).unwrap();
        // Another one sends a byte at a time and never finishes: closed
        // all the same, the timeout runs from the message's start.
        let mut trickle = f.raw();
        trickle.write_all(&giop_header(2, 1, 0, 1000)).unwrap();
        let mut trickle_reader = trickle.try_clone();
        let dripper = std::thread::spawn(move || {
            for sent in 0..200 {
                if trickle.write_all(&[0u8]).is_err() {
                    return sent;
                }
                // The pace of a trickling peer, which the server must close.
                std::thread::sleep(Duration::from_millis(50));
            }
            200
        });
        f.served(10);
        assert!(until_closed(&mut stalled, &f.what).is_empty(), "{}", f.what);
        assert!(
            until_closed(&mut trickle_reader, &f.what).is_empty(),
            "{}",
            f.what
        );
        trickle_reader.shutdown_write();
        let sent = dripper.join().unwrap();
        assert!(
            sent < 200,
            "{}: the trickling connection was never closed",
            f.what
        );
        f.served(5);
    });
}

#[test]
fn a_client_that_never_reads_its_replies_is_bounded_and_closed() {
    const REQUESTS: usize = 1000;
    const OCTETS: usize = 60_000;
    each(NO_TIMEOUT, |f| {
        let mut raw = f.raw();
        let mut writer = raw.try_clone();
        let flood = std::thread::spawn(move || {
            let payload = vec![2u8; OCTETS];
            for i in 0..REQUESTS {
                let r = cubit_request(i as u32, "cube_octet_sequence", |w| {
                    w.body().write_octet_seq(&payload).unwrap();
                });
                if writer.write_all(&r).is_err() {
                    return i;
                }
            }
            REQUESTS
        });
        // The flood stalls the connection; the other client is served.
        f.served(20);
        let sent = flood.join().unwrap();
        let got = until_closed(&mut raw, &f.what);
        let replies = got
            .iter()
            .filter(|m| matches!(m.content, Content::Reply(_)))
            .count();
        // Unbounded queueing would have answered every request sent; what
        // arrives is what the socket buffers and the output bound hold.
        assert!(
            sent < REQUESTS,
            "{}: the server read all {sent} requests of a client that reads nothing",
            f.what
        );
        assert!(
            replies < sent,
            "{}: {replies} replies to {sent} requests",
            f.what
        );
        f.served(5);
    });
}

#[test]
fn connections_beyond_the_limit_shed_the_oldest_idle_ones() {
    const EXTRA: usize = 30;
    each(NO_TIMEOUT, |f| {
        let locate = encode_message(&Message::new(
            Version::V1_2,
            ByteOrder::Little,
            Content::LocateRequest(LocateRequest {
                request_id: 3,
                target: TargetAddress::Key(Bytes::from_static(b"Cubit")),
            }),
        ))
        .unwrap();
        let mut raws: Vec<Raw> = (0..EXTRA).map(|_| f.raw()).collect();
        for r in &mut raws {
            let _ = r.write_all(&locate);
        }
        f.served(5);
        // Each is either held and answered, or shed with CloseConnection
        // (after the answer, if its request was read first). Once each is
        // answered or closed, every one has been accepted; the shed ones
        // have closed once the count is back within the limit.
        let mut seen: Vec<(FrameDecoder, Vec<Message>, bool)> = (0..EXTRA)
            .map(|_| (FrameDecoder::new(FrameProtocol::Giop), Vec::new(), false))
            .collect();
        let mut drain = |raws: &mut Vec<Raw>| {
            raws.iter_mut()
                .zip(&mut seen)
                .map(|(r, (decoder, got, closed))| {
                    if !*closed {
                        *closed = r.drain_into(decoder, got);
                    }
                    *closed || !got.is_empty()
                })
                // Every connection drained, not only up to the first
                // unsettled one.
                .fold(true, |all, one| all & one)
        };
        let settled = eventually(TIMEOUT, || drain(&mut raws));
        assert!(
            settled,
            "{}: a connection neither answered nor closed",
            f.what
        );
        assert!(
            eventually(TIMEOUT, || f.server.stats().server_connections
                <= MAX_CONNECTIONS),
            "{}: {} connections open",
            f.what,
            f.server.stats().server_connections
        );
        drain(&mut raws);
        let (mut held, mut shed) = (0, 0);
        for (i, (_, got, closed)) in seen.iter().enumerate() {
            let contents = contents(got);
            if *closed {
                assert!(
                    matches!(
                        contents[..],
                        [Content::CloseConnection]
                            | [Content::LocateReply(_), Content::CloseConnection]
                    ),
                    "{}: shed connection {i} got {contents:?}",
                    f.what
                );
                shed += 1;
            } else {
                assert!(
                    matches!(contents[..], [Content::LocateReply(_)]),
                    "{}: held connection {i} got {contents:?}",
                    f.what
                );
                held += 1;
            }
        }
        // No more held than the limit (the well-behaved client's idle
        // connection may have been shed too: it reconnects for its next
        // call).
        assert!(
            held <= MAX_CONNECTIONS,
            "{}: {held} connections held beyond the limit",
            f.what
        );
        assert_eq!(held + shed, EXTRA, "{}", f.what);
        assert!(f.server.stats().server_connections <= MAX_CONNECTIONS);
        f.served(5);
        // Once they go, new clients are served again.
        drop(raws);
        let _ = eventually(TIMEOUT, || f.server.stats().server_connections <= 1);
        assert_eq!(f.server.stats().server_connections, 1, "{}", f.what);
        let mut again = f.raw();
        again.write_all(&locate).unwrap();
        let mut b = [0u8; 12];
        again.read_exact(&mut b).unwrap();
        assert_eq!(&b[..4], b"GIOP", "{}", f.what);
    });
}
