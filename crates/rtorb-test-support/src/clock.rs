//! The clocks on which the ORB's client tells how long a connection has
//! been idle (the coarse monotonic clock for exclusive connections, the
//! monotonic clock for multiplexed ones), and waiting until they have
//! moved on: a test that needs a connection idle for longer than a bound
//! waits on the clocks the client reads, not for a time guessed from the
//! coarse clock's resolution.

use std::time::{Duration, Instant};

use crate::wait::{TIMEOUT, eventually};

/// The coarse monotonic clock (`CLOCK_MONOTONIC_COARSE`): right to within
/// a tick of 1 to 10 ms, behind the monotonic clock by up to a tick.
pub fn coarse_now() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::MonotonicCoarse);
    Duration::new(
        u64::try_from(t.tv_sec).expect("a monotonic clock after its start"),
        u32::try_from(t.tv_nsec).expect("nanoseconds within a second"),
    )
}

/// How long a client connection stays idle before the ORB's client, at
/// its next reuse, first looks whether the server closed it meanwhile (the
/// client's own bound, mirrored here).
pub const IDLE_CHECK_AFTER: Duration = Duration::from_millis(1);

/// Waits until a client connection put back idle before the call has been
/// idle for longer than [`IDLE_CHECK_AFTER`] on the clocks the client
/// reads: its next reuse looks whether the server closed it.
pub fn idle_past_reuse_check() {
    wait_past(IDLE_CHECK_AFTER);
}

/// Waits until both the monotonic clock ([`Instant`]) and the coarse one
/// ([`coarse_now`]) read more than `span` past their readings at the call:
/// whatever the ORB noted on either clock before the call is then more
/// than `span` old.
pub fn wait_past(span: Duration) {
    let (fine, coarse) = (Instant::now(), coarse_now());
    assert!(
        eventually(TIMEOUT, || fine.elapsed() > span
            && coarse_now() > coarse + span),
        "the clocks did not move on by {span:?}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_clocks_move_on_past_a_span() {
        let (fine, coarse) = (Instant::now(), coarse_now());
        wait_past(Duration::from_millis(1));
        assert!(fine.elapsed() > Duration::from_millis(1));
        assert!(coarse_now() > coarse + Duration::from_millis(1));
    }
}
