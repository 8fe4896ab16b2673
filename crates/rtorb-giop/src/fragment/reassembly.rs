//! Reassembly of incoming fragmented messages, within limits a hostile
//! peer cannot exceed.

use std::sync::Arc;

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, CdrDecode, Decoder, Encoding, Realign, Version};

use super::blocks::{self, Blocks};
use super::pool::{BlockPool, POOL_BLOCK};
use super::{FRAGMENT_HEADER_LEN_12, is_fragmentable, read_u32_at, whole_header, write_u32_at};
use crate::header::{
    FLAG_MORE_FRAGMENTS, GiopError, HEADER_LEN, MessageHeader, MsgType, has_12_layout,
};
use crate::message::Message;
use crate::service_context::ServiceContextList;

/// Bounds on what a [`Reassembler`] holds, so that a peer cannot make it
/// hold unbounded memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReassemblyLimits {
    /// Octets held over all incomplete messages
    /// ([`Reassembler::held_bytes`]).
    pub max_total_bytes: usize,
    /// Incomplete messages at once.
    pub max_partial_messages: usize,
    /// Pieces (the first message and its fragments) of one message.
    pub max_fragments_per_message: usize,
}

impl ReassemblyLimits {
    /// Limits under which a message of `len` octets (header included) is
    /// reassembled however it is fragmented: `max_total_bytes` of `len`
    /// and the room of the blocks it is kept in besides (at most a 64th
    /// more and two blocks), with or without a pool; the other limits as
    /// the default's.
    ///
    /// ```
    /// use rtorb_giop::ReassemblyLimits;
    ///
    /// let limits = ReassemblyLimits::for_message(1 << 20);
    /// assert!(limits.max_total_bytes > 1 << 20);
    /// assert!(limits.max_total_bytes < (1 << 20) + (1 << 20) / 8);
    /// ```
    pub fn for_message(len: usize) -> ReassemblyLimits {
        ReassemblyLimits {
            max_total_bytes: len
                .saturating_add(len / 64)
                .saturating_add(2 * POOL_BLOCK.max(blocks::MIN_BLOCK)),
            ..ReassemblyLimits::default()
        }
    }
}

impl Default for ReassemblyLimits {
    /// 64 MiB, 64 messages, 65536 pieces.
    fn default() -> Self {
        ReassemblyLimits {
            max_total_bytes: 64 * 1024 * 1024,
            max_partial_messages: 64,
            max_fragments_per_message: 65536,
        }
    }
}

#[derive(Debug)]
struct Partial {
    version: Version,
    order: ByteOrder,
    request_id: Option<u32>,
    /// The message so far.
    buf: Blocks,
    pieces: usize,
    /// Where the alignment origin moves (GIOP 1.1 fragment bodies).
    realign: Vec<Realign>,
}

/// Reassembles fragmented messages of one connection.
///
/// Feed it every whole GIOP message the connection receives
/// ([`Reassembler::push`]); it returns each message that is complete,
/// either as received (not fragmented) or reassembled (the more-fragments
/// flag cleared and the size fixed), ready for
/// [`crate::message::decode_message`]. GIOP 1.2 messages are keyed by
/// request id and may interleave; a GIOP 1.1 fragmented message must end
/// before the next begins.
///
/// Any error means the peer broke the protocol: the connection should
/// answer with a `MessageError` and close. The partial message concerned
/// is dropped.
///
/// What it holds is what [`Reassembler::held_bytes`] says, allocation for
/// allocation: fragments are kept in blocks that are filled, never grown
/// (a block per fragment body of 4 KiB or more, smaller ones sharing
/// blocks of up to 4 KiB; with [`Reassembler::with_pool`], the pool's
/// blocks), and a message completed is copied once into a buffer of its
/// size. A caller that accounts for memory asks
/// [`Reassembler::held_during`] what a message will cost before it is
/// pushed.
#[derive(Debug, Default)]
pub struct Reassembler {
    limits: ReassemblyLimits,
    partials: Vec<Partial>,
    v11: Option<Partial>,
    held: usize,
    /// Where blocks come from; `None`: the allocator.
    pool: Option<Arc<BlockPool>>,
    /// The alignment changes of the message completed last.
    completed_realign: Option<Arc<[Realign]>>,
}

