//! Which profiles of a target a call tries, and in which order.
//!
//! The usable profiles of a target are those a registered protocol can
//! reach, in the order of its reference; the first call works them out
//! and binds them to the target, later calls read the binding. A call
//! tries them in the order of the reference, or in the order of the
//! effective `ClientProtocolPolicy` (the reference's override, else the
//! thread's, else the ORB's; no match is `INV_POLICY` unless the policy
//! falls back to any usable profile).

use std::borrow::Cow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb_cdr::Encoding;
use rtorb_giop::ior::PriorityBand;
use rtorb_giop::{CompletionStatus, FrameProtocol, SystemException, SystemExceptionKind};

use super::pool::{Connections, Pool};
use super::request::Destination;
use super::system_exceptions::no_usable_profile;
use crate::codesets::{ClientCodeSets, CodeSetConfig};
use crate::minor::INV_POLICY_NO_PRIORITY_BAND;
use crate::object::Target;
use crate::policy::{ClientProtocolPolicy, Policy};
use crate::policy::{any_override, find};
use crate::rt::ExposedPolicies;
use crate::transport::Endpoint;

/// A profile to try.
#[derive(Debug)]
pub(super) struct Candidate {
    /// Where to connect.
    pub(super) endpoint: Box<dyn Endpoint>,
    /// The object key the profile carries.
    object_key: Bytes,
    /// The connections to the endpoint: one pool, or one per priority
    /// band.
    pools: Pools,
    /// The encoding of requests to it (the profile's GIOP version).
    encoding: Encoding,
    /// The code sets negotiated with the profile.
    codesets: ClientCodeSets,
    /// The profile exposes the `CLIENT_PROPAGATED` priority model: requests
    /// carry the calling thread's priority.
    propagates_priority: bool,
    /// The priority of the server's lane the profile's endpoint belongs to
    /// (rtorb's `TAG_RTORB_LANE_PRIORITY`), if it says.
    lane_priority: Option<i16>,
}

/// The connections a profile's calls use.
#[derive(Debug)]
enum Pools {
    /// Every call uses the one pool.
    One(Pool),
    /// A pool per priority band (`PriorityBandedConnectionPolicy`).
    Banded(Box<[(PriorityBand, Pool)]>),
}

impl Candidate {
    /// The pool of the calling thread's calls: its band's, where the
    /// connections are banded (`INV_POLICY` if its priority is in none).
    #[inline]
    pub(super) fn pool(&self) -> Result<&Pool, SystemException> {
        match &self.pools {
            Pools::One(pool) => Ok(pool),
            Pools::Banded(bands) => banded(bands),
        }
    }

    /// Every pool of the profile, each band's where they are banded.
    pub(super) fn pools(&self) -> impl Iterator<Item = &Pool> {
        let (one, bands) = match &self.pools {
            Pools::One(pool) => (Some(pool), &[][..]),
            Pools::Banded(bands) => (None, &bands[..]),
        };
        one.into_iter().chain(bands.iter().map(|(_, pool)| pool))
    }

    /// Where requests to the profile go, and how they are written.
    #[inline]
    pub(super) fn destination(&self) -> Destination<'_> {
        Destination {
            object_key: &self.object_key,
            encoding: self.encoding,
            codesets: &self.codesets,
            propagates_priority: self.propagates_priority,
        }
    }
}

/// The usable profiles of a target, in the order of its reference, as
/// one client core worked them out: kept in the target's binding.
#[derive(Debug)]
pub(super) struct Resolved {
    /// The id of the core that made it.
    core: u64,
    candidates: Vec<Candidate>,
}

/// The usable profiles of a target.
pub(super) enum Selected<'t> {
    /// From the target's binding.
    Bound(&'t Resolved),
    /// Worked out for this call only.
    Fresh(Resolved),
}

impl Selected<'_> {
    pub(super) fn candidates(&self) -> &[Candidate] {
        match self {
            Selected::Bound(r) => &r.candidates,
            Selected::Fresh(r) => &r.candidates,
        }
    }
}

