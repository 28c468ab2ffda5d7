//! Builders of `BinaryView` and `Utf8View` arrays.

use super::{Builder, NullBufferBuilder};
use crate::array::{Array, BinaryViewArray, StringViewArray};
use crate::buffer::{Bitmap, Buffer, MutableBuffer};
use crate::datatype::DataType;
use crate::error::{Error, Result};
use crate::native::View;
use bytes::Bytes;
use std::sync::Arc;

/// Default size at which the in-progress data buffer is sealed (2 MiB).
const DEFAULT_BLOCK_SIZE: usize = 2 * 1024 * 1024;
/// Views address lengths, offsets and buffer indices as non-negative `i32`.
const MAX_VIEW: usize = i32::MAX as usize;

/// Shared state of the two view builders.
#[derive(Clone, Debug)]
struct ViewCore {
    views: MutableBuffer,
    in_progress: MutableBuffer,
    completed: Vec<Buffer<u8>>,
    /// For string builders, per completed buffer: whether it is valid UTF-8 as a whole, so
    /// that a view into it needs only its ends checked (otherwise its value is checked).
    whole_utf8: Vec<bool>,
    /// True for the string builder: values must be UTF-8.
    utf8: bool,
    validity: NullBufferBuilder,
    block_size: usize,
}

impl ViewCore {
    fn with_capacity(capacity: usize, utf8: bool) -> Self {
        ViewCore {
            views: MutableBuffer::with_capacity(capacity * std::mem::size_of::<View>()),
            in_progress: MutableBuffer::new(),
            completed: Vec::new(),
            whole_utf8: Vec::new(),
            utf8,
            validity: NullBufferBuilder::with_capacity(capacity),
            block_size: DEFAULT_BLOCK_SIZE,
        }
    }

    /// Adds `block` as a data buffer of its own (after sealing the in-progress one) and
    /// returns its index. A string builder checks it for UTF-8 once, here.
    fn append_block(&mut self, block: Bytes) -> Result<u32> {
        if block.len() > MAX_VIEW {
            return Err(Error::overflow(format!(
                "a view data block of {} bytes exceeds the i32 offsets of views",
                block.len()
            )));
        }
        if !self.in_progress.is_empty() {
            self.seal();
        }
        let index = self.completed.len();
        if index > MAX_VIEW {
            return Err(Error::overflow(format!(
                "{index} data buffers exceed the i32 buffer index of views"
            )));
        }
        self.whole_utf8
            .push(self.utf8 && simdutf8::basic::from_utf8(&block).is_ok());
        self.completed.push(Buffer::from_bytes(block));
        Ok(index as u32)
    }

    /// Appends a view of bytes `[offset, offset + len)` of data buffer `block`.
    fn append_view(&mut self, block: u32, offset: u32, len: u32) -> Result<()> {
        let data = self.completed.get(block as usize).ok_or_else(|| {
            Error::invalid(format!(
                "view into data buffer {block}, but the builder has {}",
                self.completed.len()
            ))
        })?;
        let (start, end) = (offset as usize, offset as usize + len as usize);
        let value = data.as_slice().get(start..end).ok_or_else(|| {
            Error::invalid(format!(
                "view of bytes [{start}, {end}) of data buffer {block}, which has {}",
                data.len()
            ))
        })?;
        if self.utf8 {
            let ok = if self.whole_utf8[block as usize] {
                // A slice of valid UTF-8 is valid exactly when both ends are char boundaries.
                let boundary =
                    |i: usize| data.as_slice().get(i).is_none_or(|&b| (b as i8) >= -0x40);
                boundary(start) && boundary(end)
            } else {
                simdutf8::basic::from_utf8(value).is_ok()
            };
            if !ok {
                return Err(Error::oos(format!(
                    "bytes [{start}, {end}) of data buffer {block} are not valid UTF-8"
                )));
            }
        }
        let view = if value.len() <= View::MAX_INLINE {
            View::inline(value)
        } else {
            View::reference(len, [value[0], value[1], value[2], value[3]], block, offset)
        };
        self.views.push(view);
        self.validity.append_non_null();
        Ok(())
    }

