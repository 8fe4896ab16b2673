//! Constant expression evaluation, for every constant type.
//!
//! Integer expressions are evaluated exactly, and every intermediate
//! result must lie within the range of `long long` or `unsigned long long`
//! (CORBA 3 §7.4.1.2); the final value must fit the declared type. Floating
//! expressions are evaluated in double precision, fixed-point expressions
//! exactly to 31 digits. Characters, strings, booleans and enumerators
//! take no operators.

use crate::ast::{BinaryOp, ConstExpr, ExprKind, Literal, UnaryOp};
use crate::diag::{Diagnostic, Location};

use super::model::{ConstValue, DeclId, FixedValue};

/// The type an expression is evaluated for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Target {
    /// An integer type.
    Int(IntType),
    /// `float`
    Float,
    /// `double`
    Double,
    /// `long double`
    LongDouble,
    /// `fixed` (digits 0: any) or `fixed<d, s>`.
    Fixed(u8, u8),
    /// `char`
    Char,
    /// `wchar`
    WChar,
    /// `string`, with its bound.
    String(Option<u32>),
    /// `wstring`, with its bound.
    WString(Option<u32>),
    /// `boolean`
    Boolean,
    /// The enum with this id and name.
    Enum(DeclId, String),
}

/// The integer types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IntType {
    Short,
    UShort,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Octet,
}

impl IntType {
    fn range(self) -> (i128, i128) {
        match self {
            IntType::Short => (i16::MIN.into(), i16::MAX.into()),
            IntType::UShort => (0, u16::MAX.into()),
            IntType::Long => (i32::MIN.into(), i32::MAX.into()),
            IntType::ULong => (0, u32::MAX.into()),
            IntType::LongLong => (i64::MIN.into(), i64::MAX.into()),
            IntType::ULongLong => (0, u64::MAX.into()),
            IntType::Octet => (0, u8::MAX.into()),
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            IntType::Short => "short",
            IntType::UShort => "unsigned short",
            IntType::Long => "long",
            IntType::ULong => "unsigned long",
            IntType::LongLong => "long long",
            IntType::ULongLong => "unsigned long long",
            IntType::Octet => "octet",
        }
    }

    /// The value as this type, if it fits.
    pub(crate) fn value(self, v: i128) -> Option<ConstValue> {
        Some(match self {
            IntType::Short => ConstValue::Short(i16::try_from(v).ok()?),
            IntType::UShort => ConstValue::UShort(u16::try_from(v).ok()?),
            IntType::Long => ConstValue::Long(i32::try_from(v).ok()?),
            IntType::ULong => ConstValue::ULong(u32::try_from(v).ok()?),
            IntType::LongLong => ConstValue::LongLong(i64::try_from(v).ok()?),
            IntType::ULongLong => ConstValue::ULongLong(u64::try_from(v).ok()?),
            IntType::Octet => ConstValue::Octet(u8::try_from(v).ok()?),
        })
    }
}

impl Target {
    /// The type's name in messages.
    pub(crate) fn name(&self) -> String {
        match self {
            Target::Int(t) => t.name().into(),
            Target::Float => "float".into(),
            Target::Double => "double".into(),
            Target::LongDouble => "long double".into(),
            Target::Fixed(0, _) => "fixed".into(),
            Target::Fixed(d, s) => format!("fixed<{d}, {s}>"),
            Target::Char => "char".into(),
            Target::WChar => "wchar".into(),
            Target::String(_) => "string".into(),
            Target::WString(_) => "wstring".into(),
            Target::Boolean => "boolean".into(),
            Target::Enum(_, name) => name.clone(),
        }
    }
}

/// What a name in an expression stands for.
pub(crate) enum NamedValue {
    /// A constant's value.
    Const(ConstValue),
    /// An enumerator, and its enum.
    Enumerator(DeclId, DeclId),
}

/// An intermediate value.
#[derive(Debug, Clone)]
enum Val {
    Int(i128),
    Float(f64),
    Fixed(FixedValue),
    Char(char),
    WChar(char),
    Str(String),
    WStr(String),
    Bool(bool),
    Enum(DeclId, DeclId),
}

