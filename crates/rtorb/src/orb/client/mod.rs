//! The client side of the ORB: an [`Invoker`] over real connections.
//!
//! A call picks a profile of the target's reference that a registered
//! protocol can reach: in the order of the reference, or in the order of
//! the effective `ClientProtocolPolicy` (the reference's override, else
//! the thread's, else the ORB's; no match is `INV_POLICY` unless the
//! policy falls back to any usable profile), the next one if it cannot
//! connect. How it uses connections to that endpoint depends on the
//! [`ConnectionStrategy`]:
//!
//! - exclusive (the default): it takes an idle connection from the cache
//!   or opens one, and has it to itself until the reply has come; a second
//!   concurrent call to the same endpoint opens (or reuses) another. The
//!   connection put back last waits in a lock-free slot of the endpoint's
//!   pool, so a thread calling an endpoint again and again takes no lock;
//! - multiplexed: every call shares one connection per endpoint, each
//!   waiting for its own reply (leader/followers).
//!
//! The request is written in the GIOP version of the profile (GIOPlite
//! when the profile carries the GIOPlite component) with the connection's
//! next request id, into the connection's one request buffer (headers
//! copied from a template when the call repeats a recent one) and sent
//! from there; as GIOP 1.2 fragments when it is larger than the
//! configured maximum message size (a gathered write: the body is not
//! copied; GIOP 1.1 requests go whole, see [`ORB_FRAGMENTS`]). The reply
//! is read with a [`FrameReader`](crate::transport::FrameReader),
//! fragments reassembled, a plain reply in place
//! ([`reply_view_framed`](rtorb_giop::reply_view_framed)). A `SYNC_NONE`
//! oneway is encoded by the caller and queued for its endpoint, written by
//! a thread of the endpoint's own or before the next request to it (so
//! such oneways keep their order among themselves and before the same
//! thread's later calls). Text is written in the code sets negotiated with
//! the profile's `TAG_CODE_SETS` component, announced in a `CodeSets`
//! service context on the first request written on each connection,
//! exclusive or shared (see [`crate::codesets`]); a `SYNC_NONE` oneway
//! always carries it, since it may be the first on the connection the
//! sending thread writes it to. Connections unused for the configured
//! idle timeout are closed by a background thread.
//! [`Invoker::validate_connection`] binds a reference with a
//! `LocateRequest` (following forwards), and [`super::Orb::preconnect`]
//! opens connections ahead of the calls.
//!
//! Forwards: a call answered with `LOCATION_FORWARD` (or a locate reply
//! `OBJECT_FORWARD`) is sent to the new target, at most
//! [`MAX_FORWARDS`](crate::runtime::loopback::MAX_FORWARDS) times, and the reference
//! (its [`Target`], shared by the clones of its `Object`) remembers the
//! target that answered: later calls, `SYNC_NONE` oneways and
//! `validate_connection` go there directly, reading the remembered target
//! without a lock. When a call there fails because the object is no longer
//! there (`COMM_FAILURE`, `OBJECT_NOT_EXIST`, or a `TRANSIENT` raised here
//! because it cannot be reached), the reference forgets it and, where the
//! failure is `COMPLETED_NO`, the call is sent to the original reference
//! once more, which may forward it afresh; a `COMPLETED_MAYBE` failure is
//! the caller's, and the next call starts from the original. A target
//! reached only through `LOCATION_FORWARD_PERM` replies replaces the
//! original for good: a failure there is the caller's.
//!
//! Failures: a connection that cannot be opened gives `TRANSIENT`. A
//! request is sent once more, on a new connection, wherever the server
//! cannot have processed it (GIOP's connection management): when not all
//! of it could be written, and when the server answers it with
//! `CloseConnection` (which says that the requests it has not answered
//! were not processed); a second such failure is `TRANSIENT`
//! (`COMPLETED_NO`). A connection that breaks once the request is written
//! (the server closes it or resets it before the reply has come, or in
//! the middle of the reply) gives `COMM_FAILURE` (`COMPLETED_MAYBE`), on
//! a new connection or a reused one alike: the server may have processed
//! the request before it went away. The connection is dropped, so the
//! next call connects anew. So that a request is not written into a
//! connection the server closed while it was idle (a server process that
//! exited, with or without sending `CloseConnection`, and was restarted
//! since), a call that takes an idle connection looks, without waiting,
//! whether the server closed it or sent `CloseConnection` meanwhile (a
//! `MSG_PEEK` receive), and takes another, or opens one, if it did; it
//! looks only when the connection has been idle for `IDLE_CHECK_AFTER`
//! (1 ms; on the coarse clock for exclusive connections, a few
//! nanoseconds to read), so calls that follow each other closely make no
//! system call for it. The first call after a server restart thus goes
//! on a new connection; a server that closes a connection within that
//! time of its last reply may still see the next request fail with
//! `COMPLETED_MAYBE`. Oneways with `SYNC_WITH_SERVER` or
//! `SYNC_WITH_TARGET` are calls in this respect, and
//! `SYNC_WITH_TRANSPORT` ones are sent once more where their write fails.
//! A `SYNC_NONE` oneway is written to an idle connection taken the same
//! way; one whose write fails is written once more on a new connection,
//! then dropped, and one written into a connection the server closes
//! before reading it is lost without a word, as `SYNC_NONE` allows. A
//! call that exceeds its round-trip timeout (the effective
//! `RelativeRoundtripTimeout`) gives `TIMEOUT`; an exclusive connection is
//! then dropped, a shared one kept (the late reply is discarded).
//!
//! # Pieces
//!
//! Each module does one job; each uses only those listed before it, and
//! this one, the `ClientCore`, puts them together:
//!
//! 1. `error`: the system exceptions the client raises, their minor codes;
//! 2. `request`: the one request writer of every connection
//!    (`RequestWriter`, request templates, fragments), and the encoding of
//!    `SYNC_NONE` oneways;
//! 3. `reply`: the one reply reader of every connection (`Inbound`:
//!    frames, reassembly, read timeouts) and the outcome of a call;
//! 4. `exclusive`: a connection used by one call at a time;
//! 5. `multiplexed`: a connection shared by many calls, leader/followers;
//! 6. `oneway`: the queue of `SYNC_NONE` oneways of an endpoint;
//! 7. `pool`: the connection cache, a pool per endpoint, the idle reaper;
//! 8. `select`: the usable profiles of a target, their order under the
//!    `ClientProtocolPolicy`, and the policies in force for a call.

pub(super) mod client_core;
mod error;
mod exclusive;
mod multiplexed;
mod oneway;
mod pool;
mod reply;
mod request;
mod select;

pub use super::config::orb_config::ORB_FRAGMENTS;
