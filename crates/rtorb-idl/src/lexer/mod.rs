//! The IDL lexer: preprocessed text into [`Token`]s.
//!
//! The lexer reads the output of the preprocessor, in which comments are
//! still present and `#pragma` lines stand on lines of their own. It skips
//! white space and comments, keeps documentation comments (`/** ... */` and
//! `/// ...`) for the token that follows them, turns each `#pragma` line
//! into one [`TokenKind::Pragma`] (or [`TokenKind::UnknownPragma`]) token,
//! and gives every token a [`Location`](crate::diag::Location) in the original source through a
//! [`SourceMap`].
//!
//! `token` holds what the lexer makes (and the parser reads), `scanner`
//! the lexer itself, `pragma` the reading of `#pragma` lines.

mod pragma;
mod scanner;
mod token;

pub use scanner::tokenize;
pub use token::{Keyword, Punct, SingleFile, SourceMap, Token, TokenKind};
