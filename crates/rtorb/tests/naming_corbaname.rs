//! `rtorb::naming` and corbaname resolution against a naming context that
//! an rtorb server serves itself (the tests against omniNames are in
//! `interop/harness/tests/naming_omninames.rs`): what the naming context
//! answers becomes the object or an error naming the URL, the service and
//! the reason; a plain `NamingContext` without `resolve_str` is asked
//! `resolve`; an object that is no naming context, a nil binding and a key
//! that is not served say so.

use rtorb::exception::{CompletionStatus, SystemException, SystemExceptionKind};
use rtorb::minor::BAD_PARAM_OTHER_URL_ERROR;
use rtorb::naming::naming_context::{
    BindContextError, BindError, BindNewContextError, CannotProceed, DestroyError, InvalidName,
    NotFound, NotFoundReason, RebindContextError, RebindError, ResolveError, UnbindError,
};
use rtorb::naming::naming_context_ext::{ResolveStrError, ToNameError, ToStringError, ToUrlError};
use rtorb::naming::{
    self, BindingIterator, BindingList, Name, NamingContext, NamingContextExtServant,
    NamingContextExtSkeleton, NamingContextServant, NamingContextSkeleton,
};
use rtorb::object::Object;
use rtorb::orb::Orb;
use rtorb_test_support::echo::{ECHO_ID, Echo, echo};
use rtorb_test_support::net::iiop_address;
use rtorb_test_support::{client, server};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

/// A naming context holding whole stringified names: `resolve` and
/// `resolve_str` look them up (`stuck` raises CannotProceed, `bad`
/// InvalidName); the other operations are not needed here.
#[derive(Default)]
struct Names {
    bound: HashMap<String, Option<Object>>,
    calls: AtomicU32,
}

impl Names {
    fn lookup(&self, name: &str) -> Result<Option<Object>, ResolveError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let rest = || naming::parse_name(name).unwrap_or_default();
        match name {
            "stuck" => Err(ResolveError::CannotProceed(CannotProceed {
                cxt: None,
                rest_of_name: rest(),
            })),
            "bad" => Err(ResolveError::InvalidName(InvalidName {})),
            _ => match self.bound.get(name) {
                Some(object) => Ok(object.clone()),
                None => Err(ResolveError::NotFound(NotFound {
                    why: NotFoundReason::MissingNode,
                    rest_of_name: rest(),
                })),
            },
        }
    }
}

fn not_here() -> SystemException {
    SystemException::new(SystemExceptionKind::NoImplement, 0, CompletionStatus::No)
}

impl NamingContextServant for Names {
    fn bind(&self, _: Name, _: Option<Object>) -> Result<(), BindError> {
        Err(not_here().into())
    }
    fn rebind(&self, _: Name, _: Option<Object>) -> Result<(), RebindError> {
        Err(not_here().into())
    }
    fn bind_context(&self, _: Name, _: Option<NamingContext>) -> Result<(), BindContextError> {
        Err(not_here().into())
    }
    fn rebind_context(&self, _: Name, _: Option<NamingContext>) -> Result<(), RebindContextError> {
        Err(not_here().into())
    }
    fn resolve(&self, n: Name) -> Result<Option<Object>, ResolveError> {
        self.lookup(&naming::name_to_string(&n))
    }
    fn unbind(&self, _: Name) -> Result<(), UnbindError> {
        Err(not_here().into())
    }
    fn new_context(&self) -> Result<Option<NamingContext>, SystemException> {
        Err(not_here())
    }
    fn bind_new_context(&self, _: Name) -> Result<Option<NamingContext>, BindNewContextError> {
        Err(not_here().into())
    }
    fn destroy(&self) -> Result<(), DestroyError> {
        Err(not_here().into())
    }
    fn list(&self, _: u32) -> Result<(BindingList, Option<BindingIterator>), SystemException> {
        Err(not_here())
    }
}

