//! The Real-time CORBA policies a reference exposes to its clients, and
//! the priority that travels with a request.
//!
//! A server publishes its priority model (and the priority bands it
//! accepts connections for) in the `TAG_POLICIES` component of each
//! profile, as TAO does: a `Messaging::PolicyValue` sequence whose
//! `PriorityModelPolicy` (type 40) value is the model (`CLIENT_PROPAGATED`
//! = 0, `SERVER_DECLARED` = 1) and the server's priority. A client calling
//! a `CLIENT_PROPAGATED` object sends its thread's CORBA priority in an
//! `RTCorbaPriority` service context (id 10: an encapsulation of the
//! `short`); for a `SERVER_DECLARED` object, or one that exposes no model
//! (a server without Real-time CORBA), it sends none.

use rtorb_cdr::ByteOrder;
use rtorb_giop::ior::{Component, Policy, PriorityBand, PriorityModel, Profile, TaggedComponent};
use rtorb_giop::service_context::{ServiceContext, TypedServiceContext};

use super::priority::Priority;

/// `RTCORBA::PriorityModelPolicy`: where the priority of a request to an
/// object comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PriorityModelPolicy {
    /// The model.
    pub model: PriorityModel,
    /// The priority the server runs requests at (`SERVER_DECLARED`), or
    /// those that come without a priority (`CLIENT_PROPAGATED`).
    pub server_priority: Priority,
}

impl PriorityModelPolicy {
    /// Requests run at the client's priority, sent with each of them;
    /// those from clients that send none at `default`.
    pub const fn client_propagated(default: Priority) -> PriorityModelPolicy {
        PriorityModelPolicy {
            model: PriorityModel::ClientPropagated,
            server_priority: default,
        }
    }

    /// Requests run at `priority`, whatever the client's.
    pub const fn server_declared(priority: Priority) -> PriorityModelPolicy {
        PriorityModelPolicy {
            model: PriorityModel::ServerDeclared,
            server_priority: priority,
        }
    }
}

/// The Real-time CORBA policies a profile exposes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExposedPolicies {
    /// The priority model, if the server published one.
    pub priority_model: Option<PriorityModelPolicy>,
    /// The priority bands the server accepts connections for, if any.
    pub priority_bands: Option<Vec<PriorityBand>>,
}

impl ExposedPolicies {
    /// What `profile`'s `TAG_POLICIES` component says; a component or
    /// policy that does not decode (or a negative server priority) is
    /// taken as absent, as Real-time CORBA has clients ignore policies
    /// they do not understand.
    pub fn of(profile: &Profile) -> ExposedPolicies {
        let mut exposed = ExposedPolicies::default();
        let values = profile
            .components()
            .iter()
            .filter_map(|c| match c.decode_value() {
                Ok(Component::Policies(values)) => Some(values),
                _ => None,
            })
            .flatten();
        for value in values {
            match value.decode_value() {
                Ok(Policy::PriorityModel {
                    model,
                    server_priority,
                }) => {
                    if let Ok(server_priority) = Priority::new(server_priority) {
                        exposed.priority_model = Some(PriorityModelPolicy {
                            model,
                            server_priority,
                        });
                    }
                }
                Ok(Policy::PriorityBandedConnection(bands)) => {
                    exposed.priority_bands = Some(bands);
                }
                _ => {}
            }
        }
        exposed
    }

    /// Whether requests carry the caller's priority.
    pub fn propagates_priority(&self) -> bool {
        matches!(
            self.priority_model,
            Some(PriorityModelPolicy {
                model: PriorityModel::ClientPropagated,
                ..
            })
        )
    }

    /// The `TAG_POLICIES` component publishing these policies (`None`
    /// when there are none), encapsulated in `order`.
    pub fn to_component(&self, order: ByteOrder) -> Option<TaggedComponent> {
        let mut policies = Vec::new();
        if let Some(m) = self.priority_model {
            policies.push(Policy::PriorityModel {
                model: m.model,
                server_priority: m.server_priority.get(),
            });
        }
        if let Some(bands) = &self.priority_bands {
            policies.push(Policy::PriorityBandedConnection(bands.clone()));
        }
        if policies.is_empty() {
            return None;
        }
        let values = policies
            .iter()
            .map(|p| p.to_value(order))
            .collect::<Result<Vec<_>, _>>()
            .ok()?;
        Component::Policies(values).to_tagged(order).ok()
    }
}

