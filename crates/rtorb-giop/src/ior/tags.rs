//! Registered profile, component, ORB type and policy type ids.
//!
//! The values of the OMG-assigned ids are those of CORBA 3.x Part 2
//! ("Interoperability Architecture", module `IOP`) and of the RT-CORBA
//! specification; the omniORB, TAO and JacORB values are those the ORBs
//! themselves put into their references. Ids whose value starts with the
//! letters `RTO` (0x52544f..) are rtorb's own.

/// A profile id (`IOP::ProfileId`).
pub type ProfileId = u32;
/// A tagged component id (`IOP::ComponentId`).
pub type ComponentId = u32;
/// A policy type (`CORBA::PolicyType`).
pub type PolicyType = u32;

// ---- profile tags -------------------------------------------------------

/// `TAG_INTERNET_IOP`: an IIOP profile (host, port, object key,
/// components).
pub const TAG_INTERNET_IOP: ProfileId = 0;
/// `TAG_MULTIPLE_COMPONENTS`: a profile that is only a list of components.
pub const TAG_MULTIPLE_COMPONENTS: ProfileId = 1;
/// `TAG_SCCP_IOP`: the SS7 SCCP inter-ORB protocol profile.
pub const TAG_SCCP_IOP: ProfileId = 2;
/// `TAG_UIPMC`: the unreliable IP multicast profile of MIOP.
pub const TAG_UIPMC: ProfileId = 3;
/// `TAG_MOBILE_TERMINAL_IOP`: the wireless CORBA terminal profile.
pub const TAG_MOBILE_TERMINAL_IOP: ProfileId = 4;

/// rtorb's UIOP profile: GIOP over a Unix-domain stream socket.
///
/// This id is rtorb's own (the letters `RTO` followed by 0x01); it is not
/// registered with the OMG and other ORBs skip profiles they do not know.
/// The body is a CDR encapsulation laid out like an IIOP profile with the
/// socket path in place of host and port:
///
/// ```text
/// octet   major, minor         // GIOP version the server speaks
/// string  rendezvous_point     // absolute path of the socket
/// sequence<octet> object_key
/// sequence<TaggedComponent> components   // only if version >= 1.1
/// ```
///
/// See [`UiopProfile`](super::UiopProfile).
pub const TAG_RTORB_UIOP: ProfileId = 0x5254_4f01;

// ---- component tags -----------------------------------------------------

