//! Lanes at real SCHED_FIFO priorities: every thread of a lane runs under
//! SCHED_FIFO at the native priority the mapping gives the lane's CORBA
//! priority, as the kernel reports it for each thread, before and after
//! serving requests. (`rt_lanes` has the same with nice values.)
//!
//! It needs SCHED_FIFO (root or CAP_SYS_NICE; CI runs as root) and fails
//! saying so where the process may not use it. The lane threads only
//! block on their sockets, and a watchdog guards the test all the same.

use std::sync::Arc;

use rtorb::rt::{
    LaneConfig, MappingKind, Priority, PriorityModelPolicy, SchedPolicy, ThreadpoolConfig,
    Watchdog, WhenDenied,
};
use rtorb_test_support::echo::{Echo, echo};
use rtorb_test_support::privilege::may_use_fifo;
use rtorb_test_support::sched::{SCHED_FIFO, Sched, task_sched, threads_named};
use rtorb_test_support::{TIMEOUT, client, server};

/// The scheduling of every thread named `name`.
fn scheduling_of(name: &str) -> Vec<Sched> {
    threads_named(name)
        .into_iter()
        .filter_map(task_sched)
        .collect()
}

#[test]
fn lane_threads_run_under_sched_fifo_at_the_mapped_priority() {
    assert!(
        may_use_fifo(),
        "this test needs SCHED_FIFO: run it as root or with CAP_SYS_NICE"
    );
    // Longer than any wait of the test: it fires only if the test hangs.
    let watchdog = Watchdog::arm("lanes at SCHED_FIFO", TIMEOUT.saturating_mul(2));
    let orb = server::builder()
        .sched_policy(SchedPolicy::Fifo)
        .priority_mapping(MappingKind::Linear)
        .sched_denied(WhenDenied::Fail)
        .build()
        .unwrap();
    let lanes = [
        (Priority::new(1_000).unwrap(), 1),
        (Priority::new(20_000).unwrap(), 2),
    ];
    let config = lanes
        .iter()
        .fold(ThreadpoolConfig::new(), |c, (priority, threads)| {
            c.lane(LaneConfig::new(*priority).static_threads(*threads))
        });
    let pool = orb.create_threadpool(config).unwrap();
    let client = client::orb();
    let objects: Vec<_> = lanes
        .iter()
        .map(|(priority, _)| {
            let key = format!("Lane{}", priority.get());
            let obj = orb
                .activate_with_key_at(
                    key.into_bytes(),
                    Arc::new(Echo),
                    PriorityModelPolicy::server_declared(*priority),
                )
                .unwrap();
            client
                .string_to_object(&orb.object_to_string(&obj).unwrap())
                .unwrap()
        })
        .collect();
    let check = |when: &str| {
        for (lane, (priority, threads)) in lanes.iter().enumerate() {
            let native = orb.priority_control().to_native(*priority).unwrap().get();
            let expected = Sched {
                policy: SCHED_FIFO,
                rt_priority: u32::try_from(native).unwrap(),
                nice: 0,
            };
            let name = format!("rtorb-lane-{}-{lane}", pool.index());
            let seen = scheduling_of(&name);
            assert_eq!(seen.len(), *threads, "{when}: the threads of {name}");
            for sched in seen {
                // The nice value is the process's, whatever it is; a
                // SCHED_FIFO thread does not use it.
                let sched = Sched { nice: 0, ..sched };
                assert_eq!(sched, expected, "{when}: {name} at {priority:?}");
            }
        }
    };
    check("started");
    for (n, obj) in objects.iter().enumerate() {
        for v in 0..10 {
            assert_eq!(echo(obj, v).unwrap(), v, "lane {n}");
        }
    }
    check("after serving");
    drop(objects);
    client.shutdown();
    orb.shutdown();
    watchdog.disarm().unwrap();
}
