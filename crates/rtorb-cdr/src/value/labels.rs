//! Union discriminators and labels: which types may discriminate, a
//! label's value as an integer, and the member a discriminator selects.

use crate::dynamic::{Body, TypeCode, Value};
use crate::error::{CdrError, Result};
use crate::typecode::kind::TCKind;

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
pub(crate) fn select_member(tc: &TypeCode, key: i128) -> Option<usize> {
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
