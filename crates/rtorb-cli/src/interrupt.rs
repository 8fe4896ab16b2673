//! Waiting until the process is interrupted (SIGINT or SIGTERM) or
//! something else ends its work, for the commands that serve until then.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often a wait looks at its conditions again.
const LOOK_AGAIN: Duration = Duration::from_millis(50);

/// Set when SIGINT or SIGTERM arrives, once [`Interrupt::install`] ran.
#[derive(Debug, Clone)]
pub(crate) struct Interrupt(Arc<AtomicBool>);

impl Interrupt {
    /// Catches SIGINT and SIGTERM from now on: they set the flag instead
    /// of ending the process.
    pub(crate) fn install() -> Result<Interrupt, String> {
        let flag = Arc::new(AtomicBool::new(false));
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            signal_hook::flag::register(signal, Arc::clone(&flag))
                .map_err(|e| format!("cannot catch signal {signal}: {e}"))?;
        }
        Ok(Interrupt(flag))
    }

    /// Whether the process was interrupted.
    pub(crate) fn arrived(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Waits until the process is interrupted or `done` holds; whether it
    /// was interrupted.
    pub(crate) fn wait_unless(&self, mut done: impl FnMut() -> bool) -> bool {
        loop {
            if self.arrived() {
                return true;
            }
            if done() {
                return false;
            }
            std::thread::sleep(LOOK_AGAIN);
        }
    }
}
