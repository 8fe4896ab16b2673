//! The POA itself: the [`Poa`] handle and the operations of
//! `PortableServer::POA`: creating, finding and destroying POAs, servant
//! managers and default servants, activating and deactivating objects,
//! and converting between servants, object ids, keys and references.
//! What a request does in a POA is in [`super::request_path`], the map of
//! active objects in [`super::active_object_map`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use crate::sync::{Mutex, RwLock};

use bytes::Bytes;
use rtorb_cdr::ByteOrder;
use rtorb_giop::ior::TaggedComponent;
use rtorb_giop::{CompletionStatus, Operation, SystemException, SystemExceptionKind};

use crate::object::{Arguments, Invoker, Object, Reply, Target};
use crate::policy::SyncScope;
use crate::rt::ExposedPolicies;
use crate::servant::Skeleton;

use super::active_object_map::{Aom, servant_addr};
use super::adapter_table::AdapterTable;
use super::key::{self, SlotRef};
use super::poa_error::{destroyed, would_deadlock};
use super::running_requests::Running;
use super::{
    AdapterActivator, IdUniquenessPolicy, ImplicitActivationPolicy, PoaError, PoaManager, Policies,
    Policy, RequestProcessingPolicy, ServantManager, read, write,
};
use crate::minor::{
    BAD_INV_ORDER_SERVANT_MANAGER_SET, BAD_PARAM_FOREIGN_ID, OBJ_ADAPTER_NO_SERVANT_MANAGER,
};

/// An object id: the application's octets, or the POA's for a
/// system-assigned id.
pub type ObjectId = Bytes;

/// The repository id of a POA (a local object).
pub const POA_REPOSITORY_ID: &str = "IDL:omg.org/PortableServer/POA:2.3";

/// `PortableServer::POA`: a handle; clones share the POA.
#[derive(Clone)]
pub struct Poa(pub(crate) Arc<PoaInner>);

pub(crate) struct PoaInner {
    pub(super) name: String,
    pub(super) parent: Option<Weak<PoaInner>>,
    /// The ORB's table (which holds the POA: weak, so that the two do
    /// not keep each other alive).
    pub(super) table: Weak<AdapterTable>,
    /// The ORB instance number (the table's).
    pub(super) instance: u64,
    pub(super) slot: SlotRef,
    /// The encoded path (see [`key::encode_path`]).
    pub(super) path: Vec<u8>,
    pub(super) policies: Policies,
    /// The `TAG_POLICIES` component its references carry (Real-time
    /// CORBA's priority model), if it has one.
    pub(super) exposed: Option<TaggedComponent>,
    pub(super) manager: PoaManager,
    pub(super) state: RwLock<PoaState>,
    /// Serializes incarnations, so an id is incarnated once.
    pub(super) incarnating: Mutex<()>,
    /// Requests admitted and not yet finished.
    pub(super) in_flight: Running,
    pub(super) destroyed: AtomicBool,
}