impl Val {
    fn class(&self) -> &'static str {
        match self {
            Val::Int(_) => "integer",
            Val::Float(_) => "floating-point",
            Val::Fixed(_) => "fixed-point",
            Val::Char(_) => "character",
            Val::WChar(_) => "wide character",
            Val::Str(_) => "string",
            Val::WStr(_) => "wide string",
            Val::Bool(_) => "boolean",
            Val::Enum(..) => "enumerator",
        }
    }

    fn from_const(v: ConstValue) -> Val {
        match v {
            ConstValue::Short(v) => Val::Int(v.into()),
            ConstValue::UShort(v) => Val::Int(v.into()),
            ConstValue::Long(v) => Val::Int(v.into()),
            ConstValue::ULong(v) => Val::Int(v.into()),
            ConstValue::LongLong(v) => Val::Int(v.into()),
            ConstValue::ULongLong(v) => Val::Int(v.into()),
            ConstValue::Octet(v) => Val::Int(v.into()),
            ConstValue::Float(v) => Val::Float(v.into()),
            ConstValue::Double(v) | ConstValue::LongDouble(v) => Val::Float(v),
            ConstValue::Char(c) => Val::Char(c),
            ConstValue::WChar(c) => Val::WChar(c),
            ConstValue::Boolean(b) => Val::Bool(b),
            ConstValue::String(s) => Val::Str(s),
            ConstValue::WString(s) => Val::WStr(s),
            ConstValue::Fixed(f) => Val::Fixed(f),
            // A constant of enum type holds an enumerator; its enum is
            // filled in by the resolver, which knows it.
            ConstValue::Enumerator(id) => Val::Enum(id, id),
        }
    }
}

/// The most deeply nested expression evaluated; deeper input is refused
/// rather than risking the stack.
const MAX_DEPTH: u32 = 200;

/// Evaluates constant expressions, reporting into `diags`.
pub(crate) struct Evaluator<'a> {
    /// Looks a name up; `None` when it is not a constant or enumerator
    /// (the resolver has reported why).
    pub(crate) resolve: &'a mut dyn FnMut(&crate::ast::ScopedName) -> Option<NamedValue>,
    /// Where errors go.
    pub(crate) diags: &'a mut Vec<Diagnostic>,
}

fn overflow(location: &Location) -> Diagnostic {
    Diagnostic::error(
        location.clone(),
        "constant overflow: intermediate result out of range",
    )
}

