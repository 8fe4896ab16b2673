//! The CDR encoder.

use bytes::{BufMut, Bytes, BytesMut};

use crate::codeset::{self, CodeSetId};
use crate::error::{CdrError, Result};
use crate::order::{ByteOrder, Encoding, Version};
use crate::primitive::Primitive;
use crate::types::{Fixed, LongDouble};

/// Octet sequences at least this long are appended to the output as a
/// reference to the caller's buffer instead of being copied, when the
/// encoder is allowed to ([`Encoder::set_zero_copy_threshold`]).
pub const DEFAULT_ZERO_COPY_THRESHOLD: usize = 1024;

/// Writes CDR into a growable buffer.
///
/// Alignment is computed relative to an origin: the start of the GIOP
/// message, or of the encapsulation being written. The encoder always writes
/// in the byte order of its [`Encoding`]; rtorb writes native order unless
/// told otherwise.
///
/// Large octet sequences given as [`Bytes`] are not copied: the output becomes
/// a chain of chunks ([`Encoder::into_chunks`]) that a transport gathers with
/// one `writev`.
#[derive(Debug)]
pub struct Encoder {
    buf: BytesMut,
    chunks: Vec<Bytes>,
    chunks_len: usize,
    origin: usize,
    encoding: Encoding,
    zero_copy_threshold: usize,
    encapsulation_depth: u32,
    /// The values written so far, for sharing and chunking (allocated on
    /// the first value).
    pub(crate) values: Option<Box<crate::valuetype::write_state::WriteState>>,
}

impl Encoder {
    /// An empty encoder whose origin is the first byte it writes.
    pub fn new(encoding: Encoding) -> Encoder {
        Encoder::with_buffer(BytesMut::new(), encoding)
    }

    /// An encoder that appends to `buf`, reusing its capacity. The origin for
    /// alignment is the start of `buf` (its current contents included).
    pub fn with_buffer(buf: BytesMut, encoding: Encoding) -> Encoder {
        Encoder {
            buf,
            chunks: Vec::new(),
            chunks_len: 0,
            origin: 0,
            encoding,
            zero_copy_threshold: usize::MAX,
            encapsulation_depth: 0,
            values: None,
        }
    }

