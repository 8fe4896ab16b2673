//! Stubs, servant traits and skeletons written by hand exactly as
//! `rtorb-idl` generates them, for the workspace's `idl/cubit.idl` and for a
//! small interface with a user exception:
//!
//! ```idl
//! exception Overflow { long limit; };
//! interface Guarded : Cubit {
//!   long checked_cube(in long l) raises (Overflow);
//! };
//! ```
// Generated code is `pub`; in a test binary its items are unreachable.
#![allow(dead_code, unreachable_pub)]

use std::ops::Deref;

use rtorb::runtime::{
    CdrDecode, CdrEncode, CdrError, Decoder, Encoder, Object, OperationError, ServerRequest,
    Skeleton, Stub, SystemException, UserException, bad_operation,
};
use rtorb_cdr::Bytes;

// ---------------------------------------------------------------------------
// interface Cubit

/// Types declared inside `interface Cubit`.
pub mod cubit {
    use super::*;

    /// `struct Many { octet o; long l; short s; };`
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct Many {
        /// `o`
        pub o: u8,
        /// `l`
        pub l: i32,
        /// `s`
        pub s: i16,
    }

    impl CdrEncode for Many {
        fn encode(&self, e: &mut Encoder) -> Result<(), CdrError> {
            self.o.encode(e)?;
            self.l.encode(e)?;
            self.s.encode(e)
        }
    }

    impl CdrDecode for Many {
        const MIN_WIRE_SIZE: usize = 1 + 4 + 2;
        fn decode(d: &mut Decoder) -> Result<Self, CdrError> {
            Ok(Many {
                o: u8::decode(d)?,
                l: i32::decode(d)?,
                s: i16::decode(d)?,
            })
        }
    }

    /// `typedef sequence<long> long_seq;`
    pub type LongSeq = Vec<i32>;
    /// `typedef sequence<octet> octet_seq;`
    pub type OctetSeq = Bytes;
}

/// Stub of `Cubit`.
#[derive(Debug, Clone)]
pub struct Cubit(Object);

impl Stub for Cubit {
    const REPOSITORY_ID: &'static str = "IDL:Cubit:1.0";
    fn from_object(object: Object) -> Self {
        Cubit(object)
    }
    fn as_object(&self) -> &Object {
        &self.0
    }
    fn into_object(self) -> Object {
        self.0
    }
}

impl Deref for Cubit {
    type Target = Object;
    fn deref(&self) -> &Object {
        &self.0
    }
}

impl Cubit {
    /// `void cube_void();`
    pub fn cube_void(&self) -> Result<(), SystemException> {
        self.0.invoke("cube_void", |_| Ok(()))?.decode(|_| Ok(()))
    }

    /// `octet cube_octet(in octet o);`
    pub fn cube_octet(&self, o: u8) -> Result<u8, SystemException> {
        self.0
            .invoke("cube_octet", |e| o.encode(e))?
            .decode(u8::decode)
    }

    /// `short cube_short(in short s);`
    pub fn cube_short(&self, s: i16) -> Result<i16, SystemException> {
        self.0
            .invoke("cube_short", |e| s.encode(e))?
            .decode(i16::decode)
    }

    /// `long cube_long(in long l);`
    pub fn cube_long(&self, l: i32) -> Result<i32, SystemException> {
        self.0
            .invoke("cube_long", |e| l.encode(e))?
            .decode(i32::decode)
    }

    /// `Many cube_struct(in Many m);`
    pub fn cube_struct(&self, m: &cubit::Many) -> Result<cubit::Many, SystemException> {
        self.0
            .invoke("cube_struct", |e| m.encode(e))?
            .decode(cubit::Many::decode)
    }

    /// `long_seq cube_long_sequence(in long_seq s);`
    pub fn cube_long_sequence(&self, s: &[i32]) -> Result<cubit::LongSeq, SystemException> {
        self.0
            .invoke("cube_long_sequence", |e| s.encode(e))?
            .decode(cubit::LongSeq::decode)
    }

    /// `octet_seq cube_octet_sequence(in octet_seq s);`
    pub fn cube_octet_sequence(&self, s: &[u8]) -> Result<cubit::OctetSeq, SystemException> {
        self.0
            .invoke("cube_octet_sequence", |e| e.write_octet_seq(s))?
            .decode(|d| d.read_octet_seq())
    }

    /// `oneway void shutdown();`
    pub fn shutdown(&self) -> Result<(), SystemException> {
        self.0.invoke_oneway("shutdown", |_| Ok(()))
    }
}