/// rtorb's `TAG_RTORB_LANE_PRIORITY` component: the priority of the lane
/// a profile's endpoint belongs to, an encapsulated `short` in `order`.
pub fn lane_priority_component(priority: Priority, order: ByteOrder) -> TaggedComponent {
    let [a, b] = match order {
        ByteOrder::Big => priority.get().to_be_bytes(),
        ByteOrder::Little => priority.get().to_le_bytes(),
    };
    let flag = u8::from(order == ByteOrder::Little);
    TaggedComponent::new(
        rtorb_giop::ior::tags::TAG_RTORB_LANE_PRIORITY,
        vec![flag, 0, a, b],
    )
}

/// The lane priority `profile`'s `TAG_RTORB_LANE_PRIORITY` component
/// gives, if it has one that decodes to a priority.
pub fn lane_priority_of(profile: &Profile) -> Option<Priority> {
    let c = profile
        .components()
        .iter()
        .find(|c| c.tag == rtorb_giop::ior::tags::TAG_RTORB_LANE_PRIORITY)?;
    let value = match c.component_data.get(..4)? {
        [0, _, a, b] => i16::from_be_bytes([*a, *b]),
        [1, _, a, b] => i16::from_le_bytes([*a, *b]),
        _ => return None,
    };
    Priority::new(value).ok()
}

/// The `RTCorbaPriority` service context carrying `priority`, in `order`.
pub fn priority_context(priority: Priority, order: ByteOrder) -> ServiceContext {
    ServiceContext::from_typed(&TypedServiceContext::RtCorbaPriority(priority.get()), order)
        .unwrap_or_else(|_| ServiceContext {
            id: rtorb_giop::service_context::RT_CORBA_PRIORITY,
            data: bytes::Bytes::new(),
        })
}

#[cfg(test)]
mod tests {
    use rtorb_cdr::Version;
    use rtorb_giop::ior::IiopProfile;

    use super::*;

    fn profile_with(exposed: &ExposedPolicies) -> Profile {
        let mut p = IiopProfile::new(Version::V1_2, "127.0.0.1", 2809, &b"High"[..]);
        if let Some(c) = exposed.to_component(ByteOrder::Big) {
            p.components.push(c);
        }
        Profile::Iiop(p)
    }

    #[test]
    fn the_component_is_tao_s_layout_byte_for_byte() {
        let exposed = ExposedPolicies {
            priority_model: Some(PriorityModelPolicy::server_declared(
                Priority::new(90).unwrap(),
            )),
            priority_bands: None,
        };
        let c = exposed.to_component(ByteOrder::Big).unwrap();
        assert_eq!(c.tag, rtorb_giop::ior::tags::TAG_POLICIES);
        #[rustfmt::skip]
        let expected: &[u8] = &[
            0, 0, 0, 0,        // big-endian encapsulation, padding
            0, 0, 0, 1,        // one PolicyValue
            0, 0, 0, 40,       // ptype PRIORITY_MODEL_POLICY_TYPE
            0, 0, 0, 10,       // pvalue: 10 octets
            0, 0, 0, 0,        //   big-endian encapsulation, padding
            0, 0, 0, 1,        //   SERVER_DECLARED
            0, 90,             //   server_priority 90
        ];
        assert_eq!(&c.component_data[..], expected);
    }

    #[test]
    fn a_profile_gives_back_the_policies_it_was_given() {
        for exposed in [
            ExposedPolicies::default(),
            ExposedPolicies {
                priority_model: Some(PriorityModelPolicy::client_propagated(Priority::MIN)),
                priority_bands: Some(vec![PriorityBand { low: 0, high: 99 }]),
            },
        ] {
            let again = ExposedPolicies::of(&profile_with(&exposed));
            assert_eq!(again, exposed);
            assert_eq!(
                again.propagates_priority(),
                exposed.priority_model.is_some()
            );
        }
    }

    #[test]
    fn the_service_context_is_an_encapsulated_short() {
        let c = priority_context(Priority::new(0x1234).unwrap(), ByteOrder::Little);
        assert_eq!(c.id, 10);
        assert_eq!(&c.data[..], &[1, 0, 0x34, 0x12]);
        let c = priority_context(Priority::new(90).unwrap(), ByteOrder::Big);
        assert_eq!(&c.data[..], &[0, 0, 0, 90]);
    }
}
