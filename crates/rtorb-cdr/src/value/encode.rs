//! Writing a [`Value`] as a value of a TypeCode's type, checking that it
//! is one.

use super::labels::{label_key, select_member};
use super::layout::{check_bound, value_ids, value_state};
use crate::dynamic::{Body, PrimSeq, TypeCode, UnionMember, Value};
use crate::encoder::Encoder;
use crate::error::{CdrError, Result};
use crate::traits::CdrEncode;
use crate::typecode::kind::{TCKind, VM_ABSTRACT};
use crate::types::Fixed;
use crate::valuetype::write::{write_dynamic, write_null};

/// The error of a value that is not of its TypeCode's type.
fn mismatch() -> CdrError {
    CdrError::TypeMismatch("value does not match the TypeCode")
}

impl Value {
    /// Writes this value as a value of type `tc`, checking that it is one
    /// ([`CdrError::TypeMismatch`] otherwise).
    pub fn encode(&self, tc: &TypeCode, enc: &mut Encoder) -> Result<()> {
        let tc = tc.unalias();
        match (tc.body(), self) {
            (Body::Basic(k), v) => encode_basic(*k, v, enc)?,
            (Body::String { wide: false, bound }, Value::String(s)) => {
                if *bound == 0 {
                    enc.write_string(s)?
                } else {
                    enc.write_bounded_string(s, *bound)?
                }
            }
            (Body::String { wide: true, bound }, Value::WString(s)) => {
                check_bound(s.chars().count(), *bound)?;
                enc.write_wstring(s)?
            }
            (Body::Fixed { digits, scale }, Value::Fixed(f)) => {
                enc.write_fixed(&rescale(f, *digits, *scale)?)
            }
            (Body::Enum { members, .. }, Value::Enum(v)) => {
                if *v as usize >= members.len() {
                    return Err(CdrError::InvalidEnum {
                        value: *v,
                        count: members.len() as u32,
                    });
                }
                enc.write_u32(*v)
            }
            (Body::Sequence { content, bound }, v) => {
                let n = elements_len(v, false).ok_or_else(mismatch)?;
                check_bound(n, *bound)?;
                enc.write_len(n)?;
                encode_elements(content, v, enc)?
            }
            (Body::Array { content, length }, v) => {
                let n = elements_len(v, true).ok_or_else(mismatch)?;
                if n as u64 != *length as u64 {
                    return Err(CdrError::TypeMismatch("array value has the wrong length"));
                }
                encode_elements(content, v, enc)?
            }
            (Body::Struct { members, .. }, Value::Struct(vals)) => {
                if vals.len() != members.len() {
                    return Err(CdrError::TypeMismatch(
                        "struct value has the wrong member count",
                    ));
                }
                for ((_, t), v) in members.iter().zip(vals) {
                    v.encode(&tc.resolve_child(t), enc)?;
                }
            }
            (
                Body::Union {
                    discriminator,
                    members,
                    ..
                },
                Value::Union {
                    discriminator: d,
                    member,
                    value,
                },
            ) => encode_union(tc, (discriminator, members), (d, *member, value), enc)?,
            (Body::Interface { kind, .. }, v) => encode_interface(*kind, v, enc)?,
            (Body::Named { id, content, .. }, v) => match v {
                Value::Null => write_null(enc)?,
                v => write_dynamic(enc, &[id.as_str()], |enc| {
                    v.encode(&tc.resolve_child(content), enc)
                })?,
            },
            (Body::Value { .. }, Value::Null) => write_null(enc)?,
            (Body::Value { id, modifier, .. }, Value::ValueType(vals)) => {
                if *modifier == VM_ABSTRACT {
                    return Err(CdrError::Unsupported("value of an abstract valuetype"));
                }
                encode_valuetype(tc, id, vals, enc)?
            }
            (Body::Recursive { .. }, _) => {
                return Err(CdrError::BadTypeCode("unresolved recursive TypeCode"));
            }
            _ => return Err(mismatch()),
        }
        Ok(())
    }
}

/// A value of a kind without parameters.
fn encode_basic(k: TCKind, v: &Value, enc: &mut Encoder) -> Result<()> {
    match (k, v) {
        (TCKind::Null, Value::Null) | (TCKind::Void, Value::Void) => {}
        (TCKind::Short, Value::Short(x)) => enc.write_i16(*x),
        (TCKind::Long, Value::Long(x)) => enc.write_i32(*x),
        (TCKind::UShort, Value::UShort(x)) => enc.write_u16(*x),
        (TCKind::ULong, Value::ULong(x)) => enc.write_u32(*x),
        (TCKind::Float, Value::Float(x)) => enc.write_f32(*x),
        (TCKind::Double, Value::Double(x)) => enc.write_f64(*x),
        (TCKind::Boolean, Value::Boolean(x)) => enc.write_bool(*x),
        (TCKind::Char, Value::Char(x)) => enc.write_char(*x)?,
        (TCKind::Octet, Value::Octet(x)) => enc.write_u8(*x),
        (TCKind::Any, Value::Any(a)) => a.encode(enc)?,
        (TCKind::TypeCode, Value::TypeCode(t)) => t.encode(enc)?,
        (TCKind::Principal, Value::Octets(b)) => enc.write_octet_seq_bytes(b)?,
        (TCKind::LongLong, Value::LongLong(x)) => enc.write_i64(*x),
        (TCKind::ULongLong, Value::ULongLong(x)) => enc.write_u64(*x),
        (TCKind::LongDouble, Value::LongDouble(x)) => enc.write_long_double(x),
        (TCKind::WChar, Value::WChar(x)) => enc.write_wchar(*x)?,
        _ => return Err(mismatch()),
    }
    Ok(())
}

