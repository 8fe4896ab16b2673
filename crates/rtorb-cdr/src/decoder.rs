//! The CDR decoder.

use std::sync::Arc;

use bytes::Bytes;

use crate::codeset::{self, CodeSetId};
use crate::error::{CdrError, Result};
use crate::order::{ByteOrder, Encoding, Version};
use crate::primitive::Primitive;
use crate::types::{Fixed, LongDouble};

/// How deep values may nest (structs in sequences in Anys ...) before the
/// decoder gives up with [`CdrError::NestingTooDeep`]. Bounds the stack a
/// hostile message can make the decoder use.
pub const DEFAULT_MAX_DEPTH: u32 = 64;

/// A change of alignment origin inside a stream: from buffer offset `at`
/// on, values are aligned relative to offset `origin`.
///
/// A GIOP 1.1 message reassembled from fragments needs these: each
/// `Fragment` message is aligned relative to its own start, so once the
/// fragments' bodies are put end to end the alignment origin moves at every
/// fragment boundary (to 12 octets, the fragment's header, before its
/// body). GIOP 1.2 fragments keep the whole message's alignment and need
/// none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Realign {
    /// The buffer offset from which the new origin applies.
    pub at: usize,
    /// The alignment origin from `at` on (at most `at`).
    pub origin: usize,
}

/// Reads CDR from a reference-counted buffer.
///
/// Every read checks the bytes that remain first, so a truncated or hostile
/// stream yields a [`CdrError`], never a panic, and no length read from the
/// stream makes the decoder allocate more than the stream itself could
/// hold. Octet sequences come out as slices of the input buffer, without a
/// copy.
#[derive(Debug, Clone)]
pub struct Decoder {
    data: Bytes,
    pos: usize,
    origin: usize,
    /// Where `data[0]` lies in the outermost stream (nonzero for the
    /// decoder of an encapsulation), so TypeCode indirections can be
    /// resolved across encapsulation boundaries.
    base: usize,
    encoding: Encoding,
    depth: u32,
    max_depth: u32,
    /// The values read so far, for indirections and chunking (allocated
    /// on the first value).
    pub(crate) values: Option<Box<crate::valuetype::read_state::ReadState>>,
    /// Where the alignment origin changes, by increasing offset.
    realign: Option<Arc<[Realign]>>,
}

impl Decoder {
    /// A decoder over `data`, aligned relative to its first byte.
    pub fn new(data: Bytes, encoding: Encoding) -> Decoder {
        Decoder {
            data,
            pos: 0,
            origin: 0,
            base: 0,
            encoding,
            depth: 0,
            max_depth: DEFAULT_MAX_DEPTH,
            values: None,
            realign: None,
        }
    }

    /// A decoder over `data` that starts reading at `pos` while aligning
    /// relative to `origin` (for a GIOP body that follows its header: the
    /// header is part of the alignment stream).
    pub fn with_position(data: Bytes, origin: usize, pos: usize, encoding: Encoding) -> Decoder {
        let pos = pos.min(data.len());
        Decoder {
            data,
            pos,
            origin: origin.min(pos),
            base: 0,
            encoding,
            depth: 0,
            max_depth: DEFAULT_MAX_DEPTH,
            values: None,
            realign: None,
        }
    }

    /// The encoding parameters in force.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Changes the encoding parameters (for example once a request's
    /// CodeSets service context has been read).
    pub fn set_encoding(&mut self, encoding: Encoding) {
        self.encoding = encoding;
    }

    /// The byte order being read.
    pub fn order(&self) -> ByteOrder {
        self.encoding.order
    }

    /// Sets how deep values may nest.
    pub fn set_max_depth(&mut self, max_depth: u32) {
        self.max_depth = max_depth;
    }

