//! The ORB's table of object adapters: the plain keys, the POA slots of
//! direct demultiplexing, and the persistent POAs by path.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock, Weak};

use crate::sync::RwLock;

use bytes::Bytes;
use rtorb_giop::ior::TaggedComponent;
use rtorb_giop::{CompletionStatus, ObjectReference, SystemException, SystemExceptionKind};

use crate::exception::object_not_exist;
use crate::object::{Invoker, NoInvoker, Object, Target};
use crate::rt::{LaneId, PriorityModelPolicy, ThreadpoolId};
use crate::servant::Skeleton;
use crate::transport::{Endpoint, ProtocolRegistry};

use super::key::{self, SlotRef};
use super::poa_error::no_adapter;
use super::{Found, Poa, PoaError, PoaManager, Policies, Upcall, read, write};

/// Makes references to objects of this ORB.
pub(crate) struct References {
    pub(crate) registry: ProtocolRegistry,
    /// The ORB's own endpoints, as published: set once it listens (when
    /// it is built, or when it first serves objects if it was given no
    /// endpoint); references made before have no profile of them.
    pub(crate) endpoints: OnceLock<Vec<Box<dyn Endpoint>>>,
    /// The ORB's invoker (which holds the table: weak).
    pub(crate) invoker: Weak<dyn Invoker>,
    /// The code sets the profiles advertise.
    pub(crate) code_sets: crate::codesets::CodeSetConfig,
}

impl References {
    /// A reference to `object_key`: one profile per endpoint.
    pub(crate) fn reference(&self, type_id: &str, object_key: &Bytes) -> ObjectReference {
        self.reference_with(type_id, object_key, None)
    }

    /// A reference to `object_key` whose profiles carry `extra` (the
    /// Real-time CORBA policies of its POA) besides the code sets.
    pub(crate) fn reference_with(
        &self,
        type_id: &str,
        object_key: &Bytes,
        extra: Option<&TaggedComponent>,
    ) -> ObjectReference {
        let endpoints = self.endpoints.get().map_or(&[][..], Vec::as_slice);
        self.reference_on(endpoints, type_id, object_key, extra)
    }

    /// A reference to `object_key` through `endpoints` (a lane's), whose
    /// profiles carry `extra` besides the code sets.
    pub(crate) fn reference_on(
        &self,
        endpoints: &[Box<dyn Endpoint>],
        type_id: &str,
        object_key: &Bytes,
        extra: Option<&TaggedComponent>,
    ) -> ObjectReference {
        let profiles = endpoints
            .iter()
            .filter_map(|e| {
                let mut components =
                    crate::codesets::profile_components(e.version(), &self.code_sets);
                if e.version() >= rtorb_cdr::Version::V1_1 {
                    components.extend(extra.cloned());
                }
                self.registry
                    .make_profile(&**e, object_key.clone(), &components)
                    .ok()
            })
            .collect();
        ObjectReference::new(type_id, profiles)
    }

    /// An object for `key` through the ORB's invoker.
    pub(crate) fn object(&self, type_id: &str, key: Bytes) -> Object {
        self.object_with(type_id, key, None)
    }

    /// An object for `key` whose profiles carry `extra`.
    pub(crate) fn object_with(
        &self,
        type_id: &str,
        key: Bytes,
        extra: Option<&TaggedComponent>,
    ) -> Object {
        let reference = self.reference_with(type_id, &key, extra);
        let target =
            Target::from_reference(reference).unwrap_or_else(|_| Target::from_key(type_id, key));
        Object::new(self.invoker(), target)
    }

    /// The ORB's invoker, or one that fails every call once the ORB is
    /// gone.
    pub(crate) fn invoker(&self) -> Arc<dyn Invoker> {
        match self.invoker.upgrade() {
            Some(i) => i,
            None => Arc::new(NoInvoker),
        }
    }
}

/// What a plain object key is registered for.
#[derive(Clone)]
pub(crate) enum Entry {
    /// A servant, through its skeleton.
    Servant(Arc<dyn Skeleton>),
    /// Requests are answered with `LOCATION_FORWARD` to this reference.
    Forward(ObjectReference),
    /// A servant served by the lanes of a thread pool.
    Pooled(Arc<dyn PooledServant>),
}

