//! Arrays to `FieldData` JSON: `name`, `count`, the buffers of the type's layout in the
//! layout's order (under the names of `members.rs`), the variadic buffers of the view types,
//! then `children`. The values of flat buffers are encoded by `write_flat.rs`.
//!
//! What the JSON cannot express is normalised without changing values: list and map offsets
//! are rebased to start at 0 with the child sliced to the range they use, and a sliced run-end
//! encoded array gets run ends relative to its slice.

use super::members::{CHILDREN, VARIADIC, member};
use super::value::Object;
use super::write_flat::{data, variadic_buffers, views};
use quiver_arrow::buffer::Offset;
use quiver_arrow::datatype::BufferKind;
use quiver_arrow::{Array, Bitmap, DataType, PrimitiveArray, RunEndArray};
use serde_json::{Map, Value};

/// The `FieldData` object of `a`, named `name`.
pub(crate) fn column(name: &str, a: &Array) -> Value {
    let mut o: Object = Map::new();
    o.insert("name".into(), name.into());
    o.insert("count".into(), a.len().into());
    let layout = a.data_type().layout();
    for &kind in layout.buffers {
        o.insert(member(kind).into(), buffer(a, kind));
    }
    if layout.variadic {
        o.insert(VARIADIC.into(), variadic_buffers(a));
    }
    let children: Vec<Value> = (layout.children.iter())
        .zip(children(a))
        .map(|(f, c)| column(f.name(), &c))
        .collect();
    // An empty `children` member trips some readers (ARROW-11483): only write a non-empty one.
    if !children.is_empty() {
        o.insert(CHILDREN.into(), Value::Array(children));
    }
    Value::Object(o)
}

/// The buffer of `kind` of `a` (`kind` from the layout of `a`'s type).
fn buffer(a: &Array, kind: BufferKind) -> Value {
    match kind {
        BufferKind::Validity => validity(a.validity(), a.len()),
        BufferKind::Values | BufferKind::Data => Value::Array(data(a).unwrap_or_default()),
        BufferKind::Indices => match a {
            Array::Dictionary(d) => Value::Array(data(d.keys()).unwrap_or_default()),
            _ => Value::Array(Vec::new()),
        },
        BufferKind::Offsets => offsets(a),
        BufferKind::Sizes => match a {
            Array::ListView(l) => numbers(l.sizes().as_slice(), false),
            Array::LargeListView(l) => numbers(l.sizes().as_slice(), false),
            _ => Value::Array(Vec::new()),
        },
        BufferKind::Views => views(a),
        BufferKind::TypeIds => match a {
            Array::Union(u) => Value::Array(u.type_ids().iter().map(Value::from).collect()),
            _ => Value::Array(Vec::new()),
        },
    }
}

/// `VALIDITY` as 1s and 0s (all 1s when there is no bitmap).
fn validity(bitmap: Option<&Bitmap>, len: usize) -> Value {
    Value::Array(match bitmap {
        Some(b) => b.iter().map(|v| Value::from(u8::from(v))).collect(),
        None => vec![Value::from(1u8); len],
    })
}

/// The offsets of `a`: rebased to start at 0 where they delimit values or list items, as they
/// are for list views and dense unions.
fn offsets(a: &Array) -> Value {
    match a {
        Array::Binary(b) => numbers(b.offsets().as_slice(), true),
        Array::LargeBinary(b) => numbers(b.offsets().as_slice(), true),
        Array::Utf8(s) => numbers(s.offsets().as_slice(), true),
        Array::LargeUtf8(s) => numbers(s.offsets().as_slice(), true),
        Array::List(l) => numbers(l.offsets().as_slice(), true),
        Array::LargeList(l) => numbers(l.offsets().as_slice(), true),
        Array::Map(m) => numbers(m.offsets().as_slice(), true),
        Array::ListView(l) => numbers(l.offsets().as_slice(), false),
        Array::LargeListView(l) => numbers(l.offsets().as_slice(), false),
        Array::Union(u) => numbers(u.offsets().map_or(&[][..], |o| o.as_slice()), false),
        _ => Value::Array(Vec::new()),
    }
}

/// Offsets (or sizes) as numbers for 32-bit, strings for 64-bit; `rebase` subtracts the first.
fn numbers<O: Offset>(offsets: &[O], rebase: bool) -> Value {
    let base = if rebase {
        offsets.first().map_or(0, |f| f.to_i64())
    } else {
        0
    };
    let values = offsets
        .iter()
        .map(|x| {
            let v = x.to_i64() - base;
            if O::IS_LARGE {
                Value::String(v.to_string())
            } else {
                Value::from(v)
            }
        })
        .collect();
    Value::Array(values)
}

/// The child arrays of `a` in the order of its layout's children, as written: the items a list
/// or map's offsets use, and the runs a run-end encoded array's slice covers.
fn children(a: &Array) -> Vec<Array> {
    match a {
        Array::List(l) => vec![used(l.offsets().as_slice(), l.values())],
        Array::LargeList(l) => vec![used(l.offsets().as_slice(), l.values())],
        Array::Map(m) => {
            let entries = Array::Struct(m.entries().clone());
            vec![used(m.offsets().as_slice(), &entries)]
        }
        Array::ListView(l) => vec![l.values().clone()],
        Array::LargeListView(l) => vec![l.values().clone()],
        Array::FixedSizeList(l) => vec![l.values().clone()],
        Array::Struct(s) => s.columns().to_vec(),
        Array::Union(u) => u.children().to_vec(),
        Array::RunEndEncoded(r) => run_end_encoded(r),
        _ => Vec::new(),
    }
}

/// The range of `values` that `offsets` use.
fn used<O: Offset>(offsets: &[O], values: &Array) -> Array {
    let first = offsets.first().map_or(0, |x| x.as_usize());
    let last = offsets.last().map_or(0, |x| x.as_usize());
    if first == 0 && last == values.len() {
        values.clone()
    } else {
        values.slice(first, last - first)
    }
}

/// The run ends and values of the runs a (possibly sliced) run-end encoded array covers,
/// with run ends relative to the slice.
fn run_end_encoded(r: &RunEndArray) -> Vec<Array> {
    let DataType::RunEndEncoded(ends_field, _) = r.data_type() else {
        return Vec::new();
    };
    let ends: Vec<i64> = match r.run_ends() {
        Array::I16(p) => p.values().iter().map(i64::from).collect(),
        Array::I32(p) => p.values().iter().map(i64::from).collect(),
        Array::I64(p) => p.values().to_vec(),
        _ => Vec::new(),
    };
    let (ends, values) = if r.is_empty() {
        (Vec::new(), r.values().slice(0, 0))
    } else {
        let (first, last) = (r.physical_index(0), r.physical_index(r.len() - 1));
        let (offset, len) = (r.offset() as i64, r.len() as i64);
        let ends = ends[first..=last]
            .iter()
            .map(|e| (e - offset).min(len))
            .collect();
        (ends, r.values().slice(first, last - first + 1))
    };
    // Each end is in `1..=len` and the original end fits the type, so the casts are exact.
    let ends = match ends_field.data_type() {
        DataType::Int16 => PrimitiveArray::<i16>::new(to::<i16>(&ends)).into(),
        DataType::Int32 => PrimitiveArray::<i32>::new(to::<i32>(&ends)).into(),
        _ => PrimitiveArray::<i64>::new(ends).into(),
    };
    vec![ends, values]
}

fn to<T: TryFrom<i64> + Default>(ends: &[i64]) -> Vec<T> {
    ends.iter()
        .map(|&e| T::try_from(e).unwrap_or_default())
        .collect()
}
