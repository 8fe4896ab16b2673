//! Which top-level modules a file names, for the tests that check a
//! crate's modules depend one way (`crates/rtorb/tests/module_layering.rs`).

use super::tokens::{KEYWORDS, Token, tokens};

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

/// Whether `tokens[i]`, an identifier followed by `::`, starts a path:
/// not a later segment of one, except after a leading `::` that follows
/// a keyword or punctuation (`&mut ::rtorb::x`).
fn starts_path(tokens: &[(Token, usize)], i: usize) -> bool {
    !(i >= 2
        && tokens[i - 1].0 == Token::PathSep
        && matches!(&tokens[i - 2].0, Token::Ident(w) if !KEYWORDS.contains(&w.as_str())))
}

/// Where a `crate::`, `self::` or `super::` path starting at `tokens[i]`
/// leads from module `here`: the module it names and the index of the
/// token after its last `crate`, `self` or `super` segment.
fn resolve_relative(
    tokens: &[(Token, usize)],
    i: usize,
    mut here: Vec<String>,
) -> (Vec<String>, usize) {
    let mut j = i;
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
    (here, j)
}

/// The top-level modules named by the path segment or group at
/// `tokens[j]`, each with `line`.
fn heads_at(tokens: &[(Token, usize)], j: usize, line: usize) -> Vec<(String, usize)> {
    match tokens.get(j) {
        Some((Token::Ident(name), _)) => vec![(name.clone(), line)],
        Some((Token::Open, _)) => group_heads(tokens, j)
            .into_iter()
            .map(|n| (n, line))
            .collect(),
        _ => Vec::new(),
    }
}

/// Every top-level module that the file of module `module` names through
/// a `crate::` or `super::` path (in a `use` or anywhere else), with the
/// line it is named on. `crate_name::` and `::crate_name::` name the
/// crate itself too (`extern crate self as rtorb`, as generated code
/// names it).
pub fn named_modules(crate_name: &str, module: &[String], text: &str) -> Vec<(String, usize)> {
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
            Token::Ident(word)
                if word == crate_name
                    && tokens.get(i + 1).is_some_and(|(t, _)| *t == Token::PathSep)
                    && starts_path(&tokens, i) =>
            {
                found.extend(heads_at(&tokens, i + 2, *line));
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
                let (here, j) = resolve_relative(&tokens, i, here);
                match here.first() {
                    Some(top) => found.push((top.clone(), *line)),
                    None => found.extend(heads_at(&tokens, j, *line)),
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
