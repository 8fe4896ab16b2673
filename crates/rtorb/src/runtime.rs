//! The runtime interface of generated code.
