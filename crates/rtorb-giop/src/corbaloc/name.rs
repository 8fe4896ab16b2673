//! Stringified CosNaming names (`a/b.kind/c`), as the fragment of a
//! `corbaname:` URL carries them.

use std::fmt;

/// One component of a CosNaming name (`CosNaming::NameComponent`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct NameComponent {
    /// The identifier.
    pub id: String,
    /// The kind (often empty).
    pub kind: String,
}

impl NameComponent {
    /// A component from its id and kind.
    pub fn new(id: impl Into<String>, kind: impl Into<String>) -> NameComponent {
        NameComponent {
            id: id.into(),
            kind: kind.into(),
        }
    }
}

/// Why a stringified name is invalid (`CosNaming::NamingContext::
/// InvalidName`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NameError {
    /// A component is empty (`a//b`, or a leading or trailing `/`).
    #[error("empty name component")]
    EmptyComponent,
    /// A component has more than one unescaped `.`.
    #[error("name component with more than one unescaped '.'")]
    TooManyDots,
    /// A `\` at the end of the string escapes nothing.
    #[error("name ends with an unfinished escape")]
    TrailingEscape,
}

/// Parses a stringified name: components separated by `/`, each `id` or
/// `id.kind`, `.` alone for empty id and kind, and `\` escaping `/`, `.`
/// and `\` (and, leniently, any other character). The empty string is the
/// empty name.
pub fn parse_name(s: &str) -> Result<Vec<NameComponent>, NameError> {
    let mut out = Vec::new();
    if s.is_empty() {
        return Ok(out);
    }
    let mut id = String::new();
    let mut kind = String::new();
    let mut in_kind = false;
    let mut seen_any = false;
    let mut chars = s.chars();
    // A lone "." is the component with empty id and kind; "" is not a
    // component at all.
    let finish = |id: &mut String, kind: &mut String, seen: bool| {
        if !seen {
            return Err(NameError::EmptyComponent);
        }
        Ok(NameComponent {
            id: std::mem::take(id),
            kind: std::mem::take(kind),
        })
    };
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let e = chars.next().ok_or(NameError::TrailingEscape)?;
                if in_kind {
                    kind.push(e)
                } else {
                    id.push(e)
                }
                seen_any = true;
            }
            '/' => {
                out.push(finish(&mut id, &mut kind, seen_any)?);
                in_kind = false;
                seen_any = false;
            }
            '.' => {
                if in_kind {
                    return Err(NameError::TooManyDots);
                }
                in_kind = true;
                seen_any = true;
            }
            c => {
                if in_kind {
                    kind.push(c)
                } else {
                    id.push(c)
                }
                seen_any = true;
            }
        }
    }
    out.push(finish(&mut id, &mut kind, seen_any)?);
    Ok(out)
}

fn escape_part(s: &str, out: &mut String) {
    for c in s.chars() {
        if matches!(c, '/' | '.' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
}

/// A name in stringified form; the inverse of [`parse_name`].
pub fn name_to_string(name: &[NameComponent]) -> String {
    let mut out = String::new();
    for (i, c) in name.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        if c.id.is_empty() && c.kind.is_empty() {
            out.push('.');
            continue;
        }
        escape_part(&c.id, &mut out);
        if !c.kind.is_empty() {
            out.push('.');
            escape_part(&c.kind, &mut out);
        }
    }
    out
}

impl fmt::Display for NameComponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&name_to_string(std::slice::from_ref(self)))
    }
}
