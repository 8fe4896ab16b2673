//! `CORBA::ORB::string_to_object`: references from stringified IORs,
//! `corbaloc:` and `corbaname:` URLs (resolved through their naming
//! service by [`crate::naming`]) and `file://` paths holding one; and
//! `resolve_initial_references`, by configured URL or built in.

use rtorb_giop::corbaloc::Location;
use rtorb_giop::{
    CompletionStatus, Corbaloc, ObjectUrl, SystemException, SystemExceptionKind, parse_object_url,
};

use super::broker::Orb;
use super::config::bounded_file::read_bounded;
use super::error::OrbError;
use crate::minor::{BAD_PARAM_FILE_NO_REFERENCE, BAD_PARAM_FILE_UNREADABLE};
use crate::object::{Object, Target};

impl Orb {
    /// `CORBA::ORB::resolve_initial_references` for the names given with
    /// `-ORBInitRef` or [`OrbBuilder::initial_reference`](super::OrbBuilder::initial_reference).
    ///
    /// `"RootPOA"`, unless configured otherwise, is the Root POA as a
    /// local object: [`Poa::narrow`](crate::poa::Poa::narrow) gives the [`Poa`](crate::poa::Poa); `"POACurrent"`
    /// likewise the POA's `Current` ([`crate::poa::Current::narrow`]).
    pub fn resolve_initial_references(&self, name: &str) -> Result<Object, OrbError> {
        let configured = self
            .config
            .initial_references
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, u)| u.clone());
        let url = match configured {
            Some(u) => u,
            None if name == "RootPOA" => return Ok(self.root_poa().as_object()),
            None if name == "POACurrent" => return Ok(crate::poa::Current.as_object()),
            None => return Err(OrbError::InvalidName(name.to_owned())),
        };
        Ok(self.string_to_object(&url)?)
    }

    /// `CORBA::ORB::string_to_object`: a reference from an `IOR:` or
    /// `corbaloc:` string (`corbaloc:rir:` through the initial
    /// references), the object a `corbaname:` URL names in its naming
    /// service (see [`crate::naming`]), or from a file: `file:///abs/path`
    /// or `file://relative/path` (TAO's convention: everything after
    /// `file://` is the path) holding an `IOR:`, `corbaloc:` or
    /// `corbaname:` string, surrounding whitespace ignored.
    ///
    /// A malformed string is `BAD_PARAM`; a file that cannot be read, is
    /// larger than [`MAX_CONFIG_FILE_SIZE`](super::MAX_CONFIG_FILE_SIZE) or is not UTF-8 is
    /// `BAD_PARAM` with minor code [`BAD_PARAM_FILE_UNREADABLE`], and one
    /// that holds no such string is `BAD_PARAM` with
    /// [`BAD_PARAM_FILE_NO_REFERENCE`]. A name its naming service does not
    /// resolve is `BAD_PARAM` with OMG minor 10
    /// ([`BAD_PARAM_OTHER_URL_ERROR`](crate::minor::BAD_PARAM_OTHER_URL_ERROR)),
    /// as omniORB raises it, and a naming service that cannot be reached
    /// `TRANSIENT`; the detail says which name and which naming service. A
    /// `corbaname:` read from a file fails the same way, the file named in
    /// the detail.
    pub fn string_to_object(&self, s: &str) -> Result<Object, SystemException> {
        let bad_param = |minor| {
            SystemException::new(SystemExceptionKind::BadParam, minor, CompletionStatus::No)
        };
        let trimmed = s.trim();
        if let Some(path) = trimmed
            .get(..7)
            .filter(|p| p.eq_ignore_ascii_case("file://"))
            .map(|_| &trimmed[7..])
        {
            if path.is_empty() {
                return Err(bad_param(BAD_PARAM_FILE_UNREADABLE)
                    .with_detail(format_args!("{trimmed:?} names no file")));
            }
            let text = read_bounded(std::path::Path::new(path)).map_err(|e| {
                bad_param(BAD_PARAM_FILE_UNREADABLE).with_detail(format_args!("{path}: {e}"))
            })?;
            let inner = text.trim();
            let scheme_ok = ["IOR:", "corbaloc:", "corbaname:"].iter().any(|p| {
                inner
                    .get(..p.len())
                    .is_some_and(|h| h.eq_ignore_ascii_case(p))
            });
            if !scheme_ok {
                return Err(
                    bad_param(BAD_PARAM_FILE_NO_REFERENCE).with_detail(format_args!(
                        "{path} does not start with IOR:, corbaloc: or corbaname:"
                    )),
                );
            }
            // A corbaname: whose naming service cannot resolve it fails as
            // it would given directly: that is no fault of the file.
            let corbaname = matches!(parse_object_url(inner), Ok(ObjectUrl::Corbaname(_)));
            return self.string_to_object(inner).map_err(|e| match e.kind() {
                _ if corbaname => {
                    let why = what_failed(&e);
                    e.with_detail(format_args!("{path}: {why}"))
                }
                Some(SystemExceptionKind::BadParam) => {
                    bad_param(BAD_PARAM_FILE_NO_REFERENCE).with_detail(format_args!("{path}: {e}"))
                }
                _ => e,
            });
        }
        let reference =
            match parse_object_url(s).map_err(|e| bad_param(e.minor()).with_detail(e))? {
                ObjectUrl::Ior(r) => r,
                ObjectUrl::Corbaloc(c) => return self.corbaloc_to_object(&c),
                ObjectUrl::Corbaname(c) => {
                    let context = self.corbaloc_to_object(&c.context()).map_err(|e| {
                        let why = what_failed(&e);
                        e.with_detail(format_args!("{}: {why}", s.trim()))
                    })?;
                    return crate::naming::resolve_corbaname(context, &c, s);
                }
            };
        Ok(Object::new(
            self.invoker(),
            Target::from_reference(reference)?,
        ))
    }

    /// The object of a `corbaloc:` URL: a reference made from its
    /// addresses and key, or the initial reference its `rir:` key names.
    fn corbaloc_to_object(&self, c: &Corbaloc) -> Result<Object, SystemException> {
        let bad_param = |minor| {
            SystemException::new(SystemExceptionKind::BadParam, minor, CompletionStatus::No)
        };
        if c.location == Location::Rir {
            let name = String::from_utf8_lossy(&c.key).into_owned();
            return self.resolve_initial_references(&name).map_err(|e| {
                bad_param(crate::minor::BAD_PARAM_OTHER_URL_ERROR)
                    .with_detail(format_args!("rir:{name}: {e}"))
            });
        }
        let reference = c
            .to_ior("")
            .map_err(|e| bad_param(e.minor()).with_detail(e))?;
        Ok(Object::new(
            self.invoker(),
            Target::from_reference(reference)?,
        ))
    }
}

/// The detail of `e`, or else what its minor code means, to put after
/// where it failed.
fn what_failed(e: &SystemException) -> String {
    e.detail()
        .or_else(|| e.minor_code().map(|m| m.meaning))
        .map_or_else(|| e.to_string(), str::to_owned)
}
