//! `rtorb ior`: decode and encode object references.

use std::fmt::Write as _;

use rtorb_cdr::ByteOrder;
use rtorb_giop::corbaloc::Corbaloc;
use rtorb_giop::ior::ObjectReference;
use rtorb_giop::ior::info::Info;
use rtorb_giop::{ObjectUrl, parse_object_url};

/// Reads a reference given on the command line: the string itself, or a
/// file that holds it.
fn read_reference(arg: &str) -> Result<String, String> {
    let t = arg.trim();
    let lower = t.get(..10).unwrap_or(t).to_ascii_lowercase();
    if lower.starts_with("ior:") || lower.starts_with("corbaloc:") || lower.starts_with("corbaname")
    {
        return Ok(t.to_owned());
    }
    let path = t.strip_prefix("file://").unwrap_or(t);
    std::fs::read_to_string(path)
        .map(|s| s.trim().to_owned())
        .map_err(|e| format!("{t:?} is not an IOR or URL, and reading it as a file failed: {e}"))
}

/// `rtorb ior decode`.
pub(crate) fn decode(arg: &str, json: bool) -> Result<String, String> {
    let text = read_reference(arg)?;
    let info = match parse_object_url(&text).map_err(|e| describe(&e.to_string(), e.minor()))? {
        ObjectUrl::Ior(r) => with_corbaloc(r.info(), &r),
        ObjectUrl::Corbaloc(loc) => {
            let r = loc
                .to_ior("")
                .map_err(|e| describe(&e.to_string(), e.minor()))?;
            with_source(r.info(), "corbaloc", &loc.to_string())
        }
        ObjectUrl::Corbaname(name) => {
            let r = name
                .context()
                .to_ior("IDL:omg.org/CosNaming/NamingContext:1.0")
                .map_err(|e| describe(&e.to_string(), e.minor()))?;
            with_source(r.info(), "corbaname", &name.to_string())
        }
    };
    if json {
        let value: serde_json::Value =
            serde_json::from_str(&info.to_json()).map_err(|e| e.to_string())?;
        let mut out = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?;
        out.push('\n');
        Ok(out)
    } else {
        let mut out = String::new();
        render(&info, 0, &mut out);
        Ok(out)
    }
}

/// `rtorb ior encode`.
pub(crate) fn encode(url: &str, type_id: &str, order: ByteOrder) -> Result<String, String> {
    let reference: ObjectReference =
        match parse_object_url(url).map_err(|e| describe(&e.to_string(), e.minor()))? {
            ObjectUrl::Corbaloc(loc) => loc
                .to_ior(type_id)
                .map_err(|e| describe(&e.to_string(), e.minor()))?,
            ObjectUrl::Ior(r) => r,
            ObjectUrl::Corbaname(_) => {
                return Err("a corbaname: URL names an object inside a naming service; \
                        resolving it needs an ORB (give its corbaloc: part instead)"
                    .into());
            }
        };
    let s = reference
        .to_stringified_in(order)
        .map_err(|e| describe(&e.to_string(), e.minor()))?;
    Ok(format!("{s}\n"))
}

fn describe(msg: &str, minor: u32) -> String {
    format!("{msg} (BAD_PARAM, minor code {minor:#010x})")
}

/// Notes where a reference came from when it was made from a URL.
fn with_source(info: Info, scheme: &'static str, url: &str) -> Info {
    match info {
        Info::Map(mut fields) => {
            fields.insert(0, ("source", Info::Str(format!("{scheme}: {url}"))));
            Info::Map(fields)
        }
        other => other,
    }
}

/// Adds the reference's `corbaloc:` URL after its type id, where it has
/// one.
fn with_corbaloc(info: Info, reference: &ObjectReference) -> Info {
    match (info, Corbaloc::for_reference(reference)) {
        (Info::Map(mut fields), Some(url)) => {
            let at = fields.len().min(1);
            fields.insert(at, ("corbaloc", Info::Str(url.to_string())));
            Info::Map(fields)
        }
        (info, _) => info,
    }
}

/// Renders the tree as indented text, one field a line.
fn render(info: &Info, indent: usize, out: &mut String) {
    match info {
        Info::Map(fields) => {
            for (k, v) in fields {
                let _ = write!(out, "{:indent$}{k}:", "");
                render_value(v, indent, out);
            }
        }
        other => {
            let _ = write!(out, "{:indent$}", "");
            render_value(other, indent, out);
        }
    }
}

fn render_value(v: &Info, indent: usize, out: &mut String) {
    match v {
        Info::Null => out.push_str(" -\n"),
        Info::Bool(b) => {
            let _ = writeln!(out, " {b}");
        }
        Info::Int(i) => {
            let _ = writeln!(out, " {i}");
        }
        Info::Str(s) => {
            let _ = writeln!(out, " {s}");
        }
        Info::Map(_) => {
            out.push('\n');
            render(v, indent + 2, out);
        }
        Info::List(items) if items.is_empty() => out.push_str(" (none)\n"),
        Info::List(items) => {
            out.push('\n');
            for (n, item) in items.iter().enumerate() {
                let _ = write!(out, "{:w$}[{}]", "", n + 1, w = indent + 2);
                match item {
                    Info::Map(_) => {
                        out.push('\n');
                        render(item, indent + 4, out);
                    }
                    _ => render_value(item, indent + 4, out),
                }
            }
        }
    }
}
