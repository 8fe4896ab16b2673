//! The request path through a POA: the manager admits the request, the
//! policies find its servant (the active object map, the default servant,
//! a servant activator that incarnates, a servant locator asked around
//! the request), a servant manager's [`ForwardRequest`](super::ForwardRequest)
//! becomes `LOCATION_FORWARD`, and the request ends in the POA when its
//! [`Upcall`] is dropped.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use bytes::Bytes;
use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

use crate::rt::PriorityModelPolicy;
use crate::servant::Skeleton;

use super::active_object_map::{Active, servant_addr};
use super::adapter_table::{Location, PooledServant};
use super::current;
use super::key;
use super::manager::{enter_upcall, leave_upcall, lock};
use super::poa_error::{no_adapter, not_active};
use super::{
    Cookie, Poa, RequestProcessingPolicy, ServantActivator, ServantLocator, ServantManager,
    ServantManagerError, read, write,
};
use crate::minor::{OBJ_ADAPTER_NO_DEFAULT_SERVANT, OBJ_ADAPTER_NO_SERVANT_MANAGER};

/// What a servant lookup gives a request.
pub(crate) enum Found {
    /// Run the request on this servant.
    Servant(Upcall),
    /// Answer `LOCATION_FORWARD` to this reference.
    Forward(rtorb_giop::ObjectReference),
}

/// A servant found for one request; dropping it ends the request in the
/// POA (servant locator `postinvoke`, a pending etherealization, the
/// manager's count of running requests).
pub(crate) struct Upcall {
    skeleton: Arc<dyn Skeleton>,
    end: Option<End>,
    /// The servant of a plain key a thread pool serves.
    binding: Option<Arc<dyn PooledServant>>,
}

struct End {
    poa: Poa,
    how: How,
}

enum How {
    Retained(Arc<Active>),
    Default,
    Located {
        locator: Arc<dyn ServantLocator>,
        oid: Bytes,
        operation: String,
        cookie: Cookie,
    },
}

impl Upcall {
    /// A servant of the plain key table.
    pub(crate) fn plain(skeleton: Arc<dyn Skeleton>) -> Upcall {
        Upcall {
            skeleton,
            end: None,
            binding: None,
        }
    }

    /// A servant of the plain key table bound to a thread pool.
    pub(crate) fn bound(binding: Arc<dyn PooledServant>) -> Upcall {
        Upcall {
            skeleton: Arc::clone(binding.skeleton()),
            end: None,
            binding: Some(binding),
        }
    }

    /// The servant of a plain key bound to a thread pool, as the pool
    /// serves it.
    #[inline]
    pub(crate) fn binding(&self) -> Option<&Arc<dyn PooledServant>> {
        self.binding.as_ref()
    }

    /// Whether it is the upcall of a plain key (no POA to tell when it
    /// ends).
    pub(crate) fn is_plain(&self) -> bool {
        self.end.is_none()
    }

    /// The servant.
    pub(crate) fn skeleton(&self) -> &Arc<dyn Skeleton> {
        &self.skeleton
    }

    /// The thread pool of the servant's POA, if it is bound to one, with
    /// the POA's priority model and the component its references carry.
    #[inline]
    pub(crate) fn poa_threadpool(
        &self,
    ) -> Option<(
        crate::rt::ThreadpoolId,
        Option<PriorityModelPolicy>,
        Option<&rtorb_giop::ior::TaggedComponent>,
    )> {
        let poa = &self.end.as_ref()?.poa.0;
        let pool = poa.policies.threadpool?;
        Some((pool, poa.policies.priority_model, poa.exposed.as_ref()))
    }

    /// The Real-time CORBA priority model of the servant's POA, if any.
    #[inline]
    pub(crate) fn priority_model(&self) -> Option<PriorityModelPolicy> {
        if let Some(b) = &self.binding {
            return Some(b.priority_model());
        }
        self.end
            .as_ref()
            .and_then(|e| e.poa.0.policies.priority_model)
    }
}