/// Servant trait of `Cubit`.
pub trait CubitServant: Send + Sync {
    /// `void cube_void();`
    fn cube_void(&self) -> Result<(), SystemException>;
    /// `octet cube_octet(in octet o);`
    fn cube_octet(&self, o: u8) -> Result<u8, SystemException>;
    /// `short cube_short(in short s);`
    fn cube_short(&self, s: i16) -> Result<i16, SystemException>;
    /// `long cube_long(in long l);`
    fn cube_long(&self, l: i32) -> Result<i32, SystemException>;
    /// `Many cube_struct(in Many m);`
    fn cube_struct(&self, m: cubit::Many) -> Result<cubit::Many, SystemException>;
    /// `long_seq cube_long_sequence(in long_seq s);`
    fn cube_long_sequence(&self, s: cubit::LongSeq) -> Result<cubit::LongSeq, SystemException>;
    /// `octet_seq cube_octet_sequence(in octet_seq s);`
    fn cube_octet_sequence(&self, s: cubit::OctetSeq) -> Result<cubit::OctetSeq, SystemException>;
    /// `oneway void shutdown();`
    fn shutdown(&self) -> Result<(), SystemException>;
}

/// Repository ids of `Cubit`, most derived first.
pub const CUBIT_REPOSITORY_IDS: &[&str] = &["IDL:Cubit:1.0"];

/// Dispatches the operations of `Cubit` (and of nothing else) to `servant`.
pub fn dispatch_cubit<S: CubitServant + ?Sized>(
    servant: &S,
    req: &mut ServerRequest<'_>,
) -> Result<(), SystemException> {
    match req.operation() {
        "cube_void" => servant.cube_void(),
        "cube_octet" => {
            let o = u8::decode(req.arguments())?;
            let r = servant.cube_octet(o)?;
            req.write_results(|e| r.encode(e))
        }
        "cube_short" => {
            let s = i16::decode(req.arguments())?;
            let r = servant.cube_short(s)?;
            req.write_results(|e| r.encode(e))
        }
        "cube_long" => {
            let l = i32::decode(req.arguments())?;
            let r = servant.cube_long(l)?;
            req.write_results(|e| r.encode(e))
        }
        "cube_struct" => {
            let m = cubit::Many::decode(req.arguments())?;
            let r = servant.cube_struct(m)?;
            req.write_results(|e| r.encode(e))
        }
        "cube_long_sequence" => {
            let s = cubit::LongSeq::decode(req.arguments())?;
            let r = servant.cube_long_sequence(s)?;
            req.write_results(|e| r.encode(e))
        }
        "cube_octet_sequence" => {
            let s = req.arguments().read_octet_seq()?;
            let r = servant.cube_octet_sequence(s)?;
            req.write_results(|e| e.write_octet_seq(&r))
        }
        "shutdown" => servant.shutdown(),
        _ => Err(bad_operation()),
    }
}

/// Skeleton of `Cubit`: register `Arc::new(CubitSkeleton(servant))`.
pub struct CubitSkeleton<S>(pub S);

impl<S: CubitServant> Skeleton for CubitSkeleton<S> {
    fn repository_ids(&self) -> &'static [&'static str] {
        CUBIT_REPOSITORY_IDS
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        dispatch_cubit(&self.0, req)
    }
}

// ---------------------------------------------------------------------------
// exception Overflow; interface Guarded : Cubit

/// `exception Overflow { long limit; };`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overflow {
    /// `limit`
    pub limit: i32,
}

impl UserException for Overflow {
    const REPOSITORY_ID: &'static str = "IDL:Overflow:1.0";
}

impl CdrEncode for Overflow {
    fn encode(&self, e: &mut Encoder) -> Result<(), CdrError> {
        self.limit.encode(e)
    }
}

impl CdrDecode for Overflow {
    const MIN_WIRE_SIZE: usize = 4;
    fn decode(d: &mut Decoder) -> Result<Self, CdrError> {
        Ok(Overflow {
            limit: i32::decode(d)?,
        })
    }
}

/// The errors of `Guarded::checked_cube`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckedCubeError {
    /// `Overflow`
    Overflow(Overflow),
    /// A system exception.
    System(SystemException),
}

impl From<SystemException> for CheckedCubeError {
    fn from(e: SystemException) -> Self {
        CheckedCubeError::System(e)
    }
}

impl OperationError for CheckedCubeError {
    fn from_user_exception(
        repository_id: &str,
        members: &mut Decoder,
    ) -> Option<Result<Self, CdrError>> {
        match repository_id {
            Overflow::REPOSITORY_ID => {
                Some(Overflow::decode(members).map(CheckedCubeError::Overflow))
            }
            _ => None,
        }
    }
}

