//! Object references in messages.
//!
//! An object reference travels as an IOR ([`write_object`]): the
//! reference the [`Object`]'s target came from, or, for an object known
//! only by its key (the loopback's), an IIOP profile with no address
//! holding the key.
//!
//! Reading one ([`read_object`]) needs an [`Invoker`] to call the object
//! through: the invoker *current* on the thread, which a stub sets with
//! [`with_invoker`] around a call whose arguments or results hold
//! references (the in-process loopback serves the call on the same
//! thread, so the servant's references reach it through the same
//! invoker). Without a current invoker a non-nil reference does not
//! decode ([`CdrError::Unsupported`], so `MARSHAL`).

use std::cell::RefCell;
use std::sync::Arc;

use rtorb_cdr::{CdrDecode, CdrEncode, CdrError, Decoder, Encoder};
use rtorb_giop::ObjectReference;
use rtorb_giop::ior::{IiopProfile, Profile};

use super::invoker::Invoker;
use super::reference::Object;
use super::target::Target;

thread_local! {
    static CURRENT_INVOKER: RefCell<Option<Arc<dyn Invoker>>> = const { RefCell::new(None) };
}

/// Runs `f` with `invoker` as the thread's current invoker, the one
/// object references read by [`read_object`] are bound to; the previous
/// one is restored afterwards.
pub fn with_invoker<R>(invoker: &Arc<dyn Invoker>, f: impl FnOnce() -> R) -> R {
    // A server thread has its ORB's invoker already (see
    // `set_thread_invoker`): nothing to swap per request.
    let already =
        CURRENT_INVOKER.with(|c| c.borrow().as_ref().is_some_and(|i| Arc::ptr_eq(i, invoker)));
    if already {
        return f();
    }
    let previous = CURRENT_INVOKER.with(|c| c.replace(Some(invoker.clone())));
    let out = f();
    CURRENT_INVOKER.with(|c| *c.borrow_mut() = previous);
    out
}

/// Makes `invoker` the calling thread's current invoker for good: for a
/// thread that serves one ORB's requests and nothing else.
pub(crate) fn set_thread_invoker(invoker: &Arc<dyn Invoker>) {
    CURRENT_INVOKER.with(|c| *c.borrow_mut() = Some(invoker.clone()));
}

/// The object reference (IOR) that designates `object`
/// ([`Target::designating_reference`]).
pub fn object_reference(object: &Object) -> ObjectReference {
    let target = object.target();
    match target.designating_reference() {
        Some(r) => r,
        None => ObjectReference::new(
            target.type_id(),
            vec![Profile::Iiop(IiopProfile::new(
                rtorb_cdr::Version::V1_2,
                "",
                0,
                target.object_key().clone(),
            ))],
        ),
    }
}

/// Writes an object reference (`None` is the nil reference).
pub fn write_object(e: &mut Encoder, object: Option<&Object>) -> Result<(), CdrError> {
    match object {
        None => ObjectReference::nil().encode(e),
        Some(o) => object_reference(o).encode(e),
    }
}

/// Reads an object reference, bound to the thread's current invoker
/// (set by [`with_invoker`]); the nil reference is `None`.
pub fn read_object(d: &mut Decoder) -> Result<Option<Object>, CdrError> {
    let reference = ObjectReference::decode(d)?;
    if reference.is_nil() {
        return Ok(None);
    }
    let invoker = CURRENT_INVOKER
        .with(|c| c.borrow().clone())
        .ok_or(CdrError::Unsupported(
            "no invoker to bind an object reference to",
        ))?;
    let target = Target::from_reference(reference)
        .map_err(|_| CdrError::Unsupported("object reference without an object key"))?;
    Ok(Some(Object::new(invoker, target)))
}
