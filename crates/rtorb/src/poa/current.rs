//! `PortableServer::Current`: which POA, object id and servant the request
//! a thread is running is for.
//!
//! The ORB records them on the thread when a POA finds the servant of a
//! request (from the network or collocated) and forgets them when the
//! request ends, in a per-thread stack (a collocated call made by a
//! servant nests). The frames and their id buffers are reused, so a
//! request costs no allocation and takes no lock for it.

use std::cell::RefCell;
use std::sync::Arc;

use crate::object::Object;
use crate::servant::Skeleton;

use super::{Poa, PoaError};

/// The repository id of `PortableServer::Current`.
pub const CURRENT_REPOSITORY_ID: &str = "IDL:omg.org/PortableServer/Current:2.3";

/// `PortableServer::Current`: asks about the request the calling thread
/// is running. Every handle sees the calling thread's request; get one
/// from [`crate::orb::Orb::poa_current`] or
/// `resolve_initial_references("POACurrent")` and [`Current::narrow`].
///
/// Objects bound under plain keys ([`crate::orb::Orb::activate_with_key`])
/// are not POA objects: their requests have no POA context.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Current;

/// `PortableServer::Current::NoContext`: the calling thread is not running
/// a request of a POA object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the thread runs no request of a POA object (NoContext)")]
pub struct NoContext;

/// What one running request is for.
#[derive(Default)]
struct Frame {
    poa: Option<Poa>,
    servant: Option<Arc<dyn Skeleton>>,
    id: Vec<u8>,
}

/// The requests a thread runs, innermost last; frames past `depth` are
/// kept for their buffers.
#[derive(Default)]
struct Stack {
    frames: Vec<Frame>,
    depth: usize,
}

thread_local! {
    static STACK: RefCell<Stack> = RefCell::new(Stack::default());
}

/// The thread starts running a request for `id` of `poa`, on `servant`.
pub(crate) fn enter(poa: &Poa, id: &[u8], servant: &Arc<dyn Skeleton>) {
    STACK.with(|s| {
        let mut s = s.borrow_mut();
        let depth = s.depth;
        if depth == s.frames.len() {
            s.frames.push(Frame::default());
        }
        if let Some(f) = s.frames.get_mut(depth) {
            f.poa = Some(poa.clone());
            f.servant = Some(Arc::clone(servant));
            f.id.clear();
            f.id.extend_from_slice(id);
        }
        s.depth = depth + 1;
    });
}

/// The innermost request of the thread ends.
pub(crate) fn leave() {
    // Taken out before they are dropped: dropping a servant or a POA may
    // run code that asks about the current request.
    let (poa, servant) = STACK.with(|s| {
        let mut s = s.borrow_mut();
        let Some(depth) = s.depth.checked_sub(1) else {
            return (None, None);
        };
        s.depth = depth;
        match s.frames.get_mut(depth) {
            Some(f) => (f.poa.take(), f.servant.take()),
            None => (None, None),
        }
    });
    drop((poa, servant));
}

/// `f` applied to the thread's innermost request.
fn with_frame<T>(f: impl FnOnce(&Frame) -> T) -> Result<T, NoContext> {
    STACK.with(|s| {
        let s = s.borrow();
        let depth = s.depth.checked_sub(1).ok_or(NoContext)?;
        s.frames.get(depth).map(f).ok_or(NoContext)
    })
}

impl Current {
    /// `get_POA`: the POA of the request.
    pub fn get_poa(&self) -> Result<Poa, NoContext> {
        with_frame(|f| f.poa.clone())?.ok_or(NoContext)
    }

    /// `get_object_id`: the object id the request is for.
    pub fn get_object_id(&self) -> Result<Vec<u8>, NoContext> {
        with_frame(|f| f.id.clone())
    }

    /// `get_servant`: the servant running the request.
    pub fn get_servant(&self) -> Result<Arc<dyn Skeleton>, NoContext> {
        with_frame(|f| f.servant.clone())?.ok_or(NoContext)
    }

    /// `get_reference`: a reference to the object the request is for,
    /// typed by the servant's most derived interface.
    pub fn get_reference(&self) -> Result<Object, PoaError> {
        let (poa, servant, id) = with_frame(|f| (f.poa.clone(), f.servant.clone(), f.id.clone()))
            .map_err(|_| PoaError::NoContext)?;
        let (Some(poa), Some(servant)) = (poa, servant) else {
            return Err(PoaError::NoContext);
        };
        let type_id = servant.repository_ids().first().copied().unwrap_or("");
        poa.reference(&id, type_id)
    }

    /// The `Current` as a (local) `CORBA::Object`, which
    /// [`Current::narrow`] turns back into it; it cannot be invoked.
    pub fn as_object(&self) -> Object {
        let target = crate::object::Target::from_key(
            CURRENT_REPOSITORY_ID,
            bytes::Bytes::from_static(b"POACurrent"),
        );
        let _ = target.binding().set(Arc::new(Current));
        Object::new(Arc::new(super::adapter::LocalObject), target)
    }

    /// The `Current` an object from
    /// `resolve_initial_references("POACurrent")` is, if it is one.
    pub fn narrow(object: &Object) -> Option<Current> {
        object
            .target()
            .binding()
            .get()?
            .downcast_ref::<Current>()
            .copied()
    }
}
