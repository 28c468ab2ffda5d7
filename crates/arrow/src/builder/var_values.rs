//! Variable-size values (binary and strings in every layout) for dictionaries and runs.

use super::NullBufferBuilder;
use super::binary::end_offset;
use crate::array::{Array, GenericBinaryArray, GenericStringArray, StringViewArray};
use crate::buffer::{Bitmap, Buffer, MutableBuffer, Offset, OffsetBuffer};
use crate::datatype::DataType;
use crate::error::Result;

/// The six variable-size layouts; views are stored with 64-bit offsets and converted on finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum VarKind {
    Binary,
    Utf8,
    LargeBinary,
    LargeUtf8,
    BinaryView,
    Utf8View,
}

impl VarKind {
    fn of(dt: &DataType) -> Option<Self> {
        Some(match dt {
            DataType::Binary => VarKind::Binary,
            DataType::Utf8 => VarKind::Utf8,
            DataType::LargeBinary => VarKind::LargeBinary,
            DataType::LargeUtf8 => VarKind::LargeUtf8,
            DataType::BinaryView => VarKind::BinaryView,
            DataType::Utf8View => VarKind::Utf8View,
            _ => return None,
        })
    }
    fn small(self) -> bool {
        matches!(self, VarKind::Binary | VarKind::Utf8)
    }
    fn utf8(self) -> bool {
        matches!(self, VarKind::Utf8 | VarKind::LargeUtf8 | VarKind::Utf8View)
    }
    fn data_type(self) -> DataType {
        match self {
            VarKind::Binary => DataType::Binary,
            VarKind::Utf8 => DataType::Utf8,
            VarKind::LargeBinary => DataType::LargeBinary,
            VarKind::LargeUtf8 => DataType::LargeUtf8,
            VarKind::BinaryView => DataType::BinaryView,
            VarKind::Utf8View => DataType::Utf8View,
        }
    }
}

/// Variable-size values: offsets (`i32` for Binary/Utf8, `i64` otherwise) and bytes.
#[derive(Clone, Debug)]
pub(crate) struct VarValues {
    kind: VarKind,
    offsets: MutableBuffer,
    data: MutableBuffer,
    validity: NullBufferBuilder,
}

impl VarValues {
    /// An empty store for `dt`, `None` when it is not a binary or string type.
    pub(super) fn try_new(dt: &DataType, capacity: usize) -> Option<Self> {
        VarKind::of(dt).map(|kind| Self::new(kind, capacity))
    }

    fn new(kind: VarKind, capacity: usize) -> Self {
        let width = if kind.small() { 4 } else { 8 };
        let mut offsets = MutableBuffer::with_capacity((capacity + 1) * width);
        offsets.extend_zeros(width);
        VarValues {
            kind,
            offsets,
            data: MutableBuffer::new(),
            validity: NullBufferBuilder::new(),
        }
    }

    /// The value type.
    pub(super) fn data_type(&self) -> DataType {
        self.kind.data_type()
    }

    /// True for the string types (values must be UTF-8).
    pub(super) fn is_utf8(&self) -> bool {
        self.kind.utf8()
    }

    /// Number of values.
    pub(super) fn len(&self) -> usize {
        self.validity.len()
    }

    /// True when value `i` is null.
    pub(super) fn is_null(&self, i: usize) -> bool {
        !self.validity.is_valid(i)
    }

    /// The bytes of value `i` (empty for nulls).
    #[inline]
    pub(super) fn value(&self, i: usize) -> &[u8] {
        &self.data.as_slice()[self.range(i)]
    }

    #[inline]
    fn range(&self, i: usize) -> std::ops::Range<usize> {
        if self.kind.small() {
            let o = self.offsets.typed::<i32>();
            o[i] as usize..o[i + 1] as usize
        } else {
            let o = self.offsets.typed::<i64>();
            o[i] as usize..o[i + 1] as usize
        }
    }

    /// Appends a value; [`Error::Overflow`](crate::Error::Overflow) (unchanged) when 32-bit
    /// offsets would overflow.
    #[inline]
    pub(super) fn push(&mut self, bytes: &[u8]) -> Result<()> {
        if self.kind.small() {
            let end = end_offset::<i32>(self.data.len(), bytes.len())?;
            self.offsets.push(end);
        } else {
            let end = end_offset::<i64>(self.data.len(), bytes.len())?;
            self.offsets.push(end);
        }
        self.data.extend_from_slice(bytes);
        self.validity.append_non_null();
        Ok(())
    }

    /// Appends a null (an empty range).
    pub(super) fn push_null(&mut self) {
        let width = if self.kind.small() { 4 } else { 8 };
        let len = self.offsets.len();
        let mut last = [0u8; 8];
        last[..width].copy_from_slice(&self.offsets.as_slice()[len - width..]);
        self.offsets.extend_from_slice(&last[..width]);
        self.validity.append_null();
    }

