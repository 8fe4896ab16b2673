//! POA managers: the processing state shared by a group of POAs.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Weak};

use crate::sync::{Condvar, Mutex};
use std::time::Duration;

use rtorb_giop::{CompletionStatus, SystemException, SystemExceptionKind};

use super::adapter::PoaInner;
use super::poa_error::{PoaError, would_deadlock};
use super::running_requests::Running;
use crate::minor::{OBJ_ADAPTER_INACTIVE, TRANSIENT_DISCARDED, TRANSIENT_SHUTTING_DOWN};

/// `PortableServer::POAManager::State`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum State {
    /// `HOLDING`: requests wait (up to the hold queue limit).
    Holding,
    /// `ACTIVE`: requests are processed.
    Active,
    /// `DISCARDING`: requests get `TRANSIENT`.
    Discarding,
    /// `INACTIVE`: requests get `OBJ_ADAPTER`; the manager cannot leave
    /// this state.
    Inactive,
}

impl State {
    fn from_u8(v: u8) -> State {
        match v {
            1 => State::Active,
            2 => State::Discarding,
            3 => State::Inactive,
            _ => State::Holding,
        }
    }

    fn to_u8(self) -> u8 {
        match self {
            State::Holding => 0,
            State::Active => 1,
            State::Discarding => 2,
            State::Inactive => 3,
        }
    }
}

/// How often a held request looks whether the ORB is shutting down.
const HOLD_POLL: Duration = Duration::from_millis(50);

thread_local! {
    /// The ORBs whose POA requests the thread is running, innermost last
    /// (nested collocated calls push each), each named by the address of
    /// its shutdown flag. The vector keeps its capacity: no allocation per
    /// request.
    static UPCALLS: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// The name of the ORB whose shutdown flag is `orb` in [`UPCALLS`].
fn orb_name(orb: &Arc<AtomicBool>) -> usize {
    Arc::as_ptr(orb) as usize
}

/// Whether the current thread is running a request dispatched by a POA
/// of the ORB whose shutdown flag is `orb` (waiting for completion there
/// would wait for itself; the spec's `BAD_INV_ORDER` case).
pub(crate) fn in_upcall_of(orb: &Arc<AtomicBool>) -> bool {
    let name = orb_name(orb);
    UPCALLS.with(|u| u.borrow().contains(&name))
}

pub(crate) fn enter_upcall(orb: &Arc<AtomicBool>) {
    UPCALLS.with(|u| u.borrow_mut().push(orb_name(orb)));
}

pub(crate) fn leave_upcall() {
    UPCALLS.with(|u| {
        u.borrow_mut().pop();
    });
}

/// `PortableServer::POAManager`: a handle; clones share the manager.
#[derive(Clone)]
pub struct PoaManager(pub(crate) Arc<ManagerInner>);

pub(crate) struct ManagerInner {
    id: String,
    state: AtomicU8,
    /// Whether the state was ever changed (see [`crate::orb::Orb::activate`]).
    changed: AtomicBool,
    /// Requests admitted and not yet finished.
    active: Running,
    /// The number of held requests.
    held: Mutex<usize>,
    released: Condvar,
    hold_limit: usize,
    stopping: Arc<AtomicBool>,
    poas: Mutex<Vec<Weak<PoaInner>>>,
}

impl std::fmt::Debug for PoaManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PoaManager")
            .field("id", &self.0.id)
            .field("state", &self.get_state())
            .finish_non_exhaustive()
    }
}

