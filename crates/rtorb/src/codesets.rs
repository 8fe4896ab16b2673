//! Code-set negotiation on the ORB's connections (CORBA 3.x §13.10.2).
//!
//! rtorb's native code sets by default, advertised in the `TAG_CODE_SETS`
//! component of every GIOP 1.1+ profile the ORB makes
//! ([`CodeSetConfig::component`]):
//!
//! - `char`: **UTF-8** native, converting to ISO 8859-1. Rust strings are
//!   UTF-8, so UTF-8 carries every string losslessly; a peer whose native
//!   set is ISO 8859-1 (omniORB's default) and that converts to UTF-8
//!   negotiates UTF-8, one that does not negotiates ISO 8859-1 (and text
//!   outside Latin-1 then fails to marshal, `MARSHAL`, rather than being
//!   mangled).
//! - `wchar`: **UTF-16** native, converting to UCS-2.
//!
//! The client side ([`ClientCodeSets::for_profile`]) negotiates the
//! transmission code sets from the target profile's component with
//! [`rtorb_cdr::codeset::negotiate_one`], `char` and `wchar` each on its own,
//! and sends them in the `CodeSets`
//! service context of the first request of each connection (GIOP 1.1 and
//! later; GIOP 1.0 has neither components nor the context). A profile
//! without the component (a `corbaloc:` reference) leaves the *assumed*
//! code sets: by default what CORBA prescribes, ISO 8859-1 for `char` and
//! *no* code set for `wchar` (there is no default for `wchar`). Other
//! assumed code sets ([`CodeSetConfig::assumed_char`],
//! [`CodeSetConfig::assumed_wchar`]) are announced in a `CodeSets` context
//! like negotiated ones, so that the server reads the text as it was
//! written.
//!
//! The server side ([`ServerCodeSets`]) takes the code sets from the first
//! `CodeSets` context on a connection and decodes arguments and encodes
//! replies with them; until one arrives it uses the assumed code sets (by
//! default ISO 8859-1 and no `wchar` code set,
//! [`TransmissionCodeSets::UNNEGOTIATED`]).
//!
//! Text that cannot be carried is never altered: a character the
//! transmission code set cannot represent, or octets that are not text in
//! it, raise `DATA_CONVERSION` OMG minor 1
//! ([`DATA_CONVERSION_CHAR_NOT_IN_CODE_SET`](crate::minor::DATA_CONVERSION_CHAR_NOT_IN_CODE_SET)), `COMPLETED_NO` for
//! arguments and `COMPLETED_YES` for results.
//!
//! `wchar`/`wstring` data where it cannot go gives the exceptions CORBA
//! assigns:
//!
//! | where | exception |
//! |---|---|
//! | a client would send it to a profile that specifies no `wchar` code set: no `TAG_CODE_SETS` component, one without `wchar` code sets, or a GIOP 1.0 profile (which cannot carry components) | `INV_OBJREF` OMG minor 1 ([`INV_OBJREF_WCHAR_CODE_SET_NOT_SPECIFIED`]) |
//! | a server receives it in a GIOP 1.0 request | `MARSHAL` OMG minor 5 ([`MARSHAL_WCHAR_SENT_BY_CLIENT_GIOP_1_0`](crate::minor::MARSHAL_WCHAR_SENT_BY_CLIENT_GIOP_1_0)) |
//! | a server would return it in GIOP 1.0, or a client reads it in a 1.0 reply | `MARSHAL` OMG minor 6 ([`MARSHAL_WCHAR_RETURNED_BY_SERVER_GIOP_1_0`](crate::minor::MARSHAL_WCHAR_RETURNED_BY_SERVER_GIOP_1_0), see [`crate::exception::marshal_completed`]) |
//! | a server receives or would return it without a negotiated `wchar` code set | `BAD_PARAM` OMG minor 23 ([`BAD_PARAM_WCHAR_CODE_SET_NOT_NEGOTIATED`](crate::minor::BAD_PARAM_WCHAR_CODE_SET_NOT_NEGOTIATED)) |
//! | a client would send `char` or `wchar` data of a kind whose code sets have nothing in common with the server's | `CODESET_INCOMPATIBLE` OMG minor 1 ([`CODESET_INCOMPATIBLE_NO_COMMON`]) |
//!
//! (CORBA's rule for the client, in the IOR chapter: "if a server supports
//! interfaces that use wide character data but does not specify the wchar
//! code sets that it supports, client-side ORBs raise `INV_OBJREF`" — with
//! minor 1, "wchar code set support not specified". omniORB raises the same
//! in the same cases, GIOP 1.0 included.)
//!
//! GIOPlite connections run between rtorb ORBs only: both ends use rtorb's
//! native code sets, and no `CodeSets` context is sent.
//!
//! ```
//! use rtorb::codesets::{ClientCodeSets, CodeSetConfig};
//! use rtorb_cdr::codeset::CodeSetId;
//! use rtorb_cdr::Version;
//! use rtorb_giop::ior::{IiopProfile, Profile};
//!
//! let config = CodeSetConfig::default();
//! let mut p = IiopProfile::new(Version::V1_2, "localhost", 2809, &b"key"[..]);
//! p.components.push(config.component());
//! let cs = ClientCodeSets::for_profile(&Profile::Iiop(p), &config);
//! assert_eq!(cs.transmission().char_data, CodeSetId::UTF_8);
//! assert_eq!(cs.transmission().wchar_data, CodeSetId::UTF_16);
//! assert!(cs.context().is_some());
//!
//! // A corbaloc: reference to a server that assumes UTF-8 and UTF-16.
//! let jacorb_like = CodeSetConfig {
//!     assumed_char: CodeSetId::UTF_8,
//!     assumed_wchar: CodeSetId::UTF_16,
//!     ..CodeSetConfig::default()
//! };
//! let p = Profile::Iiop(IiopProfile::new(Version::V1_2, "localhost", 2809, &b"key"[..]));
//! let cs = ClientCodeSets::for_profile(&p, &jacorb_like);
//! assert_eq!(cs.transmission().char_data, CodeSetId::UTF_8);
//! assert!(cs.context().is_some());
//! ```

