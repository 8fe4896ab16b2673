//! header.
