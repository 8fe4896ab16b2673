//! The four proxies of a channel, a file each, and what they share
//! ([`link`]). Each is a state (`…Proxy`), which the channel's table holds
//! to end it, and a servant (`…ProxyServant`) that serves it:
//!
//! - `ProxyPushSupplier` ([`push_supplier`]): a push consumer's queue and
//!   the thread that pushes from it;
//! - `ProxyPullSupplier` ([`pull_supplier`]): a pull consumer's queue,
//!   which `pull` and `try_pull` read;
//! - `ProxyPushConsumer` ([`push_consumer`]): what a push supplier pushes
//!   to;
//! - `ProxyPullConsumer` ([`pull_consumer`]): the thread that pulls from a
//!   pull supplier.
//!
//! A proxy is connected once (`AlreadyConnected` after that), and
//! destroyed when disconnected, by its client, by the channel, or because
//! its client failed; the other side is then told with its
//! `disconnect_*` operation, unless it is the one that failed.

pub(crate) mod link;
pub(crate) mod pull_consumer;
pub(crate) mod pull_supplier;
pub(crate) mod push_consumer;
pub(crate) mod push_supplier;
