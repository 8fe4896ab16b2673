//! `rtorb-bench priority --flood`: each point again with a hostile peer
//! aimed at the `Low` object's own endpoint, to see whether a flood on
//! the low-priority side moves C0.
//!
//! The attacker is the overload benchmark's ([`Attack`]): threads of
//! this process, which runs under SCHED_OTHER, started before the
//! client and stopped once it has reported. In the real-time
//! configuration they are kept off the CPU of C0 and the high lane
//! ([`Configuration::other_cpus`]): over loopback, the kernel's protocol
//! work for a sender's packets runs on the sender's CPU, where on a
//! network it would run on the CPU the interface's interrupts are steered
//! to, which a real-time system keeps away from its high-priority path
//! (the low lane runs on those CPUs too). Where it aims is asked of the
//! server with a `LocateRequest` for `Low` at the URL the server printed: the real-time server forwards it to the low lane's endpoint
//! (the first IIOP profile of the forwarded reference), the others
//! answer that the object is there (the server's port).
//!
//! The kinds:
//!
//! - `connections`: [`CONNECTIONS`] connections that never send a byte;
//! - `garbage`: connections that send random bytes, connecting again
//!   each time the server closes them;
//! - `half-messages`: [`CONNECTIONS`] connections that send half a GIOP
//!   header and stall;
//! - `unread-replies`: connections that send large `cube_octet_sequence`
//!   requests back to back and never read the replies.
//!
//! The floods' figures are reported beside the unflooded ones, with
//! whether C0's targets hold under each ([`super::targets`]): its mean within
//! +10% of its unflooded mean at the smallest n (n = 1 by default), no
//! missed call, and its p99 within twice its mean, at every n.
//!
//! [`Configuration::other_cpus`]: super::config::Configuration::other_cpus

use std::collections::BTreeMap;
use std::io::Write;
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, Version};
use rtorb_giop::ObjectReference;
use rtorb_giop::corbaloc::{Corbaloc, Location, ObjAddr};
use rtorb_giop::encode_message;
use rtorb_giop::message::{Content, LocateRequest, LocateStatus, Message};
use rtorb_giop::target::TargetAddress;
use serde::Serialize;

use super::client::ClientReport;
use super::schedule::RateSet;
use crate::attack::{Attack, Details, Scenario, Sizes};
use crate::giop_client::{self, MAX_REPLY};

/// Connections of the `connections` and `half-messages` floods.
pub(crate) const CONNECTIONS: usize = 2000;
/// How long the attacker runs before the client starts, so that the
/// measured window sees the flood in full.
const LEAD: Duration = Duration::from_secs(1);
/// How long finding the target may take.
const LOCATE_TIMEOUT: Duration = Duration::from_secs(5);

/// A `--flood` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FloodArg {
    /// Thousands of idle connections.
    Connections,
    /// Connections sending random bytes.
    Garbage,
    /// Connections sending half a GIOP header, then nothing.
    HalfMessages,
    /// A client sending large requests that never reads the replies.
    UnreadReplies,
    /// Every kind.
    All,
}

/// One kind of flood.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Flood {
    /// Thousands of idle connections.
    Connections,
    /// Connections sending random bytes.
    Garbage,
    /// Connections sending half a GIOP header.
    HalfMessages,
    /// Large requests whose replies are never read.
    UnreadReplies,
}

impl Flood {
    /// Every kind, in the order they run.
    const ALL: [Flood; 4] = [
        Flood::Connections,
        Flood::Garbage,
        Flood::HalfMessages,
        Flood::UnreadReplies,
    ];

    /// The kinds `args` select, each once, in the order they run.
    pub(crate) fn select(args: &[FloodArg]) -> Vec<Flood> {
        let all = args.contains(&FloodArg::All);
        Flood::ALL
            .into_iter()
            .filter(|f| {
                all || args.iter().any(|a| match a {
                    FloodArg::Connections => *f == Flood::Connections,
                    FloodArg::Garbage => *f == Flood::Garbage,
                    FloodArg::HalfMessages => *f == Flood::HalfMessages,
                    FloodArg::UnreadReplies => *f == Flood::UnreadReplies,
                    FloodArg::All => true,
                })
            })
            .collect()
    }

