//! Type declarations and type specifications: typedefs, structs,
//! unions, enums, declarators, template types.

use super::{PResult, Parser};
use crate::ast::*;
use crate::diag::Location;
use crate::lexer::{Keyword, Punct, TokenKind};

impl Parser {
    /// A type declaration (without its `;`), and what to call it in the
    /// "expected `;` after ..." message.
    pub(super) fn type_dcl(
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

    pub(super) fn struct_type(
        &mut self,
        doc: Option<String>,
        location: Location,
    ) -> PResult<StructType> {
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
    pub(super) fn member(&mut self) -> PResult<Member> {
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

    pub(super) fn union_type(
        &mut self,
        doc: Option<String>,
        location: Location,
    ) -> PResult<UnionType> {
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

    pub(super) fn case(&mut self) -> PResult<Case> {
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

    pub(super) fn enum_type(
        &mut self,
        doc: Option<String>,
        location: Location,
    ) -> PResult<EnumType> {
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

    pub(super) fn declarators(&mut self) -> PResult<Vec<Declarator>> {
        let mut out = vec![self.declarator()?];
        while self.eat_punct(Punct::Comma) {
            out.push(self.declarator()?);
        }
        Ok(out)
    }

    pub(super) fn declarator(&mut self) -> PResult<Declarator> {
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
    pub(super) fn starts_type(&mut self) -> bool {
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

    pub(super) fn type_spec(&mut self) -> PResult<TypeSpec> {
        self.nested(Parser::type_spec_inner)
    }

    pub(super) fn type_spec_inner(&mut self) -> PResult<TypeSpec> {
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
}
