//! Thread pools with lanes: requests to a lane's object are read and run
//! by the lane's threads at the lane's priority; its references carry the
//! lane's endpoints; a request that arrives on the ORB's own endpoint is
//! forwarded to the lane; a lane whose threads are all busy does not delay
//! another lane; and where the system refuses the lane's priority, the
//! ORB follows `-ORBSchedDenied`.
//!
//! Priorities are nice values (SCHED_OTHER), so the tests need no
//! real-time privilege and cannot starve the machine.

use std::io::Write;
use std::net::TcpStream;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use rtorb::exception::{SystemException, SystemExceptionKind};
use rtorb::object::Object;
use rtorb::orb::{Orb, OrbConfig, OrbError};
use rtorb::poa::{PoaError, Policy};
use rtorb::rt::{
    LaneConfig, Priority, PriorityModelPolicy, SchedPolicy, SchedulingError, ThreadpoolConfig,
    ThreadpoolId, WhenDenied,
};
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::message::{Content, LocateRequest, LocateStatus, Message};
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{ObjectReference, encode_message};
use rtorb_test_support::hold::{HELD_ID, HeldServant, cpus, whoami};
use rtorb_test_support::net::read_message;
use rtorb_test_support::priority::{high, low, nice_client, nice_of, nice_server, nice_server_of};
use rtorb_test_support::privilege::without_priority_privilege;
use rtorb_test_support::sched::threads_named;
use rtorb_test_support::server::remote;
use rtorb_test_support::wait::eventually;
use rtorb_test_support::{TIMEOUT, client, server};

/// A server with a pool of two lanes (low: one thread, high: two) and the
/// servant its tests activate.
struct Lanes {
    orb: Orb,
    pool: ThreadpoolId,
    servant: Arc<HeldServant>,
}

/// Should a test fail with an upcall held, the upcall ends and the ORB
/// shuts down at once.
impl Drop for Lanes {
    fn drop(&mut self) {
        self.servant.hold().open();
    }
}

impl Lanes {
    fn start() -> Lanes {
        let orb = nice_server().build().unwrap();
        let pool = orb
            .create_threadpool(
                ThreadpoolConfig::new()
                    .lane(LaneConfig::new(low()).static_threads(1))
                    .lane(LaneConfig::new(high()).static_threads(2)),
            )
            .unwrap();
        Lanes {
            orb,
            pool,
            servant: HeldServant::new(TIMEOUT),
        }
    }

    /// The servant as `key`, of the priority model `model`.
    fn activate(&self, key: &'static [u8], model: PriorityModelPolicy) -> Object {
        self.orb
            .activate_with_key_at(key, self.servant.clone(), model)
            .unwrap()
    }

    /// The servant as `key`, served at the declared `priority`.
    fn declared(&self, key: &'static [u8], priority: Priority) -> Object {
        self.activate(key, PriorityModelPolicy::server_declared(priority))
    }

    /// The name of the threads of lane `lane`.
    fn lane_thread(&self, lane: usize) -> String {
        format!("rtorb-lane-{}-{lane}", self.pool.index())
    }

    /// The endpoints of lane `lane`.
    fn lane_endpoints(&self, lane: usize) -> Vec<String> {
        self.orb.lane_endpoints(self.pool).unwrap()[lane].1.clone()
    }
}

/// The endpoints the reference of `obj` publishes.
fn published(orb: &Orb, obj: &Object) -> Vec<String> {
    published_in(orb, &reference(orb, obj))
}

/// The endpoints `r` publishes.
fn published_in(orb: &Orb, r: &ObjectReference) -> Vec<String> {
    orb.registry()
        .endpoints_of(r)
        .into_iter()
        .map(|(_, e)| e.to_string())
        .collect()
}

/// `obj` as `c` sees it, through its stringified reference.
fn reference(orb: &Orb, obj: &Object) -> ObjectReference {
    ObjectReference::from_stringified(&orb.object_to_string(obj).unwrap()).unwrap()
}

