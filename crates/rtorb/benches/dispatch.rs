//! Finding the operation a request names, among the 100 operations of
//! one interface: the perfect-hash [`OpTable`] that `rtorb-idl` generates,
//! a `match` over the 100 string literals, and a binary search over the
//! names sorted.
//!
//! ```text
//! cargo bench -p rtorb --bench dispatch
//! ```
//!
//! How the `match` and the table compare from 10 to 2000 operations
//! (where `rtorb-idl` switches from one to the other) is measured by
//! `crates/rtorb-idl-tests/benches/dispatch_crossover.rs`, whose build
//! script generates the operation sets.
//!
//! Each `all_100` benchmark looks up every one of the 100 names once per
//! iteration (so its time divided by 100 is the mean per lookup); each
//! `unknown` benchmark looks up one name the interface does not have.
//! `hash_only` and `hash_slot` time the parts of an `OpTable` lookup: the
//! hash alone, then with the bucket's displacement and the slot. The
//! names are copied to the heap and passed through `black_box`, as a
//! request's operation name arrives in a message buffer.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
use rtorb::codegen::OpTable;

/// The operations, in declaration order: their index is what each lookup
/// returns.
const NAMES: [&str; 100] = [
    "get_position",
    "set_position",
    "get_velocity",
    "set_velocity",
    "get_velocity_limit",
    "set_velocity_limit",
    "get_altitude",
    "set_altitude",
    "get_heading",
    "set_heading",
    "get_battery_level",
    "set_battery_level",
    "get_mode",
    "set_mode",
    "get_target",
    "set_target",
    "get_waypoint",
    "set_waypoint",
    "get_status",
    "set_status",
    "get_temperature",
    "set_temperature",
    "get_pressure",
    "set_pressure",
    "_get_position",
    "_get_velocity",
    "_get_velocity_limit",
    "_get_altitude",
    "_get_heading",
    "_get_battery_level",
    "_get_mode",
    "_get_target",
    "_get_waypoint",
    "_get_status",
    "_get_temperature",
    "_get_pressure",
    "_get_gain",
    "_get_offset",
    "_get_timeout",
    "_get_priority",
    "_get_name",
    "_get_id",
    "_set_position",
    "_set_velocity",
    "_set_velocity_limit",
    "_set_altitude",
    "_set_heading",
    "_set_battery_level",
    "_set_mode",
    "_set_target",
    "_set_waypoint",
    "_set_status",
    "start",
    "stop",
    "reset",
    "calibrate",
    "arm",
    "disarm",
    "take_off",
    "land",
    "return_home",
    "hold",
    "resume",
    "abort",
    "ping",
    "shutdown",
    "subscribe",
    "unsubscribe",
    "push_event",
    "pull_event",
    "try_pull_event",
    "connect_push_consumer",
    "disconnect",
    "add_waypoint",
    "remove_waypoint",
    "clear_waypoints",
    "list_waypoints",
    "upload_mission",
    "download_mission",
    "begin_transaction",
    "commit_transaction",
    "rollback_transaction",
    "query_capabilities",
    "describe",
    "lookup_sensor",
    "register_callback",
    "unregister_callback",
    "log_message",
    "flush_log",
    "get_statistics",
    "reset_statistics",
    "self_test",
    "enable_axis",
    "disable_axis",
    "move_absolute",
    "move_relative",
    "wait_idle",
    "emergency_stop",
    "set_velocity_limit_for_axis",
    "get_firmware_version",
];

/// A name the interface does not have.
const UNKNOWN: &str = "get_altitude_limit";

