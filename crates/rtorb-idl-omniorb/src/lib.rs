//! Every IDL file that Debian's `omniorb-idl` package installs under
//! `/usr/share/idl/omniORB`, compiled by `rtorb-idl`, each in its own
//! module (`CosNaming.idl` is [`cos_naming_idl`]). The crate exists to
//! show that the generated Rust builds and is clippy-clean for a large,
//! real corpus: the CORBA services, the interface repository, the POA,
//! valuetypes, value boxes, local and abstract interfaces.
//!
//! The ten files that omniidl itself rejects are left out (see
//! `build.rs`). Without the package the crate builds empty, with a
//! warning that says the corpus was skipped and why, so that a plain
//! `cargo build` needs only a Rust toolchain; with
//! `RTORB_REQUIRE_OMNIORB_IDL=1` (set by `scripts/test.sh`) a missing
//! corpus fails the build.

include!(concat!(env!("OUT_DIR"), "/all.rs"));
