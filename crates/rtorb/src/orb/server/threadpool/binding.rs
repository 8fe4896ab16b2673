//! Which lanes serve an object, and its references through their
//! endpoints: what the object adapters hold of the thread pools (through
//! the interfaces of `poa/adapter_table.rs`, [`Threadpools`] and
//! [`PooledServant`]).
//!
//! An object is bound to a pool two ways: a plain key activated in a lane
//! ([`LaneBinding`], `Orb::activate_with_key_at`), or an object of a POA
//! whose `ThreadpoolPolicy` names the pool. Under `SERVER_DECLARED` the
//! lane of the declared priority serves it; under `CLIENT_PROPAGATED`
//! every lane of the pool does, and its reference has a profile per lane,
//! the lowest first, each tagged with its lane's priority
//! (`TAG_RTORB_LANE_PRIORITY`), by which rtorb's client calls through the
//! lane of its thread's priority.

use std::sync::Arc;

use bytes::Bytes;
use rtorb_giop::ObjectReference;
use rtorb_giop::ior::{PriorityModel, TaggedComponent};

use crate::poa::adapter_table::{PooledServant, References, Threadpools};
use crate::rt::{LaneId, Priority, PriorityModelPolicy, ThreadpoolId};
use crate::servant::Skeleton;
use crate::sync::RwLock;
use crate::transport::Endpoint;

/// A plain key bound to a thread pool: its servant, its priority model,
/// the lanes that serve it and the reference through their endpoints.
pub(crate) struct LaneBinding {
    pub(crate) skeleton: Arc<dyn Skeleton>,
    pub(crate) model: PriorityModelPolicy,
    pub(crate) pool: ThreadpoolId,
    /// The one lane that serves it (`SERVER_DECLARED`); `None`: every
    /// lane of the pool (`CLIENT_PROPAGATED`).
    pub(crate) lane: Option<u16>,
    /// Its reference through the endpoints of its lanes: where a request
    /// that arrives elsewhere is forwarded.
    pub(crate) reference: ObjectReference,
}

impl LaneBinding {
    /// Whether a request that arrived on a connection of `lane` (`None`:
    /// the ORB's own endpoints) is served there.
    #[inline]
    fn serves_on(&self, lane: Option<LaneId>) -> bool {
        match lane {
            Some(l) => l.pool == self.pool && self.lane.is_none_or(|i| i == l.index),
            None => false,
        }
    }
}

impl PooledServant for LaneBinding {
    fn skeleton(&self) -> &Arc<dyn Skeleton> {
        &self.skeleton
    }

    fn priority_model(&self) -> PriorityModelPolicy {
        self.model
    }

    #[inline]
    fn forward_from(&self, lane: Option<LaneId>) -> Option<&ObjectReference> {
        (!self.serves_on(lane)).then_some(&self.reference)
    }
}

/// Whether a request for an object of a POA bound to `pool` under
/// `model`, arriving on a connection of `lane` at `priority` (`None`: the
/// ORB's own endpoints), is served there: by a lane of the pool, the lane
/// of the declared priority for `SERVER_DECLARED`.
#[inline]
pub(super) fn poa_serves_on(
    pool: ThreadpoolId,
    model: Option<PriorityModelPolicy>,
    lane: Option<(LaneId, Priority)>,
) -> bool {
    match (lane, model) {
        (None, _) => false,
        (Some((l, _)), _) if l.pool != pool => false,
        (Some((_, at)), Some(m)) if m.model == PriorityModel::ServerDeclared => {
            m.server_priority == at
        }
        (Some(_), _) => true,
    }
}

/// A lane of a thread pool, as references name it.
pub(crate) struct LaneEndpoints {
    pub(crate) id: LaneId,
    pub(crate) priority: Priority,
    /// Its endpoints, as published.
    pub(crate) endpoints: Vec<Box<dyn Endpoint>>,
}

/// The lanes of the ORB's thread pools with their endpoints: where
/// references to objects bound to a pool point.
#[derive(Default)]
pub(crate) struct LaneDirectory {
    lanes: RwLock<Vec<LaneEndpoints>>,
}

impl LaneDirectory {
    /// Records the lanes of a new thread pool.
    pub(crate) fn add(&self, lanes: Vec<LaneEndpoints>) {
        self.lanes.write().extend(lanes);
    }

    /// The endpoints that serve objects of `pool` under `model`: the
    /// lane of the declared priority (`SERVER_DECLARED`), else every lane
    /// of the pool, the lowest first; `None` if there is none.
    fn endpoints(
        &self,
        pool: ThreadpoolId,
        model: Option<PriorityModelPolicy>,
    ) -> Option<Vec<(Priority, Box<dyn Endpoint>)>> {
        let declared = model.is_some_and(|m| m.model == PriorityModel::ServerDeclared);
        let lanes = self.lanes.read();
        let mut chosen: Vec<&LaneEndpoints> = lanes
            .iter()
            .filter(|l| l.id.pool == pool)
            .filter(|l| match model {
                Some(m) if declared => l.priority == m.server_priority,
                _ => true,
            })
            .collect();
        if chosen.is_empty() {
            return None;
        }
        chosen.sort_by_key(|l| l.priority);
        if declared {
            chosen.truncate(1);
        }
        Some(
            chosen
                .iter()
                .flat_map(|l| l.endpoints.iter().map(|e| (l.priority, e.clone_box())))
                .collect(),
        )
    }
}

impl Threadpools for LaneDirectory {
    fn reference(
        &self,
        references: &References,
        pool: ThreadpoolId,
        model: Option<PriorityModelPolicy>,
        type_id: &str,
        key: &Bytes,
        extra: Option<&TaggedComponent>,
    ) -> Option<ObjectReference> {
        let lanes = self.endpoints(pool, model)?;
        let tagged = !model.is_some_and(|m| m.model == PriorityModel::ServerDeclared);
        Some(reference_on_lanes(
            references, &lanes, tagged, type_id, key, extra,
        ))
    }
}

/// A reference to `object_key` through the endpoints of `lanes` (each
/// with its lane's priority), its profiles carrying `extra` and, where
/// `tagged`, the lane's priority (`TAG_RTORB_LANE_PRIORITY`).
fn reference_on_lanes(
    references: &References,
    lanes: &[(Priority, Box<dyn Endpoint>)],
    tagged: bool,
    type_id: &str,
    object_key: &Bytes,
    extra: Option<&TaggedComponent>,
) -> ObjectReference {
    let profiles = lanes
        .iter()
        .filter_map(|(priority, e)| {
            let mut components =
                crate::codesets::profile_components(e.version(), &references.code_sets);
            if e.version() >= rtorb_cdr::Version::V1_1 {
                components.extend(extra.cloned());
                if tagged {
                    components.push(crate::rt::lane_priority_component(
                        *priority,
                        rtorb_cdr::ByteOrder::NATIVE,
                    ));
                }
            }
            references
                .registry
                .make_profile(&**e, object_key.clone(), &components)
                .ok()
        })
        .collect();
    ObjectReference::new(type_id, profiles)
}
