//! `#if` integer constant expressions.
//!
//! Values follow C: signed and unsigned 64-bit integers with the usual
//! arithmetic conversions, wrapping on overflow. Operands that are not
//! evaluated (the right of `&&` when the left is 0, and so on) may divide
//! by zero without an error.

use super::lex::{Kind, Tok};

/// An `#if` value: the bits, and whether it is unsigned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Value {
    bits: u64,
    unsigned: bool,
}

impl Value {
    fn signed(v: i64) -> Value {
        Value {
            bits: v as u64,
            unsigned: false,
        }
    }

    fn truth(b: bool) -> Value {
        Value::signed(i64::from(b))
    }

    fn is_true(self) -> bool {
        self.bits != 0
    }

    fn as_i64(self) -> i64 {
        self.bits as i64
    }
}

/// An error in an expression: its message and the column it applies to.
pub(super) type ExprError = (String, u32);

/// Evaluates the tokens of an `#if` (after `defined` and macro expansion);
/// `col` is the column to blame when the expression ends too early.
pub(super) fn evaluate(toks: &[Tok], col: u32) -> Result<bool, ExprError> {
    let toks: Vec<&Tok> = toks.iter().filter(|t| !t.is_blank()).collect();
    if toks.is_empty() {
        return Err(("#if with no expression".into(), col));
    }
    let mut parser = Parser {
        toks,
        pos: 0,
        end_col: col,
    };
    let value = parser.conditional(true)?;
    if let Some(t) = parser.peek() {
        return Err((
            format!("missing binary operator before `{}` in #if", t.text),
            t.col,
        ));
    }
    Ok(value.is_true())
}

struct Parser<'t> {
    toks: Vec<&'t Tok>,
    pos: usize,
    end_col: u32,
}

/// Binary operators and their precedence (higher binds tighter).
fn precedence(op: &str) -> Option<u8> {
    Some(match op {
        "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" => 6,
        "<" | "<=" | ">" | ">=" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => return None,
    })
}

impl<'t> Parser<'t> {
    fn peek(&self) -> Option<&'t Tok> {
        self.toks.get(self.pos).copied()
    }

    fn peek_punct(&self, p: &str) -> bool {
        self.peek().is_some_and(|t| t.is_punct(p))
    }

    fn conditional(&mut self, live: bool) -> Result<Value, ExprError> {
        let cond = self.binary(1, live)?;
        if !self.peek_punct("?") {
            return Ok(cond);
        }
        self.pos += 1;
        let then = self.conditional(live && cond.is_true())?;
        if !self.peek_punct(":") {
            let col = self.peek().map_or(self.end_col, |t| t.col);
            return Err(("missing `:` in conditional expression in #if".into(), col));
        }
        self.pos += 1;
        let otherwise = self.conditional(live && !cond.is_true())?;
        let unsigned = then.unsigned || otherwise.unsigned;
        let chosen = if cond.is_true() { then } else { otherwise };
        Ok(Value {
            bits: chosen.bits,
            unsigned,
        })
    }

    fn binary(&mut self, min: u8, live: bool) -> Result<Value, ExprError> {
        let mut lhs = self.unary(live)?;
        loop {
            let Some(op) = self.peek().filter(|t| t.kind == Kind::Punct) else {
                return Ok(lhs);
            };
            let Some(prec) = precedence(&op.text).filter(|p| *p >= min) else {
                return Ok(lhs);
            };
            self.pos += 1;
            let rhs_live = match op.text.as_str() {
                "&&" => live && lhs.is_true(),
                "||" => live && !lhs.is_true(),
                _ => live,
            };
            let rhs = self.binary(prec + 1, rhs_live)?;
            lhs = apply(&op.text, lhs, rhs, live).map_err(|m| (m, op.col))?;
        }
    }

    fn unary(&mut self, live: bool) -> Result<Value, ExprError> {
        let Some(tok) = self.peek() else {
            return Err((
                "missing operand at the end of #if expression".into(),
                self.end_col,
            ));
        };
        self.pos += 1;
        match tok.kind {
            Kind::Punct => match tok.text.as_str() {
                "!" => Ok(Value::truth(!self.unary(live)?.is_true())),
                "~" => {
                    let v = self.unary(live)?;
                    Ok(Value { bits: !v.bits, ..v })
                }
                "-" => {
                    let v = self.unary(live)?;
                    Ok(Value {
                        bits: v.bits.wrapping_neg(),
                        ..v
                    })
                }
                "+" => self.unary(live),
                "(" => {
                    let v = self.conditional(live)?;
                    if !self.peek_punct(")") {
                        let col = self.peek().map_or(self.end_col, |t| t.col);
                        return Err(("missing `)` in #if expression".into(), col));
                    }
                    self.pos += 1;
                    Ok(v)
                }
                other => Err((format!("`{other}` is not valid in #if expression"), tok.col)),
            },
            Kind::Number => number(&tok.text).map_err(|m| (m, tok.col)),
            Kind::Char => character(&tok.text).map_err(|m| (m, tok.col)),
            Kind::Ident => Ok(Value::signed(0)),
            Kind::Str => Err((
                "string literal is not valid in #if expression".into(),
                tok.col,
            )),
            Kind::Space | Kind::Comment | Kind::Other => Err((
                format!("`{}` is not valid in #if expression", tok.text),
                tok.col,
            )),
        }
    }
}

