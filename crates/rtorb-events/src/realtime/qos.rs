//! What the other stages share: the ids of consumers and suppliers, a
//! filter normalised for matching ([`MaskedFilter`]), the bounds a
//! consumer's or a supplier's QoS must keep ([`QosLimits`]) and the
//! check of a QoS against them ([`check_consumer_qos`],
//! [`check_supplier_qos`]).

use crate::idl::rtorb_event::{
    ANY_SOURCE, ANY_TYPE, ConsumerQos, EventFilter, EventHeader, GroupKind, SupplierQos,
    TimeoutKind,
};

/// A consumer of the real-time channel, as the channel numbers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConsumerId(pub u64);

/// A supplier of the real-time channel, as the channel numbers them (not
/// the source id its events carry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SupplierId(pub u64);

/// What the stages need of an event: its type and its source. The
/// generated `Event` and `EventHeader` have them; the stages keep the
/// event itself opaque.
pub trait Routed {
    /// The event's type.
    fn event_type(&self) -> u32;
    /// The event's source.
    fn source(&self) -> u32;
}

impl Routed for EventHeader {
    fn event_type(&self) -> u32 {
        self.r#type
    }
    fn source(&self) -> u32 {
        self.source
    }
}

impl Routed for crate::idl::rtorb_event::Event {
    fn event_type(&self) -> u32 {
        self.header.r#type
    }
    fn source(&self) -> u32 {
        self.header.source
    }
}

/// An `EventFilter` normalised: a wildcard (0) has a mask of 0, and each
/// value keeps only the bits of its mask. An event passes when
/// `(type & type_mask) == type_value` and likewise for its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MaskedFilter {
    /// The type's bits that count.
    pub type_mask: u32,
    /// The type, masked.
    pub type_value: u32,
    /// The source's bits that count.
    pub source_mask: u32,
    /// The source, masked.
    pub source_value: u32,
}

impl MaskedFilter {
    /// The filter `f` normalised.
    pub fn new(f: &EventFilter) -> MaskedFilter {
        let type_mask = if f.r#type == ANY_TYPE { 0 } else { f.type_mask };
        let source_mask = if f.source == ANY_SOURCE {
            0
        } else {
            f.source_mask
        };
        MaskedFilter {
            type_mask,
            type_value: f.r#type & type_mask,
            source_mask,
            source_value: f.source & source_mask,
        }
    }

    /// Whether an event of `event_type` from `source` passes.
    pub fn passes(&self, event_type: u32, source: u32) -> bool {
        event_type & self.type_mask == self.type_value
            && source & self.source_mask == self.source_value
    }

    /// Whether some event passes both this filter and `other`: they
    /// differ on no bit that both masks keep.
    pub fn overlaps(&self, other: &MaskedFilter) -> bool {
        (self.type_value ^ other.type_value) & self.type_mask & other.type_mask == 0
            && (self.source_value ^ other.source_value) & self.source_mask & other.source_mask == 0
    }
}

/// The most a consumer's or a supplier's QoS may ask for; more is
/// refused with a [`QosError`] before anything is allocated for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QosLimits {
    /// Dependency groups of one consumer.
    pub max_groups: usize,
    /// Filters of one consumer, all its groups together.
    pub max_filters: usize,
    /// Timeouts of one consumer.
    pub max_timeouts: usize,
    /// Publications of one supplier.
    pub max_publications: usize,
    /// Distinct pairs of masks among all the channel's subscriptions:
    /// matching an event costs a hash lookup per pair.
    pub max_mask_pairs: usize,
}

/// The most filters a conjunction may have: its arrivals are the bits of
/// a `u64`.
pub const MAX_CONJUNCTION_FILTERS: usize = 64;

impl Default for QosLimits {
    fn default() -> QosLimits {
        QosLimits {
            max_groups: 64,
            max_filters: 1024,
            max_timeouts: 16,
            max_publications: 1024,
            max_mask_pairs: 32,
        }
    }
}

/// Why a consumer's or a supplier's QoS is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QosError {
    /// More dependency groups than [`QosLimits::max_groups`].
    #[error("{given} dependency groups; at most {most}")]
    TooManyGroups {
        /// Asked for.
        given: usize,
        /// The limit.
        most: usize,
    },
    /// More filters than [`QosLimits::max_filters`].
    #[error("{given} filters; at most {most}")]
    TooManyFilters {
        /// Asked for.
        given: usize,
        /// The limit.
        most: usize,
    },
    /// A conjunction of more than [`MAX_CONJUNCTION_FILTERS`] filters.
    #[error("group {group}: a conjunction of {given} filters; at most {MAX_CONJUNCTION_FILTERS}")]
    ConjunctionTooLarge {
        /// The group's index.
        group: usize,
        /// Its filters.
        given: usize,
    },
    /// A group with no filter, which nothing could satisfy.
    #[error("group {group} has no filter")]
    EmptyGroup {
        /// The group's index.
        group: usize,
    },
    /// More timeouts than [`QosLimits::max_timeouts`].
    #[error("{given} timeouts; at most {most}")]
    TooManyTimeouts {
        /// Asked for.
        given: usize,
        /// The limit.
        most: usize,
    },
    /// An interval timeout of no length, which would never stop firing.
    #[error("timeout {index}: an interval of 0")]
    ZeroInterval {
        /// The timeout's index.
        index: usize,
    },
    /// More publications than [`QosLimits::max_publications`].
    #[error("{given} publications; at most {most}")]
    TooManyPublications {
        /// Asked for.
        given: usize,
        /// The limit.
        most: usize,
    },
    /// The subscription would bring the channel's distinct mask pairs
    /// past [`QosLimits::max_mask_pairs`].
    #[error("the channel's subscriptions would use more than {most} distinct mask pairs")]
    TooManyMaskPairs {
        /// The limit.
        most: usize,
    },
    /// The consumer or supplier is already known.
    #[error("already connected")]
    AlreadyConnected,
}

