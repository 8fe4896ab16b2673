//! Servant managers (activators and locators) and adapter activators.

use std::any::Any;
use std::sync::Arc;

use rtorb_giop::SystemException;

use crate::object::Object;
use crate::servant::Skeleton;

use super::Poa;

/// `PortableServer::ForwardRequest`: the request goes to this object
/// instead (the client gets `LOCATION_FORWARD`).
#[derive(Debug, Clone)]
pub struct ForwardRequest(pub Object);

/// What a servant manager may raise instead of giving a servant.
#[derive(Debug, Clone)]
pub enum ServantManagerError {
    /// `ForwardRequest`.
    Forward(ForwardRequest),
    /// A system exception, returned to the client.
    System(SystemException),
}

impl From<SystemException> for ServantManagerError {
    fn from(e: SystemException) -> Self {
        ServantManagerError::System(e)
    }
}

impl From<ForwardRequest> for ServantManagerError {
    fn from(f: ForwardRequest) -> Self {
        ServantManagerError::Forward(f)
    }
}

/// `PortableServer::ServantActivator`: incarnates objects of a `RETAIN`
/// POA on their first request, and etherealizes them when they are
/// deactivated.
pub trait ServantActivator: Send + Sync {
    /// A servant for `oid`, which the POA then keeps in its active
    /// object map.
    fn incarnate(
        &self,
        oid: &[u8],
        adapter: &Poa,
    ) -> Result<Arc<dyn Skeleton>, ServantManagerError>;

    /// `servant` no longer incarnates `oid`: it was deactivated
    /// (`cleanup_in_progress` when because its POA or POA manager went);
    /// `remaining_activations` says whether it still incarnates other
    /// ids.
    fn etherealize(
        &self,
        oid: &[u8],
        adapter: &Poa,
        servant: Arc<dyn Skeleton>,
        cleanup_in_progress: bool,
        remaining_activations: bool,
    );
}

/// What a servant locator hands from `preinvoke` to `postinvoke` (the
/// IDL `Cookie`): anything, or nothing (`None`, no allocation).
pub type Cookie = Option<Box<dyn Any + Send>>;

/// `PortableServer::ServantLocator`: finds a servant for every request
/// of a `NON_RETAIN` POA.
pub trait ServantLocator: Send + Sync {
    /// The servant to run `operation` on `oid`, and a cookie for
    /// [`ServantLocator::postinvoke`].
    fn preinvoke(
        &self,
        oid: &[u8],
        adapter: &Poa,
        operation: &str,
    ) -> Result<(Arc<dyn Skeleton>, Cookie), ServantManagerError>;

    /// The request `preinvoke` gave `servant` for has ended.
    fn postinvoke(
        &self,
        oid: &[u8],
        adapter: &Poa,
        operation: &str,
        cookie: Cookie,
        servant: Arc<dyn Skeleton>,
    );
}

/// A servant manager, as set with [`Poa::set_servant_manager`].
#[derive(Clone)]
pub enum ServantManager {
    /// For a `RETAIN` POA.
    Activator(Arc<dyn ServantActivator>),
    /// For a `NON_RETAIN` POA.
    Locator(Arc<dyn ServantLocator>),
}

impl std::fmt::Debug for ServantManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServantManager::Activator(_) => f.write_str("ServantManager::Activator"),
            ServantManager::Locator(_) => f.write_str("ServantManager::Locator"),
        }
    }
}

/// `PortableServer::AdapterActivator`: makes child POAs on demand, for
/// [`Poa::find_poa`] with `activate_it` and for requests to persistent
/// references of POAs that do not exist (yet).
pub trait AdapterActivator: Send + Sync {
    /// Creates the child `name` of `parent` (with
    /// [`Poa::create_poa`]); whether it did.
    fn unknown_adapter(&self, parent: &Poa, name: &str) -> bool;
}
