//! Reading TypeCodes from CDR, with indirections to enclosing TypeCodes
//! (recursion) and to earlier ones (sharing), bounded in what they expand
//! to.

use std::collections::HashMap;

use super::kind::TCKind;
use crate::decoder::Decoder;
use crate::dynamic::{Body, TypeCode, UnionMember, Value, ValueMember};
use crate::error::{CdrError, Result};
use crate::traits::CdrDecode;
use crate::value::labels::is_discriminator_type;

/// How many times larger than its encoding a TypeCode that uses repeated
/// indirections may become once every shared part is counted.
const MAX_EXPANSION: u64 = 16;

#[derive(Default)]
struct DecodeState {
    /// TypeCodes being decoded, outermost first: (stream offset, kind, id).
    open: Vec<(usize, TCKind, String)>,
    /// Complete TypeCodes by the stream offset of their kind.
    done: HashMap<usize, TypeCode>,
    shared: bool,
}

/// Reads a TypeCode. Indirections may point at an enclosing TypeCode
/// (recursion) or at any complete TypeCode read earlier within the same
/// outermost TypeCode; anything else is [`CdrError::BadIndirection`].
impl CdrDecode for TypeCode {
    const MIN_WIRE_SIZE: usize = 4;

    fn decode(dec: &mut Decoder) -> Result<TypeCode> {
        let start = dec.stream_offset();
        let mut state = DecodeState::default();
        let tc = decode_tc(dec, &mut state)?;
        if state.shared {
            let used = (dec.stream_offset() - start) as u64;
            if tc.size() > used.saturating_mul(MAX_EXPANSION).saturating_add(4096) {
                return Err(CdrError::BadTypeCode(
                    "repeated indirections expand the TypeCode too much",
                ));
            }
        }
        Ok(tc)
    }
}

fn decode_tc(dec: &mut Decoder, st: &mut DecodeState) -> Result<TypeCode> {
    dec.enter()?;
    let r = decode_tc_inner(dec, st);
    dec.leave();
    r
}

fn indirection(dec: &mut Decoder, st: &mut DecodeState) -> Result<TypeCode> {
    let off_at = dec.stream_offset();
    let offset = dec.read_i32()?;
    let bad = CdrError::BadIndirection(offset as i64);
    if offset >= -4 {
        return Err(bad);
    }
    let target = usize::try_from(off_at as i64 + offset as i64).map_err(|_| bad.clone())?;
    if let Some(pos) = st.open.iter().rposition(|o| o.0 == target) {
        let (_, kind, id) = &st.open[pos];
        if !kind.can_recurse() {
            return Err(bad);
        }
        // The placeholder binds to the innermost enclosing type with its id,
        // which must be the one the indirection names.
        if st.open[pos + 1..]
            .iter()
            .any(|o| o.2 == *id && o.1.can_recurse())
        {
            return Err(CdrError::BadTypeCode("ambiguous recursive TypeCode"));
        }
        return TypeCode::recursive(*kind, id.clone());
    }
    if let Some(tc) = st.done.get(&target) {
        let bound = tc
            .free()
            .iter()
            .all(|f| st.open.iter().any(|o| &o.2 == f && o.1.can_recurse()));
        if !bound {
            return Err(bad);
        }
        st.shared = true;
        return Ok(tc.clone());
    }
    Err(bad)
}

fn read_member_count(d: &mut Decoder, min_size: usize) -> Result<usize> {
    d.read_len(min_size)
}

fn decode_tc_inner(dec: &mut Decoder, st: &mut DecodeState) -> Result<TypeCode> {
    dec.align(4)?;
    let at = dec.stream_offset();
    let raw = dec.read_u32()?;
    if raw == TCKind::INDIRECTION {
        return indirection(dec, st);
    }
    let kind = TCKind::from_u32(raw).ok_or(CdrError::BadTypeCode("unknown TCKind"))?;
    let tc = match kind {
        k if k.is_basic() => TypeCode::basic_of(k),
        TCKind::String => TypeCode::string(dec.read_u32()?),
        TCKind::WString => TypeCode::wstring(dec.read_u32()?),
        TCKind::Fixed => {
            let digits = dec.read_u16()?;
            let scale = dec.read_i16()?;
            TypeCode::fixed(digits, scale)?
        }
        _ => {
            let mut d = dec.read_encapsulation()?;
            decode_complex(kind, at, &mut d, st)?
        }
    };
    st.done.insert(at, tc.clone());
    Ok(tc)
}

fn with_open<T>(
    st: &mut DecodeState,
    at: usize,
    kind: TCKind,
    id: &str,
    f: impl FnOnce(&mut DecodeState) -> Result<T>,
) -> Result<T> {
    st.open.push((at, kind, id.to_owned()));
    let r = f(st);
    st.open.pop();
    r
}