    #[inline]
    fn try_append(&mut self, value: &[u8]) -> Result<()> {
        if value.len() <= View::MAX_INLINE {
            self.views.push(View::inline(value));
        } else {
            let view = self.store_long(value)?;
            self.views.push(view);
        }
        self.validity.append_non_null();
        Ok(())
    }

    /// Copies a value longer than 12 bytes into the in-progress buffer (sealing it first when
    /// the value would take it past the block size) and returns its view.
    fn store_long(&mut self, value: &[u8]) -> Result<View> {
        if value.len() > MAX_VIEW {
            return Err(Error::overflow(format!(
                "a view value of {} bytes exceeds the i32 length of views",
                value.len()
            )));
        }
        if !self.in_progress.is_empty() && self.in_progress.len() + value.len() > self.block_size {
            self.seal();
        }
        let index = self.completed.len();
        if index > MAX_VIEW {
            return Err(Error::overflow(format!(
                "{index} data buffers exceed the i32 buffer index of views"
            )));
        }
        let offset = self.in_progress.len();
        self.in_progress.extend_from_slice(value);
        let prefix = [value[0], value[1], value[2], value[3]];
        // Both fit: offset <= block_size <= i32::MAX (or 0 for an oversized value), and
        // index and length were checked above.
        Ok(View::reference(
            value.len() as u32,
            prefix,
            index as u32,
            offset as u32,
        ))
    }

    /// Moves the in-progress buffer to the completed ones (values appended as `&str` to a
    /// string builder: valid UTF-8 as a whole).
    fn seal(&mut self) {
        let block = std::mem::take(&mut self.in_progress);
        self.completed.push(Buffer::from(block));
        self.whole_utf8.push(self.utf8);
    }

    #[inline]
    fn append_null(&mut self) {
        self.views.push(View::default());
        self.validity.append_null();
    }

    fn append_nulls(&mut self, n: usize) {
        self.views.extend_zeros(n * std::mem::size_of::<View>());
        self.validity.append_n_nulls(n);
    }

    fn finish(&mut self) -> (Buffer<View>, Arc<[Buffer<u8>]>, Option<Bitmap>) {
        if !self.in_progress.is_empty() {
            self.seal();
        }
        let views = Buffer::from(std::mem::take(&mut self.views));
        let buffers: Arc<[Buffer<u8>]> = std::mem::take(&mut self.completed).into();
        self.whole_utf8.clear();
        (views, buffers, self.validity.finish())
    }
}

