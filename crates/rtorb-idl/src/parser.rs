//! parser.