    /// The encoding parameters in force.
    #[inline]
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Changes the encoding parameters (for example after code-set
    /// negotiation); applies to what is written next.
    pub fn set_encoding(&mut self, encoding: Encoding) {
        self.encoding = encoding;
    }

    /// The byte order being written.
    pub fn order(&self) -> ByteOrder {
        self.encoding.order
    }

    /// Octet sequences of at least `threshold` bytes written with
    /// [`Encoder::write_octet_seq_bytes`] are referenced, not copied.
    /// `usize::MAX` (the default) turns this off.
    pub fn set_zero_copy_threshold(&mut self, threshold: usize) {
        self.zero_copy_threshold = threshold;
    }

    /// Bytes written so far, counted from the start of the output.
    #[inline]
    pub fn len(&self) -> usize {
        self.chunks_len + self.buf.len()
    }

    /// The capacity of the buffer being written.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// Whether nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The current position relative to the alignment origin.
    #[inline]
    pub fn position(&self) -> usize {
        self.len() - self.origin
    }

    /// Makes the current position the origin for alignment. GIOP aligns
    /// relative to the start of the message, header included, so only a
    /// nested stream (an encapsulation) starts a new origin.
    pub fn reset_origin(&mut self) {
        self.origin = self.len();
    }

    /// Pads with zero octets to a multiple of `n` (1, 2, 4 or 8).
    #[inline]
    pub fn align(&mut self, n: usize) {
        let rem = if n.is_power_of_two() {
            self.position() & (n - 1)
        } else {
            self.position() % n
        };
        if rem == 0 {
            return;
        }
        let pad = n - rem;
        if pad <= 8 {
            // One store of eight padding octets, cut back to `pad`: no
            // call to fill a few octets.
            let len = self.buf.len();
            self.buf
                .put_u64_ne(u64::from_ne_bytes([self.encoding.padding; 8]));
            self.buf.truncate(len + pad);
        } else {
            self.buf.put_bytes(self.encoding.padding, pad);
        }
    }

    /// Writes raw octets with no alignment or length.
    #[inline]
    pub fn write_raw(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Writes an `octet`.
    #[inline]
    pub fn write_u8(&mut self, v: u8) {
        self.buf.put_u8(v);
    }

    /// Writes an `octet` (signed view, for `int8`).
    #[inline]
    pub fn write_i8(&mut self, v: i8) {
        self.buf.put_i8(v);
    }

    /// Writes a `boolean` (one octet, 0 or 1).
    #[inline]
    pub fn write_bool(&mut self, v: bool) {
        self.buf.put_u8(v as u8);
    }

    /// Writes an `unsigned short`.
    #[inline]
    pub fn write_u16(&mut self, v: u16) {
        self.align(2);
        match self.encoding.order {
            ByteOrder::Big => self.buf.put_u16(v),
            ByteOrder::Little => self.buf.put_u16_le(v),
        }
    }

    /// Writes a `short`.
    #[inline]
    pub fn write_i16(&mut self, v: i16) {
        self.write_u16(v as u16);
    }

    /// Writes an `unsigned long`.
    #[inline]
    pub fn write_u32(&mut self, v: u32) {
        self.align(4);
        match self.encoding.order {
            ByteOrder::Big => self.buf.put_u32(v),
            ByteOrder::Little => self.buf.put_u32_le(v),
        }
    }

    /// Writes a `long`.
    #[inline]
    pub fn write_i32(&mut self, v: i32) {
        self.write_u32(v as u32);
    }

    /// Writes an `unsigned long long`.
    #[inline]
    pub fn write_u64(&mut self, v: u64) {
        self.align(8);
        match self.encoding.order {
            ByteOrder::Big => self.buf.put_u64(v),
            ByteOrder::Little => self.buf.put_u64_le(v),
        }
    }

    /// Writes a `long long`.
    #[inline]
    pub fn write_i64(&mut self, v: i64) {
        self.write_u64(v as u64);
    }

    /// Writes a `float` (IEEE single).
    #[inline]
    pub fn write_f32(&mut self, v: f32) {
        self.write_u32(v.to_bits());
    }

    /// Writes a `double` (IEEE double).
    #[inline]
    pub fn write_f64(&mut self, v: f64) {
        self.write_u64(v.to_bits());
    }

    /// Writes a `long double`: 16 octets, aligned on 8, carried intact in the
    /// stream's byte order.
    pub fn write_long_double(&mut self, v: &LongDouble) {
        self.align(8);
        let bytes = v.to_order(self.encoding.order);
        self.buf.extend_from_slice(&bytes);
    }

    /// Reserves an aligned `unsigned long` to be filled in later with
    /// [`Encoder::patch_u32`]; returns its offset from the output start.
    pub fn reserve_u32(&mut self) -> usize {
        self.align(4);
        let at = self.len();
        self.buf.put_u32(0);
        at
    }

    /// Drops what was written from output offset `at` (a reservation of
    /// [`Encoder::reserve_u32`] nothing followed); `false` if it lies in a
    /// frozen chunk.
    pub(crate) fn truncate_to(&mut self, at: usize) -> bool {
        match at.checked_sub(self.chunks_len) {
            Some(local) if local <= self.buf.len() => {
                self.buf.truncate(local);
                true
            }
            _ => false,
        }
    }

    /// The zero-copy threshold in force.
    pub(crate) fn zero_copy_threshold(&self) -> usize {
        self.zero_copy_threshold
    }

    /// Overwrites the `unsigned long` at output offset `at` (from
    /// [`Encoder::reserve_u32`]) in the stream's byte order.
    ///
    /// # Panics
    /// If `at` does not lie in the part of the output still being written
    /// (that is, an octet sequence was referenced after it was reserved).
    #[inline]
    pub fn patch_u32(&mut self, at: usize, v: u32) {
        let local = at
            .checked_sub(self.chunks_len)
            .expect("patch_u32 offset lies in an already frozen chunk");
        let bytes = match self.encoding.order {
            ByteOrder::Big => v.to_be_bytes(),
            ByteOrder::Little => v.to_le_bytes(),
        };
        self.buf[local..local + 4].copy_from_slice(&bytes);
    }

    /// Writes a length or count that must fit an `unsigned long`.
    #[inline]
    pub fn write_len(&mut self, len: usize) -> Result<()> {
        let len = u32::try_from(len).map_err(|_| CdrError::BoundExceeded {
            length: len as u64,
            bound: u32::MAX as u64,
        })?;
        self.write_u32(len);
        Ok(())
    }

    /// Writes a `char` in the transmission code set for `char` data.
    pub fn write_char(&mut self, c: char) -> Result<()> {
        let byte = codeset::encode_char(self.encoding.codesets.char_data, c)?;
        self.buf.put_u8(byte);
        Ok(())
    }

    /// Writes a `string` in the transmission code set for `char` data:
    /// length (NUL included), the octets, a terminating NUL.
    pub fn write_string(&mut self, s: &str) -> Result<()> {
        let cs = self.encoding.codesets.char_data;
        if s.contains('\0') {
            return Err(CdrError::MalformedString("embedded NUL"));
        }
        match cs {
            CodeSetId::UTF_8 => {
                self.write_len(s.len() + 1)?;
                self.buf.extend_from_slice(s.as_bytes());
            }
            CodeSetId::ISO_8859_1 => {
                let n = s.chars().count();
                self.write_len(n + 1)?;
                for c in s.chars() {
                    self.buf.put_u8(codeset::encode_char(cs, c)?);
                }
            }
            other => return Err(CdrError::UnsupportedCodeSet(other.0)),
        }
        self.buf.put_u8(0);
        Ok(())
    }

    /// Writes a `string` with a bound: the string's length in characters
    /// must not exceed `bound`.
    pub fn write_bounded_string(&mut self, s: &str, bound: u32) -> Result<()> {
        let n = s.chars().count() as u64;
        if n > bound as u64 {
            return Err(CdrError::BoundExceeded {
                length: n,
                bound: bound as u64,
            });
        }
        self.write_string(s)
    }

    /// Writes a `wchar` by the rules of the GIOP version in force: not at
    /// all in 1.0, two aligned octets in 1.1, a length octet and the code
    /// units (big-endian, no byte-order mark) in 1.2.
    pub fn write_wchar(&mut self, c: char) -> Result<()> {
        self.check_wchar_allowed()?;
        let mut units = [0u16; 2];
        let units = self.wchar_units(c, &mut units)?;
        match self.encoding.version {
            v if v <= Version::V1_0 => Err(CdrError::WcharInGiop10),
            Version::V1_1 => {
                if units.len() != 1 {
                    return Err(CdrError::BadCharacter {
                        codeset: self.encoding.codesets.wchar_data.0,
                    });
                }
                self.write_u16(units[0]);
                Ok(())
            }
            _ => {
                // A character that reads as a byte-order mark is sent after
                // an explicit one, so the receiver keeps it as data.
                let bom = units[0] == 0xfeff || units[0] == 0xfffe;
                self.buf.put_u8(((units.len() + bom as usize) * 2) as u8);
                if bom {
                    self.buf.put_u16(0xfeff);
                }
                for u in units {
                    self.buf.put_u16(*u);
                }
                Ok(())
            }
        }
    }

    /// GIOP 1.0 cannot carry wchar data at all; in later versions a
    /// transmission code set for it must have been negotiated.
    fn check_wchar_allowed(&self) -> Result<()> {
        if self.encoding.version <= Version::V1_0 {
            return Err(CdrError::WcharInGiop10);
        }
        if self.encoding.codesets.wchar_data == CodeSetId::NONE {
            return Err(CdrError::NoWcharCodeSet);
        }
        Ok(())
    }

    fn wchar_units<'a>(&self, c: char, out: &'a mut [u16; 2]) -> Result<&'a [u16]> {
        match self.encoding.codesets.wchar_data {
            CodeSetId::UTF_16 => Ok(c.encode_utf16(out)),
            CodeSetId::UCS_2 => {
                let units = c.encode_utf16(out);
                if units.len() != 1 {
                    return Err(CdrError::BadCharacter {
                        codeset: CodeSetId::UCS_2.0,
                    });
                }
                Ok(units)
            }
            other => Err(CdrError::UnsupportedCodeSet(other.0)),
        }
    }