impl Evaluator<'_> {
    /// The value of `expr` as `target`, or `None` after reporting an error.
    pub(crate) fn eval(&mut self, expr: &ConstExpr, target: &Target) -> Option<ConstValue> {
        let v = self.value(expr, target, 0)?;
        let mismatch = |v: &Val| {
            Diagnostic::error(
                expr.location.clone(),
                format!(
                    "mismatched types: expected `{}`, found {} constant",
                    target.name(),
                    v.class()
                ),
            )
        };
        let out_of_range = |shown: String| {
            Diagnostic::error(
                expr.location.clone(),
                format!(
                    "constant overflow: {shown} does not fit in `{}`",
                    target.name()
                ),
            )
        };
        let result = match (target, v) {
            (Target::Int(t), Val::Int(i)) => t.value(i).ok_or_else(|| out_of_range(i.to_string())),
            (Target::Float, Val::Int(i)) => Ok(ConstValue::Float(i as f32)),
            (Target::Float, Val::Float(f)) => {
                if f.is_finite() && f.abs() <= f64::from(f32::MAX) {
                    Ok(ConstValue::Float(f as f32))
                } else {
                    Err(out_of_range(f.to_string()))
                }
            }
            (Target::Double | Target::LongDouble, Val::Int(i)) => Ok(float_value(target, i as f64)),
            (Target::Double | Target::LongDouble, Val::Float(f)) => {
                if f.is_finite() {
                    Ok(float_value(target, f))
                } else {
                    Err(out_of_range(f.to_string()))
                }
            }
            (Target::Fixed(d, s), Val::Int(i)) => fixed_from_int(i)
                .and_then(|f| fit_fixed(f, *d, *s))
                .map(ConstValue::Fixed)
                .ok_or_else(|| out_of_range(i.to_string())),
            (Target::Fixed(d, s), Val::Fixed(f)) => fit_fixed(f, *d, *s)
                .map(ConstValue::Fixed)
                .ok_or_else(|| out_of_range(f.to_string())),
            (Target::Char, Val::Char(c)) => Ok(ConstValue::Char(c)),
            (Target::WChar, Val::Char(c) | Val::WChar(c)) => Ok(ConstValue::WChar(c)),
            (Target::String(bound), Val::Str(s)) => {
                check_bound(s, *bound, expr, ConstValue::String)
            }
            (Target::WString(bound), Val::Str(s) | Val::WStr(s)) => {
                check_bound(s, *bound, expr, ConstValue::WString)
            }
            (Target::Boolean, Val::Bool(b)) => Ok(ConstValue::Boolean(b)),
            (Target::Enum(want, name), Val::Enum(e, of)) => {
                if of == *want {
                    Ok(ConstValue::Enumerator(e))
                } else {
                    Err(Diagnostic::error(
                        expr.location.clone(),
                        format!(
                            "mismatched types: expected `{name}`, found an enumerator of another enum"
                        ),
                    ))
                }
            }
            (_, v) => Err(mismatch(&v)),
        };
        result.map_err(|d| self.diags.push(d)).ok()
    }

    fn value(&mut self, expr: &ConstExpr, target: &Target, depth: u32) -> Option<Val> {
        if depth > MAX_DEPTH {
            self.diags.push(Diagnostic::error(
                expr.location.clone(),
                "constant expression nested too deeply",
            ));
            return None;
        }
        match &expr.kind {
            ExprKind::Literal(lit) => match lit {
                Literal::Integer(i) => Some(Val::Int(i128::from(*i))),
                Literal::Float(f) => Some(Val::Float(*f)),
                Literal::Fixed(text) => match parse_fixed(text) {
                    Some(f) => Some(Val::Fixed(f)),
                    None => {
                        self.diags.push(Diagnostic::error(
                            expr.location.clone(),
                            "constant overflow: fixed-point literal has more than 31 digits",
                        ));
                        None
                    }
                },
                Literal::Char(c) => Some(Val::Char(*c)),
                Literal::WChar(c) => Some(Val::WChar(*c)),
                Literal::String(s) => Some(Val::Str(s.clone())),
                Literal::WString(s) => Some(Val::WStr(s.clone())),
                Literal::Boolean(b) => Some(Val::Bool(*b)),
            },
            ExprKind::Name(name) => match (self.resolve)(name)? {
                NamedValue::Const(v) => Some(Val::from_const(v)),
                NamedValue::Enumerator(e, of) => Some(Val::Enum(e, of)),
            },
            ExprKind::Unary { op, operand } => {
                let v = self.value(operand, target, depth + 1)?;
                let result = match (op, v) {
                    (UnaryOp::Plus, v @ (Val::Int(_) | Val::Float(_) | Val::Fixed(_))) => Some(v),
                    (UnaryOp::Neg, Val::Int(i)) => Some(Val::Int(-i)),
                    (UnaryOp::Neg, Val::Float(f)) => Some(Val::Float(-f)),
                    (UnaryOp::Neg, Val::Fixed(f)) => Some(Val::Fixed(FixedValue {
                        digits: -f.digits,
                        scale: f.scale,
                    })),
                    (UnaryOp::Not, Val::Int(i)) => Some(Val::Int(match target {
                        Target::Int(
                            t @ (IntType::UShort
                            | IntType::ULong
                            | IntType::ULongLong
                            | IntType::Octet),
                        ) => {
                            let max = t.range().1;
                            if !(0..=max).contains(&i) {
                                self.diags.push(overflow(&expr.location));
                                return None;
                            }
                            max - i
                        }
                        _ => !i,
                    })),
                    (op, v) => {
                        let sym = match op {
                            UnaryOp::Neg => "-",
                            UnaryOp::Plus => "+",
                            UnaryOp::Not => "~",
                        };
                        self.diags.push(Diagnostic::error(
                            expr.location.clone(),
                            format!(
                                "operator `{sym}` cannot be applied to {} constants",
                                v.class()
                            ),
                        ));
                        None
                    }
                }?;
                self.check_int(result, &expr.location)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let l = self.value(lhs, target, depth + 1);
                let r = self.value(rhs, target, depth + 1);
                let result = self.binary(*op, l?, r?, &expr.location)?;
                self.check_int(result, &expr.location)
            }
        }
    }

    fn check_int(&mut self, v: Val, location: &Location) -> Option<Val> {
        if let Val::Int(i) = v {
            if i < i128::from(i64::MIN) || i > i128::from(u64::MAX) {
                self.diags.push(overflow(location));
                return None;
            }
        }
        Some(v)
    }

    fn binary(&mut self, op: BinaryOp, l: Val, r: Val, location: &Location) -> Option<Val> {
        let sym = match op {
            BinaryOp::Or => "|",
            BinaryOp::Xor => "^",
            BinaryOp::And => "&",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Mod => "%",
        };
        let arith = matches!(
            op,
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div
        );
        let div_zero = || Diagnostic::error(location.clone(), "division by zero");
        match (l, r) {
            (Val::Int(a), Val::Int(b)) => {
                let v = match op {
                    BinaryOp::Or => a | b,
                    BinaryOp::Xor => a ^ b,
                    BinaryOp::And => a & b,
                    BinaryOp::Shl | BinaryOp::Shr => {
                        if !(0..64).contains(&b) {
                            self.diags.push(Diagnostic::error(
                                location.clone(),
                                format!("shift count {b} out of range (0 to 63)"),
                            ));
                            return None;
                        }
                        if op == BinaryOp::Shl { a << b } else { a >> b }
                    }
                    BinaryOp::Add => a + b,
                    BinaryOp::Sub => a - b,
                    BinaryOp::Mul => a * b,
                    BinaryOp::Div | BinaryOp::Mod => {
                        if b == 0 {
                            self.diags.push(div_zero());
                            return None;
                        }
                        if op == BinaryOp::Div { a / b } else { a % b }
                    }
                };
                Some(Val::Int(v))
            }
            (Val::Float(a), Val::Float(b)) if arith => float_op(op, a, b),
            (Val::Float(a), Val::Int(b)) if arith => float_op(op, a, b as f64),
            (Val::Int(a), Val::Float(b)) if arith => float_op(op, a as f64, b),
            (Val::Fixed(a), Val::Fixed(b)) if arith => self.fixed_op(op, a, b, location),
            (Val::Fixed(a), Val::Int(b)) if arith => {
                let b = fixed_from_int(b)?;
                self.fixed_op(op, a, b, location)
            }
            (Val::Int(a), Val::Fixed(b)) if arith => {
                let a = fixed_from_int(a)?;
                self.fixed_op(op, a, b, location)
            }
            (l, r) => {
                let class = match (&l, &r) {
                    (Val::Int(_), other) | (other, Val::Int(_)) => other.class(),
                    (Val::Float(_) | Val::Fixed(_), _) if l.class() == r.class() => l.class(),
                    _ if l.class() == r.class() => l.class(),
                    _ => {
                        self.diags.push(Diagnostic::error(
                            location.clone(),
                            format!(
                                "mismatched types: operator `{sym}` applied to {} and {} constants",
                                l.class(),
                                r.class()
                            ),
                        ));
                        return None;
                    }
                };
                self.diags.push(Diagnostic::error(
                    location.clone(),
                    format!("operator `{sym}` cannot be applied to {class} constants"),
                ));
                None
            }
        }
    }

    fn fixed_op(
        &mut self,
        op: BinaryOp,
        a: FixedValue,
        b: FixedValue,
        location: &Location,
    ) -> Option<Val> {
        let result = match op {
            BinaryOp::Add | BinaryOp::Sub => {
                let scale = a.scale.max(b.scale);
                let x = rescale(a, scale);
                let y = rescale(b, scale);
                x.zip(y).and_then(|(x, y)| {
                    let d = if op == BinaryOp::Add {
                        x.checked_add(y)
                    } else {
                        x.checked_sub(y)
                    }?;
                    normalize(d, u32::from(scale))
                })
            }
            BinaryOp::Mul => a
                .digits
                .checked_mul(b.digits)
                .and_then(|d| normalize(d, u32::from(a.scale) + u32::from(b.scale))),
            _ => {
                if b.digits == 0 {
                    self.diags
                        .push(Diagnostic::error(location.clone(), "division by zero"));
                    return None;
                }
                // Scale the dividend up as far as it goes, for the most
                // digits in the quotient; normalising truncates to 31.
                let mut num = a.digits;
                let mut extra = 0u32;
                while extra < 40 {
                    match num.checked_mul(10) {
                        Some(n) if n.unsigned_abs() < 10u128.pow(37) => {
                            num = n;
                            extra += 1;
                        }
                        _ => break,
                    }
                }
                let q = num / b.digits;
                let scale = i64::from(a.scale) + i64::from(extra) - i64::from(b.scale);
                if scale < 0 {
                    u32::try_from(-scale)
                        .ok()
                        .and_then(|s| 10i128.checked_pow(s))
                        .and_then(|p| q.checked_mul(p))
                        .and_then(|d| normalize(d, 0))
                } else {
                    normalize(q, u32::try_from(scale).unwrap_or(u32::MAX))
                }
            }
        };
        match result {
            Some(f) => Some(Val::Fixed(f)),
            None => {
                self.diags.push(Diagnostic::error(
                    location.clone(),
                    "constant overflow: fixed-point result has more than 31 digits",
                ));
                None
            }
        }
    }
}