/// `TAG_ORB_TYPE`: an encapsulated `unsigned long` naming the ORB that made
/// the reference.
pub const TAG_ORB_TYPE: ComponentId = 0;
/// `TAG_CODE_SETS`: an encapsulated `CONV_FRAME::CodeSetComponentInfo`.
pub const TAG_CODE_SETS: ComponentId = 1;
/// `TAG_POLICIES`: an encapsulated `Messaging::PolicyValueSeq` of the
/// client-exposed policies.
pub const TAG_POLICIES: ComponentId = 2;
/// `TAG_ALTERNATE_IIOP_ADDRESS`: another host and port for the same
/// object.
pub const TAG_ALTERNATE_IIOP_ADDRESS: ComponentId = 3;
/// `TAG_COMPLETE_OBJECT_KEY`.
pub const TAG_COMPLETE_OBJECT_KEY: ComponentId = 5;
/// `TAG_ENDPOINT_ID_POSITION`.
pub const TAG_ENDPOINT_ID_POSITION: ComponentId = 6;
/// `TAG_LOCATION_POLICY`.
pub const TAG_LOCATION_POLICY: ComponentId = 12;
/// `TAG_ASSOCIATION_OPTIONS`.
pub const TAG_ASSOCIATION_OPTIONS: ComponentId = 13;
/// `TAG_SEC_NAME`.
pub const TAG_SEC_NAME: ComponentId = 14;
/// `TAG_SPKM_1_SEC_MECH`.
pub const TAG_SPKM_1_SEC_MECH: ComponentId = 15;
/// `TAG_SPKM_2_SEC_MECH`.
pub const TAG_SPKM_2_SEC_MECH: ComponentId = 16;
/// `TAG_KERBEROSV5_SEC_MECH`.
pub const TAG_KERBEROSV5_SEC_MECH: ComponentId = 17;
/// `TAG_CSI_ECMA_SECRET_SEC_MECH`.
pub const TAG_CSI_ECMA_SECRET_SEC_MECH: ComponentId = 18;
/// `TAG_CSI_ECMA_HYBRID_SEC_MECH`.
pub const TAG_CSI_ECMA_HYBRID_SEC_MECH: ComponentId = 19;
/// `TAG_SSL_SEC_TRANS`: an encapsulated `SSLIOP::SSL` (association
/// options and the SSL port).
pub const TAG_SSL_SEC_TRANS: ComponentId = 20;
/// `TAG_CSI_ECMA_PUBLIC_SEC_MECH`.
pub const TAG_CSI_ECMA_PUBLIC_SEC_MECH: ComponentId = 21;
/// `TAG_GENERIC_SEC_MECH`.
pub const TAG_GENERIC_SEC_MECH: ComponentId = 22;
/// `TAG_FIREWALL_TRANS`.
pub const TAG_FIREWALL_TRANS: ComponentId = 23;
/// `TAG_SCCP_CONTACT_INFO`.
pub const TAG_SCCP_CONTACT_INFO: ComponentId = 24;
/// `TAG_JAVA_CODEBASE`: an encapsulated string of codebase URLs.
pub const TAG_JAVA_CODEBASE: ComponentId = 25;
/// `TAG_CSI_SEC_MECH_LIST`: CSIv2 mechanisms.
pub const TAG_CSI_SEC_MECH_LIST: ComponentId = 33;
/// `TAG_NULL_TAG`.
pub const TAG_NULL_TAG: ComponentId = 34;
/// `TAG_TLS_SEC_TRANS`.
pub const TAG_TLS_SEC_TRANS: ComponentId = 36;
/// `TAG_RMI_CUSTOM_MAX_STREAM_FORMAT`.
pub const TAG_RMI_CUSTOM_MAX_STREAM_FORMAT: ComponentId = 38;
/// `TAG_DCE_STRING_BINDING`.
pub const TAG_DCE_STRING_BINDING: ComponentId = 100;
/// `TAG_DCE_BINDING_NAME`.
pub const TAG_DCE_BINDING_NAME: ComponentId = 101;
/// `TAG_DCE_NO_PIPES`.
pub const TAG_DCE_NO_PIPES: ComponentId = 102;
/// `TAG_DCE_SEC_MECH`.
pub const TAG_DCE_SEC_MECH: ComponentId = 103;
/// `TAG_INET_SEC_TRANS`.
pub const TAG_INET_SEC_TRANS: ComponentId = 123;
/// `TAG_GROUP` (fault-tolerant CORBA).
pub const TAG_GROUP: ComponentId = 0x0001_5f91;
/// `TAG_PRIMARY` (fault-tolerant CORBA).
pub const TAG_PRIMARY: ComponentId = 0x0001_5f92;
/// `TAG_HEARTBEAT_ENABLED` (fault-tolerant CORBA).
pub const TAG_HEARTBEAT_ENABLED: ComponentId = 0x0001_5f93;
/// omniORB's bidirectional GIOP component: an encapsulated string naming
/// the endpoint the client sends from.
pub const TAG_OMNIORB_BIDIR: ComponentId = 0x4154_5401;
/// omniORB's Unix-domain transport component: an encapsulated host name
/// and socket file name.
pub const TAG_OMNIORB_UNIX_TRANS: ComponentId = 0x4154_5402;
/// omniORB's persistent-id component: raw octets (not an encapsulation)
/// identifying a persistent server instance.
pub const TAG_OMNIORB_PERSISTENT_ID: ComponentId = 0x4154_5403;
/// omniORB's restricted-connection component.
pub const TAG_OMNIORB_RESTRICTED_CONNECTION: ComponentId = 0x4154_5404;
/// rtorb's component marking a profile whose endpoint speaks GIOPlite
/// instead of GIOP.
///
/// Its body is an empty encapsulation (the byte-order octet alone). The id
/// is rtorb's own (`RTO` followed by 0x02); other ORBs skip components they
/// do not know, and a client that finds it and does not speak GIOPlite must
/// not use the profile.
pub const TAG_RTORB_GIOP_LITE: ComponentId = 0x5254_4f02;
/// rtorb's component giving the CORBA priority of the thread pool lane a
/// profile's endpoint belongs to.
///
/// Its body is an encapsulated `short` (the byte-order octet, one octet
/// of padding, the priority). A server puts it in each profile of a
/// `CLIENT_PROPAGATED` object served by a pool with lanes (a profile per
/// lane, the lowest lane first), so that rtorb's client calls through the
/// lane of its thread's priority: the profile of the highest lane at or
/// below it (the lowest lane if all are above). Other ORBs skip it and use
/// the first profile.
pub const TAG_RTORB_LANE_PRIORITY: ComponentId = 0x5254_4f03;