/// The table `rtorb_idl::phf::PerfectHash::generate(&NAMES)` renders,
/// exactly as generated code embeds it.
static OPS: ::rtorb::codegen::OpTable<'static> = ::rtorb::codegen::OpTable {
    seed: 0xdde61a46db7dd424,
    disp: &[
        11, 0, 17, 74, 34, 45, 0, 0, 102, 51, 10, 699, 60, 665, 7, 7, 8, 34, 242, 175, 1, 39, 26,
        17, 173,
    ],
    names: &[
        "_get_status",
        "_set_velocity",
        "_set_waypoint",
        "get_statistics",
        "start",
        "enable_axis",
        "connect_push_consumer",
        "resume",
        "_set_mode",
        "get_waypoint",
        "set_altitude",
        "take_off",
        "_get_name",
        "land",
        "set_velocity_limit",
        "try_pull_event",
        "get_battery_level",
        "unregister_callback",
        "_get_mode",
        "subscribe",
        "arm",
        "list_waypoints",
        "get_firmware_version",
        "_get_timeout",
        "calibrate",
        "ping",
        "set_waypoint",
        "get_target",
        "unsubscribe",
        "set_target",
        "_set_status",
        "hold",
        "get_pressure",
        "flush_log",
        "move_absolute",
        "remove_waypoint",
        "set_heading",
        "reset_statistics",
        "add_waypoint",
        "self_test",
        "_set_battery_level",
        "upload_mission",
        "set_velocity_limit_for_axis",
        "stop",
        "shutdown",
        "rollback_transaction",
        "_set_velocity_limit",
        "_get_temperature",
        "register_callback",
        "commit_transaction",
        "_get_gain",
        "move_relative",
        "_get_id",
        "abort",
        "_set_heading",
        "pull_event",
        "_get_priority",
        "wait_idle",
        "_set_position",
        "emergency_stop",
        "_get_position",
        "_get_pressure",
        "disconnect",
        "_get_velocity",
        "set_battery_level",
        "get_temperature",
        "set_mode",
        "disarm",
        "get_status",
        "get_heading",
        "set_pressure",
        "reset",
        "set_status",
        "set_position",
        "query_capabilities",
        "_get_heading",
        "describe",
        "clear_waypoints",
        "_get_target",
        "_get_velocity_limit",
        "get_velocity",
        "get_position",
        "begin_transaction",
        "_set_altitude",
        "download_mission",
        "set_temperature",
        "_get_altitude",
        "push_event",
        "_get_battery_level",
        "_get_waypoint",
        "return_home",
        "disable_axis",
        "get_velocity_limit",
        "get_altitude",
        "get_mode",
        "_get_offset",
        "lookup_sensor",
        "_set_target",
        "log_message",
        "set_velocity",
    ],
    index: &[
        33, 43, 50, 89, 52, 92, 71, 62, 48, 16, 7, 58, 40, 59, 5, 70, 10, 86, 30, 66, 56, 76, 99,
        38, 55, 64, 17, 14, 67, 15, 51, 61, 22, 88, 94, 74, 9, 90, 73, 91, 47, 77, 98, 53, 65, 81,
        44, 34, 85, 80, 36, 95, 41, 63, 46, 69, 39, 96, 42, 97, 24, 35, 72, 25, 11, 20, 13, 57, 18,
        8, 23, 54, 19, 1, 82, 28, 83, 75, 31, 26, 2, 0, 79, 45, 78, 21, 27, 68, 29, 32, 60, 93, 4,
        6, 12, 37, 84, 49, 87, 3,
    ],
};

/// The `match` a skeleton would otherwise be.
fn by_match(name: &str) -> Option<usize> {
    match name {
        "get_position" => Some(0),
        "set_position" => Some(1),
        "get_velocity" => Some(2),
        "set_velocity" => Some(3),
        "get_velocity_limit" => Some(4),
        "set_velocity_limit" => Some(5),
        "get_altitude" => Some(6),
        "set_altitude" => Some(7),
        "get_heading" => Some(8),
        "set_heading" => Some(9),
        "get_battery_level" => Some(10),
        "set_battery_level" => Some(11),
        "get_mode" => Some(12),
        "set_mode" => Some(13),
        "get_target" => Some(14),
        "set_target" => Some(15),
        "get_waypoint" => Some(16),
        "set_waypoint" => Some(17),
        "get_status" => Some(18),
        "set_status" => Some(19),
        "get_temperature" => Some(20),
        "set_temperature" => Some(21),
        "get_pressure" => Some(22),
        "set_pressure" => Some(23),
        "_get_position" => Some(24),
        "_get_velocity" => Some(25),
        "_get_velocity_limit" => Some(26),
        "_get_altitude" => Some(27),
        "_get_heading" => Some(28),
        "_get_battery_level" => Some(29),
        "_get_mode" => Some(30),
        "_get_target" => Some(31),
        "_get_waypoint" => Some(32),
        "_get_status" => Some(33),
        "_get_temperature" => Some(34),
        "_get_pressure" => Some(35),
        "_get_gain" => Some(36),
        "_get_offset" => Some(37),
        "_get_timeout" => Some(38),
        "_get_priority" => Some(39),
        "_get_name" => Some(40),
        "_get_id" => Some(41),
        "_set_position" => Some(42),
        "_set_velocity" => Some(43),
        "_set_velocity_limit" => Some(44),
        "_set_altitude" => Some(45),
        "_set_heading" => Some(46),
        "_set_battery_level" => Some(47),
        "_set_mode" => Some(48),
        "_set_target" => Some(49),
        "_set_waypoint" => Some(50),
        "_set_status" => Some(51),
        "start" => Some(52),
        "stop" => Some(53),
        "reset" => Some(54),
        "calibrate" => Some(55),
        "arm" => Some(56),
        "disarm" => Some(57),
        "take_off" => Some(58),
        "land" => Some(59),
        "return_home" => Some(60),
        "hold" => Some(61),
        "resume" => Some(62),
        "abort" => Some(63),
        "ping" => Some(64),
        "shutdown" => Some(65),
        "subscribe" => Some(66),
        "unsubscribe" => Some(67),
        "push_event" => Some(68),
        "pull_event" => Some(69),
        "try_pull_event" => Some(70),
        "connect_push_consumer" => Some(71),
        "disconnect" => Some(72),
        "add_waypoint" => Some(73),
        "remove_waypoint" => Some(74),
        "clear_waypoints" => Some(75),
        "list_waypoints" => Some(76),
        "upload_mission" => Some(77),
        "download_mission" => Some(78),
        "begin_transaction" => Some(79),
        "commit_transaction" => Some(80),
        "rollback_transaction" => Some(81),
        "query_capabilities" => Some(82),
        "describe" => Some(83),
        "lookup_sensor" => Some(84),
        "register_callback" => Some(85),
        "unregister_callback" => Some(86),
        "log_message" => Some(87),
        "flush_log" => Some(88),
        "get_statistics" => Some(89),
        "reset_statistics" => Some(90),
        "self_test" => Some(91),
        "enable_axis" => Some(92),
        "disable_axis" => Some(93),
        "move_absolute" => Some(94),
        "move_relative" => Some(95),
        "wait_idle" => Some(96),
        "emergency_stop" => Some(97),
        "set_velocity_limit_for_axis" => Some(98),
        "get_firmware_version" => Some(99),
        _ => None,
    }
}

