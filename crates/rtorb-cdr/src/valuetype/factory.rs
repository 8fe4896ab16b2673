//! Value factories: the readers of valuetypes by repository id, which
//! build the most derived type the receiver knows.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use super::base::ValueBase;
use crate::decoder::Decoder;
use crate::error::Result;

/// Reads the state of one valuetype (after its header) and builds the
/// value: what a value factory registers.
pub type StateReader = fn(&mut Decoder) -> Result<Arc<dyn ValueBase>>;

fn factories() -> &'static RwLock<HashMap<String, StateReader>> {
    static FACTORIES: OnceLock<RwLock<HashMap<String, StateReader>>> = OnceLock::new();
    FACTORIES.get_or_init(|| RwLock::new(HashMap::new()))
}

/// Registers the reader of values of repository id `id`, used whenever a
/// value of that type arrives (also where a base type is declared);
/// returns the reader it replaces.
pub fn register_value_factory(id: &str, reader: StateReader) -> Option<StateReader> {
    let mut map = factories().write().unwrap_or_else(|e| e.into_inner());
    map.insert(id.to_string(), reader)
}

/// Removes the reader registered for `id`, returning it.
pub fn unregister_value_factory(id: &str) -> Option<StateReader> {
    let mut map = factories().write().unwrap_or_else(|e| e.into_inner());
    map.remove(id)
}

/// The reader registered for `id`.
pub fn lookup_value_factory(id: &str) -> Option<StateReader> {
    let map = factories().read().unwrap_or_else(|e| e.into_inner());
    map.get(id).copied()
}
