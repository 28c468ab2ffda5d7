//! [`ThriftList`]: a `list<T>` kept as its encoded bytes and decoded on iteration, so that
//! decoding a struct with small lists (a column chunk's encodings, path and page encoding
//! statistics) allocates nothing.

use super::{CompactReader, CompactWriter, Field, ThriftRead, ThriftWrite, ValueType};
use quiver_arrow::{Error, Result};
use std::fmt;
use std::marker::PhantomData;

/// A `list<T>` (or `set<T>`) as its encoded elements (without the list header, borrowed from
/// the decoded bytes) and their count. Every element was decoded once when the list was
/// read (by [`ThriftRead::check`], which fails exactly when reading would), so iterating
/// cannot fail. Equality compares the elements, not their bytes.
pub struct ThriftList<'a, T> {
    bytes: &'a [u8],
    len: usize,
    elements: PhantomData<fn() -> T>,
}

impl<'a, T: ThriftRead<'a>> ThriftList<'a, T> {
    /// The encoded elements of `values` (what [`Self::from_encoded`] takes), for building
    /// metadata to write.
    pub fn encode(values: &[T]) -> Vec<u8>
    where
        T: ThriftWrite,
    {
        let mut w = CompactWriter::new();
        for v in values {
            v.write(&mut w);
        }
        w.into_bytes()
    }

    /// The list of the `len` elements encoded in `bytes` (without a list header), each decoded
    /// once to check it; bytes left over are an error.
    pub fn from_encoded(bytes: &'a [u8], len: usize) -> Result<Self> {
        let mut r = CompactReader::new(bytes);
        let list = Self::elements(&mut r, len)?;
        if r.remaining() > 0 {
            return Err(Error::oos(format!(
                "thrift: {} bytes after the {len} list elements",
                r.remaining()
            )));
        }
        Ok(list)
    }

    /// The list of the `len` elements encoded in `bytes` (without a list header), which the
    /// caller has checked as [`ThriftRead::check`] would (a decoder's fast path).
    pub(crate) fn pre_checked(bytes: &'a [u8], len: usize) -> Self {
        Self {
            bytes,
            len,
            elements: PhantomData,
        }
    }

    /// Reads a list (header and elements) of `T`, decoding each element once to check it.
    pub fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let start = r.position();
        let (ty, n) = r.list_header()?;
        CompactReader::check_list_type(start, (ty, n), T::TYPE)?;
        Self::elements(r, n)
    }

    /// Reads the value of `field` as a list of `T`; a field of another type is skipped and
    /// gives `None` (as [`CompactReader::list_field`]).
    #[inline]
    pub fn field(r: &mut CompactReader<'a>, field: Field) -> Result<Option<Self>> {
        match field.ty {
            ValueType::List | ValueType::Set => Self::read(r).map(Some),
            _ => r.skip_field(field).map(|()| None),
        }
    }

    #[inline]
    fn elements(r: &mut CompactReader<'a>, n: usize) -> Result<Self> {
        r.enter()?;
        let first = r.position();
        T::check_elements(r, n)?;
        r.depth -= 1;
        Ok(Self {
            bytes: &r.buffer()[first..r.position()],
            len: n,
            elements: PhantomData,
        })
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The elements, decoded one by one.
    pub fn iter(&self) -> Iter<'a, T> {
        Iter {
            r: CompactReader::new(self.bytes),
            left: self.len,
            elements: PhantomData,
        }
    }

    /// The elements, collected.
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().collect()
    }
}

impl<'a> ThriftList<'a, &'a str> {
    /// The strings joined by `sep` (as a dotted column path).
    pub fn join(&self, sep: &str) -> String {
        self.iter().collect::<Vec<_>>().join(sep)
    }
}

impl<'a, T> Default for ThriftList<'a, T> {
    /// The empty list.
    fn default() -> Self {
        Self {
            bytes: &[],
            len: 0,
            elements: PhantomData,
        }
    }
}

/// The elements of a [`ThriftList`], decoded one by one.
pub struct Iter<'a, T> {
    r: CompactReader<'a>,
    left: usize,
    elements: PhantomData<fn() -> T>,
}

impl<'a, T: ThriftRead<'a>> Iterator for Iter<'a, T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        // Every element was decoded when the list was read: an error cannot happen; should
        // it, the iteration ends rather than panicking.
        match T::read(&mut self.r) {
            Ok(v) => Some(v),
            Err(_) => {
                self.left = 0;
                None
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left))
    }
}

impl<'a, T: ThriftRead<'a>> IntoIterator for &ThriftList<'a, T> {
    type Item = T;
    type IntoIter = Iter<'a, T>;
    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<T> Clone for ThriftList<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ThriftList<'_, T> {}

impl<'a, T: ThriftRead<'a> + fmt::Debug> fmt::Debug for ThriftList<'a, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T: ThriftRead<'a> + PartialEq> PartialEq for ThriftList<'a, T> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl<'a, T: ThriftRead<'a>> ThriftRead<'a> for ThriftList<'a, T> {
    const TYPE: ValueType = ValueType::List;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        Self::read(r)
    }
}

impl<'a, T: ThriftRead<'a>> ThriftWrite for ThriftList<'a, T> {
    const TYPE: ValueType = ValueType::List;
    fn write(&self, w: &mut CompactWriter) {
        w.list_header(T::TYPE, self.len);
        w.raw(self.bytes);
    }
}

/// A list of `values` for tests, its bytes leaked (so that it lives as long as test
/// metadata built from `'static` data).
#[cfg(test)]
pub(crate) fn leaked<T: ThriftRead<'static> + ThriftWrite>(values: &[T]) -> ThriftList<'static, T> {
    let bytes: &'static [u8] = Box::leak(ThriftList::encode(values).into_boxed_slice());
    ThriftList::from_encoded(bytes, values.len()).expect("encoded values decode") // ok: test helper
}
