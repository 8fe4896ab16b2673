//! Stringified IORs, `corbaloc:` and `corbaname:` URLs, and IORs in CDR:
//! every input parses or fails with a typed error, and whatever parses
//! writes back to what it was read from: a URL prints to one that parses
//! to the same URL, and an IOR (stringified or in CDR) encodes to the
//! octets it came in, up to alignment padding, and decodes to the same
//! reference. The checks are shared with the tests of `rtorb-giop`, which
//! replay this target's corpus and the inputs that found bugs.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/rtorb-giop/tests/support/url_checks.rs"]
mod url_checks;

fuzz_target!(|data: &[u8]| {
    url_checks::check_fuzz_input(data);
});
