//! The README's table of ORB options is `rtorb::orb::options::ORB_OPTIONS`,
//! row for row, so that neither can change without the other: every
//! option the parser accepts is in the table (the parser accepts the
//! table's names only), and every row of the table is an option.
//!
//! `RTORB_BLESS=1 cargo test -p rtorb --test orb_options_table` writes the
//! table into the README after a change of `ORB_OPTIONS`.

use std::path::PathBuf;

use rtorb::orb::OrbConfig;
use rtorb::orb::options::{ORB_OPTIONS, OrbOption};

const BEGIN: &str =
    "<!-- The rows below are rtorb::orb::options::ORB_OPTIONS (tests/orb_options_table.rs). -->";
const END: &str = "<!-- End of the table of ORB options. -->";

fn readme() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../README.md")
}

/// `text` in code quotes, unless it is `none` or already quoted.
fn code(text: &str) -> String {
    if text == "none" || text.contains('`') {
        text.to_owned()
    } else {
        format!("`{text}`")
    }
}

fn row(o: &OrbOption) -> String {
    let cell = |v: Option<&str>, f: fn(&str) -> String| v.map_or_else(|| "—".to_owned(), f);
    let aliases = if o.aliases.is_empty() {
        "—".to_owned()
    } else {
        o.aliases
            .iter()
            .map(|a| format!("`-ORB{a}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "| `-ORB{}` | {} | {} | {} | {} | {} | {} |",
        o.name,
        aliases,
        cell(o.builder, |b| format!("`{b}`")),
        cell(o.policy, |p| format!("`{p}`")),
        cell(o.omniorb, str::to_owned),
        o.values,
        code(o.default),
    )
}

fn table() -> String {
    let mut t = String::from(
        "| option (file key: the same without `-ORB`) | also accepted | `OrbBuilder` | policy | omniORB | value | default |\n\
         | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for o in ORB_OPTIONS {
        t.push_str(&row(o));
        t.push('\n');
    }
    t
}

#[test]
fn the_readme_table_is_the_table_of_options() {
    let path = readme();
    let text = std::fs::read_to_string(&path).unwrap();
    let (Some(b), Some(e)) = (text.find(BEGIN), text.find(END)) else {
        panic!(
            "{} has no table of ORB options between {BEGIN} and {END}",
            path.display()
        );
    };
    let start = b + BEGIN.len() + 1;
    let want = table();
    if std::env::var_os("RTORB_BLESS").is_some() {
        let blessed = format!("{}{want}{}", &text[..start], &text[e..]);
        std::fs::write(&path, blessed).unwrap();
        return;
    }
    let have = &text[start..e];
    assert!(
        have == want,
        "the README's table of ORB options differs from ORB_OPTIONS (RTORB_BLESS=1 rewrites it):\n\
         have:\n{have}\nwant:\n{want}"
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
    assert!(c.apply_args(["-ORBtraceLevel", "10"]).is_err());
}
