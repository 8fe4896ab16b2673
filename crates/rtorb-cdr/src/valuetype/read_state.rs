//! What a decoder remembers of the values it read, for indirections and
//! chunks.

use std::collections::HashMap;
use std::sync::Arc;

use super::base::ValueBase;
use crate::dynamic::Value;

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
    pub(super) slots: HashMap<usize, Slot>,
    pub(super) strings: HashMap<usize, Arc<str>>,
    pub(super) lists: HashMap<usize, Arc<[Arc<str>]>>,
    /// The values being read, innermost last: whether each is chunked.
    pub(super) stack: Vec<bool>,
    /// The end of the chunk being read.
    pub(super) chunk_end: Option<usize>,
    /// An end tag closed every open value at this level or deeper.
    pub(super) closed_to: Option<usize>,
}
