//! `#pragma` lines and documentation comments as the lexer reads them.

use super::token::{is_ident_char, is_ident_start};
use crate::ast::{PragmaKind, ScopedName};
use crate::diag::Location;

/// Removes a trailing `//` comment from a pragma line (outside quotes).
pub(super) fn strip_line_comment(s: &str) -> &str {
    let mut in_string = false;
    let mut prev = '\0';
    for (i, c) in s.char_indices() {
        match c {
            '"' if prev != '\\' => in_string = !in_string,
            '/' if !in_string && s[i + 1..].starts_with('/') => return &s[..i],
            '/' if !in_string && s[i + 1..].starts_with('*') => return &s[..i],
            _ => {}
        }
        prev = c;
    }
    s
}

/// The text inside a `/** ... */` comment, without the leading `*` of
/// each line and without surrounding blank lines.
pub(super) fn clean_block_doc(text: &str) -> String {
    let body = text.strip_prefix('*').unwrap_or(text);
    let lines: Vec<&str> = body
        .lines()
        .map(|l| {
            let t = l.trim_start();
            let t = t.strip_prefix('*').unwrap_or(t);
            t.strip_prefix(' ').unwrap_or(t).trim_end()
        })
        .collect();
    let first = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let last = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(first, |i| i + 1);
    lines.get(first..last).unwrap_or(&[]).join("\n")
}

/// What is wrong with the arguments of a `#pragma` IDL defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(super) enum PragmaError {
    /// `#pragma prefix` without its string.
    #[error("expected a string after `#pragma prefix`")]
    PrefixString,
    /// `#pragma ID` without a scoped name.
    #[error("expected a scoped name after `#pragma ID`")]
    IdName,
    /// `#pragma ID NAME` without its string.
    #[error("expected a string after the name in `#pragma ID`")]
    IdString,
    /// `#pragma version` without a scoped name.
    #[error("expected a scoped name after `#pragma version`")]
    VersionName,
    /// `#pragma version NAME` without `<major>.<minor>`.
    #[error("expected `<major>.<minor>` after the name in `#pragma version`")]
    VersionNumbers,
    /// A version number that does not fit its type.
    #[error("version number out of range")]
    VersionRange,
}

/// Parses the arguments of `#pragma`: `Ok(None)` for a pragma IDL does
/// not define.
pub(super) fn parse_pragma(args: &str, at: &Location) -> Result<Option<PragmaKind>, PragmaError> {
    let (word, rest) = split_word(args);
    match word {
        "prefix" => {
            let prefix = quoted(rest).ok_or(PragmaError::PrefixString)?;
            Ok(Some(PragmaKind::Prefix(prefix)))
        }
        "ID" => {
            let (name, rest) = scoped_name(rest, at).ok_or(PragmaError::IdName)?;
            let id = quoted(rest).ok_or(PragmaError::IdString)?;
            Ok(Some(PragmaKind::Id { name, id }))
        }
        "version" => {
            let (name, rest) = scoped_name(rest, at).ok_or(PragmaError::VersionName)?;
            let (major, minor) = rest
                .trim()
                .split_once('.')
                .ok_or(PragmaError::VersionNumbers)?;
            let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            if !all_digits(major) || !all_digits(minor) {
                return Err(PragmaError::VersionNumbers);
            }
            let major = major.parse().map_err(|_| PragmaError::VersionRange)?;
            let minor = minor.parse().map_err(|_| PragmaError::VersionRange)?;
            Ok(Some(PragmaKind::Version { name, major, minor }))
        }
        _ => Ok(None),
    }
}

pub(super) fn split_word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    s.split_at(end)
}

/// A string literal that is all of `s` (simple escapes `\"` and `\\`
/// only).
pub(super) fn quoted(s: &str) -> Option<String> {
    let inner = s.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            '"' => return None,
            c => out.push(c),
        }
    }
    Some(out)
}

/// A scoped name at the start of `s`, and the rest.
pub(super) fn scoped_name<'a>(s: &'a str, at: &Location) -> Option<(ScopedName, &'a str)> {
    let s = s.trim_start();
    let end = s
        .find(|c: char| !(is_ident_char(c) || c == ':'))
        .unwrap_or(s.len());
    let (text, rest) = s.split_at(end);
    let (absolute, body) = match text.strip_prefix("::") {
        Some(b) => (true, b),
        None => (false, text),
    };
    let mut parts = Vec::new();
    for part in body.split("::") {
        let name = part.strip_prefix('_').unwrap_or(part);
        if !name.starts_with(is_ident_start) || name.contains(':') {
            return None;
        }
        parts.push(name.to_string());
    }
    Some((
        ScopedName {
            absolute,
            parts,
            location: at.clone(),
        },
        rest,
    ))
}