/// The ORB's thread pools, as the object adapters see them: where the
/// objects of a POA bound to a pool (by its `ThreadpoolPolicy`) are
/// served. The ORB's server implements it (`orb::server::threadpool`);
/// the adapters hold one, and know nothing of lanes beyond it.
pub(crate) trait Threadpools: Send + Sync {
    /// A reference to `key`, an object served by `pool` under `model`,
    /// made by `references` through the endpoints of the lanes that serve
    /// it, its profiles carrying `extra`; `None` if no lane serves it.
    fn reference(
        &self,
        references: &References,
        pool: ThreadpoolId,
        model: Option<PriorityModelPolicy>,
        type_id: &str,
        key: &Bytes,
        extra: Option<&TaggedComponent>,
    ) -> Option<ObjectReference>;
}

/// A servant that a thread pool serves under a plain key
/// (`Orb::activate_with_key_at`): the adapters give its skeleton and
/// priority model to its requests, and the server asks it where a request
/// belongs (`orb::server::threadpool` implements it).
pub(crate) trait PooledServant: Send + Sync {
    /// The servant.
    fn skeleton(&self) -> &Arc<dyn Skeleton>;
    /// Its Real-time CORBA priority model.
    fn priority_model(&self) -> PriorityModelPolicy;
    /// Where a request for it that arrived on a connection of `lane`
    /// (`None`: the ORB's own endpoints) is forwarded, if it is not
    /// served there.
    fn forward_from(&self, lane: Option<LaneId>) -> Option<&ObjectReference>;
}

#[derive(Default)]
struct PoaSlots {
    slots: Vec<PoaSlot>,
    free: Vec<u32>,
}

#[derive(Default)]
struct PoaSlot {
    generation: u32,
    poa: Option<Poa>,
}

/// Whether a key reaches something (a `LocateRequest`'s answer).
pub(crate) enum Location {
    /// A servant is (or will be) found for it.
    Here,
    /// It is forwarded there.
    Forward(ObjectReference),
    /// Nothing.
    Unknown,
    /// A request would fail with this exception (the POA manager
    /// discards requests, a servant manager refused the object, ...).
    System(SystemException),
}

/// The servant of the plain key a connection looked up last, with the
/// [`AdapterTable`]'s plain-key generation it was found in (see
/// [`AdapterTable::lookup_cached`]).
#[derive(Default)]
pub(crate) struct PlainKeyCache {
    generation: u64,
    key: Vec<u8>,
    servant: Option<Arc<dyn crate::servant::Skeleton>>,
    binding: Option<Arc<dyn PooledServant>>,
}

impl std::fmt::Debug for PlainKeyCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlainKeyCache")
            .field("generation", &self.generation)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

/// The object adapters of one ORB.
pub(crate) struct AdapterTable {
    /// The ORB instance number in transient keys and persistent system
    /// ids.
    pub(crate) instance: u64,
    /// Looked up on every request to a plain key: hashed with foldhash
    /// rather than SipHash (keys are the application's; a request only
    /// looks one up).
    plain: RwLock<HashMap<Bytes, Entry, foldhash::fast::RandomState>>,
    /// How many plain keys look like POA keys (then POA keys are looked
    /// up in the plain table first).
    plain_like_poa: AtomicUsize,
    /// Changed (under the `plain` write lock) by every change of the
    /// plain keys: a [`PlainKeyCache`] is good while it is unchanged.
    plain_generation: AtomicU64,
    poas: RwLock<PoaSlots>,
    persistent: RwLock<HashMap<Vec<u8>, Poa>>,
    root: OnceLock<Poa>,
    references: OnceLock<References>,
    /// The ORB's thread pools: where references to the objects of POAs
    /// bound to a pool point.
    threadpools: OnceLock<Arc<dyn Threadpools>>,
    hold_limit: usize,
    stopping: Arc<AtomicBool>,
    next_manager: AtomicU64,
}

