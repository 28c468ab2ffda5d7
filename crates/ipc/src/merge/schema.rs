//! Whether an input has the first input's schema: the first differing field by path, the
//! dictionary ids matched by field path, and the metadata kept from the first input.

use super::report::{MetadataConflict, MetadataScope};
use crate::schema::{IpcSchema, ipc_children};
use quiver_arrow::display::format_type;
use quiver_arrow::{DataType, Error, Field, Metadata, Result};
use std::collections::HashMap;

/// Checks that `other` has the fields of `first` (names, types, nullability, field metadata,
/// dictionary encodings) and the same byte order; returns the dictionary id `other` uses for
/// each id of `first`, matched by field path. Fields sharing an id in one schema must share
/// one in the other.
pub(super) fn check_same(first: &IpcSchema, other: &IpcSchema) -> Result<HashMap<i64, i64>> {
    if first.endianness != other.endianness {
        return Err(Error::invalid(format!(
            "the data is {:?}-endian but the first input's is {:?}-endian",
            other.endianness, first.endianness
        )));
    }
    let (a, b) = (&first.schema.fields, &other.schema.fields);
    for (i, (x, y)) in a.iter().zip(b.iter()).enumerate() {
        if let Some((path, what)) = first_difference(x, y) {
            return Err(Error::invalid(format!(
                "field {path} (column {i}) differs from the first input's: {what}"
            )));
        }
    }
    if a.len() != b.len() {
        let extra = match b.get(a.len()) {
            Some(f) => format!("; its first extra field is {}", f.name()),
            None => format!("; it lacks field {}", a[b.len()].name()),
        };
        return Err(Error::invalid(format!(
            "the schema has {} fields but the first input's has {}{extra}",
            b.len(),
            a.len()
        )));
    }
    id_map(first, other)
}

/// Where and how two fields first differ (outermost field first, then its children in order):
/// the path of names joined by `.` and what differs.
fn first_difference(a: &Field, b: &Field) -> Option<(String, String)> {
    if a == b {
        return None;
    }
    let own = if a.name() != b.name() {
        Some(format!(
            "named {:?} here but {:?} there",
            b.name(),
            a.name()
        ))
    } else if a.is_nullable() != b.is_nullable() {
        Some(format!(
            "nullable is {} here but {} there",
            b.is_nullable(),
            a.is_nullable()
        ))
    } else if a.metadata() != b.metadata() {
        Some(format!(
            "field metadata {:?} here but {:?} there",
            b.metadata(),
            a.metadata()
        ))
    } else {
        None
    };
    let type_difference = || {
        format!(
            "type {} here but {} there",
            format_type(b.data_type()),
            format_type(a.data_type())
        )
    };
    let found = match own {
        Some(what) => what,
        None if same_kind(a.data_type(), b.data_type()) => {
            let (ca, cb) = (ipc_children(a.data_type()), ipc_children(b.data_type()));
            let child = (ca.len() == cb.len())
                .then(|| ca.iter().zip(&cb).find_map(|(x, y)| first_difference(x, y)))
                .flatten();
            match child {
                Some((path, what)) => return Some((format!("{}.{path}", a.name()), what)),
                None => type_difference(),
            }
        }
        None => type_difference(),
    };
    Some((a.name().to_string(), found))
}