    /// The name on the command line and in the results.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Flood::Connections => "connections",
            Flood::Garbage => "garbage",
            Flood::HalfMessages => "half-messages",
            Flood::UnreadReplies => "unread-replies",
        }
    }

    fn scenario(self) -> Scenario {
        match self {
            Flood::Connections => Scenario::IdleFlood(CONNECTIONS),
            Flood::Garbage => Scenario::Garbage,
            Flood::HalfMessages => Scenario::HalfHeaderFlood(CONNECTIONS),
            Flood::UnreadReplies => Scenario::UnreadReplies,
        }
    }
}

/// The attacker's sizes: those the kinds above use (the others unused).
fn sizes() -> Sizes {
    Sizes {
        flood_connections: 0,
        flood_body: 0,
        announced: 0,
        unread_connections: 4,
        unread_request: 1 << 20,
        garbage_connections: 4,
        fragment_connections: 0,
        fragment_size: 0,
        flood_threads: 4,
        churn_threads: 0,
        cancel_connections: 0,
    }
}

/// A flood under way.
pub(crate) struct Running {
    flood: Flood,
    target: SocketAddr,
    attack: Attack,
}

/// What a flood did in one point, and the client's report under it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct FloodPoint {
    /// Where it was aimed (`host:port`).
    pub(crate) target: String,
    /// What the attacker counted.
    pub(crate) attacker: Details,
    /// The client's figures.
    pub(crate) client: ClientReport,
}

/// Starts `flood` against the endpoint of the object at `low_url`, its
/// threads kept on `cpus` (any CPU when empty), and gives it [`LEAD`] to
/// get going.
pub(crate) fn start(flood: Flood, low_url: &str, cpus: &[usize]) -> Result<Running, String> {
    let (target, key) = locate(low_url)?;
    let attack = on_cpus(cpus, || {
        Attack::start(flood.scenario(), target, &key, &sizes())
            .map_err(|e| format!("flood {}: {e}", flood.name()))
    })?;
    std::thread::sleep(LEAD);
    Ok(Running {
        flood,
        target,
        attack,
    })
}

impl Running {
    /// Stops the flood; what it did, with the client's `report`.
    pub(crate) fn finish(self, client: ClientReport) -> (Flood, FloodPoint) {
        let point = FloodPoint {
            target: self.target.to_string(),
            attacker: self.attack.finish(),
            client,
        };
        (self.flood, point)
    }
}

/// Runs `start` with the calling thread kept on `cpus` (unless empty), so
/// that the threads it starts, which inherit the calling thread's CPUs,
/// run there; then gives the calling thread its CPUs back.
fn on_cpus<T>(cpus: &[usize], start: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    if cpus.is_empty() {
        return start();
    }
    let mine = rtorb::rt::thread_affinity().map_err(|e| e.to_string())?;
    rtorb::rt::set_thread_affinity(cpus).map_err(|e| format!("the attacker's CPUs: {e}"))?;
    let started = start();
    rtorb::rt::set_thread_affinity(&mine).map_err(|e| e.to_string())?;
    started
}