#[test]
fn requests_run_in_their_lane_s_threads_at_its_priority() {
    let lanes = Lanes::start();
    let hi = lanes.declared(b"High", high());
    let lo = lanes.declared(b"Low", low());
    let orb = &lanes.orb;
    assert_ne!(nice_of(orb, high()), nice_of(orb, low()));

    let c = client::orb();
    for (obj, lane, priority) in [(&hi, 1, high()), (&lo, 0, low())] {
        let obj = remote(orb, &c, obj);
        for _ in 0..3 {
            let (name, nice) = whoami(&obj).unwrap();
            assert_eq!(name, lanes.lane_thread(lane));
            assert_eq!(nice, nice_of(orb, priority));
        }
    }
    orb.shutdown();
}

#[test]
fn references_carry_their_lane_s_endpoints_and_policies() {
    let lanes = Lanes::start();
    let orb = &lanes.orb;
    let hi = lanes.declared(b"High", high());
    let endpoints = orb.lane_endpoints(lanes.pool).unwrap();
    assert_eq!(endpoints.len(), 2);
    assert_eq!(endpoints[1].0, high());
    let r = reference(orb, &hi);
    let high_published = published_in(orb, &r);
    assert_eq!(high_published, endpoints[1].1);
    assert!(!high_published.contains(&orb.endpoints()[0]));
    // The declared model travels in TAG_POLICIES, as for a POA's objects.
    let exposed = rtorb::rt::ExposedPolicies::of(&r.profiles[0]);
    assert_eq!(
        exposed.priority_model,
        Some(PriorityModelPolicy::server_declared(high()))
    );

    // CLIENT_PROPAGATED: a profile per lane, the lowest first.
    let any = lanes.activate(b"Any", PriorityModelPolicy::client_propagated(low()));
    let expected: Vec<String> = endpoints.iter().flat_map(|(_, e)| e.clone()).collect();
    assert_eq!(published(orb, &any), expected);

    // No lane at the declared priority: BAD_PARAM, and nothing served.
    let e = orb
        .activate_with_key_at(
            &b"Nowhere"[..],
            lanes.servant.clone(),
            PriorityModelPolicy::server_declared(Priority::new(1234).unwrap()),
        )
        .unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::BadParam));
    assert_eq!(e.minor, rtorb::minor::BAD_PARAM_NO_SUCH_LANE);
    orb.shutdown();
}

#[test]
fn rtorb_s_client_calls_a_propagated_object_through_the_lane_of_its_priority() {
    let lanes = Lanes::start();
    let orb = &lanes.orb;
    let any = lanes.activate(b"Any", PriorityModelPolicy::client_propagated(low()));
    // Each profile names its lane's priority.
    let r = reference(orb, &any);
    let tagged: Vec<Option<Priority>> =
        r.profiles.iter().map(rtorb::rt::lane_priority_of).collect();
    assert_eq!(tagged, [Some(low()), Some(high())]);
    let ior = orb.object_to_string(&any).unwrap();
    let c = nice_client();
    for (at, lane) in [
        (None, 0),
        (Some(low()), 0),
        (Some(high()), 1),
        (Some(Priority::MAX), 1),
    ] {
        let obj = c.string_to_object(&ior).unwrap();
        let current = c.rt_current();
        let (name, _) = std::thread::spawn(move || {
            if let Some(p) = at {
                current.set_priority(p).unwrap();
            }
            whoami(&obj).unwrap()
        })
        .join()
        .unwrap();
        assert_eq!(name, lanes.lane_thread(lane), "{at:?}");
    }
    orb.shutdown();
}

