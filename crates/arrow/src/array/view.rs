//! Binary and UTF-8 values in the view layout (`BinaryView`, `Utf8View`).

use super::assert_slice;
use super::validity::{check_validity, normalize_validity, validity_accessors};
use crate::buffer::{Bitmap, Buffer, MutableBitmap, MutableBuffer};
use crate::datatype::DataType;
use crate::error::{Error, Result};
use crate::native::View;
use std::sync::Arc;

/// Binary values as 16-byte views: short values inline, longer ones referencing one of several
/// data buffers. Null slots may hold any view; they read as empty.
#[derive(Clone, Debug)]
pub struct BinaryViewArray {
    data_type: DataType,
    views: Buffer<View>,
    buffers: Arc<[Buffer<u8>]>,
    validity: Option<Bitmap>,
}

/// Checks every non-null view: inline lengths need no buffer; referenced views must point
/// inside their data buffer and carry the first four bytes of their value as prefix. When
/// `utf8` is set, each value must also be valid UTF-8.
pub(crate) fn check_views(
    views: &[View],
    buffers: &[Buffer<u8>],
    validity: Option<&Bitmap>,
    utf8: bool,
) -> Result<()> {
    for (i, v) in views.iter().enumerate() {
        if validity.is_some_and(|b| !b.get(i)) {
            continue;
        }
        let bytes: &[u8] = if v.is_inline() {
            &v.data[..v.length as usize]
        } else {
            let idx = v.buffer_index() as usize;
            let Some(buf) = buffers.get(idx) else {
                return Err(Error::oos(format!(
                    "view {i} references data buffer {idx} but there are {}",
                    buffers.len()
                )));
            };
            let start = v.offset() as usize;
            let end = start + v.length as usize;
            if end > buf.len() {
                return Err(Error::oos(format!(
                    "view {i} references bytes [{start}, {end}) of data buffer {idx} which has {}",
                    buf.len()
                )));
            }
            let data = &buf.as_slice()[start..end];
            if data[..4] != v.prefix() {
                return Err(Error::oos(format!(
                    "view {i} has prefix {:?} but its data starts with {:?}",
                    v.prefix(),
                    &data[..4]
                )));
            }
            data
        };
        if utf8 && simdutf8::basic::from_utf8(bytes).is_err() {
            return Err(Error::oos(format!("view {i} is not valid UTF-8")));
        }
    }
    Ok(())
}

impl BinaryViewArray {
    /// Builds the array, checking the validity length and every non-null view (O(n)).
    pub fn try_new(
        views: Buffer<View>,
        buffers: Arc<[Buffer<u8>]>,
        validity: Option<Bitmap>,
    ) -> Result<Self> {
        check_validity(validity.as_ref(), views.len())?;
        check_views(&views, &buffers, validity.as_ref(), false)?;
        Ok(BinaryViewArray {
            data_type: DataType::BinaryView,
            views,
            buffers,
            validity,
        })
    }

    /// Builds the array checking only the validity length; views are checked by full
    /// validation. Reading an unchecked bad view panics rather than misbehaving.
    pub fn try_new_deferred(
        views: Buffer<View>,
        buffers: Arc<[Buffer<u8>]>,
        validity: Option<Bitmap>,
    ) -> Result<Self> {
        check_validity(validity.as_ref(), views.len())?;
        Ok(BinaryViewArray {
            data_type: DataType::BinaryView,
            views,
            buffers,
            validity,
        })
    }

    /// An array from optional byte strings (long values go to data buffers of at most
    /// 4 GiB each, a new one started when the next value would not fit).
    ///
    /// # Panics
    /// If a value is longer than `i32::MAX` bytes (a view's length is an `int32`).
    pub fn from_options<'a>(iter: impl IntoIterator<Item = Option<&'a [u8]>>) -> Self {
        let mut views = MutableBuffer::new();
        let mut data = MutableBuffer::new();
        let mut full: Vec<Buffer<u8>> = Vec::new();
        let mut validity = MutableBitmap::new();
        for v in iter {
            validity.push(v.is_some());
            let v = v.unwrap_or(&[]);
            views.push(if v.len() <= View::MAX_INLINE {
                View::inline(v)
            } else {
                let len = i32::try_from(v.len()).expect("a view value over i32::MAX bytes"); // ok: a documented panic of this in-memory constructor, not a data path
                if data.len() + v.len() > u32::MAX as usize {
                    full.push(std::mem::take(&mut data).into());
                }
                // Both fit in u32: a buffer holds at most u32::MAX bytes, and every buffer
                // but the last more than 2 GiB.
                let (offset, index) = (data.len() as u32, full.len() as u32);
                data.extend_from_slice(v);
                View::reference(len as u32, [v[0], v[1], v[2], v[3]], index, offset)
            });
        }
        if !data.is_empty() {
            full.push(data.into());
        }
        let buffers: Arc<[Buffer<u8>]> = full.into();
        BinaryViewArray {
            data_type: DataType::BinaryView,
            views: views.into(),
            buffers,
            validity: normalize_validity(Some(validity.freeze())),
        }
    }

    validity_accessors!();

    /// Number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.views.len()
    }
    /// The views.
    pub fn views(&self) -> &Buffer<View> {
        &self.views
    }
    /// The data buffers.
    pub fn data_buffers(&self) -> &Arc<[Buffer<u8>]> {
        &self.buffers
    }
    /// Value `i` regardless of validity; null slots read as empty. Panics when out of bounds.
    #[inline]
    pub fn value(&self, i: usize) -> &[u8] {
        if self.is_null(i) {
            return &[];
        }
        let v = &self.views.as_slice()[i];
        if v.is_inline() {
            &v.data[..v.length as usize]
        } else {
            let start = v.offset() as usize;
            &self.buffers[v.buffer_index() as usize].as_slice()[start..start + v.length as usize]
        }
    }
    /// Value `i`, `None` when null.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        self.is_valid(i).then(|| self.value(i))
    }
    /// Iterates values as options.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Option<&[u8]>> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }
    /// Zero-copy slice (views are sliced; data buffers are shared).
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        assert_slice(offset, len, self.len());
        BinaryViewArray {
            data_type: self.data_type.clone(),
            views: self.views.slice(offset, len),
            buffers: self.buffers.clone(),
            validity: self.validity.as_ref().map(|v| v.slice(offset, len)),
        }
    }
}

