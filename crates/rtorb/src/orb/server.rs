//! The server side of the ORB: acceptor threads, a thread per connection,
//! and dispatch by object key.
//!
//! Each acceptor runs on its own thread and starts a thread for every
//! connection it accepts. A connection thread reads one message at a time
//! (reassembling fragments), dispatches requests with
//! [`crate::runtime::dispatch`] on the skeleton registered under the
//! object key (`OBJECT_NOT_EXIST` if none), and writes each reply before
//! reading on. It answers `LocateRequest`s, ignores `CancelRequest`s
//! (requests run to completion before the next message is read), and
//! answers malformed input with a `MessageError` and closes that
//! connection only. Replies are written in the GIOP version and byte order
//! of the request, or in GIOPlite on a GIOPlite connection. Arguments are
//! read and replies written in the code sets of the first `CodeSets`
//! service context the connection received (see [`super::codesets`]).
//!
//! On shutdown the acceptors stop, every connection finishes the request
//! it is running, sends `CloseConnection` (a request that arrives after
//! that point is not started, so the client may send it again), and
//! closes.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::thread::JoinHandle;
use std::time::Duration;

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, RTORB_VMCID, Version};
use rtorb_giop::message::{Content, LocateReply, LocateStatus, Message, ReplyStatus};
use rtorb_giop::{
    CompletionStatus, FrameProtocol, GiopError, ObjectReference, Reassembler, ReassemblyLimits,
    SystemException, SystemExceptionKind, decode_lite, encode_lite, encode_message,
};

use super::codesets::ServerCodeSets;
use crate::runtime::{
    BufferPool, Invoker, MARSHAL_TARGET_NOT_A_KEY, ReplyBuilder, ServerRequest, Skeleton, dispatch,
    object_not_exist, with_invoker,
};
use crate::transport::{Acceptor, FrameReader, Transport, TransportError};

/// `UNKNOWN` minor code for a servant that panicked (rtorb).
pub const UNKNOWN_SERVANT_PANICKED: u32 = RTORB_VMCID | 0x310;

/// Capacity of the pooled reply buffers.
const BUFFER_CAPACITY: usize = 512;

/// How long an acceptor sleeps when no connection is waiting.
const ACCEPT_POLL: Duration = Duration::from_millis(5);

/// The object map and thread bookkeeping shared by the server threads.
pub(crate) struct ServerCore {
    objects: RwLock<HashMap<Bytes, Entry>>,
    stopping: AtomicBool,
    connections: Mutex<Vec<JoinHandle<()>>>,
    poll_interval: Duration,
    write_timeout: Duration,
    /// Binds object references that arrive in requests, so a servant can
    /// call them (the ORB's own client side).
    invoker: Arc<dyn Invoker>,
}

/// What an object key is registered for.
#[derive(Clone)]
pub(crate) enum Entry {
    /// A servant, through its skeleton.
    Servant(Arc<dyn Skeleton>),
    /// Requests are answered with `LOCATION_FORWARD` to this reference.
    Forward(ObjectReference),
}

impl std::fmt::Debug for ServerCore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerCore")
            .field("stopping", &self.stopping())
            .finish_non_exhaustive()
    }
}

impl ServerCore {
    pub(crate) fn new(
        poll_interval: Duration,
        write_timeout: Duration,
        invoker: Arc<dyn Invoker>,
    ) -> ServerCore {
        ServerCore {
            objects: RwLock::new(HashMap::new()),
            stopping: AtomicBool::new(false),
            connections: Mutex::new(Vec::new()),
            poll_interval,
            write_timeout,
            invoker,
        }
    }

    pub(crate) fn insert(&self, key: Bytes, entry: Entry) {
        match self.objects.write() {
            Ok(mut m) => m.insert(key, entry),
            Err(p) => p.into_inner().insert(key, entry),
        };
    }

    pub(crate) fn remove(&self, key: &[u8]) -> bool {
        match self.objects.write() {
            Ok(mut m) => m.remove(key).is_some(),
            Err(p) => p.into_inner().remove(key).is_some(),
        }
    }

    pub(crate) fn lookup(&self, key: &[u8]) -> Option<Entry> {
        match self.objects.read() {
            Ok(m) => m.get(key).cloned(),
            Err(p) => p.into_inner().get(key).cloned(),
        }
    }

    pub(crate) fn stopping(&self) -> bool {
        self.stopping.load(Ordering::Acquire)
    }

    pub(crate) fn stop(&self) {
        self.stopping.store(true, Ordering::Release);
    }