use crate::minor::{CODESET_INCOMPATIBLE_NO_COMMON, INV_OBJREF_WCHAR_CODE_SET_NOT_SPECIFIED};
use rtorb_cdr::codeset::{CHAR_CODE_SETS, WCHAR_CODE_SETS};
use rtorb_cdr::codeset::{
    CodeSetComponentInfo, CodeSetContext, CodeSetId, TransmissionCodeSets, negotiate_one,
};
use rtorb_cdr::{ByteOrder, CdrError, Version};
use rtorb_giop::ior::{Component, Profile, TaggedComponent, tags};
use rtorb_giop::service_context::{ServiceContext, ServiceContextList, TypedServiceContext};
use rtorb_giop::{CompletionStatus, FrameProtocol, SystemException, SystemExceptionKind};

/// The code sets of an ORB: its native code sets, which its references
/// advertise and its client prefers, and the code sets it assumes when the
/// other side tells none.
///
/// Set with `-ORBNativeCharCodeSet`, `-ORBNativeWCharCodeSet`,
/// `-ORBAssumedCharCodeSet` and `-ORBAssumedWCharCodeSet` (names such as
/// `UTF-8`, or registry numbers; see [`crate::orb::OrbConfig::apply_args`]),
/// the same names in a configuration file, or
/// the builder's [`native_char_code_set`](crate::orb::OrbBuilder::native_char_code_set)
/// and its three siblings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CodeSetConfig {
    /// The native code set for `char` and `string` data: UTF-8 (the
    /// default) or ISO 8859-1. Profiles advertise it, converting to the
    /// other; the client negotiates it first.
    pub native_char: CodeSetId,
    /// The native code set for `wchar` and `wstring` data: UTF-16 (the
    /// default) or UCS-2.
    pub native_wchar: CodeSetId,
    /// The `char` code set used with a GIOP 1.1 or later reference that
    /// carries no code set information (any `corbaloc:` reference), and on
    /// a server connection on which no `CodeSets` context arrived: ISO
    /// 8859-1 (the default, as CORBA prescribes) or UTF-8 (what JacORB
    /// assumes).
    pub assumed_char: CodeSetId,
    /// The `wchar` code set used in the same cases: none (the default, as
    /// CORBA prescribes: wide text then raises `INV_OBJREF` or
    /// `BAD_PARAM`), UTF-16 (what JacORB assumes) or UCS-2.
    pub assumed_wchar: CodeSetId,
}

