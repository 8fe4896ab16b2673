//! tshark's GIOP dissector, an independent implementation, reads the
//! messages omniORB exchanges as GIOP with the right types, request ids and
//! operations.

use rtorb_interop::peek::{self, MsgType};
use rtorb_interop::{
    Capture, CaptureOptions, FRAGMENTING_OCTETS, GiopVersion, capture_cubit, tshark_decode_giop,
    tshark_giop_fields,
};

fn capture(version: GiopVersion, big: Option<usize>) -> Capture {
    let options = CaptureOptions {
        big_octet_sequence: big,
        ..CaptureOptions::default()
    };
    capture_cubit(version, &options).unwrap_or_else(|e| panic!("capture GIOP {version:?}: {e}"))
}

/// One row per GIOP PDU: (type, request id, operation) as tshark prints
/// them. The capture sends one message per TCP segment, so each frame holds
/// one PDU.
fn dissect(c: &Capture) -> Vec<(String, String, String)> {
    let rows = tshark_giop_fields(
        &c.exchange,
        &["giop.type", "giop.request_id", "giop.request_op"],
    )
    .unwrap_or_else(|e| panic!("tshark: {e}"));
    rows.into_iter()
        .map(|r| {
            let field = |i: usize| r.get(i).cloned().unwrap_or_default();
            (field(0), field(1), field(2))
        })
        .collect()
}

fn check_version(version: GiopVersion) {
    let c = capture(version, None);
    let rows = dissect(&c);
    let want_types: Vec<String> = c
        .exchange
        .iter()
        .map(|(_, m)| {
            peek::header(m)
                .expect("header")
                .msg_type
                .octet()
                .to_string()
        })
        .collect();
    let got_types: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    assert_eq!(got_types, want_types, "message types as tshark reads them");

    let ops: Vec<&str> = rows
        .iter()
        .filter(|r| r.0 == "0")
        .map(|r| r.2.as_str())
        .collect();
    assert_eq!(ops, c.operations, "operations as tshark reads them");

    for ((_, m), row) in c.exchange.iter().zip(&rows) {
        let id = match peek::header(m).expect("header").msg_type {
            MsgType::Request => peek::request(m).map(|r| r.request_id),
            MsgType::Reply => peek::reply(m).map(|r| r.request_id),
            _ => None,
        };
        if let Some(id) = id {
            assert_eq!(row.1, id.to_string(), "request id of {row:?}");
        }
    }
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl) and tshark with the right to capture: scripts/test.sh installs them and runs this"]
fn tshark_reads_omniorb_giop_1_0() {
    check_version(GiopVersion::V1_0);
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl) and tshark with the right to capture: scripts/test.sh installs them and runs this"]
fn tshark_reads_omniorb_giop_1_1() {
    check_version(GiopVersion::V1_1);
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl) and tshark with the right to capture: scripts/test.sh installs them and runs this"]
fn tshark_reads_omniorb_giop_1_2() {
    check_version(GiopVersion::V1_2);
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl) and tshark with the right to capture: scripts/test.sh installs them and runs this"]
fn tshark_reads_omniorb_fragments() {
    let c = capture(GiopVersion::V1_2, Some(FRAGMENTING_OCTETS));
    let rows = dissect(&c);
    assert_eq!(rows.len(), c.exchange.len());
    let fragments = rows.iter().filter(|r| r.0 == "7").count();
    assert_eq!(
        fragments, 4,
        "two fragments after the request, two after the reply"
    );
    // tshark names the operation once it has reassembled the request.
    assert!(
        rows.iter()
            .any(|r| r.0 == "7" && r.2 == "cube_octet_sequence"),
        "{rows:?}"
    );
}

#[test]
#[ignore = "needs omniORB (Debian libomniorb4-dev, omniidl) and tshark with the right to capture: scripts/test.sh installs them and runs this"]
fn tshark_verbose_dissection_of_requests() {
    let c = capture(GiopVersion::V1_2, None);
    let text = tshark_decode_giop(&c.requests).unwrap_or_else(|e| panic!("tshark: {e}"));
    assert!(text.contains("General Inter-ORB Protocol"), "{text}");
    assert!(text.contains("Version: 1.2"), "{text}");
    assert!(text.contains("Message type: Request (0)"), "{text}");
    assert!(text.contains("Message type: LocateRequest (3)"), "{text}");
    for op in [
        "cube_octet",
        "cube_struct",
        "cube_long_sequence",
        "shutdown",
    ] {
        assert!(
            text.contains(&format!("Request operation: {op}")),
            "no operation {op} in: {text}"
        );
    }
    assert_eq!(
        text.matches("Message type: Request (0)").count(),
        c.operations.len()
    );
}
