//! Client-exposed policies carried in the `TAG_POLICIES` component
//! (`Messaging::PolicyValue`), with the RT-CORBA ones decoded.

use rtorb_cdr::{ByteOrder, Bytes, CdrDecode, CdrEncode, CdrError, Decoder, Encoder};

use super::encap;
use super::tags::{PRIORITY_BANDED_CONNECTION_POLICY_TYPE, PRIORITY_MODEL_POLICY_TYPE, PolicyType};

/// One policy as an IOR carries it (`Messaging::PolicyValue`): its type
/// and the CDR encapsulation of its value, kept as it was received.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PolicyValue {
    /// The policy type (`ptype`).
    pub ptype: PolicyType,
    /// The encapsulated value (`pvalue`).
    pub pvalue: Bytes,
}

impl PolicyValue {
    /// Decodes the value of the policy types rtorb knows; others come back
    /// as [`Policy::Other`].
    pub fn decode_value(&self) -> Result<Policy, CdrError> {
        match self.ptype {
            PRIORITY_MODEL_POLICY_TYPE => encap::decode(&self.pvalue, |d| {
                let model = PriorityModel::decode(d)?;
                let server_priority = d.read_i16()?;
                Ok(Policy::PriorityModel {
                    model,
                    server_priority,
                })
            }),
            PRIORITY_BANDED_CONNECTION_POLICY_TYPE => encap::decode(&self.pvalue, |d| {
                Ok(Policy::PriorityBandedConnection(
                    Vec::<PriorityBand>::decode(d)?,
                ))
            }),
            _ => Ok(Policy::Other(self.clone())),
        }
    }
}

impl CdrEncode for PolicyValue {
    fn encode(&self, enc: &mut Encoder) -> Result<(), CdrError> {
        enc.write_u32(self.ptype);
        enc.write_octet_seq_bytes(&self.pvalue)
    }
}

impl CdrDecode for PolicyValue {
    const MIN_WIRE_SIZE: usize = 8;
    fn decode(dec: &mut Decoder) -> Result<Self, CdrError> {
        Ok(PolicyValue {
            ptype: dec.read_u32()?,
            pvalue: dec.read_octet_seq()?,
        })
    }
}

/// `RTCORBA::PriorityModel`: where the priority of a request comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PriorityModel {
    /// `CLIENT_PROPAGATED` (0): the client's priority travels with the
    /// request.
    ClientPropagated,
    /// `SERVER_DECLARED` (1): the server runs the request at the priority
    /// it declared.
    ServerDeclared,
}

impl CdrEncode for PriorityModel {
    fn encode(&self, enc: &mut Encoder) -> Result<(), CdrError> {
        enc.write_u32(match self {
            PriorityModel::ClientPropagated => 0,
            PriorityModel::ServerDeclared => 1,
        });
        Ok(())
    }
}

impl CdrDecode for PriorityModel {
    fn decode(dec: &mut Decoder) -> Result<Self, CdrError> {
        match dec.read_u32()? {
            0 => Ok(PriorityModel::ClientPropagated),
            1 => Ok(PriorityModel::ServerDeclared),
            value => Err(CdrError::InvalidEnum { value, count: 2 }),
        }
    }
}

/// `RTCORBA::PriorityBand`: a range of CORBA priorities served by one
/// connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PriorityBand {
    /// Lowest priority of the band.
    pub low: i16,
    /// Highest priority of the band.
    pub high: i16,
}

impl CdrEncode for PriorityBand {
    fn encode(&self, enc: &mut Encoder) -> Result<(), CdrError> {
        enc.write_i16(self.low);
        enc.write_i16(self.high);
        Ok(())
    }
}

impl CdrDecode for PriorityBand {
    const MIN_WIRE_SIZE: usize = 4;
    fn decode(dec: &mut Decoder) -> Result<Self, CdrError> {
        Ok(PriorityBand {
            low: dec.read_i16()?,
            high: dec.read_i16()?,
        })
    }
}

/// A decoded client-exposed policy.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Policy {
    /// `RTCORBA::PriorityModelPolicy` (type 40).
    PriorityModel {
        /// The priority model.
        model: PriorityModel,
        /// The priority the server declared (meaningful for
        /// `SERVER_DECLARED`).
        server_priority: i16,
    },
    /// `RTCORBA::PriorityBandedConnectionPolicy` (type 45): the bands the
    /// server accepts connections for.
    PriorityBandedConnection(Vec<PriorityBand>),
    /// A policy type rtorb does not decode, as it was received.
    Other(PolicyValue),
}

impl Policy {
    /// The policy type.
    pub fn ptype(&self) -> PolicyType {
        match self {
            Policy::PriorityModel { .. } => PRIORITY_MODEL_POLICY_TYPE,
            Policy::PriorityBandedConnection(_) => PRIORITY_BANDED_CONNECTION_POLICY_TYPE,
            Policy::Other(v) => v.ptype,
        }
    }

    /// The policy as an IOR carries it, its value encapsulated in `order`.
    pub fn to_value(&self, order: ByteOrder) -> Result<PolicyValue, CdrError> {
        let pvalue = match self {
            Policy::PriorityModel {
                model,
                server_priority,
            } => encap::encode(order, |e| {
                model.encode(e)?;
                e.write_i16(*server_priority);
                Ok(())
            })?,
            Policy::PriorityBandedConnection(bands) => encap::encode(order, |e| bands.encode(e))?,
            Policy::Other(v) => return Ok(v.clone()),
        };
        Ok(PolicyValue {
            ptype: self.ptype(),
            pvalue,
        })
    }
}
