//! The CORBA Naming Service (`CosNaming`), as a client sees it: the
//! stubs of [`NamingContext`], [`NamingContextExt`] and
//! [`BindingIterator`], their types and exceptions, compiled by
//! `rtorb-idl` at build time from the crate's `idl/CosNaming.idl`
//! (written from the OMG Naming Service specification, with its
//! repository ids, so that they talk to omniNames, TAO's or JacORB's
//! naming service); and the resolution of `corbaname:` URLs that
//! [`Orb::string_to_object`](crate::orb::Orb::string_to_object) does
//! with them.
//!
//! rtorb has no naming server of its own: these are the client's side.
//! The servant traits ([`NamingContextExtServant`] and the others) are
//! generated too, for a program that serves a naming context itself.
//!
//! # Binding and resolving
//!
//! A naming service's root context comes from
//! `resolve_initial_references("NameService")` (configured with
//! `-ORBInitRef NameService=corbaloc::host:port/NameService`), or from a
//! `corbaloc:`/`corbaname:` URL. Names are [`Name`]s, sequences of
//! [`NameComponent`]s, written `a/b.kind/c` in their stringified form
//! ([`parse_name`], [`name_to_string`]). A `corbaname:` URL names an
//! object by its naming service and its name:
//!
//! ```text
//! corbaname::ns.example.com:2809#dev/cubit       the service's default key, NameService
//! corbaname::ns.example.com:2809/NameService#dev/cubit
//! corbaname:rir:#dev/cubit                       through resolve_initial_references("NameService")
//! corbaname::ns.example.com:2809                 the root context itself
//! ```
//!
//! ```
//! use rtorb::naming::{self, NamingContextExt};
//! use rtorb::orb::Orb;
//! use rtorb::exception::SystemExceptionKind;
//! use rtorb::object::{Object, Stub};
//!
//! /// Binds `object` under `dir/name` in the naming service, making the
//! /// context `dir` if it is not there yet.
//! fn publish(orb: &Orb, object: &Object) -> Result<(), Box<dyn std::error::Error>> {
//!     let root: NamingContextExt = orb.resolve_initial_references("NameService")?.unchecked_narrow();
//!     match root.bind_new_context(&naming::parse_name("dir")?) {
//!         Ok(_) | Err(naming::naming_context::BindNewContextError::AlreadyBound(_)) => {}
//!         Err(e) => return Err(e.into()),
//!     }
//!     root.rebind(&naming::parse_name("dir/name")?, &Some(object.clone()))?;
//!     // What a client of the service would do: resolve it by its URL.
//!     let again = orb.string_to_object("corbaname:rir:#dir/name")?;
//!     assert_eq!(again.type_id(), object.type_id());
//!     Ok(())
//! }
//!
//! // No naming service listens on this port: binding fails, and so does
//! // resolving a corbaname URL, with TRANSIENT and a detail naming the
//! // naming service.
//! let orb = Orb::builder()
//!     .initial_reference("NameService", "corbaloc::127.0.0.1:1/NameService")
//!     .build()
//!     .unwrap();
//! let object = orb.root_poa().create_reference("IDL:Echo:1.0").unwrap();
//! let e = publish(&orb, &object).unwrap_err();
//! assert!(matches!(
//!     e.downcast_ref(),
//!     Some(naming::naming_context::BindNewContextError::System(s))
//!         if s.kind() == Some(SystemExceptionKind::Transient)
//! ), "{e}");
//! let e = orb.string_to_object("corbaname::127.0.0.1:1#dir/name").unwrap_err();
//! assert_eq!(e.kind(), Some(SystemExceptionKind::Transient));
//! assert!(e.to_string().contains("naming service corbaloc:iiop:127.0.0.1:1/NameService"), "{e}");
//!
//! // Names in their stringified form.
//! let name = naming::parse_name("dir.d/name").unwrap();
//! assert_eq!((name[0].id.as_str(), name[0].kind.as_str()), ("dir", "d"));
//! assert_eq!(naming::name_to_string(&name), "dir.d/name");
//! orb.shutdown();
//! ```

mod corbaname;

pub(crate) use corbaname::resolve_corbaname;

/// The code `rtorb-idl` generates from `idl/CosNaming.idl`: the module
/// `cos_naming`, whose items this module re-exports.
#[allow(unreachable_pub)]
mod idl {
    include!(concat!(env!("OUT_DIR"), "/CosNaming.rs"));
}

pub use idl::cos_naming::*;

/// A stringified name (`a/b.kind`, `\` escaping `/`, `.` and `\`) as a
/// [`Name`], as `NamingContextExt::to_name` gives it but without asking a
/// naming service. The empty string, an empty component (`a//b`) or a
/// component with two unescaped dots is `InvalidName`.
pub fn parse_name(s: &str) -> Result<Name, naming_context::InvalidName> {
    match rtorb_giop::corbaloc::parse_name(s) {
        Ok(name) if !name.is_empty() => Ok(name.into_iter().map(NameComponent::from).collect()),
        _ => Err(naming_context::InvalidName {}),
    }
}

/// The stringified form of `name`, as `NamingContextExt::to_string` gives
/// it; the inverse of [`parse_name`].
pub fn name_to_string(name: &[NameComponent]) -> String {
    let parsed: Vec<rtorb_giop::corbaloc::NameComponent> = name
        .iter()
        .map(|c| rtorb_giop::corbaloc::NameComponent::new(c.id.as_str(), c.kind.as_str()))
        .collect();
    rtorb_giop::corbaloc::name_to_string(&parsed)
}

/// A component of a name parsed from a `corbaname:` URL.
impl From<rtorb_giop::corbaloc::NameComponent> for NameComponent {
    fn from(c: rtorb_giop::corbaloc::NameComponent) -> NameComponent {
        NameComponent {
            id: c.id,
            kind: c.kind,
        }
    }
}

/// The reason's IDL name (`missing_node`, `not_context`, `not_object`).
impl std::fmt::Display for naming_context::NotFoundReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            naming_context::NotFoundReason::MissingNode => "missing_node",
            naming_context::NotFoundReason::NotContext => "not_context",
            naming_context::NotFoundReason::NotObject => "not_object",
        })
    }
}
