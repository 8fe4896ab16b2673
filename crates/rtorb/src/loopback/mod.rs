//! An in-process [`Invoker`] that puts every call through real GIOP
//! octets.
//!
//! For each call the [`Loopback`] writes a GIOP `Request` message in its
//! configured version and byte order, decodes it with
//! [`decode_message`] as a server would, finds the servant by object key,
//! runs it through [`dispatch`], writes a GIOP `Reply` message, decodes
//! that as a client would, and hands the reply to the stub. Oneway
//! requests are dispatched and no reply is written, except for the sync
//! scopes that wait for one: the loopback runs the servant before it
//! answers, so `SYNC_WITH_SERVER` waits as long as `SYNC_WITH_TARGET`.
//!
//! It is how generated stubs and skeletons are tested without a network,
//! and the model the ORB core's invoker follows: message buffers come
//! from pools and are reused once the previous message is dropped, so a
//! call of primitive arguments allocates nothing in steady state.

mod buffer_pool;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, Encoding, Version};
use rtorb_giop::message::{
    Content, Message, MessageWriter, RESPONSE_WITH_TARGET, ReplyStatus, RequestHeader,
};
use rtorb_giop::service_context::ServiceContextList;
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{
    CompletionStatus, GiopError, ObjectReference, Operation, SystemException, SystemExceptionKind,
    decode_message,
};

use crate::exception::object_not_exist;
use crate::minor::{MARSHAL_TARGET_NOT_A_KEY, MARSHAL_UNEXPECTED_REPLY};
use crate::object::{Arguments, Hop, Invoker, Object, Reply, Target, follow_forwards};
use crate::policy::SyncScope;
use crate::servant::{ReplyBuilder, ServerRequest, Skeleton, dispatch};
use crate::sync::RwLock;
use buffer_pool::BufferPool;

/// Capacity of the pooled message buffers.
const BUFFER_CAPACITY: usize = 512;

/// What an object key is registered for.
#[derive(Clone)]
enum Entry {
    Servant(Arc<dyn Skeleton>),
    Forward(ObjectReference),
}

/// The in-process invoker and object table. See the [module](self).
///
/// # Example
///
/// A hand-written stub and skeleton for
/// `interface Calc { long twice(in long l); };`, exactly as generated
/// code looks, called through the loopback:
///
/// ```
/// use std::sync::Arc;
/// use rtorb::cdr::{ByteOrder, CdrDecode, CdrEncode, Version};
/// use rtorb::exception::bad_operation;
/// use rtorb::loopback::Loopback;
/// use rtorb::{Object, ServerRequest, Skeleton, Stub, SystemException};
///
/// /// Stub of `Calc`.
/// #[derive(Debug, Clone)]
/// pub struct Calc(Object);
///
/// impl Stub for Calc {
///     const REPOSITORY_ID: &'static str = "IDL:Calc:1.0";
///     fn from_object(object: Object) -> Self { Calc(object) }
///     fn as_object(&self) -> &Object { &self.0 }
///     fn into_object(self) -> Object { self.0 }
/// }
///
/// impl Calc {
///     pub fn twice(&self, l: i32) -> Result<i32, SystemException> {
///         self.0.invoke("twice", |e| l.encode(e))?.decode(i32::decode)
///     }
/// }
///
/// /// Servant trait of `Calc`.
/// pub trait CalcServant: Send + Sync {
///     fn twice(&self, l: i32) -> Result<i32, SystemException>;
/// }
///
/// /// Skeleton of `Calc`.
/// pub struct CalcSkeleton<S>(pub S);
///
/// impl<S: CalcServant> Skeleton for CalcSkeleton<S> {
///     fn repository_ids(&self) -> &'static [&'static str] { &["IDL:Calc:1.0"] }
///     fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
///         match req.operation() {
///             "twice" => {
///                 let l = i32::decode(req.arguments())?;
///                 let r = self.0.twice(l)?;
///                 req.write_results(|e| r.encode(e))
///             }
///             _ => Err(bad_operation()),
///         }
///     }
/// }
///
/// struct Doubler;
/// impl CalcServant for Doubler {
///     fn twice(&self, l: i32) -> Result<i32, SystemException> { Ok(l.wrapping_mul(2)) }
/// }
///
/// let orb = Loopback::new(Version::V1_2, ByteOrder::Big);
/// let obj = orb.activate(&b"calc"[..], Arc::new(CalcSkeleton(Doubler)));
/// let calc = Calc::narrow(obj).unwrap().expect("a Calc");
/// assert_eq!(calc.twice(21).unwrap(), 42);
/// assert!(!calc.as_object().non_existent().unwrap());
/// ```
pub struct Loopback {
    encoding: Encoding,
    objects: RwLock<HashMap<Bytes, Entry>>,
    next_request_id: AtomicU32,
    requests: BufferPool,
    replies: BufferPool,
}

