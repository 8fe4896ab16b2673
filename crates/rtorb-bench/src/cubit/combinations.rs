//! The combinations of the Cubit comparison: which server and which
//! client each row runs, over which transport; and the rows they give,
//! merged over rounds.

use serde::Serialize;

use crate::cubit_server::ServerOpStats;
use crate::stats::{ByOp, OpStats};

/// The transport a combination runs over, for its floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(super) enum Transport {
    /// TCP (IIOP).
    Tcp,
    /// Unix-domain sockets (UIOP).
    Unix,
}

/// A server to start.
#[derive(Debug, Clone)]
pub(super) enum ServerKind {
    /// `rtorb-bench cubit-server --endpoint E`.
    Rtorb(String),
    /// `rtorb-bench raw-server --endpoint E`.
    Raw(String),
    /// omniORB's `cubit_server` with `-ORBendPoint E` (`giop:tcp:...`,
    /// `giop:unix:...`).
    Omni(String),
}

/// A client to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ClientKind {
    /// `rtorb-bench cubit-client`.
    Rtorb,
    /// `rtorb-bench raw-client`.
    Raw,
    /// omniORB's `cubit_bench`.
    Omni,
}

/// One row of the comparison.
#[derive(Debug, Clone)]
pub(super) struct Combination {
    /// The row's label.
    pub(super) label: &'static str,
    /// Its transport.
    pub(super) transport: Transport,
    /// The server to start.
    pub(super) server: ServerKind,
    /// The client to run against it.
    pub(super) client: ClientKind,
}

/// What one combination measured, with the server's counts.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Row {
    /// The combination's label.
    pub(super) label: &'static str,
    /// Its transport.
    pub(super) transport: Transport,
    /// What the client measured.
    pub(super) client: ByOp<OpStats>,
    /// What the server counted (nothing for the floor and omniORB).
    pub(super) server: ByOp<ServerOpStats>,
}

/// The rows of several rounds (each in the same order of combinations)
/// as one row per combination ([`OpStats::over_rounds`],
/// [`ServerOpStats::over_rounds`]).
pub(super) fn over_rounds(rounds: &[Vec<Row>]) -> Vec<Row> {
    let Some(first) = rounds.first() else {
        return Vec::new();
    };
    first
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let same: Vec<&Row> = rounds.iter().filter_map(|r| r.get(i)).collect();
            Row {
                label: row.label,
                transport: row.transport,
                client: per_op(&same, |r| &r.client, OpStats::over_rounds),
                server: per_op(&same, |r| &r.server, ServerOpStats::over_rounds),
            }
        })
        .collect()
}

/// For each operation of the first of `rows`, `combine` of its values in
/// every row (as `side` picks them) that has it.
fn per_op<T>(
    rows: &[&Row],
    side: impl Fn(&Row) -> &ByOp<T>,
    combine: impl Fn(&[&T]) -> Option<T>,
) -> ByOp<T> {
    let Some(first) = rows.first() else {
        return ByOp::default();
    };
    ByOp(
        side(first)
            .0
            .iter()
            .filter_map(|(op, _)| {
                let each: Vec<&T> = rows.iter().filter_map(|r| side(r).get(op)).collect();
                combine(&each).map(|v| (op.clone(), v))
            })
            .collect(),
    )
}

/// omniORB's TCP endpoint: the loopback address, any port.
const OMNI_TCP: &str = "giop:tcp:127.0.0.1:";

