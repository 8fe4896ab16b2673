//! Operation demultiplexing by a perfect hash computed when the IDL is
//! compiled.
//!
//! For each interface, `rtorb-idl` computes a minimal perfect hash of its
//! operation names (its own and inherited operations and the
//! `_get_`/`_set_` attribute accessors) and emits it as a `static`
//! [`OpTable`]. The skeleton's dispatch calls [`OpTable::lookup`] on the
//! request's operation name and `match`es the index it returns, so that
//! finding an operation costs one hash, one displacement and one string
//! comparison, whatever the number of operations.
//!
//! # The hash
//!
//! The scheme is hash and displace: [`op_hash`] hashes a name with the
//! table's seed to 64 bits; the high 32 bits pick a bucket
//! ([`op_bucket`]); the bucket's displacement `d` and the whole hash pick
//! the slot ([`op_slot`]). A slot holds one name and the index of its
//! operation; the name is compared with the request's to reject a name
//! the interface does not have.
//!
//! The three functions live in `rtorb_giop::op_hash`, which `rtorb-idl`
//! builds the tables with.

use rtorb_giop::op_hash::same_name;
pub use rtorb_giop::op_hash::{op_bucket, op_hash, op_slot};

/// The operation table of one interface: a minimal perfect hash of its
/// operation names, as `rtorb-idl` generates it into a `static`:
///
/// ```
/// use rtorb::codegen::OpTable;
///
/// static OPS: OpTable<'static> = OpTable {
///     seed: 0xdde61a46db7dd424,
///     disp: &[0],
///     names: &["twice"],
///     index: &[0],
/// };
///
/// assert_eq!(OPS.lookup(b"twice"), Some(0));
/// assert_eq!(OPS.lookup(b"thrice"), None);
/// ```
///
/// `names` and `index` have one entry per slot, `disp` one per bucket. A
/// table whose fields do not agree (as `rtorb-idl` never emits) finds
/// fewer names, but never panics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpTable<'a> {
    /// The seed of [`op_hash`] for this table.
    pub seed: u64,
    /// The displacement of each bucket ([`op_slot`]).
    pub disp: &'a [u32],
    /// The operation name in each slot.
    pub names: &'a [&'a str],
    /// The index of the operation in each slot: its position in the
    /// interface's list of operations, which the skeleton `match`es on.
    pub index: &'a [u32],
}

impl OpTable<'_> {
    /// The index of the operation called `name`, or `None` if the table
    /// does not hold it. One hash, one displacement, one comparison; no
    /// allocation.
    #[inline]
    pub fn lookup(&self, name: &[u8]) -> Option<usize> {
        let h = op_hash(self.seed, name);
        let d = *self.disp.get(op_bucket(h, self.disp.len()))?;
        let slot = op_slot(h, d, self.names.len());
        if same_name(self.names.get(slot)?.as_bytes(), name) {
            self.index.get(slot).map(|&i| i as usize)
        } else {
            None
        }
    }

    /// The number of operations in the table.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the table holds no operation.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}
