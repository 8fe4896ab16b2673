//! [`Local`]: a reference to an object of a local interface.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A reference to an object of a local interface: shared, never
/// marshalled.
pub struct Local<T: ?Sized>(pub Arc<T>);

impl<T: ?Sized> Local<T> {
    /// A reference to `object`.
    pub fn new(object: Arc<T>) -> Local<T> {
        Local(object)
    }
}

impl<T: ?Sized> Clone for Local<T> {
    fn clone(&self) -> Self {
        Local(self.0.clone())
    }
}

impl<T: ?Sized> Deref for Local<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: ?Sized> fmt::Debug for Local<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Local({:p})", Arc::as_ptr(&self.0) as *const ())
    }
}
