//! Tokens: their kinds, keywords and punctuation, and where each came
//! from ([`SourceMap`]).

use std::fmt;
use std::sync::Arc;

use crate::ast::PragmaKind;
use crate::diag::Location;

/// Maps a line of the preprocessed text back to the file and line it came
/// from.
pub trait SourceMap {
    /// The file and line (from 1) of line `line` (from 1) of the
    /// preprocessed text.
    fn origin(&self, line: u32) -> (Arc<str>, u32);
}

impl<F: Fn(u32) -> (Arc<str>, u32)> SourceMap for F {
    fn origin(&self, line: u32) -> (Arc<str>, u32) {
        self(line)
    }
}

/// The identity mapping: the text is one file, not preprocessed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SingleFile(pub Arc<str>);

impl SingleFile {
    /// The identity mapping for the file named `name`.
    pub fn new(name: impl Into<Arc<str>>) -> SingleFile {
        SingleFile(name.into())
    }
}

impl SourceMap for SingleFile {
    fn origin(&self, line: u32) -> (Arc<str>, u32) {
        (self.0.clone(), line)
    }
}

macro_rules! keywords {
    ($($variant:ident => $text:literal),* $(,)?) => {
        /// A reserved word of IDL 3 / CORBA 3.x.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Keyword {
            $(
                #[doc = concat!("`", $text, "`")]
                $variant,
            )*
        }

        impl Keyword {
            /// Every keyword.
            pub const ALL: &'static [Keyword] = &[$(Keyword::$variant),*];

            /// The keyword as written in IDL.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Keyword::$variant => $text,)*
                }
            }
        }
    };
}

keywords! {
    Abstract => "abstract",
    Any => "any",
    Attribute => "attribute",
    Boolean => "boolean",
    Case => "case",
    Char => "char",
    Component => "component",
    Const => "const",
    Consumes => "consumes",
    Context => "context",
    Custom => "custom",
    Default => "default",
    Double => "double",
    Emits => "emits",
    Enum => "enum",
    EventType => "eventtype",
    Exception => "exception",
    Factory => "factory",
    False => "FALSE",
    Finder => "finder",
    Fixed => "fixed",
    Float => "float",
    GetRaises => "getraises",
    Home => "home",
    Import => "import",
    In => "in",
    InOut => "inout",
    Interface => "interface",
    Local => "local",
    Long => "long",
    Module => "module",
    Multiple => "multiple",
    Native => "native",
    Object => "Object",
    Octet => "octet",
    Oneway => "oneway",
    Out => "out",
    PrimaryKey => "primarykey",
    Private => "private",
    Provides => "provides",
    Public => "public",
    Publishes => "publishes",
    Raises => "raises",
    Readonly => "readonly",
    SetRaises => "setraises",
    Sequence => "sequence",
    Short => "short",
    String => "string",
    Struct => "struct",
    Supports => "supports",
    Switch => "switch",
    True => "TRUE",
    Truncatable => "truncatable",
    Typedef => "typedef",
    TypeId => "typeid",
    TypePrefix => "typeprefix",
    Unsigned => "unsigned",
    Union => "union",
    Uses => "uses",
    ValueBase => "ValueBase",
    ValueType => "valuetype",
    Void => "void",
    WChar => "wchar",
    WString => "wstring",
}

impl Keyword {
    /// The keyword spelled exactly `text`, if any.
    pub fn from_exact(text: &str) -> Option<Keyword> {
        Keyword::ALL.iter().copied().find(|k| k.as_str() == text)
    }

    /// Whether the keyword was added with value types (CORBA 2.3) or the
    /// component model (CORBA 3). Older IDL, such as the CORBAservices
    /// specifications, uses names like `EventType` and `Factory`; an
    /// identifier that differs from one of these keywords only in case is
    /// accepted, as other IDL compilers do.
    pub fn is_late(self) -> bool {
        use Keyword::*;
        matches!(
            self,
            Abstract
                | Component
                | Consumes
                | Custom
                | Emits
                | EventType
                | Factory
                | Finder
                | GetRaises
                | Home
                | Import
                | Local
                | Multiple
                | PrimaryKey
                | Private
                | Provides
                | Public
                | Publishes
                | SetRaises
                | Supports
                | Truncatable
                | TypeId
                | TypePrefix
                | Uses
                | ValueBase
                | ValueType
        )
    }

