//! service_context.
