//! The checks of the `cdr_value` fuzz target on stable Rust: the inputs
//! that found bugs, byte for byte, and the target's whole corpus
//! (`fuzz/corpus/cdr_value`). See `support/value_checks.rs` for what is
//! checked.

#[path = "support/fuzz_corpus.rs"]
mod fuzz_corpus;
#[path = "support/value_checks.rs"]
mod value_checks;

use rtorb_cdr::{Any, ByteOrder, Bytes, CdrDecode, CdrError, Decoder, Encoding, Version};
use value_checks::check_fuzz_input;

/// The encoding a fuzz input's selector octet picks.
fn selected(selector: u8) -> Encoding {
    let order = if selector & 1 == 0 {
        ByteOrder::Big
    } else {
        ByteOrder::Little
    };
    let version = [Version::V1_0, Version::V1_1, Version::V1_2][usize::from(selector >> 1) % 3];
    Encoding::native().with_order(order).with_version(version)
}

/// An Any of type `array<null, 1>`, whose one element occupies no
/// octets, followed by an octet: reading the Any counted the element
/// against that octet and accepted it, but its value, read from its own
/// octets (none), did not decode.
#[rustfmt::skip]
const ARRAY_OF_NULL_BEFORE_AN_OCTET: &[u8] = &[
    3, // selector: little-endian, GIOP 1.1
    20, 0, 0, 0, // tk_array
    12, 0, 0, 0, 1, 0, 0, 0, // its parameters: 12 octets, little-endian
    0, 0, 0, 0, // content: tk_null
    1, 0, 0, 0, // length 1
    0, // an octet after the Any
];

#[test]
fn elements_that_occupy_no_octets_are_refused_whatever_follows() {
    check_fuzz_input(ARRAY_OF_NULL_BEFORE_AN_OCTET);
    let (&selector, any) = ARRAY_OF_NULL_BEFORE_AN_OCTET.split_first().unwrap();
    for bytes in [any, &any[..any.len() - 1]] {
        let mut d = Decoder::new(Bytes::copy_from_slice(bytes), selected(selector));
        assert!(
            matches!(Any::decode(&mut d), Err(CdrError::Unsupported(_))),
            "{bytes:?}"
        );
    }
}

#[test]
fn the_fuzz_corpus_passes_the_checks() {
    fuzz_corpus::replay("cdr_value", check_fuzz_input);
}
