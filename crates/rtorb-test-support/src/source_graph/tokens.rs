//! Cutting Rust source into the tokens the scanners read: identifiers,
//! `::`, braces, commas and single punctuation characters. Comments,
//! string and character literals and lifetimes are left out, so that
//! documentation and text never read as code.

/// A token of Rust source; comments, literals and lifetimes are left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// An identifier or keyword (also a number, which is harmless).
    Ident(String),
    /// `::`.
    PathSep,
    /// `{`.
    Open,
    /// `}`.
    Close,
    /// `,`.
    Comma,
    /// Any other character that is not white space (`;`, `(`, `#`, `*`, ...).
    Punct(char),
}

/// Keywords that may stand before a path starting with `::`
/// (`&mut ::rtorb::x`, `dyn ::rtorb::X`), which is then no segment of a
/// longer path.
pub(super) const KEYWORDS: &[&str] = &[
    "as", "const", "dyn", "else", "for", "if", "impl", "in", "let", "match", "mut", "pub", "ref",
    "return", "static", "type", "use", "where", "while",
];

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

/// Skips a block comment from `i` (its `/*`), nested ones included.
fn skip_block_comment(chars: &[char], mut i: usize, line: &mut usize) -> usize {
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
                *line += 1;
            }
            i += 1;
        }
    }
    i
}

/// Skips a char literal ('x', '\n', '\u{1F600}') or a lifetime from `i`
/// (its quote).
fn skip_quote(chars: &[char], mut i: usize) -> usize {
    let ident_char = |c: char| c.is_alphanumeric() || c == '_';
    if chars.get(i + 1) == Some(&'\\') {
        // The backslash and the escaped character, then up to the
        // closing quote.
        i += 3;
        while i < chars.len() && chars[i] != '\'' {
            i += 1;
        }
        i + 1
    } else if chars.get(i + 2) == Some(&'\'') {
        i + 3
    } else {
        i += 1;
        while i < chars.len() && ident_char(chars[i]) {
            i += 1;
        }
        i
    }
}

/// The tokens of `text`, each with its line (from 1).
pub fn tokens(text: &str) -> Vec<(Token, usize)> {
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
            '/' if next == Some('*') => i = skip_block_comment(&chars, i, &mut line),
            '"' => i = skip_string(&chars, i + 1, 0, false, &mut line),
            '\'' => i = skip_quote(&chars, i),
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
            c => {
                out.push((Token::Punct(c), line));
                i += 1;
            }
        }
    }
    out
}
