//! What the scheduler says of the calling thread.

/// The nice value of the calling thread (Linux: from
/// `/proc/thread-self/stat`).
pub fn thread_nice() -> i32 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").expect("the thread's stat");
    // After the command name in parentheses: state is field 3, nice 19.
    let rest = &stat[stat.rfind(')').expect("a command name") + 2..];
    rest.split_whitespace()
        .nth(16)
        .and_then(|n| n.parse().ok())
        .expect("a nice value")
}
