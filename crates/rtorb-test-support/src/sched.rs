//! What the tests of priorities read of threads: their nice value,
//! scheduling policy and real-time priority as the kernel reports them in
//! `/proc`, and the threads of the process by name.

/// `SCHED_OTHER`, as `/proc` and `sched_getscheduler` number it.
pub const SCHED_OTHER: u32 = 0;
/// `SCHED_FIFO`.
pub const SCHED_FIFO: u32 = 1;
/// `SCHED_RR`.
pub const SCHED_RR: u32 = 2;

/// A thread's scheduling, as its `stat` file in `/proc` gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sched {
    /// The policy ([`SCHED_OTHER`], [`SCHED_FIFO`], [`SCHED_RR`], ...).
    pub policy: u32,
    /// The real-time priority (1 to 99 under a real-time policy, else 0).
    pub rt_priority: u32,
    /// The nice value.
    pub nice: i32,
}

/// The scheduling of the thread whose `stat` file is at `path`; `None`
/// if it cannot be read (the thread has ended).
fn sched_at(path: &str) -> Option<Sched> {
    let stat = std::fs::read_to_string(path).ok()?;
    // The fields after the command name, which is in parentheses and may
    // hold spaces: the first of them is field 3 (the state).
    let fields: Vec<&str> = stat[stat.rfind(')')? + 2..].split(' ').collect();
    let field = |n: usize| fields.get(n - 3).copied();
    Some(Sched {
        nice: field(19)?.parse().ok()?,
        rt_priority: field(40)?.parse().ok()?,
        policy: field(41)?.trim().parse().ok()?,
    })
}

/// The scheduling of the calling thread.
pub fn thread_sched() -> Sched {
    sched_at("/proc/thread-self/stat").expect("/proc/thread-self/stat")
}

/// The nice value of the calling thread.
pub fn thread_nice() -> i32 {
    thread_sched().nice
}

/// The scheduling of thread `tid` of this process, if it still runs.
pub fn task_sched(tid: u32) -> Option<Sched> {
    sched_at(&format!("/proc/self/task/{tid}/stat"))
}

/// The kernel ids of the threads of this process named `name`.
pub fn threads_named(name: &str) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    tasks
        .filter_map(|t| {
            let t = t.ok()?;
            let comm = std::fs::read_to_string(t.path().join("comm")).ok()?;
            (comm.trim_end() == name)
                .then(|| t.file_name().to_str()?.parse().ok())
                .flatten()
        })
        .collect()
}
