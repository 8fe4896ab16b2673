//! The server's memory budget against hostile clients, under every server
//! strategy: requests whose headers announce more than what remains of the
//! budget get a `NO_MEMORY` reply (checked octet by octet), more than the
//! largest message an `IMP_LIMIT` one, and their connections close; a client that never reads its replies is
//! back-pressured within the budget and loses none of them; fragments that
//! never end are cut off at the budget; `SYNC_WITH_SERVER` requests queued
//! behind a blocked upcall are held within the budget. A well-behaved client is served
//! throughout, and what the server holds ([`Orb::buffered_bytes`]) returns
//! to nothing.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;

use bytes::Bytes;
use rtorb::minor::{IMP_LIMIT_MESSAGE_TOO_LARGE, NO_MEMORY_BUDGET};
use rtorb::orb::{Orb, ServerStrategy};
use rtorb_cdr::{Encoding, Version};
use rtorb_giop::message::{Content, Message, RESPONSE_WITH_SERVER, ReplyStatus, RequestHeader};
use rtorb_giop::{CompletionStatus, FrameDecoder, FrameProtocol, MessageWriter, decode_message};
use rtorb_test_support::cubit::{self, Cubit};
use rtorb_test_support::hold::HeldServant;
use rtorb_test_support::wait::eventually;
use rtorb_test_support::wire::{cubit_request, giop_header};
use rtorb_test_support::{TIMEOUT, client, server};

/// The largest message the servers accept: far more than their budget.
const MAX_MESSAGE: u32 = 64 * 1024 * 1024;

struct Fixture {
    what: String,
    server: Orb,
    _client: Orb,
    cubit: Cubit,
    address: String,
}

fn fixture(strategy: ServerStrategy, budget: usize, max_output: usize) -> Fixture {
    let server = server::builder()
        .server_strategy(strategy)
        .server_threads(2)
        .max_message_size(MAX_MESSAGE)
        .max_output_buffer(max_output)
        .max_connections(64)
        .memory_budget(budget)
        .build()
        .unwrap();
    let ior = cubit::serve(&server);
    let client = client::orb();
    let cubit: Cubit = client.string_to_object(&ior).unwrap().unchecked_narrow();
    let address = rtorb_test_support::net::iiop_address(&server);
    let f = Fixture {
        what: strategy.to_string(),
        server,
        _client: client,
        cubit,
        address,
    };
    f.served(1);
    f
}

impl Fixture {
    /// The well-behaved client makes `n` calls; every one must succeed.
    fn served(&self, n: i32) {
        for i in 0..n {
            let got = self.cubit.cube_long(i + 2);
            assert_eq!(
                got.as_ref().ok(),
                Some(&(i + 2).pow(3)),
                "{}: the well-behaved client's call failed: {got:?}",
                self.what
            );
        }
    }

    fn raw(&self) -> TcpStream {
        let s = TcpStream::connect(&self.address).unwrap();
        s.set_read_timeout(Some(TIMEOUT)).unwrap();
        s
    }

    /// Waits until the server holds nothing against its budget.
    fn holds_nothing(&self) {
        assert!(
            eventually(TIMEOUT, || self.server.stats().buffered_bytes == 0),
            "{}: the server still holds {} octets",
            self.what,
            self.server.stats().buffered_bytes
        );
    }
}

/// Every octet the server sends until it closes the connection, as whole
/// messages (raw, undecoded).
fn frames_until_closed(raw: &mut TcpStream, what: &str) -> Vec<Bytes> {
    let mut decoder = FrameDecoder::with_max_message_size(FrameProtocol::Giop, u32::MAX);
    let mut out = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match raw.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => panic!("{what}: no orderly close: {e}"),
        };
        decoder.push(&buf[..n]).unwrap();
        while let Some(frame) = decoder.next_frame().unwrap() {
            out.push(frame);
        }
    }
    assert_eq!(decoder.buffered(), 0, "{what}: a partial message at close");
    out
}

/// Checks that `frames` are exactly a GIOP 1.2 `Reply` to `id` carrying
/// `NO_MEMORY` (minor [`NO_MEMORY_BUDGET`], `COMPLETED_NO`) and then
/// `CloseConnection`.
fn assert_refused(frames: &[Bytes], id: u32, what: &str) {
    assert_refused_with(
        frames,
        id,
        ("IDL:omg.org/CORBA/NO_MEMORY:1.0", NO_MEMORY_BUDGET),
        what,
    );
}

