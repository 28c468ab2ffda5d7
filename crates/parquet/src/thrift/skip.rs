//! Skipping values the decoder does not want: unknown fields, and the column chunks that
//! indexing a footer steps over. Only types matter here, not field ids, which keeps the loops
//! tight; every size is still checked against the bytes left and nesting is still limited.

use super::ValueType;
use super::read::{CompactReader, Field};
use quiver_arrow::{Error, Result};

impl CompactReader<'_> {
    /// Skips the value of a field (nothing for a `bool` field).
    #[inline]
    pub fn skip_field(&mut self, field: Field) -> Result<()> {
        match field.ty {
            ValueType::Bool => Ok(()),
            ty => self.skip(ty),
        }
    }

    /// Skips one value of type `ty` as it appears in a collection, whatever it contains.
    pub fn skip(&mut self, ty: ValueType) -> Result<()> {
        match ty {
            ValueType::Bool => self.bool_element().map(drop),
            ValueType::I8 => self.byte().map(drop),
            ValueType::I16 | ValueType::I32 | ValueType::I64 => self.skip_varint(),
            ValueType::Double => self.take(8, "a double").map(drop),
            ValueType::Binary => self.skip_binary(),
            ValueType::List | ValueType::Set => self.skip_list(),
            ValueType::Map => self.skip_map(),
            ValueType::Struct => self.skip_struct(),
        }
    }

    /// Skips a struct, whatever its fields. Field ids are not looked at (only the types
    /// matter for skipping), which keeps this loop tight: it is what indexing a footer's
    /// column chunks costs. The position is kept in a local, varints and binaries (most of a
    /// footer) are stepped over inline and the common types tested first.
    pub fn skip_struct(&mut self) -> Result<()> {
        self.enter()?;
        let buf = self.buf;
        let mut pos = self.pos;
        loop {
            let start = pos;
            let Some(&b) = buf.get(pos) else {
                self.pos = pos;
                return Err(self.eof("a field header"));
            };
            pos += 1;
            if b & 0x0f == 0 {
                break; // STOP (type 0), as the field reader takes it
            }
            if b < 0x10 {
                pos = self.varint_end(pos)?; // the long form's field id
            }
            let code = b & 0x0f;
            if (4..=6).contains(&code) {
                pos = self.varint_end(pos)?;
            } else if code == 8 {
                pos = self.binary_end(pos)?;
            } else if code > 2 {
                self.pos = pos;
                match code {
                    12 => self.skip_struct()?,
                    9 | 10 => self.skip_list()?,
                    3 => self.byte().map(drop)?,
                    7 => self.take(8, "a double").map(drop)?,
                    11 => self.skip_map()?,
                    code => {
                        return Err(Error::oos(format!(
                            "thrift: invalid field type {code} at byte {start}"
                        )));
                    }
                }
                pos = self.pos;
            }
        }
        self.pos = pos;
        self.depth -= 1;
        Ok(())
    }

    /// Where the varint at `pos` ends; an error (and the position moved there) when it
    /// is truncated or longer than 10 bytes.
    #[inline(always)]
    fn varint_end(&mut self, pos: usize) -> Result<usize> {
        match self.buf.get(pos) {
            Some(&b) if b < 0x80 => Ok(pos + 1),
            _ => {
                self.pos = pos;
                self.skip_varint_long().map(|()| self.pos)
            }
        }
    }

    /// Where the binary at `pos` ends; an error (and the position moved there) when it
    /// runs past the end.
    #[inline(always)]
    fn binary_end(&mut self, pos: usize) -> Result<usize> {
        if let Some(&len) = self.buf.get(pos)
            && len < 0x80
            && pos + 1 + (len as usize) <= self.buf.len()
        {
            return Ok(pos + 1 + len as usize);
        }
        self.pos = pos;
        self.skip_binary().map(|()| self.pos)
    }

    /// Skips a `binary`.
    #[inline]
    fn skip_binary(&mut self) -> Result<()> {
        let start = self.pos;
        let len = self.varint()?;
        if len <= self.remaining() as u64 {
            self.pos += len as usize;
            Ok(())
        } else {
            self.pos = start;
            self.binary().map(drop) // the error
        }
    }

    /// Skips a varint (at most 10 bytes, fitting in 64 bits as [`Self::varint`] requires)
    /// without decoding it.
    #[inline(always)]
    fn skip_varint(&mut self) -> Result<()> {
        if let Some(&b) = self.buf.get(self.pos)
            && b < 0x80
        {
            self.pos += 1;
            return Ok(());
        }
        self.skip_varint_long()
    }

    #[inline]
    fn skip_varint_long(&mut self) -> Result<()> {
        if let Some(word) = self.buf.get(self.pos..self.pos + 8) {
            let x = u64::from_le_bytes(word.try_into().expect("8 bytes")); // ok: sliced 8 bytes
            let ends = !x & 0x8080_8080_8080_8080;
            if ends != 0 {
                self.pos += (ends.trailing_zeros() / 8) as usize + 1;
                return Ok(());
            }
        }
        self.skip_varint_bytes()
    }

    /// Skips a varint byte by byte (near the end of the input, or longer than 8 bytes).
    #[inline(never)]
    fn skip_varint_bytes(&mut self) -> Result<()> {
        let rest = &self.buf[self.pos..];
        for (i, &b) in rest.iter().take(10).enumerate() {
            // The 10th byte holds the 64th bit only: more overflows (as `varint` says).
            if b < 0x80 && (i < 9 || b <= 1) {
                self.pos += i + 1;
                return Ok(());
            }
        }
        self.varint().map(drop) // the error
    }

    fn skip_list(&mut self) -> Result<()> {
        let (ty, n) = self.list_header()?;
        self.enter()?;
        match ty {
            ValueType::Double => {
                self.take(n * 8, "list of doubles")?;
            }
            ValueType::I8 => {
                self.take(n, "list of i8")?;
            }
            ValueType::I16 | ValueType::I32 | ValueType::I64 => {
                for _ in 0..n {
                    self.skip_varint()?;
                }
            }
            _ => {
                for _ in 0..n {
                    self.skip(ty)?;
                }
            }
        }
        self.depth -= 1;
        Ok(())
    }

    fn skip_map(&mut self) -> Result<()> {
        let start = self.pos;
        let n = self.varint()?;
        if n == 0 {
            return Ok(());
        }
        let b = self.byte()?;
        let invalid =
            |code: u8| Error::oos(format!("thrift: invalid map type {code} at byte {start}"));
        let k = ValueType::from_code(b >> 4).ok_or_else(|| invalid(b >> 4))?;
        let v = ValueType::from_code(b & 0x0f).ok_or_else(|| invalid(b & 0x0f))?;
        let room = (self.remaining() / (k.min_size() + v.min_size())) as u64;
        if n > room {
            return Err(Error::oos(format!(
                "thrift: map at byte {start} declares {n} entries but only {} bytes are left",
                self.remaining()
            )));
        }
        self.enter()?;
        for _ in 0..n {
            self.skip(k)?;
            self.skip(v)?;
        }
        self.depth -= 1;
        Ok(())
    }
}
