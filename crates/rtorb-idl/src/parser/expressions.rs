//! Constant declarations and constant expressions, by precedence.

use super::{PResult, Parser};
use crate::ast::*;
use crate::diag::Location;
use crate::lexer::{Keyword, Punct, TokenKind};

impl Parser {
    pub(super) fn const_dcl(&mut self, doc: Option<String>, location: Location) -> PResult<Const> {
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
    pub(super) fn template_expr(&mut self) -> PResult<ConstExpr> {
        let outer = std::mem::replace(&mut self.no_shr, true);
        let e = self.const_expr();
        self.no_shr = outer;
        e
    }

    /// A constant expression.
    pub(super) fn const_expr(&mut self) -> PResult<ConstExpr> {
        self.nested(|p| p.binary(0))
    }

    /// Binary operators by precedence level, loosest first.
    pub(super) fn binary_op(&mut self, level: usize) -> Option<BinaryOp> {
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

    pub(super) fn binary(&mut self, level: usize) -> PResult<ConstExpr> {
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

    pub(super) fn unary(&mut self) -> PResult<ConstExpr> {
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

    pub(super) fn primary(&mut self) -> PResult<ConstExpr> {
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