impl NamingContextExtServant for Names {
    fn to_string(&self, _: Name) -> Result<String, ToStringError> {
        Err(not_here().into())
    }
    fn to_name(&self, _: String) -> Result<Name, ToNameError> {
        Err(not_here().into())
    }
    fn to_url(&self, _: String, _: String) -> Result<String, ToUrlError> {
        Err(not_here().into())
    }
    fn resolve_str(&self, sn: String) -> Result<Option<Object>, ResolveStrError> {
        self.lookup(&sn).map_err(|e| match e {
            ResolveError::NotFound(x) => ResolveStrError::NotFound(x),
            ResolveError::CannotProceed(x) => ResolveStrError::CannotProceed(x),
            ResolveError::InvalidName(x) => ResolveStrError::InvalidName(x),
            ResolveError::System(x) => ResolveStrError::System(x),
        })
    }
}

/// A server with an Echo and, under the key `NameService`, a naming
/// context (a `NamingContextExt`, or a plain `NamingContext`) binding it
/// as `dir/echo` and a nil reference as `dir/nil`; the Echo under `Echo`.
fn naming_server(ext: bool) -> (Orb, Arc<dyn std::any::Any + Send + Sync>) {
    let server = server::orb();
    let echo_object = server
        .activate_with_key(&b"Echo"[..], Arc::new(Echo))
        .unwrap();
    let mut names = Names::default();
    names.bound.insert("dir/echo".into(), Some(echo_object));
    names.bound.insert("dir/nil".into(), None);
    let handle: Arc<dyn std::any::Any + Send + Sync> = if ext {
        let skeleton = Arc::new(NamingContextExtSkeleton(names));
        server
            .activate_with_key(&b"NameService"[..], skeleton.clone())
            .unwrap();
        skeleton
    } else {
        let skeleton = Arc::new(NamingContextSkeleton(names));
        server
            .activate_with_key(&b"NameService"[..], skeleton.clone())
            .unwrap();
        skeleton
    };
    (server, handle)
}

fn calls(handle: &Arc<dyn std::any::Any + Send + Sync>) -> u32 {
    let names = match handle.downcast_ref::<NamingContextExtSkeleton<Names>>() {
        Some(s) => &s.0,
        None => {
            &handle
                .downcast_ref::<NamingContextSkeleton<Names>>()
                .unwrap()
                .0
        }
    };
    names.calls.load(Ordering::Relaxed)
}

fn assert_url_error(e: &SystemException, parts: &[&str]) {
    assert_eq!(e.kind(), Some(SystemExceptionKind::BadParam), "{e}");
    assert_eq!(e.minor, BAD_PARAM_OTHER_URL_ERROR, "{e}");
    assert_eq!(e.completed, CompletionStatus::No, "{e}");
    let text = e.to_string();
    for part in parts {
        assert!(text.contains(part), "{part:?} is not in {text}");
    }
}

#[test]
fn corbaname_resolves_through_resolve_str_and_names_what_failed() {
    let (server, handle) = naming_server(true);
    let address = iiop_address(&server);
    let orb = client::orb();
    let url = |name: &str| format!("corbaname::{address}#{name}");

    let object = orb.string_to_object(&url("dir/echo")).unwrap();
    assert_eq!(object.type_id(), ECHO_ID);
    assert_eq!(echo(&object, 41), Ok(41));
    assert_eq!(calls(&handle), 1);

    // The name is escaped in the URL, and read back unescaped.
    let object = orb.string_to_object(&url("dir%2Fecho")).unwrap();
    assert_eq!(echo(&object, 7), Ok(7));

    // No name: the context itself, without asking it anything.
    let context = orb
        .string_to_object(&format!("corbaname::{address}"))
        .unwrap();
    assert_eq!(calls(&handle), 2);
    assert!(
        context
            .is_a("IDL:omg.org/CosNaming/NamingContextExt:1.0")
            .unwrap()
    );

    let service = format!("naming service corbaloc:iiop:{address}/NameService");
    let e = orb.string_to_object(&url("dir/none")).unwrap_err();
    assert_url_error(
        &e,
        &[
            &url("dir/none"),
            &service,
            "\"dir/none\"",
            "NotFound (missing_node)",
        ],
    );
    let e = orb.string_to_object(&url("stuck")).unwrap_err();
    assert_url_error(&e, &[&service, "CannotProceed at \"stuck\""]);
    let e = orb.string_to_object(&url("bad")).unwrap_err();
    assert_url_error(&e, &[&service, "InvalidName"]);
    let e = orb.string_to_object(&url("dir/nil")).unwrap_err();
    assert_url_error(&e, &[&service, "nil reference"]);

    // A key the server does not serve: its own OBJECT_NOT_EXIST, with the
    // URL and the service named.
    let e = orb
        .string_to_object(&format!("corbaname::{address}/Elsewhere#dir/echo"))
        .unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::ObjectNotExist), "{e}");
    assert!(
        e.to_string().contains(&format!("{address}/Elsewhere")),
        "{e}"
    );

    // An object that is no naming context.
    let e = orb
        .string_to_object(&format!("corbaname::{address}/Echo#dir/echo"))
        .unwrap_err();
    assert_url_error(&e, &["is not a naming context"]);

    orb.shutdown();
    server.shutdown();
}