/// True when two types differ at most in their children: the same variant (and for
/// dictionaries the same key type, order flag and kind of values).
fn same_kind(a: &DataType, b: &DataType) -> bool {
    match (a, b) {
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
        ) => ka == kb && oa == ob && std::mem::discriminant(&**va) == std::mem::discriminant(&**vb),
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

/// For each dictionary id of `first`, the id `other` uses at the same field paths.
fn id_map(first: &IpcSchema, other: &IpcSchema) -> Result<HashMap<i64, i64>> {
    let mut out_to_in: HashMap<i64, (i64, &[usize])> = HashMap::new();
    let mut in_to_out: HashMap<i64, (i64, &[usize])> = HashMap::new();
    for (path, out_id) in first.dictionaries.iter() {
        let in_id = other.dictionaries.id_at(path).ok_or_else(|| {
            Error::oos(format!(
                "the dictionary-encoded field at path {path:?} has no dictionary id"
            ))
        })?;
        let shared = |seen: Option<&(i64, &[usize])>, id: i64| match seen {
            Some(&(prev, p)) if prev != id => Err(Error::invalid(format!(
                "the fields at paths {p:?} and {path:?} share a dictionary in one input but \
                 not in the other (dictionary ids {prev} and {id})"
            ))),
            _ => Ok(()),
        };
        shared(out_to_in.get(&out_id), in_id)?;
        shared(in_to_out.get(&in_id), out_id)?;
        out_to_in.insert(out_id, (in_id, path));
        in_to_out.insert(in_id, (out_id, path));
    }
    Ok(out_to_in.into_iter().map(|(o, (i, _))| (o, i)).collect())
}

/// Records every key whose value in `other` (of input `input`) differs from `first`'s,
/// a key missing on either side included.
pub(super) fn metadata_conflicts(
    input: &str,
    scope: MetadataScope,
    first: &Metadata,
    other: &Metadata,
    out: &mut Vec<MetadataConflict>,
) {
    let keys = first
        .keys()
        .chain(other.keys().filter(|k| !first.contains_key(*k)));
    for key in keys {
        let (kept, dropped) = (first.get(key), other.get(key));
        if kept != dropped {
            out.push(MetadataConflict {
                input: input.to_string(),
                scope,
                key: key.clone(),
                kept: kept.cloned(),
                dropped: dropped.cloned(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quiver_arrow::{IntegerType, Schema};
    use std::sync::Arc;

    fn schema(fields: Vec<Field>) -> IpcSchema {
        IpcSchema::new(Arc::new(Schema::new(fields)))
    }

    fn error(a: Vec<Field>, b: Vec<Field>) -> String {
        check_same(&schema(a), &schema(b)).unwrap_err().to_string()
    }

    fn item_struct(x: DataType) -> DataType {
        let s = DataType::Struct(
            vec![
                Field::new("x", x, true),
                Field::new("y", DataType::Utf8, true),
            ]
            .into(),
        );
        DataType::list_of(s)
    }

    #[test]
    fn the_first_differing_field_is_named_by_path() {
        let f = |dt| {
            vec![
                Field::new("a", DataType::Int8, true),
                Field::new("l", dt, true),
            ]
        };
        assert_eq!(
            error(
                f(item_struct(DataType::Int32)),
                f(item_struct(DataType::Int64))
            ),
            "invalid argument: field l.item.x (column 1) differs from the first input's: \
             type int64 here but int32 there"
        );
        let large = DataType::LargeList(Arc::new(Field::new("item", DataType::Int32, true)));
        assert_eq!(
            error(f(DataType::list_of(DataType::Int32)), f(large)),
            "invalid argument: field l (column 1) differs from the first input's: \
             type large_list<item: int32> here but list<item: int32> there"
        );
        let nullable = vec![Field::new("a", DataType::Int8, false)];
        assert!(
            error(f(DataType::Int8), nullable).contains("field a (column 0) differs from the first input's: nullable is false here but true there"),
        );
        let e = error(
            f(DataType::Int8),
            vec![Field::new("a", DataType::Int8, true)],
        );
        assert!(
            e.ends_with("the schema has 1 fields but the first input's has 2; it lacks field l"),
            "{e}"
        );
        let meta = Field::new("a", DataType::Int8, true)
            .with_metadata([("k".to_string(), "v".to_string())].into());
        assert!(error(f(DataType::Int8), vec![meta]).contains("field a (column 0) differs from the first input's: field metadata {\"k\": \"v\"} here but {} there"));
    }

    #[test]
    fn dictionary_encoding_and_key_type_differences_are_found() {
        let d = |key| DataType::dictionary(key, DataType::Utf8);
        let e = error(
            vec![Field::new("d", d(IntegerType::Int32), true)],
            vec![Field::new("d", d(IntegerType::Int8), true)],
        );
        assert!(e.contains("field d (column 0) differs"), "{e}");
        assert!(
            e.contains("dictionary<values=string, indices=int8, ordered=0> here"),
            "{e}"
        );
        let e = error(
            vec![Field::new("d", d(IntegerType::Int32), true)],
            vec![Field::new("d", DataType::Utf8, true)],
        );
        assert!(e.contains("type string here but dictionary"), "{e}");
    }

    #[test]
    fn ids_are_matched_by_path() {
        let d = DataType::dictionary(IntegerType::Int32, DataType::Utf8);
        let fields = vec![Field::new("a", d.clone(), true), Field::new("b", d, true)];
        let first = schema(fields.clone());
        let mut other = schema(fields);
        other.dictionaries.insert(vec![0], 7);
        other.dictionaries.insert(vec![1], 3);
        let map = check_same(&first, &other).unwrap();
        assert_eq!(map, HashMap::from([(0, 7), (1, 3)]));
        other.dictionaries.insert(vec![1], 7);
        let e = check_same(&first, &other).unwrap_err().to_string();
        assert!(
            e.contains("share a dictionary in one input but not in the other"),
            "{e}"
        );
    }

    #[test]
    fn metadata_conflicts_keep_the_first() {
        let m = |kv: &[(&str, &str)]| -> Metadata {
            kv.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let mut out = Vec::new();
        let first = m(&[("a", "1"), ("b", "2")]);
        let other = m(&[("a", "1"), ("b", "3"), ("c", "4")]);
        metadata_conflicts("x", MetadataScope::Schema, &first, &other, &mut out);
        let got: Vec<_> = out
            .iter()
            .map(|c| (c.key.as_str(), c.kept.as_deref(), c.dropped.as_deref()))
            .collect();
        assert_eq!(got, [("b", Some("2"), Some("3")), ("c", None, Some("4"))]);
    }
}
