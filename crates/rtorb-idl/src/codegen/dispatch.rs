//! [`Dispatch`]: how a generated skeleton finds the operation a request
//! names.

/// How a generated skeleton finds the operation a request names.
///
/// A `match` on the name is the faster lookup for small interfaces (rustc
/// compiles it to a switch on the length and comparisons against
/// constants); the perfect-hash table ([`crate::phf`], looked up by
/// `rtorb::codegen::OpTable`) costs the same whatever the number of
/// operations, and wins above [`TABLE_THRESHOLD`] operations
/// (`BENCHMARKS.md`, "IDL dispatch crossover"). Both answer unknown names
/// with `BAD_OPERATION`; `_is_a`, `_non_existent` and `_interface` are
/// answered by `rtorb::servant::dispatch` before either runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dispatch {
    /// A `match` up to [`TABLE_THRESHOLD`] operations (attribute
    /// accessors and inherited operations counted), a table above.
    #[default]
    Auto,
    /// Always a `match` on the operation name.
    Match,
    /// Always a perfect-hash table, the `static` `OPERATIONS` of the
    /// interface's module.
    Table,
}

/// The most operations (attribute accessors and inherited operations
/// included) an interface may have for [`Dispatch::Auto`] to choose a
/// `match`; larger interfaces get a table.
pub const TABLE_THRESHOLD: usize = 200;

impl Dispatch {
    /// Whether an interface with `operations` operations gets a table.
    pub fn uses_table(self, operations: usize) -> bool {
        match self {
            Dispatch::Auto => operations > TABLE_THRESHOLD,
            Dispatch::Match => false,
            Dispatch::Table => operations > 0,
        }
    }
}

impl std::str::FromStr for Dispatch {
    type Err = String;

    /// `auto`, `match` or `table`, as the command line spells them.
    fn from_str(s: &str) -> Result<Dispatch, String> {
        match s {
            "auto" => Ok(Dispatch::Auto),
            "match" => Ok(Dispatch::Match),
            "table" => Ok(Dispatch::Table),
            _ => Err(format!(
                "unknown dispatch `{s}`: expected `auto`, `match` or `table`"
            )),
        }
    }
}