fn float_value(target: &Target, f: f64) -> ConstValue {
    if *target == Target::LongDouble {
        ConstValue::LongDouble(f)
    } else {
        ConstValue::Double(f)
    }
}

fn float_op(op: BinaryOp, a: f64, b: f64) -> Option<Val> {
    Some(Val::Float(match op {
        BinaryOp::Add => a + b,
        BinaryOp::Sub => a - b,
        BinaryOp::Mul => a * b,
        _ => a / b,
    }))
}

fn check_bound(
    s: String,
    bound: Option<u32>,
    expr: &ConstExpr,
    wrap: fn(String) -> ConstValue,
) -> Result<ConstValue, Diagnostic> {
    match bound {
        Some(b) if s.chars().count() > b as usize => Err(Diagnostic::error(
            expr.location.clone(),
            format!("string constant is longer than its bound {b}"),
        )),
        _ => Ok(wrap(s)),
    }
}

/// The greatest number of digits a fixed-point value has.
const FIXED_DIGITS: u32 = 31;

fn digit_count(mut n: u128) -> u32 {
    let mut count = 1;
    while n >= 10 {
        n /= 10;
        count += 1;
    }
    count
}

/// Drops trailing fractional zeros, truncates fractional digits beyond 31
/// digits in all; `None` when the integer part alone has more than 31.
fn normalize(mut digits: i128, mut scale: u32) -> Option<FixedValue> {
    while scale > 0
        && (digits % 10 == 0 || digit_count(digits.unsigned_abs()).max(scale) > FIXED_DIGITS)
    {
        digits /= 10;
        scale -= 1;
    }
    if digit_count(digits.unsigned_abs()) > FIXED_DIGITS {
        return None;
    }
    Some(FixedValue {
        digits,
        scale: u8::try_from(scale).ok()?,
    })
}