impl CodeSetConfig {
    /// rtorb's defaults: native UTF-8 and UTF-16, assumed ISO 8859-1 and
    /// no `wchar` code set.
    pub const DEFAULT: CodeSetConfig = CodeSetConfig {
        native_char: CodeSetId::UTF_8,
        native_wchar: CodeSetId::UTF_16,
        assumed_char: CodeSetId::ISO_8859_1,
        assumed_wchar: CodeSetId::NONE,
    };

    /// Whether rtorb can use these code sets: natives and assumed ones it
    /// converts (an assumed `wchar` code set may be none); the error
    /// names the first that it cannot.
    pub fn check(&self) -> Result<(), CodeSetError> {
        CodeSetRole::ALL
            .iter()
            .try_for_each(|&role| role.check(self.get(role)))
    }

    /// The code set of `role`.
    pub fn get(&self, role: CodeSetRole) -> CodeSetId {
        match role {
            CodeSetRole::NativeChar => self.native_char,
            CodeSetRole::NativeWchar => self.native_wchar,
            CodeSetRole::AssumedChar => self.assumed_char,
            CodeSetRole::AssumedWchar => self.assumed_wchar,
        }
    }

    /// The native and conversion code sets the ORB's references advertise.
    pub fn component_info(&self) -> CodeSetComponentInfo {
        CodeSetComponentInfo::with_natives(self.native_char, self.native_wchar)
    }

    /// The `TAG_CODE_SETS` component of the ORB's profiles.
    pub fn component(&self) -> TaggedComponent {
        // Encoding a valid structure into a growable buffer cannot fail;
        // the empty component is never made.
        Component::CodeSets(self.component_info())
            .to_tagged(ByteOrder::Big)
            .unwrap_or_else(|_| TaggedComponent::new(tags::TAG_CODE_SETS, Vec::new()))
    }

    /// The assumed transmission code sets.
    pub fn assumed(&self) -> TransmissionCodeSets {
        TransmissionCodeSets {
            char_data: self.assumed_char,
            wchar_data: self.assumed_wchar,
        }
    }
}

impl Default for CodeSetConfig {
    fn default() -> Self {
        CodeSetConfig::DEFAULT
    }
}

/// What a code set of a [`CodeSetConfig`] is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodeSetRole {
    /// [`CodeSetConfig::native_char`].
    NativeChar,
    /// [`CodeSetConfig::native_wchar`].
    NativeWchar,
    /// [`CodeSetConfig::assumed_char`].
    AssumedChar,
    /// [`CodeSetConfig::assumed_wchar`].
    AssumedWchar,
}

impl CodeSetRole {
    /// Every role, in the order [`CodeSetConfig::check`] looks at them.
    pub const ALL: [CodeSetRole; 4] = [
        CodeSetRole::NativeChar,
        CodeSetRole::NativeWchar,
        CodeSetRole::AssumedChar,
        CodeSetRole::AssumedWchar,
    ];

