//! Service contexts: the `IOP::ServiceContextList` that requests and
//! replies carry.
//!
//! ```text
//! struct ServiceContext { unsigned long context_id; sequence<octet> context_data; };
//! typedef sequence<ServiceContext> ServiceContextList;
//! ```
//!
//! A [`ServiceContext`] keeps its data as received, so a list decoded and
//! encoded again is byte-identical. [`ServiceContext::typed`] interprets
//! the contexts rtorb understands ([`TypedServiceContext`]), each an
//! encapsulation.

use bytes::Bytes;
use rtorb_cdr::codeset::CodeSetContext;
use rtorb_cdr::{ByteOrder, CdrDecode, CdrEncode, CdrError, Decoder, Encoder, Encoding};

/// `IOP::TransactionService`.
pub const TRANSACTION_SERVICE: u32 = 0;
/// `IOP::CodeSets`: the transmission code sets the client chose.
pub const CODE_SETS: u32 = 1;
/// `IOP::ChainBypassCheck`.
pub const CHAIN_BYPASS_CHECK: u32 = 2;
/// `IOP::ChainBypassInfo`.
pub const CHAIN_BYPASS_INFO: u32 = 3;
/// `IOP::LogicalThreadId`.
pub const LOGICAL_THREAD_ID: u32 = 4;
/// `IOP::BI_DIR_IIOP`: the client's listen points for bidirectional IIOP.
pub const BI_DIR_IIOP: u32 = 5;
/// `IOP::SendingContextRunTime`.
pub const SENDING_CONTEXT_RUN_TIME: u32 = 6;
/// `IOP::INVOCATION_POLICIES`.
pub const INVOCATION_POLICIES: u32 = 7;
/// `IOP::FORWARDED_IDENTITY`.
pub const FORWARDED_IDENTITY: u32 = 8;
/// `IOP::UnknownExceptionInfo`.
pub const UNKNOWN_EXCEPTION_INFO: u32 = 9;
/// `IOP::RTCorbaPriority`: the CORBA priority of the invocation.
pub const RT_CORBA_PRIORITY: u32 = 10;
/// `IOP::RTCorbaPriorityRange`.
pub const RT_CORBA_PRIORITY_RANGE: u32 = 11;
/// `IOP::SecurityAttributeService`.
pub const SECURITY_ATTRIBUTE_SERVICE: u32 = 15;

/// One service context, undecoded.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ServiceContext {
    /// The context id (`IOP::ServiceId`).
    pub id: u32,
    /// The context data as on the wire (usually an encapsulation).
    pub data: Bytes,
}

/// A listen point of a bidirectional IIOP connection.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ListenPoint {
    /// Host name or address.
    pub host: String,
    /// TCP port.
    pub port: u16,
}

/// `IIOP::BiDirIIOPServiceContext`: where the client accepts requests
/// sent back over the connection.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct BiDirIIOPServiceContext {
    /// The client's listen points.
    pub listen_points: Vec<ListenPoint>,
}

/// The service contexts rtorb interprets, and the rest kept raw.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TypedServiceContext {
    /// `CodeSets` (id 1).
    CodeSets(CodeSetContext),
    /// `BI_DIR_IIOP` (id 5).
    BiDirIiop(BiDirIIOPServiceContext),
    /// `RTCorbaPriority` (id 10): a CORBA priority, 0 to 32767.
    RtCorbaPriority(i16),
    /// Any other context, byte-exact.
    Unknown(ServiceContext),
}

impl CdrEncode for ListenPoint {
    fn encode(&self, enc: &mut Encoder) -> rtorb_cdr::Result<()> {
        enc.write_string(&self.host)?;
        enc.write_u16(self.port);
        Ok(())
    }
}

impl CdrDecode for ListenPoint {
    const MIN_WIRE_SIZE: usize = 7;
    fn decode(dec: &mut Decoder) -> rtorb_cdr::Result<Self> {
        Ok(ListenPoint {
            host: dec.read_string()?,
            port: dec.read_u16()?,
        })
    }
}

impl CdrEncode for BiDirIIOPServiceContext {
    fn encode(&self, enc: &mut Encoder) -> rtorb_cdr::Result<()> {
        self.listen_points.encode(enc)
    }
}

impl CdrDecode for BiDirIIOPServiceContext {
    const MIN_WIRE_SIZE: usize = 4;
    fn decode(dec: &mut Decoder) -> rtorb_cdr::Result<Self> {
        Ok(BiDirIIOPServiceContext {
            listen_points: Vec::decode(dec)?,
        })
    }
}

/// Writes the octets of an encapsulation (byte-order octet and body, no
/// length) in byte order `order`.
fn encapsulate<F>(order: ByteOrder, body: F) -> rtorb_cdr::Result<Bytes>
where
    F: FnOnce(&mut Encoder) -> rtorb_cdr::Result<()>,
{
    let mut e = Encoder::new(Encoding::native().with_order(order));
    e.write_u8(order.flag());
    body(&mut e)?;
    Ok(e.into_bytes())
}

