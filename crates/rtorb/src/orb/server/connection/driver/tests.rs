//! The connection with its driver, over a socket pair: what the peer
//! receives. The machine alone, fed octets, is tested in
//! `machine/tests.rs`.

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::sync::Arc;

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::message::{Content, LocateRequest, Message};
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{FrameProtocol, decode_message, encode_message};

use super::*;
use crate::object::NoInvoker;
use crate::orb::OrbConfig;
use crate::orb::server::limits::ServerLimits;
use crate::poa::adapter_table::AdapterTable;
use crate::transport::UnixTransport;

fn core() -> Arc<ServerCore> {
    Arc::new(ServerCore::new(
        ServerLimits::from_config(&OrbConfig::default()),
        Arc::new(NoInvoker),
        AdapterTable::new(16),
    ))
}

/// A nonblocking server connection, and its peer.
fn pair(core: &ServerCore) -> (Connection, UnixStream) {
    let (server, peer) = UnixStream::pair().unwrap();
    let transport =
        UnixTransport::from_socket(server, "uiop", FrameProtocol::Giop, "peer".into()).unwrap();
    let conn = Connection::new(core, Box::new(transport), false).unwrap();
    peer.set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    (conn, peer)
}

fn locate(version: Version) -> Bytes {
    locate_key(version, Bytes::from_static(b"none"))
}

fn locate_key(version: Version, key: Bytes) -> Bytes {
    encode_message(&Message::new(
        version,
        ByteOrder::Big,
        Content::LocateRequest(LocateRequest {
            request_id: 1,
            target: TargetAddress::Key(key),
        }),
    ))
    .unwrap()
}

#[test]
fn only_a_closed_peer_with_nothing_sent_is_only_end_of_stream() {
    let core = core();
    let (conn, peer) = pair(&core);
    // Open and silent: not the end.
    assert!(!conn.only_end_of_stream());
    drop(peer);
    assert!(conn.only_end_of_stream());
    // Octets waiting before the end: a message to handle first.
    let (conn, mut peer) = pair(&core);
    peer.write_all(b"GIOP").unwrap();
    drop(peer);
    assert!(!conn.only_end_of_stream());
}

#[test]
fn a_large_message_is_charged_until_handled_and_its_room_freed() {
    let core = core();
    let (mut conn, mut peer) = pair(&core);
    let large = locate_key(Version::V1_2, Bytes::from(vec![7u8; 200_000]));
    // The header and part of the body: charged at the announced length.
    peer.write_all(&large[..40_000]).unwrap();
    assert_eq!(conn.turn(&core, usize::MAX, None), Progress::Idle);
    assert_eq!(core.buffered_bytes(), large.len());
    // The rest: handled, released, and the room made for it freed.
    let mut writer = peer.try_clone().unwrap();
    let rest = large.slice(40_000..);
    let sender = std::thread::spawn(move || writer.write_all(&rest).unwrap());
    while core.buffered_bytes() != 0 {
        assert_eq!(conn.turn(&core, usize::MAX, None), Progress::Idle);
    }
    sender.join().unwrap();
    // A small message after it is received in room of its own size.
    peer.write_all(&locate(Version::V1_2)).unwrap();
    assert_eq!(conn.turn(&core, usize::MAX, None), Progress::Idle);
    assert!(
        conn.machine.capacity() < 64 * 1024,
        "{}",
        conn.machine.capacity()
    );
    conn.shut_down(&core);
    let messages = received(&mut peer);
    assert_eq!(messages.len(), 3);
    assert!(matches!(messages[0].content, Content::LocateReply(_)));
}

/// The messages the peer receives until the connection closes.
fn received(peer: &mut UnixStream) -> Vec<Message> {
    let mut all = Vec::new();
    peer.read_to_end(&mut all).unwrap();
    let mut all = Bytes::from(all);
    let mut messages = Vec::new();
    while all.len() >= 12 {
        let size = [all[8], all[9], all[10], all[11]];
        let size = if all[6] & 1 == 1 {
            u32::from_le_bytes(size)
        } else {
            u32::from_be_bytes(size)
        };
        let one = all.split_to(12 + size as usize);
        messages.push(decode_message(one).unwrap());
    }
    assert!(all.is_empty());
    messages
}

