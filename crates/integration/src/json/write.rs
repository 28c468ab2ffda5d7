//! Arrays to `FieldData` JSON: `name`, `count`, the buffers of the layout, `children`.
//!
//! What the JSON cannot express is normalised without changing values: list and map offsets
//! are rebased to start at 0 with the child sliced to the range they use, and a sliced run-end
//! encoded array gets run ends relative to its slice.

use super::value::Object;
use super::write_flat::{data, views};
use quiver_arrow::buffer::Offset;
use quiver_arrow::{Array, Bitmap, DataType, FieldRef, RunEndArray};
use serde_json::{Map, Value};

/// The `FieldData` object of `a`, named `name`.
pub(crate) fn column(name: &str, a: &Array) -> Value {
    let mut o: Object = Map::new();
    o.insert("name".into(), name.into());
    o.insert("count".into(), a.len().into());
    if a.data_type().has_validity_bitmap() {
        o.insert("VALIDITY".into(), validity(a.validity(), a.len()));
    }
    match a {
        Array::BinaryView(v) => put_views(&mut o, v, false),
        Array::Utf8View(v) => put_views(&mut o, v.as_binary(), true),
        Array::Binary(b) => put_offsets(&mut o, "OFFSET", b.offsets().as_slice(), true),
        Array::LargeBinary(b) => put_offsets(&mut o, "OFFSET", b.offsets().as_slice(), true),
        Array::Utf8(s) => put_offsets(&mut o, "OFFSET", s.offsets().as_slice(), true),
        Array::LargeUtf8(s) => put_offsets(&mut o, "OFFSET", s.offsets().as_slice(), true),
        Array::Dictionary(d) => {
            o.insert(
                "DATA".into(),
                Value::Array(data(d.keys()).unwrap_or_default()),
            );
        }
        _ => nested(&mut o, a),
    }
    if let Some(values) = data(a) {
        o.insert("DATA".into(), Value::Array(values));
    }
    Value::Object(o)
}

fn nested(o: &mut Object, a: &Array) {
    let children = match a {
        Array::List(l) => list(o, l.offsets().as_slice(), l.field(), l.values()),
        Array::LargeList(l) => list(o, l.offsets().as_slice(), l.field(), l.values()),
        Array::ListView(l) => {
            put_offsets(o, "OFFSET", l.offsets().as_slice(), false);
            put_offsets(o, "SIZE", l.sizes().as_slice(), false);
            vec![column(l.field().name(), l.values())]
        }
        Array::LargeListView(l) => {
            put_offsets(o, "OFFSET", l.offsets().as_slice(), false);
            put_offsets(o, "SIZE", l.sizes().as_slice(), false);
            vec![column(l.field().name(), l.values())]
        }
        Array::FixedSizeList(l) => vec![column(l.field().name(), l.values())],
        Array::Struct(s) => columns(s.fields(), s.columns()),
        Array::Map(m) => {
            let entries = Array::Struct(m.entries().clone());
            list(o, m.offsets().as_slice(), m.entries_field(), &entries)
        }
        Array::Union(u) => {
            let ids = u.type_ids().iter().map(Value::from).collect();
            o.insert("TYPE_ID".into(), Value::Array(ids));
            if let Some(offsets) = u.offsets() {
                let offsets = offsets.iter().map(Value::from).collect();
                o.insert("OFFSET".into(), Value::Array(offsets));
            }
            columns(u.fields().fields(), u.children())
        }
        Array::RunEndEncoded(r) => run_end_encoded(r),
        _ => Vec::new(),
    };
    // An empty `children` member trips some readers (ARROW-11483): only write a non-empty one.
    if !children.is_empty() {
        o.insert("children".into(), Value::Array(children));
    }
}

fn columns(fields: &[FieldRef], arrays: &[Array]) -> Vec<Value> {
    fields
        .iter()
        .zip(arrays)
        .map(|(f, a)| column(f.name(), a))
        .collect()
}

/// `VALIDITY` as 1s and 0s (all 1s when there is no bitmap).
fn validity(bitmap: Option<&Bitmap>, len: usize) -> Value {
    Value::Array(match bitmap {
        Some(b) => b.iter().map(|v| Value::from(u8::from(v))).collect(),
        None => vec![Value::from(1u8); len],
    })
}

/// Offsets (or sizes) as numbers for 32-bit, strings for 64-bit; `rebase` subtracts the first.
fn put_offsets<O: Offset>(o: &mut Object, key: &str, offsets: &[O], rebase: bool) {
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
    o.insert(key.into(), Value::Array(values));
}

/// A list-like layout: rebased offsets and the used range of the child.
fn list<O: Offset>(o: &mut Object, offsets: &[O], field: &FieldRef, values: &Array) -> Vec<Value> {
    put_offsets(o, "OFFSET", offsets, true);
    let first = offsets.first().map_or(0, |x| x.as_usize());
    let last = offsets.last().map_or(0, |x| x.as_usize());
    let child = if first == 0 && last == values.len() {
        values.clone()
    } else {
        values.slice(first, last - first)
    };
    vec![column(field.name(), &child)]
}

fn put_views(o: &mut Object, a: &quiver_arrow::BinaryViewArray, utf8: bool) {
    let (views, buffers) = views(a, utf8);
    o.insert("VIEWS".into(), views);
    o.insert("VARIADIC_DATA_BUFFERS".into(), buffers);
}

/// The run ends and values of the runs a (possibly sliced) run-end encoded array covers,
/// with run ends relative to the slice.
fn run_end_encoded(r: &RunEndArray) -> Vec<Value> {
    let DataType::RunEndEncoded(ends_field, values_field) = r.data_type() else {
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
    let large = matches!(ends_field.data_type(), DataType::Int64);
    let mut o: Object = Map::new();
    o.insert("name".into(), ends_field.name().into());
    o.insert("count".into(), ends.len().into());
    o.insert("VALIDITY".into(), validity(None, ends.len()));
    let data = ends
        .iter()
        .map(|&e| {
            if large {
                Value::String(e.to_string())
            } else {
                Value::from(e)
            }
        })
        .collect();
    o.insert("DATA".into(), Value::Array(data));
    vec![Value::Object(o), column(values_field.name(), &values)]
}
