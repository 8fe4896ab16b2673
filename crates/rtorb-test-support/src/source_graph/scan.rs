//! What one source file declares and names, for the import graph: its
//! `mod` declarations, the items it defines, its `use` items and the
//! paths its code names. Items under `#[cfg(test)]` are left out: a test
//! module may use what it tests from anywhere.

use super::tokens::{KEYWORDS, Token, tokens};

/// What a `use` leaf brings into scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Binding {
    /// One name (the last segment, or what `as` gives).
    Name(String),
    /// Every public name of the module (`::*`).
    Glob,
    /// Nothing (`as _`).
    Nothing,
}

/// One leaf of a `use` tree: `use a::{b, c::d as e}` has two.
#[derive(Debug, Clone)]
pub(super) struct UseLeaf {
    /// The inline modules around the `use`, inside the file.
    pub(super) scope: Vec<String>,
    /// The path as written; a leading `::` is the segment `"::"`.
    pub(super) path: Vec<String>,
    /// What it brings into scope.
    pub(super) binding: Binding,
    /// Whether the `use` is public in some way (`pub`, `pub(crate)`): a
    /// re-export, which is not by itself a dependency of the file.
    pub(super) reexport: bool,
    /// The line of the `use`.
    pub(super) line: usize,
}

/// A path named in code (not in a `use`), perhaps of one segment.
#[derive(Debug, Clone)]
pub(super) struct PathRef {
    /// The inline modules around it, inside the file.
    pub(super) scope: Vec<String>,
    /// Its segments, up to a generic argument list or its end.
    pub(super) path: Vec<String>,
    /// Its line.
    pub(super) line: usize,
}

/// What a file declares and names.
#[derive(Debug, Default)]
pub(super) struct FileScan {
    /// The crate root's second name, given or found here (`extern crate
    /// self as NAME`).
    pub(super) crate_alias: Option<String>,
    /// The whole file is `#![cfg(test)]`.
    pub(super) test_only: bool,
    /// Modules declared with `mod NAME;` (scope, name), not under
    /// `#[cfg(test)]`.
    pub(super) mods: Vec<(Vec<String>, String)>,
    /// Modules declared with `mod NAME;` under `#[cfg(test)]` (scope,
    /// name): files of tests, not of the crate's code.
    pub(super) test_mods: Vec<(Vec<String>, String)>,
    /// Inline modules, `mod NAME { .. }` (scope inside them).
    pub(super) inline_mods: Vec<Vec<String>>,
    /// Items defined at module level (scope, name).
    pub(super) defs: Vec<(Vec<String>, String)>,
    /// The leaves of every `use`.
    pub(super) uses: Vec<UseLeaf>,
    /// Paths that may name another file: those starting with `crate`,
    /// `super`, `self` or the crate's alias, or with a name that a `use`
    /// or `mod` of the file brings into scope.
    pub(super) refs: Vec<PathRef>,
}

/// Keywords that introduce a named item at module level.
const ITEMS: &[&str] = &[
    "fn", "struct", "enum", "union", "trait", "type", "const", "static",
];

/// A brace-delimited region the scanner is inside.
enum Scope {
    /// An inline module, by name.
    Module(String),
    /// Any other block: a function body, an impl, a struct, ...
    Block,
}

struct Scanner {
    toks: Vec<(Token, usize)>,
    i: usize,
    scopes: Vec<Scope>,
    out: FileScan,
}

/// Scans a file of a crate whose root is also called `crate_alias`
/// (`extern crate self as NAME` in the root).
pub(super) fn scan(text: &str, crate_alias: Option<&str>) -> FileScan {
    let mut s = Scanner {
        toks: tokens(text),
        i: 0,
        scopes: Vec::new(),
        out: FileScan {
            crate_alias: crate_alias.map(str::to_owned),
            ..FileScan::default()
        },
    };
    s.run();
    s.finish();
    s.out
}

impl Scanner {
    fn tok(&self, at: usize) -> Option<&Token> {
        self.toks.get(at).map(|(t, _)| t)
    }

