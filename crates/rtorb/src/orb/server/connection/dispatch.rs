//! The one GIOP dispatch of the server: from a whole request received on
//! a connection (the machine handles every other message) to the object
//! adapters, and back to a reply, whatever the strategy.
//!
//! A `Request` is demultiplexed on its object key (plain keys, then the
//! POAs: [`ServerCore::lookup`]) and dispatched with
//! [`crate::servant::dispatch`] on the skeleton found, `OBJECT_NOT_EXIST`
//! if none; the common request is read in place from the frame
//! ([`request_view_framed`]), anything else decoded in full. A
//! `LocateRequest` is answered with where the object is. A request for an
//! object of a thread pool that arrives on an endpoint that does not serve
//! it is forwarded to its lanes (`threadpool/forward.rs`). A
//! `SYNC_WITH_SERVER` oneway is acknowledged as it is read, its upcall
//! queued ([`Dispatcher::defer`]). A servant, or a servant manager, that
//! panics fails its request with `UNKNOWN`
//! ([`UNKNOWN_SERVANT_PANICKED`](crate::minor::UNKNOWN_SERVANT_PANICKED)), and
//! the thread goes on serving.

use std::sync::Arc;

use bytes::{Bytes, BytesMut};
use rtorb_cdr::{Decoder, Encoding, Version};
use rtorb_giop::message::{
    Content, LocateReply, LocateStatus, Message, RESPONSE_WITH_SERVER, ReplyStatus,
};
use rtorb_giop::{
    CompletionStatus, FrameProtocol, GiopError, MessageWriter, MsgType, ServiceContextList,
    SystemException, SystemExceptionKind, request_view_framed,
};

use super::super::budget::Charge;
use super::super::deferred::DeferredUpcalls;
use super::super::server_core::ServerCore;
use super::super::upcall::{at_priority, request_priority, sent_back_priority, upcall, upcall_at};
use super::machine::Received;
use super::output::{Control, Next};
use super::write::Sink;
use crate::codesets::ServerCodeSets;
use crate::minor::MARSHAL_TARGET_NOT_A_KEY;
use crate::poa::Found;
use crate::poa::adapter_table::{Location, PlainKeyCache};
use crate::probe::{Probe, Stage};
use crate::servant::{ReplyBuilder, ServerRequest};

/// The initial capacity of a connection's reply buffer.
const REPLY_CAPACITY: usize = 512;

/// Room for a `LocateReply` without a body: header, request id, status.
const LOCATE_REPLY_CAPACITY: usize = 32;

/// What a connection keeps to handle its requests: the reply buffer, the
/// code sets, and the servant last called.
pub(super) struct Dispatcher {
    messaging: FrameProtocol,
    /// The reply being written: one buffer, reused for every reply.
    reply: ReplyBuilder,
    /// The servant of the plain key last called on this connection.
    plain_key: PlainKeyCache,
    /// The code sets of the first `CodeSets` context received on it.
    codesets: ServerCodeSets,
    /// Times the stages of a request (with the `probe` feature).
    pub(super) probe: Probe,
    /// The upcalls of `SYNC_WITH_SERVER` requests, run after their
    /// acknowledgement; started with the first.
    deferred: Option<DeferredUpcalls>,
    /// Where `LocateReply`s without a body are written: one buffer,
    /// reused once the reply before has been sent.
    locate_reply: BytesMut,
}

/// `MessageError`, and close.
fn message_error() -> Next {
    Next::Close(Some(Control::MessageError))
}

impl Dispatcher {
    /// The dispatch of a connection of `messaging`, assuming `assumed`
    /// code sets until a `CodeSets` context says otherwise.
    pub(super) fn new(
        messaging: FrameProtocol,
        assumed: rtorb_cdr::TransmissionCodeSets,
    ) -> Dispatcher {
        Dispatcher {
            messaging,
            reply: ReplyBuilder::with_buffer(
                Encoding::native(),
                0,
                BytesMut::with_capacity(REPLY_CAPACITY),
                messaging == FrameProtocol::Lite,
            ),
            plain_key: PlainKeyCache::default(),
            codesets: ServerCodeSets::new(messaging, assumed),
            probe: Probe::start(),
            deferred: None,
            locate_reply: BytesMut::new(),
        }
    }

