//! GIOP and GIOPlite byte streams: the first input octet picks the protocol
//! and the size of the pieces the rest arrives in; the pieces go through a
//! `FrameDecoder`, GIOP frames through a `Reassembler`, and every frame is
//! decoded. Nothing may panic, and whatever decodes must re-encode, decode
//! again to the same message, fragment and reassemble back to itself, and
//! (for GIOP 1.2 and GIOPlite) cross to the other protocol and back. The
//! checks are the ones the bounded fuzz test of `rtorb-giop` runs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rtorb_giop::FrameProtocol;
use rtorb_giop::fragment::MIN_FRAGMENT_SIZE;

#[path = "../../crates/rtorb-giop/tests/support/stream_checks.rs"]
mod stream_checks;

fuzz_target!(|data: &[u8]| {
    let Some((&control, stream)) = data.split_first() else {
        return;
    };
    let protocol = if control & 0x80 != 0 {
        FrameProtocol::Lite
    } else {
        FrameProtocol::Giop
    };
    let piece = usize::from(control & 0x3f) + 1;
    let fragment_size = MIN_FRAGMENT_SIZE + usize::from(control & 0x3f);
    stream_checks::run_stream(protocol, piece, fragment_size, stream);
});
