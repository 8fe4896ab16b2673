//! Physical and logical lines, and the preprocessing tokens of a line.

use std::sync::Arc;

/// What a preprocessing token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// An identifier (or keyword).
    Ident,
    /// A preprocessing number: digits, letters, dots and signed exponents.
    Number,
    /// A string literal, possibly `L`-prefixed, possibly unterminated.
    Str,
    /// A character literal, possibly `L`-prefixed, possibly unterminated.
    Char,
    /// An operator or punctuator.
    Punct,
    /// A run of horizontal white space.
    Space,
    /// A comment, or the part of a block comment on this line.
    Comment,
    /// Any other character.
    Other,
}

/// A preprocessing token, with the macros that may no longer expand in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Tok {
    /// The kind.
    pub(super) kind: Kind,
    /// The spelling.
    pub(super) text: String,
    /// Column (from 1, in characters) in the logical line it came from.
    pub(super) col: u32,
    /// Names of the macros whose expansion produced this token.
    pub(super) hide: Vec<Arc<str>>,
}

impl Tok {
    /// A token without a hide set.
    pub(super) fn new(kind: Kind, text: impl Into<String>, col: u32) -> Tok {
        Tok {
            kind,
            text: text.into(),
            col,
            hide: Vec::new(),
        }
    }

    /// Whether this is white space or a comment.
    pub(super) fn is_blank(&self) -> bool {
        matches!(self.kind, Kind::Space | Kind::Comment)
    }

    /// Whether this is the punctuator `p`.
    pub(super) fn is_punct(&self, p: &str) -> bool {
        self.kind == Kind::Punct && self.text == p
    }
}

/// A logical line: physical lines joined at backslash-newline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct LogicalLine {
    /// The first physical line (from 1).
    pub(super) first: u32,
    /// How many physical lines were joined (at least 1).
    pub(super) count: u32,
    /// The joined text, without the backslash-newlines.
    pub(super) text: String,
}

/// Splits `text` into logical lines. A final line without a newline still
/// counts; a `\r` before a newline is dropped.
pub(super) fn logical_lines(text: &str) -> Vec<LogicalLine> {
    let mut physical: Vec<&str> = text.split('\n').collect();
    if text.is_empty() || text.ends_with('\n') {
        physical.pop();
    }
    let mut lines = Vec::new();
    let mut current: Option<LogicalLine> = None;
    for (index, raw) in physical.iter().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let (body, continued) = match line.strip_suffix('\\') {
            Some(body) => (body, true),
            None => (line, false),
        };
        let logical = current.get_or_insert_with(|| LogicalLine {
            first: number,
            count: 0,
            text: String::new(),
        });
        logical.count += 1;
        logical.text.push_str(body);
        if !continued {
            lines.extend(current.take());
        }
    }
    lines.extend(current.take());
    lines
}

/// Punctuators of more than one character that the preprocessor must see
/// as one token (longest first).
const MULTI_PUNCT: [&str; 12] = [
    "...", "##", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "::", "->",
];

/// Splits one logical line into tokens. `in_comment` says whether the line
/// starts inside a block comment; the second result says whether it ends
/// inside one.
pub(super) fn lex(line: &str, in_comment: bool) -> (Vec<Tok>, bool) {
    let chars: Vec<char> = line.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    let mut open_comment = in_comment;
    let col = |i: usize| u32::try_from(i + 1).unwrap_or(u32::MAX);
    let text = |from: usize, to: usize| chars[from..to].iter().collect::<String>();
    while i < chars.len() {
        let start = i;
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let kind = if open_comment {
            let (end, closed) = block_comment_end(&chars, i);
            i = end;
            open_comment = !closed;
            Kind::Comment
        } else if c == '/' && next == Some('*') {
            let (end, closed) = block_comment_end(&chars, i + 2);
            i = end;
            open_comment = !closed;
            Kind::Comment
        } else if c == '/' && next == Some('/') {
            i = chars.len();
            Kind::Comment
        } else if matches!(c, ' ' | '\t' | '\x0b' | '\x0c' | '\r') {
            while i < chars.len() && matches!(chars[i], ' ' | '\t' | '\x0b' | '\x0c' | '\r') {
                i += 1;
            }
            Kind::Space
        } else if c == 'L' && matches!(next, Some('"' | '\'')) {
            let quote = chars[i + 1];
            i = literal_end(&chars, i + 1, quote);
            if quote == '"' { Kind::Str } else { Kind::Char }
        } else if c.is_ascii_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            Kind::Ident
        } else if c.is_ascii_digit() || (c == '.' && next.is_some_and(|n| n.is_ascii_digit())) {
            i += 1;
            while i < chars.len() {
                let d = chars[i];
                if matches!(d, 'e' | 'E' | 'p' | 'P') && matches!(chars.get(i + 1), Some('+' | '-'))
                {
                    i += 2;
                } else if d.is_ascii_alphanumeric() || d == '_' || d == '.' {
                    i += 1;
                } else {
                    break;
                }
            }
            Kind::Number
        } else if c == '"' || c == '\'' {
            i = literal_end(&chars, i, c);
            if c == '"' { Kind::Str } else { Kind::Char }
        } else if c.is_ascii_punctuation() {
            let rest = &chars[i..];
            let len = MULTI_PUNCT
                .iter()
                .find(|p| p.len() <= rest.len() && p.chars().zip(rest.iter()).all(|(a, b)| a == *b))
                .map_or(1, |p| p.len());
            i += len;
            Kind::Punct
        } else {
            i += 1;
            Kind::Other
        };
        toks.push(Tok::new(kind, text(start, i), col(start)));
    }
    (toks, open_comment)
}