/// A union of TypeCode `tc` (its discriminator type and members): the
/// discriminator `d`, which must select `member`, then `value`.
fn encode_union(
    tc: &TypeCode,
    (discriminator, members): (&TypeCode, &[UnionMember]),
    (d, member, value): (&Value, Option<usize>, &Option<Box<Value>>),
    enc: &mut Encoder,
) -> Result<()> {
    let key = label_key(discriminator, d)?;
    let selected = select_member(tc, key);
    if selected != member {
        return Err(CdrError::InvalidDiscriminator(key as i64));
    }
    d.encode(discriminator, enc)?;
    match (selected.and_then(|i| members.get(i)), value) {
        (Some(m), Some(v)) => v.encode(&tc.resolve_child(&m.type_code), enc),
        (None, None) => Ok(()),
        _ => Err(CdrError::InvalidDiscriminator(key as i64)),
    }
}

/// An object reference, or what an abstract interface holds.
fn encode_interface(kind: TCKind, v: &Value, enc: &mut Encoder) -> Result<()> {
    match (kind, v) {
        (TCKind::Native | TCKind::LocalInterface, _) => Err(CdrError::Unsupported(
            "native and local interface values cannot be marshalled",
        )),
        (TCKind::AbstractInterface, Value::ObjRef(ior)) => {
            enc.write_bool(true);
            ior.encode(enc)
        }
        (TCKind::AbstractInterface, Value::Null) => {
            enc.write_bool(false);
            write_null(enc)
        }
        (TCKind::AbstractInterface, _) => Err(mismatch()),
        (_, Value::ObjRef(ior)) => ior.encode(enc),
        _ => Err(mismatch()),
    }
}

/// A non-null valuetype of TypeCode `tc` (repository id `id`), its state
/// members `vals`, those of its bases first.
fn encode_valuetype(tc: &TypeCode, id: &str, vals: &[Value], enc: &mut Encoder) -> Result<()> {
    let state = value_state(tc)?;
    if state.len() != vals.len() {
        return Err(CdrError::TypeMismatch(
            "valuetype value has the wrong member count",
        ));
    }
    let ids = value_ids(tc, id)?;
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    write_dynamic(enc, &ids, |enc| {
        for (t, v) in state.iter().zip(vals) {
            v.encode(t, enc)?;
        }
        Ok(())
    })
}

/// How many elements a sequence (or, with `array`, an array) value has.
fn elements_len(v: &Value, array: bool) -> Option<usize> {
    match v {
        Value::Sequence(x) if !array => Some(x.len()),
        Value::Array(x) if array => Some(x.len()),
        Value::Octets(b) => Some(b.len()),
        Value::Primitives(p) => Some(p.len()),
        _ => None,
    }
}

/// The elements of a sequence or array value, of type `content`.
fn encode_elements(content: &TypeCode, v: &Value, enc: &mut Encoder) -> Result<()> {
    let kind = content.unalias().kind();
    match v {
        Value::Sequence(items) | Value::Array(items) => {
            items.iter().try_for_each(|x| x.encode(content, enc))
        }
        Value::Octets(b) if kind == TCKind::Octet => {
            enc.write_bytes(b);
            Ok(())
        }
        Value::Primitives(p) if p.kind() == kind => {
            write_primitives(p, enc);
            Ok(())
        }
        _ => Err(CdrError::TypeMismatch("sequence element type")),
    }
}

/// Numeric primitives in one bulk write.
fn write_primitives(p: &PrimSeq, enc: &mut Encoder) {
    match p {
        PrimSeq::Short(v) => enc.write_prim_slice(v),
        PrimSeq::UShort(v) => enc.write_prim_slice(v),
        PrimSeq::Long(v) => enc.write_prim_slice(v),
        PrimSeq::ULong(v) => enc.write_prim_slice(v),
        PrimSeq::LongLong(v) => enc.write_prim_slice(v),
        PrimSeq::ULongLong(v) => enc.write_prim_slice(v),
        PrimSeq::Float(v) => enc.write_prim_slice(v),
        PrimSeq::Double(v) => enc.write_prim_slice(v),
    }
}

/// Rescales `v` to `fixed<digits, scale>` if no digit is lost.
fn rescale(v: &Fixed, digits: u16, scale: i16) -> Result<Fixed> {
    if v.digits() == digits && v.scale() == scale {
        return Ok(*v);
    }
    let mismatch = CdrError::TypeMismatch("fixed value does not fit its digits and scale");
    let (vd, vs) = (v.digits() as i32, v.scale() as i32);
    let lead = (digits as i32 - scale as i32) - (vd - vs);
    let trail = scale as i32 - vs;
    let src = v.digit_values();
    let mut out = Vec::with_capacity(digits as usize);
    // Drop leading zeros that do not fit, and trailing zeros beyond the scale.
    let mut body: &[u8] = src;
    let mut lead = lead;
    while lead < 0 {
        match body.split_first() {
            Some((0, rest)) => {
                body = rest;
                lead += 1;
            }
            _ => return Err(mismatch),
        }
    }
    let mut trail = trail;
    while trail < 0 {
        match body.split_last() {
            Some((0, rest)) => {
                body = rest;
                trail += 1;
            }
            _ => return Err(mismatch),
        }
    }
    out.resize(lead as usize, 0);
    out.extend_from_slice(body);
    out.resize(out.len() + trail as usize, 0);
    Fixed::new(v.is_negative(), &out, scale)
}
