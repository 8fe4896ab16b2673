//! Scheduling policies and the system calls that apply them: a thread's
//! policy and priority.
//!
//! The only module of this crate that calls the C library for
//! scheduling (the mutex has its own); every call is a plain system call on
//! values this module owns.
#![allow(unsafe_code)]

use std::fmt;
use std::io;

use super::priority::NativePriority;

/// A Linux scheduling policy that CORBA priorities map onto.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SchedPolicy {
    /// `SCHED_FIFO`: real-time, first in first out within a priority.
    Fifo,
    /// `SCHED_RR`: real-time, round robin within a priority.
    RoundRobin,
    /// `SCHED_OTHER`: time-sharing; the native priority is the negated nice
    /// value (`-19` for nice 19 up to `20` for nice -20).
    Other,
}

impl SchedPolicy {
    /// The name as TAO's `-ORBSchedPolicy` spells it.
    pub const fn name(self) -> &'static str {
        match self {
            SchedPolicy::Fifo => "SCHED_FIFO",
            SchedPolicy::RoundRobin => "SCHED_RR",
            SchedPolicy::Other => "SCHED_OTHER",
        }
    }

    /// Whether it is a real-time policy (which ordinary processes may not
    /// use).
    pub const fn is_realtime(self) -> bool {
        matches!(self, SchedPolicy::Fifo | SchedPolicy::RoundRobin)
    }
}

impl fmt::Display for SchedPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kernel thread id (`gettid`).
pub(crate) type Tid = libc::pid_t;

/// The calling thread's kernel id.
pub(crate) fn current_tid() -> Tid {
    // SAFETY: gettid has no arguments and cannot fail.
    unsafe { libc::gettid() }
}

fn c_policy(policy: SchedPolicy) -> libc::c_int {
    match policy {
        SchedPolicy::Fifo => libc::SCHED_FIFO,
        SchedPolicy::RoundRobin => libc::SCHED_RR,
        SchedPolicy::Other => libc::SCHED_OTHER,
    }
}

/// The least and most urgent priority of a real-time `policy`, as the
/// kernel reports them (1 and 99 where it reports nothing usable).
pub(crate) fn priority_range(policy: SchedPolicy) -> (i16, i16) {
    let p = c_policy(policy);
    // SAFETY: both calls take a policy number and only return a value.
    let (min, max) = unsafe {
        (
            libc::sched_get_priority_min(p),
            libc::sched_get_priority_max(p),
        )
    };
    match (i16::try_from(min), i16::try_from(max)) {
        (Ok(min), Ok(max)) if min <= max && max > 0 => (min, max),
        _ => (1, 99),
    }
}

/// Puts the calling thread under `policy` at `native` (for SCHED_OTHER,
/// `native` is the negated nice value).
pub(crate) fn set_current(policy: SchedPolicy, native: NativePriority) -> io::Result<()> {
    match policy {
        SchedPolicy::Fifo | SchedPolicy::RoundRobin => {
            set_param(c_policy(policy), libc::c_int::from(native.get()))
        }
        SchedPolicy::Other => {
            set_param(libc::SCHED_OTHER, 0)?;
            set_nice(current_tid(), -libc::c_int::from(native.get()))
        }
    }
}

/// The calling thread's policy and native priority (SCHED_OTHER: the
/// negated nice value; a policy rtorb does not map onto, such as
/// SCHED_BATCH, reads as SCHED_OTHER).
pub(crate) fn current() -> io::Result<(SchedPolicy, NativePriority)> {
    let mut policy: libc::c_int = 0;
    // SAFETY: sched_param is plain data, valid when zeroed.
    let mut param: libc::sched_param = unsafe { std::mem::zeroed() };
    // SAFETY: pthread_self names the calling thread, which is alive; the two
    // out-pointers are to locals of the right types.
    let rc = unsafe { libc::pthread_getschedparam(libc::pthread_self(), &mut policy, &mut param) };
    if rc != 0 {
        return Err(io::Error::from_raw_os_error(rc));
    }
    let policy = match policy {
        libc::SCHED_FIFO => SchedPolicy::Fifo,
        libc::SCHED_RR => SchedPolicy::RoundRobin,
        _ => {
            let nice = nice_of(current_tid())?;
            return Ok((SchedPolicy::Other, native_of_nice(nice)));
        }
    };
    let native = i16::try_from(param.sched_priority).unwrap_or(i16::MAX);
    Ok((policy, NativePriority::new(native)))
}

