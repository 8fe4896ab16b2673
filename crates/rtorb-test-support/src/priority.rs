//! Servers of the priority tests: a servant that reports the priority its
//! upcalls run at, objects in POAs of a Real-time CORBA priority model,
//! ORBs whose priorities map onto nice values, and the pool of two lanes
//! of the lane tests.

use std::sync::Arc;

use rtorb::cdr::{CdrDecode, CdrEncode, CdrError, Decoder};
use rtorb::exception::{SystemException, bad_operation};
use rtorb::object::Object;
use rtorb::orb::{Orb, OrbBuilder, OrbConfig};
use rtorb::poa::Policy;
use rtorb::rt::{
    LaneConfig, LaneId, LaneStats, MappingKind, Priority, PriorityModelPolicy, SchedPolicy,
    ThreadpoolConfig, ThreadpoolId, WhenDenied,
};
use rtorb::servant::{ServerRequest, Skeleton};

use crate::cubit::{CubitImpl, CubitSkeleton};
use crate::net::endpoint_address;
use crate::sched::thread_nice;

/// The operation of a [`Reporter`].
pub const WHERE: &str = "where";

/// Answers [`WHERE`] with the CORBA priority the upcall runs at (-1:
/// none) and the thread's nice value.
#[derive(Debug, Default, Clone, Copy)]
pub struct Reporter;

impl Skeleton for Reporter {
    fn repository_ids(&self) -> &'static [&'static str] {
        &["IDL:rtorb/Reporter:1.0"]
    }

    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        if req.operation() != WHERE {
            return Err(bad_operation());
        }
        let corba = rtorb::rt::thread_priority().map_or(-1, Priority::get);
        let nice = thread_nice();
        req.write_results(|e| {
            corba.encode(e)?;
            nice.encode(e)
        })
    }
}

/// Reads a [`Reporter`]'s answer: the CORBA priority and the nice value.
pub fn decode_report(d: &mut Decoder) -> Result<(i16, i32), CdrError> {
    Ok((i16::decode(d)?, i32::decode(d)?))
}

/// Calls [`WHERE`] on `object`.
pub fn report(object: &Object) -> Result<(i16, i32), SystemException> {
    object
        .invoke(WHERE, |_| Ok(()))?
        .decode::<_, SystemException>(decode_report)
}

/// Activates `servant` in a new POA `name` under the Root POA (sharing
/// its manager, which is activated) with the priority model `model`, if
/// any; the object's reference.
pub fn activate_in_poa(
    orb: &Orb,
    name: &str,
    model: Option<PriorityModelPolicy>,
    servant: Arc<dyn Skeleton>,
) -> Object {
    let root = orb.root_poa();
    let policies: Vec<_> = model.into_iter().map(Policy::PriorityModel).collect();
    let poa = root
        .create_poa(name, Some(&root.the_poa_manager()), &policies)
        .expect("a new POA");
    root.the_poa_manager()
        .activate()
        .expect("an active manager");
    let id = poa.activate_object(servant).expect("an activated servant");
    poa.id_to_reference(&id).expect("a reference")
}

/// A client ORB whose calls time out at [`TIMEOUT`](crate::TIMEOUT), and
/// whose threads' priorities map onto nice values (no privilege needed to
/// lower them).
pub fn nice_client() -> Orb {
    crate::client::builder()
        .sched_policy(SchedPolicy::Other)
        .build()
        .expect("a client ORB")
}

/// A builder for a server ORB listening on IIOP on the loopback interface
/// (see [`server::builder`](crate::server::builder)) whose threads'
/// priorities map onto nice values (no privilege needed to lower them),
/// for the tests that set more.
pub fn nice_server() -> OrbBuilder {
    crate::server::builder().sched_policy(SchedPolicy::Other)
}

/// A builder for a server ORB as [`nice_server`]'s whose priorities map
/// onto nice values by `kind`, and which fails where the system refuses
/// a priority rather than run on at another: for the tests of the
/// priorities upcalls run at.
pub fn nice_server_mapped(kind: MappingKind) -> OrbBuilder {
    nice_server()
        .priority_mapping(kind)
        .sched_denied(WhenDenied::Fail)
}

/// A server ORB of `config` (the options under test: the lanes, say),
/// listening and mapping priorities as [`nice_server`]'s.
pub fn nice_server_of(config: OrbConfig) -> Orb {
    Orb::builder_with(config)
        .listen(crate::server::IIOP_LOOPBACK)
        .sched_policy(SchedPolicy::Other)
        .build()
        .expect("a server ORB")
}

/// The nice value that `priority` maps to on `orb`, whose priorities map
/// onto nice values (`SchedPolicy::Other`).
pub fn nice_of(orb: &Orb, priority: Priority) -> i32 {
    let native = orb
        .priority_control()
        .to_native(priority)
        .expect("a priority the mapping takes");
    -i32::from(native.get())
}

/// The low lane's priority in the lane tests: the lowest, the least urgent
/// nice value under SCHED_OTHER's linear mapping.
pub fn low() -> Priority {
    Priority::MIN
}

/// The high lane's priority in the lane tests: a nice value between the
/// low lane's and 0, so that no privilege is needed.
pub fn high() -> Priority {
    Priority::new(8_000).expect("a CORBA priority")
}

/// The pool of the lane tests on a server: a lane at [`low`] and one at
/// [`high`], one thread each, with a Cubit served in the high lane.
pub struct TwoLanes {
    /// The pool.
    pub pool: ThreadpoolId,
    /// The low lane's first endpoint, `HOST:PORT`.
    pub low_address: String,
    /// The stringified reference to `High`, a Cubit under that plain key,
    /// server-declared at [`high`]: served by the high lane.
    pub high_ior: String,
}

impl TwoLanes {
    /// The low lane.
    pub fn low_lane(&self) -> LaneId {
        LaneId {
            pool: self.pool,
            index: 0,
        }
    }

    /// The high lane.
    pub fn high_lane(&self) -> LaneId {
        LaneId {
            pool: self.pool,
            index: 1,
        }
    }
}

/// Creates the [`TwoLanes`] pool on `server`, whose priorities must map
/// (nice values, `SchedPolicy::Other`, need no privilege).
pub fn two_lanes(server: &Orb) -> TwoLanes {
    let pool = server
        .create_threadpool(
            ThreadpoolConfig::new()
                .lane(LaneConfig::new(low()).static_threads(1))
                .lane(LaneConfig::new(high()).static_threads(1)),
        )
        .expect("a pool of two lanes");
    let hi = server
        .activate_with_key_at(
            &b"High"[..],
            Arc::new(CubitSkeleton(CubitImpl::default())),
            PriorityModelPolicy::server_declared(high()),
        )
        .expect("High in the high lane");
    let lanes = server.lane_endpoints(pool).expect("the pool's endpoints");
    assert_eq!(lanes[0].0, low(), "the low lane first");
    TwoLanes {
        pool,
        low_address: endpoint_address(&lanes[0].1[0]),
        high_ior: server.object_to_string(&hi).expect("High's reference"),
    }
}

/// What `lane` of `server` has counted.
pub fn lane_stats(server: &Orb, lane: LaneId) -> LaneStats {
    *server.stats().lane(lane).expect("a lane of the server")
}