    /// Handles one whole request or locate request: decodes it (the
    /// common request is read in place), demultiplexes, dispatches and
    /// replies. Every strategy calls it.
    pub(super) fn handle(
        &mut self,
        core: &Arc<ServerCore>,
        received: Received,
        sink: &mut Sink<'_>,
    ) -> Next {
        let (frame, header) = match received {
            Received::Framed(frame, header) => (frame, header),
            Received::Decoded(msg, message) => {
                return self.handle_message(core, &msg, &message, sink);
            }
        };
        // The common request, read in place; anything else in full.
        if let Some(view) = request_view_framed(&frame, &header) {
            self.probe.lap(Stage::ServerParse);
            let incoming = Incoming {
                request_id: view.request_id,
                response_flags: view.response_flags,
                object_key: Some(view.object_key),
                operation: view.operation,
                service_context: None,
                priority: Ok(view.priority),
                encoding: Encoding::native()
                    .with_order(view.order)
                    .with_version(view.version),
                body: Body::At(view.body_offset),
            };
            return self.request(core, &incoming, &frame, sink);
        }
        self.handle_decoded(core, frame, sink)
    }

    /// [`Dispatcher::handle`] for a request [`request_view_framed`] does
    /// not cover: decoded in full.
    #[cold]
    #[inline(never)]
    fn handle_decoded(
        &mut self,
        core: &Arc<ServerCore>,
        frame: Bytes,
        sink: &mut Sink<'_>,
    ) -> Next {
        match self.messaging.decode(frame.clone()) {
            Ok(msg) => self.handle_message(core, &msg, &frame, sink),
            Err(_) => message_error(),
        }
    }

    /// Handles a message decoded in full (`message` its buffer).
    fn handle_message(
        &mut self,
        core: &Arc<ServerCore>,
        msg: &Message,
        message: &Bytes,
        sink: &mut Sink<'_>,
    ) -> Next {
        self.probe.lap(Stage::ServerParse);
        match &msg.content {
            Content::Request(r) => {
                let header = &r.header;
                let incoming = Incoming {
                    request_id: header.request_id,
                    response_flags: header.response_flags,
                    object_key: header.target.object_key().map(|k| &k[..]),
                    operation: header.operation.as_bytes(),
                    service_context: Some(&header.service_context),
                    priority: header
                        .service_context
                        .rt_corba_priority()
                        .transpose()
                        .map_err(|_| ()),
                    encoding: msg.encoding(),
                    body: Body::Of(msg),
                };
                self.request(core, &incoming, message, sink)
            }
            Content::LocateRequest(l) => {
                let located = l.target.object_key().map(|k| core.locate(k));
                let status = match located {
                    Some(Location::Here) => LocateStatus::ObjectHere,
                    Some(Location::Forward(to)) => match to.to_ior() {
                        Ok(ior) => LocateStatus::ObjectForward(ior),
                        Err(_) => LocateStatus::UnknownObject,
                    },
                    // GIOP 1.2 carries the exception; before, the object
                    // is as good as unknown.
                    Some(Location::System(e)) if msg.version >= Version::V1_2 => {
                        LocateStatus::LocSystemException(e)
                    }
                    Some(Location::System(_)) | Some(Location::Unknown) | None => {
                        LocateStatus::UnknownObject
                    }
                };
                let encoded = match self.plain_locate_reply(msg, l.request_id, &status) {
                    Some(b) => Ok(b),
                    None => self.messaging.encode(&Message::new(
                        msg.version,
                        msg.order,
                        Content::LocateReply(LocateReply {
                            request_id: l.request_id,
                            status,
                        }),
                    )),
                };
                match encoded {
                    Ok(b) => sink.send(b),
                    Err(_) => message_error(),
                }
            }
            Content::CancelRequest(_) => Next::Continue,
            Content::CloseConnection | Content::MessageError => Next::Close(None),
            Content::Reply(_) | Content::LocateReply(_) | Content::Fragment(_) => message_error(),
        }
    }

    /// The GIOP `LocateReply` to `request` when its status has no body
    /// (`OBJECT_HERE`, `UNKNOWN_OBJECT`, the usual answers), written into
    /// the buffer kept for them, so that a stream of `LocateRequest`s
    /// costs no allocation; `None` for any other status, or on a GIOPlite
    /// connection.
    fn plain_locate_reply(
        &mut self,
        request: &Message,
        request_id: u32,
        status: &LocateStatus,
    ) -> Option<Bytes> {
        if self.messaging != FrameProtocol::Giop
            || !matches!(
                status,
                LocateStatus::ObjectHere | LocateStatus::UnknownObject
            )
        {
            return None;
        }
        // Takes the whole buffer back once the reply before is dropped.
        self.locate_reply.reserve(LOCATE_REPLY_CAPACITY);
        let buf = self.locate_reply.split_off(0);
        let mut w =
            MessageWriter::with_buffer(buf, request.encoding(), MsgType::LocateReply, false)
                .ok()?;
        let e = w.body();
        e.write_u32(request_id);
        e.write_u32(status.code());
        w.finish().ok()
    }

