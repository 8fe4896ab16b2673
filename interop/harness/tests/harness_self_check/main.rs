//! The harness's own tests: what it captures, records and dissects,
//! checked against omniORB, tshark and the committed fixtures alone. No
//! rtorb code runs here; the interoperability checks of rtorb are the
//! other test targets of this crate.
//!
//! - [`fixtures`]: the committed omniORB fixtures are well formed and
//!   labelled by what they contain (needs no peer);
//! - [`live_capture`]: live captures between omniORB's Cubit client and
//!   server, and their agreement with the fixtures;
//! - [`omni_tools`]: omniORB's `catior` and `genior`, and the committed
//!   IOR dumps;
//! - [`tshark`]: tshark's GIOP dissector reads what omniORB exchanges.

mod fixtures;
mod live_capture;
mod omni_tools;
mod tshark;
