//! The ORB's thread pool operations (`RTCORBA::RTORB`): creating a pool,
//! binding objects to its lanes, and what its lanes have counted.

use std::sync::Arc;

use bytes::Bytes;
use rtorb_cdr::ByteOrder;
use rtorb_giop::ior::PriorityModel;
use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

use super::binding::{LaneBinding, LaneEndpoints};
use super::lane::LaneError;
use super::running::Threadpool;
use crate::minor::BAD_PARAM_NO_SUCH_LANE;
use crate::object::{Object, Target};
use crate::orb::broker::Orb;
use crate::orb::error::OrbError;
use crate::poa::adapter_table::Entry;
use crate::rt::{ExposedPolicies, PriorityModelPolicy, ThreadpoolConfig, ThreadpoolId};
use crate::servant::Skeleton;
use crate::transport::Acceptor;
use crate::transport::iiop::IiopEndpoint;

/// The endpoint a lane listens on when it names none.
const FALLBACK_LANE_ENDPOINT: &str = "iiop://127.0.0.1:0";

impl From<LaneError> for OrbError {
    fn from(e: LaneError) -> OrbError {
        match e {
            LaneError::Thread(e) => OrbError::Thread(e),
            LaneError::Scheduling(e) => OrbError::Scheduling(e),
        }
    }
}

impl Orb {
    /// `RTCORBA::RTORB::create_threadpool_with_lanes`: starts a thread
    /// pool whose lanes each listen on their own endpoints and serve with
    /// threads fixed at the lane's priority (see
    /// [`crate::rt::ThreadpoolConfig`]).
    ///
    /// A lane that names no endpoint gets one ephemeral endpoint of the
    /// ORB's first protocol on its first host (IIOP on 127.0.0.1 for an
    /// ORB that listens on none, or on UIOP only). Fails if an endpoint
    /// cannot be opened, or a lane's thread cannot be set to its priority
    /// under `-ORBSchedDenied fail` (nothing of the pool is left running).
    pub fn create_threadpool(&self, config: ThreadpoolConfig) -> Result<ThreadpoolId, OrbError> {
        if config.lanes().is_empty() {
            return Err(OrbError::NoLanes);
        }
        let mut acceptors = Vec::with_capacity(config.lanes().len());
        for lane in config.lanes() {
            let mut of_lane = Vec::new();
            if lane.endpoints().is_empty() {
                of_lane.push(self.default_lane_acceptor()?);
            }
            for e in lane.endpoints() {
                of_lane.push(self.listen_for_lane(e)?);
            }
            acceptors.push(of_lane);
        }
        let mut pools = self.pools.lock();
        let id = ThreadpoolId::from_index(u32::try_from(pools.len()).unwrap_or(u32::MAX));
        let pool = Threadpool::start(&self.server, id, &config, acceptors)?;
        self.server.lanes.add(
            pool.lanes
                .iter()
                .map(|l| LaneEndpoints {
                    id: l.id,
                    priority: l.priority,
                    endpoints: l.endpoints.iter().map(|e| e.clone_box()).collect(),
                })
                .collect(),
        );
        pools.push(pool);
        Ok(id)
    }

    /// The ORB's thread pools, in creation order (the pool of the
    /// `-ORBLane` options first).
    pub fn threadpools(&self) -> Vec<ThreadpoolId> {
        self.pools.lock().iter().map(|p| p.id).collect()
    }

    /// The endpoints of each lane of `pool`, as published, with the
    /// lane's priority; `None` if there is no such pool.
    pub fn lane_endpoints(
        &self,
        pool: ThreadpoolId,
    ) -> Option<Vec<(crate::rt::Priority, Vec<String>)>> {
        let pools = self.pools.lock();
        let p = pools.iter().find(|p| p.id == pool)?;
        Some(
            p.lanes
                .iter()
                .map(|l| {
                    (
                        l.priority,
                        l.endpoints.iter().map(|e| e.to_string()).collect(),
                    )
                })
                .collect(),
        )
    }

