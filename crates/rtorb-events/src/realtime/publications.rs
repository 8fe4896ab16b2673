//! Supplier-based filtering: from what each supplier says it publishes
//! (its `SupplierQOS`) and what each consumer subscribed to, which
//! consumers a supplier's events can ever reach ([`Publications`]). A
//! supplier that no subscription can hear is not forwarded at all, and
//! an event outside its supplier's publications is refused before it is
//! matched.
//!
//! A publication is a filter: its source of 0 means the supplier's own
//! source (or any source, for a supplier whose source is 0 too), its
//! type of 0 any type. A subscription filter can match a publication
//! when some event passes both ([`MaskedFilter::overlaps`]). The
//! interest is computed when suppliers and consumers connect (cost:
//! their publications times the others' filters), not per event.

use std::collections::HashMap;

use crate::idl::rtorb_event::{ANY_SOURCE, SupplierQos};

use super::qos::{ConsumerId, MaskedFilter, QosError, QosLimits, SupplierId, check_supplier_qos};

#[derive(Debug)]
struct Supplier {
    publications: Vec<MaskedFilter>,
    /// The consumers some of whose filters overlap a publication.
    interested: Vec<ConsumerId>,
}

/// The channel's suppliers, their publications and who hears them.
#[derive(Debug, Default)]
pub struct Publications {
    suppliers: HashMap<SupplierId, Supplier>,
    /// Each consumer's filters.
    consumers: HashMap<ConsumerId, Vec<MaskedFilter>>,
    limits: QosLimits,
}

fn hears(filters: &[MaskedFilter], publications: &[MaskedFilter]) -> bool {
    publications
        .iter()
        .any(|p| filters.iter().any(|f| f.overlaps(p)))
}

impl Publications {
    /// No suppliers and no consumers; publications keep `limits`.
    pub fn new(limits: QosLimits) -> Publications {
        Publications {
            limits,
            ..Publications::default()
        }
    }

    /// Adds `supplier` with the publications of `qos`.
    pub fn connect_supplier(
        &mut self,
        supplier: SupplierId,
        qos: &SupplierQos,
    ) -> Result<(), QosError> {
        check_supplier_qos(qos, &self.limits)?;
        if self.suppliers.contains_key(&supplier) {
            return Err(QosError::AlreadyConnected);
        }
        let publications: Vec<MaskedFilter> = qos
            .publications
            .iter()
            .map(|p| {
                let mut p = p.clone();
                if p.source == ANY_SOURCE {
                    p.source = qos.source;
                    p.source_mask = !0;
                }
                MaskedFilter::new(&p)
            })
            .collect();
        let mut interested: Vec<ConsumerId> = self
            .consumers
            .iter()
            .filter(|(_, filters)| hears(filters, &publications))
            .map(|(id, _)| *id)
            .collect();
        interested.sort_unstable();
        self.suppliers.insert(
            supplier,
            Supplier {
                publications,
                interested,
            },
        );
        Ok(())
    }

    /// Takes out `supplier`; whether it was there.
    pub fn disconnect_supplier(&mut self, supplier: SupplierId) -> bool {
        self.suppliers.remove(&supplier).is_some()
    }

    /// Adds the (normalised) filters of `consumer`, as
    /// [`SubscriptionIndex::filters_of`](super::filter::SubscriptionIndex::filters_of)
    /// gives them.
    pub fn connect_consumer(
        &mut self,
        consumer: ConsumerId,
        filters: &[MaskedFilter],
    ) -> Result<(), QosError> {
        if self.consumers.contains_key(&consumer) {
            return Err(QosError::AlreadyConnected);
        }
        for supplier in self.suppliers.values_mut() {
            if hears(filters, &supplier.publications) {
                let at = supplier
                    .interested
                    .binary_search(&consumer)
                    .unwrap_or_else(|at| at);
                supplier.interested.insert(at, consumer);
            }
        }
        self.consumers.insert(consumer, filters.to_vec());
        Ok(())
    }

    /// Takes out `consumer`; whether it was there.
    pub fn disconnect_consumer(&mut self, consumer: ConsumerId) -> bool {
        if self.consumers.remove(&consumer).is_none() {
            return false;
        }
        for supplier in self.suppliers.values_mut() {
            if let Ok(at) = supplier.interested.binary_search(&consumer) {
                supplier.interested.remove(at);
            }
        }
        true
    }

    /// The consumers that `supplier`'s events can reach, in order of
    /// their ids; empty for a supplier that is not connected.
    pub fn interested(&self, supplier: SupplierId) -> &[ConsumerId] {
        self.suppliers
            .get(&supplier)
            .map_or(&[], |s| s.interested.as_slice())
    }

