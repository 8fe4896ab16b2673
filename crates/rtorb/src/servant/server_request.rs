//! [`ServerRequest`]: one request as a skeleton sees it, and the reply it
//! writes, which [`ReplyBuilder`] makes into a GIOP `Reply` message.

use bytes::{Bytes, BytesMut};
use rtorb_cdr::{CdrEncode, CdrError, Decoder, Encoder, Encoding};
use rtorb_giop::message::{MessageWriter, ReplyStatus};
use rtorb_giop::{GiopError, SystemException};

use crate::exception::{UserException, marshal_completed};

/// One request as a skeleton sees it: the operation name, a decoder over
/// the arguments, and the reply to write.
///
/// A skeleton that returns `Ok` without writing a reply sends an empty
/// `NO_EXCEPTION` reply (a `void` operation without `out` parameters).
#[derive(Debug)]
pub struct ServerRequest<'a> {
    /// The name's octets: UTF-8 (ASCII but for names decoded from
    /// ISO-8859-1), so [`ServerRequest::operation`] never fails.
    operation: &'a [u8],
    object_key: &'a [u8],
    response_expected: bool,
    /// The decoder over the arguments, once asked for.
    arguments: Option<Decoder>,
    /// Where the arguments are, until they are asked for: an operation
    /// without `in` parameters never makes a decoder.
    body: Option<(&'a Bytes, usize, Encoding)>,
    reply: &'a mut ReplyBuilder,
}

impl<'a> ServerRequest<'a> {
    pub(crate) fn new(
        operation: &'a [u8],
        object_key: &'a [u8],
        response_expected: bool,
        arguments: Decoder,
        reply: &'a mut ReplyBuilder,
    ) -> ServerRequest<'a> {
        ServerRequest {
            operation,
            object_key,
            response_expected,
            arguments: Some(arguments),
            body: None,
            reply,
        }
    }

    /// A request whose arguments start at `offset` of `message`, in
    /// `encoding` (aligned relative to the message's start).
    pub(crate) fn in_message(
        operation: &'a [u8],
        object_key: &'a [u8],
        response_expected: bool,
        message: &'a Bytes,
        offset: usize,
        encoding: Encoding,
        reply: &'a mut ReplyBuilder,
    ) -> ServerRequest<'a> {
        ServerRequest {
            operation,
            object_key,
            response_expected,
            arguments: None,
            body: Some((message, offset, encoding)),
            reply,
        }
    }

    /// The operation name (`cube_long`, `_get_x`, `_is_a`, ...).
    pub fn operation(&self) -> &str {
        std::str::from_utf8(self.operation).unwrap_or_default()
    }

    /// The operation name as octets, as it came: what generated skeletons
    /// match on (no UTF-8 check per request).
    pub fn operation_bytes(&self) -> &[u8] {
        self.operation
    }

    /// The object key the request was addressed to.
    pub fn object_key(&self) -> &[u8] {
        self.object_key
    }

    /// Whether the client waits for a reply (false for a oneway).
    pub fn response_expected(&self) -> bool {
        self.response_expected
    }

    /// The arguments (`in` and `inout` parameters, in order).
    pub fn arguments(&mut self) -> &mut Decoder {
        let body = self.body.take();
        self.arguments.get_or_insert_with(|| match body {
            Some((message, offset, encoding)) => {
                Decoder::with_position(message.clone(), 0, offset, encoding)
            }
            None => Decoder::new(Bytes::new(), Encoding::native()),
        })
    }

    /// Writes a `NO_EXCEPTION` reply: `results` writes the return value,
    /// then the `inout` and `out` parameters. Replaces any reply written
    /// before. A failure to encode is `MARSHAL` (`COMPLETED_YES`).
    pub fn write_results(
        &mut self,
        results: impl FnOnce(&mut Encoder) -> Result<(), CdrError>,
    ) -> Result<(), SystemException> {
        let e = self.reply.start(ReplyStatus::NoException)?;
        results(e).map_err(|e| marshal_completed(&e))
    }

    /// Writes a `USER_EXCEPTION` reply holding `exception`. Replaces any
    /// reply written before.
    pub fn write_user_exception<X: UserException>(
        &mut self,
        exception: &X,
    ) -> Result<(), SystemException> {
        let e = self.reply.start(ReplyStatus::UserException)?;
        e.write_string(X::REPOSITORY_ID)
            .and_then(|()| exception.encode(e))
            .map_err(|e| marshal_completed(&e))
    }
}

