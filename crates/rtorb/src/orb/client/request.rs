//! Writing requests: the one request writer of every client connection,
//! exclusive or shared, and the encoding of `SYNC_NONE` oneways into
//! buffers of their own.
//!
//! A [`RequestWriter`] is the writing half of a connection: one buffer
//! reused for every request, the headers of the requests last made on it
//! ([`Templates`]: a call repeating one copies them rather than encoding
//! each field), and the code sets announced on the connection. A request
//! is written in the GIOP version of the profile (GIOPlite where the
//! profile carries the GIOPlite component) with the connection's next
//! request id. A request larger than the configured fragment size goes as
//! GIOP 1.2 fragments (a gathered write: the body is not copied; see
//! [`ORB_FRAGMENTS`]).
//!
//! Text is written in the code sets negotiated with the profile's
//! `TAG_CODE_SETS` component, announced in a `CodeSets` service context on
//! the first request written on each connection, exclusive or shared (see
//! [`crate::codesets`]); a `SYNC_NONE` oneway always carries it, since it
//! may be the first on the connection the sending thread writes it to.

use bytes::{Bytes, BytesMut};
use rtorb_cdr::{ByteOrder, Encoding, TransmissionCodeSets};
use rtorb_giop::message::{
    Content, LocateRequest, Message, MessageWriter, RESPONSE_NONE, RequestHeader,
};
use rtorb_giop::service_context::{ServiceContext, ServiceContextList};
use rtorb_giop::target::TargetAddress;
use rtorb_giop::{
    FrameProtocol, GiopError, Operation, RequestTemplate, SystemException, fragment_chunks,
};

use crate::codesets::{self, ClientCodeSets};
use crate::object::Arguments;
use crate::orb::config::orb_config::ORB_FRAGMENTS;
use crate::probe::{Probe, Stage};
use crate::rt::{self, Priority};
use crate::transport::Transport;

/// Capacity of the buffers of requests encoded on their own.
pub(super) const BUFFER_CAPACITY: usize = 512;

/// A request buffer grown beyond this (by a large request) is released
/// once the request is sent, rather than kept for the connection's life.
const MAX_KEPT_REQUEST_CAPACITY: usize = 64 * 1024;

/// What a request is: a call, or a `LocateRequest`.
#[derive(Clone, Copy)]
pub(super) enum Request<'a> {
    /// A `Request` of `operation`.
    Call {
        operation: &'a Operation,
        response_flags: u8,
        arguments: Arguments<'a>,
    },
    /// A `LocateRequest`.
    Locate,
}

impl Request<'_> {
    pub(super) fn expects_reply(&self) -> bool {
        match self {
            Request::Call { response_flags, .. } => response_flags & 0x01 != 0,
            Request::Locate => true,
        }
    }
}

/// Where a request goes and how it is written there: the object key of
/// the profile it is sent to, the encoding of the profile's GIOP version,
/// the code sets negotiated with it, and whether it takes the caller's
/// priority (Real-time CORBA's `CLIENT_PROPAGATED` model).
#[derive(Clone, Copy)]
pub(super) struct Destination<'a> {
    pub(super) object_key: &'a Bytes,
    pub(super) encoding: Encoding,
    pub(super) codesets: &'a ClientCodeSets,
    pub(super) propagates_priority: bool,
}

impl Destination<'_> {
    /// The priority a request to it carries: the calling thread's CORBA
    /// priority, where the destination takes one and the thread has one.
    #[inline]
    fn priority(&self) -> Option<Priority> {
        if self.propagates_priority {
            crate::rt::thread_priority()
        } else {
            None
        }
    }
}

/// One request to write: to where, with which id, what.
#[derive(Clone, Copy)]
pub(super) struct RequestHead<'a> {
    pub(super) to: &'a Destination<'a>,
    pub(super) request_id: u32,
    pub(super) request: Request<'a>,
}