    /// The role in words (`native char`).
    pub const fn name(self) -> &'static str {
        match self {
            CodeSetRole::NativeChar => "native char",
            CodeSetRole::NativeWchar => "native wchar",
            CodeSetRole::AssumedChar => "assumed char",
            CodeSetRole::AssumedWchar => "assumed wchar",
        }
    }

    /// Whether the role is for `wchar` data.
    pub const fn is_wchar(self) -> bool {
        matches!(self, CodeSetRole::NativeWchar | CodeSetRole::AssumedWchar)
    }

    /// The code sets rtorb converts the role's data to.
    pub fn usable(self) -> &'static [CodeSetId] {
        if self.is_wchar() {
            &WCHAR_CODE_SETS
        } else {
            &CHAR_CODE_SETS
        }
    }

    /// Whether rtorb can use `code_set` in this role (an assumed `wchar`
    /// code set may be [`CodeSetId::NONE`]).
    pub fn check(self, code_set: CodeSetId) -> Result<(), CodeSetError> {
        let none_allowed = self == CodeSetRole::AssumedWchar && code_set == CodeSetId::NONE;
        if none_allowed || self.usable().contains(&code_set) {
            Ok(())
        } else {
            Err(CodeSetError {
                role: self,
                code_set,
            })
        }
    }
}

/// A code set rtorb cannot use where it was configured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "rtorb cannot use {code_set} as {} code set: it converts {} data to {}",
    role.name(),
    if role.is_wchar() { "wchar" } else { "char" },
    Usable(role.usable())
)]
pub struct CodeSetError {
    /// What it was configured for.
    pub role: CodeSetRole,
    /// The code set.
    pub code_set: CodeSetId,
}

/// Code sets written `A and B`.
struct Usable(&'static [CodeSetId]);

impl std::fmt::Display for Usable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, cs) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" and ")?;
            }
            write!(f, "{cs}")?;
        }
        Ok(())
    }
}

/// rtorb's default native and conversion code sets, as its IORs advertise
/// them unless configured otherwise.
pub fn native_code_sets() -> CodeSetComponentInfo {
    CodeSetConfig::DEFAULT.component_info()
}

/// The `TAG_CODE_SETS` component of rtorb's profiles with the default
/// code sets.
pub fn code_sets_component() -> TaggedComponent {
    CodeSetConfig::DEFAULT.component()
}

/// The components the ORB puts in a profile of GIOP version `version`
/// (none in 1.0, whose profiles cannot carry any).
pub fn profile_components(version: Version, config: &CodeSetConfig) -> Vec<TaggedComponent> {
    if version >= Version::V1_1 {
        vec![config.component()]
    } else {
        Vec::new()
    }
}

/// How one of the two transmission code sets came about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// Negotiated with the profile's `TAG_CODE_SETS` component.
    Negotiated,
    /// The profile specifies none (no component, a component without
    /// `wchar` code sets, or a GIOP 1.0 profile): the assumed code sets
    /// (ISO 8859-1 for `char` and nothing for `wchar` in GIOP 1.0).
    NotSpecified,
    /// The component names code sets rtorb has none in common with.
    Incompatible,
}

/// The transmission code sets a client uses with one target profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientCodeSets {
    tcs: TransmissionCodeSets,
    char_data: Outcome,
    wchar_data: Outcome,
    /// Whether the code sets are announced in a `CodeSets` context: when
    /// they were negotiated, or assumed otherwise than CORBA prescribes,
    /// in GIOP 1.1 and later; never on GIOPlite connections, where both
    /// ends know them.
    send_context: bool,
}

impl ClientCodeSets {
    /// Negotiates the code sets of `config` with the `TAG_CODE_SETS`
    /// component of `profile`.
    pub fn for_profile(profile: &Profile, config: &CodeSetConfig) -> ClientCodeSets {
        let version = profile.version().unwrap_or(Version::V1_0);
        let info = profile
            .components()
            .iter()
            .filter(|c| c.tag == tags::TAG_CODE_SETS)
            .find_map(|c| match c.decode_value() {
                Ok(Component::CodeSets(info)) => Some(info),
                _ => None,
            });
        ClientCodeSets::negotiate(info.as_ref(), version, config)
    }

