//! Dynamic values: IDL values as a tree, for Anys whose type is not known
//! at compile time.
//!
//! A [`Value`] has no type of its own: it is read and written against a
//! [`TypeCode`], which says how to lay it out and which shapes of value are
//! acceptable. Aliases are transparent (a value of a typedef is a value of
//! the aliased type). Sequences and arrays of `octet` decode to
//! [`Value::Octets`] (a slice of the message, no copy) and of the numeric
//! primitives to [`Value::Primitives`] (one bulk read); everything else to
//! [`Value::Sequence`] or [`Value::Array`]. Encoding accepts either form.

use bytes::Bytes;

use crate::any::Any;
use crate::decoder::Decoder;
use crate::encoder::Encoder;
use crate::error::{CdrError, Result};
use crate::traits::{CdrDecode, CdrEncode};
use crate::typecode::{Body, TCKind, TypeCode, VM_ABSTRACT, VM_CUSTOM, VM_TRUNCATABLE};
use crate::types::{Fixed, Ior, LongDouble};
use crate::valuetype;

/// A sequence or array of a numeric primitive type, held unboxed.
#[derive(Debug, Clone, PartialEq)]
pub enum PrimSeq {
    /// `short` elements.
    Short(Vec<i16>),
    /// `unsigned short` elements.
    UShort(Vec<u16>),
    /// `long` elements.
    Long(Vec<i32>),
    /// `unsigned long` elements.
    ULong(Vec<u32>),
    /// `long long` elements.
    LongLong(Vec<i64>),
    /// `unsigned long long` elements.
    ULongLong(Vec<u64>),
    /// `float` elements.
    Float(Vec<f32>),
    /// `double` elements.
    Double(Vec<f64>),
}

