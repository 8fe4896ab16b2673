//! The GIOP 1.2 messages the overload benchmark's clients send and read,
//! made with `rtorb-giop` and read back from plain sockets.

use std::io::Read;

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, Encoding, Version};
use rtorb_giop::message::{
    CancelRequest, Content, Message, MessageWriter, ReplyStatus, RequestHeader, decode_message,
    encode_message,
};

/// The GIOP message header's length.
pub(in crate::bench) const HEADER_LEN: usize = 12;

/// The largest reply the clients read; a larger announced size is an
/// error, not an allocation.
const MAX_REPLY: usize = 1 << 20;

fn encoding() -> Encoding {
    Encoding::native().with_version(Version::V1_2)
}

/// A `cube_long` request with id `id` to `key`.
pub(super) fn cube_long(id: u32, key: &Bytes, value: i32) -> Result<Bytes, String> {
    let header = RequestHeader::new(id, key.clone(), "cube_long");
    let mut w = MessageWriter::request(encoding(), &header).map_err(|e| e.to_string())?;
    w.body().write_i32(value);
    w.finish().map_err(|e| e.to_string())
}

/// A `CancelRequest` for request `id`.
pub(super) fn cancel(id: u32) -> Result<Bytes, String> {
    let m = Message::new(
        Version::V1_2,
        ByteOrder::NATIVE,
        Content::CancelRequest(CancelRequest { request_id: id }),
    );
    encode_message(&m).map_err(|e| e.to_string())
}

/// The start of a `cube_octet_sequence` request to `key` whose GIOP
/// header announces `announced` body octets: the header, the request
/// header and the sequence's length; the octets that follow are left
/// to the sender.
pub(super) fn huge_request_start(key: &Bytes, announced: u32) -> Result<Vec<u8>, String> {
    let header = RequestHeader::new(1, key.clone(), "cube_octet_sequence");
    let mut w = MessageWriter::request(encoding(), &header).map_err(|e| e.to_string())?;
    let so_far = u32::try_from(w.len()).map_err(|e| e.to_string())?;
    w.body()
        .write_u32(announced.saturating_sub(so_far.saturating_sub(HEADER_LEN as u32) + 4));
    let mut bytes = w.finish().map_err(|e| e.to_string())?.to_vec();
    let size = match ByteOrder::NATIVE {
        ByteOrder::Big => announced.to_be_bytes(),
        ByteOrder::Little => announced.to_le_bytes(),
    };
    bytes[8..HEADER_LEN].copy_from_slice(&size);
    Ok(bytes)
}

/// A whole `cube_octet_sequence` request to `key` with `len` octets.
pub(in crate::bench) fn octet_sequence_request(key: &Bytes, len: usize) -> Result<Bytes, String> {
    let header = RequestHeader::new(1, key.clone(), "cube_octet_sequence");
    let mut w = MessageWriter::request(encoding(), &header).map_err(|e| e.to_string())?;
    w.body()
        .write_octet_seq(&vec![3u8; len])
        .map_err(|e| e.to_string())?;
    w.finish().map_err(|e| e.to_string())
}

/// A GIOP 1.2 message header in the machine's byte order.
fn giop_header(msg_type: u8, more_fragments: bool, size: u32) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..4].copy_from_slice(b"GIOP");
    h[4] = 1;
    h[5] = 2;
    h[6] = u8::from(ByteOrder::NATIVE == ByteOrder::Little)
        | if more_fragments {
            rtorb_giop::header::FLAG_MORE_FRAGMENTS
        } else {
            0
        };
    h[7] = msg_type;
    h[8..].copy_from_slice(&match ByteOrder::NATIVE {
        ByteOrder::Big => size.to_be_bytes(),
        ByteOrder::Little => size.to_le_bytes(),
    });
    h
}

/// The first fragment of a `cube_octet_sequence` request to `key`, with
/// request id `id`, that more fragments are said to follow; its body a
/// multiple of 8 octets, as GIOP 1.2 wants of every fragment but the
/// last.
pub(super) fn first_fragment(key: &Bytes, id: u32) -> Result<Vec<u8>, String> {
    let header = RequestHeader::new(id, key.clone(), "cube_octet_sequence");
    let mut w = MessageWriter::request(encoding(), &header).map_err(|e| e.to_string())?;
    w.body().write_u32(u32::MAX >> 1);
    let mut bytes = w.finish().map_err(|e| e.to_string())?.to_vec();
    bytes.resize(
        HEADER_LEN + (bytes.len() - HEADER_LEN).next_multiple_of(8),
        0,
    );
    let size = u32::try_from(bytes.len() - HEADER_LEN).map_err(|e| e.to_string())?;
    bytes[..HEADER_LEN].copy_from_slice(&giop_header(0, true, size));
    Ok(bytes)
}