    /// Joins every connection thread (after the acceptors have stopped).
    pub(crate) fn join_connections(&self) {
        loop {
            let handles: Vec<JoinHandle<()>> = match self.connections.lock() {
                Ok(mut v) => v.drain(..).collect(),
                Err(p) => p.into_inner().drain(..).collect(),
            };
            if handles.is_empty() {
                return;
            }
            for h in handles {
                let _ = h.join();
            }
        }
    }

    fn add_connection(&self, handle: JoinHandle<()>) {
        let mut v = match self.connections.lock() {
            Ok(v) => v,
            Err(p) => p.into_inner(),
        };
        // Reap the threads of connections that have ended.
        let mut i = 0;
        while i < v.len() {
            if v[i].is_finished() {
                let _ = v.swap_remove(i).join();
            } else {
                i += 1;
            }
        }
        v.push(handle);
    }
}

/// Starts the thread of `acceptor`.
pub(crate) fn spawn_acceptor(
    core: Arc<ServerCore>,
    acceptor: Box<dyn Acceptor>,
) -> std::io::Result<JoinHandle<()>> {
    acceptor.set_nonblocking(true)?;
    std::thread::Builder::new()
        .name("rtorb-acceptor".into())
        .spawn(move || accept_loop(&core, &*acceptor))
}

fn accept_loop(core: &Arc<ServerCore>, acceptor: &dyn Acceptor) {
    while !core.stopping() {
        match acceptor.accept() {
            Ok(transport) => {
                let c = Arc::clone(core);
                let spawned = std::thread::Builder::new()
                    .name("rtorb-connection".into())
                    .spawn(move || serve_connection(&c, transport));
                if let Ok(h) = spawned {
                    core.add_connection(h);
                }
            }
            Err(e) if e.is_would_block() => std::thread::sleep(ACCEPT_POLL),
            // A failed accept (a peer that reset before we took it, or a
            // lack of descriptors): wait a little and go on.
            Err(_) => std::thread::sleep(ACCEPT_POLL),
        }
    }
}

/// What to do after a message.
enum Next {
    Continue,
    /// Send this message, if any, and close.
    Close(Option<Bytes>),
}

struct Connection {
    transport: Box<dyn Transport>,
    messaging: FrameProtocol,
    reassembler: Reassembler,
    replies: BufferPool,
    codesets: ServerCodeSets,
}

fn serve_connection(core: &ServerCore, mut transport: Box<dyn Transport>) {
    let ready = transport
        .set_nonblocking(false)
        .and_then(|()| transport.set_read_timeout(Some(core.poll_interval)))
        .and_then(|()| transport.set_write_timeout(Some(core.write_timeout)));
    if ready.is_err() {
        return;
    }
    let messaging = transport.messaging();
    let mut reader = FrameReader::new(messaging);
    let mut conn = Connection {
        transport,
        messaging,
        reassembler: Reassembler::new(ReassemblyLimits::default()),
        replies: BufferPool::new(BUFFER_CAPACITY),
        codesets: ServerCodeSets::new(messaging),
    };
    let next = loop {
        if core.stopping() {
            break Next::Close(Some(conn.control(Content::CloseConnection)));
        }
        let frame = match reader.read_frame(&mut *conn.transport) {
            Ok(Some(f)) => f,
            Ok(None) => break Next::Close(None),
            Err(e) if e.is_timeout() || e.is_would_block() => continue,
            Err(TransportError::Giop(_)) => {
                break Next::Close(Some(conn.control(Content::MessageError)));
            }
            Err(_) => break Next::Close(None),
        };
        if core.stopping() {
            // Not started: the client may send it again elsewhere.
            break Next::Close(Some(conn.control(Content::CloseConnection)));
        }
        match conn.handle(core, frame) {
            Next::Continue => {}
            close => break close,
        }
    };
    if let Next::Close(Some(last)) = next {
        let _ = conn.transport.write_all_vectored(&[last]);
    }
    let _ = conn.transport.shutdown(std::net::Shutdown::Both);
}

impl Connection {
    /// A message without a body (`CloseConnection`, `MessageError`) in
    /// the connection's protocol.
    fn control(&self, content: Content) -> Bytes {
        let msg = Message::new(Version::V1_0, ByteOrder::NATIVE, content);
        let encoded = match self.messaging {
            FrameProtocol::Giop => encode_message(&msg),
            FrameProtocol::Lite => encode_lite(&msg),
        };
        encoded.unwrap_or_default()
    }