/// The request id of a GIOP 1.0/1.1 message, which follows the service
/// contexts in requests and replies.
fn request_id_11(message: &Bytes, h: &MessageHeader) -> Option<u32> {
    let enc = Encoding::native()
        .with_order(h.order)
        .with_version(h.version);
    let mut d = Decoder::with_position(message.clone(), 0, HEADER_LEN, enc);
    if matches!(h.msg_type, MsgType::Request | MsgType::Reply) {
        ServiceContextList::decode(&mut d).ok()?;
    }
    d.read_u32().ok()
}

impl Reassembler {
    /// A reassembler with the given limits.
    pub fn new(limits: ReassemblyLimits) -> Reassembler {
        Reassembler {
            limits,
            ..Reassembler::default()
        }
    }

    /// A reassembler with the given limits whose blocks come from `pool`
    /// and go back to it, for a server whose connections are served by
    /// several threads (see [`BlockPool`]). Every block is then one of
    /// [`POOL_BLOCK`] octets, the first message's too.
    pub fn with_pool(limits: ReassemblyLimits, pool: Arc<BlockPool>) -> Reassembler {
        Reassembler {
            limits,
            pool: Some(pool),
            ..Reassembler::default()
        }
    }

    /// Where a new message is kept.
    fn blocks(&self) -> Blocks {
        Blocks::new(self.pool.clone())
    }

    /// The limits in force.
    pub fn limits(&self) -> ReassemblyLimits {
        self.limits
    }

    /// Incomplete messages held.
    pub fn pending(&self) -> usize {
        self.partials.len() + usize::from(self.v11.is_some())
    }

    /// Octets held for incomplete messages: the room allocated for them,
    /// which the fragments received fill but for the last block of each
    /// (besides a list of the blocks, a few octets each).
    pub fn held_bytes(&self) -> usize {
        self.held
    }

    /// The most that is held while [`Reassembler::push`] takes `message`:
    /// [`Reassembler::held_bytes`] after it, and, when it completes a
    /// message, the copy of that message besides. A caller that accounts
    /// for memory charges this much before the push and what is held
    /// after it (and the message completed, until handled) once it
    /// returns.
    ///
    /// ```
    /// use bytes::Bytes;
    /// use rtorb_cdr::{Encoding, Version};
    /// use rtorb_giop::message::{MessageWriter, RequestHeader};
    /// use rtorb_giop::{Reassembler, fragment_message};
    ///
    /// let h = RequestHeader::new(7, Bytes::from_static(b"key"), "put");
    /// let mut w = MessageWriter::request(Encoding::native().with_version(Version::V1_2), &h).unwrap();
    /// w.body().write_octet_seq_bytes(&Bytes::from(vec![1; 20_000])).unwrap();
    /// let pieces = fragment_message(&w.finish().unwrap(), 8192).unwrap();
    ///
    /// let mut r = Reassembler::default();
    /// let (last, first) = pieces.split_last().unwrap();
    /// for p in first {
    ///     let during = r.held_during(p);
    ///     assert!(r.push(p.clone()).unwrap().is_none());
    ///     assert!(r.held_bytes() <= during);
    /// }
    /// let during = r.held_during(last);
    /// let whole = r.push(last.clone()).unwrap().unwrap();
    /// assert_eq!(r.held_bytes(), 0);
    /// assert!(whole.len() <= during);
    /// ```
    pub fn held_during(&self, message: &[u8]) -> usize {
        let Ok(h) = MessageHeader::parse(message, u32::MAX) else {
            return self.held;
        };
        if h.msg_type != MsgType::Fragment {
            return if h.more_fragments {
                self.held
                    .saturating_add(self.blocks().held_after(message.len()))
            } else {
                self.held
            };
        }
        let v12 = has_12_layout(h.version);
        let partial = if v12 {
            read_u32_at(message, HEADER_LEN, h.order)
                .and_then(|id| self.partials.iter().find(|p| p.request_id == Some(id)))
        } else {
            self.v11.as_ref()
        };
        let Some(p) = partial else {
            return self.held;
        };
        let header = if v12 {
            FRAGMENT_HEADER_LEN_12
        } else {
            HEADER_LEN
        };
        let payload = message.len().saturating_sub(header);
        if h.more_fragments {
            self.held - p.buf.held() + p.buf.held_after(payload)
        } else {
            // Joined with the last fragment's body into one buffer.
            self.held.saturating_add(p.buf.len() + payload)
        }
    }

