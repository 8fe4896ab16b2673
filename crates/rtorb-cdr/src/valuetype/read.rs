//! Reading values: tags, indirections, chunks and end tags, typed values
//! through their readers and dynamic values through a TypeCode.

use std::any::{Any, TypeId};
use std::sync::Arc;

use super::base::ValueBase;
use super::factory::{StateReader, lookup_value_factory};
use super::read_state::{ReadState, Slot};
use super::{
    INDIRECTION_TAG, NULL_TAG, VALUE_TAG_BASE, VALUE_TAG_CHUNKED, VALUE_TAG_CODEBASE,
    VALUE_TAG_ID_LIST, VALUE_TAG_SINGLE_ID,
};
use crate::decoder::Decoder;
use crate::dynamic::Value;
use crate::error::{CdrError, Result};

fn read_state_of(d: &mut Decoder) -> &mut ReadState {
    d.values.get_or_insert_with(Default::default)
}

/// The header of a value being read.
#[derive(Debug, Clone)]
pub struct ValueHeader {
    /// Where its tag is (what indirections point at).
    pub position: usize,
    /// Its repository ids, most derived first (empty if the sender left
    /// the type to the receiver).
    pub ids: Arc<[Arc<str>]>,
    /// Its codebase URL, if sent.
    pub codebase: Option<Arc<str>>,
    /// Whether its state is chunked.
    pub chunked: bool,
}

/// What is at a value position.
#[derive(Debug, Clone)]
pub(crate) enum ValueStart {
    /// The null value.
    Null,
    /// An indirection to a value read before.
    Shared(Slot),
    /// A new value: read its state, then call [`end_value`].
    New(ValueHeader),
}

const CHUNK_MAX: u32 = VALUE_TAG_BASE;

fn peek_u32(d: &mut Decoder) -> Result<(usize, u32)> {
    d.align(4)?;
    let at = d.offset();
    let x = d.read_u32()?;
    d.seek(at)?;
    Ok((at, x))
}

fn start_chunk(d: &mut Decoder, size: u32) -> Result<()> {
    let size = size as usize;
    if size > d.remaining() {
        return Err(CdrError::LengthTooLarge {
            length: size as u64,
            remaining: d.remaining(),
        });
    }
    let end = d.offset() + size;
    read_state_of(d).chunk_end = Some(end);
    Ok(())
}

/// Between chunks of an open chunked value, consumes a chunk size if one
/// follows (not a nested value or an end tag).
fn resume_chunk(d: &mut Decoder) -> Result<()> {
    let st = read_state_of(d);
    let level = st.stack.len();
    if st.stack.last() != Some(&true)
        || st.chunk_end.is_some()
        || st.closed_to.is_some_and(|c| c <= level)
    {
        return Ok(());
    }
    if d.remaining() < 4 {
        return Ok(());
    }
    let (_, x) = peek_u32(d)?;
    if x > 0 && x < CHUNK_MAX {
        d.read_u32()?;
        start_chunk(d, x)?;
    }
    Ok(())
}

fn read_string_or_indirection(d: &mut Decoder) -> Result<Arc<str>> {
    d.align(4)?;
    let at = d.offset();
    if d.read_u32()? == INDIRECTION_TAG {
        let target = indirection_target(d, at)?;
        return read_state_of(d)
            .strings
            .get(&target)
            .cloned()
            .ok_or(CdrError::BadValue(
                "repository id indirection does not point at an earlier string",
            ));
    }
    d.seek(at)?;
    let s: Arc<str> = Arc::from(d.read_string()?);
    read_state_of(d).strings.insert(at, s.clone());
    Ok(s)
}

/// Reads the offset of an indirection whose marker is at `marker` and
/// returns the position it points at, which must be before the marker.
fn indirection_target(d: &mut Decoder, marker: usize) -> Result<usize> {
    let at = d.offset();
    let off = i64::from(d.read_i32()?);
    let target = at as i64 + off;
    if off >= 0 || target < 0 || target >= marker as i64 {
        return Err(CdrError::BadValue(
            "indirection offset does not point backwards",
        ));
    }
    Ok(target as usize)
}

fn read_id_list(d: &mut Decoder) -> Result<Arc<[Arc<str>]>> {
    d.align(4)?;
    let at = d.offset();
    if d.read_u32()? == INDIRECTION_TAG {
        let target = indirection_target(d, at)?;
        return read_state_of(d)
            .lists
            .get(&target)
            .cloned()
            .ok_or(CdrError::BadValue(
                "repository id list indirection does not point at an earlier list",
            ));
    }
    d.seek(at)?;
    let n = d.read_len(4)?;
    let mut ids = Vec::with_capacity(n);
    for _ in 0..n {
        ids.push(read_string_or_indirection(d)?);
    }
    let ids: Arc<[Arc<str>]> = ids.into();
    read_state_of(d).lists.insert(at, ids.clone());
    Ok(ids)
}