/// The address and key of the object at the IIOP `corbaloc` `url`, as
/// its server tells a `LocateRequest`: forwarded elsewhere (a lane), or
/// there.
fn locate(url: &str) -> Result<(SocketAddr, Bytes), String> {
    let loc = Corbaloc::parse(url).map_err(|e| format!("{url}: {e}"))?;
    let Location::Addresses(addresses) = &loc.location else {
        return Err(format!("{url}: no address"));
    };
    let Some(ObjAddr::Iiop(iiop)) = addresses.first() else {
        return Err(format!("{url}: not an IIOP address"));
    };
    let port = iiop.port.unwrap_or(2809);
    let at = resolve(&iiop.host.to_profile_host(), port)?;
    let mut s =
        TcpStream::connect_timeout(&at, LOCATE_TIMEOUT).map_err(|e| format!("{at}: {e}"))?;
    s.set_read_timeout(Some(LOCATE_TIMEOUT))
        .and_then(|()| s.set_write_timeout(Some(LOCATE_TIMEOUT)))
        .map_err(|e| e.to_string())?;
    let request = Message::new(
        Version::V1_2,
        ByteOrder::NATIVE,
        Content::LocateRequest(LocateRequest {
            request_id: 1,
            target: TargetAddress::Key(loc.key.clone()),
        }),
    );
    let bytes = encode_message(&request).map_err(|e| e.to_string())?;
    s.write_all(&bytes).map_err(|e| format!("{at}: {e}"))?;
    let message = giop_client::read_message(&mut s, MAX_REPLY)
        .map_err(|e| format!("{at}: no GIOP answer to a LocateRequest: {e}"))?;
    let Content::LocateReply(reply) = message.content else {
        return Err(format!("{at}: no LocateReply"));
    };
    match reply.status {
        LocateStatus::ObjectHere => Ok((at, loc.key)),
        LocateStatus::ObjectForward(ior) | LocateStatus::ObjectForwardPerm(ior) => {
            let to = ObjectReference::from_ior(&ior).map_err(|e| e.to_string())?;
            let (host, port) = to
                .first_iiop_endpoint()
                .ok_or_else(|| format!("{at}: forwarded to no IIOP endpoint"))?;
            let key = to
                .object_key()
                .cloned()
                .ok_or_else(|| format!("{at}: forwarded to no object key"))?;
            Ok((resolve(host, port)?, key))
        }
        other => Err(format!("{at}: the object is not there: {other:?}")),
    }
}

fn resolve(host: &str, port: u16) -> Result<SocketAddr, String> {
    (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("{host}:{port}: {e}"))?
        .next()
        .ok_or_else(|| format!("{host}:{port}: no address"))
}

/// Whether C0's targets hold under one flood, for one configuration and
/// rate set.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Verdict {
    /// The flood.
    pub(crate) flood: Flood,
    /// The configuration.
    pub(crate) configuration: String,
    /// The rate set.
    pub(crate) rates: &'static str,
    /// C0's unflooded mean at the smallest n, µs.
    pub(crate) baseline_mean_us: f64,
    /// The smallest n.
    pub(crate) baseline_n: u32,
    /// Every target held at every n.
    pub(crate) holds: bool,
    /// The targets missed.
    pub(crate) misses: Vec<String>,
}

/// One configuration's points under one flood: rate set → n → point.
type ByRates = BTreeMap<&'static str, BTreeMap<u32, FloodPoint>>;

/// The floods' figures: flood → configuration → rate set → n → point,
/// and the verdicts.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct FloodResults {
    /// The kinds run.
    pub(crate) kinds: Vec<Flood>,
    /// The points.
    pub(crate) results: BTreeMap<Flood, BTreeMap<String, ByRates>>,
    /// Whether C0's targets hold under each flood.
    pub(crate) targets: Vec<Verdict>,
    /// The points that could not be measured under their flood (the
    /// client or the server gave up): a flood's result too.
    pub(crate) failed: Vec<FailedPoint>,
}

/// A point that failed under its flood.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct FailedPoint {
    /// The flood.
    pub(crate) flood: Flood,
    /// The configuration.
    pub(crate) configuration: String,
    /// The rate set.
    pub(crate) rates: &'static str,
    /// The number of low threads.
    pub(crate) n: u32,
    /// What went wrong.
    pub(crate) reason: String,
}

impl FloodResults {
    /// Files `point`.
    pub(crate) fn insert(
        &mut self,
        configuration: String,
        rates: RateSet,
        n: u32,
        (flood, point): (Flood, FloodPoint),
    ) {
        self.results
            .entry(flood)
            .or_default()
            .entry(configuration)
            .or_default()
            .entry(rates.name())
            .or_default()
            .insert(n, point);
    }

    /// Why the point failed under `flood`, if it did.
    pub(super) fn failure(
        &self,
        flood: Flood,
        configuration: &str,
        rates: RateSet,
        n: u32,
    ) -> Option<&FailedPoint> {
        self.failed.iter().find(|f| {
            f.flood == flood
                && f.configuration == configuration
                && f.rates == rates.name()
                && f.n == n
        })
    }