/// Why writing a request failed.
pub(super) enum WriteError {
    /// It could not be encoded: nothing was sent.
    Encode(SystemException),
    /// The transport failed.
    Io,
}

/// The writing half of a client connection. See the [module](self).
#[derive(Debug)]
pub(super) struct RequestWriter {
    messaging: FrameProtocol,
    /// Requests larger than this go as fragments (when the version
    /// allows).
    fragment_size: Option<usize>,
    /// Requests are written here: one buffer, reused for every request.
    writer: MessageWriter,
    /// The headers of requests made on the connection.
    templates: Templates,
    /// The code sets sent in a `CodeSets` context on the connection.
    announced: Option<TransmissionCodeSets>,
}

impl RequestWriter {
    /// The writer of a new connection speaking `messaging`.
    pub(super) fn new(messaging: FrameProtocol, fragment_size: Option<usize>) -> RequestWriter {
        RequestWriter {
            messaging,
            fragment_size,
            writer: MessageWriter::empty_with_buffer(
                BytesMut::with_capacity(BUFFER_CAPACITY),
                Encoding::native(),
            ),
            templates: Templates::default(),
            announced: None,
        }
    }

    /// Records that a message encoded on its own, announcing `announced`
    /// if `Some`, was written on the connection.
    pub(super) fn wrote_encoded(&mut self, announced: Option<TransmissionCodeSets>) {
        if self.announced.is_none() {
            self.announced = announced;
        }
    }

    /// Encodes `head` and writes it to `transport`, as fragments when it
    /// is larger than the fragment size and the version allows.
    ///
    /// If no code sets were announced on the connection yet, a request
    /// carries the `CodeSets` context of its destination's, and they are
    /// recorded as announced once it is written. Returns the code sets the
    /// request was written in (those to read its reply with).
    pub(super) fn write(
        &mut self,
        transport: &mut dyn Transport,
        probe: &mut Probe,
        head: RequestHead<'_>,
    ) -> Result<TransmissionCodeSets, WriteError> {
        let RequestHead {
            to,
            request_id,
            request,
        } = head;
        let messaging = self.messaging;
        let encoding = messaging.wire_encoding(to.encoding);
        let (operation, response_flags, arguments) = match request {
            Request::Call {
                operation,
                response_flags,
                arguments,
            } => (operation, response_flags, arguments),
            Request::Locate => {
                return self.write_locate(transport, to, encoding, request_id);
            }
        };
        let (tcs, context) = codesets::for_request(self.announced, to.codesets);
        let announces = context.is_some();
        let encoding = encoding.with_codesets(tcs);
        let priority = to.priority();
        let encode_failed = |e: GiopError| WriteError::Encode(e.to_system_exception());
        let writer = &mut self.writer;
        // The headers of a request made before, copied; else encoded (and
        // kept for the next such request). A request announcing code sets is
        // the connection's first: not worth keeping.
        let cached = (!announces)
            .then(|| {
                self.templates.find(
                    messaging,
                    encoding,
                    to.object_key,
                    operation,
                    response_flags,
                    priority,
                )
            })
            .flatten();
        match cached {
            Some(template) => template.restart(writer, request_id),
            None => {
                let header = request_header(
                    request_id,
                    to.object_key,
                    operation,
                    response_flags,
                    context,
                    priority.map(|p| (p, encoding.order)),
                );
                let buf = writer.take_buffer();
                *writer = messaging
                    .request_writer(buf, encoding, &header)
                    .map_err(encode_failed)?;
                if !announces {
                    self.templates.keep(
                        messaging,
                        to.object_key,
                        operation,
                        response_flags,
                        priority,
                        writer,
                    );
                }
            }
        }
        arguments(writer.body()).map_err(|e| WriteError::Encode(to.codesets.request_error(e)))?;
        let fragment = self.fragment_size.filter(|max| {
            writer.len() > *max
                && messaging == FrameProtocol::Giop
                && encoding.version >= ORB_FRAGMENTS
        });
        let written = if let Some(max) = fragment {
            let chunks = writer.take_chunks().map_err(encode_failed)?;
            let pieces = fragment_chunks(&chunks, max).map_err(encode_failed)?;
            probe.lap(Stage::ClientMarshal);
            transport.write_all_vectored(&pieces)
        } else if let Some(message) = writer.seal().map_err(encode_failed)? {
            // One buffer, written from where it was encoded.
            probe.lap(Stage::ClientMarshal);
            transport.send_all(message)
        } else {
            let chunks = writer.take_chunks().map_err(encode_failed)?;
            probe.lap(Stage::ClientMarshal);
            transport.write_all_vectored(&chunks)
        };
        probe.lap(Stage::ClientWrite);
        if writer.capacity() > MAX_KEPT_REQUEST_CAPACITY {
            // Grown by a large request: not kept for the connection's life.
            drop(writer.take_buffer());
        }
        written.map_err(|_| WriteError::Io)?;
        if announces {
            self.announced = Some(tcs);
        }
        Ok(tcs)
    }

