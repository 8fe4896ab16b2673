//! `rtorb event-channel --endpoint URL --name NAME`: serves an event
//! channel whose object key is NAME, so that `corbaloc::HOST:PORT/NAME`
//! reaches it; prints its IOR, and serves until interrupted (SIGINT,
//! SIGTERM) or until a client destroys the channel. The channel's
//! settings come from `--config FILE` (`name = value` lines) and the
//! options, which win; the ORB's from `-ORB` options and the
//! configuration file they or `RTORB_CONFIG` name.

use std::io::Write;
use std::path::PathBuf;

use rtorb_events::{ChannelConfig, EventChannel, OverflowPolicy};

use crate::channel_client::orb_from;
use crate::interrupt::Interrupt;

/// The command's options.
#[derive(Debug, clap::Args)]
pub(crate) struct ChannelOptions {
    /// The endpoint to serve on (`iiop://host:port`, `uiop:///path`).
    #[arg(long)]
    endpoint: String,
    /// The channel's name: its object key.
    #[arg(long)]
    name: String,
    /// A file of channel settings, a `name = value` per line
    /// (QueueLength, Overflow, MaxProxies, PullRetryMs, CallTimeoutMs).
    #[arg(long)]
    config: Option<PathBuf>,
    /// The events each consumer's queue holds.
    #[arg(long)]
    queue_length: Option<usize>,
    /// What a full queue does: drop-oldest, drop-newest or disconnect.
    #[arg(long, value_parser = parse_policy)]
    overflow: Option<OverflowPolicy>,
    /// The most proxies the channel serves at once.
    #[arg(long)]
    max_proxies: Option<usize>,
    /// ORB options (`-ORBServerStrategy reactive`, ...), after `--`.
    #[arg(last = true)]
    orb_args: Vec<String>,
}

fn parse_policy(name: &str) -> Result<OverflowPolicy, String> {
    OverflowPolicy::from_name(name)
        .ok_or_else(|| format!("{name:?}: drop-oldest, drop-newest or disconnect"))
}

impl ChannelOptions {
    /// The channel's settings: the file's, then the options'.
    fn channel_config(&self) -> Result<ChannelConfig, String> {
        let mut config = match &self.config {
            Some(path) => ChannelConfig::from_file(path).map_err(|e| e.to_string())?,
            None => ChannelConfig::default(),
        };
        if let Some(n) = self.queue_length {
            config
                .set("QueueLength", &n.to_string())
                .map_err(|e| e.to_string())?;
        }
        if let Some(n) = self.max_proxies {
            config
                .set("MaxProxies", &n.to_string())
                .map_err(|e| e.to_string())?;
        }
        if let Some(policy) = self.overflow {
            config.overflow = policy;
        }
        Ok(config)
    }
}

/// Serves the channel until interrupted or destroyed.
pub(crate) fn run(options: &ChannelOptions) -> Result<String, String> {
    let interrupt = Interrupt::install()?;
    let config = options.channel_config()?;
    let orb = orb_from(Some(&options.endpoint), &options.orb_args)?;
    let channel = EventChannel::create(&orb, &options.name, config).map_err(|e| e.to_string())?;
    let ior = orb
        .object_to_string(channel.reference())
        .ok_or("the channel has no IOR")?;
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{ior}").and_then(|()| out.flush());
    }
    if let Some(url) = channel.reference().corbaloc() {
        eprintln!("rtorb: event channel {} at {url}", options.name);
    }
    let interrupted = interrupt.wait_unless(|| channel.is_destroyed());
    if interrupted {
        channel.destroy();
    } else {
        eprintln!("rtorb: the event channel was destroyed");
    }
    orb.shutdown();
    Ok(String::new())
}
