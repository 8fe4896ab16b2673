//! Running the preprocessor ([`Preprocessor::run_file`] and
//! [`Preprocessor::run_source`]): one run's files, directives,
//! conditionals and output.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::expr;
use super::lex::{Kind, Tok, lex, logical_lines, spell};
use super::macros::{Expander, Macro, parse_define};
use super::{LineOrigin, MAX_INCLUDE_DEPTH, Preprocessed, Preprocessor};
use crate::diag::{Diagnostic, Location, Severity};

impl Preprocessor {
    /// Preprocesses the file at `path`. Diagnostics name it as `path` is
    /// spelt, and included files as their search directory joined with
    /// the name in the `#include`.
    ///
    /// On failure, returns every diagnostic (errors, and the warnings
    /// among them) in the order they were found.
    pub fn run_file(&self, path: &Path) -> Result<Preprocessed, Vec<Diagnostic>> {
        Engine::new(self).run_file(path)
    }

    /// Preprocesses `text` as if it were the file `name` (quoted includes
    /// are searched for next to `name` first). Fails as
    /// [`run_file`](Preprocessor::run_file) does.
    pub fn run_source(&self, name: &str, text: &str) -> Result<Preprocessed, Vec<Diagnostic>> {
        Engine::new(self).run_source(name, text)
    }
}

/// Most `#include`s one run may process, and most lines it may produce:
/// bounds for files that include each other many times over.
const MAX_INCLUDES: usize = 20_000;
const MAX_OUTPUT_LINES: usize = 10_000_000;

/// Errors after which a run stops.
const MAX_ERRORS: usize = 100;

/// An open conditional group.
struct Cond {
    /// `if`, `ifdef` or `ifndef`, for "unterminated #if".
    kind: &'static str,
    /// Where it opened.
    location: Location,
    /// Whether the enclosing group is active.
    parent_active: bool,
    /// Whether some branch has been taken.
    taken: bool,
    /// Whether the current branch is active.
    active: bool,
    /// Whether `#else` was seen.
    seen_else: bool,
}

/// A file being read.
struct FileState {
    /// Its name in diagnostics and the line map (changed by `#line`).
    name: Arc<str>,
    /// Directory for quoted includes.
    dir: PathBuf,
    /// What `#pragma once` records.
    identity: Option<PathBuf>,
    /// Added to physical line numbers (changed by `#line`).
    line_delta: i64,
    conds: Vec<Cond>,
    depth: usize,
}

impl FileState {
    fn line(&self, physical: u32) -> u32 {
        let line = i64::from(physical) + self.line_delta;
        u32::try_from(line.max(1)).unwrap_or(u32::MAX)
    }

    fn location(&self, physical: u32, column: u32) -> Location {
        Location::new(self.name.clone(), self.line(physical), column)
    }

    fn active(&self) -> bool {
        self.conds.last().is_none_or(|c| c.active)
    }
}

/// The state of one run.
pub(super) struct Engine<'p> {
    pp: &'p Preprocessor,
    macros: HashMap<String, Macro>,
    text: String,
    line_map: Vec<LineOrigin>,
    files: Vec<Arc<str>>,
    once: HashSet<PathBuf>,
    diagnostics: Vec<Diagnostic>,
    includes: usize,
    /// Set when the run gives up: output too long, or too many errors.
    stopped: bool,
}

