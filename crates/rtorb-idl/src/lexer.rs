//! The IDL lexer: preprocessed text into [`Token`]s.
//!
//! The lexer reads the output of the preprocessor, in which comments are
//! still present and `#pragma` lines stand on lines of their own. It skips
//! white space and comments, keeps documentation comments (`/** ... */` and
//! `/// ...`) for the token that follows them, turns each `#pragma` line
//! into one [`TokenKind::Pragma`] (or [`TokenKind::UnknownPragma`]) token,
//! and gives every token a [`Location`] in the original source through a
//! [`SourceMap`].

use std::fmt;
use std::sync::Arc;

use crate::ast::{PragmaKind, ScopedName};
use crate::diag::{Diagnostic, Location};

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

/// Splits preprocessed IDL text into tokens.
///
/// The result always ends with a [`TokenKind::Eof`] token. Malformed
/// tokens are reported in the diagnostics and skipped, so that the parser
/// can still look for more errors.
pub fn tokenize(text: &str, map: &dyn SourceMap) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut lexer = Lexer {
        chars: text.chars().collect(),
        pos: 0,
        line: 1,
        col: 1,
        map,
        tokens: Vec::new(),
        errors: Vec::new(),
        doc: None,
        line_start: true,
    };
    lexer.run();
    (lexer.tokens, lexer.errors)
}

struct Lexer<'m> {
    chars: Vec<char>,
    pos: usize,
    line: u32,
    col: u32,
    map: &'m dyn SourceMap,
    tokens: Vec<Token>,
    errors: Vec<Diagnostic>,
    doc: Option<String>,
    /// Only white space since the start of the line.
    line_start: bool,
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || (c as u32 >= 0xC0 && c as u32 <= 0xFF && c.is_alphabetic())
}

