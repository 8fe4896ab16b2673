//! Reading a [`Value`] of a TypeCode's type.

use super::labels::{label_key, select_member};
use super::layout::{check_bound, check_count, nested, value_state};
use crate::decoder::Decoder;
use crate::dynamic::{Any, Body, PrimSeq, TypeCode, UnionMember, Value};
use crate::error::{CdrError, Result};
use crate::traits::CdrDecode;
use crate::typecode::kind::{TCKind, VM_ABSTRACT};
use crate::types::Ior;
use crate::valuetype::read::read_dynamic;

impl Value {
    /// Reads a value of type `tc`.
    ///
    /// Checks what CDR lets it check: booleans are 0 or 1, enum values are
    /// in range, bounded strings and sequences respect their bound, every
    /// length fits in what remains before anything is allocated, and
    /// nesting (structs, sequences, anys ...) is bounded by the decoder's
    /// depth limit.
    pub fn decode(tc: &TypeCode, dec: &mut Decoder) -> Result<Value> {
        let tc = tc.unalias();
        Ok(match tc.body() {
            Body::Basic(k) => decode_basic(*k, dec)?,
            Body::String { wide, bound } => decode_string(*wide, *bound, dec)?,
            Body::Fixed { digits, scale } => Value::Fixed(dec.read_fixed(*digits, *scale)?),
            Body::Enum { members, .. } => {
                let v = dec.read_u32()?;
                let count = members.len() as u32;
                if v as usize >= members.len() {
                    return Err(CdrError::InvalidEnum { value: v, count });
                }
                Value::Enum(v)
            }
            Body::Sequence { content, bound } => nested(dec, |dec| {
                let n = dec.read_u32()?;
                let n = check_count(dec, n.into(), content)?;
                check_bound(n, *bound)?;
                decode_elements(content, n, dec, Value::Sequence)
            })?,
            Body::Array { content, length } => nested(dec, |dec| {
                let n = check_count(dec, (*length).into(), content)?;
                decode_elements(content, n, dec, Value::Array)
            })?,
            Body::Struct { members, .. } => nested(dec, |dec| {
                let mut out = Vec::with_capacity(members.len());
                for (_, t) in members {
                    out.push(Value::decode(&tc.resolve_child(t), dec)?);
                }
                Ok(Value::Struct(out))
            })?,
            Body::Union {
                discriminator,
                members,
                ..
            } => nested(dec, |dec| decode_union(tc, discriminator, members, dec))?,
            Body::Interface { kind, .. } => decode_interface(*kind, dec)?,
            Body::Named { content, .. } => read_dynamic(dec, |dec, _| {
                // A value box (aliases were stripped above).
                Value::decode(&tc.resolve_child(content), dec)
            })?,
            Body::Value { modifier, .. } => read_dynamic(dec, |dec, _| {
                if *modifier == VM_ABSTRACT {
                    return Err(CdrError::Unsupported("value of an abstract valuetype"));
                }
                let state = value_state(tc)?;
                let mut out = Vec::with_capacity(state.len());
                for t in &state {
                    out.push(Value::decode(t, dec)?);
                }
                Ok(Value::ValueType(out))
            })?,
            Body::Recursive { .. } => {
                return Err(CdrError::BadTypeCode("unresolved recursive TypeCode"));
            }
        })
    }
}

/// A value of a kind without parameters.
fn decode_basic(k: TCKind, dec: &mut Decoder) -> Result<Value> {
    Ok(match k {
        TCKind::Null => Value::Null,
        TCKind::Void => Value::Void,
        TCKind::Short => Value::Short(dec.read_i16()?),
        TCKind::Long => Value::Long(dec.read_i32()?),
        TCKind::UShort => Value::UShort(dec.read_u16()?),
        TCKind::ULong => Value::ULong(dec.read_u32()?),
        TCKind::Float => Value::Float(dec.read_f32()?),
        TCKind::Double => Value::Double(dec.read_f64()?),
        TCKind::Boolean => Value::Boolean(dec.read_bool()?),
        TCKind::Char => Value::Char(dec.read_char()?),
        TCKind::Octet => Value::Octet(dec.read_u8()?),
        TCKind::Any => Value::Any(Box::new(Any::decode(dec)?)),
        TCKind::TypeCode => Value::TypeCode(TypeCode::decode(dec)?),
        TCKind::Principal => Value::Octets(dec.read_octet_seq()?),
        TCKind::LongLong => Value::LongLong(dec.read_i64()?),
        TCKind::ULongLong => Value::ULongLong(dec.read_u64()?),
        TCKind::LongDouble => Value::LongDouble(dec.read_long_double()?),
        TCKind::WChar => Value::WChar(dec.read_wchar()?),
        _ => return Err(CdrError::BadTypeCode("not a basic kind")),
    })
}