    /// Writes a `wstring` by the rules of the GIOP version in force: in 1.1
    /// a count of 2-octet code units including a terminating NUL unit; in
    /// 1.2 a count of octets, big-endian UTF-16 with no terminator.
    pub fn write_wstring(&mut self, s: &str) -> Result<()> {
        self.check_wchar_allowed()?;
        if s.contains('\0') {
            return Err(CdrError::MalformedString("embedded NUL"));
        }
        let cs = self.encoding.codesets.wchar_data;
        if cs != CodeSetId::UTF_16 && cs != CodeSetId::UCS_2 {
            return Err(CdrError::UnsupportedCodeSet(cs.0));
        }
        if cs == CodeSetId::UCS_2 && s.chars().any(|c| c as u32 > 0xffff) {
            return Err(CdrError::BadCharacter { codeset: cs.0 });
        }
        let units = s.encode_utf16().count();
        match self.encoding.version {
            v if v <= Version::V1_0 => Err(CdrError::WcharInGiop10),
            Version::V1_1 => {
                self.write_len(units + 1)?;
                for u in s.encode_utf16() {
                    self.write_u16(u);
                }
                self.write_u16(0);
                Ok(())
            }
            _ => {
                // A string that starts with what reads as a byte-order mark
                // is sent after an explicit one, so the receiver keeps it.
                let bom = matches!(s.encode_utf16().next(), Some(0xfeff | 0xfffe));
                self.write_len((units + bom as usize) * 2)?;
                if bom {
                    self.buf.put_u16(0xfeff);
                }
                for u in s.encode_utf16() {
                    self.buf.put_u16(u);
                }
                Ok(())
            }
        }
    }