/// Reads what is at a value position: null, an indirection, or the header
/// of a new value (whose state the caller reads before [`end_value`]).
pub(crate) fn begin_value(d: &mut Decoder) -> Result<ValueStart> {
    // Where the enclosing value's chunks stand.
    resume_chunk(d)?;
    let st = read_state_of(d);
    let outer_chunked = st.stack.last() == Some(&true);
    let mut inside_chunk = false;
    if let Some(end) = st.chunk_end {
        let pos = d.offset();
        if pos > end {
            return Err(CdrError::BadValue("a chunk ends inside a member"));
        }
        if pos == end {
            read_state_of(d).chunk_end = None;
        } else {
            inside_chunk = true;
        }
    }
    d.align(4)?;
    let tag_at = d.offset();
    let tag = d.read_u32()?;
    if tag == NULL_TAG {
        if !inside_chunk {
            resume_chunk(d)?;
        }
        return Ok(ValueStart::Null);
    }
    if tag == INDIRECTION_TAG {
        let target = indirection_target(d, tag_at)?;
        let slot = read_state_of(d).slots.get(&target).cloned();
        if !inside_chunk {
            resume_chunk(d)?;
        }
        return match slot {
            Some(Slot::Reading) => Err(CdrError::BadValue(
                "indirection to a value still being decoded (a cycle)",
            )),
            Some(s) => Ok(ValueStart::Shared(s)),
            None => Err(CdrError::BadValue(
                "indirection does not point at an earlier value",
            )),
        };
    }
    if tag < VALUE_TAG_BASE {
        return Err(CdrError::BadValue("invalid value tag"));
    }
    if inside_chunk {
        return Err(CdrError::BadValue("a value tag inside a chunk"));
    }
    let flags = tag & 0xff;
    if flags & 0xf0 != 0 {
        return Err(CdrError::BadValue("reserved value tag bits set"));
    }
    let codebase = if flags & VALUE_TAG_CODEBASE != 0 {
        Some(read_string_or_indirection(d)?)
    } else {
        None
    };
    let ids: Arc<[Arc<str>]> = match flags & 0x06 {
        0 => Arc::from(Vec::new()),
        VALUE_TAG_SINGLE_ID => Arc::from(vec![read_string_or_indirection(d)?]),
        VALUE_TAG_ID_LIST => read_id_list(d)?,
        _ => return Err(CdrError::BadValue("invalid repository id flags")),
    };
    let chunked = flags & VALUE_TAG_CHUNKED != 0;
    if outer_chunked && !chunked {
        return Err(CdrError::BadValue(
            "a value nested in a chunked value is not chunked",
        ));
    }
    d.enter()?;
    let st = read_state_of(d);
    st.stack.push(chunked);
    st.slots.insert(tag_at, Slot::Reading);
    if chunked {
        let (_, x) = if d.remaining() >= 4 {
            peek_u32(d)?
        } else {
            (0, 0)
        };
        if x > 0 && x < CHUNK_MAX {
            d.read_u32()?;
            start_chunk(d, x)?;
        }
    }
    Ok(ValueStart::New(ValueHeader {
        position: tag_at,
        ids,
        codebase,
        chunked,
    }))
}

/// Finishes the value `header` begun by [`begin_value`] once the state the
/// receiver knows is read: skips what remains of a truncated chunked state,
/// reads its end tag, and records `value` for later indirections.
pub(crate) fn end_value(d: &mut Decoder, header: &ValueHeader, value: Slot) -> Result<()> {
    let level = read_state_of(d).stack.len();
    if header.chunked && read_state_of(d).closed_to.is_none_or(|c| c > level) {
        loop {
            if let Some(end) = read_state_of(d).chunk_end.take() {
                if d.offset() > end {
                    return Err(CdrError::BadValue("a chunk ends inside a member"));
                }
                d.seek(end)?;
            }
            d.align(4)?;
            let at = d.offset();
            let x = d.read_i32()?;
            if x < 0 {
                let n = x.unsigned_abs() as usize;
                if n > level {
                    return Err(CdrError::BadValue("end tag of a value that is not open"));
                }
                if n < level {
                    read_state_of(d).closed_to = Some(n);
                }
                break;
            }
            if x > 0 && (x as u32) < CHUNK_MAX {
                // Truncated state: skip the chunk.
                start_chunk(d, x as u32)?;
                continue;
            }
            // A nested value in the truncated state.
            d.seek(at)?;
            skip_value(d)?;
        }
    }
    let st = read_state_of(d);
    st.stack.pop();
    st.slots.insert(header.position, value);
    if st.closed_to.is_some_and(|c| c > st.stack.len()) {
        st.closed_to = None;
    }
    st.chunk_end = None;
    d.leave();
    resume_chunk(d)
}

