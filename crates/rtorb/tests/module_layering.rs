//! The modules of `rtorb` depend one way, as the crate docs draw them: a
//! module names only modules of the layers below its own. This test reads
//! the sources under `src/` and fails on every path that runs the other
//! way (`crate::orb` in the POA, `crate::poa` in a transport, ...), and on
//! a top-level module that has no layer yet.
//!
//! Comments and literals are left out, so documentation may still link
//! upwards (`[crate::orb::Orb]` in the POA's docs names where to look,
//! not what the POA needs).

use std::path::{Path, PathBuf};

/// The top-level modules of `src/`, lowest layer first. A module may use
/// the modules of every layer below its own, and none of its own layer
/// but itself.
const LAYERS: &[&[&str]] = &[
    // The minor codes (a re-export of `rtorb_giop::minor`); locks and
    // stage timing: no other module.
    &["minor", "sync", "whitebox"],
    // What generated code calls: stubs, skeletons, exceptions, values.
    &["runtime", "rt"],
    // Pluggable transports; code-set negotiation; the re-exports (of
    // `runtime`) that generated code reaches everything through.
    &["transport", "codesets", "codegen"],
    // The object adapters: the POA and the table of plain keys. The
    // CosNaming stubs (generated code) and corbaname resolution.
    &["poa", "naming"],
    // The ORB: client and server sides, configuration.
    &["orb"],
];

/// Code generated at build time and included into a module of `src/`,
/// checked as part of it: (module, file under `$OUT_DIR`).
const GENERATED: &[(&str, &str)] = &[("naming", "CosNaming.rs")];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of the file at `relative` (under `src/`):
/// `poa/table.rs` is `poa::table`, `poa/mod.rs` is `poa`, `lib.rs` the
/// crate root.
fn module_path(relative: &Path) -> Vec<String> {
    let mut path: Vec<String> = relative
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let file = path.pop().unwrap_or_default();
    let stem = file.strip_suffix(".rs").unwrap_or(&file);
    if stem != "mod" && stem != "lib" && stem != "main" {
        path.push(stem.to_owned());
    }
    path
}

/// A token of Rust source, with its line; comments, literals and
/// lifetimes are left out.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    PathSep,
    Open,
    Close,
    Comma,
    Other,
}

/// Skips a string body from `i` (just after its opening quote) to just
/// after the closing quote with `hashes` `#`s; a plain string honours
/// backslash escapes, a raw one does not.
fn skip_string(chars: &[char], mut i: usize, hashes: usize, raw: bool, line: &mut usize) -> usize {
    while i < chars.len() {
        match chars[i] {
            '\\' if !raw => i += 2,
            '"' if chars[i + 1..]
                .iter()
                .take(hashes)
                .filter(|c| **c == '#')
                .count()
                == hashes =>
            {
                return i + 1 + hashes;
            }
            c => {
                if c == '\n' {
                    *line += 1;
                }
                i += 1;
            }
        }
    }
    i
}

/// Keywords that may stand before a path starting with `::`
/// (`&mut ::rtorb::x`, `dyn ::rtorb::X`), which is then no segment of a
/// longer path.
const KEYWORDS: &[&str] = &[
    "as", "const", "dyn", "else", "for", "if", "impl", "in", "let", "match", "mut", "pub", "ref",
    "return", "static", "type", "use", "where", "while",
];

fn tokens(text: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let ident_char = |c: char| c.is_alphanumeric() || c == '_';
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            '/' if next == Some('/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if next == Some('*') => {
                let mut depth = 0;
                while i < chars.len() {
                    if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                        depth += 1;
                        i += 2;
                    } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if chars[i] == '\n' {
                            line += 1;
                        }
                        i += 1;
                    }
                }
            }
            '"' => i = skip_string(&chars, i + 1, 0, false, &mut line),
            '\'' => {
                // A char literal ('x', '\n', '\u{1F600}'), or a lifetime.
                if next == Some('\\') {
                    // The backslash and the escaped character, then up to
                    // the closing quote.
                    i += 3;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else if chars.get(i + 2) == Some(&'\'') {
                    i += 3;
                } else {
                    i += 1;
                    while i < chars.len() && ident_char(chars[i]) {
                        i += 1;
                    }
                }
            }
            ':' if next == Some(':') => {
                out.push((Token::PathSep, line));
                i += 2;
            }
            '{' => {
                out.push((Token::Open, line));
                i += 1;
            }
            '}' => {
                out.push((Token::Close, line));
                i += 1;
            }
            ',' => {
                out.push((Token::Comma, line));
                i += 1;
            }
            c if ident_char(c) => {
                let start = i;
                while i < chars.len() && ident_char(chars[i]) {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                // String literals with a prefix: b"", r"", br#""#, c"".
                let prefix = matches!(word.as_str(), "b" | "r" | "br" | "c" | "cr");
                if prefix && matches!(chars.get(i), Some('"') | Some('#')) {
                    let raw = word.contains('r');
                    let mut hashes = 0;
                    while chars.get(i + hashes) == Some(&'#') {
                        hashes += 1;
                    }
                    if chars.get(i + hashes) == Some(&'"') {
                        i = skip_string(&chars, i + hashes + 1, hashes, raw, &mut line);
                        continue;
                    }
                    if word == "r" && hashes == 1 {
                        // A raw identifier, r#type.
                        i += 1;
                        continue;
                    }
                }
                if word == "b" && chars.get(i) == Some(&'\'') {
                    // A byte literal: the quote is taken as a char's next.
                    continue;
                }
                out.push((Token::Ident(word), line));
            }
            c if c.is_whitespace() => i += 1,
            _ => {
                out.push((Token::Other, line));
                i += 1;
            }
        }
    }
    out
}

