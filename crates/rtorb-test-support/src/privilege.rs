//! Running part of a test without the privilege to raise priorities: the
//! test binary runs itself again, for that one test, in a child process
//! that gives the privilege up first; and whether the process has it.
// The child gives up its privileges through the C library.
#![allow(unsafe_code)]

use std::process::Command;

use rtorb::rt::{MappingKind, Priority, PriorityControl, SchedPolicy, WhenDenied};

/// Set in the child process that runs without the privilege.
const UNPRIVILEGED: &str = "RTORB_TEST_UNPRIVILEGED";

/// What the child prints once `body` has returned.
const DONE: &str = "unprivileged child done";

/// Whether this process may use SCHED_FIFO (root, `CAP_SYS_NICE` or
/// `RLIMIT_RTPRIO`), tried on a thread of its own.
pub fn may_use_fifo() -> bool {
    let control = PriorityControl::new(SchedPolicy::Fifo, MappingKind::Linear, WhenDenied::Fail);
    std::thread::spawn(move || control.set_thread_priority(Priority::MIN).is_ok())
        .join()
        .unwrap_or(false)
}

/// Gives up what lets the process raise its threads' priorities:
/// `RLIMIT_RTPRIO` and `RLIMIT_NICE` to 0 and, for root, the user and
/// group ids (and with them `CAP_SYS_NICE`). Lowering one's own urgency
/// (a higher nice value) still needs nothing.
pub fn give_up_priority() {
    let zero = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: plain system calls on values of this function.
    unsafe {
        assert_eq!(libc::setrlimit(libc::RLIMIT_RTPRIO, &zero), 0);
        assert_eq!(libc::setrlimit(libc::RLIMIT_NICE, &zero), 0);
        if libc::geteuid() == 0 {
            assert_eq!(libc::setgid(65534), 0);
            assert_eq!(libc::setuid(65534), 0);
        }
    }
}

/// Runs `body` in a child process of the test binary without the
/// privilege to raise priorities ([`give_up_priority`]), and fails the
/// test if it fails. `test` is the test's full name, the one that calls
/// this (the child runs that test alone, which calls this again, and runs
/// `body`).
pub fn without_priority_privilege(test: &str, body: impl FnOnce()) {
    if std::env::var_os(UNPRIVILEGED).is_some() {
        give_up_priority();
        body();
        println!("{DONE}");
        return;
    }
    let out = Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(UNPRIVILEGED, "1")
        .output()
        .expect("the test binary runs again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains(DONE),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
