//! The machine fed octets, with no socket and the time set by the test.

use std::time::Duration;

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, Encoding, Version};
use rtorb_giop::message::{
    Content, LocateRequest, Message, MessageWriter, ReplyStatus, RequestHeader,
};
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{decode_message, encode_lite, encode_message, fragment_message};

use super::super::linger::{DISCARD_LIMIT, LINGER};
use super::*;
use crate::orb::OrbConfig;

fn limits() -> ServerLimits {
    ServerLimits::from_config(&OrbConfig::default())
}

/// A nonblocking machine opened at `t0`, with `limits`, and its budget.
fn machine_with(limits: ServerLimits, t0: Instant) -> (Machine, Arc<MemoryBudget>) {
    let budget = Arc::new(MemoryBudget::new(limits.memory_budget));
    let m = Machine::new(FrameProtocol::Giop, false, limits, &budget, t0);
    (m, budget)
}

fn machine(t0: Instant) -> Machine {
    machine_with(limits(), t0).0
}

/// Feeds `octets` as the transport would hand them out, read by read.
fn feed(m: &mut Machine, mut octets: &[u8]) {
    while !octets.is_empty() {
        let n = m
            .receive_with(|room| {
                let n = room.len().min(octets.len());
                room[..n].copy_from_slice(&octets[..n]);
                Ok(n)
            })
            .unwrap();
        assert!(n > 0);
        octets = &octets[n..];
    }
}

fn poll_at(m: &mut Machine, at: Instant) -> Poll {
    m.poll(&mut Now::at(at), false, false)
}

/// A GIOP `version` big-endian twoway `Request` `id` to `key`, with a
/// body of `body` zeros.
fn request(version: Version, id: u32, body: usize) -> Bytes {
    let encoding = Encoding::native()
        .with_order(ByteOrder::Big)
        .with_version(version);
    let header = RequestHeader::new(id, Bytes::from_static(b"key"), "op");
    let mut w = MessageWriter::request(encoding, &header).unwrap();
    for _ in 0..body {
        w.body().write_u8(0);
    }
    w.finish().unwrap()
}

fn locate(version: Version, id: u32) -> Bytes {
    encode_message(&Message::new(
        version,
        ByteOrder::Big,
        Content::LocateRequest(LocateRequest {
            request_id: id,
            target: TargetAddress::Key(Bytes::from_static(b"key")),
        }),
    ))
    .unwrap()
}

/// The messages queued to be written, taken from the queue.
fn written(m: &mut Machine) -> Vec<Message> {
    let mut all = Vec::new();
    let queue = m.output().queue_mut();
    while !queue.is_empty() {
        let mut sink = Collect(Vec::new());
        queue.write_to(&mut sink).unwrap();
        all.extend_from_slice(&sink.0);
    }
    let mut all = Bytes::from(all);
    let mut messages = Vec::new();
    while all.len() >= 12 {
        let size = u32::from_be_bytes([all[8], all[9], all[10], all[11]]);
        let size = if all[6] & 1 == 1 {
            u32::from_le_bytes([all[8], all[9], all[10], all[11]])
        } else {
            size
        };
        messages.push(decode_message(all.split_to(12 + size as usize)).unwrap());
    }
    assert!(all.is_empty());
    messages
}

/// A transport that collects what is written to it.
#[derive(Debug)]
struct Collect(Vec<u8>);

impl std::os::fd::AsRawFd for Collect {
    fn as_raw_fd(&self) -> std::os::fd::RawFd {
        -1
    }
}

impl crate::transport::Transport for Collect {
    fn protocol(&self) -> &'static str {
        "collect"
    }
    fn messaging(&self) -> FrameProtocol {
        FrameProtocol::Giop
    }
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        Ok(0)
    }
    fn writev(&mut self, bufs: &[std::io::IoSlice<'_>]) -> std::io::Result<usize> {
        let mut n = 0;
        for b in bufs {
            self.0.extend_from_slice(b);
            n += b.len();
        }
        Ok(n)
    }
    fn shutdown(&mut self, _: std::net::Shutdown) -> std::io::Result<()> {
        Ok(())
    }
    fn peer(&self) -> String {
        "collect".into()
    }
    fn set_nonblocking(&mut self, _: bool) -> std::io::Result<()> {
        Ok(())
    }
    fn set_read_timeout(&mut self, _: Option<Duration>) -> std::io::Result<()> {
        Ok(())
    }
    fn set_write_timeout(&mut self, _: Option<Duration>) -> std::io::Result<()> {
        Ok(())
    }
}

