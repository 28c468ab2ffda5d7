//! The `ARROW:schema` key: the writer's Arrow schema (an IPC schema message, base64), from which
//! the types Parquet cannot express are restored the way Arrow C++ (pyarrow) restores them —
//! time zones, durations, dictionaries, 64-bit offsets and views, `Decimal256`, large and
//! fixed-size lists, and field metadata (extension types included). Anything else keeps the
//! type read from the Parquet schema.

use base64::Engine;
use quiver_arrow::datatype::{DataType, Field, Fields, Schema};
use quiver_arrow::{Error, Result};
use std::sync::Arc;

/// The key-value metadata key holding the Arrow schema.
pub const ARROW_SCHEMA_KEY: &str = "ARROW:schema";

/// The value of `ARROW:schema` for `schema`: the Arrow schema as an IPC schema message
/// (continuation marker, length, flatbuffer), base64 with padding, as Arrow C++ stores it.
/// The schema's own `ARROW:schema` key, if any, is left out.
pub fn encode_arrow_schema(mut schema: Schema) -> Result<String> {
    schema.metadata.remove(ARROW_SCHEMA_KEY);
    let bytes = quiver_ipc::IpcSchema::new(Arc::new(schema)).to_message_bytes()?;
    Ok(base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// `schema` with [`widen_keys`] applied to each field whose first Parquet leaf
/// `first_leaf` gives (from the field's index and the field), and the dotted paths of the fields widened; `None` when none is.
pub(crate) fn widen_schema_keys(
    schema: &Schema,
    first_leaf: impl Fn(usize, &Field) -> Option<usize>,
    dictionaries: &[(usize, bool)],
) -> Option<(Schema, Vec<String>)> {
    let mut widened = Vec::new();
    let fields: Vec<Arc<Field>> = schema
        .fields
        .iter()
        .enumerate()
        .map(|(i, f)| match first_leaf(i, f) {
            Some(mut leaf) => {
                let mut at = vec![f.name().to_string()];
                widen_keys(f, &mut leaf, dictionaries, &mut at, &mut widened)
            }
            None => f.clone(),
        })
        .collect();
    if widened.is_empty() {
        return None;
    }
    let mut out = Schema::new(fields);
    out.metadata = schema.metadata.clone();
    Some((out, widened))
}

/// `f` with int32 keys for each dictionary (at any depth) with int8/int16 keys that cannot
/// index its leaf's row groups (readers fail on such a file: pyarrow with 'Integer value 128
/// not in range') (`dictionaries[leaf]`: the most entries of a row group's
/// dictionary page, and whether some pages are not dictionary-encoded); `leaf` is the index of
/// `f`'s first Parquet leaf and moves past its leaves; `at` is its dotted path, and the paths
/// widened are added to `widened`.
fn widen_keys(
    f: &Arc<Field>,
    leaf: &mut usize,
    dictionaries: &[(usize, bool)],
    at: &mut Vec<String>,
    widened: &mut Vec<String>,
) -> Arc<Field> {
    let mut child = |c: &Arc<Field>, leaf: &mut usize, widened: &mut Vec<String>| {
        at.push(c.name().to_string());
        let w = widen_keys(c, leaf, dictionaries, at, widened);
        at.pop();
        w
    };
    let t = match f.data_type() {
        DataType::Dictionary {
            key,
            value,
            ordered,
        } => {
            let (entries, unknown) = dictionaries.get(*leaf).copied().unwrap_or((0, false));
            *leaf += 1;
            let overflows =
                key.bit_width() < 32 && (unknown || (entries > 0 && !key.holds(entries - 1)));
            if !overflows {
                return f.clone();
            }
            widened.push(at.join("."));
            DataType::Dictionary {
                key: quiver_arrow::IntegerType::Int32,
                value: value.clone(),
                ordered: *ordered,
            }
        }
        DataType::List(c) => DataType::List(child(c, leaf, widened)),
        DataType::LargeList(c) => DataType::LargeList(child(c, leaf, widened)),
        DataType::ListView(c) => DataType::ListView(child(c, leaf, widened)),
        DataType::LargeListView(c) => DataType::LargeListView(child(c, leaf, widened)),
        DataType::FixedSizeList(c, n) => DataType::FixedSizeList(child(c, leaf, widened), *n),
        DataType::Map(c, sorted) => DataType::Map(child(c, leaf, widened), *sorted),
        DataType::RunEndEncoded(ends, values) => {
            DataType::RunEndEncoded(ends.clone(), child(values, leaf, widened))
        }
        DataType::Struct(children) => {
            let children: Vec<Arc<Field>> =
                children.iter().map(|c| child(c, leaf, widened)).collect();
            DataType::Struct(children.into())
        }
        _ => {
            *leaf += 1;
            return f.clone();
        }
    };
    if &t == f.data_type() {
        return f.clone();
    }
    Arc::new(f.as_ref().clone().with_data_type(t))
}

/// Per Parquet leaf of `schema` (depth-first, as [`widen_keys`] walks them): how many
/// dictionary entries the keys of a dictionary there index (`None`: no dictionary).
pub(crate) fn leaf_key_capacities(schema: &Schema) -> Vec<Option<usize>> {
    fn walk(t: &DataType, out: &mut Vec<Option<usize>>) {
        match t {
            DataType::Dictionary { key, .. } => out.push(Some(
                usize::try_from(key.max_value()).map_or(usize::MAX, |m| m + 1),
            )),
            DataType::List(c)
            | DataType::LargeList(c)
            | DataType::ListView(c)
            | DataType::LargeListView(c)
            | DataType::FixedSizeList(c, _)
            | DataType::Map(c, _)
            | DataType::RunEndEncoded(_, c) => walk(c.data_type(), out),
            DataType::Struct(children) => {
                for c in children.iter() {
                    walk(c.data_type(), out);
                }
            }
            _ => out.push(None),
        }
    }
    let mut out = Vec::new();
    for f in schema.fields.iter() {
        walk(f.data_type(), &mut out);
    }
    out
}

/// Decodes the value of `ARROW:schema`.
pub fn decode_arrow_schema(value: &[u8]) -> Result<Schema> {
    let trimmed = value.trim_ascii();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(trimmed)
        .or_else(|_| base64::engine::general_purpose::STANDARD_NO_PAD.decode(trimmed))
        .map_err(|e| Error::oos(format!("{ARROW_SCHEMA_KEY} is not base64: {e}")))?;
    let ipc = quiver_ipc::IpcSchema::from_message_bytes(&bytes)
        .map_err(|e| e.context(ARROW_SCHEMA_KEY))?;
    Ok(Arc::unwrap_or_clone(ipc.schema))
}

/// `inferred` (read from the Parquet schema) with what `origin` (the writer's field) restores.
/// Returns whether the type became a dictionary (the reader then builds one).
pub fn restore(inferred: &Field, origin: &Field) -> Field {
    let t = restore_type(inferred.data_type(), origin.data_type());
    let mut metadata = origin.metadata().clone();
    // The file's own keys (the field id) win over the stored ones.
    metadata.extend(
        inferred
            .metadata()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone())),
    );
    inferred.clone().with_data_type(t).with_metadata(metadata)
}

