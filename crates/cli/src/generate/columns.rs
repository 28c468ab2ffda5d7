//! Column writers: values appended straight into 64-byte aligned buffers (no builders, no
//! per-value allocation).

use super::*;

/// A validity bitmap that materialises on the first null and is then written 64 bits at a
/// time (columns without nulls pay one predictable branch per value).
pub(super) struct Validity {
    pub(super) bytes: MutableBuffer,
    pub(super) word: u64,
    pub(super) len: usize,
    pub(super) nulls: usize,
    pub(super) capacity: usize,
}

impl Validity {
    pub(super) fn with_capacity(capacity: usize) -> Self {
        Validity {
            bytes: MutableBuffer::new(),
            word: 0,
            len: 0,
            nulls: 0,
            capacity,
        }
    }

    #[inline(always)]
    pub(super) fn push(&mut self, valid: bool) {
        if valid && self.nulls == 0 {
            self.len += 1;
        } else {
            self.push_bit(valid);
        }
    }

    #[inline]
    pub(super) fn push_bit(&mut self, valid: bool) {
        if self.nulls == 0 {
            self.materialize();
        }
        self.word |= u64::from(valid) << (self.len % 64);
        self.nulls += usize::from(!valid);
        self.len += 1;
        if self.len % 64 == 0 {
            self.bytes.extend_from_slice(&self.word.to_le_bytes());
            self.word = 0;
        }
    }

    /// Writes the all-valid bits pushed before the first null.
    #[cold]
    pub(super) fn materialize(&mut self) {
        self.bytes
            .reserve(self.capacity.max(self.len + 1).div_ceil(64) * 8);
        for _ in 0..self.len / 64 {
            self.bytes.extend_from_slice(&u64::MAX.to_le_bytes());
        }
        self.word = (1u64 << (self.len % 64)) - 1;
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The bitmap (`len.div_ceil(8)` bytes), or `None` when nothing is null.
    pub(super) fn finish(mut self) -> Result<Option<Bitmap>> {
        if self.nulls == 0 {
            return Ok(None);
        }
        self.bytes.extend_from_slice(&self.word.to_le_bytes());
        self.bytes.truncate(self.len.div_ceil(8));
        Bitmap::try_new_with_unset(self.bytes.freeze(), 0, self.len, self.nulls).map(Some)
    }
}

/// A fixed-width column of logical type `data_type` stored as `T`.
pub(super) struct Prim<T: PrimitiveType> {
    pub(super) data_type: DataType,
    pub(super) values: MutableBuffer,
    pub(super) validity: Validity,
    pub(super) _t: PhantomData<T>,
}

impl<T: PrimitiveType> Prim<T> {
    pub(super) fn new(data_type: DataType, capacity: usize) -> Self {
        Prim {
            data_type,
            values: MutableBuffer::with_capacity(capacity * std::mem::size_of::<T>()),
            validity: Validity::with_capacity(capacity),
            _t: PhantomData,
        }
    }

    /// A column of `T`'s default type (`Int64` for `i64`…).
    pub(super) fn with_capacity(capacity: usize) -> Self {
        Self::new(T::default_data_type(), capacity)
    }

    #[inline]
    pub(super) fn push(&mut self, value: T) {
        self.values.push(value);
        self.validity.push(true);
    }

    /// Appends a value or a null (stored as the default value).
    #[inline]
    pub(super) fn push_opt(&mut self, value: Option<T>) {
        self.validity.push(value.is_some());
        self.values.push(value.unwrap_or_default());
    }

    pub(super) fn finish(self) -> Result<Array> {
        let values = Buffer::<T>::from(self.values);
        let validity = self.validity.finish()?;
        Ok(PrimitiveArray::try_new(self.data_type, values, validity)?.into())
    }
}

/// A utf8 column (32-bit offsets).
pub(super) struct Str {
    pub(super) offsets: MutableBuffer,
    pub(super) values: MutableBuffer,
    pub(super) validity: Validity,
}

impl Str {
    pub(super) fn with_capacity(items: usize, bytes: usize) -> Self {
        let mut offsets = MutableBuffer::with_capacity((items + 1) * 4);
        offsets.push(0i32);
        Str {
            offsets,
            values: MutableBuffer::with_capacity(bytes),
            validity: Validity::with_capacity(items),
        }
    }

    /// Appends a value. Offsets past `i32::MAX` wrap here and are reported by `finish`.
    #[inline(always)]
    pub(super) fn push(&mut self, value: &str) {
        self.values.extend_from_slice(value.as_bytes());
        self.offsets.push(self.values.len() as i32);
        self.validity.push(true);
    }

    /// Appends a value or a null (an empty range).
    #[inline]
    pub(super) fn push_opt(&mut self, value: Option<&str>) {
        if let Some(v) = value {
            self.values.extend_from_slice(v.as_bytes());
        }
        self.offsets.push(self.values.len() as i32);
        self.validity.push(value.is_some());
    }

    pub(super) fn finish(self) -> Result<Array> {
        if i32::try_from(self.values.len()).is_err() {
            return Err(Error::overflow(format!(
                "{} bytes of strings exceed 32-bit offsets; use smaller batches",
                self.values.len()
            )));
        }
        let offsets = OffsetBuffer::try_new(Buffer::from(self.offsets))?;
        let validity = self.validity.finish()?;
        Ok(StringArray::try_new(offsets, Buffer::from(self.values), validity)?.into())
    }
}

/// Offsets and validity of a list or map column.
pub(super) struct ListOffsets {
    pub(super) offsets: MutableBuffer,
    pub(super) validity: Validity,
    pub(super) end: usize,
}

impl ListOffsets {
    pub(super) fn with_capacity(n: usize) -> Self {
        let mut offsets = MutableBuffer::with_capacity((n + 1) * 4);
        offsets.push(0i32);
        ListOffsets {
            offsets,
            validity: Validity::with_capacity(n),
            end: 0,
        }
    }

    /// Appends a list of `len` children (a null list has none).
    #[inline]
    pub(super) fn push(&mut self, valid: bool, len: usize) {
        self.end += len;
        self.offsets.push(self.end as i32);
        self.validity.push(valid);
    }

    pub(super) fn finish(self) -> Result<(OffsetBuffer<i32>, Option<Bitmap>)> {
        if i32::try_from(self.end).is_err() {
            return Err(Error::overflow(format!(
                "{} list children exceed 32-bit offsets; use smaller batches",
                self.end
            )));
        }
        let offsets = OffsetBuffer::try_new(Buffer::from(self.offsets))?;
        Ok((offsets, self.validity.finish()?))
    }
}