#[test]
fn a_corbaloc_to_the_main_port_is_forwarded_to_the_lane() {
    let lanes = Lanes::start();
    let orb = &lanes.orb;
    lanes.declared(b"High", high());
    let main = orb.endpoints()[0].trim_start_matches("iiop://").to_owned();
    let c = client::orb();
    let obj = c
        .string_to_object(&format!("corbaloc::1.2@{main}/High"))
        .unwrap();
    for _ in 0..2 {
        let (name, nice) = whoami(&obj).unwrap();
        assert_eq!(name, lanes.lane_thread(1));
        assert_eq!(nice, nice_of(orb, high()));
    }
    // A LocateRequest on the main port: OBJECT_FORWARD to the lane.
    let mut conn = TcpStream::connect(&main).unwrap();
    conn.set_read_timeout(Some(TIMEOUT)).unwrap();
    let request = Message::new(
        Version::V1_2,
        ByteOrder::Big,
        Content::LocateRequest(LocateRequest {
            request_id: 7,
            target: TargetAddress::Key(Bytes::from_static(b"High")),
        }),
    );
    conn.write_all(&encode_message(&request).unwrap()).unwrap();
    let Content::LocateReply(reply) = read_message(&mut conn).content else {
        panic!("not a LocateReply");
    };
    assert_eq!(reply.request_id, 7);
    let LocateStatus::ObjectForward(ior) = reply.status else {
        panic!("{:?}", reply.status);
    };
    let to = ObjectReference::from_ior(&ior).unwrap();
    assert_eq!(published_in(orb, &to), lanes.lane_endpoints(1));
    orb.shutdown();
}

#[test]
fn a_poa_bound_to_a_pool_is_served_by_the_lane_of_its_priority() {
    let lanes = Lanes::start();
    let orb = &lanes.orb;
    let root = orb.root_poa();
    let manager = root.the_poa_manager();
    let poa = root
        .create_poa(
            "InHighLane",
            Some(&manager),
            &[
                Policy::PriorityModel(PriorityModelPolicy::server_declared(high())),
                Policy::Threadpool(lanes.pool),
            ],
        )
        .unwrap();
    manager.activate().unwrap();
    let id = poa.activate_object(lanes.servant.clone()).unwrap();
    let obj = poa.id_to_reference(&id).unwrap();
    assert_eq!(published(orb, &obj), lanes.lane_endpoints(1));
    let c = client::orb();
    let (name, nice) = whoami(&remote(orb, &c, &obj)).unwrap();
    assert_eq!(name, lanes.lane_thread(1));
    assert_eq!(nice, nice_of(orb, high()));
    // The same key through the ORB's own endpoint: forwarded to the lane.
    let key = obj.target().object_key().clone();
    let main = orb.reference(HELD_ID, &key);
    let main = c.string_to_object(&main.to_stringified().unwrap()).unwrap();
    let (name, _) = whoami(&main).unwrap();
    assert_eq!(name, lanes.lane_thread(1));

    // A declared priority no lane of the pool has: its references cannot
    // be made.
    let nowhere = root
        .create_poa(
            "Nowhere",
            Some(&manager),
            &[
                Policy::PriorityModel(PriorityModelPolicy::server_declared(
                    Priority::new(1234).unwrap(),
                )),
                Policy::Threadpool(lanes.pool),
            ],
        )
        .unwrap();
    let id = nowhere.activate_object(lanes.servant.clone()).unwrap();
    match nowhere.id_to_reference(&id) {
        Err(PoaError::System(e)) => {
            assert_eq!(e.kind(), Some(SystemExceptionKind::BadParam));
            assert_eq!(e.minor, rtorb::minor::BAD_PARAM_NO_SUCH_LANE);
        }
        other => panic!("{other:?}"),
    }
    orb.shutdown();
}

/// Calls `block` on `ior` from a thread of its own, through a client ORB
/// of its own; the thread answers the call's outcome.
fn block_in(ior: String) -> std::thread::JoinHandle<Result<(), SystemException>> {
    std::thread::spawn(move || {
        let c = client::orb();
        let obj = c.string_to_object(&ior).unwrap();
        obj.invoke("block", |_| Ok(())).map(|_| ())
    })
}