impl std::fmt::Debug for Loopback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Loopback")
            .field("encoding", &self.encoding)
            .finish_non_exhaustive()
    }
}

impl Loopback {
    /// A loopback that writes GIOP `version` messages in byte `order`, with
    /// the code sets two rtorb ORBs negotiate in that version (UTF-8 and
    /// UTF-16 from GIOP 1.1; ISO 8859-1 and no wchar code set in 1.0).
    pub fn new(version: Version, order: ByteOrder) -> Arc<Loopback> {
        let codesets = if version >= Version::V1_1 {
            rtorb_cdr::TransmissionCodeSets {
                char_data: rtorb_cdr::CodeSetId::UTF_8,
                wchar_data: rtorb_cdr::CodeSetId::UTF_16,
            }
        } else {
            rtorb_cdr::TransmissionCodeSets::UNNEGOTIATED
        };
        Arc::new(Loopback {
            encoding: Encoding::native()
                .with_version(version)
                .with_order(order)
                .with_codesets(codesets),
            objects: RwLock::new(HashMap::new()),
            next_request_id: AtomicU32::new(1),
            requests: BufferPool::new(BUFFER_CAPACITY),
            replies: BufferPool::new(BUFFER_CAPACITY),
        })
    }

    /// The GIOP version, byte order and code sets of its messages.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Registers `skeleton` under `object_key` (replacing what was there)
    /// and returns a reference to it, typed by its most derived
    /// repository id.
    pub fn activate(
        self: &Arc<Self>,
        object_key: impl Into<Bytes>,
        skeleton: Arc<dyn Skeleton>,
    ) -> Object {
        let key = object_key.into();
        let type_id = skeleton.repository_ids().first().copied().unwrap_or("");
        self.insert(key.clone(), Entry::Servant(skeleton));
        self.object(type_id, key)
    }

    /// Makes requests to `object_key` answered with `LOCATION_FORWARD` to
    /// `reference` (whose object key the loopback then calls).
    pub fn forward(&self, object_key: impl Into<Bytes>, reference: ObjectReference) {
        self.insert(object_key.into(), Entry::Forward(reference));
    }

    /// Removes what is registered under `object_key`; whether anything
    /// was.
    pub fn deactivate(&self, object_key: &[u8]) -> bool {
        self.objects.write().remove(object_key).is_some()
    }

    /// A reference to whatever is (or will be) registered under
    /// `object_key`.
    pub fn object(self: &Arc<Self>, type_id: &str, object_key: impl Into<Bytes>) -> Object {
        let invoker: Arc<dyn Invoker> = self.clone();
        Object::new(invoker, Target::from_key(type_id, object_key))
    }

    fn insert(&self, key: Bytes, entry: Entry) {
        self.objects.write().insert(key, entry);
    }

    fn lookup(&self, key: &[u8]) -> Option<Entry> {
        self.objects.read().get(key).cloned()
    }

    /// Writes the request message.
    fn write_request(
        &self,
        key: &Bytes,
        operation: &Operation,
        response_flags: u8,
        arguments: Arguments<'_>,
    ) -> Result<(u32, Bytes), SystemException> {
        let request_id = self.next_request_id.fetch_add(1, Ordering::Relaxed);
        let header = RequestHeader {
            request_id,
            response_flags,
            target: TargetAddress::Key(key.clone()),
            operation: operation.clone(),
            service_context: ServiceContextList::new(),
            requesting_principal: Bytes::new(),
            reserved: [0; 3],
        };
        let mut w =
            MessageWriter::request_with_buffer(self.requests.take(), self.encoding, &header)?;
        arguments(w.body())?;
        Ok((request_id, w.finish()?))
    }

    /// The server half: decodes a request message, dispatches it, and
    /// returns the reply message (none for a oneway).
    fn serve(&self, message: Bytes) -> Result<Option<Bytes>, SystemException> {
        let msg = decode_message(message.clone())?;
        let Content::Request(request) = &msg.content else {
            return Err(unexpected());
        };
        let header = &request.header;
        let response_expected = header.response_expected();
        let Some(key) = header.target.object_key() else {
            return Err(SystemException::new(
                SystemExceptionKind::Marshal,
                MARSHAL_TARGET_NOT_A_KEY,
                CompletionStatus::No,
            ));
        };
        let mut reply = ReplyBuilder::with_buffer(
            msg.encoding().with_codesets(self.encoding.codesets),
            header.request_id,
            self.replies.take(),
            false,
        );
        let outcome = match self.lookup(key) {
            None => Err(object_not_exist()),
            Some(Entry::Forward(to)) => {
                let e = reply.start(ReplyStatus::LocationForward)?;
                to.to_ior()
                    .and_then(|ior| rtorb_cdr::CdrEncode::encode(&ior, e))?;
                Ok(())
            }
            Some(Entry::Servant(skeleton)) => {
                let arguments = body_decoder(&msg, &message, self.encoding)?;
                let mut req = ServerRequest::new(
                    header.operation.as_bytes(),
                    key,
                    response_expected,
                    arguments,
                    &mut reply,
                );
                dispatch(&*skeleton, &mut req)
            }
        };
        if !response_expected {
            // The outcome of a oneway is not reported; the reply, if the
            // skeleton started one, is dropped unsent.
            return Ok(None);
        }
        Ok(Some(reply.finish(outcome)?))
    }

