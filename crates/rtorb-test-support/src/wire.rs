//! Hand-made GIOP messages for tests and benchmarks that play a raw peer:
//! headers with any fields (malformed ones included), requests and
//! replies, the messages of hostile peers (a request that announces more
//! than it sends, fragments that never end, `CancelRequest`s), and
//! references to a raw peer.
//!
//! The functions that return a `Result` are those the benchmarks use on
//! object keys read from a server's reference; the others are for tests,
//! whose messages always encode, and panic where they do not.

use bytes::Bytes;
use rtorb::cdr::CdrEncode;
use rtorb::object::Object;
use rtorb::orb::Orb;
use rtorb::rt::ExposedPolicies;
use rtorb_cdr::{ByteOrder, CdrError, Encoder, Encoding, Version};
use rtorb_giop::header::HEADER_LEN;
use rtorb_giop::ior::{IiopProfile, ObjectReference, Profile};
use rtorb_giop::message::CancelRequest;
use rtorb_giop::{
    Content, GiopError, Message, MessageHeader, MessageWriter, MsgType, Operation, ReplyHeader,
    ReplyStatus, RequestHeader, encode_message,
};

/// A 12-octet GIOP 1.`minor` header with `flags`, `msg_type` and `size`,
/// the size in the byte order bit 0 of `flags` names. Nothing is checked:
/// the header may announce what its peer must refuse.
pub fn giop_header(minor: u8, flags: u8, msg_type: u8, size: u32) -> Vec<u8> {
    let mut h = b"GIOP".to_vec();
    h.extend_from_slice(&[1, minor, flags, msg_type]);
    if flags & 1 == 1 {
        h.extend_from_slice(&size.to_le_bytes());
    } else {
        h.extend_from_slice(&size.to_be_bytes());
    }
    h
}

/// GIOP 1.2 in `order`.
fn giop_1_2(order: ByteOrder) -> Encoding {
    Encoding::native()
        .with_order(order)
        .with_version(Version::V1_2)
}

/// A whole GIOP 1.2 `Request` in `order`: `header`, then the arguments
/// `body` writes.
fn request_with(
    order: ByteOrder,
    header: &RequestHeader,
    body: impl FnOnce(&mut MessageWriter) -> Result<(), CdrError>,
) -> Result<Bytes, GiopError> {
    let mut w = MessageWriter::request(giop_1_2(order), header)?;
    body(&mut w)?;
    w.finish()
}

/// A whole GIOP 1.2 twoway `Request` in `order` with id `id` to the object
/// key `key` for `operation`, its arguments written by `body`.
pub fn request(
    order: ByteOrder,
    id: u32,
    key: Bytes,
    operation: impl Into<Operation>,
    body: impl FnOnce(&mut Encoder) -> Result<(), CdrError>,
) -> Result<Bytes, GiopError> {
    let header = RequestHeader::new(id, key, operation);
    request_with(order, &header, |w| body(w.body()))
}

/// A whole GIOP 1.2 `NO_EXCEPTION` `Reply` in `order` to request
/// `request_id`, its result written by `body`.
pub fn reply_with(
    order: ByteOrder,
    request_id: u32,
    body: impl FnOnce(&mut Encoder) -> Result<(), CdrError>,
) -> Result<Bytes, GiopError> {
    let header = ReplyHeader::new(request_id, ReplyStatus::NoException);
    let mut w = MessageWriter::reply(giop_1_2(order), &header)?;
    body(w.body())?;
    w.finish()
}

/// A whole GIOP 1.2 little-endian `Request` to the object key `Cubit`,
/// with `body` writing the arguments.
pub fn cubit_request(
    id: u32,
    operation: &'static str,
    body: impl FnOnce(&mut MessageWriter),
) -> Bytes {
    let header = RequestHeader::new(id, Bytes::from_static(b"Cubit"), operation);
    request_with(ByteOrder::Little, &header, |w| {
        body(w);
        Ok(())
    })
    .expect("a whole request")
}

/// A whole GIOP 1.2 `Request` in `order` to the plain object key `key`,
/// a twoway if `response` (else a oneway), its arguments written by
/// `body`.
pub fn request_to(
    order: ByteOrder,
    id: u32,
    key: &'static [u8],
    operation: &'static str,
    response: bool,
    body: impl FnOnce(&mut MessageWriter),
) -> Bytes {
    let mut header = RequestHeader::new(id, Bytes::from_static(key), operation);
    if !response {
        header.response_flags = 0;
    }
    request_with(order, &header, |w| {
        body(w);
        Ok(())
    })
    .expect("a whole request")
}