/// As [`assert_refused`], for the exception of repository id and minor
/// `expected`.
fn assert_refused_with(frames: &[Bytes], id: u32, expected: (&str, u32), what: &str) {
    assert_eq!(frames.len(), 2, "{what}: {frames:?}");
    // On the wire: GIOP 1.2, a Reply, then a CloseConnection.
    assert_eq!(&frames[0][..6], b"GIOP\x01\x02", "{what}");
    assert_eq!(frames[0][7], 1, "{what}: not a Reply");
    assert_eq!(&frames[1][..6], b"GIOP\x01\x02", "{what}");
    assert_eq!(frames[1][7], 5, "{what}: not a CloseConnection");
    assert_eq!(frames[1].len(), 12, "{what}");
    let reply = decode_message(frames[0].clone()).unwrap();
    let Content::Reply(r) = &reply.content else {
        panic!("{what}: {reply:?}");
    };
    assert_eq!(r.header.request_id, id, "{what}");
    assert_eq!(
        r.header.reply_status,
        ReplyStatus::SystemException,
        "{what}"
    );
    let e = r.system_exception(reply.order).unwrap();
    assert_eq!((e.repository_id(), e.minor), expected, "{what}");
    assert_eq!(e.completed, CompletionStatus::No, "{what}");
}

#[test]
fn requests_announcing_more_than_the_budget_get_no_memory_and_are_closed() {
    const BUDGET: usize = 4 * 1024 * 1024;
    for strategy in ServerStrategy::ALL {
        let f = fixture(strategy, BUDGET, 1024 * 1024);
        // 16 connections announce 64 MiB - 1 and send 32 KiB of it.
        let mut raws = Vec::new();
        for id in 0..16u32 {
            let mut raw = f.raw();
            let mut start = giop_header(2, 0x01, 0, 64 * 1024 * 1024 - 1);
            start.extend_from_slice(&(100 + id).to_le_bytes());
            start.resize(12 + 32 * 1024, 0);
            raw.write_all(&start).unwrap();
            raws.push(raw);
        }
        f.served(2);
        for (id, raw) in raws.iter_mut().enumerate() {
            let frames = frames_until_closed(raw, &f.what);
            assert_refused(&frames, 100 + id as u32, &f.what);
        }
        f.served(2);
        f.holds_nothing();

        // Beyond the largest message: IMP_LIMIT, whatever the budget.
        let mut raw = f.raw();
        let mut start = giop_header(2, 0x01, 0, MAX_MESSAGE + 1);
        start.extend_from_slice(&77u32.to_le_bytes());
        raw.write_all(&start).unwrap();
        assert_refused_with(
            &frames_until_closed(&mut raw, &f.what),
            77,
            (
                "IDL:omg.org/CORBA/IMP_LIMIT:1.0",
                IMP_LIMIT_MESSAGE_TOO_LARGE,
            ),
            &f.what,
        );

        // No request id to answer: a GIOP 1.2 header alone, a GIOP 1.1
        // request whose id (after its service contexts) has not arrived,
        // a LocateRequest.
        let mut v11 = giop_header(2, 0x01, 0, 64 * 1024 * 1024 - 1);
        v11[5] = 1;
        v11.extend_from_slice(&[1, 0, 0, 0, 9, 0, 0, 0, 0, 1, 0, 0]);
        v11.extend_from_slice(&[0u8; 52]);
        let mut locate = giop_header(2, 0x01, 3, 64 * 1024 * 1024 - 1);
        locate.extend_from_slice(&[0u8; 64]);
        for start in [giop_header(2, 0x01, 0, 64 * 1024 * 1024 - 1), v11, locate] {
            let mut raw = f.raw();
            raw.write_all(&start).unwrap();
            let frames = frames_until_closed(&mut raw, &f.what);
            assert_eq!(frames.len(), 1, "{}: {frames:?}", f.what);
            assert_eq!(&frames[0][..4], b"GIOP", "{}", f.what);
            assert_eq!(&frames[0][4..6], &start[4..6], "{}: the version", f.what);
            assert_eq!(frames[0][7], 6, "{}: not a MessageError", f.what);
            assert_eq!(frames[0].len(), 12, "{}", f.what);
        }
        f.holds_nothing();

        // One request of 3 MiB is taken (its part received is held); a
        // second that no longer fits what remains is refused.
        let mut first = f.raw();
        let mut start = giop_header(2, 0x01, 0, 3 * 1024 * 1024);
        start.extend_from_slice(&7u32.to_le_bytes());
        start.resize(64 * 1024, 0);
        first.write_all(&start).unwrap();
        let held = 12 + 3 * 1024 * 1024;
        assert!(
            eventually(TIMEOUT, || f.server.stats().buffered_bytes == held),
            "{}: holds {}",
            f.what,
            f.server.stats().buffered_bytes
        );
        let mut second = f.raw();
        let mut start = giop_header(2, 0x01, 0, 2 * 1024 * 1024);
        start.extend_from_slice(&8u32.to_le_bytes());
        second.write_all(&start).unwrap();
        assert_refused(&frames_until_closed(&mut second, &f.what), 8, &f.what);
        assert_eq!(f.server.stats().buffered_bytes, held, "{}", f.what);
        f.served(2);
        drop(first);
        f.holds_nothing();
        f.server.shutdown();
    }
}

