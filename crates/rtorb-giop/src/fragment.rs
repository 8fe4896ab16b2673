//! Fragmentation of outgoing GIOP messages and reassembly of incoming
//! ones.
//!
//! A message larger than a transport wants to send in one piece is sent as
//! a first message with the more-fragments flag set, followed by
//! `Fragment` messages; the last has the flag clear. GIOP 1.0 cannot
//! fragment. GIOP 1.1 fragments carry no request id, so one connection
//! carries at most one fragmented message at a time. GIOP 1.2 fragments
//! start with the request id of the message they continue, so fragmented
//! messages may interleave.
//!
//! Every GIOP message, a `Fragment` included, is aligned relative to its
//! own start. In GIOP 1.2 the 16-octet fragment header and the rule that
//! every piece but the last is a multiple of 8 octets keep the alignment
//! of the whole message. A GIOP 1.1 `Fragment` has a 12-octet header, so
//! its body is 4 octets off an 8-octet boundary: a fragment sent after a
//! first message of a multiple of 8 octets (as omniORB sends them) shifts
//! the alignment of what follows. [`Reassembler::push_message`] records
//! those shifts ([`rtorb_cdr::Realign`]) for the decoder.
//!
//! [`fragment_message`] cuts so that no shift arises: in GIOP 1.2 the
//! first message and every fragment body a multiple of 8 octets; in GIOP
//! 1.1 the first message 4 octets past a multiple of 8 (where a fragment's
//! body starts) and every fragment body a multiple of 8. [`Reassembler`]
//! undoes it, within limits a hostile peer cannot exceed, holding what
//! it says it holds ([`Reassembler::held_bytes`]).

mod blocks;
mod pool;
mod reassembly;

pub use pool::{BlockPool, POOL_BLOCK};
pub use reassembly::{Reassembler, ReassemblyLimits};

use bytes::{Bytes, BytesMut};
use rtorb_cdr::{ByteOrder, Version};

use crate::header::{GiopError, HEADER_LEN, MessageHeader, MsgType, has_12_layout};

/// The smallest maximum fragment size [`fragment_message`] accepts.
pub const MIN_FRAGMENT_SIZE: usize = 32;

/// Octets of a GIOP 1.2 fragment header: the message header and the
/// request id.
const FRAGMENT_HEADER_LEN_12: usize = HEADER_LEN + 4;

fn read_u32_at(bytes: &[u8], at: usize, order: ByteOrder) -> Option<u32> {
    let b: [u8; 4] = bytes.get(at..at + 4)?.try_into().ok()?;
    Some(match order {
        ByteOrder::Big => u32::from_be_bytes(b),
        ByteOrder::Little => u32::from_le_bytes(b),
    })
}

fn write_u32_at(bytes: &mut [u8], at: usize, order: ByteOrder, v: u32) {
    let b = match order {
        ByteOrder::Big => v.to_be_bytes(),
        ByteOrder::Little => v.to_le_bytes(),
    };
    if let Some(slot) = bytes.get_mut(at..at + 4) {
        slot.copy_from_slice(&b);
    }
}

fn whole_header(message: &[u8]) -> Result<MessageHeader, GiopError> {
    let h = MessageHeader::parse(message, u32::MAX)?;
    let declared = h.size as usize;
    let actual = message.len() - HEADER_LEN;
    if actual < declared {
        return Err(GiopError::Truncated {
            needed: HEADER_LEN + declared,
            available: message.len(),
        });
    }
    if actual > declared {
        return Err(GiopError::SizeMismatch { declared, actual });
    }
    Ok(h)
}

/// Whether a message of this type may be fragmented in `version`:
/// requests and replies from 1.1, locate requests and replies from 1.2.
pub fn is_fragmentable(msg_type: MsgType, version: Version) -> bool {
    match msg_type {
        MsgType::Request | MsgType::Reply => version >= Version::V1_1,
        MsgType::LocateRequest | MsgType::LocateReply => has_12_layout(version),
        _ => false,
    }
}