/// Writes the reply of one request, starting the message only once its
/// status is known.
///
/// A connection keeps one builder and [`ReplyBuilder::reset`]s it for each
/// request: the reply is written into the same buffer every time, and
/// sent from it ([`ReplyBuilder::writer`], [`MessageWriter::seal`]).
#[derive(Debug)]
pub(crate) struct ReplyBuilder {
    encoding: Encoding,
    request_id: u32,
    lite: bool,
    started: bool,
    /// The priority of the `RTCorbaPriority` context to send back, if any.
    priority: Option<i16>,
    writer: MessageWriter,
}

impl ReplyBuilder {
    /// A builder for the reply to `request_id`, to be written in
    /// `encoding`.
    pub(crate) fn new(encoding: Encoding, request_id: u32) -> ReplyBuilder {
        ReplyBuilder {
            encoding,
            request_id,
            lite: false,
            started: false,
            priority: None,
            writer: MessageWriter::empty(encoding),
        }
    }

    /// As [`ReplyBuilder::new`], writing into `buffer` (its capacity
    /// reused); in GIOPlite if `lite`.
    pub(crate) fn with_buffer(
        encoding: Encoding,
        request_id: u32,
        buffer: BytesMut,
        lite: bool,
    ) -> ReplyBuilder {
        ReplyBuilder {
            writer: MessageWriter::empty_with_buffer(buffer, encoding),
            lite,
            ..ReplyBuilder::new(encoding, request_id)
        }
    }

    /// Makes the builder ready for the reply to another request, keeping
    /// its buffer.
    #[inline]
    pub(crate) fn reset(&mut self, encoding: Encoding, request_id: u32) {
        self.encoding = encoding;
        self.request_id = request_id;
        self.started = false;
        self.priority = None;
    }

    /// Sends `priority` back in an `RTCorbaPriority` service context of
    /// the reply (GIOP; a GIOPlite reply carries no contexts): what a
    /// server of the `CLIENT_PROPAGATED` model does with the priority a
    /// request propagated, as TAO's servers do. Until the next
    /// [`ReplyBuilder::reset`].
    #[inline]
    pub(crate) fn send_back_priority(&mut self, priority: i16) {
        self.priority = Some(priority);
    }

    /// Starts the reply with `status` (dropping any reply started before)
    /// and returns the encoder for its body.
    pub(crate) fn start(&mut self, status: ReplyStatus) -> Result<&mut Encoder, GiopError> {
        match (self.lite, self.priority) {
            (true, _) => self
                .writer
                .restart_lite_reply(self.encoding, self.request_id, status),
            (false, None) => self
                .writer
                .restart_reply(self.encoding, self.request_id, status)?,
            (false, Some(p)) => self.writer.restart_reply_with_priority(
                self.encoding,
                self.request_id,
                status,
                p,
            )?,
        }
        self.started = true;
        Ok(self.writer.body())
    }

    /// Completes the reply for the outcome of the dispatch: the reply
    /// written, an empty `NO_EXCEPTION` reply if none was, or a
    /// `SYSTEM_EXCEPTION` reply for an error. The message is then in
    /// [`ReplyBuilder::writer`].
    pub(crate) fn complete(
        &mut self,
        outcome: Result<(), SystemException>,
    ) -> Result<(), GiopError> {
        match outcome {
            Ok(()) => {
                if !self.started {
                    self.start(ReplyStatus::NoException)?;
                }
            }
            Err(ex) => {
                let e = self.start(ReplyStatus::SystemException)?;
                ex.encode(e)?;
            }
        }
        Ok(())
    }

    /// The writer holding the reply (complete after
    /// [`ReplyBuilder::complete`]).
    pub(crate) fn writer(&mut self) -> &mut MessageWriter {
        &mut self.writer
    }

    /// The whole reply message for the outcome of the dispatch (see
    /// [`ReplyBuilder::complete`]), as a buffer of its own.
    pub(crate) fn finish(
        mut self,
        outcome: Result<(), SystemException>,
    ) -> Result<Bytes, GiopError> {
        self.complete(outcome)?;
        if !self.started {
            return Err(GiopError::Cdr(CdrError::Unsupported("reply never started")));
        }
        self.writer.finish()
    }
}
