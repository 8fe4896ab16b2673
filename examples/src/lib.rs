//! What the examples of rtorb share: the code `rtorb-idl` generates from
//! their IDL in `build.rs`, and the Cubit servant.
//!
//! Run an example with `cargo run -p rtorb-examples --example NAME`; each
//! example's documentation gives its arguments. `tests/examples.rs` runs
//! every one of them.

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