fn restore_children(inferred: &Fields, origin: &Fields) -> Fields {
    if inferred.len() != origin.len() {
        return inferred.clone();
    }
    inferred
        .iter()
        .zip(origin.iter())
        .map(|(i, o)| restore(i, o))
        .collect()
}

fn restore_type(inferred: &DataType, origin: &DataType) -> DataType {
    use DataType as D;
    match (inferred, origin) {
        (D::Timestamp(unit, Some(tz)), D::Timestamp(_, Some(otz))) if &**tz == "UTC" => {
            D::Timestamp(*unit, Some(otz.clone()))
        }
        (D::Int64, D::Duration(_)) => origin.clone(),
        (
            D::Utf8 | D::Binary | D::LargeUtf8 | D::LargeBinary,
            D::Dictionary { key, ordered, .. },
        ) => D::Dictionary {
            key: *key,
            value: Arc::new(inferred.clone()),
            ordered: *ordered,
        },
        (D::Binary, D::LargeBinary | D::BinaryView) | (D::Utf8, D::LargeUtf8 | D::Utf8View) => {
            origin.clone()
        }
        (D::Decimal128 { precision, scale }, D::Decimal32 { .. }) if *precision <= 9 => {
            D::Decimal32 {
                precision: *precision,
                scale: *scale,
            }
        }
        (D::Decimal128 { precision, scale }, D::Decimal64 { .. }) if *precision <= 18 => {
            D::Decimal64 {
                precision: *precision,
                scale: *scale,
            }
        }
        (D::Decimal128 { precision, scale }, D::Decimal256 { .. }) => D::Decimal256 {
            precision: *precision,
            scale: *scale,
        },
        (D::List(item), D::List(oitem) | D::LargeList(oitem) | D::FixedSizeList(oitem, _)) => {
            let item = Arc::new(restore(item, oitem));
            match origin {
                D::LargeList(_) => D::LargeList(item),
                D::FixedSizeList(_, n) => D::FixedSizeList(item, *n),
                _ => D::List(item),
            }
        }
        (D::List(item), D::ListView(oitem)) => D::ListView(Arc::new(restore(item, oitem))),
        (D::List(item), D::LargeListView(oitem)) => {
            D::LargeListView(Arc::new(restore(item, oitem)))
        }
        (D::Struct(fields), D::Struct(ofields)) => D::Struct(restore_children(fields, ofields)),
        (D::Map(entries, _), D::Map(oentries, sorted)) => {
            D::Map(Arc::new(restore(entries, oentries)), *sorted)
        }
        _ => inferred.clone(),
    }
}
