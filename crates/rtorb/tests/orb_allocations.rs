//! Heap allocations per call through the ORB over real connections
//! (IIOP and UIOP, exclusive and multiplexed connections, with and without
//! a round-trip timeout), counted by a
//! global allocator that wraps the system one.
//!
//! Under every server strategy. The client side is counted on the calling
//! thread. The server side runs on the ORB's server threads, so it is counted as every allocation in
//! the process during the measurement minus the calling thread's: the
//! test runs alone in its binary, and the only other threads (acceptors,
//! the idle connection thread of the warm-up) do not allocate while they
//! wait (a stray allocation among them is tolerated, not one per call).

use rtorb::orb::{ConnectionStrategy, Orb, ServerStrategy};
use rtorb_test_support::alloc::{CountingAllocator, allocations_per_call};
use rtorb_test_support::cubit::{self, Cubit};
use rtorb_test_support::net::socket_path;
use rtorb_test_support::{TIMEOUT, server};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

const CALLS: u64 = 2000;

/// Allocations per call of `f` after a warm-up: (client thread, rest of
/// the process).
fn allocs_per_call(f: impl FnMut()) -> (f64, f64) {
    allocations_per_call(50, CALLS, f)
}

#[test]
fn allocations_per_cube_long_through_the_orb() {
    for strategy in ServerStrategy::ALL {
        let uiop = format!("uiop://{}", socket_path("allocs"));
        let server = server::builder()
            .listen(&uiop)
            .server_strategy(strategy)
            .build()
            .unwrap();
        let ior = cubit::serve(&server);
        let iiop_port = server.endpoints()[0]
            .rsplit(':')
            .next()
            .and_then(|p| p.parse::<u16>().ok())
            .expect("an IIOP port");
        let targets = [
            ("IIOP", format!("corbaloc::1.2@127.0.0.1:{iiop_port}/Cubit")),
            ("UIOP", ior),
        ];
        let mut worst = (0.0f64, 0.0f64);
        for (protocol, target) in &targets {
            let client_cases = [
                ConnectionStrategy::Exclusive,
                ConnectionStrategy::Multiplexed,
            ]
            .into_iter()
            .flat_map(|c| [None, Some(TIMEOUT)].map(|d| (c, d)));
            for (connections, timeout) in client_cases {
                let mut builder = Orb::builder().connection_strategy(connections);
                if let Some(t) = timeout {
                    builder = builder.round_trip_timeout(t);
                }
                let client = builder.build().unwrap();
                let cubit: Cubit = client.string_to_object(target).unwrap().unchecked_narrow();
                let mut l = 0i32;
                let (on_client, on_server) = allocs_per_call(|| {
                    l = l.wrapping_add(1);
                    assert_eq!(cubit.cube_long(l).unwrap(), l.wrapping_pow(3));
                });
                println!(
                    "{strategy}, {protocol}, {connections:?}, round-trip timeout {timeout:?}: allocations per \
                     cube_long: client {on_client}, server {on_server}"
                );
                worst = (worst.0.max(on_client), worst.1.max(on_server));
                // The servant builds its result sequence on the server thread,
                // the stub decodes it into a new Vec on the client: both
                // sides are counted.
                let (seq_on_client, seq_on_server) = allocs_per_call(|| {
                    assert_eq!(cubit.cube_long_sequence(&[2, 3]).unwrap(), [8, 27]);
                });
                assert!(seq_on_client >= 1.0, "cube_long_sequence: {seq_on_client}");
                assert!(seq_on_server >= 1.0, "cube_long_sequence: {seq_on_server}");
                // Messages larger than the pooled buffers' first capacity
                // (4164 octets of request, 4124 of reply): the buffers fit
                // themselves to them, so what is left is the stub's result
                // Vec on the client, and on the server the argument Vec and
                // the servant's result Vec. (Before the pools learned message
                // sizes, each side grew its buffer once more per call.)
                let longs: Vec<i32> = (0..1024).collect();
                let cubes: Vec<i32> = longs.iter().map(|l| l.wrapping_pow(3)).collect();
                let (big_on_client, big_on_server) = allocs_per_call(|| {
                    assert_eq!(cubit.cube_long_sequence(&longs).unwrap(), cubes);
                });
                println!(
                    "{strategy}, {protocol}, {connections:?}: allocations per cube_long_sequence(1024): \
                     client {big_on_client}, server {big_on_server}"
                );
                assert_eq!(big_on_client, 1.0, "cube_long_sequence(1024) client");
                assert!(
                    (big_on_server - 2.0).abs() < 0.01,
                    "cube_long_sequence(1024) server: {big_on_server}"
                );
                drop(cubit);
                client.shutdown();
            }
        }
        println!(
            "{strategy}: cube_long through the ORB: at most {} allocations per call on the client, {} on the server",
            worst.0, worst.1
        );
        // Pooled buffers, bound targets, cached connections: in steady state
        // a call with primitive arguments allocates nothing on either side.
        assert_eq!(worst.0, 0.0, "{strategy}: client allocations per call");
        // The server side is counted process-wide: leave room for a stray
        // allocation by another thread, not for one per call.
        assert!(
            worst.1 < 0.01,
            "{strategy}: server: {} allocations per call",
            worst.1
        );
        server.shutdown();
    }
}
