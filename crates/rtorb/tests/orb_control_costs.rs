//! What a `CancelRequest` and a `LocateRequest` cost the server, under
//! every strategy: no heap allocation each (a flood of them costs reads,
//! decoding and, for `LocateRequest`, the write of the reply). Counted by a
//! global allocator that wraps the system one, over the whole process less
//! the client's threads; the test runs alone in its binary.

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;

use bytes::Bytes;
use rtorb::orb::{Orb, ServerStrategy};
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::encode_message;
use rtorb_giop::message::{CancelRequest, Content, LocateRequest, Message};
use rtorb_giop::target::TargetAddress;
use rtorb_test_support::TIMEOUT;
use rtorb_test_support::alloc::{
    CountingAllocator, start_counting, stop_counting, thread_allocations,
};
use rtorb_test_support::cubit;
use rtorb_test_support::net::socket_path;

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Messages of each kind sent.
const MESSAGES: usize = 5000;
/// Messages sent at once: their replies fit in the socket's buffer.
const BATCH: u32 = 100;
/// The length of a GIOP 1.2 `LocateReply` without a body.
const LOCATE_REPLY_LEN: usize = 20;

fn message(content: Content) -> Bytes {
    encode_message(&Message::new(Version::V1_2, ByteOrder::Big, content)).unwrap()
}

fn locate(request_id: u32) -> Bytes {
    message(Content::LocateRequest(LocateRequest {
        request_id,
        target: TargetAddress::Key(Bytes::from_static(b"Cubit")),
    }))
}

/// Sends `batches` one after the other (each pipelined, each followed by
/// a `LocateRequest`), reading the replies to each (`replies` per batch,
/// the last one's included) before the next, so that they never wait in
/// the server for room in the socket: allocations of the process less the
/// client's, per message.
fn allocations_per_message(path: &str, batches: &[Vec<u8>], replies: usize) -> f64 {
    let mut s = UnixStream::connect(path).unwrap();
    s.set_read_timeout(Some(TIMEOUT)).unwrap();
    let sync = locate(1);
    let mut buf = vec![0u8; replies * LOCATE_REPLY_LEN];
    // The connection is served before counting starts.
    s.write_all(&sync).unwrap();
    s.read_exact(&mut buf[..LOCATE_REPLY_LEN]).unwrap();
    let before = thread_allocations();
    start_counting();
    for batch in batches {
        s.write_all(batch).unwrap();
        s.write_all(&sync).unwrap();
        s.read_exact(&mut buf).unwrap();
    }
    let all = stop_counting().total();
    let mine = thread_allocations() - before;
    let messages = batches.len() * (BATCH as usize + 1);
    all.saturating_sub(mine) as f64 / messages as f64
}

#[test]
fn cancel_and_locate_requests_allocate_nothing_on_the_server() {
    let cancels: Vec<Vec<u8>> = (0..MESSAGES as u32 / BATCH)
        .map(|b| {
            (b * BATCH..(b + 1) * BATCH)
                .flat_map(|i| message(Content::CancelRequest(CancelRequest { request_id: i })))
                .collect()
        })
        .collect();
    let locates: Vec<Vec<u8>> = (0..MESSAGES as u32 / BATCH)
        .map(|b| (b * BATCH..(b + 1) * BATCH).flat_map(locate).collect())
        .collect();
    for strategy in ServerStrategy::ALL {
        let path = socket_path("control");
        let server = Orb::builder()
            .listen(format!("uiop://{path}"))
            .server_strategy(strategy)
            .server_threads(1)
            .build()
            .unwrap();
        cubit::serve(&server);
        let per_cancel = allocations_per_message(&path, &cancels, 1);
        let per_locate = allocations_per_message(&path, &locates, BATCH as usize + 1);
        println!(
            "{strategy}: allocations per CancelRequest {per_cancel}, per LocateRequest {per_locate}"
        );
        // A stray allocation (a connection's buffers settling) is
        // tolerated, not one per message.
        assert!(
            per_cancel < 0.01,
            "{strategy}: {per_cancel} allocations per CancelRequest"
        );
        assert!(
            per_locate < 0.01,
            "{strategy}: {per_locate} allocations per LocateRequest"
        );
        server.shutdown();
    }
}