/// The frame of a [`Poll::Dispatch`] of a message as framed.
fn dispatched_frame(p: Poll) -> Bytes {
    match p {
        Poll::Dispatch(Received::Framed(frame, _)) => frame,
        p => panic!("{p:?}"),
    }
}

#[test]
fn a_request_is_dispatched_once_whole_however_it_arrives() {
    let t0 = Instant::now();
    let mut m = machine(t0);
    assert!(matches!(poll_at(&mut m, t0), Poll::Read));
    let r = request(Version::V1_2, 1, 8);
    feed(&mut m, &r[..5]);
    assert!(matches!(poll_at(&mut m, t0), Poll::Read));
    assert!(!m.quiet(), "part of a message is held");
    feed(&mut m, &r[5..]);
    assert_eq!(dispatched_frame(poll_at(&mut m, t0)), r);
    assert!(!m.completed());
    m.dispatched(&mut Now::at(t0), Next::Continue);
    assert!(m.completed());
    assert!(m.quiet());
    assert!(matches!(poll_at(&mut m, t0), Poll::Read));
    assert_eq!(m.state(), State::Open);
}

#[test]
fn pipelined_requests_come_out_in_order_and_wait_for_a_turn_with_budget() {
    let t0 = Instant::now();
    let mut m = machine(t0);
    let (a, b) = (request(Version::V1_2, 1, 0), locate(Version::V1_1, 2));
    feed(&mut m, &[&a[..], &b[..]].concat());
    assert_eq!(dispatched_frame(poll_at(&mut m, t0)), a);
    m.dispatched(&mut Now::at(t0), Next::Continue);
    // The turn's budget is spent: the next one waits, untaken.
    assert!(matches!(m.poll(&mut Now::at(t0), true, false), Poll::More));
    assert_eq!(m.buffered(), b.len());
    assert_eq!(dispatched_frame(poll_at(&mut m, t0)), b);
}

#[test]
fn a_request_in_fragments_is_dispatched_decoded_and_its_memory_given_back() {
    let t0 = Instant::now();
    let (mut m, budget) = machine_with(limits(), t0);
    let whole = request(Version::V1_2, 7, 3000);
    let pieces = fragment_message(&whole, 1024).unwrap();
    assert!(pieces.len() > 2);
    let (last, first) = pieces.split_last().unwrap();
    for piece in first {
        feed(&mut m, piece);
        assert!(matches!(poll_at(&mut m, t0), Poll::Handled));
        assert!(m.reassembling());
        assert!(!m.quiet());
    }
    assert!(budget.used() > 0, "the fragments held are charged");
    feed(&mut m, last);
    let Poll::Dispatch(Received::Decoded(msg, _)) = poll_at(&mut m, t0) else {
        panic!("not a decoded request");
    };
    let Content::Request(r) = &msg.content else {
        panic!("{msg:?}");
    };
    assert_eq!(r.header.request_id, 7);
    drop(msg);
    m.dispatched(&mut Now::at(t0), Next::Continue);
    assert!(!m.reassembling());
    assert!(m.completed());
    assert_eq!(budget.used(), 0);
}

#[test]
fn garbage_closes_the_connection_with_message_error() {
    let t0 = Instant::now();
    let mut m = machine(t0);
    feed(&mut m, b"GARBAGE GARBAGE GARBAGE");
    assert!(matches!(poll_at(&mut m, t0), Poll::Close));
    assert_eq!(m.state(), State::Closing);
    // A closing connection reads nothing more.
    assert!(matches!(poll_at(&mut m, t0), Poll::Close));
    let out = written(&mut m);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].content, Content::MessageError);
}

