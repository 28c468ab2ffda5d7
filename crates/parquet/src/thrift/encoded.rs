//! [`Encoded`]: a struct kept as its encoded bytes and decoded when asked for, so that
//! decoding its parent stays small and allocates nothing for it (a column chunk's
//! statistics).

use super::{CompactReader, CompactWriter, ThriftRead, ThriftWrite, ValueType};
use quiver_arrow::{Error, Result};
use std::fmt;
use std::marker::PhantomData;

/// A value of type `T` as its encoded bytes (borrowed from the decoded bytes). It was decoded
/// once when read, so [`Self::get`] cannot fail. Equality compares the decoded values.
pub struct Encoded<'a, T> {
    bytes: &'a [u8],
    value: PhantomData<fn() -> T>,
}

impl<'a, T: ThriftRead<'a>> Encoded<'a, T> {
    /// The encoding of `value` (what [`Self::from_encoded`] takes), for building metadata.
    pub fn encode(value: &T) -> Vec<u8>
    where
        T: ThriftWrite,
    {
        let mut w = CompactWriter::new();
        value.write(&mut w);
        w.into_bytes()
    }

    /// The value encoded in `bytes`, decoded once to check it; bytes left over are an error.
    pub fn from_encoded(bytes: &'a [u8]) -> Result<Self> {
        let mut r = CompactReader::new(bytes);
        let v = Self::read(&mut r)?;
        if r.remaining() > 0 {
            return Err(Error::oos(format!(
                "thrift: {} bytes after the value",
                r.remaining()
            )));
        }
        Ok(v)
    }

    /// The value encoded in `bytes`, which the caller has checked as [`ThriftRead::check`]
    /// would, to its last byte (a decoder's fast path).
    pub(crate) fn pre_checked(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            value: PhantomData,
        }
    }

    /// The value, decoded.
    pub fn get(&self) -> T {
        let mut r = CompactReader::new(self.bytes);
        // The value was decoded when it was read: an error cannot happen; should it, the
        // value read so far is not available, so the error's cause is a bug named here.
        match T::read(&mut r) {
            Ok(v) => v,
            Err(e) => unreachable!("a checked thrift value fails to decode: {e}"), // ok: decoded once in `read`
        }
    }

    /// The encoded bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

impl<T> Clone for Encoded<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Encoded<'_, T> {}

impl<'a, T: ThriftRead<'a> + fmt::Debug> fmt::Debug for Encoded<'a, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

impl<'a, T: ThriftRead<'a> + PartialEq> PartialEq for Encoded<'a, T> {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl<'a, T: ThriftRead<'a>> ThriftRead<'a> for Encoded<'a, T> {
    const TYPE: ValueType = T::TYPE;
    #[inline]
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let start = r.position();
        T::check(r)?;
        Ok(Self {
            bytes: &r.buffer()[start..r.position()],
            value: PhantomData,
        })
    }
}

impl<'a, T: ThriftRead<'a>> ThriftWrite for Encoded<'a, T> {
    const TYPE: ValueType = T::TYPE;
    fn write(&self, w: &mut CompactWriter) {
        w.raw(self.bytes);
    }
}

/// `value` for tests, its bytes leaked (so that it lives as long as test metadata built from
/// `'static` data).
#[cfg(test)]
pub(crate) fn leaked_value<T: ThriftRead<'static> + ThriftWrite>(value: &T) -> Encoded<'static, T> {
    let bytes: &'static [u8] = Box::leak(Encoded::encode(value).into_boxed_slice());
    Encoded::from_encoded(bytes).expect("an encoded value decodes") // ok: test helper
}
