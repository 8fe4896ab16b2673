//! Recorded omniORB messages as fixture files.
//!
//! A capture directory holds one hex file per GIOP message (see [`hex`]),
//! named `NNNN-DIR-TYPE[-OPERATION].hex`: the message's position in the
//! exchange, `c2s` (client to server) or `s2c`, the message type, and the
//! operation it belongs to (for requests, replies and fragments). A
//! `manifest.txt` beside them lists every message with its header fields
//! and the command lines that produced it.
//!
//! [`hex`]: crate::hex

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::capture::{
    Capture, CaptureOptions, DIRECT_SEND_OCTETS, FRAGMENTING_OCTETS, GiopVersion,
};
use crate::hex;
use crate::peek::{self, MsgType};
use crate::peers::workspace_root;
use crate::proxy::Direction;

/// The fixture directory of omniORB 4.2.5, relative to the workspace root.
pub const OMNIORB_FIXTURES: &str = "interop/fixtures/omniorb-4.2.5";

/// The absolute path of [`OMNIORB_FIXTURES`].
pub fn omniorb_fixtures_dir() -> PathBuf {
    workspace_root().join(OMNIORB_FIXTURES)
}

/// One recorded capture: where it goes and how it is made.
#[derive(Debug, Clone)]
pub struct CaptureSet {
    /// The directory name under the fixture directory.
    pub dir_name: &'static str,
    /// The GIOP version the client is limited to.
    pub version: GiopVersion,
    /// The capture options.
    pub options: CaptureOptions,
}

/// The captures that are recorded as fixtures.
pub fn capture_sets() -> Vec<CaptureSet> {
    let plain = CaptureOptions::default;
    let big = |n: usize| CaptureOptions {
        big_octet_sequence: Some(n),
        ..CaptureOptions::default()
    };
    vec![
        CaptureSet {
            dir_name: "giop10",
            version: GiopVersion::V1_0,
            options: plain(),
        },
        CaptureSet {
            dir_name: "giop11",
            version: GiopVersion::V1_1,
            options: plain(),
        },
        CaptureSet {
            dir_name: "giop12",
            version: GiopVersion::V1_2,
            options: plain(),
        },
        CaptureSet {
            dir_name: "giop11-fragmented",
            version: GiopVersion::V1_1,
            options: big(FRAGMENTING_OCTETS),
        },
        CaptureSet {
            dir_name: "giop12-fragmented",
            version: GiopVersion::V1_2,
            options: big(FRAGMENTING_OCTETS),
        },
        CaptureSet {
            dir_name: "giop12-direct-send",
            version: GiopVersion::V1_2,
            options: big(DIRECT_SEND_OCTETS),
        },
    ]
}

/// The fixture file names (without `.hex`) of the messages of an exchange.
pub fn message_names(exchange: &[(Direction, Vec<u8>)]) -> Vec<String> {
    let mut ops_by_id: HashMap<u32, String> = HashMap::new();
    let mut pending: HashMap<Direction, String> = HashMap::new();
    let mut names = Vec::with_capacity(exchange.len());
    for (index, (direction, message)) in exchange.iter().enumerate() {
        let header = peek::header(message);
        let msg_type = header.map_or(MsgType::Unknown(255), |h| h.msg_type);
        let more = header.is_some_and(|h| h.more_fragments());
        let op: Option<String> = match msg_type {
            MsgType::Request => peek::request(message).map(|r| {
                ops_by_id.insert(r.request_id, r.operation.clone());
                r.operation
            }),
            MsgType::Reply => {
                peek::reply(message).and_then(|r| ops_by_id.get(&r.request_id).cloned())
            }
            MsgType::Fragment => peek::fragment_request_id(message)
                .and_then(|id| ops_by_id.get(&id).cloned())
                .or_else(|| pending.get(direction).cloned()),
            _ => None,
        };
        if more {
            if let Some(op) = &op {
                pending.insert(*direction, op.clone());
            }
        } else if msg_type == MsgType::Fragment {
            pending.remove(direction);
        }
        let mut name = format!("{index:04}-{}-{}", direction.label(), msg_type.label());
        if let Some(op) = op {
            name.push('-');
            name.push_str(&op);
        }
        names.push(name);
    }
    names
}

/// Parses the direction out of a fixture file name (`NNNN-c2s-...`).
pub fn direction_of(name: &str) -> Option<Direction> {
    match name.split('-').nth(1)? {
        "c2s" => Some(Direction::ClientToServer),
        "s2c" => Some(Direction::ServerToClient),
        _ => None,
    }
}

/// Reads a capture directory back as `(file name, direction, message)` in
/// exchange order.
pub fn read_capture_dir(dir: &Path) -> Result<Vec<(String, Direction, Vec<u8>)>, String> {
    hex::read_fixture_dir(dir)?
        .into_iter()
        .map(|(name, bytes)| {
            let d = direction_of(&name).ok_or_else(|| format!("{name}: no direction in name"))?;
            Ok((name, d, bytes))
        })
        .collect()
}