/// The IDL name of a component id, for the ids this module knows.
pub fn component_name(tag: ComponentId) -> Option<&'static str> {
    Some(match tag {
        TAG_ORB_TYPE => "TAG_ORB_TYPE",
        TAG_CODE_SETS => "TAG_CODE_SETS",
        TAG_POLICIES => "TAG_POLICIES",
        TAG_ALTERNATE_IIOP_ADDRESS => "TAG_ALTERNATE_IIOP_ADDRESS",
        TAG_COMPLETE_OBJECT_KEY => "TAG_COMPLETE_OBJECT_KEY",
        TAG_ENDPOINT_ID_POSITION => "TAG_ENDPOINT_ID_POSITION",
        TAG_LOCATION_POLICY => "TAG_LOCATION_POLICY",
        TAG_ASSOCIATION_OPTIONS => "TAG_ASSOCIATION_OPTIONS",
        TAG_SEC_NAME => "TAG_SEC_NAME",
        TAG_SPKM_1_SEC_MECH => "TAG_SPKM_1_SEC_MECH",
        TAG_SPKM_2_SEC_MECH => "TAG_SPKM_2_SEC_MECH",
        TAG_KERBEROSV5_SEC_MECH => "TAG_KERBEROSV5_SEC_MECH",
        TAG_CSI_ECMA_SECRET_SEC_MECH => "TAG_CSI_ECMA_SECRET_SEC_MECH",
        TAG_CSI_ECMA_HYBRID_SEC_MECH => "TAG_CSI_ECMA_HYBRID_SEC_MECH",
        TAG_SSL_SEC_TRANS => "TAG_SSL_SEC_TRANS",
        TAG_CSI_ECMA_PUBLIC_SEC_MECH => "TAG_CSI_ECMA_PUBLIC_SEC_MECH",
        TAG_GENERIC_SEC_MECH => "TAG_GENERIC_SEC_MECH",
        TAG_FIREWALL_TRANS => "TAG_FIREWALL_TRANS",
        TAG_SCCP_CONTACT_INFO => "TAG_SCCP_CONTACT_INFO",
        TAG_JAVA_CODEBASE => "TAG_JAVA_CODEBASE",
        TAG_CSI_SEC_MECH_LIST => "TAG_CSI_SEC_MECH_LIST",
        TAG_NULL_TAG => "TAG_NULL_TAG",
        TAG_TLS_SEC_TRANS => "TAG_TLS_SEC_TRANS",
        TAG_RMI_CUSTOM_MAX_STREAM_FORMAT => "TAG_RMI_CUSTOM_MAX_STREAM_FORMAT",
        TAG_DCE_STRING_BINDING => "TAG_DCE_STRING_BINDING",
        TAG_DCE_BINDING_NAME => "TAG_DCE_BINDING_NAME",
        TAG_DCE_NO_PIPES => "TAG_DCE_NO_PIPES",
        TAG_DCE_SEC_MECH => "TAG_DCE_SEC_MECH",
        TAG_INET_SEC_TRANS => "TAG_INET_SEC_TRANS",
        TAG_GROUP => "TAG_GROUP",
        TAG_PRIMARY => "TAG_PRIMARY",
        TAG_HEARTBEAT_ENABLED => "TAG_HEARTBEAT_ENABLED",
        TAG_OMNIORB_BIDIR => "TAG_OMNIORB_BIDIR",
        TAG_OMNIORB_UNIX_TRANS => "TAG_OMNIORB_UNIX_TRANS",
        TAG_OMNIORB_PERSISTENT_ID => "TAG_OMNIORB_PERSISTENT_ID",
        TAG_OMNIORB_RESTRICTED_CONNECTION => "TAG_OMNIORB_RESTRICTED_CONNECTION",
        TAG_RTORB_LANE_PRIORITY => "TAG_RTORB_LANE_PRIORITY",
        _ => return None,
    })
}