#[derive(Default)]
pub(super) struct PoaState {
    pub(super) aom: Aom,
    pub(super) children: HashMap<String, Poa>,
    pub(super) default_servant: Option<Arc<dyn Skeleton>>,
    pub(super) servant_manager: Option<ServantManager>,
    pub(super) activator: Option<Arc<dyn AdapterActivator>>,
    /// Source of system ids of a `NON_RETAIN` POA.
    pub(super) next_id: u64,
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
        Err(SystemException::new(
            SystemExceptionKind::NoImplement,
            0,
            CompletionStatus::No,
        ))
    }

    fn invoke_oneway(
        &self,
        _target: &Target,
        _operation: Operation,
        _sync: SyncScope,
        _arguments: Arguments<'_>,
    ) -> Result<(), SystemException> {
        Err(SystemException::new(
            SystemExceptionKind::NoImplement,
            0,
            CompletionStatus::No,
        ))
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
        let exposed = ExposedPolicies {
            priority_model: policies.priority_model,
            priority_bands: None,
        }
        .to_component(ByteOrder::NATIVE);
        let poa = Poa(Arc::new(PoaInner {
            name,
            parent: parent.map(|p| Arc::downgrade(&p.0)),
            instance: table.instance,
            table: Arc::downgrade(&table),
            slot,
            path,
            policies,
            exposed,
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
            return Err(PoaError::System(SystemException::new(
                SystemExceptionKind::BadParam,
                0,
                CompletionStatus::No,
            )));
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
            return Err(PoaError::System(SystemException::new(
                SystemExceptionKind::ObjAdapter,
                OBJ_ADAPTER_NO_SERVANT_MANAGER,
                CompletionStatus::No,
            )));
        }
        let mut st = write(&self.0.state);
        if st.servant_manager.is_some() {
            return Err(PoaError::System(SystemException::new(
                SystemExceptionKind::BadInvOrder,
                BAD_INV_ORDER_SERVANT_MANAGER_SET,
                CompletionStatus::No,
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

    /// `activate_object_with_id` (needs `RETAIN`). With `SYSTEM_ID`, `id`
    /// must be one this POA assigned (`BAD_PARAM`, [`BAD_PARAM_FOREIGN_ID`](crate::minor::BAD_PARAM_FOREIGN_ID),
    /// otherwise); a deactivated one can be activated again unless its
    /// slot went to another object meanwhile (`BAD_PARAM`,
    /// [`BAD_PARAM_STALE_ID`](crate::minor::BAD_PARAM_STALE_ID): the slot and its
    /// generation count are what keeps a stale reference from reaching
    /// the other object).
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
            let activator = self.uses_activator(st.servant_manager.as_ref());
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
        let table = self.table()?;
        if let Some(pool) = self.0.policies.threadpool {
            // Through the endpoints of the lanes that serve it.
            let key = self.object_key(id);
            let model = self.0.policies.priority_model;
            let no_lane = || {
                PoaError::System(SystemException::new(
                    SystemExceptionKind::BadParam,
                    crate::minor::BAD_PARAM_NO_SUCH_LANE,
                    CompletionStatus::No,
                ))
            };
            let reference = table
                .lane_reference(pool, model, type_id, &key, self.0.exposed.as_ref())
                .ok_or_else(no_lane)?;
            let invoker = table.references().ok_or_else(no_lane)?.invoker();
            let target = Target::from_reference(reference).map_err(PoaError::System)?;
            return Ok(Object::new(invoker, target));
        }
        table
            .object_with(type_id, self.object_key(id), self.0.exposed.as_ref())
            .ok_or_else(|| {
                PoaError::System(SystemException::new(
                    SystemExceptionKind::ObjAdapter,
                    0,
                    CompletionStatus::No,
                ))
            })
    }

    /// The `corbaloc:` URL of the object `id` of this POA, active or not
    /// ([`Object::corbaloc`]: the ORB's IIOP and UIOP endpoints and the
    /// object key, `%`-escaped where binary). `None` where the ORB listens
    /// on no such endpoint.
    pub fn corbaloc(&self, id: &[u8]) -> Result<Option<String>, PoaError> {
        self.check()?;
        Ok(self.reference(id, "")?.corbaloc())
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

    /// A new system id: a slot of the active object map when the POA
    /// retains its objects, else the next number.
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

    /// `create_reference_with_id`: a reference of type `intf` under `id`
    /// (with `SYSTEM_ID`, one this POA assigned: `BAD_PARAM` otherwise).
    pub fn create_reference_with_id(&self, id: &[u8], intf: &str) -> Result<Object, PoaError> {
        self.check()?;
        if self.0.policies.system_ids()
            && key::parse_system_id(id, self.id_instance()).is_none()
            && !self.0.policies.persistent()
        {
            return Err(PoaError::System(SystemException::new(
                SystemExceptionKind::BadParam,
                BAD_PARAM_FOREIGN_ID,
                CompletionStatus::No,
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
}