    /// Drops every incomplete message.
    pub fn clear(&mut self) {
        self.partials.clear();
        self.v11 = None;
        self.held = 0;
    }

    /// Drops the incomplete message with request id `request_id`, if there
    /// is one; returns whether there was.
    pub fn cancel(&mut self, request_id: u32) -> bool {
        if let Some(i) = self
            .partials
            .iter()
            .position(|p| p.request_id == Some(request_id))
        {
            let p = self.partials.swap_remove(i);
            self.held -= p.buf.held();
            return true;
        }
        if self
            .v11
            .as_ref()
            .is_some_and(|p| p.request_id == Some(request_id))
        {
            if let Some(p) = self.v11.take() {
                self.held -= p.buf.held();
            }
            return true;
        }
        false
    }

    /// Takes one whole GIOP message. Returns it (or the message it
    /// completes) when a complete message is available, `None` when it
    /// began or continued a fragmented message.
    ///
    /// A `CancelRequest` is passed on, and drops the incomplete message
    /// with its request id.
    pub fn push(&mut self, message: Bytes) -> Result<Option<Bytes>, GiopError> {
        let h = whole_header(&message)?;
        if h.msg_type == MsgType::Fragment {
            return self.continue_partial(&h, &message);
        }
        if h.more_fragments {
            self.start_partial(&h, message)?;
            return Ok(None);
        }
        if h.msg_type == MsgType::CancelRequest {
            if let Some(id) = read_u32_at(&message, HEADER_LEN, h.order) {
                self.cancel(id);
            }
        }
        Ok(Some(message))
    }

    fn start_partial(&mut self, h: &MessageHeader, message: Bytes) -> Result<(), GiopError> {
        if !is_fragmentable(h.msg_type, h.version) {
            return Err(GiopError::NotFragmentable(h.msg_type));
        }
        let v12 = has_12_layout(h.version);
        let request_id = if v12 {
            Some(
                read_u32_at(&message, HEADER_LEN, h.order).ok_or(GiopError::Truncated {
                    needed: FRAGMENT_HEADER_LEN_12,
                    available: message.len(),
                })?,
            )
        } else {
            request_id_11(&message, h)
        };
        if v12 {
            if self.partials.iter().any(|p| p.request_id == request_id) {
                return Err(GiopError::FragmentInterleaved(request_id));
            }
        } else if self.v11.is_some() {
            return Err(GiopError::FragmentInterleaved(request_id));
        }
        if self.pending() >= self.limits.max_partial_messages {
            return Err(GiopError::TooManyPartialMessages(
                self.limits.max_partial_messages,
            ));
        }
        let held = self.blocks().held_after(message.len());
        if self.held.saturating_add(held) > self.limits.max_total_bytes {
            return Err(GiopError::ReassemblyLimit(self.limits.max_total_bytes));
        }
        if self.limits.max_fragments_per_message == 0 {
            return Err(GiopError::TooManyFragments(0));
        }
        let mut buf = self.blocks();
        buf.append(&message);
        self.held += buf.held();
        let p = Partial {
            version: h.version,
            order: h.order,
            request_id,
            buf,
            pieces: 1,
            realign: Vec::new(),
        };
        if v12 {
            self.partials.push(p);
        } else {
            self.v11 = Some(p);
        }
        Ok(())
    }

