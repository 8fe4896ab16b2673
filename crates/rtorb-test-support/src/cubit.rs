//! The Cubit interface and `Guarded`, a Cubit whose `checked_cube` raises a
//! user exception, as `rtorb-idl` generates them from the workspace's
//! `idl/cubit.idl` and this crate's `idl/guarded.idl`; and [`CubitImpl`],
//! the servant the tests serve them with.

// The generated code has a module `cubit` for the types declared inside
// interface `Cubit`.
#![allow(clippy::module_inception)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use rtorb::exception::SystemException;
use rtorb::orb::Orb;

include!(concat!(env!("OUT_DIR"), "/guarded.rs"));

/// Cubes (wrapping as the IDL types wrap), counts its calls and
/// remembers a shutdown.
#[derive(Debug, Default)]
pub struct CubitImpl {
    /// Set by `shutdown`.
    pub shut_down: Arc<AtomicBool>,
    /// Calls of the cubing operations; `cube_struct` counts as the three
    /// cubes it makes.
    pub calls: AtomicU32,
}

impl CubitImpl {
    fn count(&self) {
        self.calls.fetch_add(1, Ordering::Relaxed);
    }
}

/// The cube of `x`, wrapping.
macro_rules! cube {
    ($x:expr) => {{
        let x = $x;
        x.wrapping_mul(x).wrapping_mul(x)
    }};
}

impl CubitServant for CubitImpl {
    fn cube_void(&self) -> Result<(), SystemException> {
        self.count();
        Ok(())
    }
    fn cube_octet(&self, o: u8) -> Result<u8, SystemException> {
        self.count();
        Ok(cube!(o))
    }
    fn cube_short(&self, s: i16) -> Result<i16, SystemException> {
        self.count();
        Ok(cube!(s))
    }
    fn cube_long(&self, l: i32) -> Result<i32, SystemException> {
        self.count();
        Ok(cube!(l))
    }
    fn cube_struct(&self, m: cubit::Many) -> Result<cubit::Many, SystemException> {
        Ok(cubit::Many {
            o: self.cube_octet(m.o)?,
            l: self.cube_long(m.l)?,
            s: self.cube_short(m.s)?,
        })
    }
    fn cube_long_sequence(&self, s: cubit::LongSeq) -> Result<cubit::LongSeq, SystemException> {
        self.count();
        Ok(s.iter().map(|l| cube!(*l)).collect())
    }
    fn cube_octet_sequence(&self, s: cubit::OctetSeq) -> Result<cubit::OctetSeq, SystemException> {
        self.count();
        Ok(s.iter().map(|o| cube!(*o)).collect::<Vec<u8>>().into())
    }
    fn shutdown(&self) -> Result<(), SystemException> {
        self.shut_down.store(true, Ordering::SeqCst);
        Ok(())
    }
}

/// The plain key the tests serve a Cubit under.
pub const CUBIT_KEY: &[u8] = b"Cubit";

/// Serves a new [`CubitImpl`] on `orb` under [`CUBIT_KEY`]; the
/// stringified reference to it.
pub fn serve(orb: &Orb) -> String {
    crate::server::serve(
        orb,
        CUBIT_KEY,
        Arc::new(CubitSkeleton(CubitImpl::default())),
    )
}

/// The largest `long` whose cube fits a `long`, as `Overflow` reports it.
pub const CUBE_LIMIT: i32 = 1290;

/// Raises `Overflow` for cubes that do not fit a `long`.
impl GuardedServant for CubitImpl {
    fn checked_cube(&self, l: i32) -> Result<i32, guarded::CheckedCubeError> {
        l.checked_mul(l).and_then(|sq| sq.checked_mul(l)).ok_or(
            guarded::CheckedCubeError::Overflow(Overflow { limit: CUBE_LIMIT }),
        )
    }
}