fn describe(message: &[u8]) -> String {
    let Some(h) = peek::header(message) else {
        return "not GIOP".into();
    };
    let mut s = format!(
        "GIOP {}.{} {} flags=0x{:02x} body={}",
        h.major,
        h.minor,
        h.msg_type.label(),
        h.flags,
        h.body_len
    );
    if let Some(r) = peek::request(message) {
        let _ = write!(
            s,
            " request_id={} response_expected={} operation={}",
            r.request_id, r.response_expected, r.operation
        );
    } else if let Some(r) = peek::reply(message) {
        let _ = write!(
            s,
            " request_id={} reply_status={}",
            r.request_id, r.reply_status
        );
    } else if let Some(id) = peek::fragment_request_id(message) {
        let _ = write!(s, " request_id={id}");
    }
    s
}

/// Writes `capture` into `dir` (replacing any `*.hex` files there): one hex
/// file per message and a `manifest.txt`.
pub fn write_capture(dir: &Path, capture: &Capture) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let old = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in old.flatten() {
        let p = entry.path();
        if p.extension().is_some_and(|x| x == "hex") {
            std::fs::remove_file(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        }
    }
    let names = message_names(&capture.exchange);
    let mut manifest = format!(
        "# Recorded with omniORB 4.2.5 through a recording TCP proxy.\n\
         # server: {}\n\
         # client: {}\n\
         # operations invoked: {}\n\
         # file: header summary\n",
        capture.server_command,
        capture.client_command,
        capture.operations.join(", ")
    );
    for (name, (_, message)) in names.iter().zip(&capture.exchange) {
        let path = dir.join(format!("{name}.hex"));
        std::fs::write(&path, hex::to_hex(message))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let _ = writeln!(manifest, "{name}.hex: {}", describe(message));
    }
    let path = dir.join("manifest.txt");
    std::fs::write(&path, manifest).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(minor: u8, flags: u8, msg_type: u8, body: &[u8]) -> Vec<u8> {
        let mut m = vec![b'G', b'I', b'O', b'P', 1, minor, flags, msg_type];
        let len = u32::try_from(body.len()).expect("small");
        m.extend_from_slice(&len.to_le_bytes());
        m.extend_from_slice(body);
        m
    }

    #[test]
    fn names_follow_requests_replies_and_fragments() {
        // GIOP 1.2 little-endian request id 7 "op", with more fragments.
        let mut req = 7u32.to_le_bytes().to_vec();
        req.extend_from_slice(&[3, 0, 0, 0, 0, 0, 0, 0]); // flags, reserved, KeyAddr + pad
        req.extend_from_slice(&1u32.to_le_bytes());
        req.push(b'K');
        req.extend_from_slice(&[0, 0, 0]);
        req.extend_from_slice(&3u32.to_le_bytes());
        req.extend_from_slice(b"op\0\0");
        req.extend_from_slice(&0u32.to_le_bytes());
        let mut reply = 7u32.to_le_bytes().to_vec();
        reply.extend_from_slice(&0u32.to_le_bytes());
        reply.extend_from_slice(&0u32.to_le_bytes());
        let exchange = vec![
            (Direction::ClientToServer, msg(2, 3, 0, &req)),
            (Direction::ClientToServer, msg(2, 1, 7, &7u32.to_le_bytes())),
            (Direction::ServerToClient, msg(2, 1, 1, &reply)),
            (Direction::ServerToClient, msg(2, 1, 5, &[])),
        ];
        assert_eq!(
            message_names(&exchange),
            vec![
                "0000-c2s-request-op",
                "0001-c2s-fragment-op",
                "0002-s2c-reply-op",
                "0003-s2c-closeconnection"
            ]
        );
        assert_eq!(
            direction_of("0002-s2c-reply-op"),
            Some(Direction::ServerToClient)
        );
        assert_eq!(direction_of("0002-x-reply"), None);
    }

    #[test]
    fn giop11_fragments_take_the_pending_operation() {
        let mut req = 0u32.to_le_bytes().to_vec(); // no service contexts
        req.extend_from_slice(&9u32.to_le_bytes());
        req.extend_from_slice(&[1, 0, 0, 0]); // response_expected, reserved
        req.extend_from_slice(&1u32.to_le_bytes());
        req.extend_from_slice(&[b'K', 0, 0, 0]);
        req.extend_from_slice(&2u32.to_le_bytes());
        req.extend_from_slice(b"x\0");
        let exchange = vec![
            (Direction::ClientToServer, msg(1, 3, 0, &req)),
            (Direction::ClientToServer, msg(1, 3, 7, &[1, 2])),
            (Direction::ClientToServer, msg(1, 1, 7, &[3])),
            (Direction::ClientToServer, msg(1, 1, 7, &[4])),
        ];
        assert_eq!(
            message_names(&exchange),
            vec![
                "0000-c2s-request-x",
                "0001-c2s-fragment-x",
                "0002-c2s-fragment-x",
                "0003-c2s-fragment"
            ]
        );
    }
}
