//! The server side: the [`ServerRequest`] a skeleton reads its arguments
//! from and writes its reply into, the [`Skeleton`] trait generated code
//! implements, and [`dispatch`], which answers the operations every
//! object has before handing the rest to the skeleton.

use bytes::{Bytes, BytesMut};
use rtorb_cdr::{CdrEncode, CdrError, Decoder, Encoder, Encoding};
use rtorb_giop::message::{MessageWriter, ReplyHeader, ReplyStatus};
use rtorb_giop::{CompletionStatus, GiopError, SystemException, SystemExceptionKind};

use super::client::OBJECT_REPOSITORY_ID;
use super::exception::{
    NO_IMPLEMENT_OBJECT_OPERATION, UserException, marshal_completed, read_repository_id,
};

/// The servant side of an interface, as generated code implements it: a
/// wrapper of a servant (a value implementing the generated servant
/// trait) that reads each request's arguments, calls the servant, and
/// writes its results or exception.
pub trait Skeleton: Send + Sync {
    /// The repository ids of the interface, most derived first, then
    /// every base: what `_is_a` answers `true` for (with
    /// `IDL:omg.org/CORBA/Object:1.0`, which [`dispatch`] adds).
    fn repository_ids(&self) -> &'static [&'static str];

    /// Runs one request. An operation the interface does not have is
    /// [`super::bad_operation`]; arguments that do not decode are
    /// `MARSHAL` (`?` on a `CdrError` converts); an `Err` becomes a
    /// `SYSTEM_EXCEPTION` reply, replacing anything written.
    fn dispatch(&self, request: &mut ServerRequest<'_>) -> Result<(), SystemException>;

    /// The servant the skeleton wraps, for collocated calls that skip
    /// marshaling (see [`super::ServantCast`]). Generated skeletons give
    /// their servant; the default, `None`, makes collocated calls go
    /// through [`Skeleton::dispatch`].
    fn servant(&self) -> Option<&dyn std::any::Any> {
        None
    }

    /// Answers a [`super::ServantCast`] `query` for the servant trait of
    /// an interface the skeleton implements (its own and every base), so
    /// that a collocated stub can call [`Skeleton::servant`] through that
    /// trait. The default answers nothing.
    fn servant_cast(&self, query: &mut dyn std::any::Any) {
        let _ = query;
    }
}

/// One request as a skeleton sees it: the operation name, a decoder over
/// the arguments, and the reply to write.
///
/// A skeleton that returns `Ok` without writing a reply sends an empty
/// `NO_EXCEPTION` reply (a `void` operation without `out` parameters).
#[derive(Debug)]
pub struct ServerRequest<'a> {
    operation: &'a str,
    object_key: &'a [u8],
    response_expected: bool,
    arguments: Decoder,
    reply: &'a mut ReplyBuilder,
}

impl<'a> ServerRequest<'a> {
    pub(crate) fn new(
        operation: &'a str,
        object_key: &'a [u8],
        response_expected: bool,
        arguments: Decoder,
        reply: &'a mut ReplyBuilder,
    ) -> ServerRequest<'a> {
        ServerRequest {
            operation,
            object_key,
            response_expected,
            arguments,
            reply,
        }
    }

    /// The operation name (`cube_long`, `_get_x`, `_is_a`, ...).
    pub fn operation(&self) -> &str {
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
        &mut self.arguments
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
#[derive(Debug)]
pub(crate) struct ReplyBuilder {
    encoding: Encoding,
    request_id: u32,
    lite: bool,
    buffer: Option<BytesMut>,
    writer: Option<MessageWriter>,
}

impl ReplyBuilder {
    /// A builder for the reply to `request_id`, to be written in
    /// `encoding` into `buffer`.
    pub(crate) fn new(encoding: Encoding, request_id: u32, buffer: BytesMut) -> ReplyBuilder {
        ReplyBuilder {
            encoding,
            request_id,
            lite: false,
            buffer: Some(buffer),
            writer: None,
        }
    }

    /// As [`ReplyBuilder::new`], for a reply in GIOPlite.
    pub(crate) fn new_lite(encoding: Encoding, request_id: u32, buffer: BytesMut) -> ReplyBuilder {
        ReplyBuilder {
            lite: true,
            ..ReplyBuilder::new(encoding, request_id, buffer)
        }
    }

    /// Starts the reply with `status` (dropping any reply started before)
    /// and returns the encoder for its body.
    pub(crate) fn start(&mut self, status: ReplyStatus) -> Result<&mut Encoder, GiopError> {
        let buf = self.buffer.take().unwrap_or_default();
        let header = ReplyHeader::new(self.request_id, status);
        let w = if self.lite {
            rtorb_giop::lite::lite_reply_with_buffer(buf, self.encoding, &header)?
        } else {
            MessageWriter::reply_with_buffer(buf, self.encoding, &header)?
        };
        Ok(self.writer.insert(w).body())
    }

    /// The whole reply message for the outcome of the dispatch: the reply
    /// written, an empty `NO_EXCEPTION` reply if none was, or a
    /// `SYSTEM_EXCEPTION` reply for an error.
    pub(crate) fn finish(
        mut self,
        outcome: Result<(), SystemException>,
    ) -> Result<Bytes, GiopError> {
        match outcome {
            Ok(()) => {
                if self.writer.is_none() {
                    self.start(ReplyStatus::NoException)?;
                }
            }
            Err(ex) => {
                let e = self.start(ReplyStatus::SystemException)?;
                ex.encode(e)?;
            }
        }
        match self.writer {
            Some(w) => w.finish(),
            None => Err(GiopError::Cdr(CdrError::Unsupported("reply never started"))),
        }
    }
}

/// Runs `request` on `skeleton`, answering the operations of
/// `CORBA::Object` first: `_is_a` (from [`Skeleton::repository_ids`]),
/// `_non_existent` (and its GIOP 1.0 spelling `_not_existent`: `false`,
/// since the servant is there), and `_interface` (`NO_IMPLEMENT` for
/// now). Everything else goes to [`Skeleton::dispatch`].
pub fn dispatch(
    skeleton: &dyn Skeleton,
    request: &mut ServerRequest<'_>,
) -> Result<(), SystemException> {
    match request.operation.as_bytes() {
        b"_is_a" => {
            let id = read_repository_id(request.arguments())?;
            let is_a = id.is_some_and(|id| {
                id == OBJECT_REPOSITORY_ID.as_bytes()
                    || skeleton.repository_ids().iter().any(|r| id == r.as_bytes())
            });
            request.write_results(|e| {
                e.write_bool(is_a);
                Ok(())
            })
        }
        b"_non_existent" | b"_not_existent" => request.write_results(|e| {
            e.write_bool(false);
            Ok(())
        }),
        b"_interface" => Err(SystemException::new(
            SystemExceptionKind::NoImplement,
            NO_IMPLEMENT_OBJECT_OPERATION,
            CompletionStatus::No,
        )),
        _ => skeleton.dispatch(request),
    }
}
