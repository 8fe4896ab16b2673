//! Naming rules: how an IDL identifier becomes a Rust identifier.
//!
//! Generated code follows Rust's conventions, whatever case the IDL used:
//!
//! | IDL declaration | Rust item | example |
//! | --- | --- | --- |
//! | module | module, `snake_case` | `CosNaming` → `cos_naming` |
//! | interface, struct, union, enum, exception, typedef, valuetype | type, `UpperCamelCase` | `Many`, `naming_context` → `NamingContext` |
//! | operation, attribute, member, parameter | `snake_case` | `getName` → `get_name` |
//! | constant | `SCREAMING_SNAKE_CASE` | `maxLength` → `MAX_LENGTH` |
//! | enumerator | variant, `UpperCamelCase` | `RED_LIGHT` → `RedLight` |
//!
//! A name that is a Rust keyword becomes a raw identifier (`type` →
//! `r#type`); the four keywords that cannot be raw (`self`, `Self`,
//! `super`, `crate`) get a trailing underscore (`self_`). When two IDL
//! names in one scope map to the same Rust name (`getName` and
//! `get_name`), the later one gets a trailing underscore, then two, and
//! so on, in declaration order: [`Namer`] keeps track of that.

use std::collections::HashSet;

/// Rust keywords in every edition (strict and reserved), which cannot be
/// used as plain identifiers.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Keywords that cannot be written as raw identifiers.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// Splits an identifier into lower-case words at underscores, at
/// lower-to-upper and digit-to-upper changes (`getName`, `HTTP2Server`), and
/// before the last capital of a run of capitals followed by lower case (`IORInfo` →
/// `ior`, `info`).
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        let boundary = match prev {
            Some(p) if p != '_' => {
                (c.is_uppercase() && (p.is_lowercase() || p.is_ascii_digit()))
                    || (c.is_uppercase()
                        && p.is_uppercase()
                        && next.is_some_and(|n| n.is_lowercase()))
            }
            _ => false,
        };
        if boundary && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `snake_case` of an IDL identifier (before keyword escaping).
pub fn snake_case(name: &str) -> String {
    let w = words(name);
    if w.is_empty() {
        return "_".into();
    }
    w.join("_")
}

/// `UpperCamelCase` of an IDL identifier (before keyword escaping).
pub fn upper_camel_case(name: &str) -> String {
    let w = words(name);
    if w.is_empty() {
        return "_".into();
    }
    let mut out = String::new();
    for word in w {
        let mut cs = word.chars();
        if let Some(first) = cs.next() {
            out.extend(first.to_uppercase());
            out.push_str(cs.as_str());
        }
    }
    out
}

/// `SCREAMING_SNAKE_CASE` of an IDL identifier (before keyword escaping).
pub fn screaming_snake_case(name: &str) -> String {
    snake_case(name).to_uppercase()
}

/// Makes `name` usable as a Rust identifier: a keyword becomes a raw
/// identifier (`r#type`), or gets a trailing underscore when it cannot be
/// raw (`self_`); a name starting with a digit gets a leading underscore.
pub fn escape(name: &str) -> String {
    if NOT_RAW.contains(&name) {
        return format!("{name}_");
    }
    if KEYWORDS.contains(&name) {
        return format!("r#{name}");
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        return format!("_{name}");
    }
    name.to_owned()
}

/// The kind of Rust item a name is for, which decides its case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameKind {
    /// A module: `snake_case`.
    Module,
    /// A type: `UpperCamelCase`.
    Type,
    /// A function, method, field or parameter: `snake_case`.
    Value,
    /// A constant: `SCREAMING_SNAKE_CASE`.
    Constant,
    /// An enum variant: `UpperCamelCase`.
    Variant,
}

/// The Rust identifier for an IDL identifier of the given kind, cased and
/// escaped (collisions are not considered: see [`Namer`]).
pub fn rust_name(idl: &str, kind: NameKind) -> String {
    let cased = match kind {
        NameKind::Module | NameKind::Value => snake_case(idl),
        NameKind::Type | NameKind::Variant => upper_camel_case(idl),
        NameKind::Constant => screaming_snake_case(idl),
    };
    escape(&cased)
}

/// Hands out Rust names within one Rust scope (a module's items, a
/// struct's fields, a trait's methods), so that no two IDL names map to
/// the same Rust name: a later clash gets trailing underscores.
#[derive(Debug, Default, Clone)]
pub struct Namer {
    taken: HashSet<String>,
}

impl Namer {
    /// An empty scope.
    pub fn new() -> Namer {
        Namer::default()
    }

    /// Marks a Rust name as used (for names the generator itself emits in
    /// this scope, such as `Client` or `dispatch`).
    pub fn reserve(&mut self, rust: &str) {
        self.taken.insert(rust.trim_start_matches("r#").to_owned());
    }

    /// The Rust name for `idl` of kind `kind`, unique in this scope.
    pub fn name(&mut self, idl: &str, kind: NameKind) -> String {
        let cased = match kind {
            NameKind::Module | NameKind::Value => snake_case(idl),
            NameKind::Type | NameKind::Variant => upper_camel_case(idl),
            NameKind::Constant => screaming_snake_case(idl),
        };
        let mut candidate = cased;
        while self.taken.contains(&candidate) {
            candidate.push('_');
        }
        self.taken.insert(candidate.clone());
        escape(&candidate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases() {
        let table = [
            ("CosNaming", "cos_naming", "CosNaming", "COS_NAMING"),
            ("getName", "get_name", "GetName", "GET_NAME"),
            ("cube_long", "cube_long", "CubeLong", "CUBE_LONG"),
            ("IORInfo", "ior_info", "IorInfo", "IOR_INFO"),
            ("RED_LIGHT", "red_light", "RedLight", "RED_LIGHT"),
            ("x", "x", "X", "X"),
            ("HTTP2Server", "http2_server", "Http2Server", "HTTP2_SERVER"),
            ("a__b", "a_b", "AB", "A_B"),
        ];
        for (idl, snake, camel, screaming) in table {
            assert_eq!(snake_case(idl), snake, "{idl}");
            assert_eq!(upper_camel_case(idl), camel, "{idl}");
            assert_eq!(screaming_snake_case(idl), screaming, "{idl}");
        }
    }

    #[test]
    fn keywords_are_escaped() {
        assert_eq!(rust_name("type", NameKind::Value), "r#type");
        assert_eq!(rust_name("match", NameKind::Value), "r#match");
        assert_eq!(rust_name("self", NameKind::Value), "self_");
        assert_eq!(rust_name("Self", NameKind::Type), "Self_");
        assert_eq!(rust_name("super", NameKind::Module), "super_");
        assert_eq!(rust_name("crate", NameKind::Module), "crate_");
        assert_eq!(rust_name("Type", NameKind::Type), "Type");
        assert_eq!(rust_name("gen", NameKind::Value), "r#gen");
    }

    #[test]
    fn clashes_get_trailing_underscores_in_order() {
        let mut n = Namer::new();
        n.reserve("client");
        assert_eq!(n.name("getName", NameKind::Value), "get_name");
        assert_eq!(n.name("get_name", NameKind::Value), "get_name_");
        assert_eq!(n.name("GetName", NameKind::Value), "get_name__");
        assert_eq!(n.name("client", NameKind::Value), "client_");
        assert_eq!(n.name("type", NameKind::Value), "r#type");
    }
}