/// The top-level modules that the items of a `{ .. }` group starting at
/// `tokens[at]` (the `{`) begin with, e.g. `orb` and `poa` for
/// `{orb::Orb, poa::{Poa, Policy}}`.
fn group_heads(tokens: &[(Token, usize)], at: usize) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut item_start = true;
    for (t, _) in &tokens[at..] {
        match t {
            Token::Open => {
                depth += 1;
                if depth == 1 {
                    item_start = true;
                }
            }
            Token::Close => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            Token::Comma if depth == 1 => item_start = true,
            Token::Ident(name) if depth == 1 && item_start => {
                if name != "self" {
                    heads.push(name.clone());
                }
                item_start = false;
            }
            _ => item_start = false,
        }
    }
    heads
}

/// Every top-level module that the file of module `module` names through
/// a `crate::` or `super::` path (in a `use` or anywhere else), with the
/// line it is named on.
fn named_modules(module: &[String], text: &str) -> Vec<(String, usize)> {
    let tokens = tokens(text);
    let mut found = Vec::new();
    // Inline modules (`mod tests { .. }`): their names and the brace
    // depth inside them.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        let (token, line) = &tokens[i];
        match token {
            Token::Open => depth += 1,
            Token::Close => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth -= 1;
            }
            Token::Ident(word) if word == "mod" => {
                if let (Some((Token::Ident(name), _)), Some((Token::Open, _))) =
                    (tokens.get(i + 1), tokens.get(i + 2))
                {
                    inline.push((name.clone(), depth + 1));
                }
            }
            // `rtorb::x` and `::rtorb::x`: the crate itself (`extern crate
            // self as rtorb`), as generated code names it.
            Token::Ident(word)
                if word == "rtorb"
                    && tokens.get(i + 1).is_some_and(|(t, _)| *t == Token::PathSep)
                    && !(i >= 2
                        && tokens[i - 1].0 == Token::PathSep
                        && matches!(&tokens[i - 2].0, Token::Ident(w) if !KEYWORDS.contains(&w.as_str()))) =>
            {
                match tokens.get(i + 2) {
                    Some((Token::Ident(name), _)) => found.push((name.clone(), *line)),
                    Some((Token::Open, _)) => {
                        found.extend(group_heads(&tokens, i + 2).into_iter().map(|n| (n, *line)))
                    }
                    _ => {}
                }
                i += 2;
                continue;
            }
            Token::Ident(word)
                if (word == "crate" || word == "super")
                    && tokens.get(i + 1).is_some_and(|(t, _)| *t == Token::PathSep)
                    && (i == 0 || tokens[i - 1].0 != Token::PathSep) =>
            {
                let mut here: Vec<String> = module.to_vec();
                here.extend(inline.iter().map(|(n, _)| n.clone()));
                let mut j = i;
                // Resolve `crate`, `super` and `self` segments.
                loop {
                    match &tokens[j].0 {
                        Token::Ident(w) if w == "crate" => here.clear(),
                        Token::Ident(w) if w == "super" => {
                            here.pop();
                        }
                        Token::Ident(w) if w == "self" => {}
                        _ => break,
                    }
                    if tokens.get(j + 1).is_some_and(|(t, _)| *t == Token::PathSep) {
                        j += 2;
                    } else {
                        j += 1;
                        break;
                    }
                }
                if let Some(top) = here.first() {
                    found.push((top.clone(), *line));
                } else {
                    match tokens.get(j) {
                        Some((Token::Ident(name), _)) => found.push((name.clone(), *line)),
                        Some((Token::Open, _)) => {
                            found.extend(group_heads(&tokens, j).into_iter().map(|n| (n, *line)))
                        }
                        _ => {}
                    }
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

fn names(module: &str, text: &str) -> Vec<String> {
    let module: Vec<String> = module
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    named_modules(&module, text)
        .into_iter()
        .map(|(m, _)| m)
        .collect()
}

#[test]
fn the_scanner_finds_paths_to_modules() {
    assert_eq!(
        names("poa::table", "use crate::orb::server::Entry;"),
        ["orb"]
    );
    assert_eq!(
        names("poa", "use crate::{orb::Orb, runtime::{Object, Stub}};"),
        ["orb", "runtime"]
    );
    assert_eq!(
        names("poa::table", "let c = crate::orb::codesets::x(v);"),
        ["orb"]
    );
    assert_eq!(names("poa::table", "use super::super::orb::Orb;"), ["orb"]);
    assert_eq!(names("poa", "use super::orb::Orb;"), ["orb"]);
    assert_eq!(
        names("poa::table", "use super::key::{self, SlotRef};"),
        ["poa"]
    );
    assert_eq!(
        names("poa", "use crate::{self as rt};"),
        Vec::<String>::new()
    );
    // Generated code names the crate as `::rtorb`.
    assert_eq!(
        names("naming", "fn f(e: &mut ::rtorb::codegen::Encoder) {}"),
        ["codegen"]
    );
    assert_eq!(
        names("naming", "let o = <X as ::rtorb::runtime::Stub>::f();"),
        ["runtime"]
    );
    assert_eq!(
        names("naming", "use rtorb::{orb::Orb, poa};"),
        ["orb", "poa"]
    );
    assert_eq!(
        names("naming", "use other::rtorb::orb; let x = rtorb_giop::a::b;"),
        Vec::<String>::new()
    );
}

#[test]
fn the_scanner_skips_comments_literals_and_visibility() {
    let quiet = [
        "// crate::orb::Orb",
        "/// [`crate::orb::Orb`]",
        "//! see crate::orb",
        "/* crate::orb /* nested */ crate::orb */",
        r#"let s = "crate::orb::Orb";"#,
        r##"let s = r#"crate::orb " "#;"##,
        r#"let s = b"crate::orb";"#,
        "let c = '\"'; let d = b'x'; let e = '\\''; let f = '{';",
        "pub(crate) fn f() {}",
        "pub(super) struct S;",
        "fn f<'a>(s: &'a str) -> &'a str { s }",
    ];
    for text in quiet {
        assert!(names("poa", text).is_empty(), "{text}");
    }
    // What follows a literal or lifetime is still read.
    assert_eq!(
        names("poa", "let s = \"x\"; fn f<'a>() {} use crate::orb;"),
        ["orb"]
    );
}

#[test]
fn the_scanner_resolves_super_in_inline_modules() {
    let text =
        "mod tests {\n    use super::*;\n    use super::super::orb::Orb;\n}\nuse crate::runtime;";
    assert_eq!(
        named_modules(&["poa".to_owned(), "table".to_owned()], text),
        [
            ("poa".to_owned(), 2),
            ("poa".to_owned(), 3),
            ("runtime".to_owned(), 5)
        ]
    );
}

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(files.len() > 10, "{files:?}");
    let mut unplaced = Vec::new();
    let mut offenders = Vec::new();
    // Each file with the module it is part of and the name it is shown by.
    let mut sources: Vec<(Vec<String>, PathBuf, String)> = files
        .iter()
        .map(|f| {
            let relative = f.strip_prefix(&src).unwrap();
            let shown = format!("src/{}", relative.display());
            (module_path(relative), f.clone(), shown)
        })
        .collect();
    let out_dir = Path::new(env!("OUT_DIR"));
    for (module, file) in GENERATED {
        sources.push((
            vec![(*module).to_owned()],
            out_dir.join(file),
            format!("$OUT_DIR/{file}"),
        ));
    }
    for (module, f, shown) in &sources {
        let Some(top) = module.first() else {
            // The crate root declares the modules.
            continue;
        };
        let Some(layer) = layer_of(top) else {
            if !unplaced.contains(top) {
                unplaced.push(top.clone());
            }
            continue;
        };
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{shown}: {e}"));
        for (named, line) in named_modules(module, &text) {
            if named == *top {
                continue;
            }
            let ok = layer_of(&named).is_some_and(|l| l < layer);
            if !ok {
                offenders.push(format!("{shown}:{line}: `{top}` names `{named}`"));
            }
        }
    }
    assert!(
        unplaced.is_empty(),
        "top-level modules without a layer (add them to LAYERS here and to the \
         diagram in the crate docs of src/lib.rs): {unplaced:?}"
    );
    assert!(
        offenders.is_empty(),
        "imports against the module layering (a module uses only the layers \
         below it: {LAYERS:?}):\n{}",
        offenders.join("\n")
    );
}