/// The usable profiles of `target` for the client core `core`: from its
/// binding when that core has bound it, else worked out (and bound, if
/// nobody has).
#[inline]
pub(super) fn select<'t>(
    core: u64,
    target: &'t Target,
    connections: &Connections,
    code_sets: &CodeSetConfig,
) -> Result<Selected<'t>, SystemException> {
    let bound = target
        .binding()
        .get()
        .and_then(|b| b.downcast_ref::<Resolved>())
        .filter(|r| r.core == core);
    match bound {
        Some(r) => Ok(Selected::Bound(r)),
        None => bind(core, target, connections, code_sets),
    }
}

/// [`select`] for a target the core has not bound: works out its
/// profiles, and binds it if nobody has.
#[cold]
#[inline(never)]
fn bind<'t>(
    core: u64,
    target: &'t Target,
    connections: &Connections,
    code_sets: &CodeSetConfig,
) -> Result<Selected<'t>, SystemException> {
    let bound =
        |b: &'t crate::object::Binding| b.downcast_ref::<Resolved>().filter(|r| r.core == core);
    let resolved = Resolved {
        core,
        candidates: resolve(target, connections, code_sets)?,
    };
    if target.binding().get().is_none() {
        let _ = target.binding().set(Arc::new(resolved));
        if let Some(r) = target.binding().get().and_then(bound) {
            return Ok(Selected::Bound(r));
        }
        // Another thread bound it first, for another core.
        return Ok(Selected::Fresh(Resolved {
            core,
            candidates: resolve(target, connections, code_sets)?,
        }));
    }
    Ok(Selected::Fresh(resolved))
}

/// The pool of the band the calling thread's CORBA priority is in.
#[cold]
fn banded(bands: &[(PriorityBand, Pool)]) -> Result<&Pool, SystemException> {
    let priority = crate::rt::thread_priority();
    priority
        .and_then(|p| {
            bands
                .iter()
                .find(|(band, _)| band.low <= p.get() && p.get() <= band.high)
        })
        .map(|(_, pool)| pool)
        .ok_or_else(|| {
            let what = priority.map_or_else(|| "none set".to_owned(), |p| p.to_string());
            SystemException::new(
                SystemExceptionKind::InvPolicy,
                INV_POLICY_NO_PRIORITY_BAND,
                CompletionStatus::No,
            )
            .with_detail(format_args!(
                "the calling thread's CORBA priority ({what}) is in none of the bands {:?}",
                bands
                    .iter()
                    .map(|(b, _)| (b.low, b.high))
                    .collect::<Vec<_>>()
            ))
        })
}

/// The endpoint and object key of every usable profile, in the order of
/// the reference.
fn resolve(
    target: &Target,
    connections: &Connections,
    code_sets: &CodeSetConfig,
) -> Result<Vec<Candidate>, SystemException> {
    let reference = target.reference().ok_or_else(no_usable_profile)?;
    let overrides = target.policy_overrides();
    let private = overrides
        .iter()
        .any(|p| matches!(p, Policy::PrivateConnection));
    let bands = find(overrides, |p| match p {
        Policy::PriorityBandedConnection(b) => Some(b.clone()),
        _ => None,
    });
    let usable: Vec<Candidate> = reference
        .profiles
        .iter()
        .filter_map(|profile| {
            let endpoint = connections.registry().endpoint_from_profile(profile).ok()?;
            let object_key = profile
                .object_key()
                .cloned()
                .unwrap_or_else(|| target.object_key().clone());
            let exposed = ExposedPolicies::of(profile);
            let key = endpoint.to_string();
            let pool = |band: Option<PriorityBand>| match (private, band) {
                (true, _) => connections.private_pool(),
                (false, None) => connections.pool(key.clone()),
                (false, Some(b)) => connections.pool(format!("{key} band {}..={}", b.low, b.high)),
            };
            let pools = match bands.as_ref().or(exposed.priority_bands.as_ref()) {
                Some(bands) if !bands.is_empty() => {
                    Pools::Banded(bands.iter().map(|b| (*b, pool(Some(*b)))).collect())
                }
                _ => Pools::One(pool(None)),
            };
            let encoding = Encoding::native().with_version(endpoint.version());
            let codesets = match endpoint.messaging() {
                FrameProtocol::Giop => ClientCodeSets::for_profile(profile, code_sets),
                FrameProtocol::Lite => ClientCodeSets::lite(),
            };
            Some(Candidate {
                endpoint,
                object_key,
                pools,
                encoding,
                codesets,
                propagates_priority: exposed.propagates_priority(),
                lane_priority: crate::rt::lane_priority_of(profile).map(|p| p.get()),
            })
        })
        .collect();
    if usable.is_empty() {
        return Err(no_usable_profile());
    }
    Ok(usable)
}