/// The IDL name of a profile id, for the ids this module knows.
pub fn profile_name(tag: ProfileId) -> Option<&'static str> {
    Some(match tag {
        TAG_INTERNET_IOP => "TAG_INTERNET_IOP",
        TAG_MULTIPLE_COMPONENTS => "TAG_MULTIPLE_COMPONENTS",
        TAG_SCCP_IOP => "TAG_SCCP_IOP",
        TAG_UIPMC => "TAG_UIPMC",
        TAG_MOBILE_TERMINAL_IOP => "TAG_MOBILE_TERMINAL_IOP",
        TAG_RTORB_UIOP => "TAG_RTORB_UIOP",
        TAG_RTORB_GIOP_LITE => "TAG_RTORB_GIOP_LITE",
        _ => return None,
    })
}

// ---- ORB types (the value of TAG_ORB_TYPE) -------------------------------

/// omniORB's ORB type, `"ATT\0"` (0x41545400).
pub const ORB_TYPE_OMNIORB: u32 = 0x4154_5400;
/// TAO's ORB type, `"TAO\0"`.
pub const ORB_TYPE_TAO: u32 = 0x5441_4f00;
/// JacORB's ORB type, `"JAC\0"`.
pub const ORB_TYPE_JACORB: u32 = 0x4a41_4300;
/// rtorb's ORB type, `"RTO\0"`.
pub const ORB_TYPE_RTORB: u32 = 0x5254_4f00;

/// The name of the ORB an ORB type id stands for, for the ORBs this module
/// knows.
pub fn orb_type_name(orb_type: u32) -> Option<&'static str> {
    Some(match orb_type {
        ORB_TYPE_OMNIORB => "omniORB",
        ORB_TYPE_TAO => "TAO",
        ORB_TYPE_JACORB => "JacORB",
        ORB_TYPE_RTORB => "rtorb",
        _ => return None,
    })
}

// ---- policy types carried in TAG_POLICIES --------------------------------

