//! Stringified IORs, `corbaloc:` and `corbaname:` URLs, and IORs in CDR:
//! every input parses or fails with a typed error, and whatever parses
//! prints back to something that parses to the same reference.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rtorb_cdr::{ByteOrder, Bytes, CdrDecode, Decoder, Encoding};
use rtorb_giop::ior::ObjectReference;
use rtorb_giop::{ObjectUrl, parse_object_url};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(url) = parse_object_url(text) {
            match url {
                ObjectUrl::Ior(r) => {
                    let s = r.to_stringified().expect("a decoded reference re-encodes");
                    let back = ObjectReference::from_stringified(&s).expect("re-parses");
                    assert_eq!(back.type_id, r.type_id);
                }
                ObjectUrl::Corbaloc(loc) => {
                    let again = parse_object_url(&loc.to_string()).expect("printed URL parses");
                    assert_eq!(again, ObjectUrl::Corbaloc(loc.clone()));
                    let _ = loc.to_ior("IDL:x:1.0");
                }
                ObjectUrl::Corbaname(name) => {
                    let again = parse_object_url(&name.to_string()).expect("printed URL parses");
                    assert_eq!(again, ObjectUrl::Corbaname(name));
                }
            }
        }
    }
    for order in [ByteOrder::Big, ByteOrder::Little] {
        let mut d = Decoder::new(
            Bytes::copy_from_slice(data),
            Encoding::native().with_order(order),
        );
        if let Ok(r) = ObjectReference::decode(&mut d) {
            let _ = r.info();
        }
    }
});