macro_rules! view_builder {
    ($(#[$doc:meta])* $name:ident, $array:ty, $value:ty, $dt:expr, $utf8:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name {
            core: ViewCore,
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl $name {
            /// An empty builder.
            pub fn new() -> Self {
                Self::with_capacity(0)
            }
            /// An empty builder with room for `capacity` views.
            pub fn with_capacity(capacity: usize) -> Self {
                $name {
                    core: ViewCore::with_capacity(capacity, $utf8),
                }
            }
            /// Sets the size at which a data buffer is sealed and a new one started (default
            /// 2 MiB; clamped to `1..=i32::MAX`). A longer value gets a buffer of its own.
            pub fn with_block_size(mut self, block_size: usize) -> Self {
                self.core.block_size = block_size.clamp(1, MAX_VIEW);
                self
            }
            /// Appends a value, or returns [`Error::Overflow`] (builder unchanged) when it is
            /// longer than `i32::MAX` bytes or the data buffers exceed `i32::MAX`.
            #[inline]
            pub fn try_append_value(&mut self, value: impl AsRef<$value>) -> Result<()> {
                self.core.try_append(value.as_ref().as_ref())
            }
            /// Appends a value.
            ///
            /// # Panics
            /// When [`Self::try_append_value`] would fail.
            #[inline]
            pub fn append_value(&mut self, value: impl AsRef<$value>) {
                if let Err(e) = self.try_append_value(value) {
                    panic!("{e}");
                }
            }
            /// Adds `block` as a data buffer of its own, without copying it, and returns its
            /// index for [`Self::append_view`]: for values that already sit in memory one
            /// after the other (a decoded page, a dictionary), each appended as a view
            /// instead of being copied. The string builder checks the block for UTF-8 once,
            /// here; then a view into it needs only its two ends on character boundaries (a
            /// block that is not UTF-8 as a whole has each value checked instead).
            /// [`Error::Overflow`] for a block over `i32::MAX` bytes or beyond `i32::MAX` buffers.
            pub fn append_block(&mut self, block: Bytes) -> Result<u32> {
                self.core.append_block(block)
            }
            /// Appends the value at bytes `[offset, offset + len)` of data buffer `block` (an
            /// index from [`Self::append_block`]): inlined in its view when at most 12 bytes,
            /// otherwise referenced in place. Fails (builder unchanged) when the range is
            /// outside the buffer or, for strings, not UTF-8.
            #[inline]
            pub fn append_view(&mut self, block: u32, offset: u32, len: u32) -> Result<()> {
                self.core.append_view(block, offset, len)
            }
            /// Appends a null (an empty inline view).
            #[inline]
            pub fn append_null(&mut self) {
                self.core.append_null()
            }
            /// Appends `n` nulls.
            pub fn append_nulls(&mut self, n: usize) {
                self.core.append_nulls(n)
            }
            /// Appends a value or a null.
            ///
            /// # Panics
            /// As [`Self::append_value`].
            #[inline]
            pub fn append_option(&mut self, value: Option<impl AsRef<$value>>) {
                match value {
                    Some(v) => self.append_value(v),
                    None => self.append_null(),
                }
            }
            /// Number of slots appended.
            #[inline]
            pub fn len(&self) -> usize {
                self.core.validity.len()
            }
            /// True when nothing has been appended.
            #[inline]
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }
        }

        impl Builder for $name {
            fn len(&self) -> usize {
                self.len()
            }
            fn data_type(&self) -> DataType {
                $dt
            }
            fn append_null(&mut self) {
                self.append_null()
            }
            fn check_finish(&self) -> Result<()> {
                Ok(())
            }
            fn finish_array(&mut self) -> Array {
                Array::from(self.finish())
            }
        }
    };
}

view_builder!(
    /// Builds a [`BinaryViewArray`]: values of at most 12 bytes are inlined in their view;
    /// longer ones are copied into a data buffer that is sealed when it would pass the block
    /// size (2 MiB by default), the view keeping the first 4 bytes as prefix.
    ///
    /// ```
    /// use quiver_arrow::builder::BinaryViewBuilder;
    /// let mut b = BinaryViewBuilder::new();
    /// b.append_value(b"short");
    /// b.append_value(b"longer than twelve bytes");
    /// b.append_null();
    /// let a = b.finish();
    /// assert_eq!(a.get(1), Some(&b"longer than twelve bytes"[..]));
    /// assert_eq!(a.data_buffers().len(), 1);
    /// ```
    BinaryViewBuilder,
    BinaryViewArray,
    [u8],
    DataType::BinaryView,
    false
);

view_builder!(
    /// Builds a [`StringViewArray`] from `&str` values, laid out as in [`BinaryViewBuilder`].
    ///
    /// ```
    /// use quiver_arrow::builder::StringViewBuilder;
    /// let mut b = StringViewBuilder::new();
    /// b.append_value("inline");
    /// b.append_option(Some("a string that needs a data buffer"));
    /// let a = b.finish();
    /// assert_eq!(a.get(1), Some("a string that needs a data buffer"));
    /// ```
    StringViewBuilder,
    StringViewArray,
    str,
    DataType::Utf8View,
    true
);