    /// Writes a `LocateRequest`.
    #[cold]
    #[inline(never)]
    fn write_locate(
        &mut self,
        transport: &mut dyn Transport,
        to: &Destination<'_>,
        encoding: Encoding,
        request_id: u32,
    ) -> Result<TransmissionCodeSets, WriteError> {
        let msg = Message::new(
            encoding.version,
            encoding.order,
            Content::LocateRequest(LocateRequest {
                request_id,
                target: TargetAddress::Key(to.object_key.clone()),
            }),
        );
        let encoded = self
            .messaging
            .encode(&msg)
            .map_err(|e| WriteError::Encode(e.to_system_exception()))?;
        // A LocateRequest has no service contexts: the code sets are
        // announced by the first Request.
        transport
            .write_all_vectored(std::slice::from_ref(&encoded))
            .map(|()| self.announced.unwrap_or(to.codesets.transmission()))
            .map_err(|_| WriteError::Io)
    }
}

/// A `SYNC_NONE` oneway encoded into buffers of its own, as fragments of
/// at most `fragment_size` when it is larger and the version allows,
/// with the code sets announced in its `CodeSets` context (it carries one
/// whenever `to` has one: whichever connection it goes out on, it may be
/// the first request there).
pub(super) fn encode_oneway(
    messaging: FrameProtocol,
    to: &Destination<'_>,
    request_id: u32,
    operation: &Operation,
    arguments: Arguments<'_>,
    fragment_size: Option<usize>,
) -> Result<(Vec<Bytes>, Option<TransmissionCodeSets>), SystemException> {
    let (tcs, context) = codesets::for_request(None, to.codesets);
    let announced = context.is_some().then_some(tcs);
    let encoding = messaging.wire_encoding(to.encoding).with_codesets(tcs);
    let priority = to.priority().map(|p| (p, encoding.order));
    let header = request_header(
        request_id,
        to.object_key,
        operation,
        RESPONSE_NONE,
        context,
        priority,
    );
    let buf = BytesMut::with_capacity(BUFFER_CAPACITY);
    let encode_failed = |e: GiopError| e.to_system_exception();
    let mut w = messaging
        .request_writer(buf, encoding, &header)
        .map_err(encode_failed)?;
    arguments(w.body()).map_err(|e| to.codesets.request_error(e))?;
    let chunks = w.finish_chunks().map_err(encode_failed)?;
    let pieces = match fragment_size {
        Some(max) if messaging == FrameProtocol::Giop && encoding.version >= ORB_FRAGMENTS => {
            fragment_chunks(&chunks, max).map_err(encode_failed)?
        }
        _ => chunks,
    };
    Ok((pieces, announced))
}