/// Splits a whole encoded message into pieces of at most
/// `max_fragment_size` octets: the first message with the more-fragments
/// flag set, then `Fragment` messages. A message that fits is returned
/// unchanged as the only piece.
///
/// Errors: GIOP 1.0 ([`GiopError::CannotFragment`]), a message type that
/// cannot be fragmented, a maximum below [`MIN_FRAGMENT_SIZE`], or a
/// malformed message.
///
/// In GIOP 1.1 the cuts fall 4 octets past an 8-octet boundary, where the
/// alignment of the message and of each fragment agree; such a cut splits
/// an 8-octet primitive that straddles it, which the specification says a
/// sender should not do. Only the caller knows where its primitives lie:
/// the rtorb ORB fragments GIOP 1.2 messages only, and sends 1.1 messages
/// whole.
pub fn fragment_message(
    message: &Bytes,
    max_fragment_size: usize,
) -> Result<Vec<Bytes>, GiopError> {
    let h = whole_header(message)?;
    if message.len() <= max_fragment_size && !h.more_fragments {
        return Ok(vec![message.clone()]);
    }
    if h.version == Version::V1_0 {
        return Err(GiopError::CannotFragment);
    }
    if h.more_fragments || !is_fragmentable(h.msg_type, h.version) {
        return Err(GiopError::NotFragmentable(h.msg_type));
    }
    if max_fragment_size < MIN_FRAGMENT_SIZE {
        return Err(GiopError::FragmentSizeTooSmall(max_fragment_size));
    }
    let v12 = has_12_layout(h.version);
    let request_id = if v12 {
        read_u32_at(message, HEADER_LEN, h.order).ok_or(GiopError::Truncated {
            needed: FRAGMENT_HEADER_LEN_12,
            available: message.len(),
        })?
    } else {
        0
    };
    // Where the first piece ends is where the next fragment's body starts
    // in its own message, modulo 8: 0 for GIOP 1.2 (16-octet fragment
    // header), 4 for GIOP 1.1 (12-octet header).
    let first_len = if v12 {
        max_fragment_size & !7
    } else {
        ((max_fragment_size - 4) & !7) + 4
    };
    let frag_header = if v12 {
        FRAGMENT_HEADER_LEN_12
    } else {
        HEADER_LEN
    };
    let chunk = (max_fragment_size - frag_header) & !7;

    let mut out = Vec::with_capacity(2 + (message.len() - first_len) / chunk);
    let first_header = MessageHeader {
        more_fragments: true,
        size: (first_len - HEADER_LEN) as u32,
        ..h
    };
    let mut first = BytesMut::with_capacity(first_len);
    first.extend_from_slice(&first_header.encode());
    first.extend_from_slice(&message[HEADER_LEN..first_len]);
    out.push(first.freeze());

    let mut at = first_len;
    while at < message.len() {
        let end = (at + chunk).min(message.len());
        let more = end < message.len();
        let header = MessageHeader {
            version: h.version,
            order: h.order,
            more_fragments: more,
            msg_type: MsgType::Fragment,
            size: (frag_header - HEADER_LEN + end - at) as u32,
        };
        let mut piece = BytesMut::with_capacity(frag_header + end - at);
        piece.extend_from_slice(&header.encode());
        if v12 {
            let id = match h.order {
                ByteOrder::Big => request_id.to_be_bytes(),
                ByteOrder::Little => request_id.to_le_bytes(),
            };
            piece.extend_from_slice(&id);
        }
        piece.extend_from_slice(&message[at..end]);
        out.push(piece.freeze());
        at = end;
    }
    Ok(out)
}

/// Appends to `out` the octets `from..to` of the message made of
/// `chunks`, as slices of the chunks (no octet is copied).
fn push_range(chunks: &[Bytes], from: usize, to: usize, out: &mut Vec<Bytes>) {
    let mut start = 0;
    for c in chunks {
        let end = start + c.len();
        if end > from && start < to {
            let a = from.max(start) - start;
            let b = to.min(end) - start;
            out.push(c.slice(a..b));
        }
        if end >= to {
            break;
        }
        start = end;
    }
}

/// The first `N` octets of the message made of `chunks`, if it has them.
fn leading<const N: usize>(chunks: &[Bytes]) -> Option<[u8; N]> {
    let mut head = [0u8; N];
    let mut at = 0;
    for c in chunks {
        let n = c.len().min(N - at);
        head[at..at + n].copy_from_slice(&c[..n]);
        at += n;
        if at == N {
            return Some(head);
        }
    }
    None
}

