//! [`Now`]: the time of one step of a connection, read from the clock
//! only when the step needs it.

use std::time::Instant;

/// The time of one step, read from the clock only if the step needs it
/// (the request path mostly does not), or set (by tests).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Now(Option<Instant>);

impl Now {
    /// The clock's time, read when first asked for.
    #[inline]
    pub(crate) fn lazy() -> Now {
        Now(None)
    }

    /// `at`, whatever the clock says.
    #[cfg(test)]
    pub(crate) fn at(at: Instant) -> Now {
        Now(Some(at))
    }

    /// The time.
    #[inline]
    pub(crate) fn get(&mut self) -> Instant {
        *self.0.get_or_insert_with(Instant::now)
    }
}
