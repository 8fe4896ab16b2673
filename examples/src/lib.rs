//! What the examples of rtorb share: the code `rtorb-idl` generates from
//! their IDL in `build.rs`, the Cubit servant, and how an example reports
//! an error.
//!
//! Run an example with `cargo run -p rtorb-examples --example NAME`; each
//! example's documentation gives its arguments. `tests/examples.rs` runs
//! every one of them. An example that fails prints its error with
//! [`report`].
//!
//! The crate also holds the repository's README and user guide
//! (`docs/guide/`) as documentation of hidden modules, so that
//! `cargo test` compiles every Rust block of them as a doc test, against
//! this crate's generated code, and runs those that can run in a test.

/// Generated from the workspace's `idl/cubit.idl`.
pub mod cubit_idl {
    include!(concat!(env!("OUT_DIR"), "/cubit.rs"));
}

/// Generated from `idl/account.idl`.
pub mod account_idl {
    include!(concat!(env!("OUT_DIR"), "/account.rs"));
}

mod cubit_servant;

pub use cubit_servant::Cuber;

/// Runs an example's body and reports its error, if any, as `Display`
/// prints it (for a CORBA exception: which one, what failed where, the
/// minor code and its name, and whether the operation completed), after
/// the example's `name`; the process's exit status says whether it
/// failed.
pub fn report(
    name: &str,
    run: impl FnOnce() -> Result<(), Box<dyn std::error::Error>>,
) -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The README and the user guide (`docs/guide/`): their Rust blocks are
/// this crate's doc tests.
#[doc(hidden)]
// A block that is a `build.rs`, or a program, shows its `fn main` as the
// file has it.
#[allow(clippy::needless_doctest_main)]
pub mod guide {
    #[doc = include_str!("../../README.md")]
    pub mod readme {}

    #[doc = include_str!("../../docs/guide/README.md")]
    pub mod contents {}

    #[doc = include_str!("../../docs/guide/idl.md")]
    pub mod idl {}

    #[doc = include_str!("../../docs/guide/orb-and-poa.md")]
    pub mod orb_and_poa {}

    #[doc = include_str!("../../docs/guide/realtime.md")]
    pub mod realtime {}

    #[doc = include_str!("../../docs/guide/transports-and-options.md")]
    pub mod transports_and_options {}

    #[doc = include_str!("../../docs/guide/errors.md")]
    pub mod errors {}

    #[doc = include_str!("../../docs/guide/interop.md")]
    pub mod interop {}

    #[doc = include_str!("../../docs/guide/events.md")]
    pub mod events {}

    #[doc = include_str!("../../docs/guide/benchmarks.md")]
    pub mod benchmarks {}

    #[doc = include_str!("../../docs/guide/operating.md")]
    pub mod operating {}
}