    /// The position relative to the alignment origin.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos - self.origin_at(self.pos)
    }

    /// Moves the alignment origin at the given offsets (see [`Realign`]).
    /// Points that are not in increasing order of `at`, or whose origin is
    /// past their offset, are ignored.
    pub fn set_realignments(&mut self, points: Arc<[Realign]>) {
        let ordered =
            points.windows(2).all(|w| w[0].at < w[1].at) && points.iter().all(|p| p.origin <= p.at);
        self.realign = (ordered && !points.is_empty()).then_some(points);
    }

    /// Whether the alignment origin changes after offset `from` and at or
    /// before offset `to`.
    pub fn realigns_within(&self, from: usize, to: usize) -> bool {
        self.realign
            .as_deref()
            .is_some_and(|r| r.iter().any(|p| p.at > from && p.at <= to))
    }

    /// The alignment origin in force at offset `pos`.
    #[inline]
    fn origin_at(&self, pos: usize) -> usize {
        match self.realign.as_deref() {
            None => self.origin,
            Some(r) => match r.partition_point(|p| p.at <= pos) {
                0 => self.origin,
                i => r[i - 1].origin.max(self.origin),
            },
        }
    }

    /// The absolute offset into the underlying buffer.
    #[inline]
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The offset of the next octet within the outermost stream: like
    /// [`Decoder::offset`], but counted across encapsulations, whose
    /// decoders start where their body lies in the enclosing stream. TypeCode
    /// indirections are resolved in this coordinate.
    pub fn stream_offset(&self) -> usize {
        self.base + self.pos
    }

    /// Bytes left to read.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The whole underlying buffer.
    pub fn buffer(&self) -> &Bytes {
        &self.data
    }

    /// The bytes not yet read, as a slice of the input (no copy).
    pub fn rest(&self) -> Bytes {
        self.data.slice(self.pos..)
    }

    /// Enters one level of nesting; pair with [`Decoder::leave`].
    pub fn enter(&mut self) -> Result<()> {
        if self.depth >= self.max_depth {
            return Err(CdrError::NestingTooDeep(self.max_depth));
        }
        self.depth += 1;
        Ok(())
    }

    /// Leaves one level of nesting.
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The nesting depth reached so far.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    #[inline]
    fn need(&self, n: usize) -> Result<()> {
        if self.remaining() < n {
            Err(CdrError::UnexpectedEnd {
                needed: n,
                remaining: self.remaining(),
            })
        } else {
            Ok(())
        }
    }

    /// Skips padding up to a multiple of `n` (1, 2, 4 or 8).
    #[inline]
    pub fn align(&mut self, n: usize) -> Result<()> {
        let rem = if n.is_power_of_two() {
            self.position() & (n - 1)
        } else {
            self.position() % n
        };
        if rem != 0 {
            let pad = n - rem;
            self.need(pad)?;
            self.pos += pad;
        }
        Ok(())
    }

    /// Skips `n` octets.
    #[inline]
    pub fn skip(&mut self, n: usize) -> Result<()> {
        self.need(n)?;
        self.pos += n;
        Ok(())
    }

    /// Moves to absolute offset `offset` of the underlying buffer (used for
    /// TypeCode indirections). The offset must not be past the end.
    pub fn seek(&mut self, offset: usize) -> Result<()> {
        if offset > self.data.len() || offset < self.origin {
            return Err(CdrError::BadIndirection(offset as i64));
        }
        self.pos = offset;
        Ok(())
    }

    #[inline]
    fn take<const N: usize>(&mut self) -> Result<[u8; N]> {
        self.need(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(&self.data[self.pos..self.pos + N]);
        self.pos += N;
        Ok(out)
    }

    /// Reads `n` raw octets as a slice of the input (no copy).
    pub fn read_bytes(&mut self, n: usize) -> Result<Bytes> {
        self.need(n)?;
        let out = self.data.slice(self.pos..self.pos + n);
        self.pos += n;
        Ok(out)
    }

    /// Reads `n` raw octets as a borrowed slice.
    pub fn read_slice(&mut self, n: usize) -> Result<&[u8]> {
        self.need(n)?;
        let out = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// Reads an `octet`.
    #[inline]
    pub fn read_u8(&mut self) -> Result<u8> {
        Ok(self.take::<1>()?[0])
    }

    /// Reads an `octet` as signed (`int8`).
    #[inline]
    pub fn read_i8(&mut self) -> Result<i8> {
        Ok(self.read_u8()? as i8)
    }

    /// Reads a `boolean`; only 0 and 1 are accepted.
    #[inline]
    pub fn read_bool(&mut self) -> Result<bool> {
        match self.read_u8()? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(CdrError::InvalidBoolean(other)),
        }
    }

    /// Reads an `unsigned short`.
    #[inline]
    pub fn read_u16(&mut self) -> Result<u16> {
        self.align(2)?;
        let b = self.take::<2>()?;
        Ok(match self.encoding.order {
            ByteOrder::Big => u16::from_be_bytes(b),
            ByteOrder::Little => u16::from_le_bytes(b),
        })
    }

    /// Reads a `short`.
    #[inline]
    pub fn read_i16(&mut self) -> Result<i16> {
        Ok(self.read_u16()? as i16)
    }

    /// Reads an `unsigned long`.
    #[inline]
    pub fn read_u32(&mut self) -> Result<u32> {
        self.align(4)?;
        let b = self.take::<4>()?;
        Ok(match self.encoding.order {
            ByteOrder::Big => u32::from_be_bytes(b),
            ByteOrder::Little => u32::from_le_bytes(b),
        })
    }

    /// Reads a `long`.
    #[inline]
    pub fn read_i32(&mut self) -> Result<i32> {
        Ok(self.read_u32()? as i32)
    }

    /// Reads an `unsigned long long`.
    #[inline]
    pub fn read_u64(&mut self) -> Result<u64> {
        self.align(8)?;
        let b = self.take::<8>()?;
        Ok(match self.encoding.order {
            ByteOrder::Big => u64::from_be_bytes(b),
            ByteOrder::Little => u64::from_le_bytes(b),
        })
    }

    /// Reads a `long long`.
    #[inline]
    pub fn read_i64(&mut self) -> Result<i64> {
        Ok(self.read_u64()? as i64)
    }

    /// Reads a `float`.
    #[inline]
    pub fn read_f32(&mut self) -> Result<f32> {
        Ok(f32::from_bits(self.read_u32()?))
    }

    /// Reads a `double`.
    #[inline]
    pub fn read_f64(&mut self) -> Result<f64> {
        Ok(f64::from_bits(self.read_u64()?))
    }

    /// Reads a `long double`, kept as its 16 octets.
    pub fn read_long_double(&mut self) -> Result<LongDouble> {
        self.align(8)?;
        let b = self.take::<16>()?;
        Ok(LongDouble::from_order(b, self.encoding.order))
    }

    /// Reads a length or element count of elements at least `min_size`
    /// octets long each, and checks that the rest of the stream can hold
    /// them. What this returns is safe to allocate for.
    #[inline]
    pub fn read_len(&mut self, min_size: usize) -> Result<usize> {
        let len = self.read_u32()?;
        self.check_len(len as u64, min_size)
    }

    /// Checks a count of elements, each at least `min_size` octets (at
    /// least 1 is assumed), against the bytes that remain.
    #[inline]
    pub fn check_len(&self, len: u64, min_size: usize) -> Result<usize> {
        let need = len.saturating_mul(min_size.max(1) as u64);
        if need > self.remaining() as u64 {
            return Err(CdrError::LengthTooLarge {
                length: len,
                remaining: self.remaining(),
            });
        }
        Ok(len as usize)
    }

    /// Reads a `char` in the transmission code set for `char` data.
    pub fn read_char(&mut self) -> Result<char> {
        let b = self.read_u8()?;
        codeset::decode_char(self.encoding.codesets.char_data, b)
    }

    /// Reads a `string`: its length includes the terminating NUL, which
    /// must be present and be the only NUL.
    pub fn read_string(&mut self) -> Result<String> {
        self.read_string_bounded(None)
    }

    /// Reads a `string` whose length in characters must not exceed `bound`.
    pub fn read_bounded_string(&mut self, bound: u32) -> Result<String> {
        self.read_string_bounded(Some(bound))
    }

    fn read_string_bounded(&mut self, bound: Option<u32>) -> Result<String> {
        let len = self.read_len(1)?;
        if len == 0 {
            return Err(CdrError::MalformedString(
                "zero length (no terminating NUL)",
            ));
        }
        let cs = self.encoding.codesets.char_data;
        let raw = self.read_slice(len)?;
        let (body, nul) = raw.split_at(len - 1);
        if nul[0] != 0 {
            return Err(CdrError::MalformedString("not terminated by NUL"));
        }
        if body.contains(&0) {
            return Err(CdrError::MalformedString("embedded NUL"));
        }
        let s = match cs {
            CodeSetId::UTF_8 => std::str::from_utf8(body)
                .map_err(|_| CdrError::BadCharacter {
                    codeset: CodeSetId::UTF_8.0,
                })?
                .to_owned(),
            CodeSetId::ISO_8859_1 => body.iter().map(|&b| b as char).collect(),
            other => return Err(CdrError::UnsupportedCodeSet(other.0)),
        };
        if let Some(bound) = bound {
            let n = s.chars().count() as u64;
            if n > bound as u64 {
                return Err(CdrError::BoundExceeded {
                    length: n,
                    bound: bound as u64,
                });
            }
        }
        Ok(s)
    }

    /// Reads a `wchar` by the rules of the GIOP version in force.
    pub fn read_wchar(&mut self) -> Result<char> {
        let cs = self.encoding.codesets.wchar_data;
        if self.encoding.version <= Version::V1_0 {
            return Err(CdrError::WcharInGiop10);
        }
        check_wchar_codeset(cs)?;
        match self.encoding.version {
            v if v <= Version::V1_0 => Err(CdrError::WcharInGiop10),
            Version::V1_1 => {
                let u = self.read_u16()?;
                char::from_u32(u as u32).ok_or(CdrError::BadCharacter { codeset: cs.0 })
            }
            _ => {
                let n = self.read_u8()? as usize;
                let raw = self.read_slice(n)?;
                let s = decode_utf16_octets(raw, cs)?;
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Ok(c),
                    _ => Err(CdrError::BadCharacter { codeset: cs.0 }),
                }
            }
        }
    }

    /// Reads a `wstring` by the rules of the GIOP version in force.
    pub fn read_wstring(&mut self) -> Result<String> {
        self.read_wstring_bounded(None)
    }

    /// Reads a `wstring` whose length in characters must not exceed `bound`.
    pub fn read_bounded_wstring(&mut self, bound: u32) -> Result<String> {
        self.read_wstring_bounded(Some(bound))
    }

    fn read_wstring_bounded(&mut self, bound: Option<u32>) -> Result<String> {
        let cs = self.encoding.codesets.wchar_data;
        if self.encoding.version <= Version::V1_0 {
            return Err(CdrError::WcharInGiop10);
        }
        check_wchar_codeset(cs)?;
        let s = match self.encoding.version {
            v if v <= Version::V1_0 => return Err(CdrError::WcharInGiop10),
            Version::V1_1 => {
                let units = self.read_len(2)?;
                if units == 0 {
                    return Err(CdrError::MalformedString(
                        "zero length (no terminating NUL)",
                    ));
                }
                let mut buf = Vec::with_capacity(units);
                for _ in 0..units {
                    buf.push(self.read_u16()?);
                }
                if buf.pop() != Some(0) {
                    return Err(CdrError::MalformedString("not terminated by NUL"));
                }
                if buf.contains(&0) {
                    return Err(CdrError::MalformedString("embedded NUL"));
                }
                String::from_utf16(&buf).map_err(|_| CdrError::BadCharacter { codeset: cs.0 })?
            }
            _ => {
                let octets = self.read_len(1)?;
                let raw = self.read_slice(octets)?;
                let s = decode_utf16_octets(raw, cs)?;
                if s.contains('\0') {
                    return Err(CdrError::MalformedString("embedded NUL"));
                }
                s
            }
        };
        if let Some(bound) = bound {
            let n = s.chars().count() as u64;
            if n > bound as u64 {
                return Err(CdrError::BoundExceeded {
                    length: n,
                    bound: bound as u64,
                });
            }
        }
        Ok(s)
    }

    /// Reads a `fixed` value of `digits` digits and `scale` (from its
    /// TypeCode).
    pub fn read_fixed(&mut self, digits: u16, scale: i16) -> Result<Fixed> {
        let n = Fixed::wire_len(digits);
        let raw = self.read_slice(n)?;
        Fixed::from_bcd(raw, digits, scale)
    }

    /// Reads a `sequence<octet>` as a slice of the input buffer (no copy).
    pub fn read_octet_seq(&mut self) -> Result<Bytes> {
        let len = self.read_len(1)?;
        self.read_bytes(len)
    }

    /// Reads `n` elements of a primitive type with one bulk copy (and one
    /// byte-swapping pass when the stream is not in native order).
    pub fn read_prim_array<T: Primitive>(&mut self, n: usize) -> Result<Vec<T>> {
        if n == 0 {
            return Ok(Vec::new());
        }
        self.align(T::ALIGN)?;
        let bytes = n
            .checked_mul(std::mem::size_of::<T>())
            .ok_or(CdrError::LengthTooLarge {
                length: n as u64,
                remaining: self.remaining(),
            })?;
        self.check_len(bytes as u64, 1)?;
        if self.realigns_within(self.pos, self.pos + bytes) {
            // The alignment changes inside (a GIOP 1.1 fragment boundary):
            // element by element, each aligned where it lies.
            let size = std::mem::size_of::<T>();
            let mut out = Vec::with_capacity(n);
            for _ in 0..n {
                self.align(T::ALIGN)?;
                self.need(size)?;
                let mut v = <T as bytemuck::Zeroable>::zeroed();
                bytemuck::bytes_of_mut(&mut v)
                    .copy_from_slice(&self.data[self.pos..self.pos + size]);
                self.pos += size;
                if !self.encoding.order.is_native() {
                    v = v.swap_bytes();
                }
                out.push(v);
            }
            return Ok(out);
        }
        let mut out = vec![<T as bytemuck::Zeroable>::zeroed(); n];
        bytemuck::cast_slice_mut::<T, u8>(&mut out)
            .copy_from_slice(&self.data[self.pos..self.pos + bytes]);
        self.pos += bytes;
        if !self.encoding.order.is_native() {
            for v in &mut out {
                *v = v.swap_bytes();
            }
        }
        Ok(out)
    }

    /// Reads a `sequence` of a primitive type: its length, then the
    /// elements in bulk.
    pub fn read_prim_seq<T: Primitive>(&mut self) -> Result<Vec<T>> {
        let n = self.read_len(std::mem::size_of::<T>())?;
        self.read_prim_array(n)
    }

    /// Reads an encapsulation: its length, then a decoder over its body
    /// (after the byte-order octet), aligned relative to the body's start
    /// and in the byte order the encapsulation names. The body shares this
    /// decoder's buffer; nothing is copied.
    pub fn read_encapsulation(&mut self) -> Result<Decoder> {
        let len = self.read_len(1)?;
        let base = self.stream_offset();
        let body = self.read_bytes(len)?;
        let mut d = Decoder::encapsulation(body, self.encoding, self.depth, self.max_depth)?;
        d.base = base;
        Ok(d)
    }

    /// A decoder over the bytes of an encapsulation (byte-order octet
    /// first), inheriting the rest of `outer`'s encoding.
    pub fn from_encapsulation(body: Bytes, outer: Encoding) -> Result<Decoder> {
        Decoder::encapsulation(body, outer, 0, DEFAULT_MAX_DEPTH)
    }

    fn encapsulation(body: Bytes, outer: Encoding, depth: u32, max_depth: u32) -> Result<Decoder> {
        if body.is_empty() {
            return Err(CdrError::UnexpectedEnd {
                needed: 1,
                remaining: 0,
            });
        }
        let order = ByteOrder::from_flag(body[0])?;
        Ok(Decoder {
            data: body,
            pos: 1,
            origin: 0,
            base: 0,
            encoding: outer.with_order(order),
            depth,
            max_depth,
            values: None,
            realign: None,
        })
    }
}