/// A whole `NO_EXCEPTION` reply to `request_id` in GIOP `version` (native
/// byte order) whose body is `result`.
pub fn reply(request_id: u32, version: Version, result: &impl CdrEncode) -> Bytes {
    let header = ReplyHeader {
        request_id,
        reply_status: ReplyStatus::NoException,
        service_context: Default::default(),
    };
    let encoding = Encoding::native().with_version(version);
    let mut w = MessageWriter::reply(encoding, &header).expect("a reply header");
    result.encode(w.body()).expect("an encodable result");
    w.finish().expect("a whole reply")
}

/// The header of a GIOP 1.2 message in the machine's byte order.
fn native_header(msg_type: MsgType, more_fragments: bool, size: u32) -> [u8; HEADER_LEN] {
    MessageHeader {
        version: Version::V1_2,
        order: ByteOrder::NATIVE,
        more_fragments,
        msg_type,
        size,
    }
    .encode()
}

/// The start of a GIOP 1.2 `cube_octet_sequence` request (machine byte
/// order, id 1) to `key` whose header announces `announced` body octets:
/// the header, the request header and the sequence's length, which fills
/// the rest of the announced body. The octets of the sequence are left to
/// the sender: a peer that sends part of them holds the server to a
/// message it never finishes.
pub fn request_announcing(key: Bytes, announced: u32) -> Result<Vec<u8>, GiopError> {
    let header = RequestHeader::new(1, key, "cube_octet_sequence");
    let mut w = MessageWriter::request(giop_1_2(ByteOrder::NATIVE), &header)?;
    // The body starts aligned; what precedes the sequence's length.
    w.body();
    let body_so_far = w.len() - HEADER_LEN;
    let so_far =
        u32::try_from(body_so_far + 4).map_err(|_| GiopError::SizeOverflow(body_so_far))?;
    w.body().write_u32(announced.saturating_sub(so_far));
    let mut bytes = w.finish()?.to_vec();
    bytes[..HEADER_LEN].copy_from_slice(&native_header(MsgType::Request, false, announced));
    Ok(bytes)
}

/// A whole GIOP 1.2 `cube_octet_sequence` request (machine byte order, id
/// 1) to `key` with `len` octets.
pub fn octet_sequence_request(key: Bytes, len: usize) -> Result<Bytes, GiopError> {
    request(ByteOrder::NATIVE, 1, key, "cube_octet_sequence", |e| {
        e.write_octet_seq(&vec![3u8; len])
    })
}

/// The first fragment of a GIOP 1.2 `cube_octet_sequence` request
/// (machine byte order) with id `id` to `key`, more fragments said to
/// follow: a sequence length of 2³¹ - 1, and a body padded to a multiple of
/// 8 octets, as GIOP 1.2 wants of every fragment but the last.
pub fn first_fragment(key: Bytes, id: u32) -> Result<Vec<u8>, GiopError> {
    let header = RequestHeader::new(id, key, "cube_octet_sequence");
    let whole = request_with(ByteOrder::NATIVE, &header, |w| {
        w.body().write_u32(u32::MAX >> 1);
        Ok(())
    })?;
    let mut bytes = whole.to_vec();
    let body = (bytes.len() - HEADER_LEN).next_multiple_of(8);
    bytes.resize(HEADER_LEN + body, 0);
    let size = u32::try_from(body).map_err(|_| GiopError::SizeOverflow(body))?;
    bytes[..HEADER_LEN].copy_from_slice(&native_header(MsgType::Request, true, size));
    Ok(bytes)
}

/// A GIOP 1.2 `Fragment` (machine byte order) of request `id` with `body`
/// octets of zeros after the request id, more said to follow (a multiple
/// of 8 octets in all for `body` ≡ 4 mod 8).
pub fn fragment(id: u32, body: usize) -> Result<Vec<u8>, GiopError> {
    let size = u32::try_from(4 + body).map_err(|_| GiopError::SizeOverflow(body))?;
    let mut bytes = native_header(MsgType::Fragment, true, size).to_vec();
    bytes.extend_from_slice(&match ByteOrder::NATIVE {
        ByteOrder::Big => id.to_be_bytes(),
        ByteOrder::Little => id.to_le_bytes(),
    });
    bytes.resize(HEADER_LEN + 4 + body, 0);
    Ok(bytes)
}