/// The names sorted by octets, each with its index.
const SORTED: [(&str, usize); 100] = [
    ("_get_altitude", 27),
    ("_get_battery_level", 29),
    ("_get_gain", 36),
    ("_get_heading", 28),
    ("_get_id", 41),
    ("_get_mode", 30),
    ("_get_name", 40),
    ("_get_offset", 37),
    ("_get_position", 24),
    ("_get_pressure", 35),
    ("_get_priority", 39),
    ("_get_status", 33),
    ("_get_target", 31),
    ("_get_temperature", 34),
    ("_get_timeout", 38),
    ("_get_velocity", 25),
    ("_get_velocity_limit", 26),
    ("_get_waypoint", 32),
    ("_set_altitude", 45),
    ("_set_battery_level", 47),
    ("_set_heading", 46),
    ("_set_mode", 48),
    ("_set_position", 42),
    ("_set_status", 51),
    ("_set_target", 49),
    ("_set_velocity", 43),
    ("_set_velocity_limit", 44),
    ("_set_waypoint", 50),
    ("abort", 63),
    ("add_waypoint", 73),
    ("arm", 56),
    ("begin_transaction", 79),
    ("calibrate", 55),
    ("clear_waypoints", 75),
    ("commit_transaction", 80),
    ("connect_push_consumer", 71),
    ("describe", 83),
    ("disable_axis", 93),
    ("disarm", 57),
    ("disconnect", 72),
    ("download_mission", 78),
    ("emergency_stop", 97),
    ("enable_axis", 92),
    ("flush_log", 88),
    ("get_altitude", 6),
    ("get_battery_level", 10),
    ("get_firmware_version", 99),
    ("get_heading", 8),
    ("get_mode", 12),
    ("get_position", 0),
    ("get_pressure", 22),
    ("get_statistics", 89),
    ("get_status", 18),
    ("get_target", 14),
    ("get_temperature", 20),
    ("get_velocity", 2),
    ("get_velocity_limit", 4),
    ("get_waypoint", 16),
    ("hold", 61),
    ("land", 59),
    ("list_waypoints", 76),
    ("log_message", 87),
    ("lookup_sensor", 84),
    ("move_absolute", 94),
    ("move_relative", 95),
    ("ping", 64),
    ("pull_event", 69),
    ("push_event", 68),
    ("query_capabilities", 82),
    ("register_callback", 85),
    ("remove_waypoint", 74),
    ("reset", 54),
    ("reset_statistics", 90),
    ("resume", 62),
    ("return_home", 60),
    ("rollback_transaction", 81),
    ("self_test", 91),
    ("set_altitude", 7),
    ("set_battery_level", 11),
    ("set_heading", 9),
    ("set_mode", 13),
    ("set_position", 1),
    ("set_pressure", 23),
    ("set_status", 19),
    ("set_target", 15),
    ("set_temperature", 21),
    ("set_velocity", 3),
    ("set_velocity_limit", 5),
    ("set_velocity_limit_for_axis", 98),
    ("set_waypoint", 17),
    ("shutdown", 65),
    ("start", 52),
    ("stop", 53),
    ("subscribe", 66),
    ("take_off", 58),
    ("try_pull_event", 70),
    ("unregister_callback", 86),
    ("unsubscribe", 67),
    ("upload_mission", 77),
    ("wait_idle", 96),
];