    fn message_error(&self) -> Next {
        Next::Close(Some(self.control(Content::MessageError)))
    }

    fn handle(&mut self, core: &ServerCore, frame: Bytes) -> Next {
        let decoded = match self.messaging {
            FrameProtocol::Giop => match self.reassembler.push_message(frame) {
                Ok(None) => return Next::Continue,
                Ok(Some(pair)) => Ok(pair),
                Err(e) => Err(e),
            },
            FrameProtocol::Lite => decode_lite(frame.clone()).map(|m| (m, frame)),
        };
        let (msg, message) = match decoded {
            Ok((m, _)) if m.more_fragments => return self.message_error(),
            Ok(pair) => pair,
            Err(_) => return self.message_error(),
        };
        match &msg.content {
            Content::Request(_) => self.request(core, &msg, &message),
            Content::LocateRequest(l) => {
                let status = match l.target.object_key().and_then(|k| core.lookup(k)) {
                    Some(Entry::Servant(_)) => LocateStatus::ObjectHere,
                    Some(Entry::Forward(to)) => match to.to_ior() {
                        Ok(ior) => LocateStatus::ObjectForward(ior),
                        Err(_) => LocateStatus::UnknownObject,
                    },
                    None => LocateStatus::UnknownObject,
                };
                let reply = Message::new(
                    msg.version,
                    msg.order,
                    Content::LocateReply(LocateReply {
                        request_id: l.request_id,
                        status,
                    }),
                );
                let encoded = match self.messaging {
                    FrameProtocol::Giop => encode_message(&reply),
                    FrameProtocol::Lite => encode_lite(&reply),
                };
                match encoded {
                    Ok(b) => self.send(b),
                    Err(_) => self.message_error(),
                }
            }
            Content::CancelRequest(_) => Next::Continue,
            Content::CloseConnection | Content::MessageError => Next::Close(None),
            Content::Reply(_) | Content::LocateReply(_) | Content::Fragment(_) => {
                self.message_error()
            }
        }
    }

    fn send(&mut self, message: Bytes) -> Next {
        match self.transport.write_all_vectored(&[message]) {
            Ok(()) => Next::Continue,
            Err(_) => Next::Close(None),
        }
    }

    fn request(&mut self, core: &ServerCore, msg: &Message, message: &Bytes) -> Next {
        let Content::Request(request) = &msg.content else {
            return self.message_error();
        };
        let header = &request.header;
        let response_expected = header.response_expected();
        let codesets = self.codesets.on_request(&header.service_context);
        let encoding = msg.encoding().with_codesets(codesets);
        let buffer = self.replies.take();
        let mut reply = match self.messaging {
            FrameProtocol::Giop => ReplyBuilder::new(encoding, header.request_id, buffer),
            FrameProtocol::Lite => ReplyBuilder::new_lite(encoding, header.request_id, buffer),
        };
        let outcome = match header.target.object_key() {
            None => Err(SystemException::new(
                SystemExceptionKind::Marshal,
                MARSHAL_TARGET_NOT_A_KEY,
                CompletionStatus::No,
            )),
            Some(key) => match (
                core.lookup(key),
                msg.body_decoder(message, encoding.codesets),
            ) {
                (None, _) => Err(object_not_exist()),
                (Some(Entry::Forward(to)), _) => match reply.start(ReplyStatus::LocationForward) {
                    Ok(e) => to
                        .to_ior()
                        .and_then(|ior| rtorb_cdr::CdrEncode::encode(&ior, e))
                        .map_err(SystemException::from),
                    Err(e) => Err(e.to_system_exception()),
                },
                (Some(_), None) => Err(GiopError::Cdr(rtorb_cdr::CdrError::Unsupported(
                    "request without a body",
                ))
                .to_system_exception()),
                (Some(Entry::Servant(skeleton)), Some(arguments)) => {
                    let mut req = ServerRequest::new(
                        &header.operation,
                        key,
                        response_expected,
                        arguments,
                        &mut reply,
                    );
                    let run = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        with_invoker(&core.invoker, || dispatch(&*skeleton, &mut req))
                    }));
                    run.unwrap_or_else(|_| {
                        Err(SystemException::new(
                            SystemExceptionKind::Unknown,
                            UNKNOWN_SERVANT_PANICKED,
                            CompletionStatus::Maybe,
                        ))
                    })
                }
            },
        };
        if !response_expected {
            return Next::Continue;
        }
        match reply.finish(outcome) {
            Ok(bytes) => self.send(bytes),
            Err(_) => self.message_error(),
        }
    }
}