    /// Serves `skeleton` under the plain key `object_key` in a lane of
    /// the ORB's thread pools, and returns its reference, through the
    /// endpoints of that lane.
    ///
    /// `SERVER_DECLARED`: the first lane (of the pools, in creation order)
    /// whose priority is the declared one serves it, and its requests run
    /// at that priority; `BAD_PARAM` if no lane has it.
    /// `CLIENT_PROPAGATED`: every lane of the first pool serves it, the
    /// reference having a profile per lane, the lowest lane first, each
    /// with its lane's priority in rtorb's `TAG_RTORB_LANE_PRIORITY`
    /// component (by which rtorb's client calls through the lane of its
    /// thread's priority); its requests run at the priority the client
    /// sends.
    ///
    /// A request for the key that arrives on another endpoint (the ORB's
    /// own, as `corbaloc::host:port/Key`, or another lane's) is answered
    /// with `LOCATION_FORWARD` to that reference.
    pub fn activate_with_key_at(
        &self,
        object_key: impl Into<Bytes>,
        skeleton: Arc<dyn Skeleton>,
        model: PriorityModelPolicy,
    ) -> Result<Object, SystemException> {
        let key = object_key.into();
        let type_id = skeleton.repository_ids().first().copied().unwrap_or("");
        let pools = self.pools.lock();
        let (pool, lane) = match model.model {
            PriorityModel::ServerDeclared => pools
                .iter()
                .find_map(|p| Some((p.id, Some(p.lane_at(model.server_priority)?.id.index))))
                .ok_or_else(no_such_lane)?,
            PriorityModel::ClientPropagated => (pools.first().ok_or_else(no_such_lane)?.id, None),
        };
        drop(pools);
        let exposed = ExposedPolicies {
            priority_model: Some(model),
            priority_bands: None,
        }
        .to_component(ByteOrder::NATIVE);
        let reference = self
            .adapters
            .lane_reference(pool, Some(model), type_id, &key, exposed.as_ref())
            .ok_or_else(no_such_lane)?;
        let target = Target::from_reference(reference.clone())?;
        self.server.insert(
            key,
            Entry::Pooled(Arc::new(LaneBinding {
                skeleton,
                model,
                pool,
                lane,
                reference,
            })),
        );
        Ok(Object::new(self.invoker(), target))
    }

    /// An acceptor on `endpoint` for a lane, with the ORB's backlog.
    fn listen_for_lane(&self, endpoint: &str) -> Result<Box<dyn Acceptor>, OrbError> {
        let listen_error = |source| OrbError::Listen {
            endpoint: endpoint.to_owned(),
            source,
        };
        let acceptor = self.registry.listen(endpoint).map_err(listen_error)?;
        if let Some(backlog) = self.config.listen_backlog {
            acceptor
                .set_backlog(backlog)
                .map_err(|e| listen_error(e.into()))?;
        }
        Ok(acceptor)
    }

    /// An ephemeral endpoint of the ORB's first protocol on its first
    /// host, for a lane that names none.
    fn default_lane_acceptor(&self) -> Result<Box<dyn Acceptor>, OrbError> {
        let first = self
            .config
            .listen
            .first()
            .and_then(|s| self.registry.parse_endpoint(s).ok());
        match first
            .as_deref()
            .and_then(|e| e.downcast_ref::<IiopEndpoint>())
        {
            Some(iiop) => {
                let mut e = iiop.clone();
                e.port = 0;
                e.port_last = None;
                self.listen_for_lane(&e.to_string())
            }
            None => self.listen_for_lane(FALLBACK_LANE_ENDPOINT),
        }
    }
}

/// `BAD_PARAM`: no lane for the object's priority.
fn no_such_lane() -> SystemException {
    SystemException::new(
        SystemExceptionKind::BadParam,
        BAD_PARAM_NO_SUCH_LANE,
        CompletionStatus::No,
    )
}