impl PrimSeq {
    /// The number of elements.
    pub fn len(&self) -> usize {
        match self {
            PrimSeq::Short(v) => v.len(),
            PrimSeq::UShort(v) => v.len(),
            PrimSeq::Long(v) => v.len(),
            PrimSeq::ULong(v) => v.len(),
            PrimSeq::LongLong(v) => v.len(),
            PrimSeq::ULongLong(v) => v.len(),
            PrimSeq::Float(v) => v.len(),
            PrimSeq::Double(v) => v.len(),
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element kind.
    pub fn kind(&self) -> TCKind {
        match self {
            PrimSeq::Short(_) => TCKind::Short,
            PrimSeq::UShort(_) => TCKind::UShort,
            PrimSeq::Long(_) => TCKind::Long,
            PrimSeq::ULong(_) => TCKind::ULong,
            PrimSeq::LongLong(_) => TCKind::LongLong,
            PrimSeq::ULongLong(_) => TCKind::ULongLong,
            PrimSeq::Float(_) => TCKind::Float,
            PrimSeq::Double(_) => TCKind::Double,
        }
    }

    fn read(kind: TCKind, n: usize, dec: &mut Decoder) -> Result<Option<PrimSeq>> {
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

    fn write(&self, enc: &mut Encoder) {
        match self {
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
}

/// A dynamically typed IDL value, interpreted by a [`TypeCode`].
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A value of `tk_null`; also a null valuetype, value box or abstract
    /// interface.
    Null,
    /// A value of `tk_void`.
    Void,
    /// `boolean`.
    Boolean(bool),
    /// `char`.
    Char(char),
    /// `wchar`.
    WChar(char),
    /// `octet`.
    Octet(u8),
    /// `short`.
    Short(i16),
    /// `unsigned short`.
    UShort(u16),
    /// `long`.
    Long(i32),
    /// `unsigned long`.
    ULong(u32),
    /// `long long`.
    LongLong(i64),
    /// `unsigned long long`.
    ULongLong(u64),
    /// `float`.
    Float(f32),
    /// `double`.
    Double(f64),
    /// `long double`.
    LongDouble(LongDouble),
    /// `fixed`; on encoding it is rescaled to the TypeCode's digits and
    /// scale if that loses nothing.
    Fixed(Fixed),
    /// `string`.
    String(String),
    /// `wstring`.
    WString(String),
    /// An enum value: the ordinal of the enumerator.
    Enum(u32),
    /// A sequence, element by element.
    Sequence(Vec<Value>),
    /// An array, element by element (a multidimensional array nests).
    Array(Vec<Value>),
    /// A sequence or array of `octet` (also `tk_Principal`), as a slice of
    /// the message it came in.
    Octets(Bytes),
    /// A sequence or array of a numeric primitive type.
    Primitives(PrimSeq),
    /// The members of a struct or exception, in order.
    Struct(Vec<Value>),
    /// A union.
    Union {
        /// The discriminator, a value of the discriminator type.
        discriminator: Box<Value>,
        /// The index of the member the discriminator selects (the default
        /// member if no label matches); `None` if it selects none.
        member: Option<usize>,
        /// The selected member's value.
        value: Option<Box<Value>>,
    },
    /// An object reference (objref, component, home, or an abstract
    /// interface that carries a reference).
    ObjRef(Ior),
    /// A `TypeCode`.
    TypeCode(TypeCode),
    /// An `any`.
    Any(Box<Any>),
    /// A non-null valuetype or eventtype: its state members, those of its
    /// concrete bases first. (A value box holds its boxed value directly.)
    ValueType(Vec<Value>),
}

/// Whether `tc` (after aliases) may discriminate a union.
pub(crate) fn is_discriminator_type(tc: &TypeCode) -> bool {
    matches!(
        tc.unalias().kind(),
        TCKind::Boolean
            | TCKind::Char
            | TCKind::WChar
            | TCKind::Octet
            | TCKind::Short
            | TCKind::UShort
            | TCKind::Long
            | TCKind::ULong
            | TCKind::LongLong
            | TCKind::ULongLong
            | TCKind::Enum
    )
}

/// The discriminator value `label` as an integer, checked against the
/// discriminator type `disc`.
pub(crate) fn label_key(disc: &TypeCode, label: &Value) -> Result<i128> {
    let disc = disc.unalias();
    Ok(match (disc.kind(), label) {
        (TCKind::Boolean, Value::Boolean(b)) => *b as i128,
        (TCKind::Char, Value::Char(c)) | (TCKind::WChar, Value::WChar(c)) => *c as i128,
        (TCKind::Octet, Value::Octet(v)) => *v as i128,
        (TCKind::Short, Value::Short(v)) => *v as i128,
        (TCKind::UShort, Value::UShort(v)) => *v as i128,
        (TCKind::Long, Value::Long(v)) => *v as i128,
        (TCKind::ULong, Value::ULong(v)) => *v as i128,
        (TCKind::LongLong, Value::LongLong(v)) => *v as i128,
        (TCKind::ULongLong, Value::ULongLong(v)) => *v as i128,
        (TCKind::Enum, Value::Enum(v)) => {
            let count = disc.member_count().unwrap_or(0) as u32;
            if *v >= count {
                return Err(CdrError::InvalidEnum { value: *v, count });
            }
            *v as i128
        }
        _ => return Err(CdrError::TypeMismatch("union label or discriminator type")),
    })
}

/// The member a discriminator selects: a labelled member, else the
/// default member, else none.
fn select_member(tc: &TypeCode, key: i128) -> Option<usize> {
    if let Body::Union {
        discriminator,
        default_index,
        members,
        ..
    } = tc.body()
    {
        members
            .iter()
            .position(|m| {
                m.label
                    .as_ref()
                    .is_some_and(|l| label_key(discriminator, l).ok() == Some(key))
            })
            .or_else(|| usize::try_from(*default_index).ok())
    } else {
        None
    }
}

/// The fewest octets a value of `tc` can occupy (a lower bound), for
/// checking element counts before allocating.
fn min_wire_size(tc: &TypeCode) -> usize {
    match tc.unalias().body() {
        Body::Basic(k) => match k {
            TCKind::Short | TCKind::UShort | TCKind::WChar => 2,
            TCKind::Long | TCKind::ULong | TCKind::Float => 4,
            TCKind::LongLong | TCKind::ULongLong | TCKind::Double => 8,
            TCKind::LongDouble => 16,
            TCKind::Any | TCKind::TypeCode | TCKind::Principal => 4,
            _ => 1,
        },
        Body::String { wide: false, .. } => 5,
        Body::String { wide: true, .. } => 4,
        Body::Fixed { digits, .. } => Fixed::wire_len(*digits),
        Body::Sequence { .. } | Body::Enum { .. } => 4,
        Body::Interface { .. } | Body::Value { .. } => 4,
        _ => 1,
    }
}

/// The repository ids a value of `tc` is written with: its own, then
/// those of the bases it is truncatable to.
fn value_ids(tc: &TypeCode, id: &str) -> Result<Vec<String>> {
    let mut out = vec![id.to_string()];
    let mut t = tc.clone();
    while t.type_modifier() == Some(VM_TRUNCATABLE) {
        let Some(Some(base)) = t.concrete_base_type() else {
            break;
        };
        if out.len() > crate::DEFAULT_MAX_DEPTH as usize {
            return Err(CdrError::NestingTooDeep(crate::DEFAULT_MAX_DEPTH));
        }
        let base = base.unalias().clone();
        out.push(base.id().unwrap_or_default().to_string());
        t = base;
    }
    Ok(out)
}

/// The TypeCodes of a valuetype's state members, bases first.
fn value_state(tc: &TypeCode) -> Result<Vec<TypeCode>> {
    let mut chain = vec![tc.clone()];
    while let Some(Some(base)) = chain.last().and_then(|t| t.concrete_base_type()) {
        if chain.len() > crate::DEFAULT_MAX_DEPTH as usize {
            return Err(CdrError::NestingTooDeep(crate::DEFAULT_MAX_DEPTH));
        }
        chain.push(base.unalias().clone());
    }
    let mut out = Vec::new();
    for t in chain.iter().rev() {
        if t.type_modifier() == Some(VM_CUSTOM) {
            return Err(CdrError::Unsupported("custom-marshalled valuetype"));
        }
        for i in 0..t.member_count().unwrap_or(0) {
            if let Some(m) = t.member_type(i) {
                out.push(m);
            }
        }
    }
    Ok(out)
}

fn skip_string(dec: &mut Decoder) -> Result<()> {
    let n = dec.read_len(1)?;
    let raw = dec.read_slice(n)?;
    match raw.split_last() {
        Some((0, body)) if !body.contains(&0) => Ok(()),
        Some(_) => Err(CdrError::MalformedString("not terminated by a single NUL")),
        None => Err(CdrError::MalformedString(
            "zero length (no terminating NUL)",
        )),
    }
}

fn check_bound(len: usize, bound: u32) -> Result<()> {
    if bound != 0 && len as u64 > bound as u64 {
        return Err(CdrError::BoundExceeded {
            length: len as u64,
            bound: bound as u64,
        });
    }
    Ok(())
}

fn nested<T>(dec: &mut Decoder, f: impl FnOnce(&mut Decoder) -> Result<T>) -> Result<T> {
    dec.enter()?;
    let r = f(dec);
    dec.leave();
    r
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
            Body::Basic(k) => match k {
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
            },
            Body::String { wide, bound } => {
                let s = match (wide, bound) {
                    (false, 0) => dec.read_string()?,
                    (false, b) => dec.read_bounded_string(*b)?,
                    (true, 0) => dec.read_wstring()?,
                    (true, b) => dec.read_bounded_wstring(*b)?,
                };
                if *wide {
                    Value::WString(s)
                } else {
                    Value::String(s)
                }
            }
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
                let n = dec.read_len(min_wire_size(content))?;
                check_bound(n, *bound)?;
                decode_elements(content, n, dec, Value::Sequence)
            })?,
            Body::Array { content, length } => nested(dec, |dec| {
                let n = dec.check_len(*length as u64, min_wire_size(content))?;
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
            } => nested(dec, |dec| {
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
            })?,
            Body::Interface { kind, .. } => match kind {
                TCKind::AbstractInterface => {
                    if dec.read_bool()? {
                        Value::ObjRef(Ior::decode(dec)?)
                    } else {
                        valuetype::read_dynamic(dec, |_, _| {
                            Err(CdrError::Unsupported(
                                "a value of unknown type in an abstract interface",
                            ))
                        })?
                    }
                }
                TCKind::Native | TCKind::LocalInterface => {
                    return Err(CdrError::Unsupported(
                        "native and local interface values cannot be marshalled",
                    ));
                }
                _ => Value::ObjRef(Ior::decode(dec)?),
            },
            Body::Named { content, .. } => valuetype::read_dynamic(dec, |dec, _| {
                // A value box (aliases were stripped above).
                Value::decode(&tc.resolve_child(content), dec)
            })?,
            Body::Value { modifier, .. } => valuetype::read_dynamic(dec, |dec, _| {
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

    /// Writes this value as a value of type `tc`, checking that it is one
    /// ([`CdrError::TypeMismatch`] otherwise).
    pub fn encode(&self, tc: &TypeCode, enc: &mut Encoder) -> Result<()> {
        let tc = tc.unalias();
        let mismatch = || CdrError::TypeMismatch("value does not match the TypeCode");
        match (tc.body(), self) {
            (Body::Basic(k), v) => match (k, v) {
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
            },
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
            ) => {
                let key = label_key(discriminator, d)?;
                let selected = select_member(tc, key);
                if selected != *member {
                    return Err(CdrError::InvalidDiscriminator(key as i64));
                }
                d.encode(discriminator, enc)?;
                match (selected.and_then(|i| members.get(i)), value) {
                    (Some(m), Some(v)) => v.encode(&tc.resolve_child(&m.type_code), enc)?,
                    (None, None) => {}
                    _ => return Err(CdrError::InvalidDiscriminator(key as i64)),
                }
            }
            (Body::Interface { kind, .. }, v) => match (kind, v) {
                (TCKind::Native | TCKind::LocalInterface, _) => {
                    return Err(CdrError::Unsupported(
                        "native and local interface values cannot be marshalled",
                    ));
                }
                (TCKind::AbstractInterface, Value::ObjRef(ior)) => {
                    enc.write_bool(true);
                    ior.encode(enc)?
                }
                (TCKind::AbstractInterface, Value::Null) => {
                    enc.write_bool(false);
                    valuetype::write_null(enc)?
                }
                (TCKind::AbstractInterface, _) => return Err(mismatch()),
                (_, Value::ObjRef(ior)) => ior.encode(enc)?,
                _ => return Err(mismatch()),
            },
            (Body::Named { id, content, .. }, v) => match v {
                Value::Null => valuetype::write_null(enc)?,
                v => valuetype::write_dynamic(enc, &[id.as_str()], |enc| {
                    v.encode(&tc.resolve_child(content), enc)
                })?,
            },
            (Body::Value { .. }, Value::Null) => valuetype::write_null(enc)?,
            (Body::Value { id, modifier, .. }, Value::ValueType(vals)) => {
                if *modifier == VM_ABSTRACT {
                    return Err(CdrError::Unsupported("value of an abstract valuetype"));
                }
                let state = value_state(tc)?;
                if state.len() != vals.len() {
                    return Err(CdrError::TypeMismatch(
                        "valuetype value has the wrong member count",
                    ));
                }
                let ids = value_ids(tc, id)?;
                let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
                valuetype::write_dynamic(enc, &ids, |enc| {
                    for (t, v) in state.iter().zip(vals) {
                        v.encode(t, enc)?;
                    }
                    Ok(())
                })?;
            }
            (Body::Recursive { .. }, _) => {
                return Err(CdrError::BadTypeCode("unresolved recursive TypeCode"));
            }
            _ => return Err(mismatch()),
        }
        Ok(())
    }
}

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
    if let Some(p) = PrimSeq::read(kind, n, dec)? {
        return Ok(Value::Primitives(p));
    }
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(Value::decode(content, dec)?);
    }
    Ok(generic(out))
}

fn elements_len(v: &Value, array: bool) -> Option<usize> {
    match v {
        Value::Sequence(x) if !array => Some(x.len()),
        Value::Array(x) if array => Some(x.len()),
        Value::Octets(b) => Some(b.len()),
        Value::Primitives(p) => Some(p.len()),
        _ => None,
    }
}

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
            p.write(enc);
            Ok(())
        }
        _ => Err(CdrError::TypeMismatch("sequence element type")),
    }
}

