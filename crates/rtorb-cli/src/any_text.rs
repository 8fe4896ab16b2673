//! Events as a line of text, for `rtorb events listen`: a string as its
//! text, any other `Any` as its type and value (`long: 42`,
//! `Example::Point: {x: 1, y: 2}`), on one line.

use std::fmt::Write;

use rtorb_cdr::{Any, PrimSeq, TCKind, TypeCode, Value};

/// The line that shows `any`.
pub(crate) fn any_line(any: &Any) -> String {
    let value = match any.value() {
        Ok(value) => value,
        Err(e) => return format!("<{}: cannot be read: {e}>", type_name(any.type_code())),
    };
    match value {
        Value::String(text) | Value::WString(text) => one_line(&text),
        other => {
            let mut out = format!("{}: ", type_name(any.type_code()));
            render(&other, any.type_code(), &mut out);
            out
        }
    }
}

/// Text with its line breaks escaped, so that an event stays one line.
fn one_line(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

/// The IDL name of a type: its declared name, else its kind.
fn type_name(tc: &TypeCode) -> String {
    match tc.name() {
        Some(name) if !name.is_empty() => tc.id().map_or_else(
            || name.to_owned(),
            |id| scoped_name(id).unwrap_or_else(|| name.to_owned()),
        ),
        _ => kind_name(tc.kind()),
    }
}

/// `A::B` from the repository id `IDL:prefix/A/B:1.0` (without the prefix,
/// which has a dot).
fn scoped_name(id: &str) -> Option<String> {
    let path = id.strip_prefix("IDL:")?.rsplit_once(':')?.0;
    let parts: Vec<&str> = path.split('/').filter(|p| !p.contains('.')).collect();
    (!parts.is_empty()).then(|| parts.join("::"))
}

fn kind_name(kind: TCKind) -> String {
    let name = match kind {
        TCKind::ULong => "unsigned long",
        TCKind::UShort => "unsigned short",
        TCKind::LongLong => "long long",
        TCKind::ULongLong => "unsigned long long",
        TCKind::LongDouble => "long double",
        TCKind::WChar => "wchar",
        TCKind::WString => "wstring",
        TCKind::TypeCode => "TypeCode",
        TCKind::ObjRef => "Object",
        _ => return format!("{kind:?}").to_ascii_lowercase(),
    };
    name.to_owned()
}

/// Writes `value`, of type `tc`, to `out`.
fn render(value: &Value, tc: &TypeCode, out: &mut String) {
    let tc = tc.unalias();
    match value {
        Value::Null | Value::Void => out.push_str("null"),
        Value::Boolean(b) => push(out, b),
        Value::Char(c) | Value::WChar(c) => push(out, format_args!("{c:?}")),
        Value::Octet(n) => push(out, n),
        Value::Short(n) => push(out, n),
        Value::UShort(n) => push(out, n),
        Value::Long(n) => push(out, n),
        Value::ULong(n) => push(out, n),
        Value::LongLong(n) => push(out, n),
        Value::ULongLong(n) => push(out, n),
        Value::Float(n) => push(out, n),
        Value::Double(n) => push(out, n),
        Value::String(s) | Value::WString(s) => push(out, format_args!("{s:?}")),
        Value::Enum(n) => match tc.member_name(*n as usize) {
            Some(name) => out.push_str(name),
            None => push(out, n),
        },
        Value::Sequence(items) | Value::Array(items) => {
            let element = tc.content_type();
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                match &element {
                    Some(element) => render(item, element, out),
                    None => push(out, format_args!("{item:?}")),
                }
            }
            out.push(']');
        }
        Value::Octets(bytes) => {
            out.push_str("0x");
            for b in bytes.iter() {
                push(out, format_args!("{b:02x}"));
            }
        }
        Value::Struct(members) | Value::ValueType(members) => {
            out.push('{');
            for (i, member) in members.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if let Some(name) = tc.member_name(i) {
                    push(out, format_args!("{name}: "));
                }
                match tc.member_type(i) {
                    Some(member_tc) => render(member, &member_tc, out),
                    None => push(out, format_args!("{member:?}")),
                }
            }
            out.push('}');
        }
        Value::Primitives(numbers) => render_numbers(numbers, out),
        Value::Any(inner) => out.push_str(&any_line(inner)),
        other => push(out, format_args!("{other:?}")),
    }
}

/// A sequence or array of numbers, `[1, 2, 3]`.
fn render_numbers(numbers: &PrimSeq, out: &mut String) {
    fn list<T: std::fmt::Display>(items: &[T], out: &mut String) {
        out.push('[');
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            push(out, item);
        }
        out.push(']');
    }
    match numbers {
        PrimSeq::Short(v) => list(v, out),
        PrimSeq::UShort(v) => list(v, out),
        PrimSeq::Long(v) => list(v, out),
        PrimSeq::ULong(v) => list(v, out),
        PrimSeq::LongLong(v) => list(v, out),
        PrimSeq::ULongLong(v) => list(v, out),
        PrimSeq::Float(v) => list(v, out),
        PrimSeq::Double(v) => list(v, out),
    }
}

fn push(out: &mut String, value: impl std::fmt::Display) {
    let _ = write!(out, "{value}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_their_text_on_one_line() {
        assert_eq!(any_line(&Any::from("ACME 12.5")), "ACME 12.5");
        assert_eq!(any_line(&Any::from("two\nlines")), "two\\nlines");
    }

    #[test]
    fn other_values_show_their_type_and_value() {
        assert_eq!(any_line(&Any::from(42i32)), "long: 42");
        assert_eq!(any_line(&Any::from(7u32)), "unsigned long: 7");
        assert_eq!(
            any_line(&Any::new(&vec![1i32, 2, 3]).unwrap()),
            "sequence: [1, 2, 3]"
        );
        assert_eq!(any_line(&Any::from(true)), "boolean: true");
    }

    #[test]
    fn repository_ids_give_scoped_names() {
        assert_eq!(
            scoped_name("IDL:omg.org/CosEventComm/Disconnected:1.0").as_deref(),
            Some("CosEventComm::Disconnected")
        );
        assert_eq!(
            scoped_name("IDL:Cubit/Many:1.0").as_deref(),
            Some("Cubit::Many")
        );
    }
}
