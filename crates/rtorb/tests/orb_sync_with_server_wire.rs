//! What a client that speaks GIOP itself sees of `SYNC_WITH_SERVER`
//! (GIOP 1.2 `response_flags` 0x01), under every server strategy: each
//! request is acknowledged with an empty `NO_EXCEPTION` reply of its own
//! id when it arrives, while the upcall of the one before it is still
//! blocked; the upcalls then run one after the other in the order sent,
//! and a twoway that follows runs after them.

use std::io::Write;
use std::net::TcpStream;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use rtorb::orb::{Orb, ServerStrategy};
use rtorb::runtime::{ServerRequest, Skeleton, SystemException, bad_operation};
use rtorb_cdr::{CdrDecode, CdrEncode, Encoding, Version};
use rtorb_giop::message::{
    Content, MessageWriter, RESPONSE_WITH_SERVER, RESPONSE_WITH_TARGET, ReplyStatus, RequestHeader,
};
use rtorb_test_support::net::{iiop_address, read_message};
use rtorb_test_support::wait::Latch;

/// The bound on every wait of the test (it fails past it).
const TIMEOUT: Duration = Duration::from_secs(20);

/// `hold` reports its start and end and blocks until released; `ping`
/// reports itself and answers.
struct Holder {
    released: Latch,
    reports: Mutex<Sender<String>>,
}

impl Holder {
    fn report(&self, what: String) {
        let _ = self.reports.lock().unwrap().send(what);
    }
}

impl Skeleton for Holder {
    fn repository_ids(&self) -> &'static [&'static str] {
        &["IDL:rtorb/Holder:1.0"]
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        match req.operation() {
            "hold" => {
                let n = i32::decode(req.arguments())?;
                self.report(format!("started {n}"));
                assert!(self.released.wait(TIMEOUT), "never released");
                self.report(format!("ended {n}"));
                Ok(())
            }
            "ping" => {
                self.report("ping".to_owned());
                req.write_results(|e| 1i32.encode(e))
            }
            _ => Err(bad_operation()),
        }
    }
}

fn request(id: u32, flags: u8, operation: &'static str, n: i32) -> Bytes {
    let mut header = RequestHeader::new(id, Bytes::from_static(b"Holder"), operation);
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

fn next(reports: &Receiver<String>) -> String {
    reports
        .recv_timeout(TIMEOUT)
        .expect("a report within the bound")
}

fn acknowledged_on_receipt(strategy: ServerStrategy) {
    let orb = Orb::builder()
        .listen("iiop://127.0.0.1:0")
        .server_strategy(strategy)
        .build()
        .unwrap();
    let (send, reports) = channel();
    let holder = Arc::new(Holder {
        released: Latch::new(1),
        reports: Mutex::new(send),
    });
    orb.activate_with_key(&b"Holder"[..], Arc::clone(&holder) as Arc<dyn Skeleton>)
        .unwrap();
    let mut stream = TcpStream::connect(iiop_address(&orb)).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();

    stream
        .write_all(&request(1, RESPONSE_WITH_SERVER, "hold", 1))
        .unwrap();
    assert_eq!(reply(&mut stream), (1, ReplyStatus::NoException, 0));
    assert_eq!(next(&reports), "started 1");
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
        .write_all(&request(3, RESPONSE_WITH_TARGET, "ping", 0))
        .unwrap();
    assert!(
        reports.try_recv().is_err(),
        "{strategy}: upcall 2 waits for 1"
    );
    holder.released.count_down();
    let (id, status, _) = reply(&mut stream);
    assert_eq!((id, status), (3, ReplyStatus::NoException));
    let order: Vec<String> = (0..4).map(|_| next(&reports)).collect();
    assert_eq!(
        order,
        ["ended 1", "started 2", "ended 2", "ping"],
        "{strategy}: in the order sent"
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
    let orb = Orb::builder().listen("iiop://127.0.0.1:0").build().unwrap();
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
