//! One `cube_long` through generated Cubit stubs: collocated and called
//! directly through the servant trait, collocated and marshaled in
//! memory, and over IIOP on 127.0.0.1 to a plain key (`Cubit`) and to a
//! Root POA key (active demultiplexing).
//!
//! ```text
//! cargo bench -p rtorb-idl-tests --bench collocation
//! ```

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion};
use rtorb::cdr::{CdrDecode, CdrEncode};
use rtorb::exception::SystemException;
use rtorb::object::Stub;
use rtorb::orb::Orb;
use rtorb_idl_tests::cubit_idl::{Cubit, CubitServant, CubitSkeleton, cubit};

struct Cuber;

impl CubitServant for Cuber {
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
        Ok(m)
    }
    fn cube_long_sequence(&self, s: cubit::LongSeq) -> Result<cubit::LongSeq, SystemException> {
        Ok(s)
    }
    fn cube_octet_sequence(&self, s: cubit::OctetSeq) -> Result<cubit::OctetSeq, SystemException> {
        Ok(s)
    }
    fn shutdown(&self) -> Result<(), SystemException> {
        Ok(())
    }
}

fn bench(c: &mut Criterion) {
    let server = Orb::builder()
        .listen("iiop://127.0.0.1:0")
        .build()
        .expect("a server ORB");
    let on_poa = server.activate(Arc::new(CubitSkeleton(Cuber))).unwrap();
    let plain = server
        .activate_with_key(&b"Cubit"[..], Arc::new(CubitSkeleton(Cuber)))
        .unwrap();
    let client = Orb::builder()
        .round_trip_timeout(Duration::from_secs(10))
        .build()
        .expect("a client ORB");
    let remote = |obj| {
        let ior = server.object_to_string(obj).expect("a reference");
        Cubit::unchecked_narrow(client.string_to_object(&ior).expect("a reference"))
    };
    let remote_poa = remote(&on_poa);
    let remote_plain = remote(&plain);
    let direct = Cubit::unchecked_narrow(on_poa.clone());

    let mut g = c.benchmark_group("cube_long");
    g.bench_function(BenchmarkId::from_parameter("collocated_direct"), |b| {
        b.iter(|| direct.cube_long(black_box(7)).unwrap())
    });
    g.bench_function(BenchmarkId::from_parameter("collocated_marshaled"), |b| {
        b.iter(|| {
            on_poa
                .invoke("cube_long", |e| black_box(7i32).encode(e))
                .and_then(|r| r.decode::<i32, SystemException>(i32::decode))
                .unwrap()
        })
    });
    g.bench_function(BenchmarkId::from_parameter("iiop_poa_key"), |b| {
        b.iter(|| remote_poa.cube_long(black_box(7)).unwrap())
    });
    g.bench_function(BenchmarkId::from_parameter("iiop_plain_key"), |b| {
        b.iter(|| remote_plain.cube_long(black_box(7)).unwrap())
    });
    g.finish();
    let stats = server.stats().collocation;
    println!(
        "collocation: {} direct calls, {} marshaled ({} octets)",
        stats.direct_calls, stats.marshaled_calls, stats.marshaled_bytes
    );
    client.shutdown();
    server.shutdown();
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(40)
        .configure_from_args();
    bench(&mut c);
    c.final_summary();
}
