//! Object URLs (CORBA 3.x Part 2 §13.6.10 and the Naming Service's
//! `corbaname`): `corbaloc:` and `corbaname:`, and [`parse_object_url`],
//! which also accepts stringified `IOR:`s.
//!
//! The grammar accepted:
//!
//! ```text
//! corbaloc   = "corbaloc:" addr_list [key_delim key_string]
//! corbaname  = "corbaname:" addr_list [key_delim key_string] ["#" string_name]
//! addr_list  = "rir:"  |  addr *("," addr)
//! addr       = ("iiop:" | ":") [major "." minor "@"] host [":" port]
//!            | "uiop:" [major "." minor "@"] path
//! host       = dns_name | ipv4_address | "[" ipv6_address "]"
//! key_delim  = "/" after an iiop or rir address, "|" after a uiop one
//! ```
//!
//! * The IIOP version defaults to 1.0 and the port to 2809, as the
//!   specification says.
//! * `rir:` must be the only address; its key defaults to `NameService`,
//!   and so does the key of a `corbaname:`.
//! * The key string is RFC 2396-escaped: octets other than ASCII letters,
//!   digits and ``;/:?@&=+$,-_.!~*'()`` are written `%XX` (either case
//!   accepted).
//! * `uiop:` is rtorb's Unix-domain socket protocol (profile
//!   [`TAG_RTORB_UIOP`](crate::ior::tags::TAG_RTORB_UIOP)). Its address is
//!   an absolute socket path, which contains `/`, so the key follows a
//!   `|` instead, as in TAO's UIOP URLs:
//!   `corbaloc:uiop:1.2@/tmp/rtorb.sock|MyKey`. In the path `,`, `|`,
//!   `#` and `%` must be escaped. Its version defaults to 1.2.
//!
//! Malformed URLs give [`UrlError`], whose [`UrlError::minor`] is the OMG
//! `BAD_PARAM` minor code `string_to_object` raises: 7 bad scheme, 8 bad
//! address, 9 bad schema-specific part, 10 other.
//!
//! ```
//! use rtorb_giop::corbaloc::{Corbaloc, Location, ObjAddr};
//!
//! let url: Corbaloc = "corbaloc::primary.com:110,:1.2@[::1]/Dev/NameService".parse().unwrap();
//! let Location::Addresses(addrs) = &url.location else { panic!() };
//! let ObjAddr::Iiop(second) = &addrs[1] else { panic!() };
//! assert_eq!(second.host.to_string(), "[::1]");
//! assert_eq!(second.effective_port(), 2809);
//! assert_eq!(&url.key[..], b"Dev/NameService");
//! ```

mod name;

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

use rtorb_cdr::{Bytes, Version};

use crate::minor;

use crate::ior::{IiopProfile, IorError, ObjectReference, Profile, UiopProfile};

pub use name::{NameComponent, NameError, name_to_string, parse_name};

/// The port of an IIOP address that gives none.
pub const DEFAULT_IIOP_PORT: u16 = 2809;
/// The key of a `rir:` address or a `corbaname:` URL that gives none.
pub const DEFAULT_KEY: &str = "NameService";
/// The IIOP version of an address that gives none.
pub const DEFAULT_IIOP_VERSION: Version = Version::V1_0;
/// The UIOP version of an address that gives none.
pub const DEFAULT_UIOP_VERSION: Version = Version::V1_2;