    /// Negotiates the code sets of `config` with a server's code set
    /// information (`None`: the profile had none, and the assumed code
    /// sets apply) for a profile of GIOP version `version`, `char` and
    /// `wchar` each on its own (CORBA 3.x §13.10.2.6, with UTF-8 and
    /// UTF-16 as the fallbacks). A code set that cannot be negotiated is
    /// [`CodeSetId::NONE`]: data of that kind then fails to marshal, other
    /// requests go through.
    pub fn negotiate(
        server: Option<&CodeSetComponentInfo>,
        version: Version,
        config: &CodeSetConfig,
    ) -> ClientCodeSets {
        let Some(server) = server.filter(|_| version >= Version::V1_1) else {
            // GIOP 1.0 has no CodeSets context to announce an assumption.
            let tcs = if version >= Version::V1_1 {
                config.assumed()
            } else {
                TransmissionCodeSets::UNNEGOTIATED
            };
            return ClientCodeSets {
                tcs,
                char_data: Outcome::NotSpecified,
                wchar_data: Outcome::NotSpecified,
                send_context: tcs != TransmissionCodeSets::UNNEGOTIATED,
            };
        };
        let client = config.component_info();
        let (char_cs, char_data) = match negotiate_one(
            &client.for_char_data,
            &server.for_char_data,
            CodeSetId::UTF_8,
            CodeSetId::is_char_supported,
        ) {
            Ok(cs) => (cs, Outcome::Negotiated),
            Err(_) => (CodeSetId::NONE, Outcome::Incompatible),
        };
        let w = &server.for_wchar_data;
        let (wchar_cs, wchar_data) =
            if w.native_code_set == CodeSetId::NONE && w.conversion_code_sets.is_empty() {
                (CodeSetId::NONE, Outcome::NotSpecified)
            } else {
                match negotiate_one(
                    &client.for_wchar_data,
                    w,
                    CodeSetId::UTF_16,
                    CodeSetId::is_wchar_supported,
                ) {
                    Ok(cs) => (cs, Outcome::Negotiated),
                    Err(_) => (CodeSetId::NONE, Outcome::Incompatible),
                }
            };
        ClientCodeSets {
            tcs: TransmissionCodeSets {
                char_data: char_cs,
                wchar_data: wchar_cs,
            },
            char_data,
            wchar_data,
            // Without a negotiated char code set there is nothing to agree
            // on (requests with char data fail before they are sent).
            send_context: char_data == Outcome::Negotiated,
        }
    }

    /// What GIOPlite connections use: rtorb's native code sets.
    pub fn lite() -> ClientCodeSets {
        ClientCodeSets {
            tcs: TransmissionCodeSets {
                char_data: CodeSetId::UTF_8,
                wchar_data: CodeSetId::UTF_16,
            },
            char_data: Outcome::Negotiated,
            wchar_data: Outcome::Negotiated,
            send_context: false,
        }
    }

    /// The transmission code sets.
    pub fn transmission(&self) -> TransmissionCodeSets {
        self.tcs
    }

    /// The `CodeSets` service context to send on the first request of a
    /// connection, if negotiation took place or code sets other than
    /// CORBA's defaults were assumed (GIOP 1.1 and later).
    #[inline]
    pub fn context(&self) -> Option<ServiceContext> {
        if !self.send_context {
            return None;
        }
        self.encoded_context()
    }

    /// The `CodeSets` context of [`ClientCodeSets::context`], encoded.
    #[inline(never)]
    fn encoded_context(&self) -> Option<ServiceContext> {
        let typed = TypedServiceContext::CodeSets(CodeSetContext::from(self.tcs));
        ServiceContext::from_typed(&typed, ByteOrder::NATIVE).ok()
    }