fn is_ident_char(c: char) -> bool {
    is_ident_start(c) || c.is_ascii_digit() || c == '_'
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.chars.get(self.pos + n).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        if c == '\n' {
            self.line = self.line.saturating_add(1);
            self.col = 1;
            self.line_start = true;
        } else {
            self.col = self.col.saturating_add(1);
            if !c.is_whitespace() {
                self.line_start = false;
            }
        }
        Some(c)
    }

    fn here(&self) -> Location {
        self.location(self.line, self.col)
    }

    fn location(&self, line: u32, col: u32) -> Location {
        let (file, line) = self.map.origin(line);
        Location {
            file,
            line,
            column: col,
        }
    }

    fn error(&mut self, location: Location, message: impl Into<String>) {
        self.errors.push(Diagnostic::error(location, message));
    }

    fn push(&mut self, kind: TokenKind, location: Location) {
        let doc = self.doc.take();
        self.tokens.push(Token {
            kind,
            location,
            doc,
        });
    }

    fn run(&mut self) {
        loop {
            self.skip_trivia();
            let start = self.here();
            let at_line_start = self.line_start;
            let Some(c) = self.peek() else {
                self.push(TokenKind::Eof, start);
                return;
            };
            if c == '#' {
                if at_line_start {
                    self.directive(start);
                } else {
                    self.bump();
                    self.error(start, "unexpected character `#`");
                }
                continue;
            }
            if c == 'L' && matches!(self.peek_at(1), Some('\'') | Some('"')) {
                self.bump();
                if self.peek() == Some('\'') {
                    self.char_literal(start, true);
                } else {
                    self.string_literal(start, true);
                }
                continue;
            }
            if is_ident_start(c) || c == '_' {
                self.identifier(start);
                continue;
            }
            if c.is_ascii_digit()
                || (c == '.' && self.peek_at(1).is_some_and(|d| d.is_ascii_digit()))
            {
                self.number(start);
                continue;
            }
            if c == '\'' {
                self.char_literal(start, false);
                continue;
            }
            if c == '"' {
                self.string_literal(start, false);
                continue;
            }
            self.bump();
            let next = self.peek();
            let punct = match (c, next) {
                (':', Some(':')) => Some((Punct::ColonColon, true)),
                ('<', Some('<')) => Some((Punct::Shl, true)),
                ('>', Some('>')) => Some((Punct::Shr, true)),
                (';', _) => Some((Punct::Semi, false)),
                ('{', _) => Some((Punct::LBrace, false)),
                ('}', _) => Some((Punct::RBrace, false)),
                ('(', _) => Some((Punct::LParen, false)),
                (')', _) => Some((Punct::RParen, false)),
                ('<', _) => Some((Punct::Lt, false)),
                ('>', _) => Some((Punct::Gt, false)),
                (',', _) => Some((Punct::Comma, false)),
                (':', _) => Some((Punct::Colon, false)),
                ('=', _) => Some((Punct::Eq, false)),
                ('+', _) => Some((Punct::Plus, false)),
                ('-', _) => Some((Punct::Minus, false)),
                ('*', _) => Some((Punct::Star, false)),
                ('/', _) => Some((Punct::Slash, false)),
                ('%', _) => Some((Punct::Percent, false)),
                ('~', _) => Some((Punct::Tilde, false)),
                ('|', _) => Some((Punct::Pipe, false)),
                ('^', _) => Some((Punct::Caret, false)),
                ('&', _) => Some((Punct::Amp, false)),
                ('[', _) => Some((Punct::LBracket, false)),
                (']', _) => Some((Punct::RBracket, false)),
                _ => None,
            };
            match punct {
                Some((p, two)) => {
                    if two {
                        self.bump();
                    }
                    self.push(TokenKind::Punct(p), start);
                }
                None => self.error(
                    start,
                    format!("unexpected character `{}`", c.escape_default()),
                ),
            }
        }
    }

    /// Skips white space and comments, collecting documentation comments.
    fn skip_trivia(&mut self) {
        loop {
            match (self.peek(), self.peek_at(1)) {
                (Some(c), _) if c.is_whitespace() => {
                    self.bump();
                }
                (Some('/'), Some('/')) => {
                    let doc = self.peek_at(2) == Some('/') && self.peek_at(3) != Some('/');
                    self.bump();
                    self.bump();
                    let mut text = String::new();
                    while let Some(c) = self.peek() {
                        if c == '\n' {
                            break;
                        }
                        text.push(c);
                        self.bump();
                    }
                    if doc {
                        let body = text.strip_prefix('/').unwrap_or(&text);
                        let body = body.strip_prefix(' ').unwrap_or(body).trim_end();
                        match &mut self.doc {
                            Some(d) => {
                                d.push('\n');
                                d.push_str(body);
                            }
                            None => self.doc = Some(body.to_string()),
                        }
                    }
                }
                (Some('/'), Some('*')) => {
                    let start = self.here();
                    self.bump();
                    self.bump();
                    let doc = self.peek() == Some('*') && self.peek_at(1) != Some('/');
                    let mut text = String::new();
                    let mut closed = false;
                    while let Some(c) = self.bump() {
                        if c == '*' && self.peek() == Some('/') {
                            self.bump();
                            closed = true;
                            break;
                        }
                        text.push(c);
                    }
                    if !closed {
                        self.error(start, "unterminated comment");
                    } else if doc {
                        self.doc = Some(clean_block_doc(&text));
                    }
                }
                _ => return,
            }
        }
    }

    /// A `#` line: `#pragma` becomes a token, anything else is an error.
    fn directive(&mut self, start: Location) {
        let mut text = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            text.push(c);
            self.bump();
        }
        let rest = text[1..].trim_start();
        let word_end = rest
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(rest.len());
        let (word, args) = rest.split_at(word_end);
        if word != "pragma" {
            self.error(
                start,
                format!(
                    "unexpected preprocessor directive `#{word}` (the input must be preprocessed)"
                ),
            );
            return;
        }
        let args = strip_line_comment(args).trim();
        match parse_pragma(args, &start) {
            Ok(Some(kind)) => self.push_keep_doc(TokenKind::Pragma(kind), start),
            Ok(None) => self.push_keep_doc(TokenKind::UnknownPragma(args.to_string()), start),
            Err(message) => self.error(start, message),
        }
    }

    /// Pushes a token without taking the pending documentation comment,
    /// which belongs to the declaration after the pragma.
    fn push_keep_doc(&mut self, kind: TokenKind, location: Location) {
        self.tokens.push(Token {
            kind,
            location,
            doc: None,
        });
    }

    fn identifier(&mut self, start: Location) {
        let mut text = String::new();
        while let Some(c) = self.peek() {
            if !is_ident_char(c) {
                break;
            }
            text.push(c);
            self.bump();
        }
        if let Some(name) = text.strip_prefix('_') {
            if !name.starts_with(is_ident_start) {
                self.error(start, format!("invalid identifier `{text}`"));
                return;
            }
            let name = name.to_string();
            self.push(
                TokenKind::Identifier {
                    name,
                    escaped: true,
                },
                start,
            );
            return;
        }
        if let Some(k) = Keyword::from_exact(&text) {
            self.push(TokenKind::Keyword(k), start);
            return;
        }
        if let Some(k) = Keyword::from_ignoring_case(&text).filter(|k| !k.is_late()) {
            self.error(
                start.clone(),
                format!("identifier `{text}` collides with keyword `{k}` (IDL keywords are case-insensitive)"),
            );
        }
        self.push(
            TokenKind::Identifier {
                name: text,
                escaped: false,
            },
            start,
        );
    }

    fn number(&mut self, start: Location) {
        let errors = self.errors.len();
        let tokens = self.tokens.len();
        self.number_inner(start.clone());
        if self.errors.len() > errors && self.tokens.len() == tokens {
            // A placeholder, so that the parser does not report the
            // literal as missing.
            self.push(TokenKind::Integer(0), start);
        }
    }

    fn number_inner(&mut self, start: Location) {
        let mut text = String::new();
        // Hexadecimal.
        if self.peek() == Some('0') && matches!(self.peek_at(1), Some('x') | Some('X')) {
            self.bump();
            self.bump();
            while let Some(c) = self.peek().filter(|c| c.is_ascii_hexdigit()) {
                text.push(c);
                self.bump();
            }
            if text.is_empty() {
                self.error(start, "hexadecimal literal has no digits");
                return;
            }
            self.check_number_end(&start);
            match u64::from_str_radix(&text, 16) {
                Ok(v) => self.push(TokenKind::Integer(v), start),
                Err(_) => self.error(start, "integer literal is too large"),
            }
            return;
        }
        let mut is_float = false;
        while let Some(c) = self.peek().filter(|c| c.is_ascii_digit()) {
            text.push(c);
            self.bump();
        }
        if self.peek() == Some('.') {
            is_float = true;
            text.push('.');
            self.bump();
            while let Some(c) = self.peek().filter(|c| c.is_ascii_digit()) {
                text.push(c);
                self.bump();
            }
        }
        if matches!(self.peek(), Some('d') | Some('D')) {
            self.bump();
            self.check_number_end(&start);
            self.push(TokenKind::Fixed(text), start);
            return;
        }
        if matches!(self.peek(), Some('e') | Some('E')) {
            let sign = matches!(self.peek_at(1), Some('+') | Some('-'));
            let digit_at = if sign { 2 } else { 1 };
            if self.peek_at(digit_at).is_some_and(|c| c.is_ascii_digit()) {
                is_float = true;
                for _ in 0..digit_at {
                    if let Some(c) = self.bump() {
                        text.push(c);
                    }
                }
                while let Some(c) = self.peek().filter(|c| c.is_ascii_digit()) {
                    text.push(c);
                    self.bump();
                }
            } else {
                self.bump();
                self.error(start, "floating-point exponent has no digits");
                return;
            }
        }
        self.check_number_end(&start);
        if is_float {
            match text.parse::<f64>() {
                Ok(v) => self.push(TokenKind::Float(v), start),
                Err(_) => self.error(start, format!("invalid floating-point literal `{text}`")),
            }
            return;
        }
        let value = if text.len() > 1 && text.starts_with('0') {
            if text.contains(['8', '9']) {
                self.error(start, format!("invalid digit in octal literal `{text}`"));
                return;
            }
            u64::from_str_radix(&text, 8)
        } else {
            text.parse::<u64>()
        };
        match value {
            Ok(v) => self.push(TokenKind::Integer(v), start),
            Err(_) => self.error(start, "integer literal is too large"),
        }
    }

    /// Reports letters glued to the end of a number (`12abc`), and skips
    /// them.
    fn check_number_end(&mut self, start: &Location) {
        if self.peek().is_some_and(is_ident_char) {
            while self.peek().is_some_and(is_ident_char) {
                self.bump();
            }
            self.error(start.clone(), "invalid suffix on numeric literal");
        }
    }

    /// One character of a character or string literal, after the opening
    /// quote; `None` at the end of the line or input.
    fn literal_char(&mut self, wide: bool) -> Option<Result<char, (Location, String)>> {
        let at = self.here();
        let c = self.peek()?;
        if c == '\n' {
            return None;
        }
        self.bump();
        if c != '\\' {
            return Some(Ok(c));
        }
        let Some(e) = self.peek().filter(|&e| e != '\n') else {
            return Some(Err((at, "incomplete escape sequence".to_string())));
        };
        self.bump();
        let simple = match e {
            'n' => Some('\n'),
            't' => Some('\t'),
            'v' => Some('\u{b}'),
            'b' => Some('\u{8}'),
            'r' => Some('\r'),
            'f' => Some('\u{c}'),
            'a' => Some('\u{7}'),
            '\\' => Some('\\'),
            '?' => Some('?'),
            '\'' => Some('\''),
            '"' => Some('"'),
            _ => None,
        };
        if let Some(s) = simple {
            return Some(Ok(s));
        }
        let (radix, max, first) = match e {
            '0'..='7' => (8, 3, Some(e)),
            'x' => (16, 2, None),
            'u' if wide => (16, 4, None),
            'u' => {
                return Some(Err((
                    at,
                    "`\\u` escapes are only allowed in wide literals".to_string(),
                )));
            }
            _ => {
                return Some(Err((
                    at,
                    format!("unknown escape sequence `\\{}`", e.escape_default()),
                )));
            }
        };
        let mut digits: String = first.into_iter().collect();
        while digits.len() < max {
            match self.peek().filter(|c| c.is_digit(radix)) {
                Some(d) => {
                    digits.push(d);
                    self.bump();
                }
                None => break,
            }
        }
        if digits.is_empty() {
            return Some(Err((at, format!("escape `\\{e}` has no digits"))));
        }
        let value = u32::from_str_radix(&digits, radix).unwrap_or(u32::MAX);
        match char::from_u32(value) {
            Some(c) if wide || value <= 0xFF => Some(Ok(c)),
            _ => Some(Err((at, format!("escape `\\{e}{digits}` is out of range")))),
        }
    }

    fn char_literal(&mut self, start: Location, wide: bool) {
        let value = self.char_literal_value(&start, wide);
        // After an error, a placeholder keeps the parser from reporting
        // the missing literal as well.
        let c = value.unwrap_or('\0');
        let kind = if wide {
            TokenKind::WChar(c)
        } else {
            TokenKind::Char(c)
        };
        self.push(kind, start);
    }

    fn char_literal_value(&mut self, start: &Location, wide: bool) -> Option<char> {
        self.bump(); // '
        if self.peek() == Some('\'') {
            self.bump();
            self.error(start.clone(), "empty character literal");
            return None;
        }
        let value = self.literal_char(wide);
        if let Some(Err((at, message))) = value {
            self.error(at, message);
            while let Some(c) = self.peek().filter(|&c| c != '\n') {
                self.bump();
                if c == '\'' {
                    break;
                }
            }
            return None;
        }
        if self.peek() != Some('\'') {
            // Skip to the closing quote on this line, if any.
            while let Some(c) = self.peek() {
                if c == '\n' {
                    break;
                }
                self.bump();
                if c == '\'' {
                    self.error(
                        start.clone(),
                        "character literal holds more than one character",
                    );
                    return None;
                }
            }
            self.error(start.clone(), "unterminated character literal");
            return None;
        }
        self.bump();
        match value {
            Some(Ok(c)) => {
                if !wide && c as u32 > 0xFF {
                    self.error(
                        start.clone(),
                        "character does not fit in a `char`; use `L'...'`",
                    );
                    return None;
                }
                Some(c)
            }
            Some(Err(_)) | None => {
                self.error(start.clone(), "unterminated character literal");
                None
            }
        }
    }

    fn string_literal(&mut self, start: Location, wide: bool) {
        self.bump(); // "
        let mut text = String::new();
        let mut bad = false;
        loop {
            if self.peek() == Some('"') {
                self.bump();
                break;
            }
            match self.literal_char(wide) {
                None => {
                    self.error(start.clone(), "unterminated string literal");
                    bad = true;
                    break;
                }
                Some(Err((at, message))) => {
                    bad = true;
                    self.error(at, message);
                }
                Some(Ok(c)) => {
                    if c == '\0' {
                        bad = true;
                        self.error(start.clone(), "string literal contains a NUL character");
                    } else if !wide && c as u32 > 0xFF {
                        bad = true;
                        self.error(
                            start.clone(),
                            "character in string literal does not fit in a `char`; use `L\"...\"`",
                        );
                    }
                    text.push(c);
                }
            }
        }
        // Pushed even when malformed, so that the parser does not report
        // the literal as missing.
        if bad {
            text.clear();
        }
        if wide {
            self.push(TokenKind::WString(text), start);
        } else {
            self.push(TokenKind::String(text), start);
        }
    }
}

