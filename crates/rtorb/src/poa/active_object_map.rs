//! The active object map of a POA: slots with generations (a system id
//! names its slot, so a request finds its object by two array indexes),
//! hash maps for user ids and for servants, and the POA's operations on
//! the map: inserting, finding, and etherealizing its objects.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use bytes::Bytes;
use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

use crate::servant::Skeleton;

use super::key::{self, SlotRef};
use super::{IdUniquenessPolicy, Poa, PoaError, ServantActivator, ServantManager, read, write};
use crate::minor::{BAD_PARAM_FOREIGN_ID, BAD_PARAM_STALE_ID};

/// The active object map: slots with generations, and hash maps for
/// what is not found by slot.
#[derive(Default)]
pub(super) struct Aom {
    pub(super) slots: Vec<ObjectSlot>,
    free: Vec<u32>,
    /// User ids, and system ids not found by their slot.
    pub(super) by_id: HashMap<Bytes, u32>,
    /// Servant (address) → how many ids it is active under, and one slot.
    pub(super) by_servant: HashMap<usize, (usize, u32)>,
}

#[derive(Default)]
pub(super) struct ObjectSlot {
    generation: u32,
    /// Assigned to an id that is not active (a reference made by
    /// `create_reference`, or an object a servant activator may
    /// incarnate again).
    pub(super) reserved: bool,
    pub(super) active: Option<Arc<Active>>,
}

/// An active object.
pub(crate) struct Active {
    pub(super) id: Bytes,
    pub(super) servant: Arc<dyn Skeleton>,
    pub(super) in_flight: AtomicUsize,
    pub(super) deactivated: AtomicBool,
    /// Whether it was deactivated because its POA or manager went.
    pub(super) cleanup: AtomicBool,
    pub(super) etherealized: AtomicBool,
}

pub(super) fn servant_addr(s: &Arc<dyn Skeleton>) -> usize {
    Arc::as_ptr(s) as *const () as usize
}

impl Aom {
    pub(super) fn alloc(&mut self) -> Result<SlotRef, PoaError> {
        let slot = match self.free.pop() {
            Some(s) => s,
            None => {
                let s = u32::try_from(self.slots.len()).map_err(|_| {
                    PoaError::System(SystemException::new(
                        SystemExceptionKind::NoResources,
                        0,
                        CompletionStatus::No,
                    ))
                })?;
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
    pub(super) fn free(&mut self, slot: u32) {
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

    pub(super) fn forget_servant(&mut self, servant: &Arc<dyn Skeleton>) -> bool {
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

impl Poa {
    pub(super) fn id_instance(&self) -> Option<u64> {
        self.0.policies.persistent().then_some(self.0.instance)
    }

    pub(super) fn check_unique(
        &self,
        aom: &Aom,
        servant: &Arc<dyn Skeleton>,
    ) -> Result<(), PoaError> {
        if self.0.policies.id_uniqueness == IdUniquenessPolicy::UniqueId
            && aom.by_servant.contains_key(&servant_addr(servant))
        {
            return Err(PoaError::ServantAlreadyActive);
        }
        Ok(())
    }

    pub(super) fn put(
        &self,
        aom: &mut Aom,
        slot: u32,
        id: Bytes,
        servant: Arc<dyn Skeleton>,
    ) -> Arc<Active> {
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
    pub(super) fn slot_of(&self, aom: &Aom, id: &[u8]) -> Option<(u32, bool)> {
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

    pub(super) fn find_active(&self, aom: &Aom, id: &[u8]) -> Option<Arc<Active>> {
        let (slot, _) = self.slot_of(aom, id)?;
        aom.slots[slot as usize].active.clone()
    }

    /// Puts `servant` into the map under `id` (known not active); with
    /// `SYSTEM_ID`, a valid id of this instance goes to its own slot.
    pub(super) fn insert_with_id(
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
                return Err(PoaError::System(SystemException::new(
                    SystemExceptionKind::BadParam,
                    BAD_PARAM_STALE_ID,
                    CompletionStatus::No,
                )));
            }
            if !self.0.policies.persistent() {
                return Err(PoaError::System(SystemException::new(
                    SystemExceptionKind::BadParam,
                    BAD_PARAM_FOREIGN_ID,
                    CompletionStatus::No,
                )));
            }
        }
        let r = aom.alloc()?;
        let id = Bytes::copy_from_slice(id);
        aom.by_id.insert(id.clone(), r.slot);
        Ok(self.put(aom, r.slot, id, servant))
    }

    /// The servant activator among the POA's servant managers, if one
    /// (`manager`, read under the POA's state lock) is.
    pub(super) fn uses_activator(
        &self,
        manager: Option<&ServantManager>,
    ) -> Option<Arc<dyn ServantActivator>> {
        match manager {
            Some(ServantManager::Activator(a)) => Some(a.clone()),
            _ => None,
        }
    }

    pub(super) fn etherealize_one(&self, active: &Arc<Active>, cleanup: bool, remaining: bool) {
        let activator = self.uses_activator(read(&self.0.state).servant_manager.as_ref());
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
            let activator = self.uses_activator(st.servant_manager.as_ref());
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
}
