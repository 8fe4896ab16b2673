//! The Portable Object Adapter.
//!
//! A [`Poa`] maps object ids to servants (the `Arc<dyn`
//! [`Skeleton`]`>` that generated code makes) under a set of
//! [`Policies`], and a [`PoaManager`] decides whether the requests of its
//! POAs are processed, held, discarded or rejected. Every ORB has a Root
//! POA ([`crate::orb::Orb::root_poa`], or
//! `resolve_initial_references("RootPOA")` and [`Poa::narrow`]) with the
//! policies of [`Policies::root`]; its manager, like every new manager,
//! starts in the holding state.
//!
//! ```
//! use std::sync::Arc;
//! use rtorb::orb::Orb;
//! use rtorb::poa::{IdAssignmentPolicy, LifespanPolicy, Policy};
//! # use rtorb::runtime::{bad_operation, ServerRequest, Skeleton, SystemException};
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
//! memory. See [`crate::runtime::ServantCast`]. A collocated call runs in
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

mod current;
mod error;
mod key;
mod manager;
mod policy;
mod servant_manager;
pub(crate) mod table;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Weak};

use crate::sync::{Mutex, RwLock};

use bytes::Bytes;
use rtorb_giop::{Operation, SystemException, SystemExceptionKind};

use crate::runtime::{Arguments, Invoker, Object, Reply, Skeleton, SyncScope, Target};

pub use current::{CURRENT_REPOSITORY_ID, Current, NoContext};
pub use error::{
    BAD_INV_ORDER_SERVANT_MANAGER_SET, BAD_INV_ORDER_WOULD_DEADLOCK, BAD_PARAM_FOREIGN_ID,
    BAD_PARAM_STALE_ID, OBJ_ADAPTER_INACTIVE, OBJ_ADAPTER_NO_DEFAULT_SERVANT,
    OBJ_ADAPTER_NO_SERVANT_MANAGER, OBJECT_NOT_EXIST_NO_ADAPTER, OBJECT_NOT_EXIST_NOT_ACTIVE,
    PoaError, TRANSIENT_DISCARDED, TRANSIENT_SHUTTING_DOWN,
};
pub use manager::{PoaManager, State};
pub use policy::{
    IdAssignmentPolicy, IdUniquenessPolicy, ImplicitActivationPolicy, LifespanPolicy, Policies,
    Policy, RequestProcessingPolicy, ServantRetentionPolicy,
};
pub use servant_manager::{
    AdapterActivator, Cookie, ForwardRequest, ServantActivator, ServantLocator, ServantManager,
    ServantManagerError,
};

use error::{destroyed, no_adapter, not_active, system, would_deadlock};
use key::SlotRef;
use manager::{Running, enter_upcall, leave_upcall, lock};
use table::{AdapterTable, Location};

/// An object id: the application's octets, or the POA's for a
/// system-assigned id.
pub type ObjectId = Bytes;

/// The repository id of a POA (a local object).
pub const POA_REPOSITORY_ID: &str = "IDL:omg.org/PortableServer/POA:2.3";

/// `PortableServer::POA`: a handle; clones share the POA.
#[derive(Clone)]
pub struct Poa(pub(crate) Arc<PoaInner>);

pub(crate) struct PoaInner {
    name: String,
    parent: Option<Weak<PoaInner>>,
    /// The ORB's table (which holds the POA: weak, so that the two do
    /// not keep each other alive).
    table: Weak<AdapterTable>,
    /// The ORB instance number (the table's).
    instance: u64,
    slot: SlotRef,
    /// The encoded path (see [`key::encode_path`]).
    path: Vec<u8>,
    policies: Policies,
    manager: PoaManager,
    state: RwLock<PoaState>,
    /// Serializes incarnations, so an id is incarnated once.
    incarnating: Mutex<()>,
    /// Requests admitted and not yet finished.
    in_flight: Running,
    destroyed: AtomicBool,
}

#[derive(Default)]
struct PoaState {
    aom: Aom,
    children: HashMap<String, Poa>,
    default_servant: Option<Arc<dyn Skeleton>>,
    servant_manager: Option<ServantManager>,
    activator: Option<Arc<dyn AdapterActivator>>,
    /// Source of system ids of a `NON_RETAIN` POA.
    next_id: u64,
}

/// The active object map: slots with generations, and hash maps for
/// what is not found by slot.
#[derive(Default)]
struct Aom {
    slots: Vec<ObjectSlot>,
    free: Vec<u32>,
    /// User ids, and system ids not found by their slot.
    by_id: HashMap<Bytes, u32>,
    /// Servant (address) → how many ids it is active under, and one slot.
    by_servant: HashMap<usize, (usize, u32)>,
}

#[derive(Default)]
struct ObjectSlot {
    generation: u32,
    /// Assigned to an id that is not active (a reference made by
    /// `create_reference`, or an object a servant activator may
    /// incarnate again).
    reserved: bool,
    active: Option<Arc<Active>>,
}

/// An active object.
pub(crate) struct Active {
    id: Bytes,
    servant: Arc<dyn Skeleton>,
    in_flight: AtomicUsize,
    deactivated: AtomicBool,
    /// Whether it was deactivated because its POA or manager went.
    cleanup: AtomicBool,
    etherealized: AtomicBool,
}

