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

/// `schema` with the dictionaries (at any depth) whose int8/int16 keys cannot index their
/// leaf's row groups given int32 keys (readers fail on such a file: pyarrow with 'Integer value
/// 128 not in range'), and the dotted paths of the fields widened; `None` when none is.
/// `first_leaf` gives the first Parquet leaf of each top-level field (from its index and the
/// field), `dictionaries[leaf]` the most entries of a row group's dictionary page there and
/// whether some pages are not dictionary-encoded.
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
                map_leaves(f, &mut at, &mut |t, at| {
                    let (entries, unknown) = dictionaries.get(leaf).copied().unwrap_or((0, false));
                    leaf += 1;
                    let DataType::Dictionary {
                        key,
                        value,
                        ordered,
                    } = t
                    else {
                        return None;
                    };
                    let overflows = key.bit_width() < 32
                        && (unknown || (entries > 0 && !key.holds(entries - 1)));
                    overflows.then(|| {
                        widened.push(at.join("."));
                        DataType::Dictionary {
                            key: quiver_arrow::IntegerType::Int32,
                            value: value.clone(),
                            ordered: *ordered,
                        }
                    })
                })
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

/// `f` with each of its types that a Parquet leaf stores (a dictionary, or a type that is not
/// nested) replaced by what `leaf` returns for it (`None`: kept), called on them depth-first,
/// in the order of their Parquet leaves, with the dotted path `at` (`f`'s on entry). The one
/// walk of how Arrow's nested types lie over Parquet leaves.
fn map_leaves(
    f: &Arc<Field>,
    at: &mut Vec<String>,
    leaf: &mut dyn FnMut(&DataType, &[String]) -> Option<DataType>,
) -> Arc<Field> {
    let mut child =
        |c: &Arc<Field>, leaf: &mut dyn FnMut(&DataType, &[String]) -> Option<DataType>| {
            at.push(c.name().to_string());
            let w = map_leaves(c, at, leaf);
            at.pop();
            w
        };
    let t = match f.data_type() {
        DataType::List(c) => DataType::List(child(c, leaf)),
        DataType::LargeList(c) => DataType::LargeList(child(c, leaf)),
        DataType::ListView(c) => DataType::ListView(child(c, leaf)),
        DataType::LargeListView(c) => DataType::LargeListView(child(c, leaf)),
        DataType::FixedSizeList(c, n) => DataType::FixedSizeList(child(c, leaf), *n),
        DataType::Map(c, sorted) => DataType::Map(child(c, leaf), *sorted),
        DataType::RunEndEncoded(ends, values) => {
            DataType::RunEndEncoded(ends.clone(), child(values, leaf))
        }
        DataType::Struct(children) => {
            let children: Vec<Arc<Field>> = children.iter().map(|c| child(c, leaf)).collect();
            DataType::Struct(children.into())
        }
        other => match leaf(other, at) {
            Some(t) => t,
            None => return f.clone(),
        },
    };
    if &t == f.data_type() {
        return f.clone();
    }
    Arc::new(f.as_ref().clone().with_data_type(t))
}

/// Per Parquet leaf of `schema` (depth-first, as [`widen_schema_keys`] walks them): how many
/// dictionary entries the keys of a dictionary there index (`None`: no dictionary).
pub(crate) fn leaf_key_capacities(schema: &Schema) -> Vec<Option<usize>> {
    let mut out = Vec::new();
    for f in schema.fields.iter() {
        map_leaves(f, &mut vec![f.name().to_string()], &mut |t, _| {
            out.push(match t {
                DataType::Dictionary { key, .. } => {
                    Some(usize::try_from(key.max_value()).map_or(usize::MAX, |m| m + 1))
                }
                _ => None,
            });
            None
        });
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
