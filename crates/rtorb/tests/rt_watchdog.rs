//! After a watchdog fires, no thread of the process gets a real-time
//! policy back: not by `PriorityControl`, `RTCORBA::Current`, `run_at`
//! (nor by `run_at` putting back the policy a thread had before), an
//! upcall's priority or a lane's. Each attempt is refused as a denial is,
//! following `-ORBSchedDenied`: `NO_PERMISSION` with its own minor code,
//! or the thread runs on under SCHED_OTHER with its CORBA priority kept.
//!
//! The firing is process-wide and for good, so this binary holds this one
//! test. It needs SCHED_FIFO (root or CAP_SYS_NICE; CI runs as root); its
//! real-time threads only ever block, and the watchdog under test is the
//! one that ends their real-time policy.

use std::sync::Arc;
use std::sync::mpsc::channel;
use std::time::Duration;

use rtorb::exception::SystemExceptionKind;
use rtorb::orb::{Orb, OrbError};
use rtorb::rt::{
    Current, LaneConfig, MappingKind, Priority, PriorityControl, PriorityModelPolicy, SchedPolicy,
    SchedulingError, ThreadpoolConfig, Watchdog, WatchdogExpired, WhenDenied, realtime_revoked,
    thread_priority,
};
use rtorb_test_support::echo::{Echo, echo};
use rtorb_test_support::priority::activate_in_poa;
use rtorb_test_support::privilege::may_use_fifo;
use rtorb_test_support::sched::{SCHED_FIFO, SCHED_OTHER, task_sched, thread_sched, threads_named};
use rtorb_test_support::wait::eventually;
use rtorb_test_support::{TIMEOUT, client, server};

fn fifo(when_denied: WhenDenied) -> PriorityControl {
    PriorityControl::new(SchedPolicy::Fifo, MappingKind::Linear, when_denied)
}

fn in_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(f).join().unwrap()
}

fn low() -> Priority {
    Priority::new(1_000).unwrap()
}

fn high() -> Priority {
    Priority::new(20_000).unwrap()
}

/// A server whose priorities map onto SCHED_FIFO, refused as `when`
/// says.
fn fifo_server(when: WhenDenied) -> Orb {
    server::builder()
        .sched_policy(SchedPolicy::Fifo)
        .sched_denied(when)
        .build()
        .unwrap()
}

#[test]
fn after_a_watchdog_fires_no_thread_gets_a_real_time_priority_again() {
    assert!(
        may_use_fifo(),
        "this test needs SCHED_FIFO: run it as root or with CAP_SYS_NICE"
    );
    assert!(!realtime_revoked());

    // A thread under SCHED_FIFO, in `run_at` at another priority when the
    // watchdog fires: leaving it does not put SCHED_FIFO back.
    let (entered, on_entry) = channel();
    let (go, gone) = channel::<()>();
    let busy = std::thread::spawn(move || {
        let control = fifo(WhenDenied::Fail);
        control.set_thread_priority(low()).unwrap();
        assert_eq!(thread_sched().policy, SCHED_FIFO);
        control
            .run_at(high(), || {
                entered.send(thread_sched()).unwrap();
                gone.recv_timeout(TIMEOUT).unwrap();
            })
            .unwrap();
        (thread_sched(), thread_priority())
    });
    let inside = on_entry.recv_timeout(TIMEOUT).unwrap();
    assert_eq!(inside.policy, SCHED_FIFO);
    let watchdog = Watchdog::arm("the watchdog's own test", Duration::from_millis(1));
    assert!(eventually(TIMEOUT, || watchdog.fired()));
    assert_eq!(
        watchdog.disarm(),
        Err(WatchdogExpired {
            what: "the watchdog's own test".to_owned(),
            deadline: Duration::from_millis(1),
        })
    );
    assert!(realtime_revoked());
    go.send(()).unwrap();
    let (after, corba) = busy.join().unwrap();
    assert_eq!(after.policy, SCHED_OTHER, "{after:?}");
    assert_eq!(corba, Some(low()));

    // Refused, as configured to fail: NO_PERMISSION, with the minor code
    // that tells a watchdog from the system.
    in_thread(|| {
        let control = fifo(WhenDenied::Fail);
        match control.set_thread_priority(high()) {
            Err(SchedulingError::Revoked { .. }) => {}
            other => panic!("{other:?}"),
        }
        let e = Current::new(control.clone())
            .set_priority(high())
            .unwrap_err();
        assert_eq!(e.kind(), Some(SystemExceptionKind::NoPermission), "{e}");
        assert_eq!(e.minor, rtorb::minor::NO_PERMISSION_REALTIME_REVOKED);
        assert!(e.detail().unwrap().contains("watchdog"), "{e}");
        match control.run_at(high(), || ()) {
            Err(SchedulingError::Revoked { .. }) => {}
            other => panic!("{other:?}"),
        }
        assert_eq!(thread_sched().policy, SCHED_OTHER);
        assert_eq!(thread_priority(), None);
    });
    // Or run on under SCHED_OTHER, the CORBA priority kept.
    in_thread(|| {
        let control = fifo(WhenDenied::RunAtOther);
        assert_eq!(control.set_thread_priority(high()).unwrap(), None);
        assert_eq!(thread_priority(), Some(high()));
        assert_eq!(thread_sched().policy, SCHED_OTHER);
        let policy = control.run_at(low(), || thread_sched().policy).unwrap();
        assert_eq!(policy, SCHED_OTHER);
        // Nice values are not real-time: still applied.
        let nice = PriorityControl::new(SchedPolicy::Other, MappingKind::Linear, WhenDenied::Fail);
        assert!(nice.set_thread_priority(Priority::MIN).unwrap().is_some());
    });

    // A lane at a real-time priority: not created under fail; under
    // SCHED_OTHER otherwise, where it serves.
    let orb = fifo_server(WhenDenied::Fail);
    let lane = || ThreadpoolConfig::new().lane(LaneConfig::new(high()).static_threads(2));
    match orb.create_threadpool(lane()) {
        Err(OrbError::Scheduling(SchedulingError::Revoked { .. })) => {}
        other => panic!("{other:?}"),
    }
    // An upcall at a declared real-time priority: refused with the
    // exception.
    let object = activate_in_poa(
        &orb,
        "declared",
        Some(PriorityModelPolicy::server_declared(high())),
        Arc::new(Echo),
    );
    let ior = orb.object_to_string(&object).unwrap();
    let c = client::orb();
    let e = echo(&c.string_to_object(&ior).unwrap(), 1).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::NoPermission), "{e}");
    assert_eq!(e.minor, rtorb::minor::NO_PERMISSION_REALTIME_REVOKED);
    orb.shutdown();

    let orb = fifo_server(WhenDenied::RunAtOther);
    orb.create_threadpool(lane()).unwrap();
    let obj = orb
        .activate_with_key_at(
            &b"High"[..],
            Arc::new(Echo),
            PriorityModelPolicy::server_declared(high()),
        )
        .unwrap();
    let obj = c
        .string_to_object(&orb.object_to_string(&obj).unwrap())
        .unwrap();
    assert_eq!(echo(&obj, 7).unwrap(), 7);
    let lane_threads = threads_named("rtorb-lane-0-0");
    assert_eq!(lane_threads.len(), 2);
    for tid in lane_threads {
        let sched = task_sched(tid).unwrap();
        assert_eq!(sched.policy, SCHED_OTHER, "lane thread {tid}: {sched:?}");
    }
    orb.shutdown();
}
