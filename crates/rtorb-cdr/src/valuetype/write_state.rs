//! What an encoder remembers of the values it wrote, for indirections and
//! chunks.

use std::any::Any;
use std::collections::HashMap;

/// What the encoder remembers of the values in its stream.
#[derive(Debug, Default)]
pub(crate) struct WriteState {
    /// Address of a shared value → position of its tag.
    pub(super) written: HashMap<usize, usize>,
    /// The values written, kept alive so that no address is reused.
    pub(super) pins: Vec<Box<dyn Any + Send + Sync>>,
    /// Repository id → position of its string.
    pub(super) ids: HashMap<&'static str, usize>,
    /// The values being written, innermost last: whether each is chunked.
    pub(super) stack: Vec<bool>,
    /// The reserved size of the open chunk.
    pub(super) open_chunk: Option<usize>,
    /// The zero-copy threshold to restore once the outermost chunked value
    /// is written (chunk sizes are patched in place).
    pub(super) saved_threshold: Option<usize>,
}