/// Why an object URL is malformed. Reported by `string_to_object` as
/// `BAD_PARAM` with [`UrlError::minor`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UrlError {
    /// Not an `IOR:`, `corbaloc:` or `corbaname:` URL (minor 7).
    #[error("unknown object URL scheme in {0:?}")]
    BadScheme(String),
    /// A malformed or unsupported address (minor 8).
    #[error("bad address {address:?}: {reason}")]
    BadAddress {
        /// What is wrong.
        reason: &'static str,
        /// The offending address text.
        address: String,
    },
    /// A malformed key string or name (minor 9).
    #[error("bad object URL: {0}")]
    BadSchemeSpecificPart(&'static str),
    /// A malformed `corbaname` name (minor 9).
    #[error("bad name in corbaname URL: {0}")]
    BadName(#[from] NameError),
    /// A malformed stringified IOR.
    #[error(transparent)]
    Ior(#[from] IorError),
    /// Anything else, such as asking a `rir:` URL for an IOR (minor 10).
    #[error("{0}")]
    Other(&'static str),
}

impl UrlError {
    /// The `BAD_PARAM` minor code (`0x4f4d0000 | n`); for a malformed IOR,
    /// [`IorError::minor`].
    pub fn minor(&self) -> u32 {
        match self {
            UrlError::BadScheme(_) => minor::BAD_PARAM_BAD_SCHEME,
            UrlError::BadAddress { .. } => minor::BAD_PARAM_BAD_ADDRESS,
            UrlError::BadSchemeSpecificPart(_) | UrlError::BadName(_) => {
                minor::BAD_PARAM_BAD_SCHEME_SPECIFIC_PART
            }
            UrlError::Ior(e) => e.minor(),
            UrlError::Other(_) => minor::BAD_PARAM_OTHER_URL_ERROR,
        }
    }
}

fn bad_address(reason: &'static str, address: &str) -> UrlError {
    UrlError::BadAddress {
        reason,
        address: address.to_owned(),
    }
}

/// The host of an IIOP address.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Host {
    /// A DNS-style host name.
    Name(String),
    /// A dotted IPv4 address.
    Ipv4(Ipv4Addr),
    /// An IPv6 address (bracketed in URLs).
    Ipv6(Ipv6Addr),
}

impl Host {
    /// The host as an IIOP profile carries it (IPv6 without brackets).
    pub fn to_profile_host(&self) -> String {
        match self {
            Host::Name(n) => n.clone(),
            Host::Ipv4(a) => a.to_string(),
            Host::Ipv6(a) => a.to_string(),
        }
    }
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Host::Name(n) => f.write_str(n),
            Host::Ipv4(a) => write!(f, "{a}"),
            Host::Ipv6(a) => write!(f, "[{a}]"),
        }
    }
}

/// An `iiop:` address.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IiopAddress {
    /// The GIOP version, if the URL gave one.
    pub version: Option<Version>,
    /// The host.
    pub host: Host,
    /// The port, if the URL gave one.
    pub port: Option<u16>,
}

impl IiopAddress {
    /// The version, 1.0 if none was given.
    pub fn effective_version(&self) -> Version {
        self.version.unwrap_or(DEFAULT_IIOP_VERSION)
    }

    /// The port, 2809 if none was given.
    pub fn effective_port(&self) -> u16 {
        self.port.unwrap_or(DEFAULT_IIOP_PORT)
    }
}

impl fmt::Display for IiopAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("iiop:")?;
        if let Some(v) = self.version {
            write!(f, "{v}@")?;
        }
        write!(f, "{}", self.host)?;
        if let Some(p) = self.port {
            write!(f, ":{p}")?;
        }
        Ok(())
    }
}

/// A `uiop:` address: rtorb's Unix-domain socket protocol.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UiopAddress {
    /// The GIOP version, if the URL gave one.
    pub version: Option<Version>,
    /// The absolute path of the socket.
    pub path: String,
}

impl UiopAddress {
    /// The version, 1.2 if none was given.
    pub fn effective_version(&self) -> Version {
        self.version.unwrap_or(DEFAULT_UIOP_VERSION)
    }
}

impl fmt::Display for UiopAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("uiop:")?;
        if let Some(v) = self.version {
            write!(f, "{v}@")?;
        }
        f.write_str(&escape(self.path.as_bytes(), |b| {
            b != b',' && b != b'|' && is_uri_char(b)
        }))
    }
}

