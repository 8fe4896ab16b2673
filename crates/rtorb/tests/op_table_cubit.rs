//! A `static` operation table exactly as `rtorb-idl` renders it for Cubit
//! (the golden text of `crates/rtorb-idl/tests/phf_render.rs`), its
//! lookups, and a Cubit skeleton that dispatches through it.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use rtorb::cdr::{CdrDecode, CdrEncode};
use rtorb::codegen::OpTable;
use rtorb::exception::{SystemException, SystemExceptionKind, bad_operation};
use rtorb::loopback::Loopback;
use rtorb::minor::BAD_OPERATION_UNKNOWN_OPERATION;
use rtorb::object::Stub;
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb_cdr::{ByteOrder, Version};
use rtorb_test_support::cubit::cubit::{Many, REPOSITORY_IDS as CUBIT_REPOSITORY_IDS};
use rtorb_test_support::cubit::{Cubit, CubitImpl, CubitServant};

static CUBIT_OPS: ::rtorb::codegen::OpTable<'static> = ::rtorb::codegen::OpTable {
    seed: 0xdde61a46db7dd424,
    disp: &[0, 69],
    names: &[
        "cube_void",
        "cube_struct",
        "cube_octet_sequence",
        "shutdown",
        "cube_short",
        "cube_octet",
        "cube_long",
        "cube_long_sequence",
    ],
    index: &[0, 4, 6, 7, 2, 1, 3, 5],
};

/// The operations of Cubit in declaration order: the indices the table
/// returns.
const CUBIT: [&str; 8] = [
    "cube_void",
    "cube_octet",
    "cube_short",
    "cube_long",
    "cube_struct",
    "cube_long_sequence",
    "cube_octet_sequence",
    "shutdown",
];

#[test]
fn every_cubit_operation_finds_its_index() {
    assert_eq!(CUBIT_OPS.len(), 8);
    assert!(!CUBIT_OPS.is_empty());
    for (i, name) in CUBIT.iter().enumerate() {
        assert_eq!(CUBIT_OPS.lookup(name.as_bytes()), Some(i), "{name}");
    }
}

#[test]
fn other_names_find_nothing() {
    for name in [
        &b""[..],
        b"cube_double",
        b"cube_lon",
        b"cube_longg",
        b"Cube_long",
        b"_is_a",
        b"_get_cube_long",
        b"shutdown\0",
        b"\xff\xfe\xfd",
        &[b'x'; 4096],
    ] {
        assert_eq!(CUBIT_OPS.lookup(name), None, "{name:?}");
    }
}

#[test]
fn inconsistent_tables_find_nothing_and_do_not_panic() {
    let empty = OpTable {
        seed: 0,
        disp: &[],
        names: &[],
        index: &[],
    };
    assert!(empty.is_empty());
    assert_eq!(empty.lookup(b"cube_long"), None);
    // Names without indices, and displacements without names.
    let no_index = OpTable {
        index: &[],
        ..CUBIT_OPS
    };
    let no_names = OpTable {
        names: &[],
        ..CUBIT_OPS
    };
    for name in CUBIT {
        assert_eq!(no_index.lookup(name.as_bytes()), None);
        assert_eq!(no_names.lookup(name.as_bytes()), None);
    }
}

/// The Cubit skeleton as it is generated with an operation table.
struct HashedCubitSkeleton<S>(S);

impl<S: CubitServant> Skeleton for HashedCubitSkeleton<S> {
    fn repository_ids(&self) -> &'static [&'static str] {
        CUBIT_REPOSITORY_IDS
    }

    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        let servant = &self.0;
        match CUBIT_OPS.lookup(req.operation().as_bytes()) {
            Some(0) => servant.cube_void(),
            Some(1) => {
                let o = u8::decode(req.arguments())?;
                let r = servant.cube_octet(o)?;
                req.write_results(|e| r.encode(e))
            }
            Some(2) => {
                let s = i16::decode(req.arguments())?;
                let r = servant.cube_short(s)?;
                req.write_results(|e| r.encode(e))
            }
            Some(3) => {
                let l = i32::decode(req.arguments())?;
                let r = servant.cube_long(l)?;
                req.write_results(|e| r.encode(e))
            }
            Some(4) => {
                let m = Many::decode(req.arguments())?;
                let r = servant.cube_struct(m)?;
                req.write_results(|e| r.encode(e))
            }
            Some(5) => {
                let s = Vec::<i32>::decode(req.arguments())?;
                let r = servant.cube_long_sequence(s)?;
                req.write_results(|e| r.encode(e))
            }
            Some(6) => {
                let s = req.arguments().read_octet_seq()?;
                let r = servant.cube_octet_sequence(s)?;
                req.write_results(|e| e.write_octet_seq(&r))
            }
            Some(7) => servant.shutdown(),
            _ => Err(bad_operation()),
        }
    }
}

#[test]
fn cubit_dispatched_through_the_table() {
    for v in [Version::V1_0, Version::V1_2] {
        let orb = Loopback::new(v, ByteOrder::Little);
        let servant = CubitImpl::default();
        let flag = servant.shut_down.clone();
        let obj = orb.activate(&b"Cubit"[..], Arc::new(HashedCubitSkeleton(servant)));
        let c = Cubit::narrow(obj).unwrap().expect("a Cubit");
        c.cube_void().unwrap();
        assert_eq!(c.cube_octet(3).unwrap(), 27);
        assert_eq!(c.cube_short(-7).unwrap(), -343);
        assert_eq!(c.cube_long(1000).unwrap(), 1_000_000_000);
        let m = Many { o: 2, l: 3, s: 4 };
        assert_eq!(c.cube_struct(&m).unwrap(), Many { o: 8, l: 27, s: 64 });
        assert_eq!(c.cube_long_sequence(&[1, 2, 3]).unwrap(), vec![1, 8, 27]);
        assert_eq!(&c.cube_octet_sequence(&[2, 3]).unwrap()[..], &[8, 27]);
        let e = c
            .as_object()
            .invoke("cube_nothing", |_| Ok(()))
            .unwrap_err();
        assert_eq!(e.kind(), Some(SystemExceptionKind::BadOperation));
        assert_eq!(e.minor, BAD_OPERATION_UNKNOWN_OPERATION);
        assert!(!flag.load(Ordering::SeqCst));
        c.shutdown().unwrap();
        assert!(flag.load(Ordering::SeqCst));
    }
}
