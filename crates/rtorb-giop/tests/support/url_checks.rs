//! The checks of the `object_url` cargo-fuzz target (which includes this
//! file by path), shared with `tests/object_url_fuzz.rs`, which replays
//! the target's corpus and the inputs that found bugs: stringified IORs,
//! `corbaloc:` and `corbaname:` URLs, and IORs in CDR. Every input parses
//! or fails with a typed error, and whatever parses writes back to what
//! it was read from:
//!
//! - a URL prints to a string that parses to the same URL;
//! - a stringified IOR re-encodes, in the byte order it came in, to the
//!   same octets, and in native order to a string that parses to the same
//!   reference;
//! - an IOR read from CDR encodes to the same octets and decodes to the
//!   same reference.
//!
//! "The same octets" allows for one difference only: the encoder writes
//! alignment padding as zeros, while a peer may leave anything there
//! (omniORB leaves stale buffer contents). The octets of an IOR that are
//! padding are worked out from the IOR's layout ([`ior_padding`]).

use rtorb_cdr::{ByteOrder, Bytes, CdrDecode, CdrEncode, Decoder, Encoder, Encoding, Ior};
use rtorb_giop::corbaloc::{Corbaloc, Location, ObjAddr};
use rtorb_giop::ior::{ObjectReference, decode_stringified};
use rtorb_giop::{ObjectUrl, parse_object_url};

/// One input of the `object_url` fuzz target: as text (where it is UTF-8),
/// then as an IOR in CDR in each byte order.
pub(crate) fn check_fuzz_input(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        check_text(text);
    }
    for order in [ByteOrder::Big, ByteOrder::Little] {
        check_cdr_ior(data, order);
    }
}

fn check_text(text: &str) {
    let Ok(url) = parse_object_url(text) else {
        return;
    };
    match url {
        ObjectUrl::Ior(r) => check_stringified(text, &r),
        ObjectUrl::Corbaloc(loc) => {
            let again = parse_object_url(&loc.to_string()).expect("printed URL parses");
            assert_eq!(again, ObjectUrl::Corbaloc(loc.clone()));
            check_reference_of(&loc);
        }
        ObjectUrl::Corbaname(name) => {
            let again = parse_object_url(&name.to_string()).expect("printed URL parses");
            assert_eq!(again, ObjectUrl::Corbaname(name));
        }
    }
}

/// A reference `text` parsed to `r`.
fn check_stringified(text: &str, r: &ObjectReference) {
    let (ior, order) = decode_stringified(text).expect("a parsed IOR string decodes");
    let raw = r.to_ior().expect("a decoded reference re-encodes");
    assert_eq!(raw, ior, "profiles re-encode to the octets they came in");
    // In the byte order it came in: the same encapsulation, up to its
    // padding; octets after the IOR, which the reader ignores, are not
    // written again.
    let written = hex_octets(&r.to_stringified_in(order).expect("re-encodes"));
    let read = hex_octets(text);
    assert!(
        written.len() <= read.len(),
        "re-encoding never grows an IOR"
    );
    // The IOR starts after the encapsulation's byte-order octet.
    assert_same_but_padding(&read[..written.len()], &written, &ior_padding(&ior, 1));
    // In native order: the whole reference back.
    let s = r.to_stringified().expect("a decoded reference re-encodes");
    let back = ObjectReference::from_stringified(&s).expect("a written IOR string parses");
    assert_eq!(&back, r);
}

/// The reference `loc.to_ior` makes stringifies and parses back to
/// itself, unless a host or socket path has a character that ISO 8859-1
/// (the code set of the strings inside an IOR) lacks.
fn check_reference_of(loc: &Corbaloc) {
    let Ok(r) = loc.to_ior("IDL:x:1.0") else {
        return;
    };
    match r.to_stringified() {
        Ok(s) => {
            let back = ObjectReference::from_stringified(&s).expect("a written IOR string parses");
            assert_eq!(back, r);
        }
        Err(e) => {
            let latin1 = |s: &str| s.chars().all(|c| u32::from(c) <= 0xff);
            let addresses: &[ObjAddr] = match &loc.location {
                Location::Addresses(a) => a,
                Location::Rir => &[],
            };
            let all_latin1 = addresses.iter().all(|a| match a {
                ObjAddr::Iiop(i) => latin1(&i.host.to_profile_host()),
                ObjAddr::Uiop(u) => latin1(&u.path),
                _ => true,
            });
            assert!(
                !all_latin1,
                "a reference from {loc} does not stringify: {e}"
            );
        }
    }
}

/// An IOR read from CDR in byte order `order`.
fn check_cdr_ior(data: &[u8], order: ByteOrder) {
    let encoding = Encoding::native().with_order(order);
    let mut d = Decoder::new(Bytes::copy_from_slice(data), encoding);
    let Ok(r) = ObjectReference::decode(&mut d) else {
        return;
    };
    let _ = r.info().to_json();
    let read = &data[..d.offset()];
    let ior = Ior::decode(&mut Decoder::new(Bytes::copy_from_slice(data), encoding))
        .expect("what decodes as a reference decodes as an IOR");
    assert_eq!(r.to_ior().expect("re-encodes"), ior);
    let mut e = Encoder::new(encoding);
    r.encode(&mut e).expect("a decoded reference encodes");
    let written = e.into_bytes();
    assert_same_but_padding(read, &written, &ior_padding(&ior, 0));
    let back = ObjectReference::decode(&mut Decoder::new(written, encoding))
        .expect("an encoded reference decodes");
    assert_eq!(back, r);
}

/// The octets of `s` after `IOR:`, as hex digits, decoded.
fn hex_octets(s: &str) -> Vec<u8> {
    let digits = s.trim().as_bytes().get(4..).unwrap_or_default();
    let value = |c: u8| char::from(c).to_digit(16).expect("a hex digit") as u8;
    digits
        .chunks_exact(2)
        .map(|p| (value(p[0]) << 4) | value(p[1]))
        .collect()
}

/// The offsets of the alignment padding in `ior` encoded from offset
/// `start` of a stream aligned relative to offset 0: before the profile
/// count, and before each profile's tag (the ends of the type id string and
/// of each profile's octets can leave the stream unaligned).
fn ior_padding(ior: &Ior, start: usize) -> Vec<usize> {
    fn align4(at: &mut usize, padding: &mut Vec<usize>) {
        while *at % 4 != 0 {
            padding.push(*at);
            *at += 1;
        }
    }
    let mut padding = Vec::new();
    let mut at = start;
    align4(&mut at, &mut padding);
    // The type id: its length, its ISO 8859-1 octets (one per character)
    // and the terminating NUL.
    at += 4 + ior.type_id.chars().count() + 1;
    align4(&mut at, &mut padding);
    at += 4;
    for p in &ior.profiles {
        align4(&mut at, &mut padding);
        at += 8 + p.data.len();
    }
    padding
}

/// `written` is `read` but for the octets at `padding`, which it holds as
/// zeros.
fn assert_same_but_padding(read: &[u8], written: &[u8], padding: &[usize]) {
    assert_eq!(read.len(), written.len(), "the same length as read");
    for (i, (r, w)) in read.iter().zip(written).enumerate() {
        if padding.contains(&i) {
            assert_eq!(*w, 0, "padding at {i} is written as zero");
        } else {
            assert_eq!(r, w, "octet {i} is written as it was read");
        }
    }
}
