//! [`take`]: the rows of an array at given indices, in that order, as a new array.
//!
//! Primitive, boolean, offset-based binary and string, and fixed-size binary arrays are
//! gathered value by value; structs take each child. Every other layout (lists, maps, views,
//! dictionaries, unions, run-end encoded) is cut into slices of consecutive indices that
//! [`concat`](super::concat()) joins: correct for any type, fast when the indices come in runs.

use super::concat;
use crate::array::{
    Array, BooleanArray, FixedSizeBinaryArray, GenericBinaryArray, GenericStringArray,
    PrimitiveArray, PrimitiveType, StructArray,
};
use crate::buffer::{Bitmap, MutableBitmap, MutableBuffer, Offset, OffsetBuffer};
use crate::{Error, Result};

/// The rows of `array` at `indices` (each below `array.len()`), in the order given.
///
/// ```
/// use quiver_arrow::array::{Array, StringArray};
/// use quiver_arrow::compute::take;
/// let a = Array::from(StringArray::from_options([Some("x"), None, Some("z")]));
/// let t = take(&a, &[2, 2, 1, 0])?;
/// assert_eq!(t, Array::from(StringArray::from_options([Some("z"), Some("z"), None, Some("x")])));
/// # Ok::<(), quiver_arrow::Error>(())
/// ```
pub fn take(array: &Array, indices: &[usize]) -> Result<Array> {
    if let Some(&bad) = indices.iter().find(|&&i| i >= array.len()) {
        return Err(Error::invalid(format!(
            "take: index {bad} is out of bounds for {} rows",
            array.len()
        )));
    }
    Ok(match array {
        Array::Boolean(a) => Array::from(take_boolean(a, indices)?),
        Array::Binary(a) => Array::from(take_binary(a, indices)?),
        Array::LargeBinary(a) => Array::from(take_binary(a, indices)?),
        Array::Utf8(a) => Array::from(take_string(a, indices)?),
        Array::LargeUtf8(a) => Array::from(take_string(a, indices)?),
        Array::FixedSizeBinary(a) => Array::from(take_fixed(a, indices)?),
        Array::Struct(a) => Array::from(take_struct(a, indices)?),
        Array::I8(a) => Array::from(take_primitive(a, indices)?),
        Array::I16(a) => Array::from(take_primitive(a, indices)?),
        Array::I32(a) => Array::from(take_primitive(a, indices)?),
        Array::I64(a) => Array::from(take_primitive(a, indices)?),
        Array::U8(a) => Array::from(take_primitive(a, indices)?),
        Array::U16(a) => Array::from(take_primitive(a, indices)?),
        Array::U32(a) => Array::from(take_primitive(a, indices)?),
        Array::U64(a) => Array::from(take_primitive(a, indices)?),
        Array::F16(a) => Array::from(take_primitive(a, indices)?),
        Array::F32(a) => Array::from(take_primitive(a, indices)?),
        Array::F64(a) => Array::from(take_primitive(a, indices)?),
        Array::I128(a) => Array::from(take_primitive(a, indices)?),
        Array::I256(a) => Array::from(take_primitive(a, indices)?),
        Array::DaysMs(a) => Array::from(take_primitive(a, indices)?),
        Array::MonthDayNano(a) => Array::from(take_primitive(a, indices)?),
        other => take_by_runs(other, indices)?,
    })
}

/// The validity of the taken rows (`None` when none is null).
fn take_validity(validity: Option<&Bitmap>, indices: &[usize]) -> Option<Bitmap> {
    let v = validity.filter(|v| v.unset_bits() > 0)?;
    let mut out = MutableBitmap::with_capacity(indices.len());
    for &i in indices {
        out.push(v.get(i));
    }
    (out.unset_bits() > 0).then(|| out.freeze())
}

fn take_primitive<T: PrimitiveType>(
    a: &PrimitiveArray<T>,
    indices: &[usize],
) -> Result<PrimitiveArray<T>> {
    let v = a.values().as_slice();
    let values: Vec<T> = indices.iter().map(|&i| v[i]).collect();
    PrimitiveArray::try_new(
        a.data_type().clone(),
        values.into(),
        take_validity(a.validity(), indices),
    )
}

fn take_boolean(a: &BooleanArray, indices: &[usize]) -> Result<BooleanArray> {
    let mut values = MutableBitmap::with_capacity(indices.len());
    for &i in indices {
        values.push(a.value(i));
    }
    BooleanArray::try_new(values.freeze(), take_validity(a.validity(), indices))
}

/// The offsets and bytes of the taken values.
fn gather_bytes<'a, O: Offset>(
    indices: &[usize],
    value: impl Fn(usize) -> &'a [u8],
) -> Result<(OffsetBuffer<O>, MutableBuffer)> {
    let total: usize = indices.iter().map(|&i| value(i).len()).sum();
    let mut bytes = MutableBuffer::with_capacity(total);
    for &i in indices {
        bytes.extend_from_slice(value(i));
    }
    let offsets = OffsetBuffer::from_lengths(indices.iter().map(|&i| value(i).len()))?;
    Ok((offsets, bytes))
}

fn take_binary<O: Offset>(
    a: &GenericBinaryArray<O>,
    indices: &[usize],
) -> Result<GenericBinaryArray<O>> {
    let (offsets, bytes) = gather_bytes(indices, |i| a.value(i))?;
    GenericBinaryArray::try_new(offsets, bytes.into(), take_validity(a.validity(), indices))
}

