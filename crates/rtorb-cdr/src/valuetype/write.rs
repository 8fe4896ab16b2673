//! Writing values: tags, repository ids (each written once, then as an
//! indirection), chunks and end tags.

use std::sync::Arc;

use super::base::ValueBase;
use super::write_state::WriteState;
use super::{
    INDIRECTION_TAG, NULL_TAG, VALUE_TAG_BASE, VALUE_TAG_CHUNKED, VALUE_TAG_ID_LIST,
    VALUE_TAG_SINGLE_ID,
};
use crate::encoder::Encoder;
use crate::error::{CdrError, Result};

fn write_state_of(e: &mut Encoder) -> &mut WriteState {
    e.values.get_or_insert_with(Default::default)
}

fn offset_to(target: usize, at: usize) -> Result<i32> {
    let off = target as i64 - at as i64;
    i32::try_from(off).map_err(|_| CdrError::BadValue("indirection offset out of range"))
}

fn close_chunk(e: &mut Encoder) {
    let Some(at) = write_state_of(e).open_chunk.take() else {
        return;
    };
    let size = e.len() - (at + 4);
    if size == 0 && e.truncate_to(at) {
        return;
    }
    e.patch_u32(at, size as u32);
}

fn open_chunk(e: &mut Encoder) {
    let at = e.reserve_u32();
    write_state_of(e).open_chunk = Some(at);
}

fn in_chunked(e: &mut Encoder) -> bool {
    write_state_of(e).stack.last() == Some(&true)
}

/// Writes a repository id, or an indirection to its earlier copy.
fn write_repository_id(e: &mut Encoder, id: &'static str) -> Result<()> {
    e.align(4);
    if let Some(&target) = write_state_of(e).ids.get(id) {
        e.write_u32(INDIRECTION_TAG);
        let off = offset_to(target, e.len())?;
        e.write_i32(off);
        return Ok(());
    }
    let at = e.len();
    write_state_of(e).ids.insert(id, at);
    e.write_string(id)
}

/// Writes a tag that is not a value (null or indirection) at a value
/// position.
fn write_plain_tag(e: &mut Encoder, f: impl FnOnce(&mut Encoder) -> Result<()>) -> Result<()> {
    let chunked = in_chunked(e);
    if chunked {
        close_chunk(e);
    }
    f(e)?;
    if chunked {
        open_chunk(e);
    }
    Ok(())
}

/// Writes a value and its state; `key` identifies a shared value.
fn write_new<T: ValueBase + ?Sized>(e: &mut Encoder, v: &T, key: Option<usize>) -> Result<()> {
    let outer_chunked = in_chunked(e);
    if outer_chunked {
        close_chunk(e);
    }
    let earlier = key.and_then(|k| write_state_of(e).written.get(&k).copied());
    if let Some(target) = earlier {
        e.write_u32(INDIRECTION_TAG);
        let off = offset_to(target, e.len())?;
        e.write_i32(off);
        if outer_chunked {
            open_chunk(e);
        }
        return Ok(());
    }
    let bases = v.truncatable_ids();
    let chunked = !bases.is_empty() || outer_chunked;
    e.align(4);
    let tag_at = e.len();
    if let Some(k) = key {
        write_state_of(e).written.insert(k, tag_at);
    }
    let chunk_flag = if chunked { VALUE_TAG_CHUNKED } else { 0 };
    if bases.is_empty() {
        e.write_u32(VALUE_TAG_BASE | VALUE_TAG_SINGLE_ID | chunk_flag);
        write_repository_id(e, v.repository_id())?;
    } else {
        e.write_u32(VALUE_TAG_BASE | VALUE_TAG_ID_LIST | chunk_flag);
        e.write_len(bases.len() + 1)?;
        write_repository_id(e, v.repository_id())?;
        for b in bases {
            write_repository_id(e, b)?;
        }
    }
    let st = write_state_of(e);
    st.stack.push(chunked);
    let level = st.stack.len();
    if chunked && st.saved_threshold.is_none() {
        let t = e.zero_copy_threshold();
        write_state_of(e).saved_threshold = Some(t);
        e.set_zero_copy_threshold(usize::MAX);
    }
    if chunked {
        open_chunk(e);
    }
    let r = v.write_state(e);
    if chunked {
        close_chunk(e);
        e.write_i32(-(i32::try_from(level).unwrap_or(i32::MAX)));
    }
    let st = write_state_of(e);
    st.stack.pop();
    if outer_chunked {
        open_chunk(e);
    } else if !st.stack.contains(&true) {
        if let Some(t) = st.saved_threshold.take() {
            e.set_zero_copy_threshold(t);
        }
    }
    r
}

/// Writes a shared value (`None`: the null value). A value already written
/// in this stream (the same `Arc`) is written as an indirection to it.
pub fn write_value<T: ValueBase + ?Sized>(e: &mut Encoder, value: Option<&Arc<T>>) -> Result<()> {
    match value {
        None => write_plain_tag(e, |e| {
            e.write_u32(NULL_TAG);
            Ok(())
        }),
        Some(v) => {
            let key = Arc::as_ptr(v) as *const () as usize;
            let st = write_state_of(e);
            if !st.written.contains_key(&key) {
                st.pins.push(Box::new(v.clone()));
            }
            write_new(e, &**v, Some(key))
        }
    }
}

/// Writes a value that is not shared (a value box held by value): never
/// an indirection.
pub fn write_value_unshared<T: ValueBase>(e: &mut Encoder, value: Option<&T>) -> Result<()> {
    match value {
        None => write_plain_tag(e, |e| {
            e.write_u32(NULL_TAG);
            Ok(())
        }),
        Some(v) => write_new(e, v, None),
    }
}

/// Writes a value dynamically: its repository id(s) (`ids`: most derived
/// first; more than one makes it truncatable and chunked) then what
/// `state` writes.
pub(crate) fn write_dynamic(
    e: &mut Encoder,
    ids: &[&str],
    state: impl FnOnce(&mut Encoder) -> Result<()>,
) -> Result<()> {
    let outer_chunked = in_chunked(e);
    if outer_chunked {
        close_chunk(e);
    }
    let chunked = ids.len() > 1 || outer_chunked;
    let chunk_flag = if chunked { VALUE_TAG_CHUNKED } else { 0 };
    e.align(4);
    if ids.len() > 1 {
        e.write_u32(VALUE_TAG_BASE | VALUE_TAG_ID_LIST | chunk_flag);
        e.write_len(ids.len())?;
        for id in ids {
            e.write_string(id)?;
        }
    } else {
        e.write_u32(VALUE_TAG_BASE | VALUE_TAG_SINGLE_ID | chunk_flag);
        e.write_string(ids.first().copied().unwrap_or(""))?;
    }
    let st = write_state_of(e);
    st.stack.push(chunked);
    let level = st.stack.len();
    if chunked {
        open_chunk(e);
    }
    let r = state(e);
    if chunked {
        close_chunk(e);
        e.write_i32(-(i32::try_from(level).unwrap_or(i32::MAX)));
    }
    write_state_of(e).stack.pop();
    if outer_chunked {
        open_chunk(e);
    }
    r
}

/// Writes the null value at a value position.
pub(crate) fn write_null(e: &mut Encoder) -> Result<()> {
    write_plain_tag(e, |e| {
        e.write_u32(NULL_TAG);
        Ok(())
    })
}

/// Whether `e` is writing the state of a value.
pub(crate) fn writing_value(e: &Encoder) -> bool {
    e.values.as_ref().is_some_and(|s| !s.stack.is_empty())
}
