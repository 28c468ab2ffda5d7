//! Variable-size binary and UTF-8 strings with 32- or 64-bit offsets.

use super::assert_slice;
use super::validity::{check_validity, normalize_validity, validity_accessors};
use crate::buffer::{Bitmap, Buffer, MutableBitmap, MutableBuffer, Offset, OffsetBuffer};
use crate::datatype::DataType;
use crate::error::{Error, Result};

/// Variable-size binary values: offsets into a shared values buffer.
///
/// ```
/// use quiver_arrow::BinaryArray;
/// let a = BinaryArray::from_options([Some(&b"joe"[..]), None, None, Some(b"mark")]);
/// assert_eq!(a.offsets().as_slice(), &[0, 3, 3, 3, 7]);
/// assert_eq!(a.get(3), Some(&b"mark"[..]));
/// ```
#[derive(Clone, Debug)]
pub struct GenericBinaryArray<O: Offset> {
    data_type: DataType,
    offsets: OffsetBuffer<O>,
    values: Buffer<u8>,
    validity: Option<Bitmap>,
}

/// Binary with `i32` offsets.
pub type BinaryArray = GenericBinaryArray<i32>;
/// Binary with `i64` offsets.
pub type LargeBinaryArray = GenericBinaryArray<i64>;

fn binary_type<O: Offset>() -> DataType {
    if O::IS_LARGE {
        DataType::LargeBinary
    } else {
        DataType::Binary
    }
}
fn utf8_type<O: Offset>() -> DataType {
    if O::IS_LARGE {
        DataType::LargeUtf8
    } else {
        DataType::Utf8
    }
}

/// Structural check of an offsets/values pair: the last offset lies inside the values.
pub(crate) fn check_offsets_in_values<O: Offset>(
    offsets: &OffsetBuffer<O>,
    values_len: usize,
) -> Result<()> {
    let last = offsets.last().to_i64();
    if last < 0 {
        return Err(Error::oos(format!("last offset {last} is negative")));
    }
    if last as u64 > values_len as u64 {
        return Err(Error::oos(format!(
            "last offset {last} is beyond the end of the values ({values_len} long)"
        )));
    }
    Ok(())
}

impl<O: Offset> GenericBinaryArray<O> {
    /// Builds the array, checking that the offsets fit the values and the validity length
    /// (offsets are monotone by construction of [`OffsetBuffer`]).
    pub fn try_new(
        offsets: OffsetBuffer<O>,
        values: Buffer<u8>,
        validity: Option<Bitmap>,
    ) -> Result<Self> {
        check_offsets_in_values(&offsets, values.len())?;
        check_validity(validity.as_ref(), offsets.len())?;
        Ok(GenericBinaryArray {
            data_type: binary_type::<O>(),
            offsets,
            values,
            validity,
        })
    }

    /// An array from optional byte strings.
    pub fn from_options<'a>(iter: impl IntoIterator<Item = Option<&'a [u8]>>) -> Self {
        let mut offsets = vec![O::ZERO];
        let mut values = MutableBuffer::new();
        let mut validity = MutableBitmap::new();
        for v in iter {
            validity.push(v.is_some());
            values.extend_from_slice(v.unwrap_or(&[]));
            offsets.push(O::from_usize(values.len()).expect("values exceed the offset type")); // ok: a documented panic of this in-memory constructor (like `Vec` on overflow), not a data path
        }
        // SAFETY: offsets start at 0 and are pushed in increasing order of `values.len()`.
        let offsets = unsafe { OffsetBuffer::new_unchecked(offsets.into()) };
        GenericBinaryArray {
            data_type: binary_type::<O>(),
            offsets,
            values: values.into(),
            validity: normalize_validity(Some(validity.freeze())),
        }
    }

    validity_accessors!();

    /// Number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.offsets.len()
    }
    /// The offsets.
    #[inline]
    pub fn offsets(&self) -> &OffsetBuffer<O> {
        &self.offsets
    }
    /// The values buffer (all values back to back).
    #[inline]
    pub fn values(&self) -> &Buffer<u8> {
        &self.values
    }
    /// Value `i` regardless of validity. Panics when out of bounds.
    #[inline]
    pub fn value(&self, i: usize) -> &[u8] {
        &self.values.as_slice()[self.offsets.range(i)]
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
    /// Zero-copy slice (offsets are sliced; values are shared).
    pub fn slice(&self, offset: usize, len: usize) -> Self {
        assert_slice(offset, len, self.len());
        GenericBinaryArray {
            data_type: self.data_type.clone(),
            offsets: self.offsets.slice(offset, len),
            values: self.values.clone(),
            validity: self.validity.as_ref().map(|v| v.slice(offset, len)),
        }
    }
    /// The parts: offsets, values, validity.
    pub fn into_parts(self) -> (OffsetBuffer<O>, Buffer<u8>, Option<Bitmap>) {
        (self.offsets, self.values, self.validity)
    }
}

