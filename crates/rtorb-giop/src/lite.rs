//! lite.
