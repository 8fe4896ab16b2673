//! The CDR encoding of valuetypes (CORBA 3, GIOP "Value Types").
//!
//! A value is written as a *value tag* followed by its state, or as the
//! null tag `0`, or as an *indirection* to a value written before in the
//! same stream:
//!
//! ```text
//! value      = tag [codebase] [repository-id | repository-id-list] state
//! tag        = 0x7fffff00 | 0x01 (codebase) | 0x02 (one id) or 0x06 (id list) | 0x08 (chunked)
//! indirection = 0xffffffff, long offset (negative, from the offset itself to the target tag)
//! ```
//!
//! Repository ids, the codebase and id lists are strings (or a count of
//! strings) that may themselves be indirections to an earlier copy. A
//! *truncatable* value (and every value nested in a chunked one) is
//! *chunked*: its state is split into chunks, each a positive long size
//! and that many octets, ended before every nested value and closed by an
//! *end tag*, the negated nesting level of the value (the outermost value
//! is level 1); an end tag closes every open value at that level or
//! deeper. A receiver that does not know the most derived type reads the
//! state of a base it knows and skips the rest of the chunks.
//!
//! # What this module keeps per message
//!
//! An [`Encoder`] remembers the position of every value it wrote, keyed by
//! the address of the shared `Arc` it came from (the `Arc` is kept alive
//! until the encoder is dropped, so an address is never reused), and of
//! every repository id: a second occurrence is written as an indirection.
//! A [`Decoder`] maps the position of every value tag it read to the value
//! decoded there, so that an indirection yields the same `Arc`.
//! Indirections must point backwards at a value already *complete*: one
//! that points at a value still being decoded (a cycle, which `Arc`s cannot
//! build), at itself, forwards, or anywhere else is
//! [`CdrError::BadValue`].
//!
//! # Typed values
//!
//! Rust types that are valuetypes implement [`ValueBase`]; the IDL
//! compiler generates them. A value member is an `Option<Arc<dyn T>>` for a
//! trait `T` of the IDL type (any value of a derived type fits), written by
//! [`write_value`] and read by [`read_value`]. Reading builds the most
//! derived type the receiver knows: the declared type's own reader, or a
//! reader registered with [`register_value_factory`] for one of the
//! repository ids the value lists. A value whose type is unknown and not
//! truncatable to a known one is [`CdrError::UnknownValueType`] (`MARSHAL`
//! with the OMG minor code 1, "unable to locate value factory").
//!
//! # Limits
//!
//! Chunks written by rtorb end only before nested values and at the end of
//! a value, and the reader expects the same of other senders: a chunk may
//! end (and a new one begin) wherever a nested value, a null or an
//! indirection starts, and at the end of the state, but not between two
//! members of primitive type. A stream whose chunk ends inside the data of
//! a state is [`CdrError::BadValue`] when the value ends, never accepted.
//! A chunked value nested in a truncated part is skipped; an indirection
//! to it is an error. An `any` read inside a value is decoded at once (its
//! octets hold the enclosing value's chunks); one read elsewhere keeps its
//! octets, so sharing between a value inside it and one outside it is
//! [`CdrError::BadValue`].
//!
//! ```
//! use std::any::TypeId;
//! use std::sync::Arc;
//! use rtorb_cdr::valuetype::{read_value, write_value, ValueBase};
//! use rtorb_cdr::{ByteOrder, Decoder, Encoder, Encoding, Result};
//!
//! #[derive(Debug)]
//! struct Point { x: i32 }
//! impl ValueBase for Point {
//!     fn repository_id(&self) -> &'static str { "IDL:Point:1.0" }
//!     fn write_state(&self, e: &mut Encoder) -> Result<()> { e.write_i32(self.x); Ok(()) }
//!     fn as_any(&self) -> &dyn std::any::Any { self }
//!     fn upcast(self: Arc<Self>, to: TypeId) -> Option<Box<dyn std::any::Any>> {
//!         (to == TypeId::of::<Point>()).then(|| Box::new(self) as Box<dyn std::any::Any>)
//!     }
//! }
//! fn read_point(d: &mut Decoder) -> Result<Arc<dyn ValueBase>> {
//!     Ok(Arc::new(Point { x: d.read_i32()? }))
//! }
//!
//! let p = Arc::new(Point { x: 7 });
//! let enc = Encoding::native().with_order(ByteOrder::Big);
//! let mut e = Encoder::new(enc);
//! write_value(&mut e, Some(&p)).unwrap();
//! write_value(&mut e, Some(&p)).unwrap(); // the same value again: an indirection
//! let mut d = Decoder::new(e.into_bytes(), enc);
//! let own = Some(("IDL:Point:1.0", read_point as rtorb_cdr::valuetype::StateReader));
//! let a: Arc<Point> = read_value(&mut d, own).unwrap().unwrap();
//! let b: Arc<Point> = read_value(&mut d, own).unwrap().unwrap();
//! assert_eq!(a.x, 7);
//! assert!(Arc::ptr_eq(&a, &b));
//! ```

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock, RwLock};

use crate::error::{CdrError, Result};
use crate::value::Value;
use crate::{Decoder, Encoder};

