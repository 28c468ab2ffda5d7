//! Comparing what a reader produced with the expected (JSON) data, the way the Arrow
//! integration tester does: schemas field by field, batches column by column, naming the
//! batch, column and first differing index on mismatch.
//!
//! Map types are compared without their entry/key/value field names: the format calls the
//! canonical names `entries`/`key`/`value` but other names are legal, and implementations
//! (including the official gold streams) do not preserve them.

use quiver_arrow::compute::first_difference;
use quiver_arrow::{Array, DataType, Field, FieldRef, MapArray, RecordBatch, Schema, StructArray};

/// True when two types are equal, ignoring the field names inside map types.
pub(crate) fn types_equivalent(a: &DataType, b: &DataType) -> bool {
    match (a, b) {
        (DataType::Map(ea, sa), DataType::Map(eb, sb)) => {
            sa == sb && ea.is_nullable() == eb.is_nullable() && {
                let (ka, kb) = (map_children(ea), map_children(eb));
                ka.len() == kb.len()
                    && ka.iter().zip(&kb).all(|(x, y)| {
                        x.is_nullable() == y.is_nullable()
                            && x.metadata() == y.metadata()
                            && types_equivalent(x.data_type(), y.data_type())
                    })
            }
        }
        (
            DataType::Dictionary {
                key: ka,
                value: va,
                ordered: oa,
            },
            DataType::Dictionary {
                key: kb,
                value: vb,
                ordered: ob,
            },
        ) => ka == kb && oa == ob && types_equivalent(va, vb),
        _ if std::mem::discriminant(a) == std::mem::discriminant(b) && a.is_nested() => {
            let (ca, cb) = (a.children(), b.children());
            ca.len() == cb.len()
                && ca.iter().zip(&cb).all(|(x, y)| fields_equivalent(x, y))
                && a == &with_children(a, &cb)
        }
        _ => a == b,
    }
}

fn map_children(entries: &Field) -> Vec<FieldRef> {
    entries.data_type().children()
}

/// `dt` with its child fields replaced by `children` (same count), so that two nested types
/// can be compared on everything but their children.
fn with_children(dt: &DataType, children: &[FieldRef]) -> DataType {
    let mut it = children.iter().cloned();
    match dt {
        DataType::List(_) => DataType::List(it.next().expect("one child")), // ok: one child.
        DataType::LargeList(_) => DataType::LargeList(it.next().expect("one child")), // ok: one child.
        DataType::ListView(_) => DataType::ListView(it.next().expect("one child")), // ok: one child.
        DataType::LargeListView(_) => DataType::LargeListView(it.next().expect("one child")), // ok: one child.
        DataType::FixedSizeList(_, n) => DataType::FixedSizeList(it.next().expect("one child"), *n), // ok: one child.
        DataType::Struct(_) => DataType::Struct(children.to_vec().into()),
        DataType::Union(u, mode) => DataType::Union(
            quiver_arrow::UnionFields::try_new(u.type_ids().to_vec(), children.to_vec())
                .expect("same ids"), // ok: same ids.
            *mode,
        ),
        other => other.clone(),
    }
}

/// Field equality with [`types_equivalent`] for the type.
pub(crate) fn fields_equivalent(a: &Field, b: &Field) -> bool {
    a.name() == b.name()
        && a.is_nullable() == b.is_nullable()
        && a.metadata() == b.metadata()
        && types_equivalent(a.data_type(), b.data_type())
}

/// Compares schemas; the error names the first differing field.
pub fn compare_schemas(expected: &Schema, actual: &Schema) -> Result<(), String> {
    if expected.fields.len() != actual.fields.len() {
        return Err(format!(
            "schema has {} fields, expected {}",
            actual.fields.len(),
            expected.fields.len()
        ));
    }
    for (i, (e, a)) in expected.fields.iter().zip(actual.fields.iter()).enumerate() {
        if !fields_equivalent(e, a) {
            return Err(format!("schema field {i}: expected {e}, found {a}"));
        }
    }
    if expected.metadata != actual.metadata {
        return Err(format!(
            "schema metadata differs: expected {:?}, found {:?}",
            expected.metadata, actual.metadata
        ));
    }
    Ok(())
}

/// Compares two sequences of batches: count, rows, then every column with
/// [`first_difference`]. The error reads e.g. `batch 2, column 1 ("b"): index 7: 3 vs 4`.
pub fn compare_batches(expected: &[RecordBatch], actual: &[RecordBatch]) -> Result<(), String> {
    if expected.len() != actual.len() {
        return Err(format!(
            "{} batches, expected {}",
            actual.len(),
            expected.len()
        ));
    }
    for (b, (e, a)) in expected.iter().zip(actual).enumerate() {
        if e.num_rows() != a.num_rows() {
            return Err(format!(
                "batch {b}: {} rows, expected {}",
                a.num_rows(),
                e.num_rows()
            ));
        }
        if e.num_columns() != a.num_columns() {
            return Err(format!(
                "batch {b}: {} columns, expected {}",
                a.num_columns(),
                e.num_columns()
            ));
        }
        for (c, (ec, ac)) in e.columns().iter().zip(a.columns()).enumerate() {
            let name = e.schema().fields[c].name();
            let ac = rename_like(ac, ec.data_type()).unwrap_or_else(|| ac.clone());
            if let Some(d) = first_difference(ec, &ac) {
                return Err(format!("batch {b}, column {c} (\"{name}\"): {d}"));
            }
        }
    }
    Ok(())
}

/// `array` under `target` when the two types are [`types_equivalent`] but differ in map
/// field names (maps at any depth of lists, fixed-size lists and structs); `None` otherwise.
fn rename_like(array: &Array, target: &DataType) -> Option<Array> {
    if array.data_type() == target || !types_equivalent(array.data_type(), target) {
        return None;
    }
    match (array, target) {
        (Array::Map(m), DataType::Map(entries_field, sorted)) => {
            let DataType::Struct(kv) = entries_field.data_type() else {
                return None;
            };
            let entries = m.entries();
            let children: Vec<Array> = entries
                .columns()
                .iter()
                .zip(kv.iter())
                .map(|(c, f)| rename_like(c, f.data_type()).unwrap_or_else(|| c.clone()))
                .collect();
            let entries = StructArray::try_new(
                kv.clone(),
                entries.len(),
                children,
                entries.validity().cloned(),
            )
            .ok()?;
            let map = MapArray::try_new(
                entries_field.clone(),
                *sorted,
                m.offsets().clone(),
                entries,
                m.validity().cloned(),
            );
            map.ok().map(Array::Map)
        }
        (Array::List(l), DataType::List(f)) => {
            let values =
                rename_like(l.values(), f.data_type()).unwrap_or_else(|| l.values().clone());
            quiver_arrow::ListArray::try_new(
                f.clone(),
                l.offsets().clone(),
                values,
                l.validity().cloned(),
            )
            .ok()
            .map(Array::List)
        }
        (Array::Struct(s), DataType::Struct(fields)) => {
            let children: Vec<Array> = s
                .columns()
                .iter()
                .zip(fields.iter())
                .map(|(c, f)| rename_like(c, f.data_type()).unwrap_or_else(|| c.clone()))
                .collect();
            StructArray::try_new(fields.clone(), s.len(), children, s.validity().cloned())
                .ok()
                .map(Array::Struct)
        }
        _ => None,
    }
}
