//! Which requests a lane serves is decided by connection: an object bound
//! to a thread pool is referenced through the endpoints of the lanes that
//! serve it (`binding.rs`), and a request or `LocateRequest` for it that
//! arrives anywhere else (the ORB's own endpoints, as
//! `corbaloc::host:port/Key`, or another lane's) is answered with
//! `LOCATION_FORWARD` to that reference.

use std::panic::AssertUnwindSafe;

use bytes::Bytes;
use rtorb_giop::{ObjectReference, SystemException};

use super::super::server_core::{ServerCore, servant_panicked};
use super::binding::poa_serves_on;
use crate::poa::adapter_table::Location;
use crate::poa::{Found, Upcall};

impl ServerCore {
    /// Where a `LocateRequest` for `key` finds its object; a servant
    /// manager that panics gives `UNKNOWN`, as in `ServerCore::lookup`.
    ///
    /// An object of a thread pool that is asked for on an endpoint that
    /// does not serve it is forwarded to its lanes' reference
    /// (`lane_location`).
    pub(crate) fn locate(&self, key: &[u8]) -> Location {
        if let Some(forward) = self.lane_location(key) {
            return forward;
        }
        std::panic::catch_unwind(AssertUnwindSafe(|| self.adapters.locate(key)))
            .unwrap_or_else(|_| Location::System(servant_panicked()))
    }

    /// Where a `LocateRequest` for `key` finds its object if it is bound
    /// to a thread pool whose lanes do not serve it on this core's
    /// connections: forwarded to the lanes' reference.
    pub(in crate::orb::server) fn lane_location(&self, key: &[u8]) -> Option<Location> {
        if let Some(b) = self.adapters.pooled_servant(key)
            && let Some(to) = b.forward_from(self.lane.map(|(l, _)| l))
        {
            return Some(Location::Forward(to.clone()));
        }
        self.poa_lane_forward(key).map(Location::Forward)
    }

    /// The lanes' reference to `key`, an object of a POA bound to a
    /// thread pool, if it is asked for on an endpoint that does not serve
    /// it.
    fn poa_lane_forward(&self, key: &[u8]) -> Option<ObjectReference> {
        let (pool, model, extra) = self.adapters.poa_threadpool_of(key)?;
        if poa_serves_on(pool, model, self.lane) {
            return None;
        }
        self.adapters.lane_reference(
            pool,
            model,
            "",
            &Bytes::copy_from_slice(key),
            extra.as_ref(),
        )
    }

    /// What a request for `key` finds: the servant `found` (a plain key's
    /// bound to a lane, or one of a POA bound to a pool) becomes the
    /// forward to the reference through its lanes' endpoints when the
    /// request came on a connection of another lane (or of the ORB's own
    /// endpoints).
    #[inline]
    pub(in crate::orb::server) fn forward_to_lane(
        &self,
        key: &[u8],
        found: Result<Found, SystemException>,
    ) -> Result<Found, SystemException> {
        match found {
            Ok(Found::Servant(servant)) => match self.lane_forward(key, &servant) {
                Some(to) => Ok(Found::Forward(to)),
                None => Ok(Found::Servant(servant)),
            },
            other => other,
        }
    }

    /// Where a request for `upcall`'s object (under `key`) that arrived
    /// on this core's connections belongs, if not here.
    #[inline]
    fn lane_forward(&self, key: &[u8], upcall: &Upcall) -> Option<ObjectReference> {
        if let Some(b) = upcall.binding() {
            return b.forward_from(self.lane.map(|(l, _)| l)).cloned();
        }
        let (pool, model, extra) = upcall.poa_threadpool()?;
        if poa_serves_on(pool, model, self.lane) {
            return None;
        }
        let type_id = upcall.skeleton().repository_ids().first().copied();
        self.adapters.lane_reference(
            pool,
            model,
            type_id.unwrap_or(""),
            &Bytes::copy_from_slice(key),
            extra,
        )
    }
}
