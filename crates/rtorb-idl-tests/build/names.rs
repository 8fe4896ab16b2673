//! Operation names as IDL interfaces spell them, for the dispatch
//! benchmark and the large test interface: accessor pairs (`get_x`,
//! `set_x`), attribute accessors (`_get_x`, `_set_x`) and verb-noun
//! operations, 3 to about 40 octets, many sharing prefixes and lengths.
//! The same `(count, seed)` always gives the same list.

/// Verbs of verb-noun operations.
const VERBS: &[&str] = &[
    "add",
    "remove",
    "list",
    "find",
    "create",
    "destroy",
    "update",
    "query",
    "reset",
    "start",
    "stop",
    "enable",
    "disable",
    "push",
    "pull",
    "try_pull",
    "connect",
    "disconnect",
    "register",
    "unregister",
    "resolve",
    "bind",
    "unbind",
    "lookup",
    "describe",
    "validate",
    "commit",
    "rollback",
    "begin",
    "suspend",
    "resume",
    "notify",
    "subscribe",
    "unsubscribe",
    "forward",
    "locate",
    "activate",
    "deactivate",
    "shutdown",
    "ping",
    "calibrate",
    "arm",
    "disarm",
    "flush",
    "open",
    "close",
    "read",
    "write",
    "seek",
    "lock",
    "unlock",
    "acquire",
    "release",
    "publish",
];

/// Nouns, some compound.
const NOUNS: &[&str] = &[
    "position",
    "velocity",
    "velocity_limit",
    "altitude",
    "heading",
    "battery_level",
    "mode",
    "target",
    "waypoint",
    "status",
    "temperature",
    "pressure",
    "gain",
    "offset",
    "timeout",
    "priority",
    "name",
    "id",
    "channel",
    "consumer",
    "supplier",
    "event",
    "event_channel",
    "proxy_push_consumer",
    "proxy_pull_supplier",
    "naming_context",
    "binding",
    "binding_iterator",
    "object",
    "servant",
    "policy",
    "policy_list",
    "transaction",
    "resource",
    "coordinator",
    "terminator",
    "mission",
    "sensor",
    "axis",
    "callback",
    "log",
    "log_record",
    "statistics",
    "capabilities",
    "firmware_version",
    "configuration",
    "property",
    "property_set",
    "timer",
    "alarm",
    "threshold",
    "filter",
    "constraint",
    "admin",
    "factory",
    "lease",
    "session",
    "user",
    "group",
    "member",
    "file",
    "directory",
    "stream",
    "buffer",
    "frame",
    "packet",
    "route",
];

/// Optional suffixes, making longer names with a shared stem.
const SUFFIXES: &[&str] = &[
    "",
    "",
    "",
    "",
    "",
    "_list",
    "_count",
    "_for_axis",
    "_by_name",
    "_async",
    "_ex",
    "2",
    "_with_timeout",
    "_all",
];

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[(self.next() % from.len() as u64) as usize]
    }
}

/// `count` distinct names: about a quarter accessor pairs, a quarter
/// attribute accessors, half verb-noun operations.
pub(crate) fn operation_names(count: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng(seed | 1);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let noun = format!("{}{}", rng.pick(NOUNS), rng.pick(SUFFIXES));
        let batch: Vec<String> = match rng.next() % 4 {
            0 => vec![format!("get_{noun}"), format!("set_{noun}")],
            1 => vec![format!("_get_{noun}"), format!("_set_{noun}")],
            _ => vec![format!("{}_{noun}", rng.pick(VERBS))],
        };
        for name in batch {
            if out.len() < count && seen.insert(name.clone()) {
                out.push(name);
            }
        }
    }
    out
}

/// `count` names like those of [`operation_names`] that are not in
/// `known`: what a client of another version of the interface might send.
pub(crate) fn unknown_names(known: &[String], count: usize, seed: u64) -> Vec<String> {
    let known: std::collections::HashSet<&str> = known.iter().map(String::as_str).collect();
    let mut out = Vec::with_capacity(count);
    let mut more = operation_names(known.len() + 4 * count + 64, seed);
    more.retain(|n| !known.contains(n.as_str()));
    for n in more {
        if out.len() == count {
            break;
        }
        out.push(n);
    }
    out
}
