//! `rtorb events push --channel URL`: supplies each line of standard
//! input to the channel as one event, a string in an `Any`, through a
//! `ProxyPushConsumer` (connected with a nil supplier), and disconnects
//! at the end of the input.

use std::io::BufRead;

use rtorb::cdr::Any;

use crate::channel_client::{channel_at, orb_from};

/// Pushes the lines of standard input to the channel at `url`; how many
/// it pushed, as a line for standard error.
pub(crate) fn run(url: &str, orb_args: &[String]) -> Result<String, String> {
    let orb = orb_from(None, orb_args)?;
    let channel = channel_at(&orb, url)?;
    let proxy = channel
        .for_suppliers()
        .map_err(|e| format!("for_suppliers: {e}"))?
        .ok_or("for_suppliers gave a nil SupplierAdmin")?
        .obtain_push_consumer()
        .map_err(|e| format!("obtain_push_consumer: {e}"))?
        .ok_or("obtain_push_consumer gave a nil proxy")?;
    proxy
        .connect_push_supplier(&None)
        .map_err(|e| format!("connect_push_supplier: {e}"))?;
    let mut pushed = 0u64;
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| format!("reading standard input: {e}"))?;
        proxy
            .push(&Any::from(line.as_str()))
            .map_err(|e| format!("push of event {}: {e}", pushed + 1))?;
        pushed += 1;
    }
    let _ = proxy.disconnect_push_consumer();
    orb.shutdown();
    eprintln!("rtorb: pushed {pushed} events to {url}");
    Ok(String::new())
}