#[test]
fn shutdown_closes_an_open_connection_in_its_giop_version() {
    let core = core();
    let (mut conn, mut peer) = pair(&core);
    assert_eq!(conn.state(), State::Open);
    peer.write_all(&locate(Version::V1_1)).unwrap();
    assert_eq!(conn.turn(&core, usize::MAX, None), Progress::Idle);
    assert_eq!(conn.state(), State::Open);
    core.stop();
    assert_eq!(conn.turn(&core, usize::MAX, None), Progress::Close);
    assert_eq!(conn.state(), State::Closing);
    conn.close(&core);
    assert_eq!(conn.state(), State::Closed);
    // Closing again does nothing.
    conn.close(&core);
    let messages = received(&mut peer);
    assert_eq!(messages.len(), 2);
    assert!(matches!(messages[0].content, Content::LocateReply(_)));
    assert_eq!(messages[1].content, Content::CloseConnection);
    assert!(messages.iter().all(|m| m.version == Version::V1_1));
}

#[test]
fn malformed_input_closes_with_message_error() {
    let core = core();
    let (mut conn, mut peer) = pair(&core);
    peer.write_all(b"GIOP\x01\x02\x00\x63\x00\x00\x00\x00")
        .unwrap();
    assert_eq!(conn.turn(&core, usize::MAX, None), Progress::Close);
    assert_eq!(conn.state(), State::Closing);
    // A closing connection reads nothing more.
    assert_eq!(conn.turn(&core, usize::MAX, None), Progress::Close);
    conn.close(&core);
    let messages = received(&mut peer);
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].content, Content::MessageError);
}

#[test]
fn the_peer_s_end_of_stream_closes_without_a_message() {
    let core = core();
    let (mut conn, mut peer) = pair(&core);
    peer.shutdown(std::net::Shutdown::Write).unwrap();
    conn.set_read_closed();
    assert_eq!(conn.turn(&core, usize::MAX, None), Progress::Close);
    conn.close(&core);
    assert!(received(&mut peer).is_empty());
}

#[test]
fn shut_down_sends_close_connection_in_giop_1_0_before_any_message() {
    let core = core();
    let (mut conn, mut peer) = pair(&core);
    conn.shut_down(&core);
    assert_eq!(conn.state(), State::Closed);
    let messages = received(&mut peer);
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].content, Content::CloseConnection);
    assert_eq!(messages[0].version, Version::V1_0);
}

/// A peer that always has more to send: the header of a request over the
/// largest message, then zeros without end. The test keeps a clone, to
/// read its counts.
#[derive(Debug, Default, Clone)]
struct Source {
    /// Octets handed out.
    read: Arc<std::sync::atomic::AtomicUsize>,
    /// Times the server's side was shut.
    write_shut: Arc<std::sync::atomic::AtomicUsize>,
}

impl Source {
    fn counts(&self) -> (usize, usize) {
        use std::sync::atomic::Ordering::SeqCst;
        (self.read.load(SeqCst), self.write_shut.load(SeqCst))
    }
}

/// A GIOP 1.2 request of 32 MiB, over the largest message, id 9.
fn refused_request_start() -> Vec<u8> {
    let mut start = b"GIOP\x01\x02\x00\x00".to_vec();
    start.extend_from_slice(&(32u32 << 20).to_be_bytes());
    start.extend_from_slice(&9u32.to_be_bytes());
    start
}

impl std::os::fd::AsRawFd for Source {
    fn as_raw_fd(&self) -> std::os::fd::RawFd {
        -1
    }
}

