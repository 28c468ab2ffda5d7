//! How many bytes of buffer data an array's visible slots refer to.

use super::Array;
use crate::buffer::{Bitmap, Buffer, Offset, OffsetBuffer};
use crate::native::NativeType;

impl Array {
    /// Bytes of buffer data that this array's visible slots refer to, children and
    /// dictionaries included: the measure of "Arrow in-memory size" used for throughput
    /// figures (like pyarrow's `nbytes`).
    ///
    /// Validity bitmaps count `ceil(len / 8)` bytes when present; fixed-width values count
    /// their width times the length; offsets count `len + 1` entries and the value bytes
    /// between the first and last offset; list children count the range the offsets select.
    /// Buffers that cannot be narrowed cheaply (view data buffers, dictionary values, dense
    /// union and list-view children, run-end values) count whole. Shared buffers count once
    /// per reference. O(number of buffers).
    ///
    /// ```
    /// use quiver_arrow::{Array, PrimitiveArray, StringArray};
    /// let ints = Array::from(PrimitiveArray::<i32>::from_options([Some(1), None, Some(3)]));
    /// assert_eq!(ints.buffer_bytes(), 1 + 3 * 4);
    /// let strings = Array::from(StringArray::from_options([Some("ab"), Some("cde")]));
    /// assert_eq!(strings.buffer_bytes(), 3 * 4 + 5);
    /// assert_eq!(strings.slice(1, 1).buffer_bytes(), 2 * 4 + 3);
    /// ```
    pub fn buffer_bytes(&self) -> usize {
        let validity = bitmap_bytes(self.validity());
        validity
            + crate::match_primitive!(self, p => typed(p.values()), _ => self.non_primitive_bytes())
    }

    fn non_primitive_bytes(&self) -> usize {
        match self {
            Array::Null(_) => 0,
            Array::Boolean(b) => b.len().div_ceil(8),
            Array::Binary(b) => offset_bytes(b.offsets()),
            Array::LargeBinary(b) => offset_bytes(b.offsets()),
            Array::Utf8(b) => offset_bytes(b.offsets()),
            Array::LargeUtf8(b) => offset_bytes(b.offsets()),
            Array::BinaryView(v) => {
                typed(v.views()) + v.data_buffers().iter().map(typed).sum::<usize>()
            }
            Array::Utf8View(v) => {
                typed(v.views()) + v.data_buffers().iter().map(typed).sum::<usize>()
            }
            Array::FixedSizeBinary(f) => typed(f.values()),
            Array::Dictionary(d) => {
                d.keys().buffer_bytes() - bitmap_bytes(d.keys().validity())
                    + d.values().buffer_bytes()
            }
            _ => self.nested_bytes(),
        }
    }

    fn nested_bytes(&self) -> usize {
        match self {
            Array::List(l) => list_bytes(l.offsets(), l.values()),
            Array::LargeList(l) => list_bytes(l.offsets(), l.values()),
            Array::Map(m) => list_bytes(m.offsets(), &Array::Struct(m.entries().clone())),
            Array::ListView(l) => typed(l.offsets()) + typed(l.sizes()) + l.values().buffer_bytes(),
            Array::LargeListView(l) => {
                typed(l.offsets()) + typed(l.sizes()) + l.values().buffer_bytes()
            }
            Array::FixedSizeList(l) => l.values().buffer_bytes(),
            Array::Struct(s) => s.columns().iter().map(Array::buffer_bytes).sum(),
            Array::Union(u) => {
                typed(u.type_ids())
                    + u.offsets().map_or(0, typed)
                    + u.children().iter().map(Array::buffer_bytes).sum::<usize>()
            }
            Array::RunEndEncoded(r) => r.run_ends().buffer_bytes() + r.values().buffer_bytes(),
            _ => 0,
        }
    }
}

fn bitmap_bytes(b: Option<&Bitmap>) -> usize {
    b.map_or(0, |b| b.len().div_ceil(8))
}

fn typed<T: NativeType>(b: &Buffer<T>) -> usize {
    std::mem::size_of_val(b.as_slice())
}

fn offset_bytes<O: Offset>(o: &OffsetBuffer<O>) -> usize {
    typed(o.buffer()) + (o.last().as_usize() - o.first().as_usize())
}

fn list_bytes<O: Offset>(o: &OffsetBuffer<O>, child: &Array) -> usize {
    let (start, end) = (o.first().as_usize(), o.last().as_usize());
    let child_bytes = if start == 0 && end == child.len() {
        child.buffer_bytes()
    } else {
        child.slice(start, end - start).buffer_bytes()
    };
    typed(o.buffer()) + child_bytes
}