impl BinaryViewBuilder {
    /// Builds the array in O(data buffers) and resets the builder.
    pub fn finish(&mut self) -> BinaryViewArray {
        let (views, buffers, validity) = self.core.finish();
        BinaryViewArray::try_new_deferred(views, buffers, validity)
            .expect("the builder's validity covers its views") // ok: the builder's validity covers its views.
    }
}

impl StringViewBuilder {
    /// Builds the array in O(data buffers) and resets the builder.
    pub fn finish(&mut self) -> StringViewArray {
        let (views, buffers, validity) = self.core.finish();
        // SAFETY: every value was appended as a `&str` (a referenced view points at the bytes
        // `store_long` copied into the buffer whose index and offset it records) or by
        // `append_view`, which checked its range against its data buffer and its bytes for
        // UTF-8 (the whole block once, then the value's ends as character boundaries); so
        // every view is in bounds and every value UTF-8.
        unsafe { StringViewArray::new_unchecked(views, buffers, validity) }
            .expect("the builder's validity covers its views") // ok: the builder's validity covers its views.
    }
}

impl<'a> Extend<Option<&'a str>> for StringViewBuilder {
    fn extend<I: IntoIterator<Item = Option<&'a str>>>(&mut self, iter: I) {
        for v in iter {
            self.append_option(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::tests::{assert_aligned, assert_valid};

    #[test]
    fn inline_and_referenced_views() {
        let mut b = StringViewBuilder::new();
        b.append_value("hello");
        b.append_null();
        b.append_value("0123456789abcdef"); // 16 bytes → buffer 0 offset 0
        b.append_value("twelve bytes"); // exactly 12 → inline
        let a = b.finish();
        let v = a.views().as_slice();
        assert_eq!(v[0], View::inline(b"hello"));
        assert_eq!(v[0].length, 5);
        assert_eq!(&v[0].data[..5], b"hello");
        assert_eq!(v[1], View::default());
        assert_eq!(v[2], View::reference(16, *b"0123", 0, 0));
        assert!(v[3].is_inline());
        assert_eq!(a.data_buffers().len(), 1);
        assert_eq!(a.data_buffers()[0].as_slice(), b"0123456789abcdef");
        assert_aligned(a.views().bytes());
        assert_aligned(a.data_buffers()[0].bytes());
        assert_eq!(&a.validity().unwrap().bytes()[..], &[0b1101]);
        assert_valid(&Array::from(a));
    }

    #[test]
    fn seals_blocks_at_block_size() {
        let mut b = BinaryViewBuilder::new().with_block_size(40);
        let long = |c: u8| vec![c; 15];
        b.append_value(long(b'a')); // buffer 0 @0
        b.append_value(long(b'b')); // buffer 0 @15 (30 <= 40)
        b.append_value(long(b'c')); // 45 > 40 → buffer 1 @0
        b.append_value(vec![b'd'; 100]); // 115 > 40 → buffer 2 @0 (oversized, alone)
        b.append_value(long(b'e')); // buffer 3 @0
        let a = b.finish();
        let v = a.views().as_slice();
        let placement: Vec<(u32, u32)> = v.iter().map(|v| (v.buffer_index(), v.offset())).collect();
        assert_eq!(placement, vec![(0, 0), (0, 15), (1, 0), (2, 0), (3, 0)]);
        let lens: Vec<usize> = a.data_buffers().iter().map(|b| b.len()).collect();
        assert_eq!(lens, vec![30, 15, 100, 15]);
        assert_eq!(v[3].prefix(), *b"dddd");
        assert!(a.validity().is_none());
        assert_valid(&Array::from(a));
    }

    #[test]
    fn nulls_only() {
        let mut b = BinaryViewBuilder::with_capacity(3);
        b.append_nulls(3);
        let a = b.finish();
        assert_eq!(a.null_count(), 3);
        assert!(a.data_buffers().is_empty());
        assert!(a.views().iter().all(|v| v == View::default()));
        assert_valid(&Array::from(a));
    }

    /// A block of concatenated values, the ranges of the values in it, and the values.
    fn block(values: &[&str]) -> (Bytes, Vec<(u32, u32)>) {
        let mut bytes = Vec::new();
        let mut ranges = Vec::new();
        for v in values {
            ranges.push((bytes.len() as u32, v.len() as u32));
            bytes.extend_from_slice(v.as_bytes());
        }
        (Bytes::from(bytes), ranges)
    }

    #[test]
    fn views_into_external_blocks_match_string_array() {
        let values = [
            "a",
            "",
            "émigré ünïcödé text",
            "twelve bytes",
            "x".repeat(40).leak(),
            "ß",
        ];
        let (bytes, ranges) = block(&values);
        let mut b = StringViewBuilder::new();
        b.append_value("copied value longer than 12");
        let k = b.append_block(bytes.clone()).unwrap();
        assert_eq!(k, 1, "the in-progress buffer was sealed first");
        for (i, &(o, l)) in ranges.iter().enumerate() {
            b.append_view(k, o, l).unwrap();
            if i == 2 {
                b.append_null();
            }
        }
        let a = b.finish();
        let mut expect: Vec<Option<&str>> = vec![Some("copied value longer than 12")];
        for (i, v) in values.iter().enumerate() {
            expect.push(Some(v));
            if i == 2 {
                expect.push(None);
            }
        }
        let oracle = crate::StringArray::from_options(expect.iter().copied());
        assert_eq!(
            a.iter().collect::<Vec<_>>(),
            oracle.iter().collect::<Vec<_>>()
        );
        // Referenced values point into the block: zero copy.
        assert_eq!(a.data_buffers()[1].as_ptr(), bytes.as_ptr());
        assert_valid(&Array::from(a));
    }

    #[test]
    fn views_must_be_in_bounds_and_utf8() {
        let (bytes, _) = block(&["héllo wörld, long enough"]);
        let mut b = StringViewBuilder::new();
        let k = b.append_block(bytes).unwrap();
        // Byte 2 is inside the two-byte 'é'.
        let e = b.append_view(k, 0, 2).unwrap_err();
        assert!(e.to_string().contains("not valid UTF-8"), "{e}");
        let e = b.append_view(k, 2, 3).unwrap_err();
        assert!(e.to_string().contains("not valid UTF-8"), "{e}");
        let e = b.append_view(k, 20, 100).unwrap_err();
        assert!(e.to_string().contains("which has 26"), "{e}");
        let e = b.append_view(k + 1, 0, 1).unwrap_err();
        assert!(e.to_string().contains("has 1"), "{e}");
        assert!(b.is_empty(), "failed appends leave the builder unchanged");
        b.append_view(k, 0, 3).unwrap();
        assert_eq!(b.finish().value(0), "hé");
    }

    #[test]
    fn blocks_that_are_not_utf8_as_a_whole_check_each_value() {
        // Length-prefixed values (as in a Parquet PLAIN page): the prefixes are not UTF-8.
        let mut page = Vec::new();
        for v in ["first value, long enough", "zweiter Wert mit Ümlaut"] {
            page.extend_from_slice(&(v.len() as u32 | 0x8080_8000).to_le_bytes());
            page.extend_from_slice(v.as_bytes());
        }
        page.extend_from_slice(&[0xff, 0xfe]);
        let mut b = StringViewBuilder::new();
        let k = b.append_block(Bytes::from(page)).unwrap();
        b.append_view(k, 4, 24).unwrap();
        b.append_view(k, 32, 24).unwrap();
        assert!(b.append_view(k, 56, 2).is_err());
        assert!(b.append_view(k, 0, 4).is_err());
        let a = b.finish();
        assert_eq!(a.value(1), "zweiter Wert mit Ümlaut");
        assert_valid(&Array::from(a));
        // A binary builder takes any bytes.
        let mut b = BinaryViewBuilder::new();
        let k = b
            .append_block(Bytes::from_static(&[0xff, 0xfe, 0xfd]))
            .unwrap();
        b.append_view(k, 1, 2).unwrap();
        assert_eq!(b.finish().value(0), &[0xfe, 0xfd]);
    }
}