    /// Writes a `fixed` value: its BCD octets (the digit count and scale
    /// travel in the TypeCode, not the value).
    pub fn write_fixed(&mut self, v: &Fixed) {
        self.buf.extend_from_slice(&v.to_bcd());
    }

    /// Writes a `sequence<octet>` from a slice, copying it.
    #[inline]
    pub fn write_octet_seq(&mut self, bytes: &[u8]) -> Result<()> {
        self.write_len(bytes.len())?;
        self.buf.extend_from_slice(bytes);
        Ok(())
    }

    /// Writes a `sequence<octet>` held in a reference-counted buffer. A
    /// buffer at least as long as the zero-copy threshold is referenced
    /// rather than copied (outside encapsulations).
    pub fn write_octet_seq_bytes(&mut self, bytes: &Bytes) -> Result<()> {
        self.write_len(bytes.len())?;
        self.write_bytes(bytes);
        Ok(())
    }

    /// Appends raw octets held in a reference-counted buffer, referencing
    /// rather than copying them when they are long enough.
    pub fn write_bytes(&mut self, bytes: &Bytes) {
        if bytes.len() >= self.zero_copy_threshold && self.encapsulation_depth == 0 {
            let head = self.buf.split().freeze();
            self.chunks_len += head.len();
            if !head.is_empty() {
                self.chunks.push(head);
            }
            self.chunks_len += bytes.len();
            self.chunks.push(bytes.clone());
        } else {
            self.buf.extend_from_slice(bytes);
        }
    }

