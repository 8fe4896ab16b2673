//! The table of ORB options in the documentation is what
//! `rtorb::orb::options::markdown_table()` makes of
//! `rtorb::orb::options::ORB_OPTIONS`, row for row, so that neither can
//! change without the other: every option the parser accepts is in the
//! table (the parser accepts the table's names only), and every row of
//! the table is an option.
//!
//! The table sits between two marker comments in the user guide's
//! chapter on options, `docs/guide/transports-and-options.md`; the test
//! looks for them in the README and in every Markdown file of `docs/`,
//! and requires exactly one table. After a change of the table,
//! `RTORB_BLESS=1 cargo test -p rtorb --test orb_options_table` writes it
//! there.

use std::path::{Path, PathBuf};

use rtorb::orb::options::{ORB_OPTIONS, markdown_table};
use rtorb::orb::{OptionProblem, OrbConfig, OrbError};

const BEGIN: &str =
    "<!-- The rows below are rtorb::orb::options::ORB_OPTIONS (tests/orb_options_table.rs). -->";
const END: &str = "<!-- End of the table of ORB options. -->";

const REGENERATE: &str = "RTORB_BLESS=1 cargo test -p rtorb --test orb_options_table";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The README and the Markdown files of `docs/`, and below.
fn documents() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut out);
    out
}

#[test]
fn the_documented_table_is_the_table_of_options() {
    let holding: Vec<(PathBuf, String)> = documents()
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            text.contains(BEGIN).then_some((p, text))
        })
        .collect();
    let [(path, text)] = &holding[..] else {
        panic!(
            "the table of ORB options must be in exactly one of the README and docs/, \
             between {BEGIN} and {END}; it is in {:?}",
            holding.iter().map(|(p, _)| p).collect::<Vec<_>>()
        );
    };
    let (Some(b), Some(e)) = (text.find(BEGIN), text.find(END)) else {
        panic!("{} has {BEGIN} but not {END}", path.display());
    };
    let start = b + BEGIN.len() + 1;
    assert!(start <= e, "{}: {END} before {BEGIN}", path.display());
    let want = markdown_table();
    if std::env::var_os("RTORB_BLESS").is_some() {
        let blessed = format!("{}{want}{}", &text[..start], &text[e..]);
        std::fs::write(path, blessed).unwrap();
        return;
    }
    let have = &text[start..e];
    assert!(
        have == want,
        "the table of ORB options in {} is not the one rtorb::orb::options::markdown_table() \
         makes of ORB_OPTIONS; `{REGENERATE}` writes it there.\nhave:\n{have}\nwant:\n{want}",
        path.display()
    );
}

#[test]
fn every_row_is_an_option_the_parser_takes() {
    for o in ORB_OPTIONS {
        let mut c = OrbConfig::default();
        c.apply_args([format!("-ORB{}", o.name), o.example.to_owned()])
            .unwrap_or_else(|e| panic!("-ORB{}: {e}", o.name));
    }
    // And nothing else.
    let mut c = OrbConfig::default();
    match c.apply_args(["-ORBtraceLevel", "10"]) {
        Err(OrbError::Option(e)) => {
            assert_eq!(e.option, "-ORBtraceLevel");
            assert_eq!(e.problem, OptionProblem::Unknown);
        }
        other => panic!("{other:?}"),
    }
}