fn at_most(given: usize, most: usize, err: fn(usize, usize) -> QosError) -> Result<(), QosError> {
    if given > most {
        Err(err(given, most))
    } else {
        Ok(())
    }
}

/// Checks `qos` against `limits`.
pub fn check_consumer_qos(qos: &ConsumerQos, limits: &QosLimits) -> Result<(), QosError> {
    at_most(qos.groups.len(), limits.max_groups, |given, most| {
        QosError::TooManyGroups { given, most }
    })?;
    let filters = qos.groups.iter().map(|g| g.filters.len()).sum();
    at_most(filters, limits.max_filters, |given, most| {
        QosError::TooManyFilters { given, most }
    })?;
    for (group, g) in qos.groups.iter().enumerate() {
        if g.filters.is_empty() {
            return Err(QosError::EmptyGroup { group });
        }
        if g.kind == GroupKind::Conjunction && g.filters.len() > MAX_CONJUNCTION_FILTERS {
            return Err(QosError::ConjunctionTooLarge {
                group,
                given: g.filters.len(),
            });
        }
    }
    at_most(qos.timeouts.len(), limits.max_timeouts, |given, most| {
        QosError::TooManyTimeouts { given, most }
    })?;
    for (index, t) in qos.timeouts.iter().enumerate() {
        if t.kind == TimeoutKind::Interval && t.span == 0 {
            return Err(QosError::ZeroInterval { index });
        }
    }
    Ok(())
}

/// Checks `qos` against `limits`.
pub fn check_supplier_qos(qos: &SupplierQos, limits: &QosLimits) -> Result<(), QosError> {
    at_most(
        qos.publications.len(),
        limits.max_publications,
        |given, most| QosError::TooManyPublications { given, most },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idl::rtorb_event::{DependencyGroup, TimeoutRequest};
    use proptest::prelude::*;

    fn filter(t: u32, tm: u32, s: u32, sm: u32) -> EventFilter {
        EventFilter {
            r#type: t,
            type_mask: tm,
            source: s,
            source_mask: sm,
        }
    }

    #[test]
    fn wildcards_and_masks_pass_what_they_say() {
        let exact = MaskedFilter::new(&filter(20, !0, 7, !0));
        assert!(exact.passes(20, 7));
        assert!(!exact.passes(21, 7));
        assert!(!exact.passes(20, 8));
        let any_type = MaskedFilter::new(&filter(ANY_TYPE, !0, 7, !0));
        assert!(any_type.passes(12345, 7));
        let low_byte = MaskedFilter::new(&filter(0x0120, 0xff, ANY_SOURCE, 0));
        assert!(low_byte.passes(0x7720, 99));
        assert!(!low_byte.passes(0x7721, 99));
    }

    #[test]
    fn overlapping_filters_share_an_event() {
        let a = MaskedFilter::new(&filter(0x10, 0xf0, 0, 0));
        let b = MaskedFilter::new(&filter(0x13, !0, 5, !0));
        let c = MaskedFilter::new(&filter(0x23, !0, 5, !0));
        assert!(a.overlaps(&b) && b.overlaps(&a));
        assert!(!a.overlaps(&c));
    }

    #[test]
    fn hostile_qos_is_refused_with_what_is_wrong() {
        let limits = QosLimits::default();
        let many = ConsumerQos {
            groups: vec![DependencyGroup {
                filters: vec![filter(20, !0, 0, 0); 5000],
                ..DependencyGroup::default()
            }],
            timeouts: vec![],
        };
        assert_eq!(
            check_consumer_qos(&many, &limits),
            Err(QosError::TooManyFilters {
                given: 5000,
                most: 1024
            })
        );
        let wide_and = ConsumerQos {
            groups: vec![DependencyGroup {
                kind: GroupKind::Conjunction,
                filters: vec![filter(20, !0, 0, 0); 65],
                ..DependencyGroup::default()
            }],
            timeouts: vec![],
        };
        assert_eq!(
            check_consumer_qos(&wide_and, &limits),
            Err(QosError::ConjunctionTooLarge {
                group: 0,
                given: 65
            })
        );
        let empty = ConsumerQos {
            groups: vec![DependencyGroup::default()],
            timeouts: vec![],
        };
        assert_eq!(
            check_consumer_qos(&empty, &limits),
            Err(QosError::EmptyGroup { group: 0 })
        );
        let zero = ConsumerQos {
            groups: vec![],
            timeouts: vec![TimeoutRequest {
                kind: TimeoutKind::Interval,
                span: 0,
            }],
        };
        assert_eq!(
            check_consumer_qos(&zero, &limits),
            Err(QosError::ZeroInterval { index: 0 })
        );
    }

    fn four_bit_filter() -> impl Strategy<Value = MaskedFilter> {
        (0u32..16, 0u32..16, 0u32..16, 0u32..16)
            .prop_map(|(t, tm, s, sm)| MaskedFilter::new(&filter(t, tm, s, sm)))
    }

    proptest! {
        /// Two filters overlap exactly when some event passes both: over
        /// four-bit types and sources, every event is tried.
        #[test]
        fn overlapping_agrees_with_trying_every_event(
            a in four_bit_filter(),
            b in four_bit_filter(),
        ) {
            let shared = (0u32..16)
                .flat_map(|t| (0u32..16).map(move |s| (t, s)))
                .any(|(t, s)| a.passes(t, s) && b.passes(t, s));
            prop_assert_eq!(a.overlaps(&b), shared);
        }
    }
}