#[test]
fn a_lane_whose_threads_are_busy_does_not_delay_another() {
    let lanes = Lanes::start();
    let orb = &lanes.orb;
    let hi = lanes.declared(b"High", high());
    let lo = lanes.declared(b"Low", low());
    let blocked = block_in(orb.object_to_string(&lo).unwrap());
    // The low lane's one thread is in the servant.
    assert!(lanes.servant.hold().wait_entered(TIMEOUT));
    let c = client::orb();
    let hi = remote(orb, &c, &hi);
    for _ in 0..5 {
        let (name, _) = whoami(&hi).unwrap();
        assert!(name.ends_with("-1"), "{name}");
    }
    lanes.servant.hold().release();
    blocked.join().unwrap().unwrap();
    orb.shutdown();
}

/// A servant in the high lane of `orb`, as a stringified reference.
fn probe_in_high_lane(orb: &Orb) -> String {
    let obj = orb
        .activate_with_key_at(
            &b"Pinned"[..],
            HeldServant::new(TIMEOUT),
            PriorityModelPolicy::server_declared(high()),
        )
        .unwrap();
    orb.object_to_string(&obj).unwrap()
}

/// The CPUs the servant `ior` runs a request on.
fn cpus_of(ior: &str) -> Vec<u32> {
    cpus(&client::orb().string_to_object(ior).unwrap()).unwrap()
}

#[test]
fn a_lane_s_threads_run_on_its_cpus() {
    let cpus = rtorb::rt::available_cpus().unwrap();
    let last = *cpus.last().unwrap();
    let orb = nice_server().build().unwrap();
    let pinned = LaneConfig::new(high())
        .static_threads(2)
        .dynamic_threads(1)
        .cpus([last]);
    orb.create_threadpool(ThreadpoolConfig::new().lane(pinned))
        .unwrap();
    let probe = probe_in_high_lane(&orb);
    for _ in 0..5 {
        assert_eq!(cpus_of(&probe), [last as u32]);
    }
    // A CPU the process does not have: the lane is not started, and says
    // why.
    let missing = LaneConfig::new(low()).cpus([1023]);
    match orb.create_threadpool(ThreadpoolConfig::new().lane(missing)) {
        Err(OrbError::Scheduling(e @ SchedulingError::Affinity(_))) => {
            assert!(e.to_string().contains("1023"), "{e}");
            assert_eq!(
                e.to_system_exception().minor,
                rtorb_giop::minor::BAD_PARAM_LANE_CPUS
            );
        }
        other => panic!("{other:?}"),
    }
    orb.shutdown();
}

#[test]
fn a_lane_adds_a_dynamic_thread_when_its_threads_are_busy_and_drops_it_when_idle() {
    let orb = nice_server().build().unwrap();
    let lane = LaneConfig::new(low())
        .static_threads(1)
        .dynamic_threads(1)
        .dynamic_thread_idle(Duration::from_millis(100));
    // The second pool of the ORB: its threads' name is this test's alone
    // (the other tests' pools are their ORB's first).
    orb.create_threadpool(ThreadpoolConfig::new().lane(LaneConfig::new(high())))
        .unwrap();
    let pool = orb
        .create_threadpool(ThreadpoolConfig::new().lane(lane))
        .unwrap();
    let name = format!("rtorb-lane-{}-0", pool.index());
    assert_eq!(name, "rtorb-lane-1-0");
    assert_eq!(threads_named(&name).len(), 1);
    let servant = HeldServant::new(TIMEOUT);
    let lo = orb
        .activate_with_key_at(
            &b"Low"[..],
            servant.clone(),
            PriorityModelPolicy::server_declared(low()),
        )
        .unwrap();
    let ior = orb.object_to_string(&lo).unwrap();
    let blocked = block_in(ior.clone());
    // The static thread is in the servant: a dynamic one serves the next
    // client.
    assert!(servant.hold().wait_entered(TIMEOUT));
    let c = client::orb();
    let lo = c.string_to_object(&ior).unwrap();
    let (served_by, _) = whoami(&lo).unwrap();
    assert_eq!(served_by, name);
    assert_eq!(threads_named(&name).len(), 2);
    servant.hold().release();
    blocked.join().unwrap().unwrap();
    // Idle, the dynamic thread ends.
    assert!(
        eventually(TIMEOUT, || threads_named(&name).len() == 1),
        "{} threads",
        threads_named(&name).len()
    );
    orb.shutdown();
}