/// One address of a `corbaloc` or `corbaname` URL.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ObjAddr {
    /// `iiop:` (or the empty protocol).
    Iiop(IiopAddress),
    /// `uiop:`.
    Uiop(UiopAddress),
}

impl ObjAddr {
    /// The character that separates this address, when last, from the
    /// key string.
    fn key_delimiter(&self) -> char {
        match self {
            ObjAddr::Iiop(_) => '/',
            ObjAddr::Uiop(_) => '|',
        }
    }
}

impl fmt::Display for ObjAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObjAddr::Iiop(a) => a.fmt(f),
            ObjAddr::Uiop(a) => a.fmt(f),
        }
    }
}

/// Where the object of a URL is found.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Location {
    /// `rir:`: through `resolve_initial_references` with the key.
    Rir,
    /// At any of these addresses, tried in order.
    Addresses(Vec<ObjAddr>),
}

/// A parsed `corbaloc:` URL.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Corbaloc {
    /// Where the object is.
    pub location: Location,
    /// The object key (for `rir:`, the initial reference id), unescaped.
    pub key: Bytes,
}

impl Corbaloc {
    /// Parses a `corbaloc:` URL (surrounding whitespace ignored).
    pub fn parse(s: &str) -> Result<Corbaloc, UrlError> {
        let body =
            strip_scheme(s.trim(), "corbaloc:").ok_or_else(|| UrlError::BadScheme(s.to_owned()))?;
        let (location, key) = parse_obj(body, false)?;
        Ok(Corbaloc { location, key })
    }

    /// The key as text, if it is UTF-8.
    pub fn key_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.key).ok()
    }

    /// The object reference the URL denotes: one IIOP profile per `iiop`
    /// address (with its version, default 1.0, and port, default 2809) and
    /// one UIOP profile per `uiop` address, each with the key as object
    /// key and no components. A `rir:` URL has no reference of its own
    /// ([`UrlError::Other`]).
    pub fn to_ior(&self, type_id: &str) -> Result<ObjectReference, UrlError> {
        let Location::Addresses(addrs) = &self.location else {
            return Err(UrlError::Other(
                "a rir: URL is resolved by the ORB, not converted",
            ));
        };
        let profiles = addrs
            .iter()
            .map(|a| match a {
                ObjAddr::Iiop(i) => Profile::Iiop(IiopProfile::new(
                    i.effective_version(),
                    i.host.to_profile_host(),
                    i.effective_port(),
                    self.key.clone(),
                )),
                ObjAddr::Uiop(u) => Profile::Uiop(UiopProfile::new(
                    u.effective_version(),
                    u.path.clone(),
                    self.key.clone(),
                )),
            })
            .collect();
        Ok(ObjectReference::new(type_id, profiles))
    }
}

impl Corbaloc {
    /// The `corbaloc:` URL of a reference: every IIOP and UIOP profile
    /// that carries the object key of the first of them, in the order of
    /// the reference, with their versions and ports written out. `None`
    /// for a reference with no such profile. Components (code sets,
    /// policies) do not travel in a URL; a peer that needs them should be
    /// given the IOR.
    ///
    /// ```
    /// use rtorb_giop::corbaloc::Corbaloc;
    /// use rtorb_giop::ior::{IiopProfile, ObjectReference};
    /// use rtorb_cdr::Version;
    ///
    /// let p = IiopProfile::new(Version::V1_2, "127.0.0.1", 2809, &b"\x00POA\x01"[..]);
    /// let r = ObjectReference::new("IDL:Cubit:1.0", vec![p.into()]);
    /// let url = Corbaloc::for_reference(&r).unwrap().to_string();
    /// assert_eq!(url, "corbaloc:iiop:1.2@127.0.0.1:2809/%00POA%01");
    /// ```
    pub fn for_reference(reference: &ObjectReference) -> Option<Corbaloc> {
        let mut key: Option<&Bytes> = None;
        let mut addresses = Vec::new();
        for profile in &reference.profiles {
            let (address, object_key) = match profile {
                Profile::Iiop(p) => (
                    ObjAddr::Iiop(IiopAddress {
                        version: Some(p.version),
                        host: host_of_profile(&p.host),
                        port: Some(p.port),
                    }),
                    &p.object_key,
                ),
                Profile::Uiop(p) => (
                    ObjAddr::Uiop(UiopAddress {
                        version: Some(p.version),
                        path: p.path.clone(),
                    }),
                    &p.object_key,
                ),
                _ => continue,
            };
            match key {
                None => key = Some(object_key),
                Some(k) if k != object_key => continue,
                Some(_) => {}
            }
            addresses.push(address);
        }
        Some(Corbaloc {
            key: key?.clone(),
            location: Location::Addresses(addresses),
        })
    }
}

