//! `rtorb events listen --channel URL`: connects a push consumer to the
//! channel and prints each event it receives on a line of its own (a
//! string as its text, another `Any` as its type and value), until the
//! process is interrupted or the channel disconnects it.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rtorb::cdr::Any;
use rtorb::exception::SystemException;
use rtorb_events::cos_event_comm::push_consumer::PushError;
use rtorb_events::cos_event_comm::{PushConsumer, PushConsumerServant, PushConsumerSkeleton};

use crate::any_text::any_line;
use crate::channel_client::{channel_at, orb_from};
use crate::interrupt::Interrupt;

/// The consumer: prints each event, notes a disconnect.
struct Printer {
    disconnected: Arc<AtomicBool>,
}

impl PushConsumerServant for Printer {
    fn push(&self, data: Any) -> Result<(), PushError> {
        let mut out = std::io::stdout().lock();
        // A closed output ends the listening, as an interrupt does.
        if writeln!(out, "{}", any_line(&data))
            .and_then(|()| out.flush())
            .is_err()
        {
            self.disconnected.store(true, Ordering::Relaxed);
        }
        Ok(())
    }

    fn disconnect_push_consumer(&self) -> Result<(), SystemException> {
        self.disconnected.store(true, Ordering::Relaxed);
        Ok(())
    }
}

/// Listens to the channel at `url`, serving the consumer on `endpoint`
/// (or the ORB's default endpoint).
pub(crate) fn run(
    url: &str,
    endpoint: Option<&str>,
    orb_args: &[String],
) -> Result<String, String> {
    let interrupt = Interrupt::install()?;
    let orb = orb_from(endpoint, orb_args)?;
    let channel = channel_at(&orb, url)?;
    let disconnected = Arc::new(AtomicBool::new(false));
    let consumer: PushConsumer = orb
        .activate(Arc::new(PushConsumerSkeleton(Printer {
            disconnected: Arc::clone(&disconnected),
        })))
        .map_err(|e| format!("cannot serve the consumer: {e}"))?
        .unchecked_narrow();
    let proxy = channel
        .for_consumers()
        .map_err(|e| format!("for_consumers: {e}"))?
        .ok_or("for_consumers gave a nil ConsumerAdmin")?
        .obtain_push_supplier()
        .map_err(|e| format!("obtain_push_supplier: {e}"))?
        .ok_or("obtain_push_supplier gave a nil proxy")?;
    proxy
        .connect_push_consumer(&Some(consumer))
        .map_err(|e| format!("connect_push_consumer: {e}"))?;
    eprintln!("rtorb: listening to {url}");
    let interrupted = interrupt.wait_unless(|| disconnected.load(Ordering::Relaxed));
    if interrupted {
        let _ = proxy.disconnect_push_supplier();
    } else {
        eprintln!("rtorb: the channel disconnected");
    }
    orb.shutdown();
    Ok(String::new())
}
