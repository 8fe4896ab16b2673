//! `rtorb-idl`: compiles OMG IDL files to Rust.
//!
//! ```text
//! rtorb-idl -I DIR -D NAME[=VALUE] [--dispatch auto|match|table] -o OUTDIR FILE.idl...
//! ```
//!
//! Writes `OUTDIR/NAME.rs` for each `NAME.idl`; prints every diagnostic
//! and exits with status 1 if any file fails. Built with the `cli`
//! feature (`cargo install rtorb-idl --features cli`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// Command-line arguments.
#[derive(Debug, Parser)]
#[command(name = "rtorb-idl", version, about = "Compiles OMG IDL files to Rust")]
struct Args {
    /// Adds a directory to the `#include` search path.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Defines a macro (`NAME` or `NAME=VALUE`).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// The directory the Rust files are written to.
    #[arg(short = 'o', value_name = "OUTDIR", default_value = ".")]
    out_dir: PathBuf,
    /// How skeletons find an operation: `auto` (a `match` on the name
    /// for small interfaces, a perfect-hash table for large ones),
    /// `match` or `table`.
    #[arg(long, value_name = "HOW", default_value = "auto")]
    dispatch: rtorb_idl::codegen::Dispatch,
    /// The IDL files.
    #[arg(required = true, value_name = "FILE.idl")]
    files: Vec<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut config = rtorb_idl::Config::new();
    for dir in &args.include {
        config.include_dir(dir);
    }
    for d in &args.define {
        match d.split_once('=') {
            Some((n, v)) => config.define(n, v),
            None => config.define(d.as_str(), "1"),
        };
    }
    config.out_dir(&args.out_dir).dispatch(args.dispatch);
    match config.compile(&args.files) {
        Ok(()) => ExitCode::SUCCESS,
        Err(diagnostics) => {
            for d in &diagnostics {
                eprintln!("{d}");
            }
            ExitCode::FAILURE
        }
    }
}