fn servant_addr(s: &Arc<dyn Skeleton>) -> usize {
    Arc::as_ptr(s) as *const () as usize
}

fn read<T>(l: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    l.read()
}

fn write<T>(l: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    l.write()
}

impl Aom {
    fn alloc(&mut self) -> Result<SlotRef, PoaError> {
        let slot = match self.free.pop() {
            Some(s) => s,
            None => {
                let s = u32::try_from(self.slots.len())
                    .map_err(|_| PoaError::System(system(SystemExceptionKind::NoResources, 0)))?;
                self.slots.push(ObjectSlot::default());
                s
            }
        };
        let s = &mut self.slots[slot as usize];
        s.reserved = true;
        Ok(SlotRef {
            slot,
            generation: s.generation,
        })
    }

    /// Takes back the slot of a freed system id `r` for that id again,
    /// if no other object was given the slot since: its generation is
    /// set back, so the id (and its references) match it again and no
    /// other generation does. Whether it did.
    fn reclaim(&mut self, r: SlotRef) -> bool {
        let Some(s) = self.slots.get_mut(r.slot as usize) else {
            return false;
        };
        let freed_since = s.generation == r.generation.wrapping_add(1)
            || (s.generation == u32::MAX && r.generation == u32::MAX);
        if s.reserved || s.active.is_some() || !freed_since {
            return false;
        }
        s.generation = r.generation;
        s.reserved = true;
        self.free.retain(|f| *f != r.slot);
        true
    }

    /// Frees `slot` for another object: ids of the old generation no
    /// longer match it.
    fn free(&mut self, slot: u32) {
        let s = &mut self.slots[slot as usize];
        s.active = None;
        s.reserved = false;
        if s.generation == u32::MAX {
            // Retired: never reused, so no generation repeats.
            return;
        }
        s.generation += 1;
        self.free.push(slot);
    }

    fn note_servant(&mut self, servant: &Arc<dyn Skeleton>, slot: u32) {
        let e = self
            .by_servant
            .entry(servant_addr(servant))
            .or_insert((0, slot));
        e.0 += 1;
        e.1 = slot;
    }

    fn forget_servant(&mut self, servant: &Arc<dyn Skeleton>) -> bool {
        let addr = servant_addr(servant);
        match self.by_servant.get_mut(&addr) {
            Some(e) if e.0 > 1 => {
                e.0 -= 1;
                // Find another slot it is active in.
                if let Some(i) = self.slots.iter().position(|s| {
                    s.active
                        .as_ref()
                        .is_some_and(|a| servant_addr(&a.servant) == addr)
                }) {
                    e.1 = i as u32;
                }
                true
            }
            _ => {
                self.by_servant.remove(&addr);
                false
            }
        }
    }
}