impl Transport for Source {
    fn protocol(&self) -> &'static str {
        "source"
    }
    fn messaging(&self) -> FrameProtocol {
        FrameProtocol::Giop
    }
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let start = refused_request_start();
        let at = self
            .read
            .fetch_add(buf.len(), std::sync::atomic::Ordering::SeqCst);
        for (i, b) in buf.iter_mut().enumerate() {
            *b = start.get(at + i).copied().unwrap_or(0);
        }
        Ok(buf.len())
    }
    fn writev(&mut self, bufs: &[std::io::IoSlice<'_>]) -> std::io::Result<usize> {
        Ok(bufs.iter().map(|b| b.len()).sum())
    }
    fn shutdown(&mut self, how: std::net::Shutdown) -> std::io::Result<()> {
        if how == std::net::Shutdown::Write {
            self.write_shut
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        Ok(())
    }
    fn peer(&self) -> String {
        "source".into()
    }
    fn set_nonblocking(&mut self, _: bool) -> std::io::Result<()> {
        Ok(())
    }
    fn set_read_timeout(&mut self, _: Option<std::time::Duration>) -> std::io::Result<()> {
        Ok(())
    }
    fn set_write_timeout(&mut self, _: Option<std::time::Duration>) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_lingering_turn_reads_away_a_bounded_amount_and_the_whole_a_bounded_total() {
    use super::super::linger::{DISCARD_LIMIT, SCRATCH};
    const MOST: usize = 64 * 1024;
    let core = core();
    let source = Source::default();
    let mut conn = Connection::new(&core, Box::new(source.clone()), false).unwrap();
    // The refusal: lingering, its turn after the others'.
    assert_eq!(
        conn.turn(&core, MOST / OCTETS_PER_COST, None),
        Progress::More
    );
    assert_eq!(conn.state(), State::Lingering);
    let (refused_at, _) = source.counts();
    let mut before = refused_at;
    let mut turns = 0;
    loop {
        let progress = conn.turn(&core, MOST / OCTETS_PER_COST, None);
        let (read, _) = source.counts();
        assert!(
            read - before <= MOST + SCRATCH,
            "a turn read {}",
            read - before
        );
        before = read;
        turns += 1;
        match progress {
            Progress::More => {}
            Progress::Idle => break,
            p => panic!("{p:?} before its deadline"),
        }
    }
    let (read, write_shut) = source.counts();
    assert_eq!(read - refused_at, DISCARD_LIMIT);
    assert_eq!(turns, DISCARD_LIMIT / MOST);
    assert_eq!(write_shut, 1, "the server's side ends once");
    // Nothing more is read: the peer's end of stream (or the deadline)
    // closes it.
    assert_eq!(
        conn.turn(&core, MOST / OCTETS_PER_COST, None),
        Progress::Idle
    );
    assert_eq!(source.counts().0, read);
    conn.set_read_closed();
    assert_eq!(
        conn.turn(&core, MOST / OCTETS_PER_COST, None),
        Progress::Close
    );
}

#[test]
fn a_refused_peer_that_goes_on_sending_reads_the_answer_and_an_orderly_end() {
    use rtorb_giop::FrameDecoder;
    use rtorb_giop::message::ReplyStatus;
    use std::time::Duration;

    let core = core();
    let (server, mut peer) = UnixStream::pair().unwrap();
    let transport =
        UnixTransport::from_socket(server, "uiop", FrameProtocol::Giop, "peer".into()).unwrap();
    let mut conn = Connection::new(&core, Box::new(transport), false).unwrap();
    peer.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    // A GIOP 1.2 request of 32 MiB, over the largest message, id 9; its
    // body sent without end until the server closes.
    peer.write_all(&refused_request_start()).unwrap();
    let mut writer = peer.try_clone().unwrap();
    let sender = std::thread::spawn(move || {
        let chunk = [0u8; 8192];
        while writer.write_all(&chunk).is_ok() {}
    });
    // The refusal: not closed at once, but lingering, its turn after the
    // others'.
    let per_turn = crate::orb::server::MESSAGES_PER_TURN;
    assert_eq!(conn.turn(&core, per_turn, None), Progress::More);
    assert_eq!(conn.state(), State::Lingering);
    // The peer reads the answer and the end of the server's stream, while
    // it is still sending, as the turns read away what it sends.
    let reader = std::thread::spawn(move || {
        let mut all = Vec::new();
        let end = peer.read_to_end(&mut all).map(|_| all);
        (peer, end)
    });
    while !reader.is_finished() {
        match conn.turn(&core, per_turn, None) {
            Progress::More | Progress::Idle => {}
            p => panic!("{p:?} before the peer had read the answer"),
        }
    }
    let (peer, end) = reader.join().unwrap();
    let all = end.expect("an orderly end of stream");
    let mut decoder = FrameDecoder::with_max_message_size(FrameProtocol::Giop, u32::MAX);
    decoder.push(&all).unwrap();
    let reply = decode_message(decoder.next_frame().unwrap().unwrap()).unwrap();
    let Content::Reply(r) = &reply.content else {
        panic!("{reply:?}");
    };
    assert_eq!(r.header.request_id, 9);
    assert_eq!(r.header.reply_status, ReplyStatus::SystemException);
    let close = decode_message(decoder.next_frame().unwrap().unwrap()).unwrap();
    assert_eq!(close.content, Content::CloseConnection);
    assert_eq!(decoder.buffered(), 0);
    // The peer closes: so does the server.
    peer.shutdown(std::net::Shutdown::Both).unwrap();
    drop(peer);
    sender.join().unwrap();
    conn.set_read_closed();
    while conn.turn(&core, per_turn, None) != Progress::Close {}
    conn.close(&core);
    assert_eq!(conn.state(), State::Closed);
}
