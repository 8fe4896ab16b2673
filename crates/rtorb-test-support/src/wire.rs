//! Hand-made GIOP messages for tests that play a raw peer: headers with any
//! fields (malformed ones included), requests to the `Cubit` key, replies,
//! and references to a raw peer.

use bytes::Bytes;
use rtorb::orb::Orb;
use rtorb::rt::ExposedPolicies;
use rtorb::runtime::{CdrEncode, Object};
use rtorb_cdr::{ByteOrder, Encoding, Version};
use rtorb_giop::ior::{IiopProfile, ObjectReference, Profile};
use rtorb_giop::message::{MessageWriter, ReplyHeader, ReplyStatus, RequestHeader};

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
    let encoding = Encoding::native()
        .with_order(order)
        .with_version(Version::V1_2);
    let mut header = RequestHeader::new(id, Bytes::from_static(key), operation);
    if !response {
        header.response_flags = 0;
    }
    let mut w = MessageWriter::request(encoding, &header).expect("a request header");
    body(&mut w);
    w.finish().expect("a whole request")
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