/// `Messaging::REBIND_POLICY_TYPE`.
pub const REBIND_POLICY_TYPE: PolicyType = 23;
/// `Messaging::SYNC_SCOPE_POLICY_TYPE`.
pub const SYNC_SCOPE_POLICY_TYPE: PolicyType = 24;
/// `Messaging::REQUEST_PRIORITY_POLICY_TYPE`.
pub const REQUEST_PRIORITY_POLICY_TYPE: PolicyType = 25;
/// `Messaging::REPLY_PRIORITY_POLICY_TYPE`.
pub const REPLY_PRIORITY_POLICY_TYPE: PolicyType = 26;
/// `Messaging::REQUEST_START_TIME_POLICY_TYPE`.
pub const REQUEST_START_TIME_POLICY_TYPE: PolicyType = 27;
/// `Messaging::REQUEST_END_TIME_POLICY_TYPE`.
pub const REQUEST_END_TIME_POLICY_TYPE: PolicyType = 28;
/// `Messaging::REPLY_START_TIME_POLICY_TYPE`.
pub const REPLY_START_TIME_POLICY_TYPE: PolicyType = 29;
/// `Messaging::REPLY_END_TIME_POLICY_TYPE`.
pub const REPLY_END_TIME_POLICY_TYPE: PolicyType = 30;
/// `Messaging::RELATIVE_REQ_TIMEOUT_POLICY_TYPE`.
pub const RELATIVE_REQ_TIMEOUT_POLICY_TYPE: PolicyType = 31;
/// `Messaging::RELATIVE_RT_TIMEOUT_POLICY_TYPE`.
pub const RELATIVE_RT_TIMEOUT_POLICY_TYPE: PolicyType = 32;
/// `Messaging::ROUTING_POLICY_TYPE`.
pub const ROUTING_POLICY_TYPE: PolicyType = 33;
/// `Messaging::MAX_HOPS_POLICY_TYPE`.
pub const MAX_HOPS_POLICY_TYPE: PolicyType = 34;
/// `Messaging::QUEUE_ORDER_POLICY_TYPE`.
pub const QUEUE_ORDER_POLICY_TYPE: PolicyType = 35;
/// `RTCORBA::PRIORITY_MODEL_POLICY_TYPE`.
pub const PRIORITY_MODEL_POLICY_TYPE: PolicyType = 40;
/// `RTCORBA::THREADPOOL_POLICY_TYPE`.
pub const THREADPOOL_POLICY_TYPE: PolicyType = 41;
/// `RTCORBA::SERVER_PROTOCOL_POLICY_TYPE`.
pub const SERVER_PROTOCOL_POLICY_TYPE: PolicyType = 42;
/// `RTCORBA::CLIENT_PROTOCOL_POLICY_TYPE`.
pub const CLIENT_PROTOCOL_POLICY_TYPE: PolicyType = 43;
/// `RTCORBA::PRIVATE_CONNECTION_POLICY_TYPE`.
pub const PRIVATE_CONNECTION_POLICY_TYPE: PolicyType = 44;
/// `RTCORBA::PRIORITY_BANDED_CONNECTION_POLICY_TYPE`.
pub const PRIORITY_BANDED_CONNECTION_POLICY_TYPE: PolicyType = 45;

/// The IDL name of a policy type, for the types this module knows.
pub fn policy_type_name(ptype: PolicyType) -> Option<&'static str> {
    Some(match ptype {
        REBIND_POLICY_TYPE => "REBIND_POLICY_TYPE",
        SYNC_SCOPE_POLICY_TYPE => "SYNC_SCOPE_POLICY_TYPE",
        REQUEST_PRIORITY_POLICY_TYPE => "REQUEST_PRIORITY_POLICY_TYPE",
        REPLY_PRIORITY_POLICY_TYPE => "REPLY_PRIORITY_POLICY_TYPE",
        REQUEST_START_TIME_POLICY_TYPE => "REQUEST_START_TIME_POLICY_TYPE",
        REQUEST_END_TIME_POLICY_TYPE => "REQUEST_END_TIME_POLICY_TYPE",
        REPLY_START_TIME_POLICY_TYPE => "REPLY_START_TIME_POLICY_TYPE",
        REPLY_END_TIME_POLICY_TYPE => "REPLY_END_TIME_POLICY_TYPE",
        RELATIVE_REQ_TIMEOUT_POLICY_TYPE => "RELATIVE_REQ_TIMEOUT_POLICY_TYPE",
        RELATIVE_RT_TIMEOUT_POLICY_TYPE => "RELATIVE_RT_TIMEOUT_POLICY_TYPE",
        ROUTING_POLICY_TYPE => "ROUTING_POLICY_TYPE",
        MAX_HOPS_POLICY_TYPE => "MAX_HOPS_POLICY_TYPE",
        QUEUE_ORDER_POLICY_TYPE => "QUEUE_ORDER_POLICY_TYPE",
        PRIORITY_MODEL_POLICY_TYPE => "PRIORITY_MODEL_POLICY_TYPE",
        THREADPOOL_POLICY_TYPE => "THREADPOOL_POLICY_TYPE",
        SERVER_PROTOCOL_POLICY_TYPE => "SERVER_PROTOCOL_POLICY_TYPE",
        CLIENT_PROTOCOL_POLICY_TYPE => "CLIENT_PROTOCOL_POLICY_TYPE",
        PRIVATE_CONNECTION_POLICY_TYPE => "PRIVATE_CONNECTION_POLICY_TYPE",
        PRIORITY_BANDED_CONNECTION_POLICY_TYPE => "PRIORITY_BANDED_CONNECTION_POLICY_TYPE",
        _ => return None,
    })
}
