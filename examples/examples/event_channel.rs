//! An event channel with a supplier and two consumers in one process: a
//! push consumer the channel calls for each event, and a pull consumer
//! that asks for them, fed by a push supplier; then the channel's
//! counters, and its end.
//!
//! ```text
//! cargo run -p rtorb-examples --example event_channel
//! ```

use std::sync::{Arc, mpsc};
use std::time::Duration;

use rtorb::cdr::Any;
use rtorb::exception::SystemException;
use rtorb::orb::Orb;
use rtorb_events::cos_event_comm::push_consumer::PushError;
use rtorb_events::cos_event_comm::{PushConsumer, PushConsumerServant, PushConsumerSkeleton};
use rtorb_events::{ChannelConfig, EventChannel, OverflowPolicy};

/// A push consumer that hands each event's text to the main thread.
struct Ticker(mpsc::Sender<String>);

impl PushConsumerServant for Ticker {
    fn push(&self, data: Any) -> Result<(), PushError> {
        let text = data.get::<String>().unwrap_or_else(|_| format!("{data:?}"));
        let _ = self.0.send(text);
        Ok(())
    }

    fn disconnect_push_consumer(&self) -> Result<(), SystemException> {
        println!("push consumer: disconnected by the channel");
        Ok(())
    }
}

fn main() -> std::process::ExitCode {
    rtorb_examples::report("event_channel", run)
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let orb = Arc::new(Orb::builder().listen("iiop://127.0.0.1:0").build()?);
    let config = ChannelConfig {
        queue_length: 16,
        overflow: OverflowPolicy::DropOldest,
        ..ChannelConfig::default()
    };
    let channel = EventChannel::create(&orb, "Quotes", config)?;
    println!(
        "channel at {}",
        channel.reference().corbaloc().unwrap_or_default()
    );

    // A push consumer, served by this ORB, connected to a ProxyPushSupplier.
    let (tx, rx) = mpsc::channel();
    let consumer: PushConsumer = orb
        .activate(Arc::new(PushConsumerSkeleton(Ticker(tx))))?
        .unchecked_narrow();
    let to_push_consumer = channel
        .for_consumers()
        .obtain_push_supplier()?
        .ok_or("no ProxyPushSupplier")?;
    to_push_consumer.connect_push_consumer(&Some(consumer))?;

    // A pull consumer: a ProxyPullSupplier connected with no callback.
    let to_pull_consumer = channel
        .for_consumers()
        .obtain_pull_supplier()?
        .ok_or("no ProxyPullSupplier")?;
    to_pull_consumer.connect_pull_consumer(&None)?;

    // A push supplier: a ProxyPushConsumer it pushes to.
    let from_supplier = channel
        .for_suppliers()
        .obtain_push_consumer()?
        .ok_or("no ProxyPushConsumer")?;
    from_supplier.connect_push_supplier(&None)?;
    for quote in ["ACME 12.50", "INITECH 3.75", "GLOBEX 101.00"] {
        from_supplier.push(&Any::from(quote))?;
    }

    for _ in 0..3 {
        println!(
            "push consumer got: {}",
            rx.recv_timeout(Duration::from_secs(30))?
        );
    }
    for _ in 0..3 {
        let event = to_pull_consumer.pull()?;
        println!("pull consumer got: {}", event.get::<String>()?);
    }
    let (_, has_event) = to_pull_consumer.try_pull()?;
    println!("pull consumer: another event waiting? {has_event}");

    let stats = channel.stats();
    println!(
        "events supplied: {}, dropped: {}",
        stats.events, stats.dropped
    );
    from_supplier.disconnect_push_consumer()?;
    channel.destroy();
    // The channel tells its push consumer from the consumer's delivery
    // thread; the ORB's shutdown waits for that call to end.
    orb.shutdown();
    Ok(())
}