/// Stub of `Guarded`.
#[derive(Debug, Clone)]
pub struct Guarded(Cubit);

impl Stub for Guarded {
    const REPOSITORY_ID: &'static str = "IDL:Guarded:1.0";
    fn from_object(object: Object) -> Self {
        Guarded(Cubit(object))
    }
    fn as_object(&self) -> &Object {
        &self.0.0
    }
    fn into_object(self) -> Object {
        self.0.0
    }
}

/// A `Guarded` is a `Cubit`: its stub offers the base's operations.
impl Deref for Guarded {
    type Target = Cubit;
    fn deref(&self) -> &Cubit {
        &self.0
    }
}

impl Guarded {
    /// `long checked_cube(in long l) raises (Overflow);`
    pub fn checked_cube(&self, l: i32) -> Result<i32, CheckedCubeError> {
        self.as_object()
            .invoke("checked_cube", |e| l.encode(e))?
            .decode(i32::decode)
    }
}

/// Servant trait of `Guarded`.
pub trait GuardedServant: CubitServant {
    /// `long checked_cube(in long l) raises (Overflow);`
    fn checked_cube(&self, l: i32) -> Result<i32, CheckedCubeError>;
}

/// Repository ids of `Guarded`, most derived first.
pub const GUARDED_REPOSITORY_IDS: &[&str] = &["IDL:Guarded:1.0", "IDL:Cubit:1.0"];

/// Dispatches the operations of `Guarded`, then of its bases.
pub fn dispatch_guarded<S: GuardedServant + ?Sized>(
    servant: &S,
    req: &mut ServerRequest<'_>,
) -> Result<(), SystemException> {
    match req.operation() {
        "checked_cube" => {
            let l = i32::decode(req.arguments())?;
            match servant.checked_cube(l) {
                Ok(r) => req.write_results(|e| r.encode(e)),
                Err(CheckedCubeError::Overflow(x)) => req.write_user_exception(&x),
                Err(CheckedCubeError::System(s)) => Err(s),
            }
        }
        _ => dispatch_cubit(servant, req),
    }
}

/// Skeleton of `Guarded`.
pub struct GuardedSkeleton<S>(pub S);

impl<S: GuardedServant> Skeleton for GuardedSkeleton<S> {
    fn repository_ids(&self) -> &'static [&'static str] {
        GUARDED_REPOSITORY_IDS
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        dispatch_guarded(&self.0, req)
    }
}

// ---------------------------------------------------------------------------
// A servant

/// Cubes, counts its calls, and remembers a shutdown.
#[derive(Debug, Default)]
pub struct CubitImpl {
    /// Set by `shutdown`.
    pub shut_down: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl CubitServant for CubitImpl {
    fn cube_void(&self) -> Result<(), SystemException> {
        Ok(())
    }
    fn cube_octet(&self, o: u8) -> Result<u8, SystemException> {
        Ok(o.wrapping_mul(o).wrapping_mul(o))
    }
    fn cube_short(&self, s: i16) -> Result<i16, SystemException> {
        Ok(s.wrapping_mul(s).wrapping_mul(s))
    }
    fn cube_long(&self, l: i32) -> Result<i32, SystemException> {
        Ok(l.wrapping_mul(l).wrapping_mul(l))
    }
    fn cube_struct(&self, m: cubit::Many) -> Result<cubit::Many, SystemException> {
        Ok(cubit::Many {
            o: self.cube_octet(m.o)?,
            l: self.cube_long(m.l)?,
            s: self.cube_short(m.s)?,
        })
    }
    fn cube_long_sequence(&self, s: cubit::LongSeq) -> Result<cubit::LongSeq, SystemException> {
        Ok(s.iter()
            .map(|l| l.wrapping_mul(*l).wrapping_mul(*l))
            .collect())
    }
    fn cube_octet_sequence(&self, s: cubit::OctetSeq) -> Result<cubit::OctetSeq, SystemException> {
        Ok(s.iter()
            .map(|o| o.wrapping_mul(*o).wrapping_mul(*o))
            .collect::<Vec<u8>>()
            .into())
    }
    fn shutdown(&self) -> Result<(), SystemException> {
        self.shut_down
            .store(true, std::sync::atomic::Ordering::SeqCst);
        Ok(())
    }
}

/// Raises `Overflow` for cubes that do not fit a `long`.
impl GuardedServant for CubitImpl {
    fn checked_cube(&self, l: i32) -> Result<i32, CheckedCubeError> {
        l.checked_mul(l)
            .and_then(|sq| sq.checked_mul(l))
            .ok_or(CheckedCubeError::Overflow(Overflow { limit: 1290 }))
    }
}