#[test]
fn messages_of_the_peer_that_are_no_requests_are_handled_by_the_machine() {
    let t0 = Instant::now();
    // A `CancelRequest` is ignored.
    let mut m = machine(t0);
    let cancel = Message::new(
        Version::V1_2,
        ByteOrder::Big,
        Content::CancelRequest(rtorb_giop::message::CancelRequest { request_id: 1 }),
    );
    feed(&mut m, &encode_message(&cancel).unwrap());
    assert!(matches!(poll_at(&mut m, t0), Poll::Handled));
    assert!(matches!(poll_at(&mut m, t0), Poll::Read));
    // The peer's `CloseConnection` closes, without a message.
    let close = Message::new(Version::V1_2, ByteOrder::Big, Content::CloseConnection);
    feed(&mut m, &encode_message(&close).unwrap());
    assert!(matches!(poll_at(&mut m, t0), Poll::Handled));
    assert!(matches!(poll_at(&mut m, t0), Poll::Close));
    assert!(written(&mut m).is_empty());
    // A `Reply` from a client is answered with `MessageError`.
    let mut m = machine(t0);
    let header = rtorb_giop::message::ReplyHeader::new(1, ReplyStatus::NoException);
    let reply = MessageWriter::reply(Encoding::native(), &header)
        .unwrap()
        .finish()
        .unwrap();
    feed(&mut m, &reply);
    assert!(matches!(poll_at(&mut m, t0), Poll::Handled));
    assert!(matches!(poll_at(&mut m, t0), Poll::Close));
    assert_eq!(written(&mut m)[0].content, Content::MessageError);
}

#[test]
fn a_giop_lite_request_is_dispatched() {
    let t0 = Instant::now();
    let budget = Arc::new(MemoryBudget::new(usize::MAX));
    let mut m = Machine::new(FrameProtocol::Lite, false, limits(), &budget, t0);
    let msg = decode_message(request(Version::V1_2, 3, 4)).unwrap();
    let lite = encode_lite(&msg).unwrap();
    feed(&mut m, &lite);
    assert_eq!(dispatched_frame(poll_at(&mut m, t0)), lite);
}

#[test]
fn an_oversize_header_is_refused_before_anything_is_buffered_for_it() {
    let t0 = Instant::now();
    let (mut m, budget) = machine_with(limits(), t0);
    // A GIOP 1.2 request announcing 32 MiB, over the largest message.
    let mut start = b"GIOP\x01\x02\x00\x00".to_vec();
    start.extend_from_slice(&(32u32 << 20).to_be_bytes());
    start.extend_from_slice(&9u32.to_be_bytes());
    feed(&mut m, &start);
    // Answered, then lingering, its turn after the others'.
    assert!(matches!(poll_at(&mut m, t0), Poll::More));
    assert_eq!(m.state(), State::Lingering);
    assert!(m.refused());
    let out = written(&mut m);
    m.output().recharge();
    assert_eq!(budget.used(), 0, "nothing held for the message");
    let Content::Reply(r) = &out[0].content else {
        panic!("{out:?}");
    };
    assert_eq!(
        (r.header.request_id, r.header.reply_status),
        (9, ReplyStatus::SystemException)
    );
    assert_eq!(out[1].content, Content::CloseConnection);
    // Its side of the stream ends, then what arrives is read away...
    assert!(matches!(poll_at(&mut m, t0), Poll::ShutWrite));
    assert!(matches!(poll_at(&mut m, t0), Poll::Read));
    let n = m.receive_with(|room| Ok(room.len())).unwrap();
    assert!(n > 0 && n <= DISCARD_LIMIT);
    assert_eq!(m.buffered(), start.len(), "read away, not buffered");
    // ...until the peer ends its stream, or the linger deadline.
    assert_eq!(m.poll_timeout(), Some(t0 + LINGER));
    assert!(matches!(poll_at(&mut m, t0 + LINGER), Poll::Close));
}