/// The configuration of the `-ORB` options `args`.
fn config_of(args: &[&str]) -> OrbConfig {
    let mut config = OrbConfig::default();
    config.apply_args(args.iter().copied()).unwrap();
    config
}

#[test]
fn lanes_come_from_orb_options() {
    let config = config_of(&[
        "-ORBLane",
        &format!("{}:1", low().get()),
        "-ORBLane",
        &format!("{}:2:iiop://127.0.0.1:0", high().get()),
    ]);
    assert_eq!(config.lanes.len(), 2);
    let orb = nice_server_of(config);
    let pools = orb.threadpools();
    assert_eq!(pools.len(), 1);
    let lanes = orb.lane_endpoints(pools[0]).unwrap();
    assert_eq!(
        lanes.iter().map(|(p, _)| *p).collect::<Vec<_>>(),
        [low(), high()]
    );
    assert!(lanes.iter().all(|(_, e)| e.len() == 1));
    orb.shutdown();
}

#[test]
fn lane_cpus_come_from_orb_options() {
    let last = *rtorb::rt::available_cpus().unwrap().last().unwrap();
    let config = config_of(&[
        "-ORBLane",
        &format!("{}:1", high().get()),
        "-ORBLaneCpus",
        &format!("{}:{last}", high().get()),
    ]);
    let orb = nice_server_of(config);
    assert_eq!(cpus_of(&probe_in_high_lane(&orb)), [last as u32]);
    orb.shutdown();

    // CPUs for a priority no lane has, and a malformed list: clear errors.
    let config = config_of(&["-ORBLane", "5:1", "-ORBLaneCpus", "6:0"]);
    let e = Orb::builder_with(config).build().err().unwrap();
    assert!(e.to_string().contains("no -ORBLane has priority 6"), "{e}");
    let e = OrbConfig::default()
        .apply_args(["-ORBLaneCpus", "6:x"])
        .unwrap_err();
    assert!(e.to_string().contains("PRIORITY:CPUS"), "{e}");
}

#[test]
fn where_the_lane_s_priority_is_denied_the_orb_follows_its_policy() {
    const NAME: &str = "where_the_lane_s_priority_is_denied_the_orb_follows_its_policy";
    without_priority_privilege(NAME, || {
        let lane = || ThreadpoolConfig::new().lane(LaneConfig::new(Priority::MAX));
        // Fail: the pool is not created, and says why.
        let orb = server::builder()
            .sched_policy(SchedPolicy::Fifo)
            .sched_denied(WhenDenied::Fail)
            .build()
            .unwrap();
        match orb.create_threadpool(lane()) {
            Err(OrbError::Scheduling(SchedulingError::Denied { .. })) => {}
            other => panic!("{other:?}"),
        }
        assert!(orb.threadpools().is_empty());
        orb.shutdown();
        // Run on under SCHED_OTHER: the lane serves.
        let orb = server::builder()
            .sched_policy(SchedPolicy::Fifo)
            .sched_denied(WhenDenied::RunAtOther)
            .build()
            .unwrap();
        orb.create_threadpool(lane()).unwrap();
        let obj = orb
            .activate_with_key_at(
                &b"Max"[..],
                HeldServant::new(TIMEOUT),
                PriorityModelPolicy::server_declared(Priority::MAX),
            )
            .unwrap();
        let (name, _) = whoami(&remote(&orb, &client::orb(), &obj)).unwrap();
        assert_eq!(name, "rtorb-lane-0-0");
        orb.shutdown();
    });
}
