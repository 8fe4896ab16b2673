//! message.