fn take_string<O: Offset>(
    a: &GenericStringArray<O>,
    indices: &[usize],
) -> Result<GenericStringArray<O>> {
    let b = a.as_binary();
    let (offsets, bytes) = gather_bytes(indices, |i| b.value(i))?;
    // Whole values of a valid string array are UTF-8; try_new checks it again (SIMD).
    GenericStringArray::try_new(offsets, bytes.into(), take_validity(a.validity(), indices))
}

fn take_fixed(a: &FixedSizeBinaryArray, indices: &[usize]) -> Result<FixedSizeBinaryArray> {
    let mut bytes = MutableBuffer::with_capacity(a.size() * indices.len());
    for &i in indices {
        bytes.extend_from_slice(a.value(i));
    }
    let size = i32::try_from(a.size()).map_err(|_| Error::overflow("fixed-size binary width"))?;
    FixedSizeBinaryArray::try_new(
        size,
        indices.len(),
        bytes.into(),
        take_validity(a.validity(), indices),
    )
}

fn take_struct(a: &StructArray, indices: &[usize]) -> Result<StructArray> {
    let children = a
        .columns()
        .iter()
        .map(|c| take(c, indices))
        .collect::<Result<Vec<_>>>()?;
    StructArray::try_new(
        a.fields().clone(),
        indices.len(),
        children,
        take_validity(a.validity(), indices),
    )
}

/// Any layout: slices of consecutive indices, concatenated.
fn take_by_runs(array: &Array, indices: &[usize]) -> Result<Array> {
    let mut slices = Vec::new();
    let mut k = 0;
    while k < indices.len() {
        let start = indices[k];
        let mut len = 1;
        while k + len < indices.len() && indices[k + len] == start + len {
            len += 1;
        }
        slices.push(array.slice(start, len));
        k += len;
    }
    if slices.is_empty() {
        return Ok(array.slice(0, 0));
    }
    let refs: Vec<&Array> = slices.iter().collect();
    concat(&refs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::{ListBuilder, PrimitiveBuilder};
    use crate::datatype::{DataType, Field};

    /// Checks `take` against slot-by-slot slices: row k of the result equals row
    /// `indices[k]` of the input (logical equality of one-row slices).
    fn check(array: &Array, indices: &[usize]) {
        let t = take(array, indices).unwrap();
        assert_eq!(t.len(), indices.len());
        assert_eq!(t.data_type(), array.data_type());
        t.validate(crate::ValidationLevel::Full).unwrap();
        for (k, &i) in indices.iter().enumerate() {
            assert_eq!(t.slice(k, 1), array.slice(i, 1), "row {k} (index {i})");
        }
    }

    const INDICES: [usize; 9] = [3, 0, 0, 4, 1, 2, 3, 4, 4];

    #[test]
    fn flat_layouts() {
        check(
            &Array::from(PrimitiveArray::from_options([
                Some(1i64),
                None,
                Some(3),
                Some(-4),
                None,
            ])),
            &INDICES,
        );
        check(
            &Array::from(PrimitiveArray::<f64>::new(vec![
                0.5,
                1.5,
                -2.0,
                f64::NAN,
                9.0,
            ])),
            &INDICES,
        );
        check(
            &Array::from(BooleanArray::from_options([
                Some(true),
                None,
                Some(false),
                Some(true),
                Some(false),
            ])),
            &INDICES,
        );
        let words = [Some("alpha"), None, Some(""), Some("ünï"), Some("zz")];
        check(
            &Array::from(GenericStringArray::<i32>::from_options(words)),
            &INDICES,
        );
        check(
            &Array::from(GenericStringArray::<i64>::from_options(words)),
            &INDICES,
        );
        let bytes = words.map(|w| w.map(str::as_bytes));
        check(
            &Array::from(GenericBinaryArray::<i32>::from_options(bytes)),
            &INDICES,
        );
        let fixed = FixedSizeBinaryArray::try_new(
            2,
            5,
            vec![1u8, 2, 3, 4, 5, 6, 7, 8, 9, 10].into(),
            Some(Bitmap::from_iter([true, true, false, true, true])),
        )
        .unwrap();
        check(&Array::from(fixed), &INDICES);
        // A slice takes its own rows.
        let a = Array::from(PrimitiveArray::<i32>::new((0..20).collect::<Vec<_>>()));
        let t = take(&a.slice(10, 5), &[4, 0]).unwrap();
        assert_eq!(t, Array::from(PrimitiveArray::<i32>::new(vec![14, 10])));
        check(&a, &[]);
    }

    #[test]
    fn nested_layouts() {
        let mut b = ListBuilder::new(PrimitiveBuilder::<i32>::new());
        for row in 0..5 {
            if row == 2 {
                b.append(false);
                continue;
            }
            for v in 0..row {
                b.values().append_value(v * 10 + row);
            }
            b.append(true);
        }
        let list = Array::from(b.finish());
        check(&list, &INDICES);
        check(&list, &[0, 1, 2, 3, 4]);
        let ints = Array::from(PrimitiveArray::from_options([
            Some(1i32),
            None,
            Some(3),
            Some(4),
            Some(5),
        ]));
        let fields: crate::datatype::Fields = vec![
            Field::new("l", list.data_type().clone(), true),
            Field::new("i", DataType::Int32, true),
        ]
        .into();
        let st = StructArray::try_new(
            fields,
            5,
            vec![list, ints],
            Some(Bitmap::from_iter([true, false, true, true, true])),
        )
        .unwrap();
        check(&Array::from(st), &INDICES);
    }

    #[test]
    fn out_of_bounds_is_an_error() {
        let a = Array::from(PrimitiveArray::<i32>::new(vec![1, 2]));
        let e = take(&a, &[0, 2]).unwrap_err();
        assert!(
            e.to_string()
                .contains("index 2 is out of bounds for 2 rows"),
            "{e}"
        );
    }
}
