//! Resolving a `corbaname:` URL's name in its naming context.
//!
//! The ORB turns the URL's address and key into the context's reference
//! (a `corbaloc:` reference, or `resolve_initial_references` for `rir:`);
//! this asks the context for the name with `NamingContextExt::resolve_str`
//! and, where the context is a plain `NamingContext` without it
//! (`BAD_OPERATION`), with `NamingContext::resolve`.
//!
//! What the naming service says about the name (`NotFound`,
//! `CannotProceed`, `InvalidName`, a nil binding, or no naming context at
//! all) is `BAD_PARAM` with OMG minor 10
//! ([`BAD_PARAM_OTHER_URL_ERROR`]), as omniORB raises it: the URL cannot
//! be turned into a reference. A system exception of the call itself
//! (`TRANSIENT` when the naming service cannot be reached,
//! `OBJECT_NOT_EXIST` for a key it does not serve, a timeout) is passed
//! on, kind, minor code and completion status unchanged. Either way the
//! detail names the URL, the naming service and what failed.

use rtorb_giop::Corbaname;

use super::naming_context::{NotFound, ResolveError};
use super::naming_context_ext::ResolveStrError;
use super::{Name, NameComponent, NamingContext, NamingContextExt, name_to_string};
use crate::exception::{CompletionStatus, SystemException, SystemExceptionKind};
use crate::minor::BAD_PARAM_OTHER_URL_ERROR;
use crate::object::Object;

/// The object `url` (parsed from `given`, which the details quote) names
/// in `context`, its naming context: `context` itself when the URL has no
/// name.
pub(crate) fn resolve_corbaname(
    context: Object,
    url: &Corbaname,
    given: &str,
) -> Result<Object, SystemException> {
    let given = given.trim();
    if url.name.is_empty() {
        return Ok(context);
    }
    let name: Name = url.name.iter().cloned().map(NameComponent::from).collect();
    let text = name_to_string(&name);
    let failed = |what: std::fmt::Arguments<'_>| {
        SystemException::new(
            SystemExceptionKind::BadParam,
            BAD_PARAM_OTHER_URL_ERROR,
            CompletionStatus::No,
        )
        .with_detail(format_args!(
            "{given}: the naming service {} {what}",
            url.context()
        ))
    };
    let found = match context
        .clone()
        .unchecked_narrow::<NamingContextExt>()
        .resolve_str(&text)
    {
        Err(ResolveStrError::System(e)) if is_bad_operation(&e) => {
            // A naming context without NamingContextExt's operations.
            context
                .unchecked_narrow::<NamingContext>()
                .resolve(&name)
                .map_err(Answer::from)
        }
        other => other.map_err(Answer::from),
    };
    match found {
        Ok(Some(object)) => Ok(object),
        Ok(None) => Err(failed(format_args!(
            "has {text:?} bound to a nil reference"
        ))),
        Err(Answer::NotFound(nf)) => Err(failed(format_args!(
            "has no object bound to {text:?}: NotFound ({}) at {:?}",
            nf.why,
            name_to_string(&nf.rest_of_name)
        ))),
        Err(Answer::CannotProceed(rest)) => Err(failed(format_args!(
            "cannot go on resolving {text:?}: CannotProceed at {:?}",
            name_to_string(&rest)
        ))),
        Err(Answer::InvalidName) => Err(failed(format_args!(
            "rejects {text:?} as a name: InvalidName"
        ))),
        Err(Answer::System(e)) if is_bad_operation(&e) => Err(failed(format_args!(
            "is not a naming context: resolving {text:?} gives {e}"
        ))),
        Err(Answer::System(e)) => {
            let why = e
                .detail()
                .or_else(|| e.minor_code().map(|m| m.meaning))
                .map_or_else(|| e.to_string(), str::to_owned);
            let context = url.context();
            Err(match e.kind() {
                Some(SystemExceptionKind::Transient) => e.with_detail(format_args!(
                    "{given}: cannot reach the naming service {context}: {why}"
                )),
                _ => e.with_detail(format_args!(
                    "{given}: resolving {text:?} in the naming service {context} failed: {why}"
                )),
            })
        }
    }
}

fn is_bad_operation(e: &SystemException) -> bool {
    e.kind() == Some(SystemExceptionKind::BadOperation)
}

/// What the naming context answered other than an object, from either
/// operation.
enum Answer {
    NotFound(NotFound),
    CannotProceed(Name),
    InvalidName,
    System(SystemException),
}

impl From<ResolveStrError> for Answer {
    fn from(e: ResolveStrError) -> Answer {
        match e {
            ResolveStrError::NotFound(nf) => Answer::NotFound(nf),
            ResolveStrError::CannotProceed(cp) => Answer::CannotProceed(cp.rest_of_name),
            ResolveStrError::InvalidName(_) => Answer::InvalidName,
            ResolveStrError::System(e) => Answer::System(e),
        }
    }
}

impl From<ResolveError> for Answer {
    fn from(e: ResolveError) -> Answer {
        match e {
            ResolveError::NotFound(nf) => Answer::NotFound(nf),
            ResolveError::CannotProceed(cp) => Answer::CannotProceed(cp.rest_of_name),
            ResolveError::InvalidName(_) => Answer::InvalidName,
            ResolveError::System(e) => Answer::System(e),
        }
    }
}