impl Drop for Upcall {
    fn drop(&mut self) {
        let Some(end) = self.end.take() else {
            return;
        };
        let poa = &end.poa;
        match end.how {
            How::Retained(active) => {
                if active.in_flight.fetch_sub(1, Ordering::SeqCst) == 1
                    && active.deactivated.load(Ordering::SeqCst)
                {
                    let remaining = read(&poa.0.state)
                        .aom
                        .by_servant
                        .contains_key(&servant_addr(&active.servant));
                    let cleanup = active.cleanup.load(Ordering::SeqCst);
                    poa.etherealize_one(&active, cleanup, remaining);
                }
            }
            How::Default => {}
            How::Located {
                locator,
                oid,
                operation,
                cookie,
            } => locator.postinvoke(&oid, poa, &operation, cookie, self.skeleton.clone()),
        }
        current::leave();
        // The manager's count first: a `destroy` waiting on the POA's
        // count returns with the request gone from both.
        poa.0.manager.release();
        poa.0.in_flight.end();
        leave_upcall();
    }
}

impl Poa {
    /// Where a `LocateRequest` for `id` finds its object: as a request
    /// would, through the POA manager (a holding manager queues it, a
    /// discarding one answers `TRANSIENT`) and the policies, so a servant
    /// activator incarnates the object (and may forward it) and a missing
    /// object is unknown. A servant locator is not asked: it is called
    /// around an operation, and a locate runs none (the object is
    /// reported here; the request itself may still be forwarded).
    pub(crate) fn locate(&self, id: &[u8]) -> Location {
        if self.is_destroyed() {
            return Location::Unknown;
        }
        let locator = self.0.policies.request_processing
            == RequestProcessingPolicy::UseServantManager
            && !self.0.policies.retains();
        if locator {
            // Through the manager as a request (holding waits, discarding
            // and inactive answer), then without the locator.
            let inner = &*self.0;
            if let Err(e) = inner
                .manager
                .admit(|| inner.destroyed.load(Ordering::Acquire))
            {
                return Location::System(e);
            }
            inner.manager.release();
            let st = read(&self.0.state);
            return match st.servant_manager {
                Some(_) => Location::Here,
                None => Location::System(SystemException::new(
                    SystemExceptionKind::ObjAdapter,
                    OBJ_ADAPTER_NO_SERVANT_MANAGER,
                    CompletionStatus::No,
                )),
            };
        }
        match self.serve(id, "_non_existent") {
            // The request ends here, without an upcall.
            Ok(Found::Servant(_)) => Location::Here,
            Ok(Found::Forward(to)) => Location::Forward(to),
            Err(e) if e.kind() == Some(SystemExceptionKind::ObjectNotExist) => Location::Unknown,
            Err(e) => Location::System(e),
        }
    }

    /// Finds the servant of a request for `id`: admits it through the
    /// manager, then asks the policies.
    pub(crate) fn serve(&self, id: &[u8], operation: &str) -> Result<Found, SystemException> {
        let inner = &*self.0;
        inner
            .manager
            .admit(|| inner.destroyed.load(Ordering::Acquire))?;
        inner.in_flight.start();
        enter_upcall(inner.manager.orb_flag());
        // From here on, dropping `end` (in an Upcall or on error) ends
        // the request.
        let guard = Admitted(self);
        if self.is_destroyed() {
            return Err(no_adapter());
        }
        match self.find_servant(id, operation)? {
            Resolved::Servant(skeleton, how) => {
                std::mem::forget(guard);
                // Ended with the request, when the Upcall is dropped.
                current::enter(self, id, &skeleton);
                Ok(Found::Servant(Upcall {
                    skeleton,
                    end: Some(End {
                        poa: self.clone(),
                        how,
                    }),
                    binding: None,
                }))
            }
            Resolved::Forward(to) => Ok(Found::Forward(to)),
        }
    }