impl std::fmt::Debug for Poa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Poa")
            .field("name", &self.0.name)
            .field("policies", &self.0.policies)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Poa {
    fn eq(&self, other: &Poa) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// What a servant lookup gives a request.
pub(crate) enum Found {
    /// Run the request on this servant.
    Servant(Upcall),
    /// Answer `LOCATION_FORWARD` to this reference.
    Forward(rtorb_giop::ObjectReference),
}

/// A servant found for one request; dropping it ends the request in the
/// POA (servant locator `postinvoke`, a pending etherealization, the
/// manager's count of running requests).
pub(crate) struct Upcall {
    skeleton: Arc<dyn Skeleton>,
    end: Option<End>,
}

struct End {
    poa: Poa,
    how: How,
}

enum How {
    Retained(Arc<Active>),
    Default,
    Located {
        locator: Arc<dyn ServantLocator>,
        oid: Bytes,
        operation: String,
        cookie: Cookie,
    },
}

impl Upcall {
    /// A servant of the plain key table.
    pub(crate) fn plain(skeleton: Arc<dyn Skeleton>) -> Upcall {
        Upcall {
            skeleton,
            end: None,
        }
    }

    /// Whether it is the upcall of a plain key (no POA to tell when it
    /// ends).
    pub(crate) fn is_plain(&self) -> bool {
        self.end.is_none()
    }

    /// The servant.
    pub(crate) fn skeleton(&self) -> &Arc<dyn Skeleton> {
        &self.skeleton
    }
}

impl Drop for Upcall {
    fn drop(&mut self) {
        let Some(end) = self.end.take() else {
            return;
        };
        let poa = &end.poa;
        match end.how {
            How::Retained(active) => {
                if active.in_flight.fetch_sub(1, Ordering::SeqCst) == 1
                    && active.deactivated.load(Ordering::SeqCst)
                {
                    let remaining = read(&poa.0.state)
                        .aom
                        .by_servant
                        .contains_key(&servant_addr(&active.servant));
                    let cleanup = active.cleanup.load(Ordering::SeqCst);
                    poa.etherealize_one(&active, cleanup, remaining);
                }
            }
            How::Default => {}
            How::Located {
                locator,
                oid,
                operation,
                cookie,
            } => locator.postinvoke(&oid, poa, &operation, cookie, self.skeleton.clone()),
        }
        current::leave();
        // The manager's count first: a `destroy` waiting on the POA's
        // count returns with the request gone from both.
        poa.0.manager.release();
        poa.0.in_flight.end();
        leave_upcall();
    }
}

/// The invoker of local objects (a POA as an [`Object`]): they cannot
/// be called.
pub(crate) struct LocalObject;

impl Invoker for LocalObject {
    fn invoke(
        &self,
        _target: &Target,
        _operation: Operation,
        _arguments: Arguments<'_>,
    ) -> Result<Reply, SystemException> {
        Err(system(SystemExceptionKind::NoImplement, 0))
    }

    fn invoke_oneway(
        &self,
        _target: &Target,
        _operation: Operation,
        _sync: SyncScope,
        _arguments: Arguments<'_>,
    ) -> Result<(), SystemException> {
        Err(system(SystemExceptionKind::NoImplement, 0))
    }
}

impl Poa {
    pub(crate) fn new(
        name: String,
        parent: Option<&Poa>,
        table: Arc<AdapterTable>,
        slot: SlotRef,
        policies: Policies,
        manager: PoaManager,
    ) -> Poa {
        let mut names: Vec<String> = Vec::new();
        if let Some(p) = parent {
            let mut cur = Some(p.clone());
            while let Some(c) = cur {
                if c.0.parent.is_some() {
                    names.push(c.0.name.clone());
                }
                cur = c.the_parent();
            }
            names.reverse();
            names.push(name.clone());
        }
        let path = key::encode_path(names.iter().map(String::as_str));
        let poa = Poa(Arc::new(PoaInner {
            name,
            parent: parent.map(|p| Arc::downgrade(&p.0)),
            instance: table.instance,
            table: Arc::downgrade(&table),
            slot,
            path,
            policies,
            manager: manager.clone(),
            state: RwLock::new(PoaState::default()),
            incarnating: Mutex::new(()),
            in_flight: Running::default(),
            destroyed: AtomicBool::new(false),
        }));
        manager.add_poa(Arc::downgrade(&poa.0));
        poa
    }

    /// The POA an object from [`crate::orb::Orb::resolve_initial_references`]
    /// (`"RootPOA"`) or [`Poa::as_object`] is, if it is one.
    pub fn narrow(object: &Object) -> Option<Poa> {
        object
            .target()
            .binding()
            .get()?
            .downcast_ref::<Poa>()
            .cloned()
    }

    /// The POA as a (local) `CORBA::Object`, which [`Poa::narrow`] turns
    /// back into it; it cannot be invoked.
    pub fn as_object(&self) -> Object {
        let target = Target::from_key(POA_REPOSITORY_ID, Bytes::from(self.0.path.clone()));
        let _ = target.binding().set(Arc::new(self.clone()));
        Object::new(Arc::new(LocalObject), target)
    }

    /// `the_name`.
    pub fn the_name(&self) -> &str {
        &self.0.name
    }

    /// `the_parent` (`None` for the Root POA).
    pub fn the_parent(&self) -> Option<Poa> {
        self.0.parent.as_ref()?.upgrade().map(Poa)
    }

    /// `the_children`.
    pub fn the_children(&self) -> Vec<Poa> {
        read(&self.0.state).children.values().cloned().collect()
    }

    /// `the_POAManager`.
    pub fn the_poa_manager(&self) -> PoaManager {
        self.0.manager.clone()
    }

    /// The POA's policies.
    pub fn policies(&self) -> Policies {
        self.0.policies
    }

    /// Whether [`Poa::destroy`] has been called.
    pub fn is_destroyed(&self) -> bool {
        self.0.destroyed.load(Ordering::Acquire)
    }

    fn table(&self) -> Result<Arc<AdapterTable>, PoaError> {
        self.0.table.upgrade().ok_or_else(destroyed)
    }

    fn check(&self) -> Result<(), PoaError> {
        if self.is_destroyed() {
            return Err(destroyed());
        }
        Ok(())
    }

    /// `the_activator`.
    pub fn the_activator(&self) -> Option<Arc<dyn AdapterActivator>> {
        read(&self.0.state).activator.clone()
    }

    /// Sets `the_activator`.
    pub fn set_the_activator(&self, activator: Option<Arc<dyn AdapterActivator>>) {
        write(&self.0.state).activator = activator;
    }

    /// `create_POA`: a child named `name`, with `manager` (a new one, in
    /// the holding state, if `None`) and the policies of `policies` over
    /// the defaults.
    pub fn create_poa(
        &self,
        name: &str,
        manager: Option<&PoaManager>,
        policies: &[Policy],
    ) -> Result<Poa, PoaError> {
        self.check()?;
        let policies = Policies::from_list(policies)?;
        if name.len() > key::MAX_NAME {
            return Err(PoaError::System(system(SystemExceptionKind::BadParam, 0)));
        }
        let mut st = write(&self.0.state);
        if st.children.contains_key(name) {
            return Err(PoaError::AdapterAlreadyExists);
        }
        let table = self.table()?;
        let manager = match manager {
            Some(m) => m.clone(),
            None => table.new_manager(name),
        };
        let poa = table.register(name.to_owned(), Some(self), policies, manager)?;
        st.children.insert(name.to_owned(), poa.clone());
        Ok(poa)
    }

    /// `find_POA`: the child `name`; if there is none and `activate_it`,
    /// the POA's adapter activator is asked to make it.
    pub fn find_poa(&self, name: &str, activate_it: bool) -> Result<Poa, PoaError> {
        self.check()?;
        let (found, activator) = {
            let st = read(&self.0.state);
            (st.children.get(name).cloned(), st.activator.clone())
        };
        if let Some(p) = found {
            return Ok(p);
        }
        match activator {
            Some(a) if activate_it => {
                if a.unknown_adapter(self, name) {
                    if let Some(p) = read(&self.0.state).children.get(name).cloned() {
                        return Ok(p);
                    }
                }
                Err(PoaError::AdapterNonExistent)
            }
            _ => Err(PoaError::AdapterNonExistent),
        }
    }

    /// `destroy`: destroys the children, then the POA; with
    /// `etherealize_objects` its servant activator etherealizes every
    /// active object; with `wait_for_completion` returns once its
    /// running requests have ended (`BAD_INV_ORDER` if called from one).
    /// Its references then get `OBJECT_NOT_EXIST`; a POA of the same
    /// name may be created again.
    pub fn destroy(
        &self,
        etherealize_objects: bool,
        wait_for_completion: bool,
    ) -> Result<(), PoaError> {
        if wait_for_completion && self.0.manager.in_upcall_here() {
            return Err(PoaError::System(would_deadlock()));
        }
        if self.0.destroyed.swap(true, Ordering::AcqRel) {
            return Ok(());
        }
        let children: Vec<Poa> = write(&self.0.state)
            .children
            .drain()
            .map(|(_, p)| p)
            .collect();
        for c in children {
            c.destroy(etherealize_objects, wait_for_completion)?;
        }
        if let Some(parent) = self.the_parent() {
            let mut st = write(&parent.0.state);
            if st.children.get(&self.0.name).is_some_and(|p| p == self) {
                st.children.remove(&self.0.name);
            }
        }
        if let Some(table) = self.0.table.upgrade() {
            table.unregister(self);
        }
        self.0.manager.wake();
        if wait_for_completion {
            self.0.in_flight.wait_none();
        }
        if etherealize_objects {
            self.etherealize_all(true);
        } else {
            let mut st = write(&self.0.state);
            st.aom = Aom::default();
        }
        // The servant manager stays: objects with requests still running
        // are etherealized when those end.
        let mut st = write(&self.0.state);
        st.default_servant = None;
        st.activator = None;
        Ok(())
    }

    /// `get_servant_manager` (needs `USE_SERVANT_MANAGER`).
    pub fn get_servant_manager(&self) -> Result<Option<ServantManager>, PoaError> {
        self.check()?;
        if self.0.policies.request_processing != RequestProcessingPolicy::UseServantManager {
            return Err(PoaError::WrongPolicy);
        }
        Ok(read(&self.0.state).servant_manager.clone())
    }

    /// `set_servant_manager` (needs `USE_SERVANT_MANAGER`): an activator
    /// for a `RETAIN` POA, a locator for a `NON_RETAIN` one
    /// (`OBJ_ADAPTER` otherwise); once only (`BAD_INV_ORDER`).
    pub fn set_servant_manager(&self, manager: ServantManager) -> Result<(), PoaError> {
        self.check()?;
        if self.0.policies.request_processing != RequestProcessingPolicy::UseServantManager {
            return Err(PoaError::WrongPolicy);
        }
        let fits = matches!(
            (&manager, self.0.policies.retains()),
            (ServantManager::Activator(_), true) | (ServantManager::Locator(_), false)
        );
        if !fits {
            return Err(PoaError::System(system(
                SystemExceptionKind::ObjAdapter,
                OBJ_ADAPTER_NO_SERVANT_MANAGER,
            )));
        }
        let mut st = write(&self.0.state);
        if st.servant_manager.is_some() {
            return Err(PoaError::System(system(
                SystemExceptionKind::BadInvOrder,
                BAD_INV_ORDER_SERVANT_MANAGER_SET,
            )));
        }
        st.servant_manager = Some(manager);
        Ok(())
    }

    /// `get_servant`: the default servant (needs `USE_DEFAULT_SERVANT`).
    pub fn get_servant(&self) -> Result<Arc<dyn Skeleton>, PoaError> {
        self.check()?;
        if self.0.policies.request_processing != RequestProcessingPolicy::UseDefaultServant {
            return Err(PoaError::WrongPolicy);
        }
        read(&self.0.state)
            .default_servant
            .clone()
            .ok_or(PoaError::NoServant)
    }

    /// `set_servant`: the default servant (needs `USE_DEFAULT_SERVANT`).
    pub fn set_servant(&self, servant: Arc<dyn Skeleton>) -> Result<(), PoaError> {
        self.check()?;
        if self.0.policies.request_processing != RequestProcessingPolicy::UseDefaultServant {
            return Err(PoaError::WrongPolicy);
        }
        write(&self.0.state).default_servant = Some(servant);
        Ok(())
    }

    fn id_instance(&self) -> Option<u64> {
        self.0.policies.persistent().then_some(self.0.instance)
    }

    /// `activate_object` (needs `SYSTEM_ID` and `RETAIN`): activates
    /// `servant` under a new id.
    pub fn activate_object(&self, servant: Arc<dyn Skeleton>) -> Result<ObjectId, PoaError> {
        self.check()?;
        let p = self.0.policies;
        if !p.system_ids() || !p.retains() {
            return Err(PoaError::WrongPolicy);
        }
        let mut st = write(&self.0.state);
        self.check_unique(&st.aom, &servant)?;
        let r = st.aom.alloc()?;
        let id = Bytes::from(key::system_id(self.id_instance(), r));
        self.put(&mut st.aom, r.slot, id.clone(), servant);
        Ok(id)
    }

    fn check_unique(&self, aom: &Aom, servant: &Arc<dyn Skeleton>) -> Result<(), PoaError> {
        if self.0.policies.id_uniqueness == IdUniquenessPolicy::UniqueId
            && aom.by_servant.contains_key(&servant_addr(servant))
        {
            return Err(PoaError::ServantAlreadyActive);
        }
        Ok(())
    }

    fn put(&self, aom: &mut Aom, slot: u32, id: Bytes, servant: Arc<dyn Skeleton>) -> Arc<Active> {
        aom.note_servant(&servant, slot);
        let active = Arc::new(Active {
            id,
            servant,
            in_flight: AtomicUsize::new(0),
            deactivated: AtomicBool::new(false),
            cleanup: AtomicBool::new(false),
            etherealized: AtomicBool::new(false),
        });
        let s = &mut aom.slots[slot as usize];
        s.reserved = true;
        s.active = Some(active.clone());
        active
    }

    /// Where `id` is (or would be) in the active object map: its slot if
    /// active or reserved, and whether it is found by slot (a system id
    /// of this ORB instance).
    fn slot_of(&self, aom: &Aom, id: &[u8]) -> Option<(u32, bool)> {
        if self.0.policies.system_ids() {
            if let Some(r) = key::parse_system_id(id, self.id_instance()) {
                if let Some(s) = aom.slots.get(r.slot as usize) {
                    if s.generation == r.generation && s.reserved {
                        return Some((r.slot, true));
                    }
                }
            }
        }
        if aom.by_id.is_empty() {
            return None;
        }
        aom.by_id.get(id).map(|s| (*s, false))
    }

    fn find_active(&self, aom: &Aom, id: &[u8]) -> Option<Arc<Active>> {
        let (slot, _) = self.slot_of(aom, id)?;
        aom.slots[slot as usize].active.clone()
    }

    /// Puts `servant` into the map under `id` (known not active); with
    /// `SYSTEM_ID`, a valid id of this instance goes to its own slot.
    fn insert_with_id(
        &self,
        aom: &mut Aom,
        id: &[u8],
        servant: Arc<dyn Skeleton>,
    ) -> Result<Arc<Active>, PoaError> {
        if let Some((slot, _)) = self.slot_of(aom, id) {
            return Ok(self.put(aom, slot, Bytes::copy_from_slice(id), servant));
        }
        // A system id of this instance whose object was deactivated: its
        // slot, unless another object has it now.
        if let Some(r) = self
            .0
            .policies
            .system_ids()
            .then(|| key::parse_system_id(id, self.id_instance()))
            .flatten()
            && aom.reclaim(r)
        {
            return Ok(self.put(aom, r.slot, Bytes::copy_from_slice(id), servant));
        }
        if self.0.policies.system_ids() {
            // An id this instance assigned whose slot went to another
            // object, or one it did not assign.
            let foreign = key::parse_system_id(id, self.id_instance()).is_none();
            if !foreign {
                return Err(PoaError::System(system(
                    SystemExceptionKind::BadParam,
                    BAD_PARAM_STALE_ID,
                )));
            }
            if !self.0.policies.persistent() {
                return Err(PoaError::System(system(
                    SystemExceptionKind::BadParam,
                    BAD_PARAM_FOREIGN_ID,
                )));
            }
        }
        let r = aom.alloc()?;
        let id = Bytes::copy_from_slice(id);
        aom.by_id.insert(id.clone(), r.slot);
        Ok(self.put(aom, r.slot, id, servant))
    }

    /// `activate_object_with_id` (needs `RETAIN`). With `SYSTEM_ID`, `id`
    /// must be one this POA assigned (`BAD_PARAM`, [`BAD_PARAM_FOREIGN_ID`],
    /// otherwise); a deactivated one can be activated again unless its
    /// slot went to another object meanwhile (`BAD_PARAM`,
    /// [`BAD_PARAM_STALE_ID`]: the slot and its generation count are what
    /// keeps a stale reference from reaching the other object).
    pub fn activate_object_with_id(
        &self,
        id: &[u8],
        servant: Arc<dyn Skeleton>,
    ) -> Result<(), PoaError> {
        self.check()?;
        if !self.0.policies.retains() {
            return Err(PoaError::WrongPolicy);
        }
        let mut st = write(&self.0.state);
        if self.find_active(&st.aom, id).is_some() {
            return Err(PoaError::ObjectAlreadyActive);
        }
        self.check_unique(&st.aom, &servant)?;
        self.insert_with_id(&mut st.aom, id, servant)?;
        Ok(())
    }

    fn uses_activator(&self, st: &PoaState) -> Option<Arc<dyn ServantActivator>> {
        match &st.servant_manager {
            Some(ServantManager::Activator(a)) => Some(a.clone()),
            _ => None,
        }
    }

    /// `deactivate_object` (needs `RETAIN`): removes `id` from the
    /// active object map; new requests no longer reach its servant, and
    /// a servant activator etherealizes it once its running requests
    /// have ended.
    pub fn deactivate_object(&self, id: &[u8]) -> Result<(), PoaError> {
        self.check()?;
        if !self.0.policies.retains() {
            return Err(PoaError::WrongPolicy);
        }
        let (active, activator, remaining) = {
            let mut st = write(&self.0.state);
            let activator = self.uses_activator(&st);
            let Some((slot, by_slot)) = self.slot_of(&st.aom, id) else {
                return Err(PoaError::ObjectNotActive);
            };
            let Some(active) = st.aom.slots[slot as usize].active.take() else {
                return Err(PoaError::ObjectNotActive);
            };
            let remaining = st.aom.forget_servant(&active.servant);
            if by_slot && activator.is_some() {
                // Kept, so the id may be incarnated again.
                st.aom.slots[slot as usize].reserved = true;
            } else {
                if !by_slot {
                    st.aom.by_id.remove(id);
                }
                st.aom.free(slot);
            }
            active.deactivated.store(true, Ordering::SeqCst);
            (active, activator, remaining)
        };
        if activator.is_some() && active.in_flight.load(Ordering::SeqCst) == 0 {
            self.etherealize_one(&active, false, remaining);
        }
        Ok(())
    }

    fn etherealize_one(&self, active: &Arc<Active>, cleanup: bool, remaining: bool) {
        let activator = self.uses_activator(&read(&self.0.state));
        if let Some(a) = activator {
            if !active.etherealized.swap(true, Ordering::AcqRel) {
                a.etherealize(&active.id, self, active.servant.clone(), cleanup, remaining);
            }
        }
    }

    /// Deactivates every active object, etherealizing those without
    /// running requests (the others when their last request ends).
    pub(crate) fn etherealize_all(&self, cleanup: bool) {
        let (actives, activator) = {
            let mut st = write(&self.0.state);
            let activator = self.uses_activator(&st);
            let mut actives = Vec::new();
            for s in &mut st.aom.slots {
                if let Some(a) = s.active.take() {
                    a.cleanup.store(cleanup, Ordering::SeqCst);
                    a.deactivated.store(true, Ordering::SeqCst);
                    actives.push(a);
                }
            }
            st.aom = Aom::default();
            (actives, activator)
        };
        let Some(activator) = activator else {
            return;
        };
        for (i, a) in actives.iter().enumerate() {
            let addr = servant_addr(&a.servant);
            let remaining = actives[i + 1..]
                .iter()
                .any(|b| servant_addr(&b.servant) == addr);
            if a.in_flight.load(Ordering::SeqCst) == 0
                && !a.etherealized.swap(true, Ordering::AcqRel)
            {
                activator.etherealize(&a.id, self, a.servant.clone(), cleanup, remaining);
            }
        }
    }

    /// The object key of `id` in this POA.
    pub fn object_key(&self, id: &[u8]) -> Bytes {
        let k = if self.0.policies.persistent() {
            key::persistent_key(&self.0.path, id).unwrap_or_default()
        } else {
            key::transient_key(self.0.instance, self.0.slot, id)
        };
        Bytes::from(k)
    }

    pub(crate) fn reference(&self, id: &[u8], type_id: &str) -> Result<Object, PoaError> {
        self.table()?
            .object(type_id, self.object_key(id))
            .ok_or_else(|| PoaError::System(system(SystemExceptionKind::ObjAdapter, 0)))
    }

    fn new_id(&self, st: &mut PoaState) -> Result<Bytes, PoaError> {
        if self.0.policies.retains() {
            let r = st.aom.alloc()?;
            return Ok(Bytes::from(key::system_id(self.id_instance(), r)));
        }
        st.next_id += 1;
        let n = st.next_id;
        let r = SlotRef {
            slot: (n >> 32) as u32,
            generation: n as u32,
        };
        Ok(Bytes::from(key::system_id(self.id_instance(), r)))
    }

    /// `create_reference` (needs `SYSTEM_ID`): a reference of type
    /// `intf` under a new id, without activating anything.
    pub fn create_reference(&self, intf: &str) -> Result<Object, PoaError> {
        self.check()?;
        if !self.0.policies.system_ids() {
            return Err(PoaError::WrongPolicy);
        }
        let id = self.new_id(&mut write(&self.0.state))?;
        self.reference(&id, intf)
    }

    /// `create_reference_with_id`: a reference of type `intf` under `id`
    /// (with `SYSTEM_ID`, one this POA assigned: `BAD_PARAM` otherwise).
    pub fn create_reference_with_id(&self, id: &[u8], intf: &str) -> Result<Object, PoaError> {
        self.check()?;
        if self.0.policies.system_ids()
            && key::parse_system_id(id, self.id_instance()).is_none()
            && !self.0.policies.persistent()
        {
            return Err(PoaError::System(system(
                SystemExceptionKind::BadParam,
                BAD_PARAM_FOREIGN_ID,
            )));
        }
        self.reference(id, intf)
    }

    /// `servant_to_id`: the id `servant` is active under (with `RETAIN`
    /// and `UNIQUE_ID`), or a new one it is implicitly activated under
    /// (with `IMPLICIT_ACTIVATION`).
    pub fn servant_to_id(&self, servant: &Arc<dyn Skeleton>) -> Result<ObjectId, PoaError> {
        self.check()?;
        let p = self.0.policies;
        let implicit = p.implicit_activation == ImplicitActivationPolicy::ImplicitActivation;
        let unique = p.id_uniqueness == IdUniquenessPolicy::UniqueId;
        let default = p.request_processing == RequestProcessingPolicy::UseDefaultServant;
        if !default && !(p.retains() && (unique || implicit)) {
            return Err(PoaError::WrongPolicy);
        }
        if p.retains() && (unique || !implicit) {
            let st = read(&self.0.state);
            if let Some((_, slot)) = st.aom.by_servant.get(&servant_addr(servant)) {
                if let Some(a) = &st.aom.slots[*slot as usize].active {
                    return Ok(a.id.clone());
                }
            }
        }
        if implicit {
            return self.activate_object(servant.clone());
        }
        Err(PoaError::ServantNotActive)
    }

    /// `servant_to_reference`: as [`Poa::servant_to_id`], as a reference.
    pub fn servant_to_reference(&self, servant: &Arc<dyn Skeleton>) -> Result<Object, PoaError> {
        let id = self.servant_to_id(servant)?;
        let type_id = servant.repository_ids().first().copied().unwrap_or("");
        self.reference(&id, type_id)
    }

    /// The object id in `key` if it is a key of this POA.
    fn id_in_key<'k>(&self, key: &'k [u8]) -> Option<&'k [u8]> {
        if self.0.policies.persistent() {
            let (path, id) = key::parse_persistent(key)?;
            (path == self.0.path.as_slice()).then_some(id)
        } else {
            let t = key::parse_transient(key)?;
            (t.instance == self.0.instance && t.poa == self.0.slot).then_some(t.id)
        }
    }

    /// `reference_to_id`: the id in a reference this POA made
    /// (`WrongAdapter` for another's).
    pub fn reference_to_id(&self, reference: &Object) -> Result<ObjectId, PoaError> {
        self.check()?;
        self.id_in_key(reference.target().object_key())
            .map(Bytes::copy_from_slice)
            .ok_or(PoaError::WrongAdapter)
    }

    /// `reference_to_servant` (needs `RETAIN` or `USE_DEFAULT_SERVANT`).
    pub fn reference_to_servant(&self, reference: &Object) -> Result<Arc<dyn Skeleton>, PoaError> {
        let id = self.reference_to_id(reference)?;
        self.id_to_servant(&id)
    }

    /// `id_to_servant` (needs `RETAIN` or `USE_DEFAULT_SERVANT`): the
    /// active servant of `id`, else the default servant.
    pub fn id_to_servant(&self, id: &[u8]) -> Result<Arc<dyn Skeleton>, PoaError> {
        self.check()?;
        let p = self.0.policies;
        let default = p.request_processing == RequestProcessingPolicy::UseDefaultServant;
        if !p.retains() && !default {
            return Err(PoaError::WrongPolicy);
        }
        let st = read(&self.0.state);
        if p.retains() {
            if let Some(a) = self.find_active(&st.aom, id) {
                return Ok(a.servant.clone());
            }
        }
        if default {
            return st.default_servant.clone().ok_or(PoaError::ObjectNotActive);
        }
        Err(PoaError::ObjectNotActive)
    }

    /// `id_to_reference` (needs `RETAIN`): a reference to the active
    /// object `id`, typed by its servant.
    pub fn id_to_reference(&self, id: &[u8]) -> Result<Object, PoaError> {
        self.check()?;
        if !self.0.policies.retains() {
            return Err(PoaError::WrongPolicy);
        }
        let servant = {
            let st = read(&self.0.state);
            self.find_active(&st.aom, id)
                .map(|a| a.servant.clone())
                .ok_or(PoaError::ObjectNotActive)?
        };
        let type_id = servant.repository_ids().first().copied().unwrap_or("");
        self.reference(id, type_id)
    }

    /// Where a `LocateRequest` for `id` finds its object: as a request
    /// would, through the POA manager (a holding manager queues it, a
    /// discarding one answers `TRANSIENT`) and the policies, so a servant
    /// activator incarnates the object (and may forward it) and a missing
    /// object is unknown. A servant locator is not asked: it is called
    /// around an operation, and a locate runs none (the object is
    /// reported here; the request itself may still be forwarded).
    pub(crate) fn locate(&self, id: &[u8]) -> Location {
        if self.is_destroyed() {
            return Location::Unknown;
        }
        let locator = self.0.policies.request_processing
            == RequestProcessingPolicy::UseServantManager
            && !self.0.policies.retains();
        if locator {
            // Through the manager as a request (holding waits, discarding
            // and inactive answer), then without the locator.
            let inner = &*self.0;
            if let Err(e) = inner
                .manager
                .admit(|| inner.destroyed.load(Ordering::Acquire))
            {
                return Location::System(e);
            }
            inner.manager.release();
            let st = read(&self.0.state);
            return match st.servant_manager {
                Some(_) => Location::Here,
                None => Location::System(system(
                    SystemExceptionKind::ObjAdapter,
                    OBJ_ADAPTER_NO_SERVANT_MANAGER,
                )),
            };
        }
        match self.serve(id, "_non_existent") {
            // The request ends here, without an upcall.
            Ok(Found::Servant(_)) => Location::Here,
            Ok(Found::Forward(to)) => Location::Forward(to),
            Err(e) if e.kind() == Some(SystemExceptionKind::ObjectNotExist) => Location::Unknown,
            Err(e) => Location::System(e),
        }
    }

    /// Finds the servant of a request for `id`: admits it through the
    /// manager, then asks the policies.
    pub(crate) fn serve(&self, id: &[u8], operation: &str) -> Result<Found, SystemException> {
        let inner = &*self.0;
        inner
            .manager
            .admit(|| inner.destroyed.load(Ordering::Acquire))?;
        inner.in_flight.start();
        enter_upcall(inner.manager.orb_flag());
        // From here on, dropping `end` (in an Upcall or on error) ends
        // the request.
        let guard = Admitted(self);
        if self.is_destroyed() {
            return Err(no_adapter());
        }
        match self.find_servant(id, operation)? {
            Resolved::Servant(skeleton, how) => {
                std::mem::forget(guard);
                // Ended with the request, when the Upcall is dropped.
                current::enter(self, id, &skeleton);
                Ok(Found::Servant(Upcall {
                    skeleton,
                    end: Some(End {
                        poa: self.clone(),
                        how,
                    }),
                }))
            }
            Resolved::Forward(to) => Ok(Found::Forward(to)),
        }
    }

    fn find_servant(&self, id: &[u8], operation: &str) -> Result<Resolved, SystemException> {
        let p = self.0.policies;
        let (default, manager) = {
            let st = read(&self.0.state);
            if p.retains() {
                if let Some(a) = self.find_active(&st.aom, id) {
                    a.in_flight.fetch_add(1, Ordering::SeqCst);
                    return Ok(Resolved::Servant(a.servant.clone(), How::Retained(a)));
                }
            }
            (st.default_servant.clone(), st.servant_manager.clone())
        };
        match p.request_processing {
            RequestProcessingPolicy::UseActiveObjectMapOnly => Err(not_active()),
            RequestProcessingPolicy::UseDefaultServant => match default {
                Some(s) => Ok(Resolved::Servant(s, How::Default)),
                None => Err(system(
                    SystemExceptionKind::ObjAdapter,
                    OBJ_ADAPTER_NO_DEFAULT_SERVANT,
                )),
            },
            RequestProcessingPolicy::UseServantManager => match manager {
                Some(ServantManager::Activator(a)) if p.retains() => self.incarnate(&a, id),
                Some(ServantManager::Locator(l)) if !p.retains() => {
                    match l.preinvoke(id, self, operation) {
                        Ok((servant, cookie)) => Ok(Resolved::Servant(
                            servant,
                            How::Located {
                                locator: l,
                                oid: Bytes::copy_from_slice(id),
                                operation: operation.to_owned(),
                                cookie,
                            },
                        )),
                        Err(e) => forwarded(e),
                    }
                }
                _ => Err(system(
                    SystemExceptionKind::ObjAdapter,
                    OBJ_ADAPTER_NO_SERVANT_MANAGER,
                )),
            },
        }
    }

    fn incarnate(
        &self,
        activator: &Arc<dyn ServantActivator>,
        id: &[u8],
    ) -> Result<Resolved, SystemException> {
        let _one = lock(&self.0.incarnating);
        {
            let st = read(&self.0.state);
            if let Some(a) = self.find_active(&st.aom, id) {
                a.in_flight.fetch_add(1, Ordering::SeqCst);
                return Ok(Resolved::Servant(a.servant.clone(), How::Retained(a)));
            }
        }
        if self.0.policies.system_ids() {
            // A system id is incarnated only in the slot it names (or,
            // for a persistent POA, when an earlier instance assigned
            // it): a stale id never gets a servant.
            let st = read(&self.0.state);
            let earlier = self.0.policies.persistent()
                && key::parse_system_id(id, self.id_instance()).is_none();
            if !earlier && self.slot_of(&st.aom, id).is_none() {
                return Err(not_active());
            }
        }
        let servant = match activator.incarnate(id, self) {
            Ok(s) => s,
            Err(e) => return forwarded(e),
        };
        let mut st = write(&self.0.state);
        if self.is_destroyed() {
            return Err(no_adapter());
        }
        if self.check_unique(&st.aom, &servant).is_err() {
            return Err(system(SystemExceptionKind::ObjAdapter, 0));
        }
        let active = self
            .insert_with_id(&mut st.aom, id, servant)
            .map_err(|_| not_active())?;
        active.in_flight.fetch_add(1, Ordering::SeqCst);
        Ok(Resolved::Servant(
            active.servant.clone(),
            How::Retained(active),
        ))
    }
}

/// Ends an admitted request that found no servant.
struct Admitted<'a>(&'a Poa);

impl Drop for Admitted<'_> {
    fn drop(&mut self) {
        self.0.0.manager.release();
        self.0.0.in_flight.end();
        leave_upcall();
    }
}

/// What the policies found for a request.
enum Resolved {
    Servant(Arc<dyn Skeleton>, How),
    Forward(rtorb_giop::ObjectReference),
}

/// A servant manager's refusal as the request's outcome.
fn forwarded(e: ServantManagerError) -> Result<Resolved, SystemException> {
    match e {
        ServantManagerError::System(s) => Err(s),
        ServantManagerError::Forward(f) => {
            Ok(Resolved::Forward(crate::runtime::object_reference(&f.0)))
        }
    }
}
