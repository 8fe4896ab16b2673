//! The Portable Object Adapter.
//!
//! A [`Poa`] maps object ids to servants (the `Arc<dyn`
//! [`Skeleton`](crate::servant::Skeleton)`>` that generated code makes)
//! under a set of [`Policies`], and a [`PoaManager`] decides whether the
//! requests of its POAs are processed, held, discarded or rejected. Every
//! ORB has a Root POA ([`crate::orb::Orb::root_poa`], or
//! `resolve_initial_references("RootPOA")` and [`Poa::narrow`]) with the
//! policies of [`Policies::root`]; its manager, like every new manager,
//! starts in the holding state.
//!
//! ```
//! use std::sync::Arc;
//! use rtorb::orb::Orb;
//! use rtorb::poa::{IdAssignmentPolicy, LifespanPolicy, Policy};
//! # use rtorb::exception::{bad_operation, SystemException};
//! # use rtorb::servant::{ServerRequest, Skeleton};
//! # struct Hello;
//! # impl Skeleton for Hello {
//! #     fn repository_ids(&self) -> &'static [&'static str] { &["IDL:Hello:1.0"] }
//! #     fn dispatch(&self, _: &mut ServerRequest<'_>) -> Result<(), SystemException> { Err(bad_operation()) }
//! # }
//!
//! let orb = Orb::builder().listen("iiop://127.0.0.1:0").build().unwrap();
//! let root = orb.root_poa();
//! let poa = root
//!     .create_poa(
//!         "Hellos",
//!         Some(&root.the_poa_manager()),
//!         &[
//!             Policy::Lifespan(LifespanPolicy::Persistent),
//!             Policy::IdAssignment(IdAssignmentPolicy::UserId),
//!         ],
//!     )
//!     .unwrap();
//! poa.activate_object_with_id(b"hello", Arc::new(Hello)).unwrap();
//! let hello = poa.id_to_reference(b"hello").unwrap();
//! root.the_poa_manager().activate().unwrap();
//! assert!(!hello.non_existent().unwrap());
//! ```
//!
//! # Request processing
//!
//! A request's object key is first looked up in the ORB's table of plain
//! keys ([`crate::orb::Orb::activate_with_key`], `forward`), unless the
//! key has the POA's format and no plain key does (then it is not hashed
//! at all). A POA key names its POA and object id; the POA's manager
//! admits the request (waiting while it holds, up to
//! [`crate::orb::OrbConfig::poa_hold_limit`] held requests; `TRANSIENT`
//! while it discards; `OBJ_ADAPTER` when inactive), then the servant is
//! found by the POA's policies: the active object map, the default
//! servant, or the servant manager (a [`ServantActivator`] incarnates
//! into the map, a [`ServantLocator`] is asked around every request and
//! gets its [`Cookie`] back). A [`ForwardRequest`] from a servant
//! manager becomes `LOCATION_FORWARD`. A key of no POA or of no active
//! object is `OBJECT_NOT_EXIST`.
//!
//! # Object keys
//!
//! Keys the POA makes start with the octets `RTK` and a kind octet;
//! numbers are little-endian.
//!
//! A **transient** POA (direct demultiplexing):
//!
//! ```text
//! 0   "RTK" 'T'
//! 4   u64  ORB instance: a number drawn for every ORB, so keys of an
//!          earlier ORB or process never match
//! 12  u32  POA slot in the ORB's POA table
//! 16  u32  generation of that slot when the POA was created
//! 20  ..   object id
//! ```
//!
//! A **persistent** POA (stable across processes):
//!
//! ```text
//! 0   "RTK" 'P'
//! 4   u16  length n of the POA path
//! 6   n    POA path: for each POA below the Root POA, a u16 length and
//!          the name's UTF-8 octets
//! 6+n ..   object id
//! ```
//!
//! A **system-assigned object id** is the object's slot in its POA's
//! active object map and the slot's generation (two u32, eight octets);
//! in a persistent POA it is preceded by the ORB instance (sixteen
//! octets), so that an id of an earlier process is never taken for a
//! slot of this one. A user-assigned id is the application's octets.
//!
//! A request to a transient POA with system ids is found by two array
//! indexes: the POA slot (its generation must match, else the POA was
//! destroyed: `OBJECT_NOT_EXIST`) and the object slot (its generation
//! must match, else the object was deactivated and the slot perhaps
//! reused: `OBJECT_NOT_EXIST`, never the new servant). No hashing, no
//! allocation. A slot whose generation would wrap is retired. User ids,
//! and persistent POAs (found by their path), are hashed.
//!
//! A deactivated object's slot is freed at once, so its id cannot be
//! activated again (`BAD_PARAM`), except in a POA with a servant
//! activator, which keeps the slot so that a later request incarnates
//! the object again under its old id.
//!
//! # Collocation
//!
//! A call through a reference to an object of the same ORB is served in
//! the calling thread, through the same lookup (manager state, servant
//! managers included), without a connection: generated stubs call the
//! servant trait directly (no marshaling), other calls are marshaled in
//! memory. See [`crate::servant::ServantCast`]. A collocated call runs in
//! the caller's thread, so it waits while the manager holds requests,
//! oneways included.
//!
//! # Current
//!
//! [`Current`] (`resolve_initial_references("POACurrent")`) answers, in a
//! servant, which POA, object id, reference and servant the running
//! request is for, for requests from the network and collocated ones
//! alike, nested calls included.
//!
//! Not provided: the thread policy (every POA is `ORB_CTRL_MODEL`), and
//! `servant_to_id` for a default servant inside its own request.
//!
//! # Layout
//!
//! - `adapter`: the [`Poa`] and its operations (the public API).
//! - `active_object_map`: the map of a POA's active objects.
//! - `request`: the request path, from a key's object id to a servant.
//! - `manager`: [`PoaManager`]; `running`: the count of requests running
//!   in a POA or under a manager; `policy`: [`Policies`];
//!   `servant_manager`: the servant manager and adapter activator traits;
//!   `current`: [`Current`]; `error`: [`PoaError`] and the minor codes.
//! - `key`: the object key format; `table`: the ORB's table of adapters
//!   (the plain keys and the POAs), where a request's key is looked up.

mod active_object_map;
mod adapter;
pub(crate) mod adapter_table;
mod current;
mod key;
mod manager;
mod poa_error;
mod policies;
mod request_path;
mod running_requests;
mod servant_manager;

use crate::sync::RwLock;

pub use adapter::{ObjectId, POA_REPOSITORY_ID, Poa};
pub use current::{CURRENT_REPOSITORY_ID, Current, NoContext};
pub use manager::{PoaManager, State};
pub use poa_error::PoaError;
pub use policies::{
    IdAssignmentPolicy, IdUniquenessPolicy, ImplicitActivationPolicy, LifespanPolicy, Policies,
    Policy, RequestProcessingPolicy, ServantRetentionPolicy,
};
pub use servant_manager::{
    AdapterActivator, Cookie, ForwardRequest, ServantActivator, ServantLocator, ServantManager,
    ServantManagerError,
};

pub(crate) use request_path::{Found, Upcall};

fn read<T>(l: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    l.read()
}

fn write<T>(l: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    l.write()
}