#[test]
fn a_blocking_connection_refuses_and_closes_at_once() {
    let t0 = Instant::now();
    let budget = Arc::new(MemoryBudget::new(usize::MAX));
    let mut m = Machine::new(FrameProtocol::Giop, true, limits(), &budget, t0);
    let mut start = b"GIOP\x01\x02\x00\x00".to_vec();
    start.extend_from_slice(&(32u32 << 20).to_be_bytes());
    start.extend_from_slice(&9u32.to_be_bytes());
    feed(&mut m, &start);
    assert!(matches!(poll_at(&mut m, t0), Poll::Close));
    assert!(m.refused());
    let out = written(&mut m);
    assert!(matches!(out[0].content, Content::Reply(_)));
    assert_eq!(out[1].content, Content::CloseConnection);
}

#[test]
fn a_message_over_the_memory_budget_is_refused_with_no_memory() {
    let t0 = Instant::now();
    let mut limits = limits();
    limits.memory_budget = 64 * 1024;
    let (mut m, budget) = machine_with(limits, t0);
    let large = request(Version::V1_2, 4, 100 * 1024);
    feed(&mut m, &large[..4096]);
    assert!(matches!(poll_at(&mut m, t0), Poll::More));
    assert_eq!(m.state(), State::Lingering);
    let out = written(&mut m);
    m.output().recharge();
    assert_eq!(budget.used(), 0, "nothing held for the message");
    let Content::Reply(r) = &out[0].content else {
        panic!("{out:?}");
    };
    assert_eq!(r.header.request_id, 4);
    // A message that is no request is refused with `MessageError`.
    let (mut m, _) = machine_with(limits, t0);
    let mut header = b"GIOP\x01\x02\x00\x03".to_vec();
    header.extend_from_slice(&(100u32 * 1024).to_be_bytes());
    feed(&mut m, &header);
    assert!(matches!(poll_at(&mut m, t0), Poll::More));
    assert_eq!(written(&mut m)[0].content, Content::MessageError);
}

#[test]
fn part_of_a_message_held_past_the_incomplete_message_timeout_closes() {
    let t0 = Instant::now();
    let mut m = machine(t0);
    let timeout = limits().incomplete_message_timeout;
    let r = request(Version::V1_2, 1, 8);
    feed(&mut m, &r[..10]);
    assert!(matches!(poll_at(&mut m, t0), Poll::Read));
    assert_eq!(m.poll_timeout(), Some(t0 + timeout));
    assert_eq!(m.read_deadline(), Some(t0 + timeout));
    // More octets of it are no progress: the clock runs on.
    feed(&mut m, &r[10..20]);
    let almost = t0 + timeout - Duration::from_millis(1);
    assert!(matches!(poll_at(&mut m, almost), Poll::Read));
    assert!(matches!(poll_at(&mut m, t0 + timeout), Poll::Close));
    assert_eq!(m.state(), State::Closing);
    assert!(written(&mut m).is_empty(), "closed without a message");
}

#[test]
fn the_incomplete_message_clock_starts_again_at_every_whole_message() {
    let t0 = Instant::now();
    let mut m = machine(t0);
    let timeout = limits().incomplete_message_timeout;
    let (a, b) = (request(Version::V1_2, 1, 8), request(Version::V1_2, 2, 8));
    feed(&mut m, &a[..10]);
    assert!(matches!(poll_at(&mut m, t0), Poll::Read));
    // The first completes just before its timeout, with part of the next.
    let t1 = t0 + timeout - Duration::from_millis(1);
    feed(&mut m, &[&a[10..], &b[..10]].concat());
    assert_eq!(dispatched_frame(poll_at(&mut m, t1)), a);
    m.dispatched(&mut Now::at(t1), Next::Continue);
    assert!(matches!(poll_at(&mut m, t1), Poll::Read));
    // The next is timed from then.
    assert!(matches!(poll_at(&mut m, t0 + timeout), Poll::Read));
    assert_eq!(m.poll_timeout(), Some(t1 + timeout));
    assert!(matches!(poll_at(&mut m, t1 + timeout), Poll::Close));
}

