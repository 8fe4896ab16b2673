//! exception.