    /// The client half of reading a reply: the body for the stub, or the
    /// reference to forward to.
    fn read_reply(&self, request_id: u32, message: Bytes) -> Result<Outcome, SystemException> {
        let msg = decode_message(message.clone()).map_err(|e| completed_maybe(&e))?;
        let Content::Reply(reply) = &msg.content else {
            return Err(unexpected());
        };
        if reply.header.request_id != request_id {
            return Err(unexpected());
        }
        let body = || body_decoder(&msg, &message, self.encoding).map_err(|e| completed_maybe(&e));
        match reply.header.reply_status {
            ReplyStatus::NoException => Ok(Outcome::Reply(Reply::results(body()?))),
            ReplyStatus::UserException => Ok(Outcome::Reply(Reply::user_exception(body()?))),
            ReplyStatus::SystemException => Err(reply
                .system_exception(msg.order)
                .map_err(|e| completed_maybe(&e))?),
            ReplyStatus::LocationForward | ReplyStatus::LocationForwardPerm => {
                let ior = reply
                    .forward_ior(msg.order)
                    .map_err(|e| completed_maybe(&e))?;
                let reference = ObjectReference::from_ior(&ior)
                    .map_err(|e| completed_maybe(&GiopError::Cdr(e)))?;
                Ok(Outcome::Forward(Target::from_reference(reference)?))
            }
            ReplyStatus::NeedsAddressingMode => Err(unexpected()),
        }
    }

    /// One exchange, following forwards.
    fn call(
        &self,
        target: &Target,
        operation: &Operation,
        response_flags: u8,
        arguments: Arguments<'_>,
    ) -> Result<Option<Reply>, SystemException> {
        match self.exchange(target, operation, response_flags, arguments)? {
            Hop::Done(r) => Ok(r),
            Hop::Forward(to) => follow_forwards(to, |t| {
                self.exchange(t, operation, response_flags, arguments)
            }),
        }
    }

    /// One request to `target` and its reply, if one is written.
    fn exchange(
        &self,
        target: &Target,
        operation: &Operation,
        response_flags: u8,
        arguments: Arguments<'_>,
    ) -> Result<Hop<Target, Option<Reply>>, SystemException> {
        let (request_id, request) =
            self.write_request(target.object_key(), operation, response_flags, arguments)?;
        let Some(reply) = self.serve(request)? else {
            return Ok(Hop::Done(None));
        };
        Ok(match self.read_reply(request_id, reply)? {
            Outcome::Reply(r) => Hop::Done(Some(r)),
            Outcome::Forward(t) => Hop::Forward(t),
        })
    }
}

/// A decoded reply, as far as the invoker is concerned.
enum Outcome {
    Reply(Reply),
    Forward(Target),
}

impl Invoker for Loopback {
    fn invoke(
        &self,
        target: &Target,
        operation: Operation,
        arguments: Arguments<'_>,
    ) -> Result<Reply, SystemException> {
        self.call(target, &operation, RESPONSE_WITH_TARGET, arguments)?
            .ok_or_else(unexpected)
    }

    fn invoke_oneway(
        &self,
        target: &Target,
        operation: Operation,
        sync: SyncScope,
        arguments: Arguments<'_>,
    ) -> Result<(), SystemException> {
        // Without a reply (SYNC_NONE, SYNC_WITH_TRANSPORT) the server's
        // answer is discarded unwritten; only failures to frame or read the
        // request reach the caller.
        self.call(target, &operation, sync.response_flags(), arguments)
            .map(|_| ())
    }
}

/// A decoder over the body of `msg`, decoded from `message`.
fn body_decoder(
    msg: &Message,
    message: &Bytes,
    encoding: Encoding,
) -> Result<rtorb_cdr::Decoder, GiopError> {
    msg.body_decoder(message, encoding.codesets)
        .ok_or(GiopError::Cdr(rtorb_cdr::CdrError::Unsupported(
            "message without a body",
        )))
}

fn unexpected() -> SystemException {
    SystemException::new(
        SystemExceptionKind::Marshal,
        MARSHAL_UNEXPECTED_REPLY,
        CompletionStatus::Maybe,
    )
}

/// A reply that cannot be read leaves the client not knowing whether the
/// operation ran.
fn completed_maybe(e: &GiopError) -> SystemException {
    let mut ex = e.to_system_exception();
    ex.completed = CompletionStatus::Maybe;
    ex
}