#[test]
fn a_quiet_connection_closes_with_close_connection_at_its_idle_timeout() {
    let t0 = Instant::now();
    let idle = Duration::from_secs(5);
    let mut limits = limits();
    limits.idle_timeout = Some(idle);
    let (mut m, _) = machine_with(limits, t0);
    assert_eq!(m.poll_timeout(), Some(t0 + idle));
    // A message completed starts the idle clock again.
    feed(&mut m, &locate(Version::V1_1, 1));
    let t1 = t0 + Duration::from_secs(4);
    dispatched_frame(poll_at(&mut m, t1));
    m.dispatched(&mut Now::at(t1), Next::Continue);
    assert!(matches!(poll_at(&mut m, t0 + idle), Poll::Read));
    assert_eq!(m.poll_timeout(), Some(t1 + idle));
    assert!(matches!(poll_at(&mut m, t1 + idle), Poll::Close));
    let out = written(&mut m);
    assert_eq!(out.len(), 1);
    assert_eq!(
        (out[0].version, out[0].content.clone()),
        (Version::V1_1, Content::CloseConnection)
    );
}

#[test]
fn the_peer_s_end_of_stream_drains_the_replies_queued_then_closes() {
    let t0 = Instant::now();
    let mut m = machine(t0);
    m.end_of_stream();
    assert!(matches!(poll_at(&mut m, t0), Poll::Close));
    assert!(written(&mut m).is_empty());
    // With a reply still queued: it is written first.
    let mut m = machine(t0);
    m.output().push(locate(Version::V1_2, 1));
    m.end_of_stream();
    assert_eq!(m.state(), State::Draining);
    assert!(matches!(poll_at(&mut m, t0), Poll::Paused));
    assert_eq!(written(&mut m).len(), 1);
    assert!(matches!(poll_at(&mut m, t0), Poll::Close));
}

#[test]
fn replies_queued_past_the_bound_pause_the_input() {
    let t0 = Instant::now();
    let mut m = machine(t0);
    let bound = limits().max_output_buffer;
    m.output().push(Bytes::from(vec![0u8; bound + 1]));
    feed(&mut m, &locate(Version::V1_2, 1));
    assert!(matches!(poll_at(&mut m, t0), Poll::Paused));
    assert_eq!(m.buffered(), locate(Version::V1_2, 1).len(), "not read on");
}

#[test]
fn shutdown_sends_close_connection_in_the_version_last_received() {
    let t0 = Instant::now();
    let mut m = machine(t0);
    m.shut_down();
    assert_eq!(written(&mut m)[0].version, Version::V1_0);
    let mut m = machine(t0);
    feed(&mut m, &locate(Version::V1_1, 1));
    dispatched_frame(poll_at(&mut m, t0));
    m.dispatched(&mut Now::at(t0), Next::Continue);
    m.shut_down();
    assert!(matches!(poll_at(&mut m, t0), Poll::Close));
    let out = written(&mut m);
    assert_eq!(
        (out[0].version, out[0].content.clone()),
        (Version::V1_1, Content::CloseConnection)
    );
}

#[test]
fn reading_ahead_tells_of_a_message_without_taking_it() {
    let t0 = Instant::now();
    let mut m = machine(t0);
    let r = request(Version::V1_2, 5, 8);
    feed(&mut m, &r[..20]);
    assert!(matches!(m.poll(&mut Now::at(t0), false, true), Poll::Read));
    feed(&mut m, &r[20..]);
    let Poll::Ahead { header, whole } = m.poll(&mut Now::at(t0), false, true) else {
        panic!("not read ahead");
    };
    assert!(whole);
    assert_eq!(header.message_len(), r.len());
    assert_eq!(m.buffered(), r.len(), "not taken");
    // Refused: answered with the refusal, and gone.
    let refusal = SystemException::new(SystemExceptionKind::Transient, 0, CompletionStatus::No);
    assert_eq!(m.refuse_next(&mut Now::at(t0), &refusal), Refusal::Answered);
    assert_eq!(m.buffered(), 0);
    assert!(m.completed());
    let out = written(&mut m);
    let Content::Reply(reply) = &out[0].content else {
        panic!("{out:?}");
    };
    assert_eq!(reply.header.request_id, 5);
    // A message larger than what is read ahead: told of at its header.
    let large = request(Version::V1_2, 6, 64 * 1024);
    feed(&mut m, &large[..100]);
    let Poll::Ahead { whole, .. } = m.poll(&mut Now::at(t0), false, true) else {
        panic!("not told of a large message");
    };
    assert!(!whole);
}