impl<'p> Engine<'p> {
    pub(super) fn new(pp: &'p Preprocessor) -> Engine<'p> {
        let mut engine = Engine {
            pp,
            macros: HashMap::new(),
            text: String::new(),
            line_map: Vec::new(),
            files: Vec::new(),
            once: HashSet::new(),
            diagnostics: Vec::new(),
            includes: 0,
            stopped: false,
        };
        engine.command_line();
        engine
    }

    /// Applies `-D` and `-U`, in order.
    fn command_line(&mut self) {
        let location = Location::new("<command line>", 1, 1);
        let mut builtin = vec![("__RTORB_IDL__".to_string(), Some("1".to_string()))];
        builtin.extend(self.pp.command_line.iter().cloned());
        for (name, value) in builtin {
            match value {
                Some(value) => {
                    let (toks, _) = lex(&format!("{name} {value}"), false);
                    match parse_define(&toks, location.clone()) {
                        Ok((name, m)) => {
                            self.macros.insert(name, m);
                        }
                        Err((message, _)) => {
                            self.error(location.clone(), format!("in -D{name}: {message}"))
                        }
                    }
                }
                None => {
                    self.macros.remove(name.trim());
                }
            }
        }
    }

    pub(super) fn run_file(mut self, path: &Path) -> Result<Preprocessed, Vec<Diagnostic>> {
        let name: Arc<str> = Arc::from(path.display().to_string());
        match self.read(path, &name, None) {
            Some(text) => {
                let identity = std::fs::canonicalize(path).ok();
                let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
                self.file(name, dir, identity, &text, 0);
            }
            None if !self.files.contains(&name) => self.files.push(name),
            None => {}
        }
        self.finish()
    }

    pub(super) fn run_source(
        mut self,
        name: &str,
        text: &str,
    ) -> Result<Preprocessed, Vec<Diagnostic>> {
        let name: Arc<str> = Arc::from(name);
        self.files.push(name.clone());
        let dir = Path::new(&*name)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        self.file(
            name,
            dir,
            None,
            text.strip_prefix('\u{feff}').unwrap_or(text),
            0,
        );
        self.finish()
    }

    fn finish(self) -> Result<Preprocessed, Vec<Diagnostic>> {
        if self
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
        {
            return Err(self.diagnostics);
        }
        Ok(Preprocessed {
            text: self.text,
            line_map: self.line_map,
            files: self.files,
            warnings: self.diagnostics,
        })
    }

    fn error(&mut self, location: Location, message: impl Into<String>) {
        if self.stopped {
            return;
        }
        let errors = self
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        if errors + 1 >= MAX_ERRORS {
            self.stopped = true;
            self.diagnostics.push(Diagnostic::error(
                location,
                format!("too many errors (more than {MAX_ERRORS}); stopping"),
            ));
            return;
        }
        self.diagnostics.push(Diagnostic::error(location, message));
    }

    fn warning(&mut self, location: Location, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::warning(location, message));
    }

