//! The protocols that come with rtorb, registered together.

use super::registry::ProtocolRegistry;
use super::{iiop, uiop};

impl ProtocolRegistry {
    /// A registry with the protocols that come with rtorb: IIOP and UIOP.
    pub fn with_default_protocols() -> ProtocolRegistry {
        let mut r = ProtocolRegistry::new();
        iiop::register(&mut r);
        uiop::register(&mut r);
        r
    }
}