/// Skips a value of unknown type (it must be chunked, or null, or an
/// indirection).
fn skip_value(d: &mut Decoder) -> Result<()> {
    match begin_value(d)? {
        ValueStart::New(h) => {
            if !h.chunked {
                return Err(CdrError::BadValue(
                    "cannot skip a value that is not chunked",
                ));
            }
            end_value(d, &h, Slot::Skipped)
        }
        _ => Ok(()),
    }
}

/// Converts a decoded value to the declared Rust type `T`.
fn cast<T: ?Sized + 'static>(v: Arc<dyn ValueBase>) -> Result<Arc<T>> {
    let boxed: Box<dyn Any> = if TypeId::of::<T>() == TypeId::of::<dyn ValueBase>() {
        Box::new(v)
    } else {
        v.upcast(TypeId::of::<T>())
            .ok_or(CdrError::TypeMismatch("value is not of the declared type"))?
    };
    boxed
        .downcast::<Arc<T>>()
        .map(|b| *b)
        .map_err(|_| CdrError::TypeMismatch("value is not of the declared type"))
}

/// Reads a value declared of type `T` (`None` for the null value).
///
/// `own` is the declared type's repository id and reader when it is a
/// concrete type (used when the value is of that type, or carries no
/// repository id, or is truncated to it); for every other id, most derived
/// first, a reader registered with [`register_value_factory`](super::register_value_factory) is looked
/// for. An indirection gives the `Arc` decoded before.
pub fn read_value<T: ?Sized + 'static>(
    d: &mut Decoder,
    own: Option<(&'static str, StateReader)>,
) -> Result<Option<Arc<T>>> {
    match begin_value(d)? {
        ValueStart::Null => Ok(None),
        ValueStart::Shared(Slot::Typed(v)) => cast(v).map(Some),
        ValueStart::Shared(Slot::Skipped) => Err(CdrError::BadValue(
            "indirection to a value of a type that was skipped",
        )),
        ValueStart::Shared(_) => Err(CdrError::BadValue("indirection to a value of another kind")),
        ValueStart::New(h) => {
            let mut reader = None;
            for id in h.ids.iter() {
                if let Some((_, r)) = own.filter(|(own_id, _)| *own_id == &**id) {
                    reader = Some(r);
                    break;
                }
                if let Some(r) = lookup_value_factory(id) {
                    reader = Some(r);
                    break;
                }
            }
            let reader = match (reader, h.ids.first(), own) {
                (Some(r), _, _) => r,
                (None, None, Some((_, r))) => r,
                (None, Some(id), _) => return Err(CdrError::UnknownValueType(id.to_string())),
                (None, None, None) => {
                    return Err(CdrError::BadValue(
                        "a value of an abstract declared type without a repository id",
                    ));
                }
            };
            let v = reader(d)?;
            end_value(d, &h, Slot::Typed(v.clone()))?;
            cast(v).map(Some)
        }
    }
}

/// Reads a value box of type `B` held by value (an indirection gives a
/// copy of the box read before).
pub fn read_value_unshared<B: ValueBase + Clone>(
    d: &mut Decoder,
    id: &'static str,
    reader: StateReader,
) -> Result<Option<B>> {
    Ok(read_value::<B>(d, Some((id, reader)))?.map(|b| (*b).clone()))
}

/// Reads a value dynamically: `state` reads the state of the value whose
/// header it is given; an indirection gives a copy of the value read
/// before.
pub(crate) fn read_dynamic(
    d: &mut Decoder,
    state: impl FnOnce(&mut Decoder, &ValueHeader) -> Result<Value>,
) -> Result<Value> {
    match begin_value(d)? {
        ValueStart::Null => Ok(Value::Null),
        ValueStart::Shared(Slot::Dynamic(v)) => Ok(v),
        ValueStart::Shared(Slot::Skipped) => Err(CdrError::BadValue(
            "indirection to a value of a type that was skipped",
        )),
        ValueStart::Shared(_) => Err(CdrError::BadValue("indirection to a value of another kind")),
        ValueStart::New(h) => {
            let v = state(d, &h)?;
            end_value(d, &h, Slot::Dynamic(v.clone()))?;
            Ok(v)
        }
    }
}

/// Skips a value of the TypeCode-described kind: `state` skips the state.
pub(crate) fn skip_dynamic(
    d: &mut Decoder,
    state: impl FnOnce(&mut Decoder, &ValueHeader) -> Result<()>,
) -> Result<()> {
    match begin_value(d)? {
        ValueStart::Null | ValueStart::Shared(_) => Ok(()),
        ValueStart::New(h) => {
            state(d, &h)?;
            end_value(d, &h, Slot::Skipped)
        }
    }
}

/// Whether `d` is reading the state of a value.
pub(crate) fn reading_value(d: &Decoder) -> bool {
    d.values.as_ref().is_some_and(|s| !s.stack.is_empty())
}
