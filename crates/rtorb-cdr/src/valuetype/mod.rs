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
//! An [`Encoder`](crate::Encoder) remembers the position of every value it wrote, keyed by
//! the address of the shared `Arc` it came from (the `Arc` is kept alive
//! until the encoder is dropped, so an address is never reused), and of
//! every repository id: a second occurrence is written as an indirection.
//! A [`Decoder`](crate::Decoder) maps the position of every value tag it read to the value
//! decoded there, so that an indirection yields the same `Arc`.
//! Indirections must point backwards at a value already *complete*: one
//! that points at a value still being decoded (a cycle, which `Arc`s cannot
//! build), at itself, forwards, or anywhere else is
//! [`CdrError::BadValue`](crate::CdrError::BadValue).
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
//! truncatable to a known one is [`CdrError::UnknownValueType`](crate::CdrError::UnknownValueType) (`MARSHAL`
//! with the OMG minor code 1, "unable to locate value factory").
//!
//! # Limits
//!
//! Chunks written by rtorb end only before nested values and at the end of
//! a value, and the reader expects the same of other senders: a chunk may
//! end (and a new one begin) wherever a nested value, a null or an
//! indirection starts, and at the end of the state, but not between two
//! members of primitive type. A stream whose chunk ends inside the data of
//! a state is [`CdrError::BadValue`](crate::CdrError::BadValue) when the value ends, never accepted.
//! A chunked value nested in a truncated part is skipped; an indirection
//! to it is an error. An `any` read inside a value is decoded at once (its
//! octets hold the enclosing value's chunks); one read elsewhere keeps its
//! octets, so sharing between a value inside it and one outside it is
//! [`CdrError::BadValue`](crate::CdrError::BadValue).
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

mod base;
mod factory;
pub(crate) mod read;
pub(crate) mod read_state;
pub(crate) mod write;
pub(crate) mod write_state;

pub use base::{ValueBase, downcast_value};
pub use factory::{
    StateReader, lookup_value_factory, register_value_factory, unregister_value_factory,
};
pub use read::{ValueHeader, read_value, read_value_unshared};
pub use write::{write_value, write_value_unshared};

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