/// The lowest value tag; the low byte holds the flags.
pub const VALUE_TAG_BASE: u32 = 0x7fff_ff00;
/// Tag flag: a codebase URL follows the tag.
pub const VALUE_TAG_CODEBASE: u32 = 0x01;
/// Tag flag: one repository id follows.
pub const VALUE_TAG_SINGLE_ID: u32 = 0x02;
/// Tag flags: a list of repository ids follows (most derived first).
pub const VALUE_TAG_ID_LIST: u32 = 0x06;
/// Tag flag: the state is chunked.
pub const VALUE_TAG_CHUNKED: u32 = 0x08;
/// The marker of an indirection (followed by a negative long offset).
pub const INDIRECTION_TAG: u32 = 0xffff_ffff;
/// The null value.
pub const NULL_TAG: u32 = 0;

/// A Rust type that is an IDL valuetype (or value box): what the value
/// writer needs to put it on the wire and the reader to hand it out as the
/// declared type.
pub trait ValueBase: Any + Send + Sync + fmt::Debug {
    /// The repository id of the (most derived) type.
    fn repository_id(&self) -> &'static str;
    /// For a truncatable type, the repository ids of the bases it may be
    /// truncated to, nearest first (written after its own id, so that a
    /// receiver that does not know the type can read it as a base); empty
    /// for a type that is not truncatable.
    fn truncatable_ids(&self) -> &'static [&'static str] {
        &[]
    }
    /// Writes the state members, those of the bases first.
    fn write_state(&self, e: &mut Encoder) -> Result<()>;
    /// This value as an `Any`, to downcast it to its Rust type.
    fn as_any(&self) -> &dyn Any;
    /// This value as an `Arc<T>` boxed in an `Any`, if `to` is
    /// `TypeId::of::<T>()` for `T` its own type or the trait object of
    /// one of the IDL types it derives from (how a value decoded as
    /// `Arc<dyn ValueBase>` becomes an `Arc<dyn DeclaredType>`).
    fn upcast(self: Arc<Self>, to: TypeId) -> Option<Box<dyn Any>>;
}

/// The value of type `T` behind `value` (a `dyn ValueBase` or the trait
/// object of any IDL valuetype), if that is its type.
pub fn downcast_value<T: ValueBase, V: ValueBase + ?Sized>(value: &V) -> Option<&T> {
    value.as_any().downcast_ref::<T>()
}

/// Reads the state of one valuetype (after its header) and builds the
/// value: what a value factory registers.
pub type StateReader = fn(&mut Decoder) -> Result<Arc<dyn ValueBase>>;

fn factories() -> &'static RwLock<HashMap<String, StateReader>> {
    static FACTORIES: OnceLock<RwLock<HashMap<String, StateReader>>> = OnceLock::new();
    FACTORIES.get_or_init(|| RwLock::new(HashMap::new()))
}

/// Registers the reader of values of repository id `id`, used whenever a
/// value of that type arrives (also where a base type is declared);
/// returns the reader it replaces.
pub fn register_value_factory(id: &str, reader: StateReader) -> Option<StateReader> {
    let mut map = factories().write().unwrap_or_else(|e| e.into_inner());
    map.insert(id.to_string(), reader)
}

/// Removes the reader registered for `id`, returning it.
pub fn unregister_value_factory(id: &str) -> Option<StateReader> {
    let mut map = factories().write().unwrap_or_else(|e| e.into_inner());
    map.remove(id)
}

/// The reader registered for `id`.
pub fn lookup_value_factory(id: &str) -> Option<StateReader> {
    let map = factories().read().unwrap_or_else(|e| e.into_inner());
    map.get(id).copied()
}

/// What the encoder remembers of the values in its stream.
#[derive(Debug, Default)]
pub(crate) struct WriteState {
    /// Address of a shared value → position of its tag.
    written: HashMap<usize, usize>,
    /// The values written, kept alive so that no address is reused.
    pins: Vec<Box<dyn Any + Send + Sync>>,
    /// Repository id → position of its string.
    ids: HashMap<&'static str, usize>,
    /// The values being written, innermost last: whether each is chunked.
    stack: Vec<bool>,
    /// The reserved size of the open chunk.
    open_chunk: Option<usize>,
    /// The zero-copy threshold to restore once the outermost chunked value
    /// is written (chunk sizes are patched in place).
    saved_threshold: Option<usize>,
}

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

/// What a decoder holds at the position of a value it read.
#[derive(Debug, Clone)]
pub(crate) enum Slot {
    /// Being decoded: an indirection to it is a cycle.
    Reading,
    /// A value decoded as a Rust type.
    Typed(Arc<dyn ValueBase>),
    /// A value decoded dynamically (by a TypeCode).
    Dynamic(Value),
    /// A value of unknown type that was skipped.
    Skipped,
}

/// What the decoder remembers of the values in its stream.
#[derive(Debug, Clone, Default)]
pub(crate) struct ReadState {
    slots: HashMap<usize, Slot>,
    strings: HashMap<usize, Arc<str>>,
    lists: HashMap<usize, Arc<[Arc<str>]>>,
    /// The values being read, innermost last: whether each is chunked.
    stack: Vec<bool>,
    /// The end of the chunk being read.
    chunk_end: Option<usize>,
    /// An end tag closed every open value at this level or deeper.
    closed_to: Option<usize>,
}

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
/// first, a reader registered with [`register_value_factory`] is looked
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

/// Whether `e` is writing the state of a value.
pub(crate) fn writing_value(e: &Encoder) -> bool {
    e.values.as_ref().is_some_and(|s| !s.stack.is_empty())
}