    fn request(
        &mut self,
        core: &Arc<ServerCore>,
        header: &Incoming<'_>,
        message: &Bytes,
        sink: &mut Sink<'_>,
    ) -> Next {
        let response_expected = header.response_flags & 0x01 != 0;
        let codesets = match header.service_context {
            Some(contexts) => self.codesets.on_request(contexts),
            None => self.codesets.transmission(),
        };
        let encoding = header.encoding.with_codesets(codesets);
        self.reply.reset(encoding, header.request_id);
        if header.response_flags == RESPONSE_WITH_SERVER {
            if let Some(next) = self.defer(core, header, message, encoding, sink) {
                return next;
            }
        }
        // In order: after the upcalls queued before.
        if let Some(deferred) = &self.deferred {
            deferred.wait_idle();
        }
        let outcome = match header.object_key {
            None => Err(SystemException::new(
                SystemExceptionKind::Marshal,
                MARSHAL_TARGET_NOT_A_KEY,
                CompletionStatus::No,
            )),
            Some(key) => match core
                .forward_to_lane(key, core.lookup(key, header.operation, &mut self.plain_key))
            {
                Err(e) => Err(e),
                Ok(Found::Forward(to)) => match self.reply.start(ReplyStatus::LocationForward) {
                    Ok(e) => to
                        .to_ior()
                        .and_then(|ior| rtorb_cdr::CdrEncode::encode(&ior, e))
                        .map_err(SystemException::from),
                    Err(e) => Err(e.to_system_exception()),
                },
                Ok(Found::Servant(servant)) => match header.body.arguments(message, encoding) {
                    None => Err(GiopError::Cdr(rtorb_cdr::CdrError::Unsupported(
                        "request without a body",
                    ))
                    .to_system_exception()),
                    Some(arguments) if header.response_flags == RESPONSE_WITH_SERVER => {
                        // SYNC_WITH_SERVER that could not be queued: runs
                        // here as a plain oneway at the request's
                        // priority, acknowledged once the thread is at it
                        // and before the upcall; a priority it cannot run
                        // at is answered instead of the acknowledgement.
                        let reply = &mut self.reply;
                        let run = |at| {
                            at_priority(core, at, || {
                                let sent = match reply.complete(Ok(())) {
                                    Ok(()) => sink.send_reply(reply),
                                    Err(_) => return message_error(),
                                };
                                reply.reset(encoding, header.request_id);
                                let mut req =
                                    arguments.request(header.operation, key, false, reply);
                                let _ = upcall(core, &**servant.skeleton(), &mut req);
                                sent
                            })
                        };
                        match request_priority(servant.priority_model(), header.priority)
                            .and_then(run)
                        {
                            Ok(sent) => return sent,
                            Err(e) => Err(e),
                        }
                    }
                    Some(arguments) => {
                        self.probe.lap(Stage::ServerDemux);
                        let model = servant.priority_model();
                        match request_priority(model, header.priority) {
                            Err(e) => Err(e),
                            Ok(at) => {
                                if let Some(p) = sent_back_priority(model, header.priority) {
                                    self.reply.send_back_priority(p);
                                }
                                let mut req = arguments.request(
                                    header.operation,
                                    key,
                                    response_expected,
                                    &mut self.reply,
                                );
                                let outcome = upcall_at(core, at, &**servant.skeleton(), &mut req);
                                self.probe.lap(Stage::ServerUpcall);
                                outcome
                            }
                        }
                    }
                },
            },
        };
        if !response_expected {
            return Next::Continue;
        }
        match self.reply.complete(outcome) {
            Ok(()) => {
                self.probe.lap(Stage::ServerMarshal);
                let next = sink.send_reply(&mut self.reply);
                self.probe.lap(Stage::ServerWrite);
                next
            }
            Err(_) => message_error(),
        }
    }
}

