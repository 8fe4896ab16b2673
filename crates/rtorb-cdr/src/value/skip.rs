//! Stepping over a value of a TypeCode's type without building it, as an
//! Any read from a message does.

use super::labels::{label_key, select_member};
use super::layout::{check_bound, check_count, nested, value_state};
use crate::decoder::Decoder;
use crate::dynamic::{Body, TypeCode, Value};
use crate::error::{CdrError, Result};
use crate::traits::CdrDecode;
use crate::typecode::kind::{TCKind, VM_ABSTRACT};
use crate::valuetype::read::skip_dynamic;

/// Steps over a value of type `tc` without building it, checking it as
/// [`Value::decode`] would (except the contents of strings, which are
/// checked only for their terminating NUL).
pub(crate) fn skip(tc: &TypeCode, dec: &mut Decoder) -> Result<()> {
    let tc = tc.unalias();
    match tc.body() {
        Body::Basic(k) => skip_basic(*k, dec)?,
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
            let n = dec.read_u32()?;
            let n = check_count(dec, n.into(), content)?;
            check_bound(n, *bound)?;
            skip_elements(content, n, dec)
        })?,
        Body::Array { content, length } => nested(dec, |dec| {
            let n = check_count(dec, (*length).into(), content)?;
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
        Body::Interface { kind, .. } => skip_interface(*kind, dec)?,
        Body::Named { content, .. } => {
            skip_dynamic(dec, |dec, _| skip(&tc.resolve_child(content), dec))?
        }
        Body::Value { modifier, .. } => skip_dynamic(dec, |dec, _| {
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

/// Steps over a value of a kind without parameters.
fn skip_basic(k: TCKind, dec: &mut Decoder) -> Result<()> {
    match k {
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
    }
    Ok(())
}

/// Steps over an object reference, or what an abstract interface holds.
fn skip_interface(kind: TCKind, dec: &mut Decoder) -> Result<()> {
    match kind {
        TCKind::Native | TCKind::LocalInterface => {
            return Err(CdrError::Unsupported(
                "native and local interface values cannot be marshalled",
            ));
        }
        TCKind::AbstractInterface => {
            if dec.read_bool()? {
                skip_ior(dec)?;
            } else {
                skip_dynamic(dec, |_, h| {
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
    }
    Ok(())
}

/// Steps over an IOR: its type id and profiles.
fn skip_ior(dec: &mut Decoder) -> Result<()> {
    skip_string(dec)?;
    let n = dec.read_len(8)?;
    for _ in 0..n {
        dec.read_u32()?;
        dec.read_octet_seq()?;
    }
    Ok(())
}

/// Steps over `n` elements of type `content`, primitives at once.
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

/// Steps over a string, checking only its terminating NUL.
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
