//! The IDL parser: tokens into the syntax tree of [`crate::ast`].
//!
//! A hand-written recursive-descent parser for the IDL 3 grammar (CORBA
//! 3.x, without the component model: `component`, `home`, `eventtype`,
//! `porttype`, `connector` and the port declarations `provides`, `uses`,
//! `emits`, `publishes` and `consumes` are each refused with "CORBA
//! Component Model constructs are not supported: `component`" and a
//! note). After an error it skips to the next
//! `;` or to the `}` that closes the current body and goes on, so one run
//! reports several errors. Nesting deeper than [`MAX_DEPTH`] is an error,
//! not a stack overflow.
//!
//! `#pragma prefix`, `ID` and `version` become [`Definition::Pragma`] (or
//! [`Export::Pragma`]) where they stand between declarations; a pragma
//! found inside a declaration is placed right after that declaration.
//! Other pragmas are ignored.
//!
//! The grammar's productions are methods of one `Parser`, by part of
//! the grammar: `definitions` (modules, interfaces, values), `types` and
//! `expressions`; this module holds the token cursor, error recovery and
//! names, which they all use.

use crate::ast::*;
use crate::diag::{Diagnostic, Location};
use crate::lexer::{Keyword, Punct, SourceMap, Token, TokenKind, tokenize};

/// How deeply declarations, types and expressions may nest.
pub const MAX_DEPTH: usize = 64;

/// Parsing stops after this many errors.
pub const MAX_ERRORS: usize = 100;

/// Lexes and parses preprocessed IDL text.
///
/// `map` gives the original file and line of each line of `text`
/// ([`crate::lexer::SingleFile`] when `text` is one file as written).
/// Returns every lexical and syntax error found.
pub fn parse(text: &str, map: &dyn SourceMap) -> Result<Specification, Vec<Diagnostic>> {
    let (tokens, mut errors) = tokenize(text, map);
    match parse_tokens(tokens) {
        Ok(spec) if errors.is_empty() => Ok(spec),
        Ok(_) => Err(errors),
        Err(more) => {
            errors.extend(more);
            errors.sort_by(|a, b| {
                (a.location.line, a.location.column).cmp(&(b.location.line, b.location.column))
            });
            Err(errors)
        }
    }
}

/// Parses a token sequence (as made by [`tokenize`]).
pub fn parse_tokens(tokens: Vec<Token>) -> Result<Specification, Vec<Diagnostic>> {
    let eof_location = tokens
        .last()
        .map(|t| t.location.clone())
        .unwrap_or_else(|| Location::new("<input>", 1, 1));
    let mut parser = Parser {
        tokens,
        pos: 0,
        eof: Token {
            kind: TokenKind::Eof,
            location: eof_location,
            doc: None,
        },
        errors: Vec::new(),
        depth: 0,
        pending: Vec::new(),
        no_shr: false,
    };
    let definitions = parser.definitions(true);
    if parser.errors.is_empty() {
        Ok(Specification { definitions })
    } else {
        Err(parser.errors)
    }
}

/// An error has been reported; unwind to where recovery happens.
struct Stop;

type PResult<T> = Result<T, Stop>;

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    eof: Token,
    errors: Vec<Diagnostic>,
    depth: usize,
    /// Pragmas met inside a declaration, placed after it.
    pending: Vec<Pragma>,
    /// Inside `<...>` of a template type, where `>>` closes two lists.
    no_shr: bool,
}

impl Parser {
    // ----- tokens -----

    fn skip_pragmas(&mut self) {
        while let Some(t) = self.tokens.get(self.pos) {
            match &t.kind {
                TokenKind::Pragma(kind) => {
                    self.pending.push(Pragma {
                        kind: kind.clone(),
                        location: t.location.clone(),
                    });
                }
                TokenKind::UnknownPragma(_) => {}
                _ => return,
            }
            self.pos += 1;
        }
    }

    fn token(&mut self) -> &Token {
        self.skip_pragmas();
        self.tokens.get(self.pos).unwrap_or(&self.eof)
    }