    /// Writes the elements of a sequence or array of a primitive type in one
    /// bulk copy (native order) or one byte-swapping pass (foreign order),
    /// without a length.
    pub fn write_prim_slice<T: Primitive>(&mut self, values: &[T]) {
        if values.is_empty() {
            return;
        }
        self.align(T::ALIGN);
        if self.encoding.order.is_native() {
            self.buf.extend_from_slice(bytemuck::cast_slice(values));
        } else {
            self.buf.reserve(std::mem::size_of_val(values));
            for v in values {
                self.buf
                    .extend_from_slice(bytemuck::bytes_of(&v.swap_bytes()));
            }
        }
    }

    /// Writes a `sequence` of a primitive type: length, then the elements in
    /// bulk.
    pub fn write_prim_seq<T: Primitive>(&mut self, values: &[T]) -> Result<()> {
        self.write_len(values.len())?;
        self.write_prim_slice(values);
        Ok(())
    }

    /// Writes an encapsulation: a length, then a byte-order octet and what
    /// `body` writes, aligned relative to the encapsulation's own start.
    /// The encapsulation uses this encoder's byte order.
    pub fn write_encapsulation<F>(&mut self, body: F) -> Result<()>
    where
        F: FnOnce(&mut Encoder) -> Result<()>,
    {
        let len_at = self.reserve_u32();
        let saved_origin = self.origin;
        self.origin = self.len();
        self.encapsulation_depth += 1;
        self.buf.put_u8(self.encoding.order.flag());
        let result = body(self);
        self.encapsulation_depth -= 1;
        let body_len = self.len() - self.origin;
        self.origin = saved_origin;
        result?;
        let body_len = u32::try_from(body_len).map_err(|_| CdrError::BoundExceeded {
            length: body_len as u64,
            bound: u32::MAX as u64,
        })?;
        self.patch_u32(len_at, body_len);
        Ok(())
    }

    /// The output as one contiguous buffer (copying only if octet sequences
    /// were referenced).
    pub fn into_bytes(self) -> Bytes {
        if self.chunks.is_empty() {
            return self.buf.freeze();
        }
        let mut all = BytesMut::with_capacity(self.len());
        for c in &self.chunks {
            all.extend_from_slice(c);
        }
        all.extend_from_slice(&self.buf);
        all.freeze()
    }

    /// Empties the encoder for a new stream in `encoding`, keeping the
    /// capacity of its buffer (a sender that writes message after message
    /// into one encoder allocates nothing per message). Octet sequences
    /// referenced are released; the zero-copy threshold is kept.
    #[inline]
    pub fn restart(&mut self, encoding: Encoding) {
        if !self.chunks.is_empty() {
            self.chunks.clear();
            self.chunks_len = 0;
        }
        self.buf.clear();
        self.origin = 0;
        self.encoding = encoding;
        self.encapsulation_depth = 0;
        if self.values.is_some() {
            self.values = None;
        }
    }

    /// The buffer, emptied, leaving the encoder with none (for a writer
    /// that hands it to a new encoder).
    pub fn take_buffer(&mut self) -> BytesMut {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        self.chunks.clear();
        self.chunks_len = 0;
        self.origin = 0;
        buf
    }

    /// The output as a chain of buffers to gather into one write.
    pub fn into_chunks(mut self) -> Vec<Bytes> {
        if !self.buf.is_empty() {
            self.chunks.push(self.buf.freeze());
        }
        self.chunks
    }

    /// The output written so far into the current (not yet frozen) buffer,
    /// for callers that know no octet sequence was referenced.
    #[inline]
    pub fn as_contiguous(&self) -> Option<&[u8]> {
        if self.chunks.is_empty() {
            Some(&self.buf)
        } else {
            None
        }
    }
}