/// Applies a binary operator. `live` is false in operands that C does not
/// evaluate, where division by zero is not an error.
fn apply(op: &str, a: Value, b: Value, live: bool) -> Result<Value, String> {
    let unsigned = a.unsigned || b.unsigned;
    let arith = |bits: u64| Value { bits, unsigned };
    Ok(match op {
        "*" => arith(a.bits.wrapping_mul(b.bits)),
        "/" | "%" => {
            if b.bits == 0 {
                if live {
                    return Err("division by zero in #if".into());
                }
                return Ok(arith(0));
            }
            let bits = match (op, unsigned) {
                ("/", true) => a.bits / b.bits,
                ("/", false) => a.as_i64().wrapping_div(b.as_i64()) as u64,
                (_, true) => a.bits % b.bits,
                (_, false) => a.as_i64().wrapping_rem(b.as_i64()) as u64,
            };
            arith(bits)
        }
        "+" => arith(a.bits.wrapping_add(b.bits)),
        "-" => arith(a.bits.wrapping_sub(b.bits)),
        "<<" | ">>" => {
            let count = if b.unsigned {
                i128::from(b.bits)
            } else {
                i128::from(b.as_i64())
            };
            let left = (op == "<<") == (count >= 0);
            let count = count.unsigned_abs();
            let bits = if left {
                u32::try_from(count)
                    .ok()
                    .and_then(|c| a.bits.checked_shl(c))
                    .unwrap_or(0)
            } else if a.unsigned {
                u32::try_from(count)
                    .ok()
                    .and_then(|c| a.bits.checked_shr(c))
                    .unwrap_or(0)
            } else {
                let c = u32::try_from(count.min(63)).unwrap_or(63);
                (a.as_i64() >> c) as u64
            };
            Value {
                bits,
                unsigned: a.unsigned,
            }
        }
        "<" | "<=" | ">" | ">=" => {
            let ordering = if unsigned {
                a.bits.cmp(&b.bits)
            } else {
                a.as_i64().cmp(&b.as_i64())
            };
            Value::truth(match op {
                "<" => ordering.is_lt(),
                "<=" => ordering.is_le(),
                ">" => ordering.is_gt(),
                _ => ordering.is_ge(),
            })
        }
        "==" => Value::truth(a.bits == b.bits),
        "!=" => Value::truth(a.bits != b.bits),
        "&" => arith(a.bits & b.bits),
        "^" => arith(a.bits ^ b.bits),
        "|" => arith(a.bits | b.bits),
        "&&" => Value::truth(a.is_true() && b.is_true()),
        "||" => Value::truth(a.is_true() || b.is_true()),
        other => return Err(format!("`{other}` is not valid in #if expression")),
    })
}

/// An integer constant: decimal, octal (leading 0), hexadecimal (0x) or
/// binary (0b), with optional `u`/`l`/`ll` suffixes.
fn number(text: &str) -> Result<Value, String> {
    let body = text.trim_end_matches(['u', 'U', 'l', 'L']);
    let suffix = &text[body.len()..];
    let suffix_ok = matches!(
        suffix.to_ascii_lowercase().as_str(),
        "" | "u" | "l" | "ul" | "lu" | "ll" | "ull" | "llu"
    );
    let lower = body.to_ascii_lowercase();
    let (digits, radix) = if let Some(hex) = lower.strip_prefix("0x") {
        (hex, 16)
    } else if let Some(bin) = lower.strip_prefix("0b") {
        (bin, 2)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (&lower[1..], 8)
    } else {
        (lower.as_str(), 10)
    };
    if radix == 10 && (digits.contains('.') || digits.contains('e')) || digits.contains('.') {
        return Err(format!("floating constant `{text}` in #if"));
    }
    if !suffix_ok || digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(format!("invalid integer constant `{text}` in #if"));
    }
    let bits = u64::from_str_radix(digits, radix)
        .map_err(|_| format!("integer constant `{text}` is too large"))?;
    Ok(Value {
        bits,
        unsigned: suffix.contains(['u', 'U']) || bits > i64::MAX as u64,
    })
}