    fn peek(&mut self) -> &TokenKind {
        &self.token().kind
    }

    fn peek2(&mut self) -> &TokenKind {
        self.skip_pragmas();
        let mut i = self.pos + 1;
        while let Some(t) = self.tokens.get(i) {
            if !matches!(t.kind, TokenKind::Pragma(_) | TokenKind::UnknownPragma(_)) {
                return &t.kind;
            }
            i += 1;
        }
        &self.eof.kind
    }

    fn location(&mut self) -> Location {
        self.token().location.clone()
    }

    fn doc(&mut self) -> Option<String> {
        self.token().doc.clone()
    }

    fn advance(&mut self) {
        self.skip_pragmas();
        if self.pos < self.tokens.len() {
            self.pos += 1;
        }
    }

    fn is_punct(&mut self, p: Punct) -> bool {
        matches!(self.peek(), TokenKind::Punct(q) if *q == p)
    }

    fn is_keyword(&mut self, k: Keyword) -> bool {
        matches!(self.peek(), TokenKind::Keyword(q) if *q == k)
    }

    fn eat_punct(&mut self, p: Punct) -> bool {
        let yes = self.is_punct(p);
        if yes {
            self.advance();
        }
        yes
    }

    fn eat_keyword(&mut self, k: Keyword) -> bool {
        let yes = self.is_keyword(k);
        if yes {
            self.advance();
        }
        yes
    }

    // ----- errors -----

    fn error_here(&mut self, message: String) -> Stop {
        let location = self.location();
        self.errors.push(Diagnostic::error(location, message));
        Stop
    }

    /// The refusal of a construct of the CORBA Component Model, at the
    /// current token: `construct` is its keyword.
    fn component_model(&mut self, construct: &str) -> Stop {
        let location = self.location();
        self.errors.push(
            Diagnostic::error(
                location.clone(),
                format!("CORBA Component Model constructs are not supported: `{construct}`"),
            )
            .with_note(
                location,
                "rtorb-idl compiles IDL without the component model (components, homes, \
                 event types, ports and connectors); declare the interfaces they would \
                 provide or use as plain interfaces",
            ),
        );
        Stop
    }

    /// "expected {what}{context}, found {token}".
    fn expected(&mut self, what: &str, context: &str) -> Stop {
        let found = self.peek().to_string();
        self.error_here(format!("expected {what}{context}, found {found}"))
    }

