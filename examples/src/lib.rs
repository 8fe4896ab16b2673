//! What the examples of rtorb share: the code `rtorb-idl` generates from
//! their IDL in `build.rs`, the Cubit servant, and how an example reports
//! an error.
//!
//! Run an example with `cargo run -p rtorb-examples --example NAME`; each
//! example's documentation gives its arguments. `tests/examples.rs` runs
//! every one of them. An example that fails prints its error with
//! [`report`].

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