fn native_of_nice(nice: libc::c_int) -> NativePriority {
    NativePriority::new(i16::try_from(-nice).unwrap_or(0))
}

/// Puts thread `tid` of this process under SCHED_OTHER, at nice 0 if it
/// was under a real-time policy (a thread already under SCHED_OTHER keeps
/// its nice value).
pub(crate) fn demote(tid: Tid) -> io::Result<()> {
    // SAFETY: sched_param is plain data, valid when zeroed.
    let param: libc::sched_param = unsafe { std::mem::zeroed() };
    // SAFETY: sched_getscheduler takes a thread id and returns a value.
    let now = unsafe { libc::sched_getscheduler(tid) };
    if now == libc::SCHED_FIFO || now == libc::SCHED_RR {
        // SAFETY: the pointer is to a local sched_param; a thread id that
        // has exited makes the call fail with ESRCH, nothing worse.
        if unsafe { libc::sched_setscheduler(tid, libc::SCHED_OTHER, &param) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The kernel ids of this process's threads, now.
pub(crate) fn process_threads() -> Vec<Tid> {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect()
}

fn set_param(policy: libc::c_int, priority: libc::c_int) -> io::Result<()> {
    // SAFETY: sched_param is plain data, valid when zeroed.
    let mut param: libc::sched_param = unsafe { std::mem::zeroed() };
    param.sched_priority = priority;
    // SAFETY: pthread_self names the calling thread, which is alive; the
    // parameter is a local of the right type.
    let rc = unsafe { libc::pthread_setschedparam(libc::pthread_self(), policy, &param) };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::from_raw_os_error(rc))
    }
}

fn set_nice(tid: Tid, nice: libc::c_int) -> io::Result<()> {
    let who =
        libc::id_t::try_from(tid).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: setpriority takes plain numbers; PRIO_PROCESS with a thread
    // id sets that thread's nice value on Linux.
    if unsafe { libc::setpriority(libc::PRIO_PROCESS, who, nice) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

fn nice_of(tid: Tid) -> io::Result<libc::c_int> {
    let who =
        libc::id_t::try_from(tid).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // getpriority returns -1 both as a nice value and as a failure: errno,
    // cleared first, tells which.
    // SAFETY: __errno_location gives the calling thread's errno; writing
    // it is what the C library expects of a caller here.
    unsafe { *libc::__errno_location() = 0 };
    // SAFETY: getpriority takes plain numbers.
    let nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, who) };
    if nice == -1 {
        let e = io::Error::last_os_error();
        if e.raw_os_error().unwrap_or(0) != 0 {
            return Err(e);
        }
    }
    Ok(nice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_can_make_itself_less_urgent_and_read_it_back() {
        std::thread::spawn(|| {
            set_current(SchedPolicy::Other, NativePriority::new(-5)).unwrap();
            assert_eq!(
                current().unwrap(),
                (SchedPolicy::Other, NativePriority::new(-5))
            );
            assert!(process_threads().contains(&current_tid()));
            demote(current_tid()).unwrap();
            assert_eq!(current().unwrap().1, NativePriority::new(-5));
        })
        .join()
        .unwrap();
    }

    #[test]
    fn the_fifo_range_is_the_kernels() {
        let (min, max) = priority_range(SchedPolicy::Fifo);
        assert!(min >= 1 && max >= min, "{min}..={max}");
    }
}