/// UTF-8 strings in the view layout: a [`BinaryViewArray`] whose non-null values are UTF-8.
///
/// ```
/// use quiver_arrow::StringViewArray;
/// let a = StringViewArray::from_options([Some("short"), None, Some("a string longer than twelve bytes")]);
/// assert_eq!(a.get(2), Some("a string longer than twelve bytes"));
/// assert_eq!(a.data_buffers().len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct StringViewArray {
    inner: BinaryViewArray,
}

impl StringViewArray {
    /// Builds the array, checking validity length, views and UTF-8 of every non-null value.
    pub fn try_new(
        views: Buffer<View>,
        buffers: Arc<[Buffer<u8>]>,
        validity: Option<Bitmap>,
    ) -> Result<Self> {
        check_validity(validity.as_ref(), views.len())?;
        check_views(&views, &buffers, validity.as_ref(), true)?;
        let inner = BinaryViewArray {
            data_type: DataType::Utf8View,
            views,
            buffers,
            validity,
        };
        Ok(StringViewArray { inner })
    }

    /// Builds the array checking only the validity length.
    ///
    /// # Safety
    /// Every non-null view must be in bounds of its data buffer and its value valid UTF-8 by
    /// the time a value is read ([`StringViewArray::value`] relies on it; full validation
    /// checks it, so an array validated in full before any read may hold unchecked views).
    pub unsafe fn new_unchecked(
        views: Buffer<View>,
        buffers: Arc<[Buffer<u8>]>,
        validity: Option<Bitmap>,
    ) -> Result<Self> {
        check_validity(validity.as_ref(), views.len())?;
        let inner = BinaryViewArray {
            data_type: DataType::Utf8View,
            views,
            buffers,
            validity,
        };
        Ok(StringViewArray { inner })
    }

    /// An array from optional strings.
    pub fn from_options<'a>(iter: impl IntoIterator<Item = Option<&'a str>>) -> Self {
        let mut inner =
            BinaryViewArray::from_options(iter.into_iter().map(|s| s.map(str::as_bytes)));
        inner.data_type = DataType::Utf8View;
        StringViewArray { inner }
    }

    /// Re-checks views and UTF-8 (used by full validation).
    pub(crate) fn check_content(&self) -> Result<()> {
        check_views(
            &self.inner.views,
            &self.inner.buffers,
            self.inner.validity.as_ref(),
            true,
        )
    }

    /// The same data as binary views.
    pub fn as_binary(&self) -> &BinaryViewArray {
        &self.inner
    }
    /// The logical type.
    pub fn data_type(&self) -> &DataType {
        &self.inner.data_type
    }
    /// Number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.inner.len()
    }
    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }
    /// The validity bitmap.
    pub fn validity(&self) -> Option<&Bitmap> {
        self.inner.validity()
    }
    /// Number of nulls.
    pub fn null_count(&self) -> usize {
        self.inner.null_count()
    }
    /// True when value `i` is null.
    #[inline]
    pub fn is_null(&self, i: usize) -> bool {
        self.inner.is_null(i)
    }
    /// True when value `i` is not null.
    #[inline]
    pub fn is_valid(&self, i: usize) -> bool {
        self.inner.is_valid(i)
    }
    /// The views.
    pub fn views(&self) -> &Buffer<View> {
        self.inner.views()
    }
    /// The data buffers.
    pub fn data_buffers(&self) -> &Arc<[Buffer<u8>]> {
        self.inner.data_buffers()
    }
    /// Value `i` regardless of validity; null slots read as empty.
    #[inline]
    pub fn value(&self, i: usize) -> &str {
        let bytes = self.inner.value(i);
        // SAFETY: non-null values are UTF-8 by the type's invariant (checked in `try_new` /
        // `check_content`, or promised by the caller of `new_unchecked`); null slots read as
        // the empty slice in `BinaryViewArray::value`.
        unsafe { std::str::from_utf8_unchecked(bytes) }
    }
    /// Value `i`, `None` when null.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&str> {
        self.is_valid(i).then(|| self.value(i))
    }
    /// Iterates values as options.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Option<&str>> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }
    /// Zero-copy slice.
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        StringViewArray {
            inner: self.inner.slice(offset, len),
        }
    }
}
