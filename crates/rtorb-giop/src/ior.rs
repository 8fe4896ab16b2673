//! ior.
