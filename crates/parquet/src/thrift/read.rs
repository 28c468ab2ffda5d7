//! The compact-protocol decoder: borrowing, bounded, skipping what it does not know.

use super::{MAX_DEPTH, ValueType};
use quiver_arrow::{Error, Result};

/// A field header inside a struct: its id and type (and, for `bool`, its value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The field id, as in the IDL.
    pub id: i16,
    /// The wire type of the field's value.
    pub ty: ValueType,
    /// For a `bool` field, its value (carried by the type code); `false` otherwise.
    pub bool_value: bool,
}

/// A value the decoder can read as a collection element or a field: the primitive types,
/// `&[u8]` (binary), `&str` (string) and every Parquet struct and enum.
pub trait ThriftRead<'a>: Sized {
    /// The wire type this value is written as.
    const TYPE: ValueType;
    /// Reads one value (a `bool` as a collection element: one byte).
    fn read(r: &mut CompactReader<'a>) -> Result<Self>;

    /// Steps over one value, failing exactly when [`Self::read`] would fail there (what
    /// [`crate::thrift::ThriftList`] and [`crate::thrift::Encoded`] do to check what they
    /// keep as bytes). Types override it when checking is cheaper than building the value.
    #[inline]
    fn check(r: &mut CompactReader<'a>) -> Result<()> {
        Self::read(r).map(drop)
    }

    /// Steps over `n` values of a list, as many calls of [`Self::check`] (errors name the
    /// element).
    #[inline]
    fn check_elements(r: &mut CompactReader<'a>, n: usize) -> Result<()> {
        for i in 0..n {
            if let Err(e) = Self::check(r) {
                return Err(e.context(format!("element {i}")));
            }
        }
        Ok(())
    }
}

/// A compact-protocol decoder over borrowed bytes. Binary and string values are slices of the
/// input. Positions in errors are byte offsets into the slice it was made from.
#[derive(Debug, Clone)]
pub struct CompactReader<'a> {
    pub(super) buf: &'a [u8],
    pub(super) pos: usize,
    pub(super) depth: u32,
    eager: bool,
}

impl<'a> CompactReader<'a> {
    /// A decoder at the start of `buf`.
    pub fn new(buf: &'a [u8]) -> Self {
        Self::at(buf, 0)
    }

    /// A decoder at byte `pos` of `buf` (clamped to its end), so that error offsets count from
    /// the start of `buf`.
    pub fn at(buf: &'a [u8], pos: usize) -> Self {
        Self {
            buf,
            pos: pos.min(buf.len()),
            depth: 0,
            eager: false,
        }
    }

    /// Asks the decoders of structs that can defer work (a row group's column chunks) to do
    /// it now instead: for when everything will be needed anyway.
    pub fn eager(mut self) -> Self {
        self.eager = true;
        self
    }

    /// Whether deferrable work should be done now (see [`Self::eager`]).
    pub fn is_eager(&self) -> bool {
        self.eager
    }