/// The host of an IIOP profile as a URL address names it.
fn host_of_profile(host: &str) -> Host {
    if let Ok(a) = host.parse::<Ipv4Addr>() {
        Host::Ipv4(a)
    } else if let Ok(a) = host.parse::<Ipv6Addr>() {
        Host::Ipv6(a)
    } else {
        Host::Name(host.to_owned())
    }
}

impl FromStr for Corbaloc {
    type Err = UrlError;
    fn from_str(s: &str) -> Result<Corbaloc, UrlError> {
        Corbaloc::parse(s)
    }
}

fn write_location(f: &mut fmt::Formatter<'_>, location: &Location, key: &[u8]) -> fmt::Result {
    let delim = match location {
        Location::Rir => {
            f.write_str("rir:")?;
            '/'
        }
        Location::Addresses(addrs) => {
            for (i, a) in addrs.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{a}")?;
            }
            addrs.last().map_or('/', ObjAddr::key_delimiter)
        }
    };
    write!(f, "{delim}{}", escape(key, is_uri_char))
}

/// The URL, with key octets outside the URI character set `%XX`-escaped.
impl fmt::Display for Corbaloc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("corbaloc:")?;
        write_location(f, &self.location, &self.key)
    }
}

/// A parsed `corbaname:` URL: a naming context and a name to resolve in
/// it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Corbaname {
    /// Where the naming context is.
    pub location: Location,
    /// The naming context's key (default `NameService`).
    pub key: Bytes,
    /// The name to resolve; empty for the context itself.
    pub name: Vec<NameComponent>,
}

impl Corbaname {
    /// Parses a `corbaname:` URL (surrounding whitespace ignored).
    pub fn parse(s: &str) -> Result<Corbaname, UrlError> {
        let body = strip_scheme(s.trim(), "corbaname:")
            .ok_or_else(|| UrlError::BadScheme(s.to_owned()))?;
        let (obj, fragment) = match body.split_once('#') {
            Some((o, f)) => (o, Some(f)),
            None => (body, None),
        };
        let (location, key) = parse_obj(obj, true)?;
        let name = match fragment {
            Some(f) => {
                let raw = unescape(f, is_uri_char)?;
                let text = String::from_utf8(raw)
                    .map_err(|_| UrlError::BadSchemeSpecificPart("name is not UTF-8"))?;
                parse_name(&text)?
            }
            None => Vec::new(),
        };
        Ok(Corbaname {
            location,
            key,
            name,
        })
    }

    /// The `corbaloc` URL of the naming context.
    pub fn context(&self) -> Corbaloc {
        Corbaloc {
            location: self.location.clone(),
            key: self.key.clone(),
        }
    }
}

impl FromStr for Corbaname {
    type Err = UrlError;
    fn from_str(s: &str) -> Result<Corbaname, UrlError> {
        Corbaname::parse(s)
    }
}

/// The URL, with the name in stringified form and escaped.
impl fmt::Display for Corbaname {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("corbaname:")?;
        write_location(f, &self.location, &self.key)?;
        if !self.name.is_empty() {
            let n = name_to_string(&self.name);
            write!(f, "#{}", escape(n.as_bytes(), is_uri_char))?;
        }
        Ok(())
    }
}

