//! What answers at the object key of a proxy after it was disconnected:
//! [`DisconnectedProxy`], a skeleton with no state, which raises
//! `CosEventComm::Disconnected` to `push`, `pull` and `try_pull`, as the
//! specification says a disconnected communication does, and
//! `OBJECT_NOT_EXIST` to every other operation. The channel keeps a
//! bounded number of these (the most recent disconnections) and lets the
//! older ones go, so that memory stays bounded when clients reconnect in
//! a loop.

use rtorb::exception::SystemException;
use rtorb::servant::{ServerRequest, Skeleton};

use crate::idl::cos_event_comm::Disconnected;

/// The skeleton served at a disconnected proxy's key.
#[derive(Debug)]
pub(crate) struct DisconnectedProxy {
    /// The repository ids of the proxy's interface, for `_is_a`.
    pub(crate) repository_ids: &'static [&'static str],
}

impl Skeleton for DisconnectedProxy {
    fn repository_ids(&self) -> &'static [&'static str] {
        self.repository_ids
    }

    fn dispatch(&self, request: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        match request.operation_bytes() {
            b"push" | b"pull" | b"try_pull" => request.write_user_exception(&Disconnected {}),
            _ => {
                Err(rtorb::exception::object_not_exist().with_detail("the proxy was disconnected"))
            }
        }
    }
}