/// A character constant: `'a'`, `'\n'`, `'\x41'`, `'\101'`, `L'a'`; a
/// multi-character constant combines its characters a byte apart.
fn character(text: &str) -> Result<Value, String> {
    let inner = text
        .strip_prefix('L')
        .unwrap_or(text)
        .strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .filter(|t| !t.is_empty() || text.ends_with("''"))
        .ok_or_else(|| format!("unterminated character constant {text}"))?;
    let mut chars = inner.chars().peekable();
    let mut value: u64 = 0;
    let mut count = 0;
    while let Some(c) = chars.next() {
        let code = if c == '\\' {
            let e = chars
                .next()
                .ok_or_else(|| format!("invalid escape in character constant {text}"))?;
            match e {
                'n' => 10,
                't' => 9,
                'v' => 11,
                'b' => 8,
                'r' => 13,
                'f' => 12,
                'a' => 7,
                '\\' | '\'' | '"' | '?' => u64::from(e),
                'x' => {
                    let mut v: u64 = 0;
                    let mut any = false;
                    while let Some(d) = chars.peek().and_then(|d| d.to_digit(16)) {
                        v = v.wrapping_mul(16).wrapping_add(u64::from(d));
                        any = true;
                        chars.next();
                    }
                    if !any {
                        return Err(format!("`\\x` used with no following hex digits in {text}"));
                    }
                    v
                }
                '0'..='7' => {
                    let mut v = u64::from(e) - u64::from('0');
                    for _ in 0..2 {
                        match chars.peek().and_then(|d| d.to_digit(8)) {
                            Some(d) => {
                                v = v * 8 + u64::from(d);
                                chars.next();
                            }
                            None => break,
                        }
                    }
                    v
                }
                other => return Err(format!("unknown escape `\\{other}` in character constant")),
            }
        } else {
            u64::from(c)
        };
        value = value.wrapping_shl(8) | code;
        count += 1;
    }
    if count == 0 {
        return Err("empty character constant in #if".into());
    }
    Ok(Value::signed(value as i64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preprocess::lex::lex;

    fn eval(text: &str) -> Result<bool, String> {
        evaluate(&lex(text, false).0, 1).map_err(|e| e.0)
    }

    #[test]
    fn arithmetic_and_logic() {
        assert_eq!(eval("1 + 2 * 3 == 7"), Ok(true));
        assert_eq!(eval("(1 + 2) * 3 == 9"), Ok(true));
        assert_eq!(eval("-1 < 0"), Ok(true));
        assert_eq!(eval("-1 < 0u"), Ok(false));
        assert_eq!(eval("0xFFFFFFFFFFFFFFFF == -1"), Ok(true));
        assert_eq!(eval("010 == 8 && 0x10 == 16 && 0b11 == 3"), Ok(true));
        assert_eq!(
            eval("'A' == 65 && '\\n' == 10 && '\\x41' == 65 && '\\101' == 65"),
            Ok(true)
        );
        assert_eq!(eval("'ab' == 0x6162"), Ok(true));
        assert_eq!(eval("1 ? 2 : (1/0)"), Ok(true));
        assert_eq!(eval("0 && 1/0"), Ok(false));
        assert_eq!(eval("1 || 1%0"), Ok(true));
        assert_eq!(
            eval("-8 >> 1 == -4 && 1 << 3 == 8 && 1 << 64 == 0"),
            Ok(true)
        );
        assert_eq!(eval("-7 / 2 == -3 && -7 % 2 == -1"), Ok(true));
        assert_eq!(eval("~0 == -1 && !5 == 0 && +3 == 3"), Ok(true));
        assert_eq!(
            eval("(6 & 3) == 2 && (6 | 3) == 7 && (6 ^ 3) == 5"),
            Ok(true)
        );
        assert_eq!(eval("UNDEFINED == 0"), Ok(true));
        assert_eq!(eval("-9223372036854775807 - 1 < 0"), Ok(true));
    }

    #[test]
    fn errors() {
        assert_eq!(eval("1 / 0"), Err("division by zero in #if".into()));
        assert_eq!(eval(""), Err("#if with no expression".into()));
        assert_eq!(eval("(1"), Err("missing `)` in #if expression".into()));
        assert_eq!(
            eval("1 2"),
            Err("missing binary operator before `2` in #if".into())
        );
        assert_eq!(
            eval("1 +"),
            Err("missing operand at the end of #if expression".into())
        );
        assert_eq!(eval("1.5"), Err("floating constant `1.5` in #if".into()));
        assert_eq!(
            eval("09"),
            Err("invalid integer constant `09` in #if".into())
        );
        assert_eq!(
            eval("99999999999999999999"),
            Err("integer constant `99999999999999999999` is too large".into())
        );
        assert_eq!(
            eval("1 ? 2"),
            Err("missing `:` in conditional expression in #if".into())
        );
        assert_eq!(
            eval("\"s\""),
            Err("string literal is not valid in #if expression".into())
        );
        assert_eq!(eval("''"), Err("empty character constant in #if".into()));
    }
}