/// Every combination of one round, in the order of the table; the Unix
/// sockets at paths `socket` hands out, omniORB's rows only where it is
/// `omniorb`.
pub(super) fn combinations(mut socket: impl FnMut() -> String, omniorb: bool) -> Vec<Combination> {
    let tcp = "iiop://127.0.0.1:0".to_owned();
    let tcp_lite = "iiop://127.0.0.1:0?giop=lite".to_owned();
    let unix = format!("uiop://{}", socket());
    let unix_lite = format!("uiop://{}?giop=lite", socket());
    let raw_unix = format!("unix://{}", socket());
    let omni_unix = format!("giop:unix:{}", socket());
    let mut v = vec![
        Combination {
            label: "raw TCP (floor)",
            transport: Transport::Tcp,
            server: ServerKind::Raw("tcp://127.0.0.1:0".to_owned()),
            client: ClientKind::Raw,
        },
        Combination {
            label: "rtorb IIOP",
            transport: Transport::Tcp,
            server: ServerKind::Rtorb(tcp.clone()),
            client: ClientKind::Rtorb,
        },
        Combination {
            label: "rtorb IIOP GIOPlite",
            transport: Transport::Tcp,
            server: ServerKind::Rtorb(tcp_lite),
            client: ClientKind::Rtorb,
        },
    ];
    if omniorb {
        v.extend([
            Combination {
                label: "omniORB IIOP",
                transport: Transport::Tcp,
                server: ServerKind::Omni(OMNI_TCP.to_owned()),
                client: ClientKind::Omni,
            },
            Combination {
                label: "rtorb -> omniORB",
                transport: Transport::Tcp,
                server: ServerKind::Omni(OMNI_TCP.to_owned()),
                client: ClientKind::Rtorb,
            },
            Combination {
                label: "omniORB -> rtorb",
                transport: Transport::Tcp,
                server: ServerKind::Rtorb(tcp),
                client: ClientKind::Omni,
            },
        ]);
    }
    v.extend([
        Combination {
            label: "raw Unix (floor)",
            transport: Transport::Unix,
            server: ServerKind::Raw(raw_unix),
            client: ClientKind::Raw,
        },
        Combination {
            label: "rtorb UIOP",
            transport: Transport::Unix,
            server: ServerKind::Rtorb(unix),
            client: ClientKind::Rtorb,
        },
        Combination {
            label: "rtorb UIOP GIOPlite",
            transport: Transport::Unix,
            server: ServerKind::Rtorb(unix_lite),
            client: ClientKind::Rtorb,
        },
    ]);
    if omniorb {
        v.push(Combination {
            label: "omniORB Unix",
            transport: Transport::Unix,
            server: ServerKind::Omni(omni_unix),
            client: ClientKind::Omni,
        });
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(mean: f64) -> OpStats {
        OpStats {
            calls: 10,
            calls_per_s: 1e6 / mean,
            mean_us: mean,
            p50_us: mean,
            p99_us: mean,
            p999_us: mean,
            max_us: mean,
            allocs: Some(0.0),
            locks: Some(1.0),
            stages_us: None,
        }
    }

    fn row(label: &'static str, void: f64, long: f64, server_allocs: f64) -> Row {
        Row {
            label,
            transport: Transport::Unix,
            client: ByOp(vec![
                ("void".to_owned(), stats(void)),
                ("long".to_owned(), stats(long)),
            ]),
            server: ByOp(vec![(
                "void".to_owned(),
                ServerOpStats {
                    turns: 9,
                    allocs: server_allocs,
                    locks: None,
                    stages_us: None,
                },
            )]),
        }
    }

    #[test]
    fn rounds_merge_per_combination_and_operation() {
        let rounds = vec![
            vec![
                row("raw Unix (floor)", 4.0, 4.1, 0.0),
                row("rtorb UIOP", 5.0, 5.2, 0.0),
            ],
            vec![
                row("raw Unix (floor)", 6.0, 4.3, 0.0),
                row("rtorb UIOP", 4.8, 5.0, 2.0),
            ],
            vec![
                row("raw Unix (floor)", 4.4, 4.2, 0.0),
                row("rtorb UIOP", 9.0, 5.1, 0.0),
            ],
        ];
        let rows = over_rounds(&rounds);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].label, "raw Unix (floor)");
        assert_eq!(rows[0].client.get("void").unwrap().mean_us, 4.4);
        assert_eq!(rows[0].client.get("long").unwrap().mean_us, 4.2);
        assert_eq!(rows[1].client.get("void").unwrap().mean_us, 5.0);
        assert_eq!(rows[1].client.get("void").unwrap().calls, 30);
        let server = rows[1].server.get("void").unwrap();
        assert_eq!((server.turns, server.allocs), (27, 2.0));
        assert!(over_rounds(&[]).is_empty());
    }
}