/// The index just past the `*/` that closes a block comment whose body
/// starts at `from` (and `true`), or the end of the line (and `false`).
fn block_comment_end(chars: &[char], from: usize) -> (usize, bool) {
    let mut i = from;
    while i + 1 < chars.len() {
        if chars[i] == '*' && chars[i + 1] == '/' {
            return (i + 2, true);
        }
        i += 1;
    }
    (chars.len(), false)
}

/// The index just past a string or character literal that opens with the
/// quote at `from`; an unterminated literal runs to the end of the line.
fn literal_end(chars: &[char], from: usize, quote: char) -> usize {
    let mut i = from + 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    chars.len()
}

/// The text of a token sequence.
pub(super) fn spell(toks: &[Tok]) -> String {
    toks.iter().map(|t| t.text.as_str()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &str) -> Vec<(Kind, String)> {
        lex(line, false)
            .0
            .into_iter()
            .map(|t| (t.kind, t.text))
            .collect()
    }

    #[test]
    fn logical_lines_join_continuations() {
        let lines = logical_lines("a\\\nb\nc\r\nd");
        assert_eq!(lines.len(), 3);
        assert_eq!(
            (lines[0].first, lines[0].count, lines[0].text.as_str()),
            (1, 2, "ab")
        );
        assert_eq!(
            (lines[1].first, lines[1].count, lines[1].text.as_str()),
            (3, 1, "c")
        );
        assert_eq!(
            (lines[2].first, lines[2].count, lines[2].text.as_str()),
            (4, 1, "d")
        );
        assert!(logical_lines("").is_empty());
        assert_eq!(logical_lines("\n").len(), 1);
    }

    #[test]
    fn comments_and_literals() {
        assert_eq!(
            kinds("a/*x*/\"/*\"'c'//z"),
            vec![
                (Kind::Ident, "a".into()),
                (Kind::Comment, "/*x*/".into()),
                (Kind::Str, "\"/*\"".into()),
                (Kind::Char, "'c'".into()),
                (Kind::Comment, "//z".into()),
            ]
        );
        let (toks, open) = lex("x /* open", false);
        assert!(open);
        assert_eq!(toks.len(), 3);
        let (toks, open) = lex("still */ y", true);
        assert!(!open);
        assert_eq!(toks[0].text, "still */");
        assert!(lex("/*/", false).1);
        assert!(!lex("/**/", false).1);
        assert!(!lex("*/", true).1);
        assert!(lex("/", true).1);
    }

    #[test]
    fn numbers_and_punctuators() {
        assert_eq!(
            kinds("0x1Fu<<1e+5##..."),
            vec![
                (Kind::Number, "0x1Fu".into()),
                (Kind::Punct, "<<".into()),
                (Kind::Number, "1e+5".into()),
                (Kind::Punct, "##".into()),
                (Kind::Punct, "...".into()),
            ]
        );
        assert_eq!(kinds("L'x'")[0].0, Kind::Char);
        assert_eq!(kinds("L\"x\"")[0].0, Kind::Str);
    }
}
