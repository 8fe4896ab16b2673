//! Consumer-based filtering: the channel's subscriptions compiled into a
//! [`SubscriptionIndex`] that finds the consumers an event matches.
//!
//! Filters are grouped by their pair of masks (a wildcard has a mask of
//! 0). For each pair the index holds a hash table from the masked
//! `(type, source)` to the filters that want it, so that matching an
//! event costs one hash lookup per distinct pair of masks (bounded by
//! [`QosLimits::max_mask_pairs`], a few in practice: exact, any type,
//! any source, any event) plus one step per filter it matches. Matching
//! allocates nothing; connecting and disconnecting a consumer update
//! the tables.

use std::collections::HashMap;

use crate::idl::rtorb_event::ConsumerQos;

use super::qos::{ConsumerId, MaskedFilter, QosError, QosLimits, check_consumer_qos};

/// A filter an event passed: which consumer's, in which of its groups,
/// which filter of the group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Match {
    /// The consumer.
    pub consumer: ConsumerId,
    /// The index of the dependency group in the consumer's QoS.
    pub group: u16,
    /// The index of the filter in its group.
    pub member: u16,
}

/// The filters of one pair of masks.
#[derive(Debug)]
struct MaskPair {
    type_mask: u32,
    source_mask: u32,
    /// Masked `(type, source)` → the filters that want it.
    wanted: HashMap<(u32, u32), Vec<Match>>,
    /// Filters in `wanted`, all keys together.
    filters: usize,
}

/// The channel's subscriptions, indexed for matching.
#[derive(Debug, Default)]
pub struct SubscriptionIndex {
    pairs: Vec<MaskPair>,
    /// Each consumer's filters, to take them out when it disconnects.
    consumers: HashMap<ConsumerId, Vec<MaskedFilter>>,
    limits: QosLimits,
}

impl SubscriptionIndex {
    /// An empty index whose subscriptions keep `limits`.
    pub fn new(limits: QosLimits) -> SubscriptionIndex {
        SubscriptionIndex {
            limits,
            ..SubscriptionIndex::default()
        }
    }

    /// Adds the subscriptions of `consumer`; on an error nothing changes.
    pub fn subscribe(&mut self, consumer: ConsumerId, qos: &ConsumerQos) -> Result<(), QosError> {
        check_consumer_qos(qos, &self.limits)?;
        if self.consumers.contains_key(&consumer) {
            return Err(QosError::AlreadyConnected);
        }
        let filters: Vec<(Match, MaskedFilter)> = qos
            .groups
            .iter()
            .enumerate()
            .flat_map(|(g, group)| {
                group.filters.iter().enumerate().map(move |(m, f)| {
                    // Both indices fit: the limits keep them far below 2^16.
                    let at = Match {
                        consumer,
                        group: u16::try_from(g).unwrap_or(u16::MAX),
                        member: u16::try_from(m).unwrap_or(u16::MAX),
                    };
                    (at, MaskedFilter::new(f))
                })
            })
            .collect();
        // The pairs of masks this subscription adds, checked against the
        // limit as they are found: at most `max_mask_pairs` steps a filter.
        let mut new_pairs: Vec<&MaskedFilter> = Vec::new();
        for (_, f) in &filters {
            if self.pair_of(f).is_none() && !new_pairs.iter().any(|n| same_masks(n, f)) {
                new_pairs.push(f);
                if self.pairs.len() + new_pairs.len() > self.limits.max_mask_pairs {
                    return Err(QosError::TooManyMaskPairs {
                        most: self.limits.max_mask_pairs,
                    });
                }
            }
        }
        for (at, f) in &filters {
            let index = match self.pair_of(f) {
                Some(i) => i,
                None => {
                    self.pairs.push(MaskPair {
                        type_mask: f.type_mask,
                        source_mask: f.source_mask,
                        wanted: HashMap::new(),
                        filters: 0,
                    });
                    self.pairs.len() - 1
                }
            };
            let pair = &mut self.pairs[index];
            pair.wanted
                .entry((f.type_value, f.source_value))
                .or_default()
                .push(*at);
            pair.filters += 1;
        }
        self.consumers
            .insert(consumer, filters.into_iter().map(|(_, f)| f).collect());
        Ok(())
    }

    /// Takes out the subscriptions of `consumer`; whether it had any.
    pub fn unsubscribe(&mut self, consumer: ConsumerId) -> bool {
        let Some(filters) = self.consumers.remove(&consumer) else {
            return false;
        };
        for f in &filters {
            let Some(index) = self.pair_of(f) else {
                continue;
            };
            let pair = &mut self.pairs[index];
            let key = (f.type_value, f.source_value);
            if let Some(list) = pair.wanted.get_mut(&key) {
                let before = list.len();
                list.retain(|m| m.consumer != consumer);
                pair.filters -= before - list.len();
                if list.is_empty() {
                    pair.wanted.remove(&key);
                }
            }
        }
        self.pairs.retain(|p| p.filters > 0);
        true
    }

    fn pair_of(&self, f: &MaskedFilter) -> Option<usize> {
        self.pairs
            .iter()
            .position(|p| p.type_mask == f.type_mask && p.source_mask == f.source_mask)
    }

    /// Calls `found` with every filter an event of `event_type` from
    /// `source` passes; allocates nothing.
    pub fn matches(&self, event_type: u32, source: u32, mut found: impl FnMut(Match)) {
        for pair in &self.pairs {
            let key = (event_type & pair.type_mask, source & pair.source_mask);
            if let Some(list) = pair.wanted.get(&key) {
                list.iter().copied().for_each(&mut found);
            }
        }
    }

    /// Whether any filter passes an event of `event_type` from `source`.
    pub fn is_wanted(&self, event_type: u32, source: u32) -> bool {
        self.pairs.iter().any(|pair| {
            let key = (event_type & pair.type_mask, source & pair.source_mask);
            pair.wanted.contains_key(&key)
        })
    }

    /// The filters of `consumer`, normalised, in the order of its QoS.
    pub fn filters_of(&self, consumer: ConsumerId) -> Option<&[MaskedFilter]> {
        self.consumers.get(&consumer).map(Vec::as_slice)
    }

    /// How many distinct pairs of masks the subscriptions use.
    pub fn mask_pairs(&self) -> usize {
        self.pairs.len()
    }

    /// How many consumers are subscribed.
    pub fn consumers(&self) -> usize {
        self.consumers.len()
    }
}

fn same_masks(a: &MaskedFilter, b: &MaskedFilter) -> bool {
    a.type_mask == b.type_mask && a.source_mask == b.source_mask
}

#[cfg(test)]
mod tests;