/// The candidates in the order of `preference`: those of its first
/// protocol (in the order of the reference), then of the second, ..., then
/// the others if its fallback allows; all of them, in order, without one.
pub(super) fn ordered<'c>(
    candidates: &'c [Candidate],
    preference: Option<&'c ClientProtocolPolicy>,
) -> impl Iterator<Item = &'c Candidate> + 'c {
    // Without a preference, the reference's order as it is, from the
    // profile of the lane of the calling thread's priority where the
    // profiles are a server's lanes.
    let (plain, ranked) = match preference {
        None => (candidates, None),
        Some(p) => (&candidates[..0], Some(p)),
    };
    let first = match plain.first() {
        Some(c) if c.lane_priority.is_some() => lane_of_thread(plain),
        _ => 0,
    };
    let (before, from) = plain.split_at(first);
    let plain = from.iter().chain(before.iter());
    let ranks = ranked.map_or(0, |p| p.protocols.len() + 1);
    let ranked = (0..ranks).flat_map(move |rank| {
        candidates.iter().filter(move |c| {
            ranked.and_then(|p| p.rank(c.endpoint.protocol(), c.endpoint.messaging())) == Some(rank)
        })
    });
    plain.chain(ranked)
}

/// The index of the profile of the lane a call of the calling thread
/// goes to: the highest lane at or below the thread's CORBA priority, the
/// lowest lane where every lane is above it or the thread has none.
fn lane_of_thread(candidates: &[Candidate]) -> usize {
    let Some(at) = crate::rt::thread_priority().map(|p| p.get()) else {
        return 0;
    };
    let mut best: Option<(i16, usize)> = None;
    for (i, c) in candidates.iter().enumerate() {
        if let Some(p) = c.lane_priority
            && p <= at
            && best.is_none_or(|(b, _)| p > b)
        {
            best = Some((p, i));
        }
    }
    best.map_or(0, |(_, i)| i)
}

/// The policies in force for one call.
pub(super) struct Effective<'a> {
    pub(super) deadline: Option<Instant>,
    pub(super) protocol: Option<Cow<'a, ClientProtocolPolicy>>,
}

impl<'a> Effective<'a> {
    /// The deadline and protocol preference of a call to `target`
    /// starting now: the target's overrides, else the thread's, else the
    /// ORB's (`round_trip_timeout`, `client_protocol`).
    #[inline]
    pub(super) fn of(
        target: &Target,
        round_trip_timeout: Option<Duration>,
        client_protocol: Option<&'a ClientProtocolPolicy>,
    ) -> Effective<'a> {
        if !any_override(target.policy_overrides()) {
            return Effective {
                deadline: round_trip_timeout.map(|d| Instant::now() + d),
                protocol: client_protocol.map(Cow::Borrowed),
            };
        }
        Effective::overridden(target, round_trip_timeout, client_protocol)
    }

    /// [`Effective::of`] for a target with policy overrides.
    #[cold]
    #[inline(never)]
    fn overridden(
        target: &Target,
        round_trip_timeout: Option<Duration>,
        client_protocol: Option<&'a ClientProtocolPolicy>,
    ) -> Effective<'a> {
        let now = || Instant::now();
        let overrides = target.policy_overrides();
        let timeout = find(overrides, |p| match p {
            Policy::RelativeRoundtripTimeout(d) => Some(*d),
            _ => None,
        })
        .or(round_trip_timeout);
        let protocol = find(overrides, |p| match p {
            Policy::ClientProtocol(c) => Some(c.clone()),
            _ => None,
        })
        .map(Cow::Owned)
        .or_else(|| client_protocol.map(Cow::Borrowed));
        Effective {
            deadline: timeout.map(|d| now() + d),
            protocol,
        }
    }
}