    fn continue_partial(
        &mut self,
        h: &MessageHeader,
        message: &Bytes,
    ) -> Result<Option<Bytes>, GiopError> {
        let v12 = has_12_layout(h.version);
        let (mut p, payload_at) = if v12 {
            let id = read_u32_at(message, HEADER_LEN, h.order).ok_or(GiopError::Truncated {
                needed: FRAGMENT_HEADER_LEN_12,
                available: message.len(),
            })?;
            let i = self
                .partials
                .iter()
                .position(|p| p.request_id == Some(id))
                .ok_or(GiopError::UnexpectedFragment(Some(id)))?;
            (self.partials.swap_remove(i), FRAGMENT_HEADER_LEN_12)
        } else {
            (
                self.v11.take().ok_or(GiopError::UnexpectedFragment(None))?,
                HEADER_LEN,
            )
        };
        // The partial is out of the table; on error it stays dropped.
        self.held -= p.buf.held();
        if p.version != h.version || p.order != h.order {
            return Err(GiopError::FragmentMismatch);
        }
        p.pieces += 1;
        if p.pieces > self.limits.max_fragments_per_message {
            return Err(GiopError::TooManyFragments(
                self.limits.max_fragments_per_message,
            ));
        }
        let payload = &message[payload_at.min(message.len())..];
        let new_len = p.buf.len() + payload.len();
        // Held after: the blocks grown, or the message completed.
        let after = if h.more_fragments {
            p.buf.held_after(payload.len())
        } else {
            new_len
        };
        if self.held.saturating_add(after) > self.limits.max_total_bytes {
            return Err(GiopError::ReassemblyLimit(self.limits.max_total_bytes));
        }
        let size =
            u32::try_from(new_len - HEADER_LEN).map_err(|_| GiopError::SizeOverflow(new_len))?;
        if !v12 && !payload.is_empty() {
            // A GIOP 1.1 fragment is aligned relative to its own start: its
            // body, 12 octets in, continues the message at `p.buf.len()`.
            let at = p.buf.len();
            let origin = at - HEADER_LEN;
            let current = p.realign.last().map_or(0, |r| r.origin);
            if origin.abs_diff(current) % 8 != 0 {
                p.realign.push(Realign { at, origin });
            }
        }
        if h.more_fragments {
            p.buf.append(payload);
            self.held += p.buf.held();
            if v12 {
                self.partials.push(p);
            } else {
                self.v11 = Some(p);
            }
            return Ok(None);
        }
        let mut buf = p.buf.join_with(payload);
        if let Some(flags) = buf.get_mut(6) {
            *flags &= !FLAG_MORE_FRAGMENTS;
        }
        write_u32_at(&mut buf, 8, p.order, size);
        self.completed_realign = (!p.realign.is_empty()).then(|| Arc::from(p.realign));
        Ok(Some(Bytes::from(buf)))
    }

    /// As [`Reassembler::push`], and decodes the complete message
    /// ([`crate::message::decode_message`]), recording in it where its
    /// alignment changes ([`Message::realign`]) so that
    /// [`Message::body_decoder`] reads a GIOP 1.1 message reassembled from
    /// fragments correctly. Returns the message with the buffer it was
    /// decoded from.
    pub fn push_message(&mut self, message: Bytes) -> Result<Option<(Message, Bytes)>, GiopError> {
        self.completed_realign = None;
        let Some(whole) = self.push(message)? else {
            return Ok(None);
        };
        let mut m = crate::message::decode_message(whole.clone())?;
        m.realign = self.completed_realign.take();
        Ok(Some((m, whole)))
    }
}
