//! What a TypeCode says of the layout of its values: the fewest octets
//! one occupies, bounds, nesting, and the ids and state of valuetypes.

use crate::decoder::{DEFAULT_MAX_DEPTH, Decoder};
use crate::dynamic::{Body, TypeCode};
use crate::error::{CdrError, Result};
use crate::typecode::kind::{TCKind, VM_CUSTOM, VM_TRUNCATABLE};
use crate::types::Fixed;

/// The fewest octets a value of `tc` can occupy (a lower bound), for
/// checking element counts before allocating: 0 for `null` and `void`,
/// and for structs and arrays of nothing else.
pub(super) fn min_wire_size(tc: &TypeCode) -> usize {
    match tc.unalias().body() {
        Body::Basic(k) => match k {
            TCKind::Null | TCKind::Void => 0,
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
        Body::Struct { members, .. } => members
            .iter()
            .fold(0, |n, (_, t)| n.saturating_add(min_wire_size(t))),
        Body::Array { content, length } => {
            (*length as usize).saturating_mul(min_wire_size(content))
        }
        _ => 1,
    }
}

/// Checks a count of `n` elements of type `content` against what remains
/// of `dec`, before anything is allocated for them. Elements that occupy
/// no octets (of `null` or `void`, or structs and arrays of nothing else),
/// which no IDL type has, cannot be checked so: a count of them would
/// stand or fall by what happens to follow in the stream, so any count but
/// zero is refused.
pub(super) fn check_count(dec: &Decoder, n: u64, content: &TypeCode) -> Result<usize> {
    match min_wire_size(content) {
        0 if n > 0 => Err(CdrError::Unsupported(
            "a sequence or array of elements that occupy no octets",
        )),
        min => dec.check_len(n, min),
    }
}

/// The repository ids a value of `tc` is written with: its own, then
/// those of the bases it is truncatable to.
pub(super) fn value_ids(tc: &TypeCode, id: &str) -> Result<Vec<String>> {
    let mut out = vec![id.to_string()];
    let mut t = tc.clone();
    while t.type_modifier() == Some(VM_TRUNCATABLE) {
        let Some(Some(base)) = t.concrete_base_type() else {
            break;
        };
        if out.len() > DEFAULT_MAX_DEPTH as usize {
            return Err(CdrError::NestingTooDeep(DEFAULT_MAX_DEPTH));
        }
        let base = base.unalias().clone();
        out.push(base.id().unwrap_or_default().to_string());
        t = base;
    }
    Ok(out)
}

/// The TypeCodes of a valuetype's state members, bases first.
pub(super) fn value_state(tc: &TypeCode) -> Result<Vec<TypeCode>> {
    let mut chain = vec![tc.clone()];
    while let Some(Some(base)) = chain.last().and_then(|t| t.concrete_base_type()) {
        if chain.len() > DEFAULT_MAX_DEPTH as usize {
            return Err(CdrError::NestingTooDeep(DEFAULT_MAX_DEPTH));
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

/// Whether `len` elements fit a `bound` (0 for unbounded).
pub(super) fn check_bound(len: usize, bound: u32) -> Result<()> {
    if bound != 0 && len as u64 > bound as u64 {
        return Err(CdrError::BoundExceeded {
            length: len as u64,
            bound: bound as u64,
        });
    }
    Ok(())
}

/// Runs `f` one level of nesting deeper (bounded by the decoder's depth
/// limit).
pub(super) fn nested<T>(dec: &mut Decoder, f: impl FnOnce(&mut Decoder) -> Result<T>) -> Result<T> {
    dec.enter()?;
    let r = f(dec);
    dec.leave();
    r
}
