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
    /// column chunks costs.
    pub fn skip_struct(&mut self) -> Result<()> {
        self.enter()?;
        loop {
            let start = self.pos;
            let Some(&b) = self.buf.get(start) else {
                return Err(self.eof("a field header"));
            };
            self.pos += 1;
            if b == 0 {
                break;
            }
            if b < 0x10 {
                self.skip_varint()?; // the long form's field id
            }
            match b & 0x0f {
                1 | 2 => {}
                4..=6 => self.skip_varint()?,
                8 => self.skip_binary()?,
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
        }
        self.depth -= 1;
        Ok(())
    }

    /// Skips a `binary`.
    #[inline]
    fn skip_binary(&mut self) -> Result<()> {
        let len = self.varint()?;
        if len <= self.remaining() as u64 {
            self.pos += len as usize;
            Ok(())
        } else {
            self.binary().map(drop) // the error
        }
    }

    /// Skips a varint (at most 10 bytes) without decoding it.
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

    #[inline(never)]
    fn skip_varint_long(&mut self) -> Result<()> {
        let rest = &self.buf[self.pos..];
        for (i, &b) in rest.iter().take(10).enumerate() {
            if b < 0x80 {
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