    /// The system exception for a failure to encode the arguments of a
    /// request with these code sets.
    pub fn request_error(&self, e: CdrError) -> SystemException {
        let ex = |kind, minor| SystemException::new(kind, minor, CompletionStatus::No);
        match e {
            // A GIOP 1.0 profile cannot specify code sets.
            CdrError::WcharInGiop10 => ex(
                SystemExceptionKind::InvObjref,
                INV_OBJREF_WCHAR_CODE_SET_NOT_SPECIFIED,
            ),
            CdrError::NoWcharCodeSet => match self.wchar_data {
                Outcome::NotSpecified => ex(
                    SystemExceptionKind::InvObjref,
                    INV_OBJREF_WCHAR_CODE_SET_NOT_SPECIFIED,
                ),
                Outcome::Incompatible => ex(
                    SystemExceptionKind::CodesetIncompatible,
                    CODESET_INCOMPATIBLE_NO_COMMON,
                ),
                Outcome::Negotiated => SystemException::from(e),
            },
            CdrError::UnsupportedCodeSet(0) if self.char_data == Outcome::Incompatible => ex(
                SystemExceptionKind::CodesetIncompatible,
                CODESET_INCOMPATIBLE_NO_COMMON,
            ),
            other => SystemException::from(other),
        }
    }
}

/// The code sets for the next request on a client connection: those sent
/// in an earlier `CodeSets` context on it (`sent`), else the target's; and
/// the context to send with this request, if it is the first to carry
/// one (`sent` is then updated once the request is written, by the
/// caller, with [`ClientCodeSets::transmission`]).
#[inline]
pub(crate) fn for_request(
    sent: Option<TransmissionCodeSets>,
    target: &ClientCodeSets,
) -> (TransmissionCodeSets, Option<ServiceContext>) {
    match sent {
        Some(tcs) => (tcs, None),
        None => (target.tcs, target.context()),
    }
}

/// The code sets of one server connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerCodeSets {
    tcs: TransmissionCodeSets,
    from_context: bool,
}

impl ServerCodeSets {
    /// A new connection speaking `protocol`: nothing negotiated yet, so
    /// the `assumed` code sets ([`CodeSetConfig::assumed`]; rtorb's
    /// native code sets on a GIOPlite connection).
    pub fn new(protocol: FrameProtocol, assumed: TransmissionCodeSets) -> ServerCodeSets {
        match protocol {
            FrameProtocol::Giop => ServerCodeSets {
                tcs: assumed,
                from_context: false,
            },
            FrameProtocol::Lite => ServerCodeSets {
                tcs: ClientCodeSets::lite().tcs,
                from_context: true,
            },
        }
    }

    /// Takes the code sets of the first `CodeSets` context that arrives on
    /// the connection (later ones are ignored: they hold for the
    /// connection), and returns those in force for this request.
    ///
    /// A context naming a code set rtorb does not convert is kept: data in
    /// it then fails to decode with `MARSHAL`, while requests without such
    /// data work.
    pub fn on_request(&mut self, contexts: &ServiceContextList) -> TransmissionCodeSets {
        if !self.from_context
            && let Some(Ok(c)) = contexts.code_sets()
        {
            self.tcs = c.into();
            self.from_context = true;
        }
        self.tcs
    }