impl PartialEq for PoaManager {
    fn eq(&self, other: &PoaManager) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl PoaManager {
    pub(crate) fn new(id: String, hold_limit: usize, stopping: Arc<AtomicBool>) -> PoaManager {
        PoaManager(Arc::new(ManagerInner {
            id,
            state: AtomicU8::new(State::Holding.to_u8()),
            changed: AtomicBool::new(false),
            active: Running::default(),
            held: Mutex::new(0),
            released: Condvar::new(),
            hold_limit,
            stopping,
            poas: Mutex::new(Vec::new()),
        }))
    }

    /// `get_id`: the manager's name.
    pub fn get_id(&self) -> &str {
        &self.0.id
    }

    /// `get_state`.
    pub fn get_state(&self) -> State {
        State::from_u8(self.0.state.load(Ordering::Acquire))
    }

    /// `activate`: requests are processed, held ones included.
    pub fn activate(&self) -> Result<(), PoaError> {
        self.set_state(State::Active)
    }

    /// `hold_requests`: requests wait until the manager leaves the
    /// holding state; with `wait_for_completion`, returns once the
    /// requests already running have ended.
    /// Waiting from inside a request is `BAD_INV_ORDER`, and the state
    /// does not change.
    pub fn hold_requests(&self, wait_for_completion: bool) -> Result<(), PoaError> {
        self.refuse_wait_in_upcall(wait_for_completion)?;
        self.set_state(State::Holding)?;
        self.wait(wait_for_completion)
    }

    /// `discard_requests`: requests (held ones included) get `TRANSIENT`.
    pub fn discard_requests(&self, wait_for_completion: bool) -> Result<(), PoaError> {
        self.refuse_wait_in_upcall(wait_for_completion)?;
        self.set_state(State::Discarding)?;
        self.wait(wait_for_completion)
    }

    /// `deactivate`: requests (held ones included) get `OBJ_ADAPTER`, for
    /// good; with `etherealize_objects`, the servant activators of the
    /// manager's POAs etherealize their active objects.
    pub fn deactivate(
        &self,
        etherealize_objects: bool,
        wait_for_completion: bool,
    ) -> Result<(), PoaError> {
        self.refuse_wait_in_upcall(wait_for_completion)?;
        self.set_state(State::Inactive)?;
        self.wait(wait_for_completion)?;
        if etherealize_objects {
            let poas: Vec<Arc<PoaInner>> = lock(&self.0.poas)
                .iter()
                .filter_map(Weak::upgrade)
                .collect();
            for p in poas {
                super::Poa(p).etherealize_all(true);
            }
        }
        Ok(())
    }

    /// How many requests the manager lets wait in the holding state;
    /// more get `TRANSIENT`.
    pub fn hold_limit(&self) -> usize {
        self.0.hold_limit
    }

    /// Requests admitted by this manager and not yet finished (being
    /// served now).
    pub fn running_requests(&self) -> usize {
        self.0.active.count()
    }

    /// How many requests wait in the holding state now.
    pub fn held_requests(&self) -> usize {
        *lock(&self.0.held)
    }

    fn set_state(&self, state: State) -> Result<(), PoaError> {
        let _guard = lock(&self.0.held);
        if self.get_state() == State::Inactive {
            return Err(PoaError::AdapterInactive);
        }
        self.0.state.store(state.to_u8(), Ordering::Release);
        self.0.changed.store(true, Ordering::Release);
        self.0.released.notify_all();
        Ok(())
    }

    /// Activates the manager if its state was never changed; whether it
    /// is active afterwards.
    pub(crate) fn activate_if_untouched(&self) -> bool {
        if !self.0.changed.load(Ordering::Acquire) {
            let _ = self.activate();
        }
        self.get_state() == State::Active
    }

    /// `BAD_INV_ORDER` for waiting for completion inside a request of
    /// this manager's ORB.
    fn refuse_wait_in_upcall(&self, wait_for_completion: bool) -> Result<(), PoaError> {
        if wait_for_completion && in_upcall_of(&self.0.stopping) {
            return Err(PoaError::System(would_deadlock()));
        }
        Ok(())
    }

    /// The ORB's shutdown flag, which also names the ORB.
    pub(crate) fn orb_flag(&self) -> &Arc<AtomicBool> {
        &self.0.stopping
    }

    /// Whether the calling thread runs a request of this manager's ORB.
    pub(crate) fn in_upcall_here(&self) -> bool {
        in_upcall_of(&self.0.stopping)
    }

    fn wait(&self, wait_for_completion: bool) -> Result<(), PoaError> {
        if !wait_for_completion {
            return Ok(());
        }
        if in_upcall_of(&self.0.stopping) {
            return Err(PoaError::System(would_deadlock()));
        }
        self.0.active.wait_none();
        Ok(())
    }

    pub(crate) fn add_poa(&self, poa: Weak<PoaInner>) {
        let mut v = lock(&self.0.poas);
        v.retain(|w| w.strong_count() > 0);
        v.push(poa);
    }

    /// Wakes held requests (the ORB is shutting down, or a POA went).
    pub(crate) fn wake(&self) {
        let _guard = lock(&self.0.held);
        self.0.released.notify_all();
    }

    /// Lets a request in: at once when active, after waiting when
    /// holding; `TRANSIENT` when discarding (or the hold queue is full,
    /// or the ORB shuts down), `OBJ_ADAPTER` when inactive. `gone` says
    /// whether the POA went while the request was held. An admitted
    /// request must be [`PoaManager::release`]d.
    pub(crate) fn admit(&self, gone: impl Fn() -> bool) -> Result<(), SystemException> {
        let inner = &*self.0;
        loop {
            match State::from_u8(inner.state.load(Ordering::Acquire)) {
                State::Active => {
                    inner.active.start();
                    if inner.state.load(Ordering::Acquire) == State::Active.to_u8() {
                        return Ok(());
                    }
                    // The state changed meanwhile: decide again.
                    inner.active.end();
                }
                State::Discarding => {
                    return Err(SystemException::new(
                        SystemExceptionKind::Transient,
                        TRANSIENT_DISCARDED,
                        CompletionStatus::No,
                    ));
                }
                State::Inactive => {
                    return Err(SystemException::new(
                        SystemExceptionKind::ObjAdapter,
                        OBJ_ADAPTER_INACTIVE,
                        CompletionStatus::No,
                    ));
                }
                State::Holding => {
                    let mut held = lock(&inner.held);
                    if *held >= inner.hold_limit {
                        return Err(SystemException::new(
                            SystemExceptionKind::Transient,
                            TRANSIENT_DISCARDED,
                            CompletionStatus::No,
                        ));
                    }
                    *held += 1;
                    let mut outcome = Ok(());
                    while inner.state.load(Ordering::Acquire) == State::Holding.to_u8() {
                        if inner.stopping.load(Ordering::Acquire) {
                            outcome = Err(SystemException::new(
                                SystemExceptionKind::Transient,
                                TRANSIENT_SHUTTING_DOWN,
                                CompletionStatus::No,
                            ));
                            break;
                        }
                        if gone() {
                            outcome = Err(super::poa_error::no_adapter());
                            break;
                        }
                        held = inner.released.wait_timeout(held, HOLD_POLL).0;
                    }
                    *held -= 1;
                    drop(held);
                    outcome?;
                    if gone() {
                        return Err(super::poa_error::no_adapter());
                    }
                }
            }
        }
    }

    /// Ends a request [`PoaManager::admit`] let in.
    pub(crate) fn release(&self) {
        self.0.active.end();
    }
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock()
}