    /// Whether the channel forwards an event of `event_type` from
    /// `source` pushed by `supplier`: the supplier is connected, the
    /// event is among its publications and some consumer can hear it.
    pub fn forwards(&self, supplier: SupplierId, event_type: u32, source: u32) -> bool {
        self.suppliers.get(&supplier).is_some_and(|s| {
            !s.interested.is_empty() && s.publications.iter().any(|p| p.passes(event_type, source))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idl::rtorb_event::EventFilter;
    use proptest::prelude::*;

    fn filter(t: u32, s: u32) -> EventFilter {
        EventFilter {
            r#type: t,
            type_mask: !0,
            source: s,
            source_mask: !0,
        }
    }

    fn masked(t: u32, s: u32) -> MaskedFilter {
        MaskedFilter::new(&filter(t, s))
    }

    fn supplier(source: u32, types: &[u32]) -> SupplierQos {
        SupplierQos {
            source,
            publications: types.iter().map(|t| filter(*t, 0)).collect(),
        }
    }

    #[test]
    fn a_supplier_is_forwarded_only_to_consumers_that_can_hear_it() {
        let mut p = Publications::new(QosLimits::default());
        p.connect_supplier(SupplierId(1), &supplier(7, &[20, 21]))
            .unwrap();
        p.connect_supplier(SupplierId(2), &supplier(8, &[30]))
            .unwrap();
        assert!(!p.forwards(SupplierId(1), 20, 7), "no consumer yet");

        p.connect_consumer(ConsumerId(10), &[masked(20, 0)])
            .unwrap();
        p.connect_consumer(ConsumerId(11), &[masked(30, 7)])
            .unwrap();
        p.connect_consumer(ConsumerId(12), &[masked(0, 8)]).unwrap();
        assert_eq!(p.interested(SupplierId(1)), [ConsumerId(10)]);
        assert_eq!(p.interested(SupplierId(2)), [ConsumerId(12)]);
        assert!(p.forwards(SupplierId(1), 20, 7));
        assert!(!p.forwards(SupplierId(1), 22, 7), "not published");
        assert!(!p.forwards(SupplierId(1), 20, 9), "another source");

        assert!(p.disconnect_consumer(ConsumerId(10)));
        assert!(!p.forwards(SupplierId(1), 20, 7));
        assert!(p.disconnect_supplier(SupplierId(2)));
        assert!(p.interested(SupplierId(2)).is_empty());
        assert!(!p.disconnect_supplier(SupplierId(2)));
    }

    #[test]
    fn a_consumer_connected_first_is_found_by_a_later_supplier() {
        let mut p = Publications::new(QosLimits::default());
        p.connect_consumer(ConsumerId(3), &[masked(0, 0)]).unwrap();
        p.connect_supplier(SupplierId(1), &supplier(5, &[0]))
            .unwrap();
        assert_eq!(p.interested(SupplierId(1)), [ConsumerId(3)]);
        assert_eq!(
            p.connect_supplier(SupplierId(1), &supplier(5, &[0])),
            Err(QosError::AlreadyConnected)
        );
    }

    #[test]
    fn too_many_publications_are_refused() {
        let mut p = Publications::new(QosLimits::default());
        let types: Vec<u32> = (16..5000).collect();
        assert_eq!(
            p.connect_supplier(SupplierId(1), &supplier(5, &types)),
            Err(QosError::TooManyPublications {
                given: 4984,
                most: 1024
            })
        );
    }

    fn small_filter() -> impl Strategy<Value = EventFilter> {
        (0u32..4, prop_oneof![Just(!0u32), Just(1u32)], 0u32..3).prop_map(|(t, tm, s)| {
            EventFilter {
                r#type: t,
                type_mask: tm,
                source: s,
                source_mask: !0,
            }
        })
    }

    #[derive(Debug, Clone)]
    enum Op {
        Supplier(u64, u32, Vec<EventFilter>),
        Consumer(u64, Vec<EventFilter>),
        SupplierLeaves(u64),
        ConsumerLeaves(u64),
    }

    fn op() -> impl Strategy<Value = Op> {
        let filters = || proptest::collection::vec(small_filter(), 1..4);
        prop_oneof![
            (0u64..4, 0u32..3, filters()).prop_map(|(i, s, f)| Op::Supplier(i, s, f)),
            (0u64..6, filters()).prop_map(|(i, f)| Op::Consumer(i, f)),
            (0u64..4).prop_map(Op::SupplierLeaves),
            (0u64..6).prop_map(Op::ConsumerLeaves),
        ]
    }

    proptest! {
        /// Whatever order suppliers and consumers come and go in, each
        /// supplier's interested consumers are those that a fresh
        /// computation over the connected ones finds.
        #[test]
        fn interest_agrees_with_computing_it_afresh(
            ops in proptest::collection::vec(op(), 0..60),
        ) {
            let mut p = Publications::new(QosLimits::default());
            let mut suppliers: HashMap<u64, Vec<MaskedFilter>> = HashMap::new();
            let mut consumers: HashMap<u64, Vec<MaskedFilter>> = HashMap::new();
            for op in ops {
                match op {
                    Op::Supplier(id, source, publications) => {
                        let qos = SupplierQos { source, publications };
                        if p.connect_supplier(SupplierId(id), &qos).is_ok() {
                            let published = p.suppliers[&SupplierId(id)].publications.clone();
                            suppliers.insert(id, published);
                        }
                    }
                    Op::Consumer(id, filters) => {
                        let masked: Vec<MaskedFilter> = filters.iter().map(MaskedFilter::new).collect();
                        if p.connect_consumer(ConsumerId(id), &masked).is_ok() {
                            consumers.insert(id, masked);
                        }
                    }
                    Op::SupplierLeaves(id) => {
                        prop_assert_eq!(p.disconnect_supplier(SupplierId(id)), suppliers.remove(&id).is_some());
                    }
                    Op::ConsumerLeaves(id) => {
                        prop_assert_eq!(p.disconnect_consumer(ConsumerId(id)), consumers.remove(&id).is_some());
                    }
                }
                for (id, published) in &suppliers {
                    let mut expected: Vec<ConsumerId> = consumers
                        .iter()
                        .filter(|(_, f)| published.iter().any(|p| f.iter().any(|f| f.overlaps(p))))
                        .map(|(c, _)| ConsumerId(*c))
                        .collect();
                    expected.sort_unstable();
                    prop_assert_eq!(p.interested(SupplierId(*id)), expected.as_slice());
                }
            }
        }
    }
}