    /// Builds the values array (views are built here, copying the values) and resets.
    pub(super) fn finish(&mut self) -> Array {
        let fresh = VarValues::new(self.kind, 0);
        let VarValues {
            kind,
            offsets,
            data,
            mut validity,
        } = std::mem::replace(self, fresh);
        let validity = validity.finish();
        let values = Buffer::from(data);
        match kind {
            VarKind::Binary => binary_array::<i32>(offsets, values, validity),
            VarKind::LargeBinary => binary_array::<i64>(offsets, values, validity),
            VarKind::Utf8 => string_array::<i32>(offsets, values, validity),
            VarKind::LargeUtf8 => string_array::<i64>(offsets, values, validity),
            VarKind::BinaryView | VarKind::Utf8View => to_views(
                kind,
                &offsets_of::<i64>(offsets),
                &values,
                validity.as_ref(),
            ),
        }
    }
}

fn offsets_of<O: Offset>(offsets: MutableBuffer) -> OffsetBuffer<O> {
    // SAFETY: the store starts its offsets at zero and pushes the data length after each
    // value, so they are non-empty, non-negative and non-decreasing.
    unsafe { OffsetBuffer::new_unchecked(Buffer::from(offsets)) }
}

fn binary_array<O: Offset>(
    offsets: MutableBuffer,
    values: Buffer<u8>,
    validity: Option<Bitmap>,
) -> Array
where
    Array: From<GenericBinaryArray<O>>,
{
    let a = GenericBinaryArray::<O>::try_new(offsets_of(offsets), values, validity);
    Array::from(a.expect("offsets end at the data length")) // ok: offsets end at the data length.
}

fn string_array<O: Offset>(
    offsets: MutableBuffer,
    values: Buffer<u8>,
    validity: Option<Bitmap>,
) -> Array
where
    Array: From<GenericStringArray<O>>,
{
    // SAFETY: string stores only receive `&str` values or bytes checked to be UTF-8
    // (`check_bytes`), so the data is UTF-8 and every offset lies between two values.
    let a = unsafe {
        GenericStringArray::<O>::new_unchecked_utf8(offsets_of(offsets), values, validity)
    };
    Array::from(a.expect("offsets end at the data length")) // ok: offsets end at the data length.
}

/// Copies variable-size values into a view array (views are only built on finish).
fn to_views(
    kind: VarKind,
    offsets: &OffsetBuffer<i64>,
    data: &[u8],
    validity: Option<&Bitmap>,
) -> Array {
    let mut b = super::BinaryViewBuilder::with_capacity(offsets.len());
    for i in 0..offsets.len() {
        if validity.is_some_and(|v| !v.get(i)) {
            b.append_null();
        } else {
            b.append_value(&data[offsets.range(i)]);
        }
    }
    let binary = b.finish();
    if kind == VarKind::BinaryView {
        return Array::from(binary);
    }
    let validity = binary.validity().cloned();
    let (views, buffers) = (binary.views().clone(), binary.data_buffers().clone());
    // SAFETY: the values were UTF-8 (see `string_array`) and the views come from a builder
    // that keeps them in bounds of its data buffers.
    let strings = unsafe { StringViewArray::new_unchecked(views, buffers, validity) };
    Array::from(strings.expect("validity covers the views")) // ok: validity covers the views.
}

#[cfg(test)]
mod tests {
    use crate::builder::tests::{assert_aligned, assert_valid};
    use crate::builder::{DictionaryBuilder, RunEndBuilder};
    use crate::datatype::{DataType, IntegerType};
    use crate::{Array, native::View};

    #[test]
    fn large_binary_runs_with_nulls() {
        let mut b = RunEndBuilder::try_new(IntegerType::Int64, DataType::LargeBinary).unwrap();
        b.append_bytes(b"ab").unwrap();
        b.append_null().unwrap();
        b.append_nulls(2).unwrap();
        b.append_bytes(b"").unwrap();
        b.append_bytes(b"xyz").unwrap();
        let a = b.finish();
        let ends = a.run_ends().as_primitive::<i64>().unwrap();
        assert_eq!(ends.values().as_slice(), &[1, 4, 5, 6]);
        let values = a.values().as_large_binary().unwrap();
        assert_eq!(values.offsets().as_slice(), &[0i64, 2, 2, 2, 5]);
        assert_eq!(values.values().as_slice(), b"abxyz");
        assert_eq!(&values.validity().unwrap().bytes()[..], &[0b1101]);
        assert_aligned(values.offsets().buffer().bytes());
        assert_valid(&Array::from(a));
    }

    #[test]
    fn view_values_are_built_on_finish() {
        let mut b = DictionaryBuilder::try_new(IntegerType::UInt8, DataType::Utf8View).unwrap();
        let long = "more than twelve bytes";
        assert_eq!(b.append_str("short").unwrap(), 0);
        assert_eq!(b.append_str(long).unwrap(), 1);
        assert_eq!(b.append_bytes(long.as_bytes()).unwrap(), 1);
        assert!(b.append_bytes(&[0xff, 0xfe]).is_err(), "not UTF-8");
        let d = b.finish();
        let values = d.values().as_utf8_view().unwrap();
        assert_eq!(values.views()[0], View::inline(b"short"));
        assert_eq!(values.views()[1], View::reference(22, *b"more", 0, 0));
        assert_eq!(values.data_buffers()[0].as_slice(), long.as_bytes());
        assert_valid(&Array::from(d));
    }
}
