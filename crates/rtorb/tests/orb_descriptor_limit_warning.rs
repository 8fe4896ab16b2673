//! A server that cannot raise the process's soft descriptor limit says so
//! once, with a `warn` log line naming the limit it keeps and the one it
//! wanted, and derives its connection cap from the limit it has.
//!
//! Raising the soft limit up to the hard one is allowed to every process,
//! so the test forbids it: a seccomp filter on the test's thread (and the
//! threads it starts) makes `setrlimit`, and `prlimit64` with a new limit,
//! fail with `EPERM`. One test in this binary: the raise is tried once per
//! process.

use rtorb::orb::{ServerStrategy, derived_max_connections};
use rtorb_test_support::log::capture;
use rtorb_test_support::server;
use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

/// Makes setting a resource limit fail with `EPERM` on this thread and
/// the threads it starts from now on (reading one still works). Installing
/// a seccomp filter has no safe interface: two `prctl` calls.
#[allow(unsafe_code)]
fn forbid_setting_limits() {
    const LD_ABS_W: u16 = (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16;
    const JEQ_K: u16 = (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16;
    const RET_K: u16 = (libc::BPF_RET | libc::BPF_K) as u16;
    // `struct seccomp_data`: the call's number, its architecture, the
    // instruction pointer, then its six arguments of 8 octets.
    const NR: u32 = 0;
    const ARG2: u32 = 16 + 2 * 8;
    let (arg2_low, arg2_high) = if cfg!(target_endian = "little") {
        (ARG2, ARG2 + 4)
    } else {
        (ARG2 + 4, ARG2)
    };
    let op = |code: u16, jt: u8, jf: u8, k: u32| libc::sock_filter { code, jt, jf, k };
    let mut program = [
        op(LD_ABS_W, 0, 0, NR),
        // 1: setrlimit: refused.
        op(JEQ_K, 6, 0, libc::SYS_setrlimit as u32),
        // 2: prlimit64 goes on to its new limit; anything else is allowed.
        op(JEQ_K, 0, 4, libc::SYS_prlimit64 as u32),
        // 3-6: prlimit64 with no new limit (a read) is allowed.
        op(LD_ABS_W, 0, 0, arg2_low),
        op(JEQ_K, 0, 3, 0),
        op(LD_ABS_W, 0, 0, arg2_high),
        op(JEQ_K, 0, 1, 0),
        // 7
        op(RET_K, 0, 0, libc::SECCOMP_RET_ALLOW),
        // 8
        op(RET_K, 0, 0, libc::SECCOMP_RET_ERRNO | libc::EPERM as u32),
    ];
    let fprog = libc::sock_fprog {
        len: program.len() as u16,
        filter: program.as_mut_ptr(),
    };
    // SAFETY: `prctl` with these options reads only the arguments given:
    // the filter program, alive for the call (the kernel copies it).
    unsafe {
        assert_eq!(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
        assert_eq!(
            libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER,
                &fprog as *const libc::sock_fprog,
            ),
            0,
            "installing the seccomp filter: {}",
            std::io::Error::last_os_error()
        );
    }
}

fn soft_limit() -> u64 {
    getrlimit(Resource::Nofile).current.unwrap_or(u64::MAX)
}

#[test]
fn a_limit_that_cannot_be_raised_is_one_warning_and_the_cap_fits_it() {
    let before = getrlimit(Resource::Nofile);
    let hard = before.maximum.unwrap_or(u64::MAX);
    let nr_open: u64 = std::fs::read_to_string("/proc/sys/fs/nr_open")
        .expect("fs.nr_open")
        .trim()
        .parse()
        .expect("a number");
    // A soft limit below the hard one, that the server would raise.
    let low = (hard / 2).min(512);
    setrlimit(
        Resource::Nofile,
        Rlimit {
            current: Some(low),
            maximum: before.maximum,
        },
    )
    .expect("lowering the soft descriptor limit");
    forbid_setting_limits();
    assert_eq!(
        setrlimit(Resource::Nofile, before),
        Err(rustix::io::Errno::PERM),
        "the seccomp filter lets the limit be raised"
    );

    let build = server::with_strategy;
    let (first, mut lines) = capture(|| build(ServerStrategy::Reactive));
    let (second, more) = capture(|| build(ServerStrategy::ThreadPerConnection));
    lines.extend(more);
    assert_eq!(soft_limit(), low, "the soft limit changed");
    let warnings: Vec<_> = lines
        .iter()
        .filter(|l| l.level == tracing::Level::WARN)
        .collect();
    assert_eq!(warnings.len(), 1, "one warning over two servers: {lines:?}");
    let line = warnings[0];
    let wanted = hard.min(nr_open);
    let expected =
        format!("cannot raise the descriptor limit (RLIMIT_NOFILE) from {low} to {wanted}: ");
    assert!(
        line.message.starts_with(&expected),
        "{:?} does not start with {expected:?}",
        line.message
    );
    assert!(
        line.message.contains("not permitted"),
        "{:?} does not say why",
        line.message
    );
    assert_eq!(line.field("limit"), Some(low.to_string().as_str()));
    assert_eq!(line.field("wanted"), Some(wanted.to_string().as_str()));
    assert!(
        !lines
            .iter()
            .any(|l| l.message.contains("raised the descriptor limit")),
        "{lines:?}"
    );
    // Both caps fit the limit the process kept.
    assert_eq!(
        first.stats().max_server_connections,
        derived_max_connections(low, ServerStrategy::Reactive)
    );
    assert_eq!(
        second.stats().max_server_connections,
        derived_max_connections(low, ServerStrategy::ThreadPerConnection)
    );
    first.shutdown();
    second.shutdown();
}
