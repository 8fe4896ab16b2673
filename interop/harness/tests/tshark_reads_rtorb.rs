//! tshark's GIOP dissector, an implementation independent of rtorb, reads
//! the messages rtorb encodes as the GIOP they are: every message type of
//! GIOP 1.0, 1.1 and 1.2 in both byte orders, with the request ids,
//! operations, reply statuses and exception ids rtorb put there.

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, CdrEncode, Encoding, Version};
use rtorb_giop::message::{
    CancelRequest, Content, LocateReply, LocateRequest, LocateStatus, Message, MessageWriter,
    encode_message,
};
use rtorb_giop::{
    CompletionStatus, ReplyHeader, ReplyStatus, RequestHeader, SystemException,
    SystemExceptionKind, TargetAddress, fragment_message,
};
use rtorb_interop::{Direction, tshark_giop_fields};

/// What a test expects tshark to print for one message: type, request id,
/// operation, reply status, exception id (empty where not applicable).
type Row = [String; 5];

fn row(t: u8, id: Option<u32>, op: &str, status: Option<u32>, exid: &str) -> Row {
    [
        t.to_string(),
        id.map(|i| i.to_string()).unwrap_or_default(),
        op.to_owned(),
        status.map(|s| s.to_string()).unwrap_or_default(),
        exid.to_owned(),
    ]
}

fn messages(version: Version, order: ByteOrder) -> (Vec<(Direction, Vec<u8>)>, Vec<Row>) {
    let enc = Encoding::native().with_order(order).with_version(version);
    let key = Bytes::from_static(b"Cubit");
    let mut out = Vec::new();
    let mut want = Vec::new();
    let mut id = 100 + u32::from(version.minor) * 10;

    for op in ["cube_void", "cube_long", "cube_long_sequence"] {
        id += 1;
        let mut w = MessageWriter::request(enc, &RequestHeader::new(id, key.clone(), op)).unwrap();
        match op {
            "cube_long" => w.body().write_i32(1234),
            "cube_long_sequence" => vec![1i32, 2, 3].encode(w.body()).unwrap(),
            _ => {}
        }
        out.push((Direction::ClientToServer, w.finish().unwrap().to_vec()));
        want.push(row(0, Some(id), op, None, ""));

        let mut w =
            MessageWriter::reply(enc, &ReplyHeader::new(id, ReplyStatus::NoException)).unwrap();
        if op == "cube_long" {
            w.body().write_i32(1234i32.wrapping_pow(3));
        }
        out.push((Direction::ServerToClient, w.finish().unwrap().to_vec()));
        want.push(row(1, Some(id), "", Some(0), ""));
    }

    // A system exception reply.
    id += 1;
    let w =
        MessageWriter::request(enc, &RequestHeader::new(id, key.clone(), "cube_octet")).unwrap();
    out.push((Direction::ClientToServer, w.finish().unwrap().to_vec()));
    want.push(row(0, Some(id), "cube_octet", None, ""));
    let mut w =
        MessageWriter::reply(enc, &ReplyHeader::new(id, ReplyStatus::SystemException)).unwrap();
    SystemException::new(
        SystemExceptionKind::Marshal,
        0x5254_0001,
        CompletionStatus::No,
    )
    .encode(w.body())
    .unwrap();
    out.push((Direction::ServerToClient, w.finish().unwrap().to_vec()));
    want.push(row(
        1,
        Some(id),
        "",
        Some(2),
        "IDL:omg.org/CORBA/MARSHAL:1.0",
    ));

    // CancelRequest, LocateRequest, LocateReply.
    let plain = |content| {
        encode_message(&Message::new(version, order, content))
            .unwrap()
            .to_vec()
    };
    id += 1;
    out.push((
        Direction::ClientToServer,
        plain(Content::CancelRequest(CancelRequest { request_id: id })),
    ));
    want.push(row(2, Some(id), "", None, ""));
    id += 1;
    out.push((
        Direction::ClientToServer,
        plain(Content::LocateRequest(LocateRequest {
            request_id: id,
            target: TargetAddress::Key(key.clone()),
        })),
    ));
    want.push(row(3, Some(id), "", None, ""));
    out.push((
        Direction::ServerToClient,
        plain(Content::LocateReply(LocateReply {
            request_id: id,
            status: LocateStatus::ObjectHere,
        })),
    ));
    want.push(row(4, Some(id), "", None, ""));

    // A request split into fragments (GIOP 1.1 and 1.2).
    if version >= Version::V1_1 {
        id += 1;
        let mut w = MessageWriter::request(
            enc,
            &RequestHeader::new(id, key.clone(), "cube_octet_sequence"),
        )
        .unwrap();
        Bytes::from(vec![7u8; 300]).encode(w.body()).unwrap();
        let pieces = fragment_message(&w.finish().unwrap(), 128).unwrap();
        assert!(pieces.len() > 2);
        for (i, p) in pieces.iter().enumerate() {
            out.push((Direction::ClientToServer, p.to_vec()));
            if i == 0 {
                want.push(row(0, Some(id), "cube_octet_sequence", None, ""));
            } else {
                let fid = (version >= Version::V1_2).then_some(id);
                want.push(row(7, fid, "", None, ""));
            }
        }
    }

    // MessageError and CloseConnection.
    out.push((Direction::ClientToServer, plain(Content::MessageError)));
    want.push(row(6, None, "", None, ""));
    out.push((Direction::ServerToClient, plain(Content::CloseConnection)));
    want.push(row(5, None, "", None, ""));
    (out, want)
}

fn check(version: Version, order: ByteOrder) {
    let (exchange, want) = messages(version, order);
    let rows = tshark_giop_fields(
        &exchange,
        &[
            "giop.type",
            "giop.request_id",
            "giop.request_op",
            "giop.replystatus",
            "giop.exceptionid",
        ],
    )
    .unwrap_or_else(|e| panic!("tshark: {e}"));
    assert_eq!(
        rows.len(),
        want.len(),
        "GIOP {version} {order:?}: one row per message: {rows:?}"
    );
    for (i, (got, want)) in rows.iter().zip(&want).enumerate() {
        let got: Vec<String> = (0..5)
            .map(|f| got.get(f).cloned().unwrap_or_default())
            .collect();
        // The type always, and every other field rtorb set.
        for f in 0..5 {
            if !want[f].is_empty() || f == 0 {
                assert_eq!(
                    got[f], want[f],
                    "GIOP {version} {order:?} message {i}: field {f}: tshark read {got:?}, expected {want:?}"
                );
            }
        }
    }
}

#[test]
#[ignore = "needs tshark with the right to capture (root, or the capture capabilities of dumpcap): scripts/test.sh installs it and runs this"]
fn tshark_reads_rtorb_giop_1_0() {
    check(Version::V1_0, ByteOrder::Big);
    check(Version::V1_0, ByteOrder::Little);
}

#[test]
#[ignore = "needs tshark with the right to capture (root, or the capture capabilities of dumpcap): scripts/test.sh installs it and runs this"]
fn tshark_reads_rtorb_giop_1_1() {
    check(Version::V1_1, ByteOrder::Big);
    check(Version::V1_1, ByteOrder::Little);
}

#[test]
#[ignore = "needs tshark with the right to capture (root, or the capture capabilities of dumpcap): scripts/test.sh installs it and runs this"]
fn tshark_reads_rtorb_giop_1_2() {
    check(Version::V1_2, ByteOrder::Big);
    check(Version::V1_2, ByteOrder::Little);
}