    /// The code sets in force.
    pub fn transmission(&self) -> TransmissionCodeSets {
        self.tcs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minor::{
        BAD_PARAM_WCHAR_CODE_SET_NOT_NEGOTIATED, MARSHAL_WCHAR_RETURNED_BY_SERVER_GIOP_1_0,
        MARSHAL_WCHAR_SENT_BY_CLIENT_GIOP_1_0,
    };
    use rtorb_cdr::codeset::CodeSetComponent;
    use rtorb_giop::ior::IiopProfile;

    fn omniorb_like() -> CodeSetComponentInfo {
        CodeSetComponentInfo {
            for_char_data: CodeSetComponent {
                native_code_set: CodeSetId::ISO_8859_1,
                conversion_code_sets: vec![CodeSetId::UTF_8],
            },
            for_wchar_data: CodeSetComponent {
                native_code_set: CodeSetId::UTF_16,
                conversion_code_sets: vec![],
            },
        }
    }

    #[test]
    fn rtorb_with_rtorb_negotiates_its_native_sets() {
        let cs = ClientCodeSets::negotiate(
            Some(&native_code_sets()),
            Version::V1_2,
            &CodeSetConfig::DEFAULT,
        );
        assert_eq!(cs.transmission().char_data, CodeSetId::UTF_8);
        assert_eq!(cs.transmission().wchar_data, CodeSetId::UTF_16);
        let ctx = cs.context().expect("a context");
        assert_eq!(ctx.id, rtorb_giop::service_context::CODE_SETS);
        let mut server =
            ServerCodeSets::new(FrameProtocol::Giop, TransmissionCodeSets::UNNEGOTIATED);
        assert_eq!(server.transmission(), TransmissionCodeSets::UNNEGOTIATED);
        assert_eq!(
            server.on_request(&ServiceContextList(vec![ctx])),
            cs.transmission()
        );
        // A later, different context does not change the connection's.
        let other = ClientCodeSets::negotiate(
            Some(&omniorb_like()),
            Version::V1_1,
            &CodeSetConfig::DEFAULT,
        );
        let other_ctx = other.context().unwrap();
        assert_eq!(
            server.on_request(&ServiceContextList(vec![other_ctx])),
            cs.transmission()
        );
        assert_eq!(
            server.on_request(&ServiceContextList::new()),
            cs.transmission()
        );
    }

    #[test]
    fn a_server_converting_to_utf8_gets_utf8() {
        let cs = ClientCodeSets::negotiate(
            Some(&omniorb_like()),
            Version::V1_1,
            &CodeSetConfig::DEFAULT,
        );
        assert_eq!(cs.transmission().char_data, CodeSetId::UTF_8);
        assert_eq!(cs.transmission().wchar_data, CodeSetId::UTF_16);
        // Native Latin-1 without conversions: rtorb converts to it.
        let mut latin = omniorb_like();
        latin.for_char_data.conversion_code_sets.clear();
        let cs = ClientCodeSets::negotiate(Some(&latin), Version::V1_2, &CodeSetConfig::DEFAULT);
        assert_eq!(cs.transmission().char_data, CodeSetId::ISO_8859_1);
    }

    #[test]
    fn no_component_means_latin1_and_no_wchar_and_no_context() {
        let p = Profile::Iiop(IiopProfile::new(Version::V1_2, "h", 1, &b"k"[..]));
        let cs = ClientCodeSets::for_profile(&p, &CodeSetConfig::DEFAULT);
        assert_eq!(cs.transmission(), TransmissionCodeSets::UNNEGOTIATED);
        assert!(cs.context().is_none());
        let e = cs.request_error(CdrError::NoWcharCodeSet);
        assert_eq!(e.kind(), Some(SystemExceptionKind::InvObjref));
        assert_eq!(e.minor, INV_OBJREF_WCHAR_CODE_SET_NOT_SPECIFIED);
        assert_eq!(e.completed, CompletionStatus::No);
        // A GIOP 1.0 profile: no context even with a component.
        let cs = ClientCodeSets::negotiate(
            Some(&native_code_sets()),
            Version::V1_0,
            &CodeSetConfig::DEFAULT,
        );
        assert!(cs.context().is_none());
        let e = cs.request_error(CdrError::WcharInGiop10);
        assert_eq!(e.kind(), Some(SystemExceptionKind::InvObjref));
        assert_eq!(e.minor, INV_OBJREF_WCHAR_CODE_SET_NOT_SPECIFIED);
    }

    #[test]
    fn a_component_without_wchar_is_inv_objref_minor_1() {
        let mut info = omniorb_like();
        info.for_wchar_data = CodeSetComponent {
            native_code_set: CodeSetId::NONE,
            conversion_code_sets: vec![],
        };
        let cs = ClientCodeSets::negotiate(Some(&info), Version::V1_2, &CodeSetConfig::DEFAULT);
        assert_eq!(cs.transmission().char_data, CodeSetId::UTF_8);
        assert_eq!(cs.transmission().wchar_data, CodeSetId::NONE);
        let e = cs.request_error(CdrError::NoWcharCodeSet);
        assert_eq!(e.kind(), Some(SystemExceptionKind::InvObjref));
        assert_eq!(e.minor, INV_OBJREF_WCHAR_CODE_SET_NOT_SPECIFIED);
    }

    #[test]
    fn the_component_round_trips() {
        let c = code_sets_component();
        match c.decode_value() {
            Ok(Component::CodeSets(info)) => assert_eq!(info, native_code_sets()),
            other => panic!("{other:?}"),
        }
        assert!(profile_components(Version::V1_0, &CodeSetConfig::DEFAULT).is_empty());
        assert_eq!(
            profile_components(Version::V1_1, &CodeSetConfig::DEFAULT),
            vec![c]
        );
    }

    #[test]
    fn wchar_in_a_giop_1_0_reply_is_marshal_minor_6() {
        let e = crate::exception::marshal_completed(&CdrError::WcharInGiop10);
        assert_eq!(e.kind(), Some(SystemExceptionKind::Marshal));
        assert_eq!(e.minor, MARSHAL_WCHAR_RETURNED_BY_SERVER_GIOP_1_0);
        assert_eq!(e.completed, CompletionStatus::Yes);
        let e = crate::exception::marshal_completed(&CdrError::NoWcharCodeSet);
        assert_eq!(e.kind(), Some(SystemExceptionKind::BadParam));
        assert_eq!(e.minor, BAD_PARAM_WCHAR_CODE_SET_NOT_NEGOTIATED);
        // Arguments: the client's GIOP 1.0 minor, and BAD_PARAM 23.
        let e = SystemException::from(CdrError::WcharInGiop10);
        assert_eq!(e.minor, MARSHAL_WCHAR_SENT_BY_CLIENT_GIOP_1_0);
        let e = SystemException::from(CdrError::NoWcharCodeSet);
        assert_eq!(e.kind(), Some(SystemExceptionKind::BadParam));
        assert_eq!(e.minor, BAD_PARAM_WCHAR_CODE_SET_NOT_NEGOTIATED);
    }

    #[test]
    fn code_sets_with_nothing_in_common_are_codeset_incompatible() {
        // ISO 8859-2 for char, UCS-4 for wchar, converting to nothing.
        let info = CodeSetComponentInfo {
            for_char_data: CodeSetComponent {
                native_code_set: CodeSetId(0x0001_0002),
                conversion_code_sets: vec![],
            },
            for_wchar_data: CodeSetComponent {
                native_code_set: CodeSetId(0x0001_0106),
                conversion_code_sets: vec![],
            },
        };
        let cs = ClientCodeSets::negotiate(Some(&info), Version::V1_2, &CodeSetConfig::DEFAULT);
        assert_eq!(cs.transmission().char_data, CodeSetId::NONE);
        assert_eq!(cs.transmission().wchar_data, CodeSetId::NONE);
        assert!(cs.context().is_none());
        // What the encoder reports for char data without a code set.
        let mut e =
            rtorb_cdr::Encoder::new(rtorb_cdr::Encoding::native().with_codesets(cs.transmission()));
        let char_error = e.write_string("x").unwrap_err();
        let wchar_error = e.write_wstring("x").unwrap_err();
        for err in [char_error, wchar_error] {
            let ex = cs.request_error(err);
            assert_eq!(ex.kind(), Some(SystemExceptionKind::CodesetIncompatible));
            assert_eq!(ex.minor, CODESET_INCOMPATIBLE_NO_COMMON);
        }
        // Data without text still goes: the encoder writes it.
        e.write_u32(7);
    }

    #[test]
    fn giop_lite_uses_the_native_sets_without_a_context() {
        let cs = ClientCodeSets::lite();
        assert_eq!(
            cs.transmission(),
            ServerCodeSets::new(FrameProtocol::Lite, TransmissionCodeSets::UNNEGOTIATED)
                .transmission()
        );
        assert_eq!(cs.transmission().char_data, CodeSetId::UTF_8);
        assert!(cs.context().is_none());
    }
}
