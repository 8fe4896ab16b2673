//! What a client that speaks GIOP itself sees of `SYNC_WITH_SERVER`
//! (GIOP 1.2 `response_flags` 0x01), under every server strategy: each
//! request is acknowledged with an empty `NO_EXCEPTION` reply of its own
//! id when it arrives, while the upcall of the one before it is still
//! blocked; the upcalls then run one after the other in the order sent,
//! and a twoway that follows runs after them.

use std::io::Write;
use std::net::TcpStream;
use std::time::Duration;

use bytes::Bytes;
use rtorb::orb::ServerStrategy;
use rtorb_cdr::{CdrEncode, Encoding, Version};
use rtorb_giop::message::{
    Content, MessageWriter, RESPONSE_WITH_SERVER, RESPONSE_WITH_TARGET, ReplyStatus, RequestHeader,
};
use rtorb_test_support::hold::HeldServant;
use rtorb_test_support::net::{iiop_address, read_message};
use rtorb_test_support::{TIMEOUT, server};

/// A GIOP 1.2 request `id` for `operation(n)` of the [`HeldServant`]
/// under `Held`.
fn request(id: u32, flags: u8, operation: &'static str, n: u32) -> Bytes {
    let mut header = RequestHeader::new(id, Bytes::from_static(b"Held"), operation);
    header.response_flags = flags;
    let mut w =
        MessageWriter::request(Encoding::native().with_version(Version::V1_2), &header).unwrap();
    n.encode(w.body()).unwrap();
    w.finish().unwrap()
}

/// Reads a reply: its id, status and body length.
fn reply(stream: &mut TcpStream) -> (u32, ReplyStatus, usize) {
    let m = read_message(stream);
    assert_eq!(m.version, Version::V1_2);
    match m.content {
        Content::Reply(r) => (r.header.request_id, r.header.reply_status, r.body.len()),
        other => panic!("not a reply: {other:?}"),
    }
}

fn acknowledged_on_receipt(strategy: ServerStrategy) {
    let orb = server::with_strategy(strategy);
    let held = HeldServant::new(TIMEOUT);
    orb.activate_with_key(&b"Held"[..], held.clone()).unwrap();
    let hold = held.hold();
    // Should an assertion fail, the upcalls end and the server shuts down
    // at once.
    let _open = hold.open_when_dropped();
    let mut stream = TcpStream::connect(iiop_address(&orb)).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();

    stream
        .write_all(&request(1, RESPONSE_WITH_SERVER, "hold", 1))
        .unwrap();
    assert_eq!(reply(&mut stream), (1, ReplyStatus::NoException, 0));
    assert!(hold.wait_entered(TIMEOUT), "{strategy}: upcall 1 starts");
    stream
        .write_all(&request(2, RESPONSE_WITH_SERVER, "hold", 2))
        .unwrap();
    // While upcall 1 is blocked (it is released only below).
    assert_eq!(
        reply(&mut stream),
        (2, ReplyStatus::NoException, 0),
        "{strategy}"
    );
    stream
        .write_all(&request(3, RESPONSE_WITH_TARGET, "record", 3))
        .unwrap();
    assert!(
        !hold.wait_entered(Duration::ZERO) && held.recorded().is_empty(),
        "{strategy}: upcall 2 waits for 1"
    );
    hold.open();
    // The twoway's reply comes after the upcalls before it have ended.
    assert_eq!(reply(&mut stream), (3, ReplyStatus::NoException, 0));
    assert_eq!(held.recorded(), [1, 2, 3], "{strategy}: in the order sent");
    assert!(
        hold.wait_entered(Duration::ZERO),
        "{strategy}: upcall 2 ran"
    );
    drop(stream);
    orb.shutdown();
}

#[test]
fn acknowledged_on_receipt_thread_per_connection() {
    acknowledged_on_receipt(ServerStrategy::ThreadPerConnection);
}

#[test]
fn acknowledged_on_receipt_reactive() {
    acknowledged_on_receipt(ServerStrategy::Reactive);
}

#[test]
fn acknowledged_on_receipt_leader_followers() {
    acknowledged_on_receipt(ServerStrategy::LeaderFollowers);
}

/// A `SYNC_WITH_SERVER` request for an object the server lacks is
/// answered with `OBJECT_NOT_EXIST`, not acknowledged.
#[test]
fn an_unknown_object_is_not_acknowledged() {
    let orb = server::orb();
    let mut stream = TcpStream::connect(iiop_address(&orb)).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    stream
        .write_all(&request(9, RESPONSE_WITH_SERVER, "hold", 1))
        .unwrap();
    let (id, status, len) = reply(&mut stream);
    assert_eq!((id, status), (9, ReplyStatus::SystemException));
    assert!(len > 0);
    drop(stream);
    orb.shutdown();
}