    /// Reads a file as UTF-8 (without a byte order mark), recording it in
    /// `files`. Errors are reported at `at`, or in the file itself.
    fn read(&mut self, path: &Path, name: &Arc<str>, at: Option<&Location>) -> Option<String> {
        let at_file = at
            .cloned()
            .unwrap_or_else(|| Location::new(name.clone(), 1, 1));
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                self.error(at_file, format!("cannot read `{name}`: {e}"));
                return None;
            }
        };
        if !self.files.contains(name) {
            self.files.push(name.clone());
        }
        let bytes = bytes
            .strip_prefix(b"\xEF\xBB\xBF")
            .unwrap_or(&bytes)
            .to_vec();
        match String::from_utf8(bytes) {
            Ok(text) => Some(text),
            Err(e) => {
                let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
                let column = valid.iter().rev().take_while(|b| **b != b'\n').count() + 1;
                self.error(
                    Location::new(
                        name.clone(),
                        u32::try_from(line).unwrap_or(u32::MAX),
                        u32::try_from(column).unwrap_or(u32::MAX),
                    ),
                    format!("`{name}` is not valid UTF-8"),
                );
                None
            }
        }
    }

    fn emit(&mut self, text: &str, file: &FileState, physical: u32) {
        let origin = LineOrigin {
            file: file.name.clone(),
            line: file.line(physical),
        };
        self.emit_origin(text, origin, file, physical);
    }

    /// Appends an output line that came from `origin`.
    fn emit_origin(&mut self, text: &str, origin: LineOrigin, file: &FileState, physical: u32) {
        if self.line_map.len() >= MAX_OUTPUT_LINES {
            if !self.stopped {
                self.error(
                    file.location(physical, 1),
                    format!("output too long (more than {MAX_OUTPUT_LINES} lines)"),
                );
                self.stopped = true;
            }
            return;
        }
        self.text.push_str(text);
        self.text.push('\n');
        self.line_map.push(origin);
    }

    /// Preprocesses one file's text.
    fn file(
        &mut self,
        name: Arc<str>,
        dir: PathBuf,
        identity: Option<PathBuf>,
        text: &str,
        depth: usize,
    ) {
        let mut file = FileState {
            name,
            dir,
            identity,
            line_delta: 0,
            conds: Vec::new(),
            depth,
        };
        let mut in_comment = false;
        let mut comment_start: Option<Location> = None;
        for line in logical_lines(text) {
            if self.stopped {
                return;
            }
            let starts_in_comment = in_comment;
            let (toks, ends_in_comment) = lex(&line.text, in_comment);
            in_comment = ends_in_comment;
            if ends_in_comment && !starts_in_comment {
                let col = toks
                    .iter()
                    .rev()
                    .find(|t| t.kind == Kind::Comment)
                    .map_or(1, |t| t.col);
                comment_start = Some(file.location(line.first, col));
            }
            let first = toks.iter().position(|t| !t.is_blank());
            let directive = !starts_in_comment && first.is_some_and(|i| toks[i].is_punct("#"));
            let after_last = line.first.saturating_add(line.count);
            if let (true, Some(hash)) = (directive, first) {
                let origin = LineOrigin {
                    file: file.name.clone(),
                    line: file.line(line.first),
                };
                let output =
                    self.directive(&mut file, &toks, hash, &line.text, line.first, after_last);
                let output = match output {
                    Some(text) => text,
                    None if ends_in_comment && file.active() => "/*".to_string(),
                    None => String::new(),
                };
                self.emit_origin(&output, origin, &file, line.first);
            } else if file.active() {
                let mut expander = Expander::new(&self.macros);
                let output = if expander.needed(&toks) {
                    spell(&expander.expand(toks))
                } else {
                    line.text.clone()
                };
                let errors = std::mem::take(&mut expander.errors);
                for (message, col) in errors {
                    self.error(file.location(line.first, col), message);
                }
                self.emit(&output, &file, line.first);
            } else {
                self.emit("", &file, line.first);
            }
            for extra in 1..line.count {
                self.emit("", &file, line.first.saturating_add(extra));
            }
        }
        if in_comment {
            let at = comment_start.unwrap_or_else(|| file.location(1, 1));
            self.error(at, "unterminated comment");
        }
        for cond in std::mem::take(&mut file.conds).into_iter().rev() {
            self.error(cond.location, format!("unterminated #{}", cond.kind));
        }
    }

    /// Carries out a directive. Returns the output line for it, if it is
    /// not empty (`#pragma` lines pass through).
    fn directive(
        &mut self,
        file: &mut FileState,
        toks: &[Tok],
        hash: usize,
        raw: &str,
        physical: u32,
        next_physical: u32,
    ) -> Option<String> {
        let (at_name, at_line) = (file.name.clone(), file.line(physical));
        let at = |col: u32| Location::new(at_name.clone(), at_line, col);
        let hash_col = toks[hash].col;
        let name_index = (hash + 1..toks.len()).find(|&i| !toks[i].is_blank())?;
        let name_tok = &toks[name_index];
        let rest = &toks[name_index + 1..];
        let active = file.active();
        let directive = if name_tok.kind == Kind::Number {
            "line"
        } else {
            name_tok.text.as_str()
        };
        match directive {
            "if" | "ifdef" | "ifndef" => {
                let kind = match directive {
                    "if" => "if",
                    "ifdef" => "ifdef",
                    _ => "ifndef",
                };
                let value = active && self.condition(file, kind, rest, physical, name_tok.col);
                file.conds.push(Cond {
                    kind,
                    location: at(hash_col),
                    parent_active: active,
                    taken: value,
                    active: value,
                    seen_else: false,
                });
            }
            "elif" => {
                let Some(cond) = file.conds.last() else {
                    self.error(at(hash_col), "#elif without #if");
                    return None;
                };
                if cond.seen_else {
                    self.error(at(hash_col), "#elif after #else");
                }
                let evaluate = cond.parent_active && !cond.taken;
                let value = evaluate && self.condition(file, "elif", rest, physical, name_tok.col);
                if let Some(cond) = file.conds.last_mut() {
                    cond.active = value;
                    cond.taken |= value;
                }
            }
            "else" => {
                let Some(cond) = file.conds.last_mut() else {
                    self.error(at(hash_col), "#else without #if");
                    return None;
                };
                let seen = cond.seen_else;
                cond.active = cond.parent_active && !cond.taken;
                cond.taken = true;
                cond.seen_else = true;
                if seen {
                    self.error(at(hash_col), "#else after #else");
                }
                self.extra_tokens(file, "else", rest, physical);
            }
            "endif" => {
                if file.conds.pop().is_none() {
                    self.error(at(hash_col), "#endif without #if");
                    return None;
                }
                self.extra_tokens(file, "endif", rest, physical);
            }
            _ if !active => {}
            "define" => match parse_define(rest, at(name_tok.col)) {
                Ok((name, m)) => match self.macros.get(&name) {
                    Some(old) if old.same_as(&m) => {}
                    Some(old) => {
                        let note = old.location.clone();
                        self.diagnostics.push(
                            Diagnostic::warning(m.location.clone(), format!("`{name}` redefined"))
                                .with_note(note, "the previous definition is here"),
                        );
                        self.macros.insert(name, m);
                    }
                    None => {
                        self.macros.insert(name, m);
                    }
                },
                Err((message, col)) => self.error(at(col), message),
            },
            "undef" => {
                if let Some(name) = self.macro_name(file, "undef", rest, physical, name_tok.col) {
                    self.macros.remove(&name);
                }
            }
            "include" => self.include(file, rest, physical, name_tok.col),
            "pragma" => {
                let first = rest.iter().find(|t| !t.is_blank());
                if first.is_some_and(|t| t.kind == Kind::Ident && t.text == "once") {
                    if let Some(identity) = &file.identity {
                        self.once.insert(identity.clone());
                    }
                    return None;
                }
                return Some(raw.to_string());
            }
            "line" => {
                let operands = if name_tok.kind == Kind::Number {
                    &toks[name_index..]
                } else {
                    rest
                };
                self.line(file, operands, physical, next_physical, name_tok.col);
            }
            "error" | "warning" => {
                let text = spell(rest).trim().to_string();
                let message = format!("#{directive} {text}");
                if directive == "error" {
                    self.error(at(hash_col), message.trim_end());
                } else {
                    self.warning(at(hash_col), message.trim_end());
                }
            }
            other => {
                self.error(at(name_tok.col), format!("unknown directive `#{other}`"));
            }
        }
        None
    }

    /// Warns about tokens after a directive that takes none.
    fn extra_tokens(&mut self, file: &FileState, directive: &str, rest: &[Tok], physical: u32) {
        if let Some(t) = rest.iter().find(|t| !t.is_blank()) {
            let at = file.location(physical, t.col);
            self.warning(at, format!("extra tokens at end of #{directive} directive"));
        }
    }

    /// The macro name operand of `#ifdef`, `#ifndef` and `#undef`.
    fn macro_name(
        &mut self,
        file: &FileState,
        directive: &str,
        rest: &[Tok],
        physical: u32,
        col: u32,
    ) -> Option<String> {
        let mut operands = rest.iter().filter(|t| !t.is_blank());
        let Some(name) = operands.next() else {
            self.error(
                file.location(physical, col),
                format!("#{directive} without a macro name"),
            );
            return None;
        };
        if name.kind != Kind::Ident {
            self.error(
                file.location(physical, name.col),
                "macro names must be identifiers",
            );
            return None;
        }
        if let Some(extra) = operands.next() {
            let at = file.location(physical, extra.col);
            self.warning(at, format!("extra tokens at end of #{directive} directive"));
        }
        Some(name.text.clone())
    }

    /// Evaluates the condition of `#if`, `#elif`, `#ifdef` or `#ifndef`;
    /// errors count as false.
    fn condition(
        &mut self,
        file: &FileState,
        kind: &str,
        rest: &[Tok],
        physical: u32,
        col: u32,
    ) -> bool {
        match kind {
            "ifdef" | "ifndef" => {
                let Some(name) = self.macro_name(file, kind, rest, physical, col) else {
                    return false;
                };
                self.macros.contains_key(&name) == (kind == "ifdef")
            }
            _ => {
                let toks = match self.replace_defined(rest) {
                    Ok(toks) => toks,
                    Err((message, c)) => {
                        self.error(file.location(physical, c), message);
                        return false;
                    }
                };
                let mut expander = Expander::new(&self.macros);
                let expanded = expander.expand(toks);
                let errors = std::mem::take(&mut expander.errors);
                let failed = !errors.is_empty();
                for (message, c) in errors {
                    self.error(file.location(physical, c), message);
                }
                if failed {
                    return false;
                }
                let end = rest.last().map_or(col, |t| {
                    t.col
                        .saturating_add(u32::try_from(t.text.chars().count()).unwrap_or(u32::MAX))
                });
                match expr::evaluate(&expanded, end) {
                    Ok(value) => value,
                    Err((message, c)) => {
                        let message = if kind == "elif" {
                            message.replace("#if", "#elif")
                        } else {
                            message
                        };
                        self.error(file.location(physical, c), message);
                        false
                    }
                }
            }
        }
    }

    /// Replaces `defined X` and `defined(X)` with `1` or `0`.
    fn replace_defined(&self, toks: &[Tok]) -> Result<Vec<Tok>, (String, u32)> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            if !(t.kind == Kind::Ident && t.text == "defined") {
                out.push(t.clone());
                i += 1;
                continue;
            }
            let next = |from: usize| (from..toks.len()).find(|&j| !toks[j].is_blank());
            let missing = || ("`defined` without a macro name".to_string(), t.col);
            let mut j = next(i + 1).ok_or_else(missing)?;
            let parenthesised = toks[j].is_punct("(");
            if parenthesised {
                j = next(j + 1).ok_or_else(missing)?;
            }
            if toks[j].kind != Kind::Ident {
                return Err(missing());
            }
            let value = self.macros.contains_key(&toks[j].text);
            if parenthesised {
                let close = next(j + 1)
                    .filter(|&k| toks[k].is_punct(")"))
                    .ok_or_else(|| ("missing `)` after `defined`".to_string(), t.col))?;
                j = close;
            }
            out.push(Tok::new(Kind::Number, if value { "1" } else { "0" }, t.col));
            i = j + 1;
        }
        Ok(out)
    }

    /// `#line N` or `#line N "file"`.
    fn line(
        &mut self,
        file: &mut FileState,
        operands: &[Tok],
        physical: u32,
        next_physical: u32,
        col: u32,
    ) {
        let toks = if Expander::new(&self.macros).needed(operands) {
            Expander::new(&self.macros).expand(operands.to_vec())
        } else {
            operands.to_vec()
        };
        let mut toks = toks.iter().filter(|t| !t.is_blank());
        let number = toks
            .next()
            .filter(|t| t.kind == Kind::Number && t.text.bytes().all(|b| b.is_ascii_digit()));
        let Some(line) = number
            .and_then(|t| t.text.parse::<u32>().ok())
            .filter(|n| *n <= 2_147_483_647)
        else {
            self.error(
                file.location(physical, col),
                "#line needs a line number from 0 to 2147483647",
            );
            return;
        };
        let name = match toks.next() {
            None => None,
            Some(t)
                if t.kind == Kind::Str
                    && t.text.starts_with('"')
                    && t.text.len() >= 2
                    && t.text.ends_with('"') =>
            {
                Some(unescape(&t.text[1..t.text.len() - 1]))
            }
            Some(t) => {
                self.error(
                    file.location(physical, t.col),
                    format!("invalid file name `{}` in #line", t.text),
                );
                return;
            }
        };
        file.line_delta = i64::from(line) - i64::from(next_physical);
        if let Some(name) = name {
            file.name = Arc::from(name);
        }
    }

    /// `#include "file"` or `#include <file>`.
    fn include(&mut self, file: &FileState, rest: &[Tok], physical: u32, col: u32) {
        let at = file.location(physical, col);
        let expanded;
        let mut operand: &[Tok] = rest;
        // `"name"` and `<name>` are taken as written; anything else is
        // macro-expanded first (a computed include).
        let literal = rest
            .iter()
            .find(|t| !t.is_blank())
            .is_some_and(|t| t.is_punct("<") || (t.kind == Kind::Str && t.text.starts_with('"')));
        if !literal && Expander::new(&self.macros).needed(rest) {
            expanded = Expander::new(&self.macros).expand(rest.to_vec());
            operand = &expanded;
        }
        let text = spell(operand);
        let (Some(target), quoted, tail) = header_name(text.trim_start()) else {
            self.error(at, "#include expects \"FILENAME\" or <FILENAME>");
            return;
        };
        if target.is_empty() {
            self.error(at, "empty file name in #include");
            return;
        }
        let (tail_toks, _) = lex(tail, false);
        if tail_toks.iter().any(|t| !t.is_blank()) {
            self.warning(at.clone(), "extra tokens at end of #include directive");
        }
        let mut searched: Vec<&Path> = Vec::new();
        if quoted {
            searched.push(&file.dir);
        }
        searched.extend(self.pp.include_dirs.iter().map(PathBuf::as_path));
        let found = if Path::new(target).is_absolute() {
            Some(PathBuf::from(target)).filter(|p| p.is_file())
        } else {
            searched
                .iter()
                .map(|dir| dir.join(target))
                .find(|p| p.is_file())
        };
        let Some(path) = found else {
            let list: Vec<String> = searched
                .iter()
                .map(|d| {
                    if d.as_os_str().is_empty() {
                        ".".to_string()
                    } else {
                        d.display().to_string()
                    }
                })
                .collect();
            let list = if list.is_empty() {
                "no include paths".to_string()
            } else {
                list.join(", ")
            };
            self.error(
                at,
                format!("#include file `{target}` not found (searched: {list})"),
            );
            return;
        };
        let identity = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if self.once.contains(&identity) {
            return;
        }
        if file.depth + 1 > MAX_INCLUDE_DEPTH {
            self.error(
                at,
                format!("#include nested too deeply (more than {MAX_INCLUDE_DEPTH} levels) at `{target}`"),
            );
            self.stopped = true;
            return;
        }
        self.includes += 1;
        if self.includes > MAX_INCLUDES {
            self.error(
                at,
                format!("too many #include directives (more than {MAX_INCLUDES})"),
            );
            self.stopped = true;
            return;
        }
        let name: Arc<str> = Arc::from(path.display().to_string());
        let Some(text) = self.read(&path, &name, Some(&at)) else {
            return;
        };
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        self.file(name, dir, Some(identity), &text, file.depth + 1);
    }
}

/// Splits `"name"` or `<name>` off the front of `text`: the name, whether
/// it was quoted, and what follows.
fn header_name(text: &str) -> (Option<&str>, bool, &str) {
    let (close, quoted) = match text.chars().next() {
        Some('"') => ('"', true),
        Some('<') => ('>', false),
        _ => return (None, false, text),
    };
    let body = &text[1..];
    match body.find(close) {
        Some(end) => (Some(&body[..end]), quoted, &body[end + 1..]),
        None => (None, quoted, ""),
    }
}

/// Undoes `\\` and `\"` in a `#line` file name.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.extend(chars.next());
        } else {
            out.push(c);
        }
    }
    out
}