impl Dispatcher {
    /// `SYNC_WITH_SERVER`: if the object is here, queues the upcall on the
    /// connection's [`DeferredUpcalls`] and acknowledges the request at
    /// once (the reply `reset` for it); `None` if not (the object is
    /// elsewhere or unknown, or no thread could be started for the
    /// upcalls), for the request to be handled where it is read.
    ///
    /// A GIOP 1.2 oneway with `SYNC_WITH_SERVER` response flags is
    /// acknowledged when it is read, with an empty `NO_EXCEPTION` reply,
    /// once its object is located here (as a `LocateRequest` locates it: a
    /// servant activator incarnates it, a forward or an unknown object is
    /// answered instead of the acknowledgement); its upcall is then queued,
    /// so the connection goes on reading, and the next request's
    /// acknowledgement never waits for this servant. Every other request
    /// waits for the queued upcalls before it runs, so a connection's
    /// requests are dispatched in the order they came. (With
    /// `SYNC_WITH_TARGET` a oneway is answered after its upcall, as a
    /// twoway.) A servant locator is asked when the queued upcall runs: a
    /// `ForwardRequest` it raises then can no longer reach the client,
    /// which has its acknowledgement, and the request is dropped as a
    /// oneway's failure is. The queued upcall runs at the priority the
    /// servant's Real-time CORBA priority model gives the request, as
    /// every upcall does, and the thread is put back after; a priority it
    /// cannot run at drops the request likewise.
    #[cold]
    #[inline(never)]
    fn defer(
        &mut self,
        core: &Arc<ServerCore>,
        header: &Incoming<'_>,
        message: &Bytes,
        encoding: Encoding,
        sink: &mut Sink<'_>,
    ) -> Option<Next> {
        let key = header.object_key?;
        if !matches!(core.locate(key), Location::Here) {
            return None;
        }
        let body = match header.body {
            Body::At(offset) => OwnedBody::At(offset),
            Body::Of(msg) => OwnedBody::Decoder(msg.body_decoder(message, encoding.codesets)?),
        };
        // The message waits in the queue: charged to the memory budget
        // until its upcall has run. When the budget cannot take it, the
        // request runs where it is read, and the connection is not read
        // meanwhile.
        let mut held = Charge::new(&core.budget);
        if !held.hold(message.len()) {
            return None;
        }
        if self.deferred.is_none() {
            self.deferred = DeferredUpcalls::start(core).ok();
        }
        let deferred = self.deferred.as_ref()?;
        let job = DeferredRequest {
            request_id: header.request_id,
            key: Bytes::copy_from_slice(key),
            operation: Bytes::copy_from_slice(header.operation),
            message: message.clone(),
            encoding,
            body,
            priority: header.priority,
            lite: self.messaging == FrameProtocol::Lite,
        };
        deferred.push(Box::new(move |core| {
            job.run(core);
            drop(held);
        }));
        Some(match self.reply.complete(Ok(())) {
            Ok(()) => sink.send_reply(&mut self.reply),
            Err(_) => message_error(),
        })
    }
}

/// A `SYNC_WITH_SERVER` request acknowledged, its upcall queued: what it
/// needs once the upcalls before it have run.
struct DeferredRequest {
    request_id: u32,
    key: Bytes,
    operation: Bytes,
    message: Bytes,
    encoding: Encoding,
    body: OwnedBody,
    /// What its `RTCorbaPriority` context held (see [`Incoming`]).
    priority: Result<Option<i16>, ()>,
    lite: bool,
}

/// Where the arguments of a [`DeferredRequest`] are.
enum OwnedBody {
    /// At this offset of its message.
    At(usize),
    /// In this decoder.
    Decoder(Decoder),
}

impl DeferredRequest {
    /// Finds the servant and runs the upcall, on the thread of the
    /// connection's deferred upcalls, at the priority the servant's
    /// priority model gives the request (the thread put back after, as
    /// for every upcall); what fails (a priority it cannot run at among
    /// it) is dropped, as a oneway's failure is.
    fn run(self, core: &ServerCore) {
        let mut cache = PlainKeyCache::default();
        let Ok(Found::Servant(servant)) = core.lookup(&self.key, &self.operation, &mut cache)
        else {
            return;
        };
        let Ok(at) = request_priority(servant.priority_model(), self.priority) else {
            return;
        };
        let mut reply =
            ReplyBuilder::with_buffer(self.encoding, self.request_id, BytesMut::new(), self.lite);
        let arguments = match self.body {
            OwnedBody::At(offset) => Arguments::At(&self.message, offset, self.encoding),
            OwnedBody::Decoder(d) => Arguments::Decoder(d),
        };
        let mut req = arguments.request(&self.operation, &self.key, false, &mut reply);
        let _ = upcall_at(core, at, &**servant.skeleton(), &mut req);
    }
}