/// Removes a trailing `//` comment from a pragma line (outside quotes).
fn strip_line_comment(s: &str) -> &str {
    let mut in_string = false;
    let mut prev = '\0';
    for (i, c) in s.char_indices() {
        match c {
            '"' if prev != '\\' => in_string = !in_string,
            '/' if !in_string && s[i + 1..].starts_with('/') => return &s[..i],
            '/' if !in_string && s[i + 1..].starts_with('*') => return &s[..i],
            _ => {}
        }
        prev = c;
    }
    s
}

/// The text inside a `/** ... */` comment, without the leading `*` of
/// each line and without surrounding blank lines.
fn clean_block_doc(text: &str) -> String {
    let body = text.strip_prefix('*').unwrap_or(text);
    let lines: Vec<&str> = body
        .lines()
        .map(|l| {
            let t = l.trim_start();
            let t = t.strip_prefix('*').unwrap_or(t);
            t.strip_prefix(' ').unwrap_or(t).trim_end()
        })
        .collect();
    let first = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let last = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(first, |i| i + 1);
    lines.get(first..last).unwrap_or(&[]).join("\n")
}

/// Parses the arguments of `#pragma`: `Ok(None)` for a pragma IDL does
/// not define.
fn parse_pragma(args: &str, at: &Location) -> Result<Option<PragmaKind>, String> {
    let (word, rest) = split_word(args);
    match word {
        "prefix" => {
            let prefix = quoted(rest).ok_or("expected a string after `#pragma prefix`")?;
            Ok(Some(PragmaKind::Prefix(prefix)))
        }
        "ID" => {
            let (name, rest) =
                scoped_name(rest, at).ok_or("expected a scoped name after `#pragma ID`")?;
            let id = quoted(rest).ok_or("expected a string after the name in `#pragma ID`")?;
            Ok(Some(PragmaKind::Id { name, id }))
        }
        "version" => {
            let (name, rest) =
                scoped_name(rest, at).ok_or("expected a scoped name after `#pragma version`")?;
            let bad = "expected `<major>.<minor>` after the name in `#pragma version`";
            let (major, minor) = rest.trim().split_once('.').ok_or(bad)?;
            let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            if !all_digits(major) || !all_digits(minor) {
                return Err(bad.to_string());
            }
            let major = major.parse().map_err(|_| "version number out of range")?;
            let minor = minor.parse().map_err(|_| "version number out of range")?;
            Ok(Some(PragmaKind::Version { name, major, minor }))
        }
        _ => Ok(None),
    }
}

fn split_word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    s.split_at(end)
}

/// A string literal that is all of `s` (simple escapes `\"` and `\\`
/// only).
fn quoted(s: &str) -> Option<String> {
    let inner = s.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            '"' => return None,
            c => out.push(c),
        }
    }
    Some(out)
}

/// A scoped name at the start of `s`, and the rest.
fn scoped_name<'a>(s: &'a str, at: &Location) -> Option<(ScopedName, &'a str)> {
    let s = s.trim_start();
    let end = s
        .find(|c: char| !(is_ident_char(c) || c == ':'))
        .unwrap_or(s.len());
    let (text, rest) = s.split_at(end);
    let (absolute, body) = match text.strip_prefix("::") {
        Some(b) => (true, b),
        None => (false, text),
    };
    let mut parts = Vec::new();
    for part in body.split("::") {
        let name = part.strip_prefix('_').unwrap_or(part);
        if !name.starts_with(is_ident_start) || name.contains(':') {
            return None;
        }
        parts.push(name.to_string());
    }
    Some((
        ScopedName {
            absolute,
            parts,
            location: at.clone(),
        },
        rest,
    ))
}
