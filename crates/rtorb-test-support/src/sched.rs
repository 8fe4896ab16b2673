//! What the tests of priorities read of threads: the calling thread's
//! nice value, as the kernel reports it.

/// The nice value of the calling thread, from `/proc/thread-self/stat`
/// (field 19, counted after the command name, which is in parentheses
/// and may hold spaces).
pub fn thread_nice() -> i32 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").expect("/proc/thread-self/stat");
    let after = &stat[stat.rfind(')').expect("a command name") + 2..];
    after
        .split(' ')
        .nth(16)
        .and_then(|n| n.parse().ok())
        .expect("a nice value")
}
