//! # rtorb-interop: checking rtorb's wire layer against real peers
//!
//! This crate is test infrastructure. It drives omniORB (a mature C++ ORB),
//! JacORB (a Java ORB) and tshark (whose GIOP dissector is an independent
//! reading of the specification) so that rtorb's encoders and decoders can be compared with
//! what other implementations put on, and accept from, the wire.
//!
//! The pieces:
//! - [`ensure_peers`] builds the omniORB Cubit server and client and the
//!   server and client of the interop IDL from `interop/omniorb/` (once per
//!   process, serialised between processes) and returns their paths in
//!   [`PeerPaths`]. A missing omniORB is an error with a message saying how
//!   to install it, never a silent skip. [`start_interop_server`] runs the
//!   interop IDL's server.
//! - [`RecordingProxy`] is a TCP proxy that forwards a connection to a target
//!   and records each direction; [`Recording`] splits the recorded streams
//!   into GIOP messages with [`split_giop_stream`].
//! - [`capture_cubit`] runs the omniORB client against the omniORB server
//!   through the proxy for a chosen GIOP version and returns every message
//!   each way in a [`Capture`].
//! - [`tshark_decode_giop`] and [`tshark_decode_exchange`] send messages over
//!   loopback while tshark's `dumpcap` captures, and return tshark's
//!   dissection.
//! - [`catior`] and [`genior`] wrap omniORB's IOR tools.
//! - [`peek`] reads just enough of a GIOP message (header, request and reply
//!   ids, operation names) to label and sanity-check captures without
//!   depending on rtorb's own decoder.
//! - [`fixtures`] names and writes recorded messages as fixture files, and
//!   finds the committed ones.
//! - [`ensure_jacorb`] compiles the JacORB peers of `interop/jacorb/`
//!   (a DII Cubit client, a forwarding server) against JacORB's jars.
//! - [`hex`] reads and writes the hex text format of the recorded fixtures
//!   under `interop/fixtures/`.

pub mod capture;
pub mod fixtures;
pub mod hex;
pub mod jacorb;
pub mod omni_tools;
pub mod peek;
pub mod peers;
pub mod process;
pub mod proxy;
pub mod tshark;

pub use capture::{
    Capture, CaptureOptions, CubitServer, DIRECT_SEND_OCTETS, FRAGMENTING_OCTETS, GiopVersion,
    capture_cubit, expected_operations, start_cubit_server, start_interop_server,
};
pub use jacorb::{JacorbPeers, ensure_jacorb};
pub use omni_tools::{catior, genior};
pub use peers::{PeerPaths, cubit_idl, ensure_peers, workspace_root};
pub use proxy::{Direction, Recording, RecordingProxy, SplitError, split_giop_stream};
pub use tshark::{tshark_decode_exchange, tshark_decode_giop, tshark_giop_fields};