/// UTF-8 strings: a binary array whose non-null values are valid UTF-8 (null slots may hold
/// any bytes, as the format allows, and read as `""`).
///
/// ```
/// use quiver_arrow::StringArray;
/// let a = StringArray::from_options([Some("héllo"), None, Some("")]);
/// assert_eq!(a.get(0), Some("héllo"));
/// assert_eq!(a.null_count(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct GenericStringArray<O: Offset> {
    inner: GenericBinaryArray<O>,
}

/// UTF-8 with `i32` offsets.
pub type StringArray = GenericStringArray<i32>;
/// UTF-8 with `i64` offsets.
pub type LargeStringArray = GenericStringArray<i64>;

/// True when every value `values[offsets[i]..offsets[i + 1]]` is UTF-8, found in one SIMD pass
/// over the values and a scan that no offset splits a character (`false` also when an offset
/// lies past the values, or they are negative or decrease). For values checked once and then copied many times
/// (a Parquet dictionary's entries), so that the copies need no check of their own.
///
/// ```
/// use quiver_arrow::array::all_utf8;
/// assert!(all_utf8(&[0i64, 3, 6], "héllo".as_bytes())); // "hé", "llo"
/// // "é" is bytes 1 and 2: an offset between them splits it.
/// assert!(!all_utf8(&[0i64, 2, 6], "héllo".as_bytes()));
/// assert!(!all_utf8(&[0i32, 1], &[0xFF]));
/// ```
pub fn all_utf8<O: Offset>(offsets: &[O], values: &[u8]) -> bool {
    let (Some(first), Some(last)) = (offsets.first(), offsets.last()) else {
        return true;
    };
    let (start, end) = (first.as_usize(), last.as_usize());
    let ordered = *first >= O::ZERO && offsets.windows(2).all(|w| w[0] <= w[1]);
    ordered && end <= values.len() && utf8_spans(offsets, values, start, end)
}

/// Whether `values[start..end]` (within `values`) is UTF-8 and no offset splits a character:
/// then every value between the offsets is UTF-8. One SIMD pass and a branch-free scan.
fn utf8_spans<O: Offset>(offsets: &[O], values: &[u8], start: usize, end: usize) -> bool {
    simdutf8::basic::from_utf8(&values[start..end]).is_ok()
        && !offsets.iter().fold(false, |acc, o| {
            // A continuation byte 0b10xx_xxxx cannot start a value.
            acc | values.get(o.as_usize()).is_some_and(|b| (*b as i8) < -64)
        })
}

/// Checks that every non-null value is UTF-8, naming the first bad one. Null slots may hold any
/// bytes (the format leaves them unspecified).
///
/// Fast path: one SIMD pass over `values[first offset..last offset]` plus a branch-free scan
/// that no offset splits a character; when both hold, every value is UTF-8 whatever the
/// validity. Only when that fails are the non-null values checked one by one.
pub(crate) fn check_utf8<O: Offset>(
    offsets: &OffsetBuffer<O>,
    values: &[u8],
    validity: Option<&Bitmap>,
) -> Result<()> {
    let start = offsets.first().as_usize();
    let end = offsets.last().as_usize();
    if utf8_spans(offsets.as_slice(), values, start, end) {
        return Ok(());
    }
    for i in 0..offsets.len() {
        if validity.is_some_and(|v| !v.get(i)) {
            continue;
        }
        let r = offsets.range(i);
        let first = r.start;
        if let Err(e) = std::str::from_utf8(&values[r]) {
            return Err(Error::oos(format!(
                "value {i} is not valid UTF-8 (byte {} of the values)",
                first + e.valid_up_to()
            )));
        }
    }
    Ok(())
}

