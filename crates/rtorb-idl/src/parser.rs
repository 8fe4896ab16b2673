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

use crate::ast::*;
use crate::diag::{Diagnostic, Location};
use crate::lexer::{Keyword, Punct, SourceMap, Token, TokenKind, tokenize};

/// How deeply declarations, types and expressions may nest.
pub const MAX_DEPTH: usize = 64;

/// Identifiers that start a definition of the component model in IDL 4
/// (`porttype P { ... };`, `connector C { ... };`): refused as such.
const CCM_IDENTIFIERS: &[&str] = &["porttype", "connector"];

/// Keywords of component ports, refused where an interface or value type
/// expects an operation or attribute.
const CCM_PORT_KEYWORDS: &[Keyword] = &[
    Keyword::Provides,
    Keyword::Uses,
    Keyword::Emits,
    Keyword::Publishes,
    Keyword::Consumes,
];

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

    // ----- definitions -----

    fn definitions(&mut self, top: bool) -> Vec<Definition> {
        self.list(top, Parser::definition, Some(Definition::Pragma))
    }

    fn definition(&mut self) -> PResult<Definition> {
        let doc = self.doc();
        let location = self.location();
        let kw = match self.peek() {
            TokenKind::Keyword(k) => *k,
            // IDL 4 port types and connectors (no IDL 3 definition starts
            // with an identifier).
            TokenKind::Identifier {
                name,
                escaped: false,
            } if CCM_IDENTIFIERS.contains(&name.as_str()) => {
                let name = name.clone();
                return Err(self.component_model(&name));
            }
            _ => return Err(self.expected("a definition", "")),
        };
        match kw {
            Keyword::Module => {
                self.advance();
                let name = self.identifier(" after `module`")?;
                let definitions = self.nested(|p| {
                    p.expect_punct(Punct::LBrace, " to open the module")?;
                    let defs = p.definitions(false);
                    p.expect_punct(Punct::RBrace, " to close the module")?;
                    Ok(defs)
                })?;
                self.semi("module declaration")?;
                Ok(Definition::Module(Module {
                    name,
                    definitions,
                    doc,
                    location,
                }))
            }
            Keyword::Interface | Keyword::Local => self.interface(doc, location),
            Keyword::Abstract => match self.peek2() {
                TokenKind::Keyword(Keyword::ValueType) => self.value(doc, location),
                TokenKind::Keyword(Keyword::EventType) => Err(self.component_model("eventtype")),
                _ => self.interface(doc, location),
            },
            Keyword::ValueType => self.value(doc, location),
            Keyword::Custom => match self.peek2() {
                TokenKind::Keyword(Keyword::EventType) => Err(self.component_model("eventtype")),
                _ => self.value(doc, location),
            },
            Keyword::Component | Keyword::Home | Keyword::EventType => {
                Err(self.component_model(kw.as_str()))
            }
            Keyword::Import => {
                Err(self.error_here("`import` declarations are not supported".into()))
            }
            _ => {
                let Some(export) = self.common_export(kw, doc, location)? else {
                    return Err(self.expected("a definition", ""));
                };
                Ok(match export {
                    Export::Type(t) => Definition::Type(t),
                    Export::Const(c) => Definition::Const(c),
                    Export::Except(e) => Definition::Except(e),
                    Export::TypeId(t) => Definition::TypeId(t),
                    Export::TypePrefix(t) => Definition::TypePrefix(t),
                    Export::Pragma(p) => Definition::Pragma(p),
                    Export::Attribute(_) | Export::Operation(_) => {
                        return Err(self.expected("a definition", ""));
                    }
                })
            }
        }
    }

    /// The declarations allowed both at module level and in interfaces:
    /// types, constants, exceptions, `typeid`, `typeprefix` (with their
    /// `;`). `None` when the keyword starts none of them.
    fn common_export(
        &mut self,
        kw: Keyword,
        doc: Option<String>,
        location: Location,
    ) -> PResult<Option<Export>> {
        Ok(Some(match kw {
            Keyword::Typedef
            | Keyword::Struct
            | Keyword::Union
            | Keyword::Enum
            | Keyword::Native => {
                let (dcl, what) = self.type_dcl(doc, location)?;
                self.semi(what)?;
                Export::Type(dcl)
            }
            Keyword::Const => {
                let c = self.const_dcl(doc, location)?;
                self.semi("constant declaration")?;
                Export::Const(c)
            }
            Keyword::Exception => {
                self.advance();
                let name = self.identifier(" after `exception`")?;
                let members = self.body("the exception", Parser::member, None)?;
                self.semi("exception declaration")?;
                Export::Except(Except {
                    name,
                    members,
                    doc,
                    location,
                })
            }
            Keyword::TypeId => {
                self.advance();
                let name = self.scoped_name(" after `typeid`")?;
                let id = self.string_literal(" for the repository id")?;
                self.semi("typeid declaration")?;
                Export::TypeId(TypeId { name, id, location })
            }
            Keyword::TypePrefix => {
                self.advance();
                let name = self.scoped_name(" after `typeprefix`")?;
                let prefix = self.string_literal(" for the prefix")?;
                self.semi("typeprefix declaration")?;
                Export::TypePrefix(TypePrefix {
                    name,
                    prefix,
                    location,
                })
            }
            _ => return Ok(None),
        }))
    }

    fn interface(&mut self, doc: Option<String>, location: Location) -> PResult<Definition> {
        let kind = if self.eat_keyword(Keyword::Abstract) {
            InterfaceKind::Abstract
        } else if self.eat_keyword(Keyword::Local) {
            InterfaceKind::Local
        } else {
            InterfaceKind::Plain
        };
        self.expect_keyword(Keyword::Interface, "")?;
        let name = self.identifier(" after `interface`")?;
        if self.eat_punct(Punct::Semi) {
            return Ok(Definition::InterfaceForward(InterfaceForward {
                kind,
                name,
                doc,
                location,
            }));
        }
        let inherits = if self.eat_punct(Punct::Colon) {
            self.scoped_names(" in the inheritance list")?
        } else {
            Vec::new()
        };
        let body = self.body("the interface body", Parser::export, Some(Export::Pragma))?;
        self.semi("interface declaration")?;
        Ok(Definition::Interface(Interface {
            kind,
            name,
            inherits,
            body,
            doc,
            location,
        }))
    }

    fn export(&mut self) -> PResult<Export> {
        let doc = self.doc();
        let location = self.location();
        if let TokenKind::Keyword(kw) = *self.peek() {
            if CCM_PORT_KEYWORDS.contains(&kw) {
                return Err(self.component_model(kw.as_str()));
            }
            if let Some(e) = self.common_export(kw, doc.clone(), location.clone())? {
                return Ok(e);
            }
            if kw == Keyword::Readonly || kw == Keyword::Attribute {
                let a = self.attribute(doc, location)?;
                self.semi("attribute declaration")?;
                return Ok(Export::Attribute(a));
            }
        }
        let op = self.operation(doc, location)?;
        self.semi("operation declaration")?;
        Ok(Export::Operation(op))
    }

    fn attribute(&mut self, doc: Option<String>, location: Location) -> PResult<Attribute> {
        let readonly = self.eat_keyword(Keyword::Readonly);
        self.expect_keyword(Keyword::Attribute, " after `readonly`")?;
        let type_spec = self.type_spec()?;
        let mut names = vec![self.identifier(" for the attribute name")?];
        let mut get_raises = Vec::new();
        let mut set_raises = Vec::new();
        if readonly && self.is_keyword(Keyword::Raises) {
            get_raises = self.raises()?;
        } else if !readonly
            && (self.is_keyword(Keyword::GetRaises) || self.is_keyword(Keyword::SetRaises))
        {
            if self.eat_keyword(Keyword::GetRaises) {
                get_raises = self.exception_list("getraises")?;
            }
            if self.eat_keyword(Keyword::SetRaises) {
                set_raises = self.exception_list("setraises")?;
            }
        } else {
            while self.eat_punct(Punct::Comma) {
                names.push(self.identifier(" for the attribute name")?);
            }
        }
        Ok(Attribute {
            readonly,
            type_spec,
            names,
            get_raises,
            set_raises,
            doc,
            location,
        })
    }

    /// `raises (A, B)` if present.
    fn raises(&mut self) -> PResult<Vec<ScopedName>> {
        if self.eat_keyword(Keyword::Raises) {
            self.exception_list("raises")
        } else {
            Ok(Vec::new())
        }
    }

    fn exception_list(&mut self, after: &str) -> PResult<Vec<ScopedName>> {
        self.expect_punct(Punct::LParen, &format!(" after `{after}`"))?;
        let names = self.scoped_names(" in the exception list")?;
        self.expect_punct(Punct::RParen, " to close the exception list")?;
        Ok(names)
    }

    fn operation(&mut self, doc: Option<String>, location: Location) -> PResult<Operation> {
        let oneway = self.eat_keyword(Keyword::Oneway);
        let return_type = if self.eat_keyword(Keyword::Void) {
            None
        } else if self.starts_type() {
            Some(self.type_spec()?)
        } else {
            let what = if oneway {
                "a return type"
            } else {
                "an operation, attribute or declaration"
            };
            return Err(self.expected(what, ""));
        };
        let name = self.identifier(" for the operation name")?;
        let params = self.params(true)?;
        let raises = self.raises()?;
        let mut context = Vec::new();
        if self.eat_keyword(Keyword::Context) {
            self.expect_punct(Punct::LParen, " after `context`")?;
            context.push(self.string_literal(" in the context list")?);
            while self.eat_punct(Punct::Comma) {
                context.push(self.string_literal(" in the context list")?);
            }
            self.expect_punct(Punct::RParen, " to close the context list")?;
        }
        Ok(Operation {
            oneway,
            return_type,
            name,
            params,
            raises,
            context,
            doc,
            location,
        })
    }

    /// `( params )`; with `directions` false (factories), every parameter
    /// is `in`.
    fn params(&mut self, directions: bool) -> PResult<Vec<Param>> {
        self.expect_punct(Punct::LParen, " to open the parameter list")?;
        let mut params = Vec::new();
        if self.eat_punct(Punct::RParen) {
            return Ok(params);
        }
        loop {
            let location = self.location();
            let direction = match self.peek() {
                TokenKind::Keyword(Keyword::In) => Direction::In,
                TokenKind::Keyword(Keyword::Out) if directions => Direction::Out,
                TokenKind::Keyword(Keyword::InOut) if directions => Direction::InOut,
                _ if directions => {
                    return Err(self.expected("a parameter direction (`in`, `out` or `inout`)", ""));
                }
                _ => return Err(self.expected("`in`", " (factory parameters are all `in`)")),
            };
            self.advance();
            let type_spec = self.type_spec()?;
            let name = self.identifier(" for the parameter name")?;
            params.push(Param {
                direction,
                type_spec,
                name,
                location,
            });
            if self.eat_punct(Punct::RParen) {
                return Ok(params);
            }
            if !self.eat_punct(Punct::Comma) {
                return Err(self.expected("`,` or `)`", " in the parameter list"));
            }
        }
    }

    fn value(&mut self, doc: Option<String>, location: Location) -> PResult<Definition> {
        let kind = if self.eat_keyword(Keyword::Abstract) {
            ValueKind::Abstract
        } else if self.eat_keyword(Keyword::Custom) {
            ValueKind::Custom
        } else {
            ValueKind::Plain
        };
        self.expect_keyword(Keyword::ValueType, "")?;
        let name = self.identifier(" after `valuetype`")?;
        if self.is_punct(Punct::Semi) {
            if kind == ValueKind::Custom {
                return Err(self.error_here("a forward declaration cannot be `custom`".into()));
            }
            self.advance();
            return Ok(Definition::ValueForward(ValueForward {
                is_abstract: kind == ValueKind::Abstract,
                name,
                doc,
                location,
            }));
        }
        let header = self.is_punct(Punct::Colon)
            || self.is_punct(Punct::LBrace)
            || self.is_keyword(Keyword::Supports);
        if kind == ValueKind::Plain && !header {
            let type_spec = self.type_spec()?;
            self.semi("value box declaration")?;
            return Ok(Definition::ValueBox(ValueBox {
                name,
                type_spec,
                doc,
                location,
            }));
        }
        let mut truncatable = false;
        let mut inherits = Vec::new();
        if self.eat_punct(Punct::Colon) {
            truncatable = self.eat_keyword(Keyword::Truncatable);
            inherits = self.scoped_names(" in the inheritance list")?;
        }
        let supports = if self.eat_keyword(Keyword::Supports) {
            self.scoped_names(" after `supports`")?
        } else {
            Vec::new()
        };
        let body = self.body(
            "the value type body",
            Parser::value_element,
            Some(|p| ValueElement::Export(Export::Pragma(p))),
        )?;
        self.semi("value type declaration")?;
        Ok(Definition::ValueType(ValueType {
            kind,
            name,
            truncatable,
            inherits,
            supports,
            body,
            doc,
            location,
        }))
    }

    fn value_element(&mut self) -> PResult<ValueElement> {
        let doc = self.doc();
        let location = self.location();
        match self.peek() {
            TokenKind::Keyword(Keyword::Public | Keyword::Private) => {
                let public = self.is_keyword(Keyword::Public);
                self.advance();
                let type_spec = self.type_spec()?;
                let declarators = self.declarators()?;
                self.semi("state member")?;
                Ok(ValueElement::State(StateMember {
                    public,
                    type_spec,
                    declarators,
                    doc,
                    location,
                }))
            }
            TokenKind::Keyword(Keyword::Factory) => {
                self.advance();
                let name = self.identifier(" after `factory`")?;
                let params = self.params(false)?;
                let raises = self.raises()?;
                self.semi("factory declaration")?;
                Ok(ValueElement::Factory(Factory {
                    name,
                    params,
                    raises,
                    doc,
                    location,
                }))
            }
            _ => Ok(ValueElement::Export(self.export()?)),
        }
    }

    // ----- types -----

    /// A type declaration (without its `;`), and what to call it in the
    /// "expected `;` after ..." message.
    fn type_dcl(
        &mut self,
        doc: Option<String>,
        location: Location,
    ) -> PResult<(TypeDcl, &'static str)> {
        match self.peek() {
            TokenKind::Keyword(Keyword::Typedef) => {
                self.advance();
                let type_spec = self.type_spec()?;
                let declarators = self.declarators()?;
                Ok((
                    TypeDcl::Typedef(Typedef {
                        type_spec,
                        declarators,
                        doc,
                        location,
                    }),
                    "typedef",
                ))
            }
            TokenKind::Keyword(Keyword::Native) => {
                self.advance();
                let name = self.identifier(" after `native`")?;
                Ok((
                    TypeDcl::Native(Native {
                        name,
                        doc,
                        location,
                    }),
                    "native declaration",
                ))
            }
            TokenKind::Keyword(Keyword::Struct) => {
                if matches!(self.peek2(), TokenKind::Identifier { .. }) {
                    let save = self.pos;
                    self.advance();
                    let name = self.identifier("")?;
                    if self.is_punct(Punct::Semi) {
                        return Ok((
                            TypeDcl::StructForward(TypeForward {
                                name,
                                doc,
                                location,
                            }),
                            "struct declaration",
                        ));
                    }
                    self.pos = save;
                }
                let s = self.struct_type(doc, location)?;
                Ok((TypeDcl::Struct(s), "struct declaration"))
            }
            TokenKind::Keyword(Keyword::Union) => {
                if matches!(self.peek2(), TokenKind::Identifier { .. }) {
                    let save = self.pos;
                    self.advance();
                    let name = self.identifier("")?;
                    if self.is_punct(Punct::Semi) {
                        return Ok((
                            TypeDcl::UnionForward(TypeForward {
                                name,
                                doc,
                                location,
                            }),
                            "union declaration",
                        ));
                    }
                    self.pos = save;
                }
                let u = self.union_type(doc, location)?;
                Ok((TypeDcl::Union(u), "union declaration"))
            }
            _ => {
                let e = self.enum_type(doc, location)?;
                Ok((TypeDcl::Enum(e), "enum declaration"))
            }
        }
    }

    fn struct_type(&mut self, doc: Option<String>, location: Location) -> PResult<StructType> {
        self.expect_keyword(Keyword::Struct, "")?;
        let name = self.identifier(" after `struct`")?;
        let members = self.body("the struct body", Parser::member, None)?;
        Ok(StructType {
            name,
            members,
            doc,
            location,
        })
    }

    /// A struct or exception member.
    fn member(&mut self) -> PResult<Member> {
        let doc = self.doc();
        let location = self.location();
        let type_spec = self.type_spec()?;
        let declarators = self.declarators()?;
        self.semi("member")?;
        Ok(Member {
            type_spec,
            declarators,
            doc,
            location,
        })
    }

    fn union_type(&mut self, doc: Option<String>, location: Location) -> PResult<UnionType> {
        self.expect_keyword(Keyword::Union, "")?;
        let name = self.identifier(" after `union`")?;
        self.expect_keyword(Keyword::Switch, " after the union name")?;
        self.expect_punct(Punct::LParen, " after `switch`")?;
        let switch_type = self.type_spec()?;
        self.expect_punct(Punct::RParen, " after the discriminator type")?;
        let cases = self.body("the union body", Parser::case, None)?;
        Ok(UnionType {
            name,
            switch_type,
            cases,
            doc,
            location,
        })
    }

    fn case(&mut self) -> PResult<Case> {
        let doc = self.doc();
        let location = self.location();
        let mut labels = Vec::new();
        loop {
            let at = self.location();
            if self.eat_keyword(Keyword::Case) {
                let value = self.const_expr()?;
                labels.push(CaseLabel::Value(value));
            } else if self.eat_keyword(Keyword::Default) {
                labels.push(CaseLabel::Default(at));
            } else if labels.is_empty() {
                return Err(self.expected("`case` or `default`", " in the union body"));
            } else {
                break;
            }
            self.expect_punct(Punct::Colon, " after the case label")?;
        }
        let type_spec = self.type_spec()?;
        let declarator = self.declarator()?;
        self.semi("union case")?;
        Ok(Case {
            labels,
            type_spec,
            declarator,
            doc,
            location,
        })
    }

    fn enum_type(&mut self, doc: Option<String>, location: Location) -> PResult<EnumType> {
        self.expect_keyword(Keyword::Enum, "")?;
        let name = self.identifier(" after `enum`")?;
        self.expect_punct(Punct::LBrace, " to open the enumerator list")?;
        let mut enumerators = Vec::new();
        loop {
            let doc = self.doc();
            let name = self.identifier(" in the enumerator list")?;
            enumerators.push(Enumerator { name, doc });
            if self.eat_punct(Punct::RBrace) {
                break;
            }
            if !self.eat_punct(Punct::Comma) {
                return Err(self.expected("`,` or `}`", " in the enumerator list"));
            }
        }
        Ok(EnumType {
            name,
            enumerators,
            doc,
            location,
        })
    }

    fn declarators(&mut self) -> PResult<Vec<Declarator>> {
        let mut out = vec![self.declarator()?];
        while self.eat_punct(Punct::Comma) {
            out.push(self.declarator()?);
        }
        Ok(out)
    }

    fn declarator(&mut self) -> PResult<Declarator> {
        let name = self.identifier(" for the declarator")?;
        let mut array_sizes = Vec::new();
        while self.eat_punct(Punct::LBracket) {
            let outer = std::mem::replace(&mut self.no_shr, false);
            let size = self.const_expr();
            self.no_shr = outer;
            array_sizes.push(size?);
            self.expect_punct(Punct::RBracket, " to close the array size")?;
        }
        Ok(Declarator { name, array_sizes })
    }

    /// Whether the next token can start a type.
    fn starts_type(&mut self) -> bool {
        match self.peek() {
            TokenKind::Identifier { .. } | TokenKind::Punct(Punct::ColonColon) => true,
            TokenKind::Keyword(k) => matches!(
                k,
                Keyword::Short
                    | Keyword::Long
                    | Keyword::Unsigned
                    | Keyword::Float
                    | Keyword::Double
                    | Keyword::Char
                    | Keyword::WChar
                    | Keyword::Boolean
                    | Keyword::Octet
                    | Keyword::Any
                    | Keyword::Object
                    | Keyword::ValueBase
                    | Keyword::String
                    | Keyword::WString
                    | Keyword::Sequence
                    | Keyword::Fixed
                    | Keyword::Struct
                    | Keyword::Union
                    | Keyword::Enum
            ),
            _ => false,
        }
    }

    fn type_spec(&mut self) -> PResult<TypeSpec> {
        self.nested(Parser::type_spec_inner)
    }

    fn type_spec_inner(&mut self) -> PResult<TypeSpec> {
        let location = self.location();
        let doc = self.doc();
        let kw = match self.peek() {
            TokenKind::Identifier { .. } | TokenKind::Punct(Punct::ColonColon) => {
                let name = self.scoped_name("")?;
                return Ok(TypeSpec {
                    kind: TypeKind::Scoped(name),
                    location,
                });
            }
            TokenKind::Keyword(k) => *k,
            _ => return Err(self.expected("a type", "")),
        };
        let base = |b| Ok(Some(TypeKind::Base(b)));
        let kind: PResult<Option<TypeKind>> = match kw {
            Keyword::Short => base(BaseType::Short),
            Keyword::Float => base(BaseType::Float),
            Keyword::Double => base(BaseType::Double),
            Keyword::Char => base(BaseType::Char),
            Keyword::WChar => base(BaseType::WChar),
            Keyword::Boolean => base(BaseType::Boolean),
            Keyword::Octet => base(BaseType::Octet),
            Keyword::Any => base(BaseType::Any),
            Keyword::Object => base(BaseType::Object),
            Keyword::ValueBase => base(BaseType::ValueBase),
            _ => Ok(None),
        };
        if let Some(kind) = kind? {
            self.advance();
            return Ok(TypeSpec { kind, location });
        }
        let kind = match kw {
            Keyword::Long => {
                self.advance();
                if self.eat_keyword(Keyword::Long) {
                    TypeKind::Base(BaseType::LongLong)
                } else if self.eat_keyword(Keyword::Double) {
                    TypeKind::Base(BaseType::LongDouble)
                } else {
                    TypeKind::Base(BaseType::Long)
                }
            }
            Keyword::Unsigned => {
                self.advance();
                if self.eat_keyword(Keyword::Short) {
                    TypeKind::Base(BaseType::UShort)
                } else if self.eat_keyword(Keyword::Long) {
                    if self.eat_keyword(Keyword::Long) {
                        TypeKind::Base(BaseType::ULongLong)
                    } else {
                        TypeKind::Base(BaseType::ULong)
                    }
                } else {
                    return Err(self.expected("`short` or `long`", " after `unsigned`"));
                }
            }
            Keyword::String | Keyword::WString => {
                self.advance();
                let bound = if self.eat_punct(Punct::Lt) {
                    let bound = self.template_expr()?;
                    self.expect_gt(" to close the string bound")?;
                    Some(Box::new(bound))
                } else {
                    None
                };
                if kw == Keyword::String {
                    TypeKind::String(bound)
                } else {
                    TypeKind::WString(bound)
                }
            }
            Keyword::Sequence => {
                self.advance();
                self.expect_punct(Punct::Lt, " after `sequence`")?;
                let outer = std::mem::replace(&mut self.no_shr, true);
                let element = self.type_spec();
                self.no_shr = outer;
                let element = Box::new(element?);
                let bound = if self.eat_punct(Punct::Comma) {
                    Some(Box::new(self.template_expr()?))
                } else {
                    None
                };
                self.expect_gt(" to close the sequence type")?;
                TypeKind::Sequence { element, bound }
            }
            Keyword::Fixed => {
                self.advance();
                self.expect_punct(Punct::Lt, " after `fixed`")?;
                let digits = Box::new(self.template_expr()?);
                self.expect_punct(Punct::Comma, " between the digits and the scale of `fixed`")?;
                let scale = Box::new(self.template_expr()?);
                self.expect_gt(" to close the fixed type")?;
                TypeKind::Fixed { digits, scale }
            }
            Keyword::Struct => TypeKind::Struct(Box::new(self.struct_type(doc, location.clone())?)),
            Keyword::Union => TypeKind::Union(Box::new(self.union_type(doc, location.clone())?)),
            Keyword::Enum => TypeKind::Enum(Box::new(self.enum_type(doc, location.clone())?)),
            _ => return Err(self.expected("a type", "")),
        };
        Ok(TypeSpec { kind, location })
    }

    // ----- constants and expressions -----

    fn const_dcl(&mut self, doc: Option<String>, location: Location) -> PResult<Const> {
        self.expect_keyword(Keyword::Const, "")?;
        let type_spec = if self.is_keyword(Keyword::Fixed)
            && !matches!(self.peek2(), TokenKind::Punct(Punct::Lt))
        {
            let location = self.location();
            self.advance();
            TypeSpec {
                kind: TypeKind::FixedAny,
                location,
            }
        } else {
            self.type_spec()?
        };
        let name = self.identifier(" for the constant name")?;
        self.expect_punct(Punct::Eq, " after the constant name")?;
        let value = self.const_expr()?;
        Ok(Const {
            type_spec,
            name,
            value,
            doc,
            location,
        })
    }

    /// An expression inside `<...>`, where `>>` is not a shift.
    fn template_expr(&mut self) -> PResult<ConstExpr> {
        let outer = std::mem::replace(&mut self.no_shr, true);
        let e = self.const_expr();
        self.no_shr = outer;
        e
    }

    /// A constant expression.
    fn const_expr(&mut self) -> PResult<ConstExpr> {
        self.nested(|p| p.binary(0))
    }

    /// Binary operators by precedence level, loosest first.
    fn binary_op(&mut self, level: usize) -> Option<BinaryOp> {
        let TokenKind::Punct(p) = *self.peek() else {
            return None;
        };
        match (level, p) {
            (0, Punct::Pipe) => Some(BinaryOp::Or),
            (1, Punct::Caret) => Some(BinaryOp::Xor),
            (2, Punct::Amp) => Some(BinaryOp::And),
            (3, Punct::Shl) => Some(BinaryOp::Shl),
            (3, Punct::Shr) if !self.no_shr => Some(BinaryOp::Shr),
            (4, Punct::Plus) => Some(BinaryOp::Add),
            (4, Punct::Minus) => Some(BinaryOp::Sub),
            (5, Punct::Star) => Some(BinaryOp::Mul),
            (5, Punct::Slash) => Some(BinaryOp::Div),
            (5, Punct::Percent) => Some(BinaryOp::Mod),
            _ => None,
        }
    }

    fn binary(&mut self, level: usize) -> PResult<ConstExpr> {
        if level > 5 {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        while let Some(op) = self.binary_op(level) {
            let location = self.location();
            self.advance();
            let rhs = self.binary(level + 1)?;
            lhs = ConstExpr {
                kind: ExprKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                location,
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<ConstExpr> {
        let location = self.location();
        let op = match self.peek() {
            TokenKind::Punct(Punct::Minus) => Some(UnaryOp::Neg),
            TokenKind::Punct(Punct::Plus) => Some(UnaryOp::Plus),
            TokenKind::Punct(Punct::Tilde) => Some(UnaryOp::Not),
            _ => None,
        };
        match op {
            Some(op) => {
                self.advance();
                let operand = Box::new(self.nested(Parser::unary)?);
                Ok(ConstExpr {
                    kind: ExprKind::Unary { op, operand },
                    location,
                })
            }
            None => self.primary(),
        }
    }

    fn primary(&mut self) -> PResult<ConstExpr> {
        let location = self.location();
        let literal = match self.peek() {
            TokenKind::Identifier { .. } | TokenKind::Punct(Punct::ColonColon) => {
                let name = self.scoped_name("")?;
                return Ok(ConstExpr {
                    kind: ExprKind::Name(name),
                    location,
                });
            }
            TokenKind::Punct(Punct::LParen) => {
                self.advance();
                let outer = std::mem::replace(&mut self.no_shr, false);
                let inner = self.const_expr();
                self.no_shr = outer;
                let inner = inner?;
                self.expect_punct(Punct::RParen, " to close the parenthesis")?;
                return Ok(inner);
            }
            TokenKind::String(_) => {
                let s = self.string_literal("")?;
                return Ok(ConstExpr {
                    kind: ExprKind::Literal(Literal::String(s)),
                    location,
                });
            }
            TokenKind::WString(s) => {
                let mut text = s.clone();
                self.advance();
                while let TokenKind::WString(s) = self.peek() {
                    text.push_str(&s.clone());
                    self.advance();
                }
                return Ok(ConstExpr {
                    kind: ExprKind::Literal(Literal::WString(text)),
                    location,
                });
            }
            TokenKind::Integer(v) => Literal::Integer(*v),
            TokenKind::Float(v) => Literal::Float(*v),
            TokenKind::Fixed(s) => Literal::Fixed(s.clone()),
            TokenKind::Char(c) => Literal::Char(*c),
            TokenKind::WChar(c) => Literal::WChar(*c),
            TokenKind::Keyword(Keyword::True) => Literal::Boolean(true),
            TokenKind::Keyword(Keyword::False) => Literal::Boolean(false),
            _ => return Err(self.expected("an expression", "")),
        };
        self.advance();
        Ok(ConstExpr {
            kind: ExprKind::Literal(literal),
            location,
        })
    }
}
