//! The lexer: characters into tokens, white space and comments skipped,
//! documentation comments kept for the token that follows them.

use super::pragma::{clean_block_doc, parse_pragma, strip_line_comment};
use super::token::{Keyword, Punct, SourceMap, Token, TokenKind, is_ident_char, is_ident_start};
use crate::diag::{Diagnostic, Location};

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
            Err(e) => self.error(start, e.to_string()),
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