/// A `Fragment` of request `id` with `body` octets after the request id
/// (a multiple of 8 in all, for `body` ≡ 4 mod 8), more said to follow.
pub(super) fn fragment(id: u32, body: usize) -> Result<Vec<u8>, String> {
    let size = u32::try_from(4 + body).map_err(|e| e.to_string())?;
    let mut bytes = giop_header(7, true, size).to_vec();
    bytes.extend_from_slice(&match ByteOrder::NATIVE {
        ByteOrder::Big => id.to_be_bytes(),
        ByteOrder::Little => id.to_le_bytes(),
    });
    bytes.resize(HEADER_LEN + 4 + body, 0);
    Ok(bytes)
}

/// The body size a GIOP header announces (`None`: not a GIOP header).
pub(in crate::bench) fn announced_size(header: &[u8; HEADER_LEN]) -> Option<usize> {
    if &header[..4] != b"GIOP" {
        return None;
    }
    let size = [header[8], header[9], header[10], header[11]];
    let size = if header[6] & 1 == 1 {
        u32::from_le_bytes(size)
    } else {
        u32::from_be_bytes(size)
    };
    Some(size as usize)
}

/// Reads one message from `r` and checks that it is the `NO_EXCEPTION`
/// reply to request `id`.
pub(super) fn read_reply(r: &mut impl Read, id: u32) -> Result<(), String> {
    let mut header = [0u8; HEADER_LEN];
    r.read_exact(&mut header).map_err(|e| e.to_string())?;
    let size = announced_size(&header).ok_or("not a GIOP message")?;
    if size > MAX_REPLY {
        return Err(format!("a reply of {size} octets"));
    }
    let mut whole = vec![0u8; HEADER_LEN + size];
    whole[..HEADER_LEN].copy_from_slice(&header);
    r.read_exact(&mut whole[HEADER_LEN..])
        .map_err(|e| e.to_string())?;
    let m = decode_message(Bytes::from(whole)).map_err(|e| e.to_string())?;
    match m.content {
        Content::Reply(reply)
            if reply.header.request_id == id
                && reply.header.reply_status == ReplyStatus::NoException =>
        {
            Ok(())
        }
        Content::Reply(reply) => Err(format!(
            "reply {} {:?} to request {id}",
            reply.header.request_id, reply.header.reply_status
        )),
        other => Err(format!("{:?} instead of a reply", other.msg_type())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_request_announces_its_size_and_a_matching_sequence() {
        let key = Bytes::from_static(b"Cubit");
        let start = huge_request_start(&key, 64 << 20).unwrap();
        let header: [u8; HEADER_LEN] = start[..HEADER_LEN].try_into().unwrap();
        assert_eq!(announced_size(&header), Some(64 << 20));
        // The sequence length fills the rest of the announced body.
        let n = start.len();
        let tail: [u8; 4] = start[n - 4..].try_into().unwrap();
        let len = match ByteOrder::NATIVE {
            ByteOrder::Big => u32::from_be_bytes(tail),
            ByteOrder::Little => u32::from_le_bytes(tail),
        } as usize;
        assert_eq!(n - HEADER_LEN + len, 64 << 20);
    }

    #[test]
    fn fragments_say_more_follow_and_are_multiples_of_eight() {
        let key = Bytes::from_static(b"Cubit");
        let first = first_fragment(&key, 9).unwrap();
        let next = fragment(9, 65_532).unwrap();
        for m in [&first, &next] {
            let header: [u8; HEADER_LEN] = m[..HEADER_LEN].try_into().unwrap();
            assert_eq!(announced_size(&header), Some(m.len() - HEADER_LEN));
            assert_eq!((m.len() - HEADER_LEN) % 8, 0);
            assert_eq!(m[6] & 2, 2, "more fragments");
        }
        assert_eq!((first[7], next[7]), (0, 7));
        assert_eq!(next.len(), HEADER_LEN + 65_536);
        // The fragment's body starts with the request id.
        let m = decode_message(Bytes::from(next)).unwrap();
        assert_eq!(m.content.request_id(), Some(9));
    }

    #[test]
    fn an_octet_sequence_request_holds_its_octets() {
        let key = Bytes::from_static(b"Cubit");
        let m = octet_sequence_request(&key, 1000).unwrap();
        let header: [u8; HEADER_LEN] = m[..HEADER_LEN].try_into().unwrap();
        assert_eq!(announced_size(&header), Some(m.len() - HEADER_LEN));
        assert!(m.len() > 1000);
    }

    #[test]
    fn cancel_requests_are_sixteen_octets() {
        let c = cancel(7).unwrap();
        assert_eq!(c.len(), 16);
        assert_eq!(c[7], 2, "CancelRequest");
    }

    #[test]
    fn a_reply_is_checked_for_its_id() {
        use rtorb_giop::message::ReplyHeader;
        let reply = |id| {
            let mut w =
                MessageWriter::reply(encoding(), &ReplyHeader::new(id, ReplyStatus::NoException))
                    .unwrap();
            w.body().write_i32(27);
            w.finish().unwrap()
        };
        assert!(read_reply(&mut &reply(3)[..], 3).is_ok());
        assert!(read_reply(&mut &reply(4)[..], 3).is_err());
        assert!(read_reply(&mut &b"GIOP\x01\x02\x01\x01\xff\xff\xff\x7f"[..], 3).is_err());
        assert!(read_reply(&mut &b"HTTP"[..], 3).is_err());
    }
}