impl<O: Offset> GenericStringArray<O> {
    /// Builds the array, checking the offsets fit the values, the validity length, and that the
    /// non-null values are UTF-8 (O(n), SIMD).
    pub fn try_new(
        offsets: OffsetBuffer<O>,
        values: Buffer<u8>,
        validity: Option<Bitmap>,
    ) -> Result<Self> {
        let inner = GenericBinaryArray::try_new(offsets, values, validity)?;
        check_utf8(&inner.offsets, &inner.values, inner.validity.as_ref())?;
        Ok(Self::wrap(inner))
    }

    /// Builds the array without the UTF-8 check (structural checks still run).
    ///
    /// # Safety
    /// Every non-null value must be valid UTF-8 by the time a value is read
    /// ([`GenericStringArray::value`] relies on it; full validation checks it, so an array
    /// validated in full before any read may be built from unchecked bytes).
    pub unsafe fn new_unchecked_utf8(
        offsets: OffsetBuffer<O>,
        values: Buffer<u8>,
        validity: Option<Bitmap>,
    ) -> Result<Self> {
        Ok(Self::wrap(GenericBinaryArray::try_new(
            offsets, values, validity,
        )?))
    }

    fn wrap(mut inner: GenericBinaryArray<O>) -> Self {
        inner.data_type = utf8_type::<O>();
        GenericStringArray { inner }
    }

    /// An array from optional strings.
    pub fn from_options<'a>(iter: impl IntoIterator<Item = Option<&'a str>>) -> Self {
        Self::wrap(GenericBinaryArray::from_options(
            iter.into_iter().map(|s| s.map(str::as_bytes)),
        ))
    }

    /// Re-checks the UTF-8 invariant (used by full validation).
    pub(crate) fn check_content(&self) -> Result<()> {
        check_utf8(
            &self.inner.offsets,
            &self.inner.values,
            self.inner.validity.as_ref(),
        )
    }

    /// The same data as a binary array.
    pub fn as_binary(&self) -> &GenericBinaryArray<O> {
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
    #[inline]
    pub fn validity(&self) -> Option<&Bitmap> {
        self.inner.validity()
    }
    /// Number of nulls.
    #[inline]
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
    /// The offsets.
    #[inline]
    pub fn offsets(&self) -> &OffsetBuffer<O> {
        self.inner.offsets()
    }
    /// The values buffer.
    #[inline]
    pub fn values(&self) -> &Buffer<u8> {
        self.inner.values()
    }
    /// Value `i`; null slots read as `""` (their bytes are unspecified). Panics when out of
    /// bounds.
    #[inline]
    pub fn value(&self, i: usize) -> &str {
        if self.inner.is_null(i) {
            return "";
        }
        let bytes = self.inner.value(i);
        // SAFETY: slot `i` is not null (checked just above), and the type's invariant (checked
        // by `try_new`/`check_utf8`, or promised by the caller of `new_unchecked_utf8`) is that
        // every non-null value is UTF-8.
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
        GenericStringArray {
            inner: self.inner.slice(offset, len),
        }
    }
    /// The parts: offsets, values, validity.
    pub fn into_parts(self) -> (OffsetBuffer<O>, Buffer<u8>, Option<Bitmap>) {
        self.inner.into_parts()
    }
}

impl<'a, O: Offset> FromIterator<Option<&'a str>> for GenericStringArray<O> {
    fn from_iter<I: IntoIterator<Item = Option<&'a str>>>(iter: I) -> Self {
        Self::from_options(iter)
    }
}
