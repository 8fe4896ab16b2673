//! lexer.
