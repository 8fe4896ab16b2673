//! Definitions: modules, interfaces and their exports, value types,
//! and the refusal of the component model's constructs.

use super::{PResult, Parser};
use crate::ast::*;
use crate::diag::Location;
use crate::lexer::{Keyword, Punct, TokenKind};

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

impl Parser {
    pub(super) fn definitions(&mut self, top: bool) -> Vec<Definition> {
        self.list(top, Parser::definition, Some(Definition::Pragma))
    }

    pub(super) fn definition(&mut self) -> PResult<Definition> {
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
    pub(super) fn common_export(
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

    pub(super) fn interface(
        &mut self,
        doc: Option<String>,
        location: Location,
    ) -> PResult<Definition> {
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

    pub(super) fn export(&mut self) -> PResult<Export> {
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

    pub(super) fn attribute(
        &mut self,
        doc: Option<String>,
        location: Location,
    ) -> PResult<Attribute> {
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
    pub(super) fn raises(&mut self) -> PResult<Vec<ScopedName>> {
        if self.eat_keyword(Keyword::Raises) {
            self.exception_list("raises")
        } else {
            Ok(Vec::new())
        }
    }

    pub(super) fn exception_list(&mut self, after: &str) -> PResult<Vec<ScopedName>> {
        self.expect_punct(Punct::LParen, &format!(" after `{after}`"))?;
        let names = self.scoped_names(" in the exception list")?;
        self.expect_punct(Punct::RParen, " to close the exception list")?;
        Ok(names)
    }

    pub(super) fn operation(
        &mut self,
        doc: Option<String>,
        location: Location,
    ) -> PResult<Operation> {
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
    pub(super) fn params(&mut self, directions: bool) -> PResult<Vec<Param>> {
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

    pub(super) fn value(&mut self, doc: Option<String>, location: Location) -> PResult<Definition> {
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

    pub(super) fn value_element(&mut self) -> PResult<ValueElement> {
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
}
