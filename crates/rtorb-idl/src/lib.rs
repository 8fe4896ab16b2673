//! # rtorb-idl: the OMG IDL compiler of rtorb
//!
//! IDL goes through three stages:
//!
//! 1. [`preprocess`]: `#include`, `#define`, conditionals, with every output
//!    line mapped back to the file and line it came from. `#pragma` lines
//!    pass through for the parser, which gives them meaning (`prefix`,
//!    `ID`, `version` are scoped like declarations).
//! 2. [`lexer`] and [`parser`]: the IDL 3 grammar into the syntax tree of
//!    [`ast`].
//! 3. [`sema`]: names resolved, checks, constants evaluated, repository ids;
//!    the result is a [`sema::Model`] for the back end.
//!
//! 4. [`codegen`]: Rust source, formatted, one self-contained file per
//!    input IDL file; skeletons dispatch by `match` or by a perfect-hash
//!    table ([`phf`], [`codegen::Dispatch`]).
//!
//! Every error is a [`Diagnostic`] naming the file, line and column, printed
//! in the style of `rustc`.
//!
//! # The library and the command
//!
//! A `build.rs` calls [`Config`]; the library depends on nothing a build
//! script would not otherwise build. The `rtorb-idl` command is behind
//! the `cli` feature: `cargo install rtorb-idl --features cli`, or in the
//! repository `cargo run -p rtorb-idl --features cli -- -o OUTDIR FILE.idl`.
//!
//! # The CORBA Component Model is not supported
//!
//! `component`, `home`, `eventtype` (also `abstract` and `custom`),
//! `porttype`, `connector` and the port declarations `provides`, `uses`,
//! `emits`, `publishes` and `consumes` are each refused where they start,
//! with a note:
//!
//! ```
//! let err = rtorb_idl::parser::parse(
//!     "component Camera { provides Control ctl; };",
//!     &rtorb_idl::lexer::SingleFile("camera.idl".into()),
//! )
//! .unwrap_err();
//! assert_eq!(
//!     err[0].to_string().lines().next().unwrap(),
//!     "error: CORBA Component Model constructs are not supported: `component`"
//! );
//! ```

pub mod ast;
pub mod codegen;
mod diag;
pub mod lexer;
pub mod parser;
pub mod phf;
pub mod preprocess;
pub mod sema;

pub use diag::{Diagnostic, Location, Severity};

use std::path::Path;
use std::sync::Arc;

/// Output lines of the preprocessor map to their source through the
/// preprocessor's line map (both count lines from 1).
impl lexer::SourceMap for preprocess::Preprocessed {
    fn origin(&self, line: u32) -> (Arc<str>, u32) {
        let loc = self.location(line, 1);
        (loc.file, loc.line)
    }
}

/// Preprocesses and parses one IDL file.
///
/// ```no_run
/// let mut pp = rtorb_idl::preprocess::Preprocessor::new();
/// pp.include_dir("/usr/share/idl/omniORB");
/// let spec = rtorb_idl::parse_file(&pp, "cubit.idl".as_ref())?;
/// # Ok::<(), Vec<rtorb_idl::Diagnostic>>(())
/// ```
pub fn parse_file(
    pp: &preprocess::Preprocessor,
    path: &Path,
) -> Result<ast::Specification, Vec<Diagnostic>> {
    let out = pp.run_file(path)?;
    parser::parse(&out.text, &out)
}

/// The build API: compiles IDL files to Rust source files, as a build
/// script calls it.
///
/// ```no_run
/// rtorb_idl::Config::new()
///     .include_dir("idl")
///     .define("DEBUG", "1")
///     .out_dir(std::env::var("OUT_DIR").unwrap())
///     .compile(&["idl/cubit.idl"])?;
/// # Ok::<(), Vec<rtorb_idl::Diagnostic>>(())
/// ```
///
/// Each input `NAME.idl` gives `OUT_DIR/NAME.rs`, self-contained (it holds
/// what the files it includes declare too), for `include!` inside any
/// module of a crate that depends on `rtorb` and `rtorb-cdr`.
#[derive(Debug, Clone, Default)]
pub struct Config {
    include_dirs: Vec<std::path::PathBuf>,
    defines: Vec<(String, String)>,
    out_dir: Option<std::path::PathBuf>,
    dispatch: codegen::Dispatch,
}

impl Config {
    /// A configuration with no include directories or macros, writing to
    /// `$OUT_DIR` unless [`Config::out_dir`] says otherwise.
    pub fn new() -> Config {
        Config::default()
    }

    /// Adds a directory `#include` searches.
    pub fn include_dir(&mut self, dir: impl Into<std::path::PathBuf>) -> &mut Config {
        self.include_dirs.push(dir.into());
        self
    }

    /// Defines a macro, as `-D name=value` does.
    pub fn define(&mut self, name: impl Into<String>, value: impl Into<String>) -> &mut Config {
        self.defines.push((name.into(), value.into()));
        self
    }

    /// Sets the directory the Rust files are written to.
    pub fn out_dir(&mut self, dir: impl Into<std::path::PathBuf>) -> &mut Config {
        self.out_dir = Some(dir.into());
        self
    }

    /// Chooses how generated skeletons find the operation a request
    /// names: [`codegen::Dispatch::Auto`] (the default) uses a `match` on
    /// the name up to [`codegen::TABLE_THRESHOLD`] operations and a
    /// perfect-hash table above; `Match` and `Table` force one.
    ///
    /// ```no_run
    /// use rtorb_idl::codegen::Dispatch;
    ///
    /// rtorb_idl::Config::new()
    ///     .dispatch(Dispatch::Table)
    ///     .compile(&["idl/big.idl"])?;
    /// # Ok::<(), Vec<rtorb_idl::Diagnostic>>(())
    /// ```
    pub fn dispatch(&mut self, dispatch: codegen::Dispatch) -> &mut Config {
        self.dispatch = dispatch;
        self
    }

    /// The preprocessor this configuration sets up.
    fn preprocessor(&self) -> preprocess::Preprocessor {
        let mut pp = preprocess::Preprocessor::new();
        for d in &self.include_dirs {
            pp.include_dir(d);
        }
        for (n, v) in &self.defines {
            pp.define(n, v);
        }
        pp
    }

    /// The Rust source text for one IDL file.
    pub fn generate(&self, file: &Path) -> Result<String, Vec<Diagnostic>> {
        let spec = parse_file(&self.preprocessor(), file)?;
        let model = sema::analyze(&spec)?;
        codegen::generate_with(&model, self.dispatch)
    }

    /// Compiles every file, writing `OUT_DIR/NAME.rs` for each
    /// `NAME.idl`; the diagnostics of every file that fails.
    pub fn compile(&self, files: &[impl AsRef<Path>]) -> Result<(), Vec<Diagnostic>> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => match std::env::var_os("OUT_DIR") {
                Some(d) => d.into(),
                None => {
                    return Err(vec![Diagnostic::error(
                        Location::new("<config>", 0, 0),
                        "no output directory: call out_dir or set OUT_DIR",
                    )]);
                }
            },
        };
        let mut errors = Vec::new();
        for file in files {
            let file = file.as_ref();
            match self.generate(file) {
                Ok(text) => {
                    let stem = file.file_stem().unwrap_or(file.as_os_str());
                    let out = out_dir.join(stem).with_extension("rs");
                    if let Err(e) = std::fs::write(&out, text) {
                        errors.push(Diagnostic::error(
                            Location::new(out.display().to_string(), 0, 0),
                            format!("cannot write: {e}"),
                        ));
                    }
                }
                Err(mut d) => errors.append(&mut d),
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}
