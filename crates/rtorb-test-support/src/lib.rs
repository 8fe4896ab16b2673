//! What the tests and benchmarks of the rtorb workspace share:
//!
//! - [`TIMEOUT`]: the one deadline of the tests' waits;
//! - [`wait`]: a [`Latch`](wait::Latch) and [`eventually`](wait::eventually),
//!   so that tests wait for the event itself rather than for a guessed time;
//! - [`client`] and [`server`]: the tests' client ORBs (calls that time out
//!   at [`TIMEOUT`]) and server ORBs (listening on the loopback interface),
//!   and serving a servant under a plain key;
//! - [`alloc`]: a global allocator that counts heap allocations, per thread
//!   and for the whole process, for the checks that a call allocates
//!   nothing;
//! - [`live`]: a global allocator that tracks the bytes live in the
//!   process and their peak, for the checks that what a server holds is
//!   what it accounts for;
//! - [`clock`]: the clocks the ORB's client reads idle times on, and
//!   waiting until they have moved on;
//! - [`cubit`]: stubs, servant traits and skeletons that `rtorb-idl`
//!   generates from the Cubit IDL and from `idl/guarded.idl`, and
//!   [`CubitImpl`](cubit::CubitImpl), the one Cubit servant of the tests;
//! - [`echo`]: a servant that echoes a `long`, for tests about connections
//!   and threads;
//! - [`hold`]: a [`Hold`](hold::Hold) that keeps an upcall in its servant
//!   until the test releases it, and [`HeldServant`](hold::HeldServant),
//!   the servant that blocks there, notes what ran and says where it runs;
//! - [`log`]: capturing what the ORB logs through `tracing`, for tests of
//!   log lines;
//! - [`loopback`]: the in-process GIOP loopback in each GIOP version and
//!   byte order;
//! - [`net`]: unique socket paths, free ports, an ORB's IIOP address, and
//!   reading a raw GIOP message from a socket;
//! - [`omnievents`]: omniEvents' event service and tools as a peer, and
//!   a child process whose output lines a test waits for;
//! - [`priority`]: a servant that reports the priority it runs at, objects
//!   in POAs of a priority model, and ORBs whose priorities map onto nice
//!   values;
//! - [`privilege`]: running part of a test in a child process without the
//!   privilege to raise priorities;
//! - [`process`]: running a program (the `rtorb` tool) to its end, and
//!   failing the test with what it wrote where it fails;
//! - [`sched`]: what the tests of priorities read of threads (nice value,
//!   policy and real-time priority) and finding threads by name;
//! - [`source_graph`]: reading a crate's sources for the tests of its
//!   structure: the modules a file names, the import graph between its
//!   files and that graph's cycles;
//! - [`text`]: a servant that echoes and returns narrow and wide text, for
//!   the tests of code sets.

pub mod alloc;
pub mod client;
pub mod clock;
pub mod cubit;
pub mod echo;
pub mod hold;
pub mod live;
pub mod log;
pub mod loopback;
pub mod net;
pub mod omnievents;
pub mod priority;
pub mod privilege;
pub mod process;
pub mod sched;
pub mod server;
pub mod source_graph;
pub mod text;
pub mod wait;
pub mod wire;

pub use wait::TIMEOUT;

/// The unit tests count with the allocator they test.
#[cfg(test)]
#[global_allocator]
static GLOBAL: alloc::CountingAllocator = alloc::CountingAllocator;