fn decode_complex(
    kind: TCKind,
    at: usize,
    d: &mut Decoder,
    st: &mut DecodeState,
) -> Result<TypeCode> {
    match kind {
        TCKind::Sequence | TCKind::Array => {
            let content = decode_tc(d, st)?;
            let n = d.read_u32()?;
            Ok(if kind == TCKind::Sequence {
                TypeCode::sequence(content, n)
            } else {
                TypeCode::array(content, n)
            })
        }
        TCKind::ObjRef
        | TCKind::Native
        | TCKind::AbstractInterface
        | TCKind::LocalInterface
        | TCKind::Component
        | TCKind::Home => {
            let id = d.read_string()?;
            let name = d.read_string()?;
            Ok(TypeCode::interface(kind, id, name))
        }
        TCKind::Alias | TCKind::ValueBox => {
            let id = d.read_string()?;
            let name = d.read_string()?;
            let content = with_open(st, at, kind, &id, |st| decode_tc(d, st))?;
            Ok(TypeCode::build(Body::Named {
                kind,
                id,
                name,
                content,
            }))
        }
        TCKind::Struct | TCKind::Except => {
            let id = d.read_string()?;
            let name = d.read_string()?;
            let n = read_member_count(d, 9)?;
            let members = with_open(st, at, kind, &id, |st| {
                let mut members = Vec::with_capacity(n);
                for _ in 0..n {
                    let mname = d.read_string()?;
                    members.push((mname, decode_tc(d, st)?));
                }
                Ok(members)
            })?;
            Ok(TypeCode::build(Body::Struct {
                kind,
                id,
                name,
                members,
            }))
        }
        TCKind::Enum => {
            let id = d.read_string()?;
            let name = d.read_string()?;
            let n = read_member_count(d, 5)?;
            let mut members = Vec::with_capacity(n);
            for _ in 0..n {
                members.push(d.read_string()?);
            }
            Ok(TypeCode::enum_tc(id, name, members))
        }
        TCKind::Union => decode_union(at, d, st),
        TCKind::Value | TCKind::Event => decode_value(kind, at, d, st),
        _ => Err(CdrError::BadTypeCode("unknown TCKind")),
    }
}

/// The parameters of a union TypeCode whose kind is at `at`.
fn decode_union(at: usize, d: &mut Decoder, st: &mut DecodeState) -> Result<TypeCode> {
    let id = d.read_string()?;
    let name = d.read_string()?;
    let (disc, members) = with_open(st, at, TCKind::Union, &id, |st| {
        let disc = decode_tc(d, st)?;
        if !is_discriminator_type(&disc) {
            return Err(CdrError::BadTypeCode("invalid union discriminator type"));
        }
        let default_index = d.read_i32()?;
        let n = read_member_count(d, 10)?;
        if default_index < -1 || (default_index >= 0 && default_index as usize >= n) {
            return Err(CdrError::BadTypeCode("union default index out of range"));
        }
        let mut members = Vec::with_capacity(n);
        for i in 0..n {
            let label = if i as i64 == default_index as i64 {
                d.read_u8()?;
                None
            } else {
                Some(Value::decode(&disc, d)?)
            };
            let mname = d.read_string()?;
            let t = decode_tc(d, st)?;
            members.push(UnionMember {
                label,
                name: mname,
                type_code: t,
            });
        }
        Ok((disc, members))
    })?;
    TypeCode::union_tc(id, name, disc, members)
}

/// The parameters of a valuetype or eventtype TypeCode whose kind is at
/// `at`.
fn decode_value(
    kind: TCKind,
    at: usize,
    d: &mut Decoder,
    st: &mut DecodeState,
) -> Result<TypeCode> {
    let id = d.read_string()?;
    let name = d.read_string()?;
    let modifier = d.read_i16()?;
    let (base, members) = with_open(st, at, kind, &id, |st| {
        let base = decode_tc(d, st)?;
        let base = match base.kind() {
            TCKind::Null => None,
            TCKind::Value | TCKind::Event => Some(base),
            _ => return Err(CdrError::BadTypeCode("concrete base is not a valuetype")),
        };
        let n = read_member_count(d, 11)?;
        let mut members = Vec::with_capacity(n);
        for _ in 0..n {
            let mname = d.read_string()?;
            let t = decode_tc(d, st)?;
            let visibility = d.read_i16()?;
            members.push(ValueMember {
                name: mname,
                type_code: t,
                visibility,
            });
        }
        Ok((base, members))
    })?;
    Ok(TypeCode::value_like(
        kind, id, name, modifier, base, members,
    ))
}