    fn find_servant(&self, id: &[u8], operation: &str) -> Result<Resolved, SystemException> {
        let p = self.0.policies;
        let (default, manager) = {
            let st = read(&self.0.state);
            if p.retains() {
                if let Some(a) = self.find_active(&st.aom, id) {
                    a.in_flight.fetch_add(1, Ordering::SeqCst);
                    return Ok(Resolved::Servant(a.servant.clone(), How::Retained(a)));
                }
            }
            (st.default_servant.clone(), st.servant_manager.clone())
        };
        match p.request_processing {
            RequestProcessingPolicy::UseActiveObjectMapOnly => Err(not_active()),
            RequestProcessingPolicy::UseDefaultServant => match default {
                Some(s) => Ok(Resolved::Servant(s, How::Default)),
                None => Err(SystemException::new(
                    SystemExceptionKind::ObjAdapter,
                    OBJ_ADAPTER_NO_DEFAULT_SERVANT,
                    CompletionStatus::No,
                )),
            },
            RequestProcessingPolicy::UseServantManager => match manager {
                Some(ServantManager::Activator(a)) if p.retains() => self.incarnate(&a, id),
                Some(ServantManager::Locator(l)) if !p.retains() => {
                    match l.preinvoke(id, self, operation) {
                        Ok((servant, cookie)) => Ok(Resolved::Servant(
                            servant,
                            How::Located {
                                locator: l,
                                oid: Bytes::copy_from_slice(id),
                                operation: operation.to_owned(),
                                cookie,
                            },
                        )),
                        Err(e) => forwarded(e),
                    }
                }
                _ => Err(SystemException::new(
                    SystemExceptionKind::ObjAdapter,
                    OBJ_ADAPTER_NO_SERVANT_MANAGER,
                    CompletionStatus::No,
                )),
            },
        }
    }

    fn incarnate(
        &self,
        activator: &Arc<dyn ServantActivator>,
        id: &[u8],
    ) -> Result<Resolved, SystemException> {
        let _one = lock(&self.0.incarnating);
        {
            let st = read(&self.0.state);
            if let Some(a) = self.find_active(&st.aom, id) {
                a.in_flight.fetch_add(1, Ordering::SeqCst);
                return Ok(Resolved::Servant(a.servant.clone(), How::Retained(a)));
            }
        }
        if self.0.policies.system_ids() {
            // A system id is incarnated only in the slot it names (or,
            // for a persistent POA, when an earlier instance assigned
            // it): a stale id never gets a servant.
            let st = read(&self.0.state);
            let earlier = self.0.policies.persistent()
                && key::parse_system_id(id, self.id_instance()).is_none();
            if !earlier && self.slot_of(&st.aom, id).is_none() {
                return Err(not_active());
            }
        }
        let servant = match activator.incarnate(id, self) {
            Ok(s) => s,
            Err(e) => return forwarded(e),
        };
        let mut st = write(&self.0.state);
        if self.is_destroyed() {
            return Err(no_adapter());
        }
        if self.check_unique(&st.aom, &servant).is_err() {
            return Err(SystemException::new(
                SystemExceptionKind::ObjAdapter,
                0,
                CompletionStatus::No,
            ));
        }
        let active = self
            .insert_with_id(&mut st.aom, id, servant)
            .map_err(|_| not_active())?;
        active.in_flight.fetch_add(1, Ordering::SeqCst);
        Ok(Resolved::Servant(
            active.servant.clone(),
            How::Retained(active),
        ))
    }
}

/// Ends an admitted request that found no servant.
struct Admitted<'a>(&'a Poa);

impl Drop for Admitted<'_> {
    fn drop(&mut self) {
        self.0.0.manager.release();
        self.0.0.in_flight.end();
        leave_upcall();
    }
}

/// What the policies found for a request.
enum Resolved {
    Servant(Arc<dyn Skeleton>, How),
    Forward(rtorb_giop::ObjectReference),
}

/// A servant manager's refusal as the request's outcome.
fn forwarded(e: ServantManagerError) -> Result<Resolved, SystemException> {
    match e {
        ServantManagerError::System(s) => Err(s),
        ServantManagerError::Forward(f) => {
            Ok(Resolved::Forward(crate::object::object_reference(&f.0)))
        }
    }
}