    /// The offset of the next byte to read.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The bytes being decoded (all of them, not only what is left).
    pub fn buffer(&self) -> &'a [u8] {
        self.buf
    }

    /// How deeply structs and collections are nested at the position.
    pub(crate) fn depth(&self) -> u32 {
        self.depth
    }

    /// Moves the position forward to `pos` (within the input), for a decoder that stepped
    /// over a value by itself and checked it as the reader would have.
    pub(crate) fn advance_to(&mut self, pos: usize) {
        debug_assert!(pos >= self.pos && pos <= self.buf.len());
        self.pos = pos.clamp(self.pos, self.buf.len());
    }

    /// How many bytes are left.
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    #[cold]
    #[inline(never)]
    pub(super) fn eof(&self, what: &str) -> Error {
        Error::oos(format!(
            "thrift: unexpected end of input reading {what} at byte {} of {}",
            self.pos,
            self.buf.len()
        ))
    }

    /// Reads one byte.
    #[inline]
    pub fn byte(&mut self) -> Result<u8> {
        let b = *self.buf.get(self.pos).ok_or_else(|| self.eof("a byte"))?;
        self.pos += 1;
        Ok(b)
    }

    /// Reads an unsigned varint (ULEB128) of at most 10 bytes that fits in 64 bits.
    #[inline]
    pub fn varint(&mut self) -> Result<u64> {
        match self.buf.get(self.pos) {
            Some(&b) if b < 0x80 => {
                self.pos += 1;
                Ok(u64::from(b))
            }
            _ => self.varint_long(),
        }
    }

    /// A varint of two or more bytes. When 8 bytes are left and it ends within them (every
    /// varint up to 2^56, so every offset and size in a footer), it is decoded from one 8-byte
    /// load without a loop: the first byte without the continuation bit ends it, and the
    /// 7-bit groups are packed together by three masked shifts.
    #[inline]
    fn varint_long(&mut self) -> Result<u64> {
        if let Some(word) = self.buf.get(self.pos..self.pos + 8) {
            let x = u64::from_le_bytes(word.try_into().expect("8 bytes")); // ok: sliced 8 bytes
            if let Some((value, len)) = varint_in_word(x) {
                self.pos += len;
                return Ok(value);
            }
        }
        self.varint_bytes()
    }

    /// A varint decoded byte by byte (near the end of the input, or longer than 8 bytes).
    #[inline(never)]
    fn varint_bytes(&mut self) -> Result<u64> {
        let start = self.pos;
        let mut value = 0u64;
        for i in 0..10 {
            let b = *self.buf.get(self.pos).ok_or_else(|| self.eof("a varint"))?;
            self.pos += 1;
            if i == 9 && b > 1 {
                return Err(Error::oos(format!(
                    "thrift: varint at byte {start} overflows 64 bits"
                )));
            }
            value |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        unreachable!("the 10th byte of a varint is 0 or 1") // ok: checked above
    }

    #[inline]
    fn varint_max(&mut self, max: u64, what: &str) -> Result<u64> {
        let start = self.pos;
        let v = self.varint()?;
        if v > max {
            return Err(too_large(what, start, v));
        }
        Ok(v)
    }

    /// Reads a zigzag `i16`.
    #[inline]
    pub fn i16(&mut self) -> Result<i16> {
        let v = self.varint_max(u64::from(u16::MAX), "i16")? as u16;
        Ok(((v >> 1) as i16) ^ -((v & 1) as i16))
    }

    /// Reads a zigzag `i32`.
    #[inline]
    pub fn i32(&mut self) -> Result<i32> {
        let v = self.varint_max(u64::from(u32::MAX), "i32")? as u32;
        Ok(((v >> 1) as i32) ^ -((v & 1) as i32))
    }

    /// Reads a zigzag `i64`.
    #[inline]
    pub fn i64(&mut self) -> Result<i64> {
        let v = self.varint()?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    /// Steps over `n` `i32` varints (the check of a list of `i32`s or of `i32` enums): a run
    /// of one-byte varints is stepped over at once.
    #[inline]
    pub fn skip_i32s(&mut self, n: usize) -> Result<()> {
        if let Some(run) = self.buf.get(self.pos..self.pos.saturating_add(n))
            && run.len() == n
            && run.iter().all(|&b| b < 0x80)
        {
            self.pos += n;
            return Ok(());
        }
        for i in 0..n {
            self.i32().map_err(|e| e.context(format!("element {i}")))?;
        }
        Ok(())
    }

    /// The struct at the position when it is three `i32` fields with ids 1, 2, 3 in the short
    /// form, each a one-byte varint, and nothing else (`15 a 15 b 15 c 00`, as writers put
    /// small structs such as `PageEncodingStats`): the three values, and the position moved
    /// past it. `None` (nothing read) otherwise; reading it field by field gives the same.
    #[inline]
    pub fn small_i32_triple(&mut self) -> Option<[i32; 3]> {
        let b: &[u8; 7] = self.buf.get(self.pos..self.pos + 7)?.try_into().ok()?;
        let shape = b[0] == 0x15 && b[2] == 0x15 && b[4] == 0x15 && b[6] == 0;
        if !shape || (b[1] | b[3] | b[5]) >= 0x80 || self.depth >= MAX_DEPTH {
            return None;
        }
        self.pos += 7;
        let zigzag = |v: u8| i32::from(v >> 1) ^ -i32::from(v & 1);
        Some([zigzag(b[1]), zigzag(b[3]), zigzag(b[5])])
    }

    /// Reads an `i8` (one byte).
    pub fn i8(&mut self) -> Result<i8> {
        Ok(self.byte()? as i8)
    }

    /// Reads a `double` (8 bytes little-endian).
    pub fn double(&mut self) -> Result<f64> {
        let bytes = self.take(8, "a double")?;
        Ok(f64::from_le_bytes(bytes.try_into().expect("8 bytes"))) // ok: take returned 8 bytes
    }

    /// Reads a `bool` collection element: one byte, 1 is true, 0 or 2 is false.
    pub fn bool_element(&mut self) -> Result<bool> {
        let start = self.pos;
        match self.byte()? {
            1 => Ok(true),
            0 | 2 => Ok(false),
            b => Err(Error::oos(format!(
                "thrift: bool at byte {start} is {b}, not 0, 1 or 2"
            ))),
        }
    }

    #[inline]
    pub(super) fn take(&mut self, len: usize, what: &str) -> Result<&'a [u8]> {
        if len > self.remaining() {
            return Err(self.past_end(what, len));
        }
        let s = &self.buf[self.pos..self.pos + len];
        self.pos += len;
        Ok(s)
    }

    #[cold]
    #[inline(never)]
    fn past_end(&self, what: &str, len: usize) -> Error {
        Error::oos(format!(
            "thrift: {what} of {len} bytes at byte {} runs past the end ({} bytes left)",
            self.pos,
            self.remaining()
        ))
    }

    /// Reads a `binary`: a slice of the input.
    #[inline]
    pub fn binary(&mut self) -> Result<&'a [u8]> {
        let len = self.varint()?;
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        self.take(len, "binary")
    }

    /// Reads a `string`: a slice of the input, which must be UTF-8.
    pub fn string(&mut self) -> Result<&'a str> {
        let start = self.pos;
        let bytes = self.binary()?;
        std::str::from_utf8(bytes)
            .map_err(|e| Error::oos(format!("thrift: string at byte {start} is not UTF-8: {e}")))
    }

    #[inline]
    pub(super) fn enter(&mut self) -> Result<()> {
        if self.depth >= MAX_DEPTH {
            return Err(Error::oos(format!(
                "thrift: nesting deeper than {MAX_DEPTH} at byte {}",
                self.pos
            )));
        }
        self.depth += 1;
        Ok(())
    }

    /// Reads a struct named `name` (for errors), calling `f` for each field header; `f` reads
    /// the field's value (or skips it with [`Self::skip_field`]). Errors from `f` get the
    /// struct name, field id and byte offset as context.
    #[inline]
    pub fn read_struct(
        &mut self,
        name: &str,
        mut f: impl FnMut(&mut Self, Field) -> Result<()>,
    ) -> Result<()> {
        self.enter()?;
        let mut last = 0i16;
        loop {
            let start = self.pos;
            let field = match self.field_header(&mut last) {
                Ok(Some(field)) => field,
                Ok(None) => break,
                Err(e) => return Err(e.context(name)),
            };
            if let Err(e) = f(self, field) {
                return Err(field_error(e, name, field.id, start));
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// Reads a field header (`None` at the struct's stop byte); `last` is the previous id.
    /// The stop byte and the common short form (id delta 1..=15, a valid type) are decoded
    /// inline; the rest (long form, errors) out of line.
    #[inline(always)]
    fn field_header(&mut self, last: &mut i16) -> Result<Option<Field>> {
        if let Some(&b) = self.buf.get(self.pos) {
            if b == 0 {
                self.pos += 1;
                return Ok(None);
            }
            let (delta, code) = (b >> 4, b & 0x0f);
            if let (true, Some(ty), Some(id)) = (
                delta != 0,
                FIELD_TYPES[code as usize],
                last.checked_add(i16::from(delta)),
            ) {
                self.pos += 1;
                *last = id;
                return Ok(Some(Field {
                    id,
                    ty,
                    bool_value: code == 1,
                }));
            }
        }
        self.field_header_slow(last)
    }

    #[inline(never)]
    fn field_header_slow(&mut self, last: &mut i16) -> Result<Option<Field>> {
        let start = self.pos;
        let b = self.byte()?;
        let code = b & 0x0f;
        if code == 0 {
            // STOP is the byte 0; Apache Thrift's own readers take any byte of type 0 as it (a
            // nonzero id delta beside it is ignored), and so do readers built on them.
            return Ok(None);
        }
        let ty = ValueType::from_code(code).ok_or_else(|| {
            Error::oos(format!("thrift: invalid field type {code} at byte {start}"))
        })?;
        let delta = b >> 4;
        let id = if delta == 0 {
            self.i16()?
        } else {
            last.checked_add(i16::from(delta)).ok_or_else(|| {
                Error::oos(format!("thrift: field id overflows i16 at byte {start}"))
            })?
        };
        *last = id;
        Ok(Some(Field {
            id,
            ty,
            bool_value: code == 1,
        }))
    }

    /// Reads a list or set header: element type and count, the count checked against the
    /// bytes left (each element takes at least [`ValueType::min_size`] bytes).
    ///
    /// An empty list may carry any element type code, 0 included (fastparquet writes an empty
    /// list as the byte `0x00`; Thrift's own compact readers accept it): it is reported as an
    /// empty list of `i8`, and typed readers do not check an empty list's element type.
    #[inline]
    pub fn list_header(&mut self) -> Result<(ValueType, usize)> {
        let start = self.pos;
        let b = self.byte()?;
        let code = b & 0x0f;
        let n = match b >> 4 {
            15 => self.varint()?,
            n => u64::from(n),
        };
        let Some(ty) = ValueType::from_code(code) else {
            if n == 0 {
                return Ok((ValueType::I8, 0));
            }
            return Err(Error::oos(format!(
                "thrift: invalid list element type {code} at byte {start}"
            )));
        };
        let room = (self.remaining() / ty.min_size()) as u64;
        if n > room {
            return Err(self.list_too_long(start, n, ty));
        }
        Ok((ty, n as usize))
    }

    /// Checks that a list read at `start` holds `expected` elements (any type if it is empty).
    pub fn check_list_type(
        start: usize,
        (ty, n): (ValueType, usize),
        expected: ValueType,
    ) -> Result<()> {
        if ty != expected && n != 0 {
            return Err(Error::oos(format!(
                "thrift: list at byte {start} holds {}, expected {}",
                ty.name(),
                expected.name()
            )));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn list_too_long(&self, start: usize, n: u64, ty: ValueType) -> Error {
        Error::oos(format!(
            "thrift: list at byte {start} declares {n} {} elements but only {} bytes are left",
            ty.name(),
            self.remaining()
        ))
    }

    /// Reads a `list<T>` (or `set<T>`) whose values are `T`, after checking the element type.
    pub fn list<T: ThriftRead<'a>>(&mut self) -> Result<Vec<T>> {
        let start = self.pos;
        let (ty, n) = self.list_header()?;
        Self::check_list_type(start, (ty, n), T::TYPE)?;
        self.enter()?;
        // Reserve for what the input can hold, but not more than a few thousand up front:
        // elements may be far larger in memory than their (minimum) bytes on the wire.
        let mut out = Vec::new();
        out.try_reserve_exact(n.min(4096))
            .map_err(|_| Error::oos(format!("thrift: cannot allocate a list of {n}")))?;
        for i in 0..n {
            out.push(T::read(self).map_err(|e| e.context(format!("element {i}")))?);
        }
        self.depth -= 1;
        Ok(out)
    }

    /// Calls `f` for each element of a `list<T>` without collecting them; `f` gets the
    /// element's index and must read (or skip) exactly the element.
    pub fn for_each_element(
        &mut self,
        expected: ValueType,
        mut f: impl FnMut(&mut Self, usize) -> Result<()>,
    ) -> Result<usize> {
        let start = self.pos;
        let (ty, n) = self.list_header()?;
        Self::check_list_type(start, (ty, n), expected)?;
        self.enter()?;
        for i in 0..n {
            f(self, i).map_err(|e| e.context(format!("element {i}")))?;
        }
        self.depth -= 1;
        Ok(n)
    }

    /// Reads the value of `field` as a `T`; a field of another type is skipped and gives
    /// `None` (as the reference implementations do: a required field then goes missing).
    #[inline]
    pub fn value<T: ThriftRead<'a>>(&mut self, field: Field) -> Result<Option<T>> {
        if field.ty == T::TYPE {
            T::read(self).map(Some)
        } else {
            self.skip_field(field).map(|()| None)
        }
    }

    /// Reads the value of `field` as a `list<T>` (or `set<T>`); a field of another type is
    /// skipped and gives `None`. Elements of another type than `T` are an error.
    pub fn list_field<T: ThriftRead<'a>>(&mut self, field: Field) -> Result<Option<Vec<T>>> {
        match field.ty {
            ValueType::List | ValueType::Set => self.list().map(Some),
            _ => self.skip_field(field).map(|()| None),
        }
    }

    /// The value of a `bool` field (carried by its header); a field of another type is
    /// skipped and gives `None`.
    #[inline]
    pub fn bool_field(&mut self, field: Field) -> Result<Option<bool>> {
        match field.ty {
            ValueType::Bool => Ok(Some(field.bool_value)),
            _ => self.skip_field(field).map(|()| None),
        }
    }

    /// An error unless `field` has type `ty`.
    pub fn expect(&self, field: Field, ty: ValueType) -> Result<()> {
        if field.ty == ty {
            Ok(())
        } else {
            Err(Error::oos(format!(
                "thrift: field {} has type {}, expected {}",
                field.id,
                field.ty.name(),
                ty.name()
            )))
        }
    }
}

/// The varint that starts at the low byte of `x` (8 bytes read little-endian) and its length
/// in bytes, when it ends within those 8 bytes; `None` when all 8 have the continuation bit.
#[inline(always)]
pub(crate) fn varint_in_word(x: u64) -> Option<(u64, usize)> {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let ends = !x & HIGH;
    if ends == 0 {
        return None;
    }
    // The last byte's high bit is bit 8·len − 1.
    let bits = ends.trailing_zeros() + 1;
    let len = (bits / 8) as usize;
    // Keep the varint's bytes (all 8 when it is 8 long), then its 7-bit groups only.
    let keep = u64::MAX >> (64 - bits);
    let x = x & keep & !HIGH;
    // Pack the groups: pairs into 14 bits, then quads into 28, then all into 56.
    let x = (x & 0x007f_007f_007f_007f) | ((x & 0x7f00_7f00_7f00_7f00) >> 1);
    let x = (x & 0x0000_3fff_0000_3fff) | ((x & 0x3fff_0000_3fff_0000) >> 2);
    let x = (x & 0x0000_0000_0fff_ffff) | ((x & 0x0fff_ffff_0000_0000) >> 4);
    Some((x, len))
}

/// The type of each 4-bit field type code (`None`: invalid, or 0, the stop byte).
const FIELD_TYPES: [Option<ValueType>; 16] = {
    let mut t = [None; 16];
    let mut code = 1;
    while code < 13 {
        t[code] = ValueType::from_code(code as u8);
        code += 1;
    }
    t
};

#[cold]
#[inline(never)]
fn too_large(what: &str, start: usize, v: u64) -> Error {
    Error::oos(format!(
        "thrift: {what} varint at byte {start} is {v}, too large for its type"
    ))
}

/// `e` with the struct name, field id and byte offset as context (out of line: errors are rare).
#[cold]
#[inline(never)]
fn field_error(e: Error, name: &str, id: i16, start: usize) -> Error {
    e.context(format!("{name} field {id} at byte {start}"))
}

impl<'a, T: ThriftRead<'a>> ThriftRead<'a> for Box<T> {
    const TYPE: ValueType = T::TYPE;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        T::read(r).map(Box::new)
    }
}

impl<'a> ThriftRead<'a> for bool {
    const TYPE: ValueType = ValueType::Bool;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        r.bool_element()
    }
}

impl<'a> ThriftRead<'a> for i8 {
    const TYPE: ValueType = ValueType::I8;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        r.i8()
    }
}

impl<'a> ThriftRead<'a> for i16 {
    const TYPE: ValueType = ValueType::I16;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        r.i16()
    }
}

impl<'a> ThriftRead<'a> for i32 {
    const TYPE: ValueType = ValueType::I32;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        r.i32()
    }
}

impl<'a> ThriftRead<'a> for i64 {
    const TYPE: ValueType = ValueType::I64;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        r.i64()
    }
}

impl<'a> ThriftRead<'a> for f64 {
    const TYPE: ValueType = ValueType::Double;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        r.double()
    }
}

impl<'a> ThriftRead<'a> for &'a [u8] {
    const TYPE: ValueType = ValueType::Binary;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        r.binary()
    }
}

impl<'a> ThriftRead<'a> for &'a str {
    const TYPE: ValueType = ValueType::Binary;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        r.string()
    }
}