    /// The keyword that `text` spells when case is ignored, if any.
    pub fn from_ignoring_case(text: &str) -> Option<Keyword> {
        Keyword::ALL
            .iter()
            .copied()
            .find(|k| k.as_str().eq_ignore_ascii_case(text))
    }
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A punctuation token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Punct {
    /// `::`
    ColonColon,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `;`
    Semi,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `=`
    Eq,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `%`
    Percent,
    /// `~`
    Tilde,
    /// `|`
    Pipe,
    /// `^`
    Caret,
    /// `&`
    Amp,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
}

impl Punct {
    /// The punctuation as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Punct::ColonColon => "::",
            Punct::Shl => "<<",
            Punct::Shr => ">>",
            Punct::Semi => ";",
            Punct::LBrace => "{",
            Punct::RBrace => "}",
            Punct::LParen => "(",
            Punct::RParen => ")",
            Punct::Lt => "<",
            Punct::Gt => ">",
            Punct::Comma => ",",
            Punct::Colon => ":",
            Punct::Eq => "=",
            Punct::Plus => "+",
            Punct::Minus => "-",
            Punct::Star => "*",
            Punct::Slash => "/",
            Punct::Percent => "%",
            Punct::Tilde => "~",
            Punct::Pipe => "|",
            Punct::Caret => "^",
            Punct::Amp => "&",
            Punct::LBracket => "[",
            Punct::RBracket => "]",
        }
    }
}

impl fmt::Display for Punct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a token is.
#[derive(Debug, Clone, PartialEq)]
pub enum TokenKind {
    /// An identifier. `_foo` is the identifier `foo` with `escaped` set.
    Identifier {
        /// The name, without the escaping underscore.
        name: String,
        /// Whether it was written with a leading underscore.
        escaped: bool,
    },
    /// A keyword.
    Keyword(Keyword),
    /// An integer literal (decimal, octal or hexadecimal).
    Integer(u64),
    /// A floating-point literal.
    Float(f64),
    /// A fixed-point literal (`1.5d`): its digits with the point, without
    /// the `d`, as written (`"1.5"`).
    Fixed(String),
    /// A character literal.
    Char(char),
    /// A wide character literal (`L'x'`).
    WChar(char),
    /// A string literal (one piece; the parser joins adjacent ones).
    String(String),
    /// A wide string literal (`L"..."`).
    WString(String),
    /// Punctuation.
    Punct(Punct),
    /// A `#pragma prefix`, `ID` or `version` line.
    Pragma(PragmaKind),
    /// Any other `#pragma` line: its text after `pragma`.
    UnknownPragma(String),
    /// The end of the input.
    Eof,
}

impl fmt::Display for TokenKind {
    /// How the token is named in "found ..." of an error message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenKind::Identifier { name, escaped } => {
                let us = if *escaped { "_" } else { "" };
                write!(f, "identifier `{us}{name}`")
            }
            TokenKind::Keyword(k) => write!(f, "keyword `{k}`"),
            TokenKind::Integer(_) => f.write_str("integer literal"),
            TokenKind::Float(_) => f.write_str("floating-point literal"),
            TokenKind::Fixed(_) => f.write_str("fixed-point literal"),
            TokenKind::Char(_) => f.write_str("character literal"),
            TokenKind::WChar(_) => f.write_str("wide character literal"),
            TokenKind::String(_) => f.write_str("string literal"),
            TokenKind::WString(_) => f.write_str("wide string literal"),
            TokenKind::Punct(p) => write!(f, "`{p}`"),
            TokenKind::Pragma(_) | TokenKind::UnknownPragma(_) => f.write_str("`#pragma`"),
            TokenKind::Eof => f.write_str("end of file"),
        }
    }
}

/// A token with where it starts and the documentation comment, if any,
/// that came right before it.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Where it starts.
    pub location: Location,
    /// The text of the `/** ... */` or `///` comments just before it.
    pub doc: Option<String>,
}

/// Whether `c` can start an identifier (a letter, ASCII or Latin-1).
pub(super) fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || (c as u32 >= 0xC0 && c as u32 <= 0xFF && c.is_alphabetic())
}

/// Whether `c` can continue an identifier.
pub(super) fn is_ident_char(c: char) -> bool {
    is_ident_start(c) || c.is_ascii_digit() || c == '_'
}
