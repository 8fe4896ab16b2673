//! fragment.
