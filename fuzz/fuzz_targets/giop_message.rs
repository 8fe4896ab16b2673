//! GIOP and GIOPlite byte streams: the first input octet picks the protocol
//! and the size of the pieces the rest arrives in; the pieces go through a
//! `FrameDecoder`, GIOP frames through a `Reassembler`, and every frame is
//! decoded. Nothing may panic, and whatever decodes must re-encode, decode
//! again to the same message, fragment and reassemble back to itself, and
//! (for GIOP 1.2 and GIOPlite) cross to the other protocol and back; the
//! in-place request and reply views must agree with the full decoding. The
//! checks are the ones the bounded fuzz test of `rtorb-giop` runs, which
//! also replays this target's corpus and the inputs that found bugs.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/rtorb-giop/tests/support/stream_checks.rs"]
mod stream_checks;

fuzz_target!(|data: &[u8]| {
    stream_checks::run_fuzz_input(data);
});
