//! What generated types call besides the CDR traits: the bound checks of
//! bounded strings and sequences, the TypeCodes of types that refer to
//! themselves, and the refusal to marshal local interfaces and natives.

use std::cell::RefCell;

use rtorb_cdr::{CdrError, Decoder, Encoder, TCKind, TypeCode};

/// `BoundExceeded` unless `length` is at most `bound`: what generated
/// code checks before writing, and after reading, a bounded string or
/// sequence.
pub fn check_bound(length: usize, bound: u32) -> Result<(), CdrError> {
    let length = u64::try_from(length).unwrap_or(u64::MAX);
    if length > u64::from(bound) {
        return Err(CdrError::BoundExceeded {
            length,
            bound: u64::from(bound),
        });
    }
    Ok(())
}

/// Fails: a value of the local interface or native type `what` was to be
/// written to `_e`.
pub fn not_marshalable(_e: &mut Encoder, what: &'static str) -> Result<(), CdrError> {
    Err(CdrError::Unsupported(what))
}

/// Fails: a value of the local interface or native type `what` was to be
/// read from `_d`.
pub fn not_unmarshalable<T>(_d: &mut Decoder, what: &'static str) -> Result<T, CdrError> {
    Err(CdrError::Unsupported(what))
}

thread_local! {
    static BUILDING: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
}

/// Pops the id pushed by [`guarded_type_code`], also on unwinding.
struct Building;

impl Drop for Building {
    fn drop(&mut self) {
        BUILDING.with(|b| b.borrow_mut().pop());
    }
}

/// The TypeCode that `build` makes for the type of kind `kind` and
/// repository id `id`; while it runs, a TypeCode of the same id asked for
/// on this thread is a recursive placeholder ([`TypeCode::recursive`]),
/// bound by the TypeCode being built. This is how the TypeCodes of
/// valuetypes that refer to each other (`A` holds a `B` that holds an
/// `A`) end instead of recursing forever.
pub fn guarded_type_code(
    kind: TCKind,
    id: &'static str,
    build: impl FnOnce() -> TypeCode,
) -> TypeCode {
    if BUILDING.with(|b| b.borrow().contains(&id)) {
        return TypeCode::recursive(kind, id).unwrap_or_else(|_| TypeCode::null());
    }
    BUILDING.with(|b| b.borrow_mut().push(id));
    let _building = Building;
    build()
}
