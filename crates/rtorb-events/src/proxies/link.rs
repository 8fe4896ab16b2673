//! What the four proxies share: the state of a proxy's link to its client
//! ([`Link`]), the exceptions they raise for a nil or a missing client,
//! which failures of a client mean it is gone, and calling a client on a
//! thread of its own with the channel's call timeout.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use rtorb::Stub;
use rtorb::exception::{CompletionStatus, SystemException, SystemExceptionKind};
use rtorb::policy::Policy;

use crate::shared::{ChannelShared, object_not_exist};

/// A proxy's link to its client.
#[derive(Debug)]
pub(crate) enum Link<C> {
    /// Obtained from an admin, not connected yet.
    Idle,
    /// Connected to its client (`None`: a client that gave a nil
    /// reference, which the spec allows for suppliers of push events and
    /// consumers of pull events).
    Connected(C),
    /// Disconnected: the proxy is destroyed.
    Ended,
}

/// A proxy's link, behind its lock.
#[derive(Debug)]
pub(crate) struct LinkCell<C>(Mutex<Link<C>>);

impl<C> LinkCell<C> {
    pub(crate) fn new() -> LinkCell<C> {
        LinkCell(Mutex::new(Link::Idle))
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Link<C>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Connects `client`, if the link is idle: `Err(true)` if it is
    /// connected already, `Err(false)` if it has ended.
    pub(crate) fn connect(&self, client: C) -> Result<(), bool> {
        let mut link = self.lock();
        match *link {
            Link::Idle => {
                *link = Link::Connected(client);
                Ok(())
            }
            Link::Connected(_) => Err(true),
            Link::Ended => Err(false),
        }
    }

    /// Ends the link; the client it was connected to, if any.
    pub(crate) fn end(&self) -> Option<C> {
        match std::mem::replace(&mut *self.lock(), Link::Ended) {
            Link::Connected(client) => Some(client),
            Link::Idle | Link::Ended => None,
        }
    }

    /// Whether the link is connected.
    pub(crate) fn is_connected(&self) -> bool {
        matches!(*self.lock(), Link::Connected(_))
    }

    /// Whether the link has ended.
    pub(crate) fn has_ended(&self) -> bool {
        matches!(*self.lock(), Link::Ended)
    }
}

/// `BAD_PARAM` for a nil reference where a client is needed.
pub(crate) fn nil_client(what: &str) -> SystemException {
    SystemException::new(SystemExceptionKind::BadParam, 0, CompletionStatus::No)
        .with_detail(format!("a nil {what} cannot be connected"))
}

/// `OBJECT_NOT_EXIST` for a proxy that was disconnected (destroyed).
pub(crate) fn destroyed_proxy() -> SystemException {
    object_not_exist("the proxy was disconnected")
}

/// The channel, while it exists.
pub(crate) fn channel_of(
    channel: &Weak<ChannelShared>,
) -> Result<Arc<ChannelShared>, SystemException> {
    channel
        .upgrade()
        .ok_or_else(|| object_not_exist("the event channel is gone"))
}

/// Whether a failure of a call to a client means the client is gone:
/// `COMM_FAILURE` (it died during the call), `OBJECT_NOT_EXIST` (it was
/// destroyed), `TRANSIENT` (nothing answers where it was).
pub(crate) fn client_is_gone(e: &SystemException) -> bool {
    matches!(
        e.kind(),
        Some(
            SystemExceptionKind::CommFailure
                | SystemExceptionKind::ObjectNotExist
                | SystemExceptionKind::Transient
        )
    )
}

/// `client`, its calls bounded by the channel's call timeout.
pub(crate) fn bounded<S: Stub>(client: &S, channel: &ChannelShared) -> S {
    S::from_object(
        client
            .as_object()
            .with_policies(&[Policy::RelativeRoundtripTimeout(
                channel.config().call_timeout,
            )]),
    )
}

/// Runs `call` (telling a client it is disconnected) on a thread of its
/// own, so that neither the caller nor a lock waits for the client; if no
/// thread can be started, the client is not told.
pub(crate) fn tell_later(name: &str, call: impl FnOnce() + Send + 'static) {
    let _ = std::thread::Builder::new()
        .name(format!("rtorb-events-{name}"))
        .spawn(call);
}
