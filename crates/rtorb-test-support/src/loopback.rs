//! Loopback ORBs of the tests: rtorb's in-process GIOP loopback, which
//! encodes, decodes and dispatches every request with no socket, in each
//! GIOP version and byte order a test runs through.

use std::sync::Arc;

use rtorb::loopback::Loopback;
use rtorb_cdr::{ByteOrder, Version};

/// Every GIOP version rtorb speaks.
pub const VERSIONS: [Version; 3] = [Version::V1_0, Version::V1_1, Version::V1_2];

/// A loopback in each of `versions` and each byte order: big-endian then
/// little-endian for each version in turn.
pub fn loopbacks(versions: &[Version]) -> Vec<Arc<Loopback>> {
    versions
        .iter()
        .flat_map(|v| [ByteOrder::Big, ByteOrder::Little].map(|o| Loopback::new(*v, o)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loopback_for_each_version_and_byte_order() {
        assert_eq!(loopbacks(&VERSIONS).len(), 6);
        assert_eq!(loopbacks(&[Version::V1_2]).len(), 2);
    }
}