/// Steps over a value of type `tc` without building it, checking it as
/// [`Value::decode`] would (except the contents of strings, which are
/// checked only for their terminating NUL).
pub(crate) fn skip(tc: &TypeCode, dec: &mut Decoder) -> Result<()> {
    let tc = tc.unalias();
    match tc.body() {
        Body::Basic(k) => match k {
            TCKind::Null | TCKind::Void => {}
            TCKind::Short | TCKind::UShort => {
                dec.read_u16()?;
            }
            TCKind::Long | TCKind::ULong | TCKind::Float => {
                dec.read_u32()?;
            }
            TCKind::LongLong | TCKind::ULongLong | TCKind::Double => {
                dec.read_u64()?;
            }
            TCKind::LongDouble => {
                dec.read_long_double()?;
            }
            TCKind::Boolean => {
                dec.read_bool()?;
            }
            TCKind::Char | TCKind::Octet => {
                dec.read_u8()?;
            }
            TCKind::WChar => {
                dec.read_wchar()?;
            }
            TCKind::Any => nested(dec, |dec| {
                let inner = TypeCode::decode(dec)?;
                skip(&inner, dec)
            })?,
            TCKind::TypeCode => {
                TypeCode::decode(dec)?;
            }
            TCKind::Principal => {
                dec.read_octet_seq()?;
            }
            _ => return Err(CdrError::BadTypeCode("not a basic kind")),
        },
        Body::String { wide: false, bound } => {
            let at = dec.offset();
            let n = dec.read_u32()?;
            if *bound != 0 && n as u64 > *bound as u64 + 1 {
                // Multibyte code sets can only make the octet count larger
                // than the character count; check exactly by decoding.
                dec.seek(at)?;
                dec.read_bounded_string(*bound)?;
            } else {
                dec.seek(at)?;
                skip_string(dec)?;
            }
        }
        Body::String { wide: true, bound } => {
            if *bound == 0 {
                dec.read_wstring()?;
            } else {
                dec.read_bounded_wstring(*bound)?;
            }
        }
        Body::Fixed { digits, scale } => {
            dec.read_fixed(*digits, *scale)?;
        }
        Body::Enum { members, .. } => {
            let v = dec.read_u32()?;
            if v as usize >= members.len() {
                return Err(CdrError::InvalidEnum {
                    value: v,
                    count: members.len() as u32,
                });
            }
        }
        Body::Sequence { content, bound } => nested(dec, |dec| {
            let n = dec.read_len(min_wire_size(content))?;
            check_bound(n, *bound)?;
            skip_elements(content, n, dec)
        })?,
        Body::Array { content, length } => nested(dec, |dec| {
            let n = dec.check_len(*length as u64, min_wire_size(content))?;
            skip_elements(content, n, dec)
        })?,
        Body::Struct { members, .. } => nested(dec, |dec| {
            members
                .iter()
                .try_for_each(|(_, t)| skip(&tc.resolve_child(t), dec))
        })?,
        Body::Union {
            discriminator,
            members,
            ..
        } => nested(dec, |dec| {
            let d = Value::decode(discriminator, dec)?;
            let key = label_key(discriminator, &d)?;
            match select_member(tc, key).and_then(|i| members.get(i)) {
                Some(m) => skip(&tc.resolve_child(&m.type_code), dec),
                None => Ok(()),
            }
        })?,
        Body::Interface { kind, .. } => match kind {
            TCKind::Native | TCKind::LocalInterface => {
                return Err(CdrError::Unsupported(
                    "native and local interface values cannot be marshalled",
                ));
            }
            TCKind::AbstractInterface => {
                if dec.read_bool()? {
                    skip_ior(dec)?;
                } else {
                    valuetype::skip_dynamic(dec, |_, h| {
                        if h.chunked {
                            // The chunks are skipped by the end of the value.
                            Ok(())
                        } else {
                            Err(CdrError::Unsupported(
                                "a value of unknown type in an abstract interface",
                            ))
                        }
                    })?
                }
            }
            _ => skip_ior(dec)?,
        },
        Body::Named { content, .. } => {
            valuetype::skip_dynamic(dec, |dec, _| skip(&tc.resolve_child(content), dec))?
        }
        Body::Value { modifier, .. } => valuetype::skip_dynamic(dec, |dec, _| {
            if *modifier == VM_ABSTRACT {
                return Err(CdrError::Unsupported("value of an abstract valuetype"));
            }
            for t in &value_state(tc)? {
                skip(t, dec)?;
            }
            Ok(())
        })?,
        Body::Recursive { .. } => {
            return Err(CdrError::BadTypeCode("unresolved recursive TypeCode"));
        }
    }
    Ok(())
}

fn skip_ior(dec: &mut Decoder) -> Result<()> {
    skip_string(dec)?;
    let n = dec.read_len(8)?;
    for _ in 0..n {
        dec.read_u32()?;
        dec.read_octet_seq()?;
    }
    Ok(())
}

fn skip_elements(content: &TypeCode, n: usize, dec: &mut Decoder) -> Result<()> {
    let size = match content.unalias().kind() {
        TCKind::Octet | TCKind::Char => 1,
        TCKind::Short | TCKind::UShort => 2,
        TCKind::Long | TCKind::ULong | TCKind::Float => 4,
        TCKind::LongLong | TCKind::ULongLong | TCKind::Double => 8,
        _ => 0,
    };
    if size > 0 && n > 0 {
        dec.align(size)?;
        let n = dec.check_len(n as u64, size)?;
        let end = dec.offset() + n * size;
        if !dec.realigns_within(dec.offset(), end) {
            return dec.skip(n * size);
        }
        // The alignment changes inside: element by element.
        for _ in 0..n {
            dec.align(size)?;
            dec.skip(size)?;
        }
        return Ok(());
    }
    for _ in 0..n {
        skip(content, dec)?;
    }
    Ok(())
}