/// Any string `CORBA::ORB::string_to_object` accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ObjectUrl {
    /// A stringified IOR.
    Ior(ObjectReference),
    /// A `corbaloc:` URL.
    Corbaloc(Corbaloc),
    /// A `corbaname:` URL.
    Corbaname(Corbaname),
}

/// Parses an `IOR:`, `corbaloc:` or `corbaname:` string (schemes in any
/// case, surrounding whitespace ignored).
pub fn parse_object_url(s: &str) -> Result<ObjectUrl, UrlError> {
    let t = s.trim();
    if strip_scheme(t, "IOR:").is_some() {
        Ok(ObjectUrl::Ior(ObjectReference::from_stringified(t)?))
    } else if strip_scheme(t, "corbaloc:").is_some() {
        Ok(ObjectUrl::Corbaloc(Corbaloc::parse(t)?))
    } else if strip_scheme(t, "corbaname:").is_some() {
        Ok(ObjectUrl::Corbaname(Corbaname::parse(t)?))
    } else {
        Err(UrlError::BadScheme(s.to_owned()))
    }
}

fn strip_scheme<'a>(s: &'a str, scheme: &str) -> Option<&'a str> {
    let head = s.get(..scheme.len())?;
    head.eq_ignore_ascii_case(scheme)
        .then(|| &s[scheme.len()..])
}

/// Whether an octet may appear unescaped in a key string: RFC 2396
/// unreserved and reserved characters.
fn is_uri_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b";/:?@&=+$,-_.!~*'()".contains(&b)
}

