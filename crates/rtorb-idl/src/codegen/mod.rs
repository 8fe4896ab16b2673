//! The Rust back end: how IDL names and declarations become Rust items.
//!
//! This module is being built up in stages; [`names`] holds the naming
//! rules every generated item follows.

pub mod names;
