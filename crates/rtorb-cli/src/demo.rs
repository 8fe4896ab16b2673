//! `rtorb demo`: round-trips real GIOP messages and object references.

/// Runs the demo.
pub(crate) fn run() -> Result<String, String> {
    Err("not built yet".into())
}