#[test]
fn a_plain_naming_context_is_asked_resolve() {
    let (server, handle) = naming_server(false);
    let address = iiop_address(&server);
    let orb = client::orb();
    let object = orb
        .string_to_object(&format!("corbaname::{address}#dir/echo"))
        .unwrap();
    assert_eq!(echo(&object, 3), Ok(3));
    // resolve_str was refused before the context's resolve was asked.
    assert_eq!(calls(&handle), 1);
    let e = orb
        .string_to_object(&format!("corbaname::{address}#dir/none"))
        .unwrap_err();
    assert_url_error(&e, &["\"dir/none\"", "missing_node"]);
    orb.shutdown();
    server.shutdown();
}

#[test]
fn corbaname_rir_goes_through_the_initial_reference() {
    let (server, _handle) = naming_server(true);
    let address = iiop_address(&server);
    let orb = client::builder()
        .initial_reference("NameService", format!("corbaloc::{address}/NameService"))
        .build()
        .unwrap();
    for url in [
        "corbaname:rir:#dir/echo",
        "corbaname:rir:/NameService#dir/echo",
    ] {
        let object = orb.string_to_object(url).unwrap();
        assert_eq!(echo(&object, 5), Ok(5), "{url}");
    }
    // Another initial reference name, not configured.
    let e = orb
        .string_to_object("corbaname:rir:/Other#dir/echo")
        .unwrap_err();
    assert_url_error(&e, &["corbaname:rir:/Other#dir/echo", "Other"]);
    orb.shutdown();
    server.shutdown();
}

#[test]
fn names_convert_to_and_from_their_string_form() {
    let name = naming::parse_name("a.k/b\\/c/.x").unwrap();
    let parts: Vec<(&str, &str)> = name
        .iter()
        .map(|c| (c.id.as_str(), c.kind.as_str()))
        .collect();
    assert_eq!(parts, [("a", "k"), ("b/c", ""), ("", "x")]);
    assert_eq!(naming::name_to_string(&name), "a.k/b\\/c/.x");
    for bad in ["", "a//b", "a.b.c", "a\\"] {
        assert!(
            matches!(naming::parse_name(bad), Err(InvalidName {})),
            "{bad:?}"
        );
    }
    assert_eq!(NotFoundReason::NotContext.to_string(), "not_context");
}

#[test]
fn the_stubs_carry_the_specification_repository_ids() {
    use rtorb::cdr::IdlType;
    use rtorb::exception::UserException;
    use rtorb::naming::naming_context::{AlreadyBound, NotEmpty};
    use rtorb::naming::naming_context_ext::InvalidAddress;
    use rtorb::object::Stub;
    let ids = [
        (NamingContext::REPOSITORY_ID, "NamingContext"),
        (naming::NamingContextExt::REPOSITORY_ID, "NamingContextExt"),
        (BindingIterator::REPOSITORY_ID, "BindingIterator"),
        (NotFound::REPOSITORY_ID, "NamingContext/NotFound"),
        (CannotProceed::REPOSITORY_ID, "NamingContext/CannotProceed"),
        (InvalidName::REPOSITORY_ID, "NamingContext/InvalidName"),
        (AlreadyBound::REPOSITORY_ID, "NamingContext/AlreadyBound"),
        (NotEmpty::REPOSITORY_ID, "NamingContext/NotEmpty"),
        (
            InvalidAddress::REPOSITORY_ID,
            "NamingContextExt/InvalidAddress",
        ),
    ];
    for (id, name) in ids {
        assert_eq!(id, format!("IDL:omg.org/CosNaming/{name}:1.0"));
    }
    assert_eq!(
        naming::NameComponent::type_code().id(),
        Some("IDL:omg.org/CosNaming/NameComponent:1.0")
    );
}