fn check_wchar_codeset(cs: CodeSetId) -> Result<()> {
    if cs == CodeSetId::NONE {
        Err(CdrError::NoWcharCodeSet)
    } else if cs == CodeSetId::UTF_16 || cs == CodeSetId::UCS_2 {
        Ok(())
    } else {
        Err(CdrError::UnsupportedCodeSet(cs.0))
    }
}

/// Decodes GIOP 1.2 wchar octets: UTF-16 with an optional byte-order mark,
/// big-endian where there is none.
fn decode_utf16_octets(raw: &[u8], cs: CodeSetId) -> Result<String> {
    let bad = CdrError::BadCharacter { codeset: cs.0 };
    if raw.len() % 2 != 0 {
        return Err(bad);
    }
    let (little, body) = match raw {
        [0xfe, 0xff, rest @ ..] => (false, rest),
        [0xff, 0xfe, rest @ ..] => (true, rest),
        _ => (false, raw),
    };
    let units = body.chunks_exact(2).map(|p| {
        if little {
            u16::from_le_bytes([p[0], p[1]])
        } else {
            u16::from_be_bytes([p[0], p[1]])
        }
    });
    let s: String = char::decode_utf16(units)
        .collect::<std::result::Result<String, _>>()
        .map_err(|_| bad.clone())?;
    if cs == CodeSetId::UCS_2 && s.chars().any(|c| c as u32 > 0xffff) {
        return Err(bad);
    }
    Ok(s)
}