/// A request's header as the server uses it: read in place
/// ([`request_view_framed`]) or from a decoded [`Message`].
struct Incoming<'a> {
    request_id: u32,
    response_flags: u8,
    /// `None`: not addressed by object key.
    object_key: Option<&'a [u8]>,
    operation: &'a [u8],
    /// `None`: none were sent.
    service_context: Option<&'a ServiceContextList>,
    /// The priority of its `RTCorbaPriority` context, if it has one; `Err`
    /// if that context does not hold one.
    priority: Result<Option<i16>, ()>,
    /// The message's byte order and version.
    encoding: Encoding,
    body: Body<'a>,
}

/// Where a request's body is.
enum Body<'a> {
    /// At this offset of the message.
    At(usize),
    /// Where the decoded message says (with its realignments).
    Of(&'a Message),
}

impl<'a> Body<'a> {
    /// Where the arguments in `message` are, in `encoding`; `None` if the
    /// decoded message has no body.
    fn arguments(&self, message: &'a Bytes, encoding: Encoding) -> Option<Arguments<'a>> {
        match self {
            Body::At(offset) => Some(Arguments::At(message, *offset, encoding)),
            Body::Of(msg) => msg
                .body_decoder(message, encoding.codesets)
                .map(Arguments::Decoder),
        }
    }
}

/// The arguments of a request, for its [`ServerRequest`].
enum Arguments<'a> {
    /// At this offset of the message, in this encoding: decoded only if
    /// the skeleton asks.
    At(&'a Bytes, usize, Encoding),
    /// In this decoder.
    Decoder(Decoder),
}

impl<'a> Arguments<'a> {
    fn request(
        self,
        operation: &'a [u8],
        key: &'a [u8],
        response_expected: bool,
        reply: &'a mut ReplyBuilder,
    ) -> ServerRequest<'a> {
        match self {
            Arguments::At(message, offset, encoding) => ServerRequest::in_message(
                operation,
                key,
                response_expected,
                message,
                offset,
                encoding,
                reply,
            ),
            Arguments::Decoder(d) => {
                ServerRequest::new(operation, key, response_expected, d, reply)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use bytes::Bytes;
    use rtorb_cdr::{ByteOrder, Version};
    use rtorb_giop::message::{Content, LocateRequest, LocateStatus, Message};
    use rtorb_giop::target::TargetAddress;
    use rtorb_giop::{FrameProtocol, encode_message};

    use super::Dispatcher;
    use crate::orb::OrbConfig;

    fn dispatcher() -> Dispatcher {
        Dispatcher::new(
            FrameProtocol::Giop,
            OrbConfig::default().code_sets.assumed(),
        )
    }

    #[test]
    fn a_plain_locate_reply_is_the_encoded_one_in_a_reused_buffer() {
        let mut d = dispatcher();
        for version in [Version::V1_0, Version::V1_1, Version::V1_2] {
            for order in [ByteOrder::Big, ByteOrder::Little] {
                let request = Message::new(
                    version,
                    order,
                    Content::LocateRequest(LocateRequest {
                        request_id: 7,
                        target: TargetAddress::Key(Bytes::from_static(b"k")),
                    }),
                );
                for status in [LocateStatus::ObjectHere, LocateStatus::UnknownObject] {
                    let got = d
                        .plain_locate_reply(&request, 0x0102_0304, &status)
                        .unwrap();
                    let want = encode_message(&Message::new(
                        version,
                        order,
                        Content::LocateReply(rtorb_giop::message::LocateReply {
                            request_id: 0x0102_0304,
                            status,
                        }),
                    ))
                    .unwrap();
                    assert_eq!(got, want, "{version:?} {order:?}");
                    // Once sent (dropped), the next reply reuses its octets.
                    let at = got.as_ptr();
                    drop(got);
                    let again = d
                        .plain_locate_reply(&request, 1, &LocateStatus::ObjectHere)
                        .unwrap();
                    assert_eq!(again.as_ptr(), at, "the buffer is reused");
                }
            }
        }
        // A status with a body is encoded in full, elsewhere.
        let request = Message::new(
            Version::V1_2,
            ByteOrder::Big,
            Content::LocateRequest(LocateRequest {
                request_id: 7,
                target: TargetAddress::Key(Bytes::from_static(b"k")),
            }),
        );
        let forward = LocateStatus::LocNeedsAddressingMode(
            rtorb_giop::target::AddressingDisposition::KEY_ADDR,
        );
        assert!(d.plain_locate_reply(&request, 1, &forward).is_none());
    }
}