    fn expect_punct(&mut self, p: Punct, context: &str) -> PResult<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{p}`"), context))
        }
    }

    fn expect_keyword(&mut self, k: Keyword, context: &str) -> PResult<()> {
        if self.eat_keyword(k) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{k}`"), context))
        }
    }

    /// A `>`, splitting a `>>` into two.
    fn expect_gt(&mut self, context: &str) -> PResult<()> {
        if self.is_punct(Punct::Shr) {
            if let Some(t) = self.tokens.get_mut(self.pos) {
                t.kind = TokenKind::Punct(Punct::Gt);
                t.location.column = t.location.column.saturating_add(1);
            }
            return Ok(());
        }
        self.expect_punct(Punct::Gt, context)
    }

    fn too_many_errors(&self) -> bool {
        self.errors.len() >= MAX_ERRORS
    }

    /// Skips to just after the next `;`, or to the `}` that closes the
    /// current body, stepping over nested braces. `open` is the number of
    /// braces the failed declaration opened and left open: the rest of
    /// its body is skipped.
    fn sync(&mut self, open: usize) {
        let mut depth = open;
        loop {
            match self.peek() {
                TokenKind::Eof => return,
                TokenKind::Punct(Punct::Semi) if depth == 0 => {
                    self.advance();
                    return;
                }
                TokenKind::Punct(Punct::LBrace) => depth += 1,
                TokenKind::Punct(Punct::RBrace) => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.advance();
                        self.eat_punct(Punct::Semi);
                        return;
                    }
                }
                _ => {}
            }
            self.advance();
        }
    }

    /// How many `{` between token `start` and the current one are not
    /// closed.
    fn unclosed_braces(&self, start: usize) -> usize {
        let end = self.pos.min(self.tokens.len());
        let mut open = 0usize;
        for t in self.tokens.get(start..end).unwrap_or(&[]) {
            match t.kind {
                TokenKind::Punct(Punct::LBrace) => open += 1,
                TokenKind::Punct(Punct::RBrace) => open = open.saturating_sub(1),
                _ => {}
            }
        }
        open
    }

    fn nested<T>(&mut self, f: impl FnOnce(&mut Parser) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error_here(format!("nesting is deeper than {MAX_DEPTH} levels")));
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    /// Parses items up to `}` (or the end of input at top level), with
    /// recovery after each failed item.
    fn list<T>(
        &mut self,
        top: bool,
        mut item: impl FnMut(&mut Parser) -> PResult<T>,
        pragma: Option<fn(Pragma) -> T>,
    ) -> Vec<T> {
        let mut out = Vec::new();
        loop {
            self.skip_pragmas();
            if let Some(wrap) = pragma {
                out.extend(self.pending.drain(..).map(wrap));
            }
            if self.too_many_errors() {
                self.pos = self.tokens.len();
            }
            match self.peek() {
                TokenKind::Eof => break,
                TokenKind::Punct(Punct::RBrace) if !top => break,
                _ => {}
            }
            let start = self.pos;
            match item(self) {
                Ok(x) => out.push(x),
                Err(Stop) => {
                    let open = self.unclosed_braces(start);
                    self.sync(open);
                    if self.pos == start {
                        self.advance();
                    }
                }
            }
        }
        out
    }

    /// `{ items }` with recovery inside.
    fn body<T>(
        &mut self,
        what: &str,
        item: impl FnMut(&mut Parser) -> PResult<T>,
        pragma: Option<fn(Pragma) -> T>,
    ) -> PResult<Vec<T>> {
        self.expect_punct(Punct::LBrace, &format!(" to open {what}"))?;
        self.nested(|p| {
            let items = p.list(false, item, pragma);
            p.expect_punct(Punct::RBrace, &format!(" to close {what}"))?;
            Ok(items)
        })
    }

    fn semi(&mut self, after: &str) -> PResult<()> {
        self.expect_punct(Punct::Semi, &format!(" after {after}"))
    }

    // ----- names -----

    fn identifier(&mut self, context: &str) -> PResult<Identifier> {
        let location = self.location();
        if let TokenKind::Identifier { name, escaped } = self.peek() {
            let id = Identifier {
                name: name.clone(),
                escaped: *escaped,
                location,
            };
            self.advance();
            Ok(id)
        } else {
            Err(self.expected("an identifier", context))
        }
    }

    fn scoped_name(&mut self, context: &str) -> PResult<ScopedName> {
        let location = self.location();
        let absolute = self.eat_punct(Punct::ColonColon);
        let mut parts = vec![self.identifier(context)?.name];
        while self.is_punct(Punct::ColonColon) {
            self.advance();
            parts.push(self.identifier(" after `::`")?.name);
        }
        Ok(ScopedName {
            absolute,
            parts,
            location,
        })
    }

    fn scoped_names(&mut self, context: &str) -> PResult<Vec<ScopedName>> {
        let mut names = vec![self.scoped_name(context)?];
        while self.eat_punct(Punct::Comma) {
            names.push(self.scoped_name(context)?);
        }
        Ok(names)
    }

    fn string_literal(&mut self, context: &str) -> PResult<String> {
        let mut text = match self.peek() {
            TokenKind::String(s) => s.clone(),
            _ => return Err(self.expected("a string literal", context)),
        };
        self.advance();
        while let TokenKind::String(s) = self.peek() {
            text.push_str(&s.clone());
            self.advance();
        }
        Ok(text)
    }
}

mod definitions;
mod expressions;
mod types;