    fn ident(&self, at: usize) -> Option<&str> {
        match self.tok(at) {
            Some(Token::Ident(w)) => Some(w),
            _ => None,
        }
    }

    fn is(&self, at: usize, t: &Token) -> bool {
        self.tok(at) == Some(t)
    }

    fn line(&self) -> usize {
        self.toks.get(self.i).map_or(0, |(_, l)| *l)
    }

    /// The inline modules around the current token.
    fn scope(&self) -> Vec<String> {
        self.scopes
            .iter()
            .filter_map(|s| match s {
                Scope::Module(n) => Some(n.clone()),
                Scope::Block => None,
            })
            .collect()
    }

    /// Whether the current token is at module level (in no block).
    fn at_module_level(&self) -> bool {
        matches!(self.scopes.last(), None | Some(Scope::Module(_)))
    }

    fn run(&mut self) {
        while self.i < self.toks.len() {
            match self.toks[self.i].0.clone() {
                Token::Punct('#') => self.attribute(),
                Token::Open => {
                    let inline = match (
                        self.ident(self.i.wrapping_sub(2)),
                        self.ident(self.i.wrapping_sub(1)),
                    ) {
                        (Some("mod"), Some(name)) if self.i >= 2 => Some(name.to_owned()),
                        _ => None,
                    };
                    match inline {
                        Some(name) => {
                            self.scopes.push(Scope::Module(name));
                            self.out.inline_mods.push(self.scope());
                        }
                        None => self.scopes.push(Scope::Block),
                    }
                    self.i += 1;
                }
                Token::Close => {
                    self.scopes.pop();
                    self.i += 1;
                }
                Token::Ident(w) => self.word(&w),
                _ => self.i += 1,
            }
        }
    }