    pub(super) fn get(
        &self,
        flood: Flood,
        configuration: &str,
        rates: RateSet,
        n: u32,
    ) -> Option<&FloodPoint> {
        self.results
            .get(&flood)?
            .get(configuration)?
            .get(rates.name())?
            .get(&n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_selects_every_kind_once_in_order() {
        assert_eq!(Flood::select(&[FloodArg::All]), Flood::ALL);
        assert_eq!(
            Flood::select(&[
                FloodArg::UnreadReplies,
                FloodArg::Garbage,
                FloodArg::Garbage
            ]),
            [Flood::Garbage, Flood::UnreadReplies]
        );
        assert!(Flood::select(&[]).is_empty());
    }

    /// An object that answers nothing but `LocateRequest`s.
    struct Nothing;

    impl rtorb::servant::Skeleton for Nothing {
        fn repository_ids(&self) -> &'static [&'static str] {
            &["IDL:Nothing:1.0"]
        }

        fn dispatch(
            &self,
            _: &mut rtorb::servant::ServerRequest<'_>,
        ) -> Result<(), rtorb::exception::SystemException> {
            Err(rtorb::exception::bad_operation())
        }
    }

    fn port_of(endpoint: &str) -> u16 {
        endpoint
            .trim_end_matches('/')
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap()
    }

    #[test]
    fn the_target_is_the_server_s_port_or_the_lane_it_forwards_to() {
        use rtorb::rt::{LaneConfig, Priority, PriorityModelPolicy, SchedPolicy, ThreadpoolConfig};
        let orb = rtorb::orb::Orb::builder()
            .listen("iiop://127.0.0.1:0")
            .sched_policy(SchedPolicy::Other)
            .build()
            .unwrap();
        let main = port_of(&orb.endpoints()[0]);
        orb.activate_with_key(&b"Here"[..], std::sync::Arc::new(Nothing))
            .unwrap();
        let (at, key) = locate(&format!("corbaloc::1.2@127.0.0.1:{main}/Here")).unwrap();
        assert_eq!((at.port(), &key[..]), (main, &b"Here"[..]));
        assert_eq!(
            locate(&format!("corbaloc::1.2@127.0.0.1:{main}/None")),
            Err(format!(
                "127.0.0.1:{main}: the object is not there: UnknownObject"
            ))
        );

        let low = Priority::MIN;
        let pool = orb
            .create_threadpool(ThreadpoolConfig::new().lane(LaneConfig::new(low).static_threads(1)))
            .unwrap();
        orb.activate_with_key_at(
            &b"Low"[..],
            std::sync::Arc::new(Nothing),
            PriorityModelPolicy::server_declared(low),
        )
        .unwrap();
        let lane = port_of(&orb.lane_endpoints(pool).unwrap()[0].1[0]);
        assert_ne!(lane, main);
        let (at, key) = locate(&format!("corbaloc::1.2@127.0.0.1:{main}/Low")).unwrap();
        assert_eq!((at.port(), &key[..]), (lane, &b"Low"[..]));
        orb.shutdown();
    }

    #[test]
    fn a_point_that_failed_under_a_flood_is_found_by_its_coordinates() {
        let results = FloodResults {
            kinds: vec![Flood::ALL[0]],
            failed: vec![FailedPoint {
                flood: Flood::ALL[0],
                configuration: "omniORB".into(),
                rates: RateSet::Scaled.name(),
                n: 10,
                reason: "warm-up call timed out".into(),
            }],
            ..FloodResults::default()
        };
        let f = results.failure(Flood::ALL[0], "omniORB", RateSet::Scaled, 10);
        assert_eq!(f.map(|f| f.reason.as_str()), Some("warm-up call timed out"));
        assert!(
            results
                .failure(Flood::ALL[0], "omniORB", RateSet::Scaled, 1)
                .is_none()
        );
        assert!(
            results
                .failure(Flood::ALL[0], "omniORB", RateSet::Seed, 10)
                .is_none()
        );
    }
}