#[test]
fn a_client_that_never_reads_its_replies_is_held_within_the_budget() {
    const BUDGET: usize = 1024 * 1024;
    const OCTETS: usize = 40_000;
    const REQUESTS: u32 = 150;
    // The reply to one request, rounded up as queued output is charged.
    const SLACK: usize = 2 * 64 * 1024;
    for strategy in ServerStrategy::ALL {
        // A per-connection bound far above the budget: the budget is what
        // holds the client back.
        let f = fixture(strategy, BUDGET, 64 * 1024 * 1024);
        let raw = f.raw();
        let mut writer = raw.try_clone().unwrap();
        let sender = std::thread::spawn(move || {
            for id in 0..REQUESTS {
                let r = cubit_request(id, "cube_octet_sequence", |w| {
                    w.body().write_octet_seq(&vec![2u8; OCTETS]).unwrap();
                });
                writer.write_all(&r).unwrap();
            }
        });
        // Far more replies than the budget are asked for; the server
        // stops reading once its queue holds the budget, and never holds
        // more than the budget and one reply.
        let mut peak = 0;
        let reached = eventually(TIMEOUT, || {
            let now = f.server.stats().buffered_bytes;
            peak = peak.max(now);
            assert!(now <= BUDGET + SLACK, "{}: holds {now}", f.what);
            strategy == ServerStrategy::ThreadPerConnection || now >= BUDGET
        });
        assert!(reached, "{}: never back-pressured (peak {peak})", f.what);
        f.served(3);
        assert!(
            f.server.stats().buffered_bytes <= BUDGET + SLACK,
            "{}",
            f.what
        );
        // Now the client reads: every reply arrives, in order.
        let mut raw = raw;
        for id in 0..REQUESTS {
            let m: Message = rtorb_test_support::net::read_message(&mut raw);
            let Content::Reply(r) = &m.content else {
                panic!("{}: {m:?}", f.what);
            };
            assert_eq!(r.header.request_id, id, "{}", f.what);
            assert_eq!(
                r.header.reply_status,
                ReplyStatus::NoException,
                "{}",
                f.what
            );
        }
        sender.join().unwrap();
        f.holds_nothing();
        f.served(2);
        f.server.shutdown();
    }
}