/// The request header of a call, with the `CodeSets` context if given, and
/// an `RTCorbaPriority` context for a priority given (with the byte order
/// of the request).
fn request_header(
    request_id: u32,
    object_key: &Bytes,
    operation: &Operation,
    response_flags: u8,
    codesets_context: Option<ServiceContext>,
    priority: Option<(Priority, ByteOrder)>,
) -> RequestHeader {
    let priority_context = priority.map(|(p, order)| rt::priority_context(p, order));
    RequestHeader {
        request_id,
        response_flags,
        target: TargetAddress::Key(object_key.clone()),
        operation: operation.clone(),
        // Empty (no allocation) on every request but a connection's first,
        // or one that carries a priority (whose headers are then kept).
        service_context: ServiceContextList(
            codesets_context
                .into_iter()
                .chain(priority_context)
                .collect(),
        ),
        requesting_principal: Bytes::new(),
        reserved: [0; 3],
    }
}

/// The headers of the requests last made on a connection, by object key,
/// operation, response flags, protocol, encoding and propagated priority: a
/// call repeating one copies them rather than encoding each field.
#[derive(Debug, Default)]
pub(super) struct Templates {
    slots: [Option<KeptRequest>; TEMPLATES],
    /// The slot the next new request replaces.
    next: usize,
}

/// Whether two byte strings are equal, looking at their addresses first
/// (a stub's operation names and a reference's object key are the same
/// buffers call after call).
fn same(a: &[u8], b: &[u8]) -> bool {
    (a.as_ptr() == b.as_ptr() && a.len() == b.len()) || a == b
}

/// Requests whose headers a connection keeps.
const TEMPLATES: usize = 4;

#[derive(Debug)]
struct KeptRequest {
    messaging: FrameProtocol,
    object_key: Bytes,
    operation: Operation,
    response_flags: u8,
    priority: Option<Priority>,
    template: RequestTemplate,
}

impl Templates {
    fn find(
        &self,
        messaging: FrameProtocol,
        encoding: Encoding,
        object_key: &Bytes,
        operation: &Operation,
        response_flags: u8,
        priority: Option<Priority>,
    ) -> Option<&RequestTemplate> {
        self.slots
            .iter()
            .flatten()
            .find(|k| {
                k.response_flags == response_flags
                    && k.priority == priority
                    && k.messaging == messaging
                    && same(k.operation.as_bytes(), operation.as_bytes())
                    && same(&k.object_key, object_key)
                    && k.template.encoding() == encoding
            })
            .map(|k| &k.template)
    }

