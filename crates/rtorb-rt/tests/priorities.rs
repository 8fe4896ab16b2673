//! CORBA priorities applied to threads: SCHED_FIFO where the process may
//! use it, and the path where it may not (EPERM), in a child process that
//! gives up the privilege first.

use rtorb_giop::SystemExceptionKind;
use rtorb_rt::{
    Current, MappingKind, NativePriority, Priority, PriorityControl, SchedPolicy, WhenDenied,
};
use rtorb_test_support::log::capture;
use rtorb_test_support::privilege::{may_use_fifo, without_priority_privilege};

#[test]
fn a_fifo_thread_runs_at_its_mapped_priority() {
    if !may_use_fifo() {
        // The unprivileged path is the next test's; here the machine (CI
        // runs as root) must allow it.
        panic!("this test needs SCHED_FIFO: run it as root or with CAP_SYS_NICE");
    }
    let control = PriorityControl::new(SchedPolicy::Fifo, MappingKind::Direct, WhenDenied::Fail);
    let current = Current::new(control.clone());
    std::thread::spawn(move || {
        let p = Priority::new(10).unwrap();
        current.set_priority(p).unwrap();
        assert_eq!(current.priority().unwrap(), p);
        // What the kernel says of the thread maps back to the same
        // priority.
        assert_eq!(control.native_thread_priority().unwrap(), p);
        // A priority the direct mapping cannot map: DATA_CONVERSION, and
        // the thread keeps its priority.
        let e = current
            .set_priority(Priority::new(500).unwrap())
            .unwrap_err();
        assert_eq!(e.kind(), Some(SystemExceptionKind::DataConversion));
        assert_eq!(control.native_thread_priority().unwrap(), p);
    })
    .join()
    .unwrap();
}

#[test]
fn where_real_time_is_denied_the_orb_says_so_once_and_follows_its_policy() {
    const NAME: &str = "where_real_time_is_denied_the_orb_says_so_once_and_follows_its_policy";
    without_priority_privilege(NAME, || {
        let ((), lines) = capture(|| {
            let fail =
                PriorityControl::new(SchedPolicy::Fifo, MappingKind::Linear, WhenDenied::Fail);
            let e = Current::new(fail).set_priority(Priority::MAX).unwrap_err();
            assert_eq!(e.kind(), Some(SystemExceptionKind::NoPermission), "{e}");
            assert_eq!(
                e.minor,
                rtorb_giop::minor::NO_PERMISSION_REALTIME_SCHEDULING
            );
            assert!(e.detail().unwrap().contains("SCHED_FIFO"), "{e}");

            let other = PriorityControl::new(
                SchedPolicy::Fifo,
                MappingKind::Linear,
                WhenDenied::RunAtOther,
            );
            let high = Priority::new(30_000).unwrap();
            assert_eq!(other.set_thread_priority(high).unwrap(), None);
            // The CORBA priority is still the thread's, to be propagated.
            assert_eq!(rtorb_rt::thread_priority(), Some(high));
            assert_eq!(Current::new(other.clone()).priority().unwrap(), high);
            // A second refusal is not logged again.
            assert_eq!(other.set_thread_priority(high).unwrap(), None);
            // Lowering one's own urgency needs no privilege.
            let nice =
                PriorityControl::new(SchedPolicy::Other, MappingKind::Linear, WhenDenied::Fail);
            assert_eq!(
                nice.set_thread_priority(Priority::MIN).unwrap(),
                Some(NativePriority::new(-19))
            );
        });
        let warnings: Vec<_> = lines
            .iter()
            .filter(|l| l.level == tracing::Level::WARN)
            .collect();
        assert_eq!(warnings.len(), 1, "{lines:#?}");
        assert!(
            warnings[0].message.contains("may not use SCHED_FIFO"),
            "{}",
            warnings[0].message
        );
    });
}
