//! The table of options as a program's `--help` and the user guide show it.

use super::option::OrbOption;
use super::table::ORB_OPTIONS;

/// Every option, as a program's `--help` lists them: its names, what it
/// takes and its default.
pub fn help() -> String {
    let mut out = String::from(
        "ORB options (-ORBName VALUE on the command line, Name = VALUE in a \
         configuration file; names in any case):\n",
    );
    for o in ORB_OPTIONS {
        out.push_str(&format!("  -ORB{}", o.name));
        if !o.aliases.is_empty() {
            let aliases: Vec<String> = o.aliases.iter().map(|a| format!("-ORB{a}")).collect();
            out.push_str(&format!(" (also {})", aliases.join(", ")));
        }
        out.push_str(&format!(
            "\n      {} (default: {})\n",
            o.values.replace('`', ""),
            o.default.replace('`', "")
        ));
    }
    out
}

/// The user guide's table of options: a Markdown table of every row of
/// [`ORB_OPTIONS`], as the guide shows it between its markers (the test
/// `orb_options_table` compares them; `RTORB_BLESS=1 cargo test -p rtorb
/// --test orb_options_table` writes it there).
pub fn markdown_table() -> String {
    let mut t = String::from(
        "| option (file key: the same without `-ORB`) | also accepted | `OrbBuilder` | policy | omniORB | value | default |\n\
         | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for o in ORB_OPTIONS {
        t.push_str(&markdown_row(o));
        t.push('\n');
    }
    t
}

fn markdown_row(o: &OrbOption) -> String {
    let cell = |v: Option<&str>, f: fn(&str) -> String| v.map_or_else(|| "—".to_owned(), f);
    let aliases = if o.aliases.is_empty() {
        "—".to_owned()
    } else {
        let quoted: Vec<String> = o.aliases.iter().map(|a| format!("`-ORB{a}`")).collect();
        quoted.join(", ")
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

/// `text` in code quotes, unless it is `none` or already quoted.
fn code(text: &str) -> String {
    if text == "none" || text.contains('`') {
        text.to_owned()
    } else {
        format!("`{text}`")
    }
}