fn escape(bytes: &[u8], keep: impl Fn(u8) -> bool) -> String {
    let mut s = String::with_capacity(bytes.len());
    for &b in bytes {
        if keep(b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

fn hex_digit(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Undoes `%XX` escapes; every other character must satisfy `allowed`.
fn unescape(s: &str, allowed: impl Fn(u8) -> bool) -> Result<Vec<u8>, UrlError> {
    let raw = s.as_bytes();
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&b) = raw.get(i) {
        if b == b'%' {
            let hi = raw.get(i + 1).copied().and_then(hex_digit);
            let lo = raw.get(i + 2).copied().and_then(hex_digit);
            match (hi, lo) {
                (Some(h), Some(l)) => out.push((h << 4) | l),
                _ => {
                    return Err(UrlError::BadSchemeSpecificPart(
                        "'%' not followed by two hex digits",
                    ));
                }
            }
            i += 3;
        } else if allowed(b) {
            out.push(b);
            i += 1;
        } else {
            return Err(UrlError::BadSchemeSpecificPart(
                "character that must be %-escaped in an object URL",
            ));
        }
    }
    Ok(out)
}

/// Parses `addr_list [delim key]`; the key defaults to `NameService` for
/// `rir:` and for corbaname.
fn parse_obj(body: &str, corbaname: bool) -> Result<(Location, Bytes), UrlError> {
    let mut rest = body;
    let mut addrs = Vec::new();
    let mut rir = false;
    let key_text: Option<&str> = loop {
        let Some((token, after)) = rest.split_once(':') else {
            return Err(bad_address(
                "missing protocol (\"iiop:\", \":\", \"rir:\" or \"uiop:\")",
                rest,
            ));
        };
        let (addr_end, delim) = match token.to_ascii_lowercase().as_str() {
            "" | "iiop" => {
                let end = after.find([',', '/']).unwrap_or(after.len());
                addrs.push(ObjAddr::Iiop(parse_iiop(&after[..end])?));
                (end, '/')
            }
            "uiop" => {
                let end = after.find([',', '|']).unwrap_or(after.len());
                addrs.push(ObjAddr::Uiop(parse_uiop(&after[..end])?));
                (end, '|')
            }
            "rir" => {
                let end = after.find([',', '/']).unwrap_or(after.len());
                if end != 0 {
                    return Err(bad_address("rir: takes no address", after));
                }
                rir = true;
                (end, '/')
            }
            _ => return Err(bad_address("unknown protocol", token)),
        };
        let tail = &after[addr_end..];
        match tail.chars().next() {
            None => break None,
            Some(',') => rest = &tail[1..],
            Some(c) if c == delim => break Some(&tail[1..]),
            Some(_) => return Err(bad_address("unexpected character after address", tail)),
        }
    };
    if rir && !addrs.is_empty() {
        return Err(bad_address("rir: must be the only address", body));
    }
    let key = unescape(key_text.unwrap_or(""), is_uri_char)?;
    let key = if key.is_empty() && (rir || corbaname) {
        Bytes::from_static(DEFAULT_KEY.as_bytes())
    } else {
        Bytes::from(key)
    };
    let location = if rir {
        Location::Rir
    } else {
        Location::Addresses(addrs)
    };
    Ok((location, key))
}

/// Parses `[major.minor@]`, returning the version and the rest.
fn parse_version(s: &str) -> Result<(Option<Version>, &str), UrlError> {
    let Some((v, rest)) = s.split_once('@') else {
        return Ok((None, s));
    };
    let bad = || bad_address("bad version (expected major.minor@)", s);
    let (major, minor) = v.split_once('.').ok_or_else(bad)?;
    let num = |t: &str| -> Option<u8> {
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse().ok()
    };
    let (Some(major), Some(minor)) = (num(major), num(minor)) else {
        return Err(bad());
    };
    Ok((Some(Version::new(major, minor)), rest))
}

fn is_host_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_')
}

fn parse_iiop(addr: &str) -> Result<IiopAddress, UrlError> {
    let (version, hostport) = parse_version(addr)?;
    let (host, port_text) = if let Some(v6) = hostport.strip_prefix('[') {
        let (inner, after) = v6
            .split_once(']')
            .ok_or_else(|| bad_address("unterminated IPv6 address", addr))?;
        let ip = inner
            .parse::<Ipv6Addr>()
            .map_err(|_| bad_address("bad IPv6 address", addr))?;
        let port = match after {
            "" => None,
            p => Some(
                p.strip_prefix(':')
                    .ok_or_else(|| bad_address("unexpected text after IPv6 address", addr))?,
            ),
        };
        (Host::Ipv6(ip), port)
    } else {
        let (h, p) = match hostport.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (hostport, None),
        };
        if !is_host_name(h) {
            return Err(bad_address("missing or invalid host", addr));
        }
        let host = match h.parse::<Ipv4Addr>() {
            Ok(ip) => Host::Ipv4(ip),
            Err(_) => Host::Name(h.to_owned()),
        };
        (host, p)
    };
    let port = match port_text {
        None => None,
        Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => Some(
            p.parse::<u16>()
                .map_err(|_| bad_address("port out of range", addr))?,
        ),
        Some(_) => return Err(bad_address("bad port", addr)),
    };
    Ok(IiopAddress {
        version,
        host,
        port,
    })
}

fn parse_uiop(addr: &str) -> Result<UiopAddress, UrlError> {
    // A path may contain '@'; only a prefix before the path is a version.
    let (version, path) = if addr.starts_with(['/', '%']) {
        (None, addr)
    } else {
        parse_version(addr)?
    };
    let raw =
        unescape(path, is_uri_char).map_err(|_| bad_address("badly escaped socket path", addr))?;
    let path = String::from_utf8(raw).map_err(|_| bad_address("socket path is not UTF-8", addr))?;
    if !path.starts_with('/') {
        return Err(bad_address("socket path must be absolute", addr));
    }
    if path.contains('\0') {
        return Err(bad_address("socket path contains NUL", addr));
    }
    Ok(UiopAddress { version, path })
}