/// A `string` or `wstring` with a bound (0 for none).
fn decode_string(wide: bool, bound: u32, dec: &mut Decoder) -> Result<Value> {
    let s = match (wide, bound) {
        (false, 0) => dec.read_string()?,
        (false, b) => dec.read_bounded_string(b)?,
        (true, 0) => dec.read_wstring()?,
        (true, b) => dec.read_bounded_wstring(b)?,
    };
    Ok(if wide {
        Value::WString(s)
    } else {
        Value::String(s)
    })
}

/// A union of TypeCode `tc`: the discriminator, then the member it selects.
fn decode_union(
    tc: &TypeCode,
    discriminator: &TypeCode,
    members: &[UnionMember],
    dec: &mut Decoder,
) -> Result<Value> {
    let d = Value::decode(discriminator, dec)?;
    let key = label_key(discriminator, &d)?;
    let member = select_member(tc, key);
    let value = match member.and_then(|i| members.get(i)) {
        Some(m) => Some(Box::new(Value::decode(
            &tc.resolve_child(&m.type_code),
            dec,
        )?)),
        None => None,
    };
    Ok(Value::Union {
        discriminator: Box::new(d),
        member,
        value,
    })
}

/// An object reference, or what an abstract interface holds.
fn decode_interface(kind: TCKind, dec: &mut Decoder) -> Result<Value> {
    match kind {
        TCKind::AbstractInterface => {
            if dec.read_bool()? {
                Ok(Value::ObjRef(Ior::decode(dec)?))
            } else {
                read_dynamic(dec, |_, _| {
                    Err(CdrError::Unsupported(
                        "a value of unknown type in an abstract interface",
                    ))
                })
            }
        }
        TCKind::Native | TCKind::LocalInterface => Err(CdrError::Unsupported(
            "native and local interface values cannot be marshalled",
        )),
        _ => Ok(Value::ObjRef(Ior::decode(dec)?)),
    }
}

/// `n` elements of type `content`: octets and numeric primitives in bulk,
/// others one by one into `generic`.
fn decode_elements(
    content: &TypeCode,
    n: usize,
    dec: &mut Decoder,
    generic: fn(Vec<Value>) -> Value,
) -> Result<Value> {
    let kind = content.unalias().kind();
    if kind == TCKind::Octet {
        return Ok(Value::Octets(dec.read_bytes(n)?));
    }
    if let Some(p) = read_primitives(kind, n, dec)? {
        return Ok(Value::Primitives(p));
    }
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(Value::decode(content, dec)?);
    }
    Ok(generic(out))
}

/// `n` elements of the numeric primitive `kind` in one bulk read; `None`
/// for another kind.
fn read_primitives(kind: TCKind, n: usize, dec: &mut Decoder) -> Result<Option<PrimSeq>> {
    Ok(Some(match kind {
        TCKind::Short => PrimSeq::Short(dec.read_prim_array(n)?),
        TCKind::UShort => PrimSeq::UShort(dec.read_prim_array(n)?),
        TCKind::Long => PrimSeq::Long(dec.read_prim_array(n)?),
        TCKind::ULong => PrimSeq::ULong(dec.read_prim_array(n)?),
        TCKind::LongLong => PrimSeq::LongLong(dec.read_prim_array(n)?),
        TCKind::ULongLong => PrimSeq::ULongLong(dec.read_prim_array(n)?),
        TCKind::Float => PrimSeq::Float(dec.read_prim_array(n)?),
        TCKind::Double => PrimSeq::Double(dec.read_prim_array(n)?),
        _ => return Ok(None),
    }))
}
