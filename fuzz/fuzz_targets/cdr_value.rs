//! The generic CDR value decoder: an Any (a TypeCode, then a value of that
//! type) read from arbitrary bytes in every GIOP version and byte order.
//! Whatever decodes must encode again, decode, and encode to the same
//! octets.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rtorb_cdr::{Any, ByteOrder, Bytes, CdrDecode, CdrEncode, Decoder, Encoder, Encoding, Version};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let order = if selector & 1 == 0 {
        ByteOrder::Big
    } else {
        ByteOrder::Little
    };
    let version = match (selector >> 1) % 3 {
        0 => Version::V1_0,
        1 => Version::V1_1,
        _ => Version::V1_2,
    };
    let enc = Encoding::native().with_order(order).with_version(version);
    let mut d = Decoder::new(Bytes::copy_from_slice(rest), enc);
    let Ok(any) = Any::decode(&mut d) else {
        return;
    };
    let Ok(value) = any.value() else {
        return;
    };
    // Re-encode (in the other byte order, so nothing is copied through) and
    // read back.
    let other = enc.with_order(if order == ByteOrder::Big {
        ByteOrder::Little
    } else {
        ByteOrder::Big
    });
    let mut e = Encoder::new(other);
    let tc = any.type_code().clone();
    if value.encode(&tc, &mut e).is_err() {
        return;
    }
    let first = e.into_bytes();
    let mut d2 = Decoder::new(first.clone(), other);
    let again = rtorb_cdr::Value::decode(&tc, &mut d2).expect("re-encoded value decodes");
    // Compared by encoding (floats may be NaN): the same value writes the
    // same octets.
    let mut e2 = Encoder::new(other);
    again.encode(&tc, &mut e2).expect("decoded value encodes");
    assert_eq!(e2.into_bytes(), first);
    let mut e = Encoder::new(enc);
    any.encode(&mut e).expect("a decoded Any encodes");
});
