//! target.
