//! framing.