    /// Keeps the headers `writer` has written, in place of the oldest
    /// kept (reusing its buffer).
    fn keep(
        &mut self,
        messaging: FrameProtocol,
        object_key: &Bytes,
        operation: &Operation,
        response_flags: u8,
        priority: Option<Priority>,
        writer: &MessageWriter,
    ) {
        let Some(slot) = self.slots.get_mut(self.next) else {
            return;
        };
        let template = match slot.take() {
            Some(mut k) => k.template.recapture(writer).then_some(k.template),
            None => RequestTemplate::capture(writer),
        };
        if let Some(template) = template {
            *slot = Some(KeptRequest {
                messaging,
                object_key: object_key.clone(),
                operation: operation.clone(),
                response_flags,
                priority,
                template,
            });
            self.next = (self.next + 1) % TEMPLATES;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::IoSlice;
    use std::os::fd::{AsRawFd, RawFd};
    use std::time::Duration;

    use rtorb_cdr::{CdrEncode, Version};
    use rtorb_giop::{Reassembler, ReassemblyLimits};

    use super::*;

    /// A transport that keeps what is written to it, a write at a time.
    #[derive(Debug, Default)]
    struct Recorder {
        writes: Vec<Vec<u8>>,
    }

    impl AsRawFd for Recorder {
        fn as_raw_fd(&self) -> RawFd {
            -1
        }
    }

    impl Transport for Recorder {
        fn protocol(&self) -> &'static str {
            "recorder"
        }
        fn messaging(&self) -> FrameProtocol {
            FrameProtocol::Giop
        }
        fn read(&mut self, _buf: &mut [u8]) -> std::io::Result<usize> {
            Ok(0)
        }
        fn writev(&mut self, bufs: &[IoSlice<'_>]) -> std::io::Result<usize> {
            let octets: Vec<u8> = bufs.iter().flat_map(|b| b.iter().copied()).collect();
            let n = octets.len();
            self.writes.push(octets);
            Ok(n)
        }
        fn shutdown(&mut self, _how: std::net::Shutdown) -> std::io::Result<()> {
            Ok(())
        }
        fn peer(&self) -> String {
            String::new()
        }
        fn set_nonblocking(&mut self, _nonblocking: bool) -> std::io::Result<()> {
            Ok(())
        }
        fn set_read_timeout(&mut self, _timeout: Option<Duration>) -> std::io::Result<()> {
            Ok(())
        }
        fn set_write_timeout(&mut self, _timeout: Option<Duration>) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Writes a call of `operation` with `arguments` and id `request_id`
    /// to `recorder` through `writer`; the octets written.
    fn write(
        writer: &mut RequestWriter,
        recorder: &mut Recorder,
        request_id: u32,
        arguments: Arguments<'_>,
    ) -> Vec<u8> {
        let key = Bytes::from_static(b"key");
        let codesets = ClientCodeSets::lite();
        let operation = Operation::from("cube_long");
        let to = Destination {
            object_key: &key,
            encoding: Encoding::native().with_version(Version::V1_2),
            codesets: &codesets,
            propagates_priority: false,
        };
        let head = RequestHead {
            to: &to,
            request_id,
            request: Request::Call {
                operation: &operation,
                response_flags: 3,
                arguments,
            },
        };
        let before = recorder.writes.len();
        let written = writer.write(recorder, &mut Probe::start(), head);
        assert!(written.is_ok());
        recorder.writes[before..].concat()
    }

    #[test]
    fn a_request_from_a_template_is_the_request_encoded_anew() {
        let arguments: Arguments<'_> = &|e| 7i32.encode(e);
        let mut recorder = Recorder::default();
        let mut writer = RequestWriter::new(FrameProtocol::Giop, None);
        write(&mut writer, &mut recorder, 1, arguments);
        // The second is written from the template the first left.
        let templated = write(&mut writer, &mut recorder, 2, arguments);
        let mut fresh = RequestWriter::new(FrameProtocol::Giop, None);
        let encoded = write(&mut fresh, &mut Recorder::default(), 2, arguments);
        assert_eq!(templated, encoded);
    }

    #[test]
    fn a_large_request_goes_as_fragments_of_the_same_message() {
        let long = vec![9u8; 300];
        let arguments: Arguments<'_> = &|e| long.encode(e);
        let mut whole = RequestWriter::new(FrameProtocol::Giop, None);
        let message = write(&mut whole, &mut Recorder::default(), 5, arguments);
        let mut recorder = Recorder::default();
        let mut cut = RequestWriter::new(FrameProtocol::Giop, Some(64));
        let fragments = write(&mut cut, &mut recorder, 5, arguments);
        assert!(fragments.len() > message.len());
        let mut reassembler = Reassembler::new(ReassemblyLimits::default());
        let mut rest = &fragments[..];
        let mut reassembled = None;
        while !rest.is_empty() {
            let len = FrameProtocol::Giop
                .message_len(rest, u32::MAX)
                .expect("a fragment header");
            let (frame, after) = rest.split_at(len);
            rest = after;
            reassembled = reassembler
                .push_message(Bytes::copy_from_slice(frame))
                .expect("a valid fragment");
        }
        let (m, _) = reassembled.expect("the whole message");
        let (expected, _) = Reassembler::new(ReassemblyLimits::default())
            .push_message(Bytes::from(message))
            .unwrap()
            .unwrap();
        assert_eq!(m, expected);
    }
}
