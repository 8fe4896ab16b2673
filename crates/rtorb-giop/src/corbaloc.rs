//! corbaloc.