/// Draws an ORB instance number: the time, the process and a counter,
/// mixed.
pub(crate) fn instance_number() -> u64 {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let mut x = nanos
        ^ (u64::from(std::process::id()) << 40)
        ^ COUNT
            .fetch_add(1, Ordering::Relaxed)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    // splitmix64 finaliser.
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl AdapterTable {
    /// A table with a Root POA (its manager holding).
    pub(crate) fn new(hold_limit: usize) -> Arc<AdapterTable> {
        let table = Arc::new(AdapterTable {
            instance: instance_number(),
            plain: RwLock::new(HashMap::default()),
            plain_like_poa: AtomicUsize::new(0),
            plain_generation: AtomicU64::new(1),
            poas: RwLock::new(PoaSlots::default()),
            persistent: RwLock::new(HashMap::new()),
            root: OnceLock::new(),
            references: OnceLock::new(),
            threadpools: OnceLock::new(),
            hold_limit,
            stopping: Arc::new(AtomicBool::new(false)),
            next_manager: AtomicU64::new(0),
        });
        let manager = table.new_manager("RootPOAManager");
        if let Ok(root) = table.register("RootPOA".into(), None, Policies::root(), manager) {
            let _ = table.root.set(root);
        }
        table
    }

    pub(crate) fn set_references(&self, references: References) {
        let _ = self.references.set(references);
    }

    pub(crate) fn references(&self) -> Option<&References> {
        self.references.get()
    }

    /// The thread pool of the POA of `key` (a POA key), with the POA's
    /// priority model and the component its references carry, if it is
    /// bound to one.
    pub(crate) fn poa_threadpool_of(
        &self,
        key: &[u8],
    ) -> Option<(
        ThreadpoolId,
        Option<PriorityModelPolicy>,
        Option<TaggedComponent>,
    )> {
        if !key::is_poa_key(key) {
            return None;
        }
        let (poa, _) = self.poa_of(key).ok()?;
        let pool = poa.0.policies.threadpool?;
        Some((pool, poa.0.policies.priority_model, poa.0.exposed.clone()))
    }

    /// Makes references to the objects of POAs bound to a thread pool
    /// through `threadpools`.
    pub(crate) fn set_threadpools(&self, threadpools: Arc<dyn Threadpools>) {
        let _ = self.threadpools.set(threadpools);
    }

    /// A reference to `key`, an object of a POA bound to `pool` under
    /// `model`, through the endpoints of its lanes, its profiles carrying
    /// `extra`; `None` if no lane serves it.
    pub(crate) fn lane_reference(
        &self,
        pool: ThreadpoolId,
        model: Option<PriorityModelPolicy>,
        type_id: &str,
        key: &Bytes,
        extra: Option<&TaggedComponent>,
    ) -> Option<ObjectReference> {
        self.threadpools
            .get()?
            .reference(self.references.get()?, pool, model, type_id, key, extra)
    }

    /// The Root POA.
    pub(crate) fn root(&self) -> Option<&Poa> {
        self.root.get()
    }

    pub(crate) fn object(&self, type_id: &str, key: Bytes) -> Option<Object> {
        Some(self.references.get()?.object(type_id, key))
    }

    pub(crate) fn object_with(
        &self,
        type_id: &str,
        key: Bytes,
        extra: Option<&TaggedComponent>,
    ) -> Option<Object> {
        Some(self.references.get()?.object_with(type_id, key, extra))
    }

    pub(crate) fn new_manager(&self, name: &str) -> PoaManager {
        let n = self.next_manager.fetch_add(1, Ordering::Relaxed);
        PoaManager::new(
            format!("{name}#{n}"),
            self.hold_limit,
            self.stopping.clone(),
        )
    }

    /// Makes a POA and gives it a slot.
    pub(crate) fn register(
        self: &Arc<Self>,
        name: String,
        parent: Option<&Poa>,
        policies: Policies,
        manager: PoaManager,
    ) -> Result<Poa, PoaError> {
        let mut slots = write(&self.poas);
        let slot = match slots.free.pop() {
            Some(s) => s,
            None => {
                let s = u32::try_from(slots.slots.len()).map_err(|_| {
                    PoaError::System(SystemException::new(
                        rtorb_giop::SystemExceptionKind::NoResources,
                        0,
                        CompletionStatus::No,
                    ))
                })?;
                slots.slots.push(PoaSlot::default());
                s
            }
        };
        let r = SlotRef {
            slot,
            generation: slots.slots[slot as usize].generation,
        };
        let poa = Poa::new(name, parent, self.clone(), r, policies, manager);
        slots.slots[slot as usize].poa = Some(poa.clone());
        drop(slots);
        if policies.persistent() {
            write(&self.persistent).insert(poa.0.path.clone(), poa.clone());
        }
        Ok(poa)
    }

    /// Takes a destroyed POA out: its slot's generation moves on.
    pub(crate) fn unregister(&self, poa: &Poa) {
        {
            let mut slots = write(&self.poas);
            let i = poa.0.slot.slot as usize;
            if let Some(s) = slots.slots.get_mut(i) {
                if s.generation == poa.0.slot.generation && s.poa.is_some() {
                    s.poa = None;
                    if s.generation != u32::MAX {
                        s.generation += 1;
                        slots.free.push(poa.0.slot.slot);
                    }
                }
            }
        }
        if poa.0.policies.persistent() {
            let mut p = write(&self.persistent);
            if p.get(&poa.0.path).is_some_and(|q| q == poa) {
                p.remove(&poa.0.path);
            }
        }
    }

    /// Serves `key` as a plain key (replacing what was there).
    pub(crate) fn insert(&self, key: Bytes, entry: Entry) {
        let like = key::is_poa_key(&key);
        let old = {
            let mut plain = write(&self.plain);
            let old = plain.insert(key, entry);
            self.plain_generation.fetch_add(1, Ordering::Release);
            old
        };
        if like && old.is_none() {
            self.plain_like_poa.fetch_add(1, Ordering::AcqRel);
        }
    }

    /// Stops serving the plain key `key`.
    pub(crate) fn remove(&self, key: &[u8]) -> bool {
        let removed = {
            let mut plain = write(&self.plain);
            let removed = plain.remove(key).is_some();
            self.plain_generation.fetch_add(1, Ordering::Release);
            removed
        };
        if removed && key::is_poa_key(key) {
            self.plain_like_poa.fetch_sub(1, Ordering::AcqRel);
        }
        removed
    }

    /// Stops serving `key`: a plain key, or an object of a POA.
    pub(crate) fn deactivate(&self, key: &[u8]) -> bool {
        if self.remove(key) {
            return true;
        }
        match self.poa_of(key) {
            Ok((poa, id)) => poa.deactivate_object(id).is_ok(),
            Err(_) => false,
        }
    }

    fn plain(&self, key: &[u8]) -> Option<Entry> {
        read(&self.plain).get(key).cloned()
    }

    /// The POA of a POA key, and the object id in it. A persistent POA
    /// that does not exist is asked of the adapter activators on its
    /// path.
    fn poa_of<'k>(&self, key: &'k [u8]) -> Result<(Poa, &'k [u8]), SystemException> {
        if let Some(t) = key::parse_transient(key) {
            if t.instance != self.instance {
                return Err(no_adapter());
            }
            let slots = read(&self.poas);
            let found = slots
                .slots
                .get(t.poa.slot as usize)
                .filter(|s| s.generation == t.poa.generation)
                .and_then(|s| s.poa.clone())
                // A persistent POA is reached by its path only.
                .filter(|p| !p.0.policies.persistent());
            return found.map(|p| (p, t.id)).ok_or_else(no_adapter);
        }
        let Some((path, id)) = key::parse_persistent(key) else {
            return Err(object_not_exist());
        };
        if let Some(p) = read(&self.persistent).get(path).cloned() {
            return Ok((p, id));
        }
        // Not there: let the adapter activators make it.
        let names = key::decode_path(path).ok_or_else(no_adapter)?;
        let mut poa = self.root.get().cloned().ok_or_else(no_adapter)?;
        for n in names {
            poa = poa.find_poa(n, true).map_err(|_| no_adapter())?;
        }
        if poa.0.policies.persistent() && poa.0.path == path {
            Ok((poa, id))
        } else {
            Err(no_adapter())
        }
    }

    /// Finds what serves a request for `operation` on `key`.
    pub(crate) fn lookup(&self, key: &[u8], operation: &str) -> Result<Found, SystemException> {
        let poa_key = key::is_poa_key(key);
        if !poa_key || self.plain_like_poa.load(Ordering::Acquire) > 0 {
            match self.plain(key) {
                Some(Entry::Servant(s)) => return Ok(Found::Servant(Upcall::plain(s))),
                Some(Entry::Forward(r)) => return Ok(Found::Forward(r)),
                Some(Entry::Pooled(b)) => return Ok(Found::Servant(Upcall::bound(b))),
                None if !poa_key => return Err(object_not_exist()),
                None => {}
            }
        }
        let (poa, id) = self.poa_of(key)?;
        poa.serve(id, operation)
    }

    /// As [`AdapterTable::lookup`], remembering in `cache` the servant
    /// of a plain key: while the plain keys do not change, a request to
    /// the key looked up last takes no lock and hashes nothing (a
    /// connection keeps a cache; its client usually calls one object).
    pub(crate) fn lookup_cached(
        &self,
        key: &[u8],
        operation: &[u8],
        cache: &mut PlainKeyCache,
    ) -> Result<Found, SystemException> {
        let generation = self.plain_generation.load(Ordering::Acquire);
        if let Some(servant) = cache.servant.as_ref()
            && cache.generation == generation
            && cache.key == key
        {
            return Ok(Found::Servant(match cache.binding.as_ref() {
                None => Upcall::plain(Arc::clone(servant)),
                Some(b) => Upcall::bound(Arc::clone(b)),
            }));
        }
        // UTF-8, as every operation name the server reads.
        let found = self.lookup(key, std::str::from_utf8(operation).unwrap_or_default())?;
        cache.servant = None;
        if let Found::Servant(upcall) = &found
            && upcall.is_plain()
        {
            cache.generation = generation;
            cache.key.clear();
            cache.key.extend_from_slice(key);
            cache.servant = Some(Arc::clone(upcall.skeleton()));
            cache.binding = upcall.binding().cloned();
        }
        Ok(found)
    }

    /// Where a `LocateRequest` for `key` finds its object (see
    /// [`crate::poa::Poa::locate`]).
    pub(crate) fn locate(&self, key: &[u8]) -> Location {
        match self.plain(key) {
            Some(Entry::Servant(_) | Entry::Pooled(_)) => return Location::Here,
            Some(Entry::Forward(r)) => return Location::Forward(r),
            None => {}
        }
        if !key::is_poa_key(key) {
            return Location::Unknown;
        }
        match self.poa_of(key) {
            Ok((poa, id)) => poa.locate(id),
            Err(e) if e.kind() == Some(SystemExceptionKind::ObjectNotExist) => Location::Unknown,
            Err(e) => Location::System(e),
        }
    }

    /// The servant a thread pool serves under the plain key `key`, if
    /// it is one.
    pub(crate) fn pooled_servant(&self, key: &[u8]) -> Option<Arc<dyn PooledServant>> {
        match read(&self.plain).get(key)? {
            Entry::Pooled(b) => Some(Arc::clone(b)),
            _ => None,
        }
    }

    /// Whether `key` names something here (a plain key, or a POA key of
    /// this ORB instance).
    pub(crate) fn serves(&self, key: &[u8]) -> bool {
        if key::is_poa_key(key) {
            return match key::parse_transient(key) {
                Some(t) => t.instance == self.instance,
                None => true,
            };
        }
        read(&self.plain).contains_key(key)
    }

    /// The ORB shuts down: held requests are let go, and the Root POA
    /// (with every POA) is destroyed, etherealizing objects.
    pub(crate) fn shutdown(&self) {
        self.stopping.store(true, Ordering::Release);
        if let Some(root) = self.root.get() {
            let _ = root.destroy(true, false);
        }
    }
}