fn rescale(f: FixedValue, scale: u8) -> Option<i128> {
    10i128
        .checked_pow(u32::from(scale - f.scale.min(scale)))
        .and_then(|p| f.digits.checked_mul(p))
}

fn fixed_from_int(i: i128) -> Option<FixedValue> {
    normalize(i, 0)
}

fn parse_fixed(text: &str) -> Option<FixedValue> {
    let text = text.trim_end_matches(['d', 'D']);
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let mut digits: i128 = 0;
    for c in int.chars().chain(frac.chars()) {
        let d = c.to_digit(10)?;
        digits = digits.checked_mul(10)?.checked_add(i128::from(d))?;
    }
    normalize(digits, u32::try_from(frac.len()).ok()?)
}

/// `f` as a value of `fixed<digits, scale>` (digits 0: any fixed),
/// truncating extra fractional digits.
fn fit_fixed(f: FixedValue, digits: u8, scale: u8) -> Option<FixedValue> {
    if digits == 0 {
        return Some(f);
    }
    let mut v = f;
    while v.scale > scale {
        v.digits /= 10;
        v.scale -= 1;
    }
    let v = normalize(v.digits, u32::from(v.scale))?;
    let int_digits = if v.digits == 0 {
        0
    } else {
        digit_count(v.digits.unsigned_abs()).saturating_sub(u32::from(v.scale))
    };
    (int_digits <= u32::from(digits.saturating_sub(scale))).then_some(v)
}

/// A label or constant value as written in messages.
pub(crate) fn show(v: &ConstValue, enumerator_name: impl Fn(DeclId) -> String) -> String {
    match v {
        ConstValue::Short(x) => x.to_string(),
        ConstValue::UShort(x) => x.to_string(),
        ConstValue::Long(x) => x.to_string(),
        ConstValue::ULong(x) => x.to_string(),
        ConstValue::LongLong(x) => x.to_string(),
        ConstValue::ULongLong(x) => x.to_string(),
        ConstValue::Octet(x) => x.to_string(),
        ConstValue::Float(x) => x.to_string(),
        ConstValue::Double(x) | ConstValue::LongDouble(x) => x.to_string(),
        ConstValue::Char(c) | ConstValue::WChar(c) => format!("{c:?}"),
        ConstValue::Boolean(b) => if *b { "TRUE" } else { "FALSE" }.into(),
        ConstValue::String(s) | ConstValue::WString(s) => format!("{s:?}"),
        ConstValue::Fixed(f) => f.to_string(),
        ConstValue::Enumerator(id) => enumerator_name(*id),
    }
}