/// As [`fragment_message`], for a whole message given as a chain of
/// buffers (what [`crate::message::MessageWriter::finish_chunks`] returns),
/// without copying its body: the result is a chain for one gathered write,
/// made of new headers (12 octets, 16 for a GIOP 1.2 `Fragment`) and
/// slices of the input chunks.
///
/// A message that fits in `max_fragment_size` comes back as the same
/// chunks. Errors as [`fragment_message`]'s.
///
/// ```
/// use bytes::Bytes;
/// use rtorb_cdr::{Encoding, Version};
/// use rtorb_giop::message::{MessageWriter, RequestHeader};
/// use rtorb_giop::{Reassembler, fragment_chunks};
///
/// let h = RequestHeader::new(7, Bytes::from_static(b"key"), "put");
/// let mut w = MessageWriter::request(Encoding::native().with_version(Version::V1_2), &h).unwrap();
/// let data = Bytes::from(vec![0x5a; 10_000]);
/// w.body().write_octet_seq_bytes(&data).unwrap();
/// let chunks = w.finish_chunks().unwrap();
///
/// let pieces = fragment_chunks(&chunks, 1024).unwrap();
/// // Headers and slices, for one gathered write; each message <= 1024.
/// let mut r = Reassembler::default();
/// let mut whole = None;
/// let mut message = Vec::new();
/// for p in &pieces {
///     message.extend_from_slice(p);
///     let len = 12 + u32::from_ne_bytes(message[8..12].try_into().unwrap()) as usize;
///     if message.len() == len {
///         assert!(len <= 1024);
///         whole = r.push(Bytes::from(std::mem::take(&mut message))).unwrap();
///     }
/// }
/// let whole = whole.expect("reassembled");
/// let original: Vec<u8> = chunks.iter().flat_map(|c| c.iter().copied()).collect();
/// assert_eq!(whole[..], original[..]);
/// ```
pub fn fragment_chunks(
    chunks: &[Bytes],
    max_fragment_size: usize,
) -> Result<Vec<Bytes>, GiopError> {
    let total: usize = chunks.iter().map(Bytes::len).sum();
    let head: [u8; HEADER_LEN] = leading(chunks).ok_or(GiopError::Truncated {
        needed: HEADER_LEN,
        available: total,
    })?;
    let h = MessageHeader::parse(&head, u32::MAX)?;
    let declared = h.size as usize;
    if total - HEADER_LEN < declared {
        return Err(GiopError::Truncated {
            needed: HEADER_LEN + declared,
            available: total,
        });
    }
    if total - HEADER_LEN > declared {
        return Err(GiopError::SizeMismatch {
            declared,
            actual: total - HEADER_LEN,
        });
    }
    if total <= max_fragment_size && !h.more_fragments {
        return Ok(chunks.to_vec());
    }
    if h.version == Version::V1_0 {
        return Err(GiopError::CannotFragment);
    }
    if h.more_fragments || !is_fragmentable(h.msg_type, h.version) {
        return Err(GiopError::NotFragmentable(h.msg_type));
    }
    if max_fragment_size < MIN_FRAGMENT_SIZE {
        return Err(GiopError::FragmentSizeTooSmall(max_fragment_size));
    }
    let v12 = has_12_layout(h.version);
    let id: [u8; FRAGMENT_HEADER_LEN_12] = if v12 {
        leading(chunks).ok_or(GiopError::Truncated {
            needed: FRAGMENT_HEADER_LEN_12,
            available: total,
        })?
    } else {
        [0; FRAGMENT_HEADER_LEN_12]
    };
    // Cut where fragment_message cuts, so that no alignment shift arises
    // (see the module doc).
    let first_len = if v12 {
        max_fragment_size & !7
    } else {
        ((max_fragment_size - 4) & !7) + 4
    };
    let frag_header = if v12 {
        FRAGMENT_HEADER_LEN_12
    } else {
        HEADER_LEN
    };
    let chunk = (max_fragment_size - frag_header) & !7;
    let pieces = 1 + (total - first_len).div_ceil(chunk);
    let mut out = Vec::with_capacity(pieces * (chunks.len().min(4) + 1));
    let first_header = MessageHeader {
        more_fragments: true,
        size: (first_len - HEADER_LEN) as u32,
        ..h
    };
    out.push(Bytes::copy_from_slice(&first_header.encode()));
    push_range(chunks, HEADER_LEN, first_len, &mut out);
    let mut at = first_len;
    while at < total {
        let end = (at + chunk).min(total);
        let header = MessageHeader {
            version: h.version,
            order: h.order,
            more_fragments: end < total,
            msg_type: MsgType::Fragment,
            size: (frag_header - HEADER_LEN + end - at) as u32,
        };
        let mut piece = [0u8; FRAGMENT_HEADER_LEN_12];
        piece[..HEADER_LEN].copy_from_slice(&header.encode());
        // The request id of a 1.2 request or reply follows its header.
        piece[HEADER_LEN..].copy_from_slice(&id[HEADER_LEN..]);
        out.push(Bytes::copy_from_slice(&piece[..frag_header]));
        push_range(chunks, at, end, &mut out);
        at = end;
    }
    Ok(out)
}
