//! The checks of the `object_url` fuzz target on stable Rust, on
//! omniORB's IOR of a Cubit server and on the target's whole corpus
//! (`fuzz/corpus/object_url`); an input that finds a bug goes here too,
//! byte for byte. See `support/url_checks.rs` for what is checked.

#[path = "../../rtorb-cdr/tests/support/fuzz_corpus.rs"]
mod fuzz_corpus;
#[path = "support/url_checks.rs"]
mod url_checks;

use rtorb_cdr::{ByteOrder, Bytes, CdrDecode, Decoder, Encoding};
use rtorb_giop::ior::ObjectReference;
use rtorb_giop::{ObjectUrl, parse_object_url};
use url_checks::check_fuzz_input;

/// omniORB's IOR of a Cubit server (little-endian, with an ORB type and a
/// code sets component).
const OMNIORB_IOR: &str =
    include_str!("../../../interop/fixtures/omniorb-4.2.5/iors/cubit_server.ior");

#[test]
fn an_omniorb_ior_writes_back_to_its_octets() {
    assert!(matches!(
        parse_object_url(OMNIORB_IOR),
        Ok(ObjectUrl::Ior(_))
    ));
    check_fuzz_input(OMNIORB_IOR.as_bytes());
    // The same IOR in CDR: the encapsulation after its byte-order octet
    // and the padding to 4.
    let hex = OMNIORB_IOR
        .trim()
        .strip_prefix("IOR:")
        .expect("an IOR string");
    let octets: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex digits"))
        .collect();
    let cdr = &octets[4..];
    let mut d = Decoder::new(
        Bytes::copy_from_slice(cdr),
        Encoding::native().with_order(ByteOrder::Little),
    );
    assert!(ObjectReference::decode(&mut d).is_ok_and(|r| r.type_id == "IDL:Cubit:1.0"));
    check_fuzz_input(cdr);
}

#[test]
fn the_fuzz_corpus_passes_the_checks() {
    fuzz_corpus::replay("object_url", check_fuzz_input);
}
