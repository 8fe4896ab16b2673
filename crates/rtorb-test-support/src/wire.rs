//! Hand-made GIOP messages for tests that play a raw peer: headers with any
//! fields (malformed ones included) and requests to the `Cubit` key.

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, Encoding, Version};
use rtorb_giop::message::{MessageWriter, RequestHeader};

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

/// A whole GIOP 1.2 little-endian `Request` to the object key `Cubit`,
/// with `body` writing the arguments.
pub fn cubit_request(
    id: u32,
    operation: &'static str,
    body: impl FnOnce(&mut MessageWriter),
) -> Bytes {
    let encoding = Encoding::native()
        .with_order(ByteOrder::Little)
        .with_version(Version::V1_2);
    let header = RequestHeader::new(id, Bytes::from_static(b"Cubit"), operation);
    let mut w = MessageWriter::request(encoding, &header).expect("a request header");
    body(&mut w);
    w.finish().expect("a whole request")
}