    /// An attribute at `#`: an inner `#![cfg(test)]` marks the file, an
    /// outer `#[cfg(test)]` hides the item it is on.
    fn attribute(&mut self) {
        let inner = self.is(self.i + 1, &Token::Punct('!'));
        let open = self.i + 1 + usize::from(inner);
        if !self.is(open, &Token::Punct('[')) {
            self.i += 1;
            return;
        }
        let mut depth = 0usize;
        let mut end = open;
        while end < self.toks.len() {
            match self.toks[end].0 {
                Token::Punct('[') => depth += 1,
                Token::Punct(']') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            end += 1;
        }
        let cfg_test = end == open + 5
            && self.ident(open + 1) == Some("cfg")
            && self.is(open + 2, &Token::Punct('('))
            && self.ident(open + 3) == Some("test")
            && self.is(open + 4, &Token::Punct(')'));
        self.i = end + 1;
        if cfg_test && inner {
            self.out.test_only = true;
        } else if cfg_test {
            let at = self.item_start(self.i);
            if self.ident(at) == Some("mod")
                && let Some(name) = self.ident(at + 1).map(str::to_owned)
                && self.is(at + 2, &Token::Punct(';'))
            {
                self.out.test_mods.push((self.scope(), name));
            }
            self.skip_item();
        }
    }

    /// Where the item at `j` starts after its attributes and visibility.
    fn item_start(&self, mut j: usize) -> usize {
        loop {
            let group = if self.is(j, &Token::Punct('#')) && self.is(j + 1, &Token::Punct('[')) {
                Some((j + 1, '[', ']'))
            } else if self.ident(j) == Some("pub") && self.is(j + 1, &Token::Punct('(')) {
                Some((j + 1, '(', ')'))
            } else if self.ident(j) == Some("pub") {
                j += 1;
                continue;
            } else {
                None
            };
            let Some((open, o, c)) = group else {
                return j;
            };
            let mut depth = 0usize;
            j = open;
            while j < self.toks.len() {
                if self.is(j, &Token::Punct(o)) {
                    depth += 1;
                } else if self.is(j, &Token::Punct(c)) {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                j += 1;
            }
            j += 1;
        }
    }

    /// Skips the item (or statement, field, arm) that starts here: up to
    /// and with its `;` or `,` or its closing brace, or up to the brace
    /// that closes what contains it.
    fn skip_item(&mut self) {
        let mut depth = 0i32;
        while self.i < self.toks.len() {
            let t = self.toks[self.i].0.clone();
            match t {
                Token::Open | Token::Punct('(') | Token::Punct('[') => depth += 1,
                Token::Close | Token::Punct(')') | Token::Punct(']') => {
                    depth -= 1;
                    if depth < 0 {
                        return;
                    }
                    if depth == 0 && t == Token::Close {
                        self.i += 1;
                        return;
                    }
                }
                Token::Punct(';') | Token::Comma if depth == 0 => {
                    self.i += 1;
                    return;
                }
                _ => {}
            }
            self.i += 1;
        }
    }

    fn word(&mut self, w: &str) {
        match w {
            "mod" => {
                if let Some(name) = self.ident(self.i + 1).map(str::to_owned)
                    && self.is(self.i + 2, &Token::Punct(';'))
                {
                    self.out.mods.push((self.scope(), name));
                    self.i += 3;
                } else {
                    self.i += 1;
                }
            }
            "use" => self.use_item(),
            "extern" if self.ident(self.i + 1) == Some("crate") => {
                // extern crate self as NAME;
                if self.ident(self.i + 2) == Some("self") && self.ident(self.i + 3) == Some("as") {
                    self.out.crate_alias = self.ident(self.i + 4).map(str::to_owned);
                }
                self.i += 2;
            }
            "pub"
                if self.is(self.i + 1, &Token::Punct('('))
                    && self.ident(self.i + 2) == Some("in") =>
            {
                // pub(in path): a visibility, not a dependency.
                while self.i < self.toks.len() && !self.is(self.i, &Token::Punct(')')) {
                    self.i += 1;
                }
            }
            "macro_rules" if self.is(self.i + 1, &Token::Punct('!')) => {
                if let Some(name) = self.ident(self.i + 2).map(str::to_owned)
                    && self.at_module_level()
                {
                    self.out.defs.push((self.scope(), name));
                }
                self.i += 3;
            }
            w if ITEMS.contains(&w) && self.at_module_level() => match self.ident(self.i + 1) {
                Some(name) if !ITEMS.contains(&name) && name != "_" => {
                    let name = name.to_owned();
                    self.out.defs.push((self.scope(), name));
                    self.i += 2;
                }
                _ => self.i += 1,
            },
            _ => self.path(),
        }
    }

    /// A path in code starting at the current identifier, unless it
    /// continues one (`a::b`), is a field or method (`x.b`) or a macro
    /// variable (`$b`).
    fn path(&mut self) {
        let before = self.i.checked_sub(1).and_then(|b| self.tok(b));
        let leading_sep = before == Some(&Token::PathSep);
        let word = self.ident(self.i).unwrap_or_default().to_owned();
        let skip = match before {
            Some(Token::Punct('.')) => true,
            Some(Token::Punct('$')) => word != "crate",
            Some(Token::PathSep) => {
                // Only `::alias::` (the crate under its other name) after
                // a keyword or punctuation starts a path here.
                let prior = self.i.checked_sub(2).and_then(|b| self.tok(b));
                self.out.crate_alias.as_deref() != Some(word.as_str())
                    || matches!(prior, Some(Token::Ident(k)) if !KEYWORDS.contains(&k.as_str()))
            }
            _ => false,
        };
        let line = self.line();
        let mut path = vec![word];
        self.i += 1;
        while self.is(self.i, &Token::PathSep) {
            match self.ident(self.i + 1) {
                Some(w) => {
                    path.push(w.to_owned());
                    self.i += 2;
                }
                None => break,
            }
        }
        let lone_sep = leading_sep && path.len() < 2;
        if !skip && !lone_sep {
            let scope = self.scope();
            self.out.refs.push(PathRef { scope, path, line });
        }
    }

    /// Whether the `use` at `at` has a visibility before it.
    fn is_reexport(&self, at: usize) -> bool {
        match at.checked_sub(1).and_then(|b| self.tok(b)) {
            Some(Token::Ident(w)) => w == "pub",
            Some(Token::Punct(')')) => {
                let mut j = at - 1;
                while j > 0 && !self.is(j, &Token::Punct('(')) {
                    j -= 1;
                }
                j > 0 && self.ident(j - 1) == Some("pub")
            }
            _ => false,
        }
    }

    /// A `use` item: its leaves, then past its `;`.
    fn use_item(&mut self) {
        let reexport = self.is_reexport(self.i);
        let line = self.line();
        let scope = self.scope();
        self.i += 1;
        let mut leaves = Vec::new();
        let mut prefix = Vec::new();
        if self.is(self.i, &Token::PathSep) {
            prefix.push("::".to_owned());
            self.i += 1;
        }
        self.use_tree(prefix, &mut leaves);
        while self.i < self.toks.len() && !self.is(self.i, &Token::Punct(';')) {
            self.i += 1;
        }
        for (path, binding) in leaves {
            self.out.uses.push(UseLeaf {
                scope: scope.clone(),
                path,
                binding,
                reexport,
                line,
            });
        }
    }

    /// One use tree from the current token, after `prefix`.
    fn use_tree(&mut self, mut path: Vec<String>, leaves: &mut Vec<(Vec<String>, Binding)>) {
        loop {
            match self.tok(self.i).cloned() {
                Some(Token::Ident(w)) => {
                    path.push(w);
                    self.i += 1;
                    if self.is(self.i, &Token::PathSep) {
                        self.i += 1;
                    } else {
                        break;
                    }
                }
                Some(Token::Open) => {
                    self.i += 1;
                    while self.i < self.toks.len() && !self.is(self.i, &Token::Close) {
                        self.use_tree(path.clone(), leaves);
                        if self.is(self.i, &Token::Comma) {
                            self.i += 1;
                        }
                    }
                    self.i += 1;
                    return;
                }
                Some(Token::Punct('*')) => {
                    self.i += 1;
                    leaves.push((path, Binding::Glob));
                    return;
                }
                _ => return,
            }
        }
        if path.last().is_some_and(|s| s == "self") {
            path.pop();
        }
        let binding = if self.ident(self.i) == Some("as") {
            let name = self.ident(self.i + 1).unwrap_or("_").to_owned();
            self.i += 2;
            if name == "_" {
                Binding::Nothing
            } else {
                Binding::Name(name)
            }
        } else {
            match path.last() {
                Some(last) => Binding::Name(last.clone()),
                None => Binding::Nothing,
            }
        };
        leaves.push((path, binding));
    }

    /// Keeps the paths that may name another file of the crate.
    fn finish(&mut self) {
        let mut bound: Vec<&str> = self
            .out
            .uses
            .iter()
            .filter_map(|u| match &u.binding {
                Binding::Name(n) => Some(n.as_str()),
                _ => None,
            })
            .collect();
        let modules: Vec<&str> = self.out.mods.iter().map(|(_, n)| n.as_str()).collect();
        let inline: Vec<&str> = self
            .out
            .inline_mods
            .iter()
            .filter_map(|m| m.last().map(String::as_str))
            .collect();
        bound.extend(["crate", "super", "self"]);
        if let Some(alias) = &self.out.crate_alias {
            bound.push(alias);
        }
        let keep: Vec<bool> = self
            .out
            .refs
            .iter()
            .map(|r| {
                let first = r.path[0].as_str();
                let relative = matches!(first, "crate" | "super" | "self")
                    || self.out.crate_alias.as_deref() == Some(first);
                if relative {
                    r.path.len() > 1
                } else {
                    bound.contains(&first)
                        || (r.path.len() > 1
                            && (modules.contains(&first) || inline.contains(&first)))
                }
            })
            .collect();
        let mut keep = keep.into_iter();
        self.out.refs.retain(|_| keep.next().unwrap_or(false));
    }
}
