//! A plain, JSON-ready rendering of a decoded reference, for tools (the
//! `rtorb ior decode` command) that print every field.

use std::fmt::Write as _;

use rtorb_cdr::codeset::{CodeSetComponent, CodeSetId};

use super::ObjectReference;
use super::component::{Component, TaggedComponent};
pub use super::encap::hex;
use super::policy::{Policy, PolicyValue, PriorityModel};
use super::profile::Profile;
use super::tags;

impl ObjectReference {
    /// Every field of the reference as a JSON-ready tree (see
    /// [`reference_info`]).
    pub fn info(&self) -> Info {
        reference_info(self)
    }
}

/// A tree of plain values, shaped like JSON: what a decoded reference
/// renders to. Maps keep their keys in a fixed order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Info {
    /// No value (`null`).
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A string.
    Str(String),
    /// A list.
    List(Vec<Info>),
    /// Named fields, in order.
    Map(Vec<(&'static str, Info)>),
}

impl Info {
    /// The field `key` of a map.
    pub fn get(&self, key: &str) -> Option<&Info> {
        match self {
            Info::Map(fields) => fields.iter().find(|(k, _)| *k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Info::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The integer, if this is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Info::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The elements, if this is a list.
    pub fn as_list(&self) -> Option<&[Info]> {
        match self {
            Info::List(l) => Some(l),
            _ => None,
        }
    }

    /// The value as compact JSON text.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    fn write_json(&self, out: &mut String) {
        match self {
            Info::Null => out.push_str("null"),
            Info::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Info::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Info::Str(s) => json_string(s, out),
            Info::List(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write_json(out);
                }
                out.push(']');
            }
            Info::Map(fields) => {
                out.push('{');
                for (i, (k, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    json_string(k, out);
                    out.push(':');
                    v.write_json(out);
                }
                out.push('}');
            }
        }
    }
}

fn json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn opt_str(s: Option<&str>) -> Info {
    s.map_or(Info::Null, |s| Info::Str(s.to_owned()))
}

fn printable(bytes: &[u8]) -> Info {
    if bytes.iter().all(|b| (0x20..0x7f).contains(b)) {
        Info::Str(bytes.iter().map(|&b| b as char).collect())
    } else {
        Info::Null
    }
}

/// The name of a code set: its short name in the OSF registry, `none` for
/// 0, and the id in hexadecimal with `(unregistered)` for any other.
fn code_set_name(cs: CodeSetId) -> Info {
    Info::Str(match cs.name() {
        Some(name) => name.to_owned(),
        None if cs == CodeSetId::NONE => "none".to_owned(),
        None => cs.to_string(),
    })
}

fn code_set_component(c: &CodeSetComponent) -> Info {
    Info::Map(vec![
        ("native", Info::Int(c.native_code_set.0 as i64)),
        ("native_name", code_set_name(c.native_code_set)),
        (
            "conversion",
            Info::List(
                c.conversion_code_sets
                    .iter()
                    .map(|cs| Info::Int(cs.0 as i64))
                    .collect(),
            ),
        ),
        (
            "conversion_names",
            Info::List(
                c.conversion_code_sets
                    .iter()
                    .map(|cs| code_set_name(*cs))
                    .collect(),
            ),
        ),
    ])
}

fn policy_info(p: &PolicyValue) -> Info {
    let mut f = vec![
        ("ptype", Info::Int(p.ptype as i64)),
        ("name", opt_str(tags::policy_type_name(p.ptype))),
    ];
    match p.decode_value() {
        Ok(Policy::PriorityModel {
            model,
            server_priority,
        }) => {
            let m = match model {
                PriorityModel::ClientPropagated => "CLIENT_PROPAGATED",
                PriorityModel::ServerDeclared => "SERVER_DECLARED",
            };
            f.push(("priority_model", Info::Str(m.into())));
            f.push(("server_priority", Info::Int(server_priority as i64)));
        }
        Ok(Policy::PriorityBandedConnection(bands)) => {
            let bands = bands
                .iter()
                .map(|b| {
                    Info::Map(vec![
                        ("low", Info::Int(b.low as i64)),
                        ("high", Info::Int(b.high as i64)),
                    ])
                })
                .collect();
            f.push(("bands", Info::List(bands)));
        }
        Ok(_) => f.push(("pvalue", Info::Str(hex(&p.pvalue)))),
        Err(e) => {
            f.push(("error", Info::Str(e.to_string())));
            f.push(("pvalue", Info::Str(hex(&p.pvalue))));
        }
    }
    Info::Map(f)
}

/// Renders one tagged component: its id and name, and its decoded fields
/// (or its octets in hex, with `error` set when it failed to decode).
pub fn component_info(c: &TaggedComponent) -> Info {
    let mut f = vec![
        ("tag", Info::Int(c.tag as i64)),
        ("name", opt_str(c.name())),
    ];
    match c.decode_value() {
        Ok(Component::OrbType(t)) => {
            f.push(("orb_type", Info::Int(t as i64)));
            f.push(("orb_name", opt_str(tags::orb_type_name(t))));
        }
        Ok(Component::CodeSets(info)) => {
            f.push(("char", code_set_component(&info.for_char_data)));
            f.push(("wchar", code_set_component(&info.for_wchar_data)));
        }
        Ok(Component::Policies(ps)) => {
            f.push(("policies", Info::List(ps.iter().map(policy_info).collect())));
        }
        Ok(Component::AlternateIiopAddress { host, port }) => {
            f.push(("host", Info::Str(host)));
            f.push(("port", Info::Int(port as i64)));
        }
        Ok(Component::SslSecTrans(s)) => {
            f.push(("target_supports", Info::Int(s.target_supports as i64)));
            f.push(("target_requires", Info::Int(s.target_requires as i64)));
            f.push(("port", Info::Int(s.port as i64)));
        }
        Ok(Component::JavaCodebase(s)) => f.push(("codebase", Info::Str(s))),
        Ok(Component::OmniOrbBidir(s)) => f.push(("sendfrom", Info::Str(s))),
        Ok(Component::OmniOrbUnixTrans { host, filename }) => {
            f.push(("host", Info::Str(host)));
            f.push(("filename", Info::Str(filename)));
        }
        Ok(_) => f.push(("data", Info::Str(hex(&c.component_data)))),
        Err(e) => {
            f.push(("error", Info::Str(e.to_string())));
            f.push(("data", Info::Str(hex(&c.component_data))));
        }
    }
    Info::Map(f)
}

/// Renders one profile: `tag`, `tag_name`, `protocol`, and where the
/// profile has them `version`, `host`, `port` (IIOP), `path` (UIOP),
/// `object_key` (hex), `object_key_string` (the key when it is printable
/// ASCII, else null), `components`, `trailing` (hex), or `data` (hex, for
/// unknown profiles).
pub fn profile_info(p: &Profile) -> Info {
    let mut f = vec![
        ("tag", Info::Int(p.tag() as i64)),
        ("tag_name", opt_str(tags::profile_name(p.tag()))),
        ("protocol", Info::Str(p.protocol().into())),
    ];
    if let Some(v) = p.version() {
        f.push(("version", Info::Str(v.to_string())));
    }
    match p {
        Profile::Iiop(i) => {
            f.push(("host", Info::Str(i.host.clone())));
            f.push(("port", Info::Int(i.port as i64)));
        }
        Profile::Uiop(u) => f.push(("path", Info::Str(u.path.clone()))),
        Profile::MultipleComponents(_) => {}
        Profile::Unknown { data, .. } => f.push(("data", Info::Str(hex(data)))),
    }
    if let Some(key) = p.object_key() {
        f.push(("object_key", Info::Str(hex(key))));
        f.push(("object_key_string", printable(key)));
    }
    if !matches!(p, Profile::Unknown { .. }) {
        f.push((
            "components",
            Info::List(p.components().iter().map(component_info).collect()),
        ));
    }
    let trailing = match p {
        Profile::Iiop(i) => &i.trailing[..],
        Profile::Uiop(u) => &u.trailing[..],
        Profile::MultipleComponents(m) => &m.trailing[..],
        Profile::Unknown { .. } => &[],
    };
    if !trailing.is_empty() {
        f.push(("trailing", Info::Str(hex(trailing))));
    }
    Info::Map(f)
}

/// Renders a reference: `type_id`, `nil`, and `profiles`.
pub fn reference_info(r: &ObjectReference) -> Info {
    Info::Map(vec![
        ("type_id", Info::Str(r.type_id.clone())),
        ("nil", Info::Bool(r.is_nil())),
        (
            "profiles",
            Info::List(r.profiles.iter().map(profile_info).collect()),
        ),
    ])
}