#[test]
fn fragments_that_never_end_are_cut_off_at_the_budget() {
    const BUDGET: usize = 1024 * 1024;
    const PIECE: usize = 8 * 1024;
    for strategy in ServerStrategy::ALL {
        let f = fixture(strategy, BUDGET, 1024 * 1024);
        let mut raw = f.raw();
        let mut writer = raw.try_clone().unwrap();
        let sender = std::thread::spawn(move || {
            // A request with more fragments to follow, then fragments
            // with more to follow, until the server closes.
            let mut first = giop_header(2, 0x03, 0, PIECE as u32);
            first.extend_from_slice(&9u32.to_le_bytes());
            first.resize(12 + PIECE, 0);
            let mut fragment = giop_header(2, 0x03, 7, (4 + PIECE) as u32);
            fragment.extend_from_slice(&9u32.to_le_bytes());
            fragment.resize(16 + PIECE, 0);
            let mut sent = 0usize;
            if writer.write_all(&first).is_err() {
                return sent;
            }
            sent += first.len();
            // Within the largest message the server accepts, but far
            // beyond its budget.
            while sent < MAX_MESSAGE as usize {
                if writer.write_all(&fragment).is_err() {
                    return sent;
                }
                sent += fragment.len();
            }
            sent
        });
        let mut frames = Vec::new();
        // The server answers MessageError and closes (or resets, with
        // fragments still arriving).
        let mut decoder = FrameDecoder::new(FrameProtocol::Giop);
        let mut buf = [0u8; 4096];
        loop {
            match raw.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    decoder.push(&buf[..n]).unwrap();
                    while let Some(frame) = decoder.next_frame().unwrap() {
                        frames.push(decode_message(frame).unwrap().content);
                    }
                }
                Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
                Err(e) => panic!("{}: {e}", f.what),
            }
        }
        assert_eq!(frames, [Content::MessageError], "{}", f.what);
        let sent = sender.join().unwrap();
        // Cut off near the budget (what the socket buffers took besides),
        // long before the largest message.
        assert!(sent < 32 * 1024 * 1024, "{}: {sent} octets taken", f.what);
        f.holds_nothing();
        f.served(2);
        f.server.shutdown();
    }
}

#[test]
fn sync_with_server_requests_queued_behind_a_blocked_upcall_are_held_within_the_budget() {
    const BUDGET: usize = 256 * 1024;
    const PADDING: usize = 20_000;
    const REQUESTS: u32 = 40;
    for strategy in ServerStrategy::ALL {
        let f = fixture(strategy, BUDGET, 1024 * 1024);
        let holder = HeldServant::new(TIMEOUT);
        f.server
            .activate_with_key(&b"Holder"[..], holder.clone())
            .unwrap();
        // Should an assertion fail, the upcalls end and the server shuts
        // down rather than wait for each.
        let _open = holder.hold().open_when_dropped();
        let mut raw = f.raw();
        let mut writer = raw.try_clone().unwrap();
        // Acknowledged on receipt, their upcalls queued behind the first,
        // which blocks: far more than the budget, were they all queued.
        let sender = std::thread::spawn(move || {
            for id in 0..REQUESTS {
                let mut h = RequestHeader::new(id, Bytes::from_static(b"Holder"), "hold");
                h.response_flags = RESPONSE_WITH_SERVER;
                let enc = Encoding::native().with_version(Version::V1_2);
                let mut w = MessageWriter::request(enc, &h).unwrap();
                w.body().write_i32(id as i32);
                w.body().write_octet_seq(&vec![1u8; PADDING]).unwrap();
                writer.write_all(&w.finish().unwrap()).unwrap();
            }
        });
        let mut peak = 0;
        let filled = eventually(TIMEOUT, || {
            let now = f.server.stats().buffered_bytes;
            peak = peak.max(now);
            assert!(now <= BUDGET, "{}: holds {now}", f.what);
            now + 2 * PADDING > BUDGET
        });
        assert!(
            filled,
            "{}: the queue was not charged (peak {peak})",
            f.what
        );
        assert!(holder.recorded().is_empty(), "{}", f.what);
        holder.hold().open();
        // Every request is acknowledged, in order, and runs.
        for id in 0..REQUESTS {
            let m: Message = rtorb_test_support::net::read_message(&mut raw);
            let Content::Reply(r) = &m.content else {
                panic!("{}: {m:?}", f.what);
            };
            assert_eq!(
                (r.header.request_id, r.header.reply_status),
                (id, ReplyStatus::NoException),
                "{}",
                f.what
            );
        }
        sender.join().unwrap();
        assert!(
            eventually(TIMEOUT, || holder.recorded().len() == REQUESTS as usize),
            "{}: {:?}",
            f.what,
            holder.recorded()
        );
        // One after the other, in the order sent.
        assert_eq!(holder.recorded(), (0..REQUESTS).collect::<Vec<_>>());
        f.holds_nothing();
        f.served(2);
        f.server.shutdown();
    }
}