impl ServiceContext {
    /// A raw service context.
    pub fn new(id: u32, data: Bytes) -> ServiceContext {
        ServiceContext { id, data }
    }

    /// Encodes a typed context, its encapsulation in byte order `order`.
    pub fn from_typed(
        typed: &TypedServiceContext,
        order: ByteOrder,
    ) -> rtorb_cdr::Result<ServiceContext> {
        Ok(match typed {
            TypedServiceContext::CodeSets(c) => ServiceContext {
                id: CODE_SETS,
                data: encapsulate(order, |e| c.encode(e))?,
            },
            TypedServiceContext::BiDirIiop(b) => ServiceContext {
                id: BI_DIR_IIOP,
                data: encapsulate(order, |e| b.encode(e))?,
            },
            TypedServiceContext::RtCorbaPriority(p) => ServiceContext {
                id: RT_CORBA_PRIORITY,
                data: encapsulate(order, |e| {
                    e.write_i16(*p);
                    Ok(())
                })?,
            },
            TypedServiceContext::Unknown(sc) => sc.clone(),
        })
    }

    /// Interprets the context: the ones rtorb knows are decoded from their
    /// encapsulation, the others returned raw.
    pub fn typed(&self) -> rtorb_cdr::Result<TypedServiceContext> {
        let open = || Decoder::from_encapsulation(self.data.clone(), Encoding::native());
        Ok(match self.id {
            CODE_SETS => TypedServiceContext::CodeSets(CodeSetContext::decode(&mut open()?)?),
            BI_DIR_IIOP => {
                TypedServiceContext::BiDirIiop(BiDirIIOPServiceContext::decode(&mut open()?)?)
            }
            RT_CORBA_PRIORITY => TypedServiceContext::RtCorbaPriority(open()?.read_i16()?),
            _ => TypedServiceContext::Unknown(self.clone()),
        })
    }
}

impl CdrEncode for ServiceContext {
    fn encode(&self, enc: &mut Encoder) -> rtorb_cdr::Result<()> {
        enc.write_u32(self.id);
        enc.write_octet_seq(&self.data)
    }
}

impl CdrDecode for ServiceContext {
    const MIN_WIRE_SIZE: usize = 8;
    fn decode(dec: &mut Decoder) -> rtorb_cdr::Result<Self> {
        Ok(ServiceContext {
            id: dec.read_u32()?,
            data: dec.read_octet_seq()?,
        })
    }
}

/// `IOP::ServiceContextList`, in the order received.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ServiceContextList(pub Vec<ServiceContext>);

impl ServiceContextList {
    /// An empty list.
    pub fn new() -> ServiceContextList {
        ServiceContextList(Vec::new())
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Number of contexts.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The first context with id `id`.
    pub fn get(&self, id: u32) -> Option<&ServiceContext> {
        self.0.iter().find(|sc| sc.id == id)
    }

    /// Appends a raw context.
    pub fn push(&mut self, sc: ServiceContext) {
        self.0.push(sc);
    }

    /// Appends a typed context, encapsulated in byte order `order`.
    pub fn push_typed(
        &mut self,
        typed: &TypedServiceContext,
        order: ByteOrder,
    ) -> rtorb_cdr::Result<()> {
        self.0.push(ServiceContext::from_typed(typed, order)?);
        Ok(())
    }

    /// The `CodeSets` context, if present and well formed.
    pub fn code_sets(&self) -> Option<rtorb_cdr::Result<CodeSetContext>> {
        self.get(CODE_SETS).map(|sc| match sc.typed()? {
            TypedServiceContext::CodeSets(c) => Ok(c),
            _ => Err(CdrError::TypeMismatch("CodeSets context")),
        })
    }

    /// The `RTCorbaPriority` context, if present and well formed.
    pub fn rt_corba_priority(&self) -> Option<rtorb_cdr::Result<i16>> {
        self.get(RT_CORBA_PRIORITY).map(|sc| match sc.typed()? {
            TypedServiceContext::RtCorbaPriority(p) => Ok(p),
            _ => Err(CdrError::TypeMismatch("RTCorbaPriority context")),
        })
    }

    /// Iterates over the contexts.
    pub fn iter(&self) -> std::slice::Iter<'_, ServiceContext> {
        self.0.iter()
    }
}

impl CdrEncode for ServiceContextList {
    fn encode(&self, enc: &mut Encoder) -> rtorb_cdr::Result<()> {
        self.0.encode(enc)
    }
}

impl CdrDecode for ServiceContextList {
    const MIN_WIRE_SIZE: usize = 4;
    fn decode(dec: &mut Decoder) -> rtorb_cdr::Result<Self> {
        Ok(ServiceContextList(Vec::decode(dec)?))
    }
}

impl From<Vec<ServiceContext>> for ServiceContextList {
    fn from(v: Vec<ServiceContext>) -> Self {
        ServiceContextList(v)
    }
}