/// A GIOP 1.2 `CancelRequest` (machine byte order) for request `id`.
pub fn cancel_request(id: u32) -> Result<Bytes, GiopError> {
    let m = Message::new(
        Version::V1_2,
        ByteOrder::NATIVE,
        Content::CancelRequest(CancelRequest { request_id: id }),
    );
    encode_message(&m)
}

/// An object of `orb` for the key `Raw` of a raw peer at
/// `127.0.0.1:port`, its one GIOP 1.2 profile publishing `policies`
/// (Real-time CORBA's priority model and bands, if any).
pub fn raw_reference(orb: &Orb, port: u16, policies: &ExposedPolicies) -> Object {
    let mut profile = IiopProfile::new(Version::V1_2, "127.0.0.1", port, &b"Raw"[..]);
    profile
        .components
        .extend(policies.to_component(ByteOrder::Big));
    let ior = ObjectReference::new("IDL:Raw:1.0", vec![Profile::Iiop(profile)]);
    orb.string_to_object(&ior.to_stringified().expect("an IOR"))
        .expect("a reference to the raw peer")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rtorb_giop::decode_message;

    fn key() -> Bytes {
        Bytes::from_static(b"Cubit")
    }

    /// The header of `m`, read back by the library.
    fn header_of(m: &[u8]) -> MessageHeader {
        MessageHeader::parse(m, u32::MAX).expect("a GIOP header")
    }

    #[test]
    fn a_request_announcing_more_holds_a_sequence_that_fills_it() {
        for key in [key(), Bytes::from_static(b"a longer key of 27 octets.")] {
            let start = request_announcing(key, 64 << 20).unwrap();
            assert_eq!(header_of(&start).size, 64 << 20);
            // The sequence length fills the rest of the announced body.
            let n = start.len();
            let tail: [u8; 4] = start[n - 4..].try_into().unwrap();
            let len = match ByteOrder::NATIVE {
                ByteOrder::Big => u32::from_be_bytes(tail),
                ByteOrder::Little => u32::from_le_bytes(tail),
            } as usize;
            assert_eq!(n - HEADER_LEN + len, 64 << 20);
        }
    }

    #[test]
    fn fragments_say_more_follow_and_are_multiples_of_eight() {
        let first = first_fragment(key(), 9).unwrap();
        let next = fragment(9, 65_532).unwrap();
        for m in [&first, &next] {
            let h = header_of(m);
            assert_eq!(h.size as usize, m.len() - HEADER_LEN);
            assert_eq!((m.len() - HEADER_LEN) % 8, 0);
            assert!(h.more_fragments);
        }
        assert_eq!(header_of(&first).msg_type, MsgType::Request);
        assert_eq!(header_of(&next).msg_type, MsgType::Fragment);
        assert_eq!(next.len(), HEADER_LEN + 65_536);
        // The fragment's body starts with the request id.
        let m = decode_message(Bytes::from(next)).unwrap();
        assert_eq!(m.content.request_id(), Some(9));
    }

    #[test]
    fn an_octet_sequence_request_holds_its_octets() {
        let m = octet_sequence_request(key(), 1000).unwrap();
        assert_eq!(header_of(&m).size as usize, m.len() - HEADER_LEN);
        let decoded = decode_message(m).unwrap();
        let Content::Request(r) = decoded.content else {
            panic!("not a request: {decoded:?}");
        };
        assert_eq!(r.header.operation.as_str(), "cube_octet_sequence");
        assert!(r.body.len() > 1000);
    }

    #[test]
    fn cancel_requests_are_sixteen_octets() {
        let c = cancel_request(7).unwrap();
        assert_eq!(c.len(), 16);
        assert_eq!(header_of(&c).msg_type, MsgType::CancelRequest);
    }

    #[test]
    fn a_request_and_its_reply_decode_with_their_ids() {
        let q = request(ByteOrder::Big, 5, key(), "cube_long", |e| {
            e.write_i32(3);
            Ok(())
        })
        .unwrap();
        assert_eq!(header_of(&q).order, ByteOrder::Big);
        assert_eq!(decode_message(q).unwrap().content.request_id(), Some(5));
        let r = reply_with(ByteOrder::Little, 5, |e| {
            e.write_i32(27);
            Ok(())
        })
        .unwrap();
        assert_eq!(header_of(&r).msg_type, MsgType::Reply);
        assert_eq!(decode_message(r).unwrap().content.request_id(), Some(5));
    }
}
