//! The generic CDR value decoder: an Any (a TypeCode, then a value of that
//! type) read from arbitrary bytes in every GIOP version and byte order.
//! Whatever decodes must encode again, in either byte order, to octets
//! that decode and encode to the same octets, and (for the types whose
//! values have one encoding) to the octets it was read from, up to
//! alignment padding. The checks are shared with the tests of `rtorb-cdr`,
//! which replay this target's corpus and the inputs that found bugs.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/rtorb-cdr/tests/support/value_checks.rs"]
mod value_checks;

fuzz_target!(|data: &[u8]| {
    value_checks::check_fuzz_input(data);
});