fn by_binary_search(name: &[u8]) -> Option<usize> {
    SORTED
        .binary_search_by(|(n, _)| n.as_bytes().cmp(name))
        .ok()
        .and_then(|i| SORTED.get(i))
        .map(|&(_, index)| index)
}

fn by_table(table: &OpTable<'_>, name: &[u8]) -> Option<usize> {
    table.lookup(name)
}

/// `OPS` is what the generator makes of `NAMES`, and every method finds
/// every name at its index and the unknown name nowhere, before anything
/// is timed.
fn check(requests: &[String]) {
    let generated = rtorb_idl::phf::PerfectHash::generate(&NAMES).expect("a table");
    assert_eq!(generated.seed(), OPS.seed);
    assert_eq!(generated.displacements(), OPS.disp);
    assert!(generated.slot_names().eq(OPS.names.iter().copied()));
    assert!(
        generated
            .slots()
            .iter()
            .map(|&i| i as u32)
            .eq(OPS.index.iter().copied())
    );
    for (i, name) in requests.iter().enumerate() {
        assert_eq!(by_table(&OPS, name.as_bytes()), Some(i), "{name}");
        assert_eq!(by_match(name), Some(i), "{name}");
        assert_eq!(by_binary_search(name.as_bytes()), Some(i), "{name}");
    }
    assert_eq!(by_table(&OPS, UNKNOWN.as_bytes()), None);
    assert_eq!(by_match(UNKNOWN), None);
    assert_eq!(by_binary_search(UNKNOWN.as_bytes()), None);
}

fn bench(c: &mut Criterion) {
    let requests: Vec<String> = NAMES.iter().map(|s| (*s).to_owned()).collect();
    let unknown = UNKNOWN.to_owned();
    check(&requests);

    let mut all = c.benchmark_group("dispatch/all_100");
    all.throughput(Throughput::Elements(NAMES.len() as u64));
    all.bench_function(BenchmarkId::from_parameter("op_table"), |b| {
        b.iter(|| {
            let mut sum = 0usize;
            for name in &requests {
                sum += by_table(&OPS, black_box(name.as_bytes())).unwrap_or(usize::MAX);
            }
            sum
        })
    });
    all.bench_function(BenchmarkId::from_parameter("match"), |b| {
        b.iter(|| {
            let mut sum = 0usize;
            for name in &requests {
                sum += by_match(black_box(name.as_str())).unwrap_or(usize::MAX);
            }
            sum
        })
    });
    all.bench_function(BenchmarkId::from_parameter("binary_search"), |b| {
        b.iter(|| {
            let mut sum = 0usize;
            for name in &requests {
                sum += by_binary_search(black_box(name.as_bytes())).unwrap_or(usize::MAX);
            }
            sum
        })
    });
    all.bench_function(BenchmarkId::from_parameter("hash_only"), |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for name in &requests {
                sum ^= rtorb::codegen::op_hash(OPS.seed, black_box(name.as_bytes()));
            }
            sum
        })
    });
    all.bench_function(BenchmarkId::from_parameter("hash_slot"), |b| {
        b.iter(|| {
            let mut sum = 0usize;
            for name in &requests {
                let h = rtorb::codegen::op_hash(OPS.seed, black_box(name.as_bytes()));
                let d = OPS.disp[rtorb::codegen::op_bucket(h, OPS.disp.len())];
                sum += rtorb::codegen::op_slot(h, d, 100);
            }
            sum
        })
    });
    all.finish();

    let mut miss = c.benchmark_group("dispatch/unknown");
    miss.bench_function(BenchmarkId::from_parameter("op_table"), |b| {
        b.iter(|| by_table(&OPS, black_box(unknown.as_bytes())))
    });
    miss.bench_function(BenchmarkId::from_parameter("match"), |b| {
        b.iter(|| by_match(black_box(unknown.as_str())))
    });
    miss.bench_function(BenchmarkId::from_parameter("binary_search"), |b| {
        b.iter(|| by_binary_search(black_box(unknown.as_bytes())))
    });
    miss.finish();
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(60)
        .configure_from_args();
    bench(&mut c);
    c.final_summary();
}
