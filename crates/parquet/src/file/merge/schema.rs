//! The schema of a merged file: the first input's top-level fields in its order, then the
//! fields only later inputs have, in the order they first appear. A field an input has must
//! be the same subtree as the output's (names, physical types, repetitions, annotations);
//! a field an input lacks must be optional or repeated at the top level, and its leaves are
//! written as nulls (or empty lists) for that input's rows. Anything else is an error naming
//! the input and the field.
//!
//! Field ids (`field_id`, Iceberg's column identity) must agree where both inputs have one:
//! the same field with two ids, or one id on two fields of the merged schema (a column renamed
//! in one input), is an error, since the merged file would give one column's values another
//! column's identity. An element gets the id of the first input that gives it one, so inputs
//! without ids (or with ids on some fields only) merge with those that have them.

use super::Input;
use crate::arrow::options::ReadOptions;
use crate::arrow::physical::SortOrder;
use crate::arrow::restore::{ARROW_SCHEMA_KEY, encode_arrow_schema, widen_schema_keys};
use crate::arrow::types::{extension, leaf_type};
use crate::format::{ColumnOrder, FieldRepetitionType, KeyValue, SchemaElement, Type};
use crate::schema::SchemaDescriptor;
use quiver_arrow::datatype::{DataType, Field, Schema};
use quiver_arrow::{Error, Result};

/// The merged schema and how each input's leaves map onto it.
#[derive(Debug)]
pub(super) struct MergedSchema<'a> {
    /// The schema elements, depth-first, the root first.
    pub elements: Vec<SchemaElement<'a>>,
    /// Per input, per output leaf: the input's leaf, or `None` when the input lacks the field.
    pub maps: Vec<Vec<Option<usize>>>,
    /// Per output leaf: the order its statistics compare in.
    pub orders: Vec<SortOrder>,
    /// Per output leaf: the column order of the input it was first found in.
    pub column_orders: Vec<ColumnOrder>,
    /// Per output leaf: the path, dotted, for messages.
    pub paths: Vec<String>,
    /// Per output leaf: maximum definition and repetition levels.
    pub levels: Vec<(i16, i16)>,
    /// Per output leaf: the physical type.
    pub physical: Vec<Type>,
    /// Per output leaf: the width of FIXED_LEN_BYTE_ARRAY values (0 for other types).
    pub type_lengths: Vec<usize>,
    /// Per output leaf: its path (`path_in_schema`).
    pub paths_in_schema: Vec<Vec<String>>,
    /// Fields taken from an input after the first (their names).
    pub appended: Vec<String>,
}

/// The index just past node `i`'s subtree in the depth-first element list.
fn subtree_end(descr: &SchemaDescriptor<'_>, i: usize) -> usize {
    match descr.node(i).children.last() {
        Some(&last) => subtree_end(descr, last),
        None => i + 1,
    }
}

/// The top-level field named `name` (an error when the name is there twice).
fn field_by_name(descr: &SchemaDescriptor<'_>, name: &str, input: &str) -> Result<Option<usize>> {
    let mut found = descr
        .fields()
        .iter()
        .copied()
        .filter(|&f| descr.node(f).name == name);
    let first = found.next();
    if found.next().is_some() {
        return Err(Error::invalid(format!(
            "{input}: two top-level fields are named {name:?}; fields are matched by name"
        )));
    }
    Ok(first)
}

/// Whether two elements' annotations mean different things. Leaves compare by the Arrow type
/// they read as (`arrow::types`, the one mapping of logical and converted types: an INT64
/// with `INT_64` and one without are the same, a `UTF8` and a `String` too, timestamps of
/// another unit or UTC flag are not); groups by whether they are a list, a map or a struct.
fn annotations_differ(a: &SchemaElement<'_>, b: &SchemaElement<'_>) -> bool {
    use crate::format::{ConvertedType as C, LogicalType as L};
    if a.is_leaf() {
        let o = ReadOptions::default();
        return match (leaf_type(a, &o), leaf_type(b, &o)) {
            (Ok(x), Ok(y)) => x != y || extension(a) != extension(b),
            _ => (a.logical_type, a.converted_type) != (b.logical_type, b.converted_type),
        };
    }
    let kind = |e: &SchemaElement<'_>| match (e.logical_type, e.converted_type) {
        (Some(L::List), _) | (None, Some(C::LIST)) => 1,
        (Some(L::Map), _) | (None, Some(C::MAP | C::MAP_KEY_VALUE)) => 2,
        _ => 0,
    };
    kind(a) != kind(b)
}

/// How `b` differs from `a` (two elements at the same place of two subtrees), if it does.
fn difference(a: &SchemaElement<'_>, b: &SchemaElement<'_>) -> Option<String> {
    let children = |e: &SchemaElement<'_>| {
        if e.is_leaf() {
            0
        } else {
            e.num_children.unwrap_or(0)
        }
    };
    if a.name != b.name {
        return Some(format!("a field named {:?} where {:?} is", b.name, a.name));
    }
    let decimal = |e: &SchemaElement<'_>| {
        matches!(
            e.logical_type,
            Some(crate::format::LogicalType::Decimal { .. })
        ) || e.converted_type == Some(crate::format::ConvertedType::DECIMAL)
    };
    // A decimal stored another way (FIXED_LEN_BYTE_ARRAY against INT64, say) is the same
    // column: its values are converted (`convert`); its annotation must still agree.
    let storage = |e: &SchemaElement<'_>| {
        let width = e
            .type_length
            .and_then(|l| usize::try_from(l).ok())
            .unwrap_or(0);
        e.type_
            .filter(|_| decimal(e))
            .and_then(|t| super::convert::Storage::of(t, width))
    };
    let converted = storage(a).is_some() && storage(b).is_some();
    let what = if a.type_ != b.type_ && !converted {
        Some(format!("physical type {:?} against {:?}", b.type_, a.type_))
    } else if a.type_length != b.type_length
        && !converted
        && a.type_.is_some_and(|t| t.name() == "FIXED_LEN_BYTE_ARRAY")
    {
        Some(format!(
            "type_length {:?} against {:?}",
            b.type_length, a.type_length
        ))
    } else if a.repetition_type != b.repetition_type {
        Some(format!(
            "repetition {:?} against {:?}",
            b.repetition_type.map(|r| r.name()),
            a.repetition_type.map(|r| r.name())
        ))
    } else if children(a) != children(b) {
        Some(format!("{} children against {}", children(b), children(a)))
    } else if annotations_differ(a, b) {
        Some(format!(
            "annotation {:?}/{:?} (scale {:?}, precision {:?}) against {:?}/{:?} (scale {:?}, precision {:?})",
            b.logical_type,
            b.converted_type.map(|c| c.name()),
            b.scale,
            b.precision,
            a.logical_type,
            a.converted_type.map(|c| c.name()),
            a.scale,
            a.precision,
        ))
    } else {
        None
    };
    what.map(|w| format!("field {:?}: {w}", a.name))
}

/// Builds the merged schema of `inputs` (at least one).
pub(super) fn merge_schema<'a>(inputs: &[Input<'a>]) -> Result<MergedSchema<'a>> {
    let first = &inputs[0];
    let fdescr = first.meta.schema_descr();
    // (input, field node) of each output field.
    let mut fields: Vec<(usize, usize)> = fdescr.fields().iter().map(|&f| (0, f)).collect();
    let mut appended = Vec::new();
    for (j, input) in inputs.iter().enumerate().skip(1) {
        let d = input.meta.schema_descr();
        for &f in d.fields() {
            let name = d.node(f).name;
            let known = fields
                .iter()
                .any(|&(i, g)| inputs[i].meta.schema_descr().node(g).name == name);
            if !known {
                fields.push((j, f));
                appended.push(name.to_string());
            }
        }
    }
    let mut elements = Vec::with_capacity(first.meta.schema().len());
    let mut root = first.meta.schema()[0].clone();
    root.num_children =
        Some(i32::try_from(fields.len()).map_err(|_| Error::invalid("too many fields"))?);
    elements.push(root);
    for &(i, f) in &fields {
        let d = inputs[i].meta.schema_descr();
        elements.extend_from_slice(&inputs[i].meta.schema()[f..subtree_end(d, f)]);
    }
    let descr = SchemaDescriptor::new(&elements)?;
    let leaves = descr.columns().len();
    let mut maps = Vec::with_capacity(inputs.len());
    // The input each output field comes from.
    let sources: Vec<&str> = fields
        .iter()
        .map(|&(i, _)| inputs[i].name.as_str())
        .collect();
    // Per input, the field id it gives each output element (where it has the element).
    let mut ids = Vec::with_capacity(inputs.len());
    for input in inputs {
        let mut input_ids = vec![None; elements.len()];
        maps.push(map_input(
            input,
            &descr,
            &elements,
            &sources,
            &mut input_ids,
        )?);
        ids.push(input_ids);
    }
    let tops = top_names(&descr, elements.len());
    let mut orders = Vec::with_capacity(leaves);
    let mut column_orders = Vec::with_capacity(leaves);
    for (c, col) in descr.columns().iter().enumerate() {
        let e = &elements[*col.nodes.last().unwrap_or(&0)];
        orders.push(SortOrder::of_element(e));
        let (j, leaf) = maps
            .iter()
            .enumerate()
            .find_map(|(j, m)| m[c].map(|l| (j, l)))
            .unwrap_or((0, c));
        let order = inputs[j]
            .meta
            .file()
            .column_orders
            .as_ref()
            .and_then(|o| o.get(leaf).copied())
            .unwrap_or(ColumnOrder::TypeDefined);
        column_orders.push(order);
    }
    let paths = descr.columns().iter().map(|c| c.dotted_path()).collect();
    let levels = descr
        .columns()
        .iter()
        .map(|c| (c.max_def(), c.max_rep()))
        .collect();
    let physical = descr.columns().iter().map(|c| c.physical).collect();
    let type_lengths = descr.columns().iter().map(|c| c.type_length).collect();
    let paths_in_schema = descr
        .columns()
        .iter()
        .map(|c| c.path.iter().map(|p| p.to_string()).collect())
        .collect();
    let tops: Vec<String> = tops.into_iter().map(str::to_string).collect();
    drop(descr);
    resolve_field_ids(inputs, &ids, &tops, &mut elements)?;
    Ok(MergedSchema {
        elements,
        maps,
        orders,
        column_orders,
        paths,
        levels,
        physical,
        type_lengths,
        paths_in_schema,
        appended,
    })
}

/// ` ("element" within it)` for an element below top-level field `top`, else nothing.
fn within(top: &str, element: &str) -> String {
    if top == element {
        String::new()
    } else {
        format!(" ({element:?} within it)")
    }
}

/// The top-level field name of each of the `n` elements (the root's is empty).
fn top_names<'a>(descr: &SchemaDescriptor<'a>, n: usize) -> Vec<&'a str> {
    let mut tops = vec![""; n];
    for &f in descr.fields() {
        for t in &mut tops[f..subtree_end(descr, f)] {
            *t = descr.node(f).name;
        }
    }
    tops
}

/// Gives each output element the field id the first input with one gives it, after checking
/// that the inputs agree: an element with two ids (different columns under one name), or one
/// id on two elements (one column under two names, a rename), is an error naming both inputs.
/// `ids[j][e]`: the id input `j` gives element `e`; `tops[e]`: its top-level field's name.
fn resolve_field_ids(
    inputs: &[Input<'_>],
    ids: &[Vec<Option<i32>>],
    tops: &[String],
    elements: &mut [SchemaElement<'_>],
) -> Result<()> {
    // Element index → (id, the input it came from).
    let mut chosen: Vec<Option<(i32, usize)>> = vec![None; elements.len()];
    for (j, input_ids) in ids.iter().enumerate() {
        for (e, id) in input_ids.iter().enumerate() {
            let Some(id) = *id else { continue };
            match chosen[e] {
                None => chosen[e] = Some((id, j)),
                Some((x, i)) if x != id => {
                    return Err(Error::invalid(format!(
                        "{}: field {:?}{} has field id {id}, while {} gives it field id {x}; \
                         field ids identify columns, so these are different columns under one \
                         name",
                        inputs[j].name,
                        tops[e],
                        within(&tops[e], elements[e].name),
                        inputs[i].name
                    )));
                }
                Some(_) => {}
            }
        }
    }
    let mut owner: std::collections::HashMap<i32, (usize, usize)> =
        std::collections::HashMap::new();
    for (e, c) in chosen.iter().enumerate() {
        let Some((id, j)) = *c else { continue };
        if let Some(&(other, i)) = owner.get(&id) {
            // Two elements of one input with one id are that input's own business.
            if i != j {
                return Err(Error::invalid(format!(
                    "{}: field {:?}{} has field id {id}, which {} gives to field {:?}{}; field \
                     ids identify columns, so one column is under two names (renamed?)",
                    inputs[j].name,
                    tops[e],
                    within(&tops[e], elements[e].name),
                    inputs[i].name,
                    tops[other],
                    within(&tops[other], elements[other].name)
                )));
            }
            continue;
        }
        owner.insert(id, (e, j));
    }
    for (el, c) in elements.iter_mut().zip(&chosen) {
        if el.field_id.is_none() {
            el.field_id = c.map(|(id, _)| id);
        }
    }
    Ok(())
}

/// For each output leaf, `input`'s leaf (`None` where the input lacks the top-level field),
/// after checking that every field it has is the output's.
fn map_input(
    input: &Input<'_>,
    out: &SchemaDescriptor<'_>,
    out_elements: &[SchemaElement<'_>],
    sources: &[&str],
    ids: &mut [Option<i32>],
) -> Result<Vec<Option<usize>>> {
    let d = input.meta.schema_descr();
    let elements = input.meta.schema();
    let mut map = vec![None; out.columns().len()];
    for (k, &of) in out.fields().iter().enumerate() {
        let name = out.node(of).name;
        let out_range = of..subtree_end(out, of);
        let Some(f) = field_by_name(d, name, &input.name)? else {
            let rep = out_elements[of].repetition_type;
            if rep == Some(FieldRepetitionType::REQUIRED) {
                return Err(Error::invalid(format!(
                    "{}: lacks the field {name:?}, which is required (not nullable) in {}: \
                     only optional fields may be missing",
                    input.name, sources[k]
                )));
            }
            continue;
        };
        let in_range = f..subtree_end(d, f);
        if in_range.len() != out_range.len() {
            return Err(Error::invalid(format!(
                "{}: field {name:?} has {} schema nodes, the merged schema's has {}",
                input.name,
                in_range.len(),
                out_range.len()
            )));
        }
        for ((a, b), id) in out_elements[out_range.clone()]
            .iter()
            .zip(&elements[in_range])
            .zip(&mut ids[out_range])
        {
            if let Some(diff) = difference(a, b) {
                return Err(Error::invalid(format!(
                    "{}: field {name:?} differs from the merged schema's: {diff}",
                    input.name
                )));
            }
            *id = b.field_id;
        }
        for (o, i) in out.column_range(of).zip(d.column_range(f)) {
            map[o] = Some(i);
        }
    }
    Ok(map)
}

/// A key and its value, owned.
pub(super) type KeyValuePair = (Vec<u8>, Option<Vec<u8>>);

/// A conflict between inputs' key-value metadata: the key, and the input whose value was
/// not kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetadataConflict {
    /// The key.
    pub key: String,
    /// The input whose value differs from the one kept (the first input's that has the key).
    pub input: String,
}

/// The merged key-value metadata: every key of every input in the order first seen, the
/// first value of each kept; `ARROW:schema` is the first input's unless fields were
/// appended, when it is rebuilt from each field's input. Returns the pairs and the conflicts.
pub(super) fn merge_key_values(
    inputs: &[Input<'_>],
    schema: &MergedSchema<'_>,
) -> Result<(Vec<KeyValuePair>, Vec<MetadataConflict>)> {
    let mut kv: Vec<KeyValuePair> = Vec::new();
    let mut conflicts = Vec::new();
    let mut arrow_schemas: Vec<Option<Schema>> = Vec::with_capacity(inputs.len());
    // Each input's ARROW:schema as stored: inputs written alike store the same bytes, so a
    // value the input before stored too is not decoded again.
    let mut stored: Vec<Option<&[u8]>> = Vec::with_capacity(inputs.len());
    for input in inputs {
        let mut own = None;
        let mut raw = None;
        for KeyValue { key, value } in input.meta.file().key_value_metadata.iter().flatten() {
            if *key == ARROW_SCHEMA_KEY.as_bytes() {
                raw = *value;
                own = match (value, stored.last(), arrow_schemas.last()) {
                    (Some(v), Some(Some(before)), Some(decoded)) if v == before => decoded.clone(),
                    _ => value
                        .map(crate::arrow::restore::decode_arrow_schema)
                        .transpose()
                        .ok()
                        .flatten(),
                };
            }
            match kv.iter().find(|(k, _)| k == key) {
                None => kv.push((key.to_vec(), value.map(<[u8]>::to_vec))),
                Some((_, v)) if v.as_deref() == *value => {}
                Some(_) if *key == ARROW_SCHEMA_KEY.as_bytes() => {}
                Some(_) => conflicts.push(MetadataConflict {
                    key: String::from_utf8_lossy(key).into_owned(),
                    input: input.name.clone(),
                }),
            }
        }
        arrow_schemas.push(own);
        stored.push(raw);
    }
    // ARROW:schema: the Arrow schemas must agree on the fields they share. The first one is
    // kept, so another may differ only where the kept type reads the other input's stored
    // values as its own type does (string and list layouts, dictionary encoding, metadata).
    let kept = arrow_schemas
        .iter()
        .enumerate()
        .find_map(|(i, s)| s.as_ref().map(|s| (i, s)));
    if let Some((kept_at, kept)) = kept {
        for ((input, s), raw) in inputs.iter().zip(&arrow_schemas).zip(&stored) {
            if raw.is_some() && *raw == stored[kept_at] {
                // The kept schema's own bytes: the same fields, read alike.
                continue;
            }
            // An input without an ARROW:schema reads its fields as its Parquet schema says,
            // and the kept one would apply to its values all the same.
            let read = match s {
                Some(_) => None,
                None => Some(input_arrow_schema(input)?),
            };
            for f in s
                .as_ref()
                .or(read.as_ref())
                .iter()
                .flat_map(|s| s.fields.iter())
            {
                let Some(k) = kept.fields.iter().find(|k| k.name() == f.name()) else {
                    continue;
                };
                if !reads_alike(k, f) {
                    let own = if s.is_some() {
                        "in its Arrow schema (ARROW:schema)"
                    } else {
                        "as its Parquet schema reads (it has no ARROW:schema)"
                    };
                    return Err(Error::invalid(format!(
                        "{}: field {:?} is {} {own} but {} in the Arrow schema of {}, which \
                         the merged file keeps: its values would read as other values",
                        input.name,
                        f.name(),
                        quiver_arrow::display::format_type(f.data_type()),
                        quiver_arrow::display::format_type(k.data_type()),
                        inputs[kept_at].name
                    )));
                }
            }
            let differs = s.as_ref().is_some_and(|s| {
                s.fields
                    .iter()
                    .any(|f| kept.fields.iter().any(|k| k.name() == f.name() && k != f))
            });
            if differs {
                conflicts.push(MetadataConflict {
                    key: ARROW_SCHEMA_KEY.to_string(),
                    input: input.name.clone(),
                });
            }
        }
    }
    if kept.is_some() && !schema.appended.is_empty() {
        let value = rebuilt_arrow_schema(inputs, &arrow_schemas, schema)?;
        match kv
            .iter_mut()
            .find(|(k, _)| k == ARROW_SCHEMA_KEY.as_bytes())
        {
            Some((_, v)) => *v = Some(value.into_bytes()),
            None => kv.push((
                ARROW_SCHEMA_KEY.as_bytes().to_vec(),
                Some(value.into_bytes()),
            )),
        }
    }
    Ok((kv, conflicts))
}

/// Whether Arrow field `kept`, restored over values stored as field `other` stores them (the
/// two inputs' Parquet schemas being the same), reads them as `other` does: the types may
/// differ only in their string, binary and list layouts (large, view), in dictionary
/// encoding and in the zone of zoned timestamps, at any depth, and extension types must be
/// the same. Units, fixed sizes, decimal precisions and the rest change values or what they
/// mean.
fn reads_alike(kept: &Field, other: &Field) -> bool {
    kept.extension_type() == other.extension_type()
        && types_read_alike(kept.data_type(), other.data_type())
}

fn types_read_alike(a: &DataType, b: &DataType) -> bool {
    use DataType as T;
    let strings = |t: &DataType| matches!(t, T::Utf8 | T::LargeUtf8 | T::Utf8View);
    let binaries = |t: &DataType| matches!(t, T::Binary | T::LargeBinary | T::BinaryView);
    let list_item = |t: &DataType| match t {
        T::List(f) | T::LargeList(f) | T::ListView(f) | T::LargeListView(f) => Some(f.clone()),
        _ => None,
    };
    // Dictionary encoding aside: the values' types.
    fn values(t: &DataType) -> &DataType {
        match t {
            DataType::Dictionary { value, .. } => value,
            other => other,
        }
    }
    match (a, b) {
        _ if a == b => true,
        (T::Dictionary { .. }, _) | (_, T::Dictionary { .. }) => {
            types_read_alike(values(a), values(b))
        }
        // Instants both (isAdjustedToUTC), in the same unit: the zone names how to show them.
        (T::Timestamp(u, Some(_)), T::Timestamp(v, Some(_))) => u == v,
        _ if strings(a) && strings(b) => true,
        _ if binaries(a) && binaries(b) => true,
        (T::FixedSizeList(x, n), T::FixedSizeList(y, m)) => n == m && reads_alike(x, y),
        (T::Struct(x), T::Struct(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(x, y)| x.name() == y.name() && reads_alike(x, y))
        }
        (T::Map(x, _), T::Map(y, _)) => reads_alike(x, y),
        _ => match (list_item(a), list_item(b)) {
            (Some(x), Some(y)) => reads_alike(&x, &y),
            _ => false,
        },
    }
}

/// `kv` with its `ARROW:schema` rewritten where a top-level dictionary field's keys are
/// narrower than 32 bits and the merged file's values would not fit them: a row group's
/// dictionary page of more entries than they index, or data pages not dictionary-encoded
/// (their distinct values unknown), as `dictionaries` says per leaf (most entries, any such
/// page). Those keys become int32 (the values read the same; otherwise no reader could
/// read the file). The rewritten metadata and the fields widened; `None` when nothing is.
pub(super) fn widen_dictionary_keys(
    kv: &[KeyValuePair],
    schema: &MergedSchema<'_>,
    dictionaries: &[(usize, bool)],
) -> Result<Option<(Vec<KeyValuePair>, Vec<String>)>> {
    let Some(at) = kv
        .iter()
        .position(|(k, _)| k == ARROW_SCHEMA_KEY.as_bytes())
    else {
        return Ok(None);
    };
    let Some(Ok(stored)) = kv[at]
        .1
        .as_deref()
        .map(crate::arrow::restore::decode_arrow_schema)
    else {
        return Ok(None);
    };
    // The output's leaves of a field follow one another from its first (depth-first, as
    // the Arrow type's leaves do).
    let first_leaf = |_: usize, f: &Field| {
        schema
            .paths_in_schema
            .iter()
            .position(|p| p.first().is_some_and(|n| n == f.name()))
    };
    let Some((out, widened)) = widen_schema_keys(&stored, first_leaf, dictionaries) else {
        return Ok(None);
    };
    let value = encode_arrow_schema(out)?;
    let mut kv = kv.to_vec();
    kv[at].1 = Some(value.into_bytes());
    Ok(Some((kv, widened)))
}

/// The `ARROW:schema` value of the merged schema: each output field as the input it came
/// from reads it (its stored Arrow field, or the type read from its Parquet schema).
fn rebuilt_arrow_schema(
    inputs: &[Input<'_>],
    stored: &[Option<Schema>],
    schema: &MergedSchema<'_>,
) -> Result<String> {
    let descr = SchemaDescriptor::new(&schema.elements)?;
    let mut fields = Vec::with_capacity(descr.fields().len());
    let mut metadata = None;
    for &of in descr.fields() {
        let name = descr.node(of).name;
        let mut found = None;
        for (input, s) in inputs.iter().zip(stored) {
            if let Some(f) = s
                .as_ref()
                .and_then(|s| s.fields.iter().find(|f| f.name() == name))
            {
                metadata.get_or_insert_with(|| s.as_ref().map(|s| s.metadata.clone()));
                found = Some(f.clone());
                break;
            }
            if field_by_name(input.meta.schema_descr(), name, &input.name)?.is_some() {
                let read = input_arrow_schema(input)?;
                found = read.fields.iter().find(|f| f.name() == name).cloned();
                break;
            }
        }
        fields.push(found.ok_or_else(|| {
            Error::invalid(format!("no input gives an Arrow type for field {name:?}"))
        })?);
    }
    let mut out = Schema::new(fields);
    if let Some(Some(m)) = metadata {
        out.metadata = m;
    }
    encode_arrow_schema(out)
}

/// The Arrow schema the reader gives `input`.
fn input_arrow_schema(input: &Input<'_>) -> Result<Schema> {
    let kv: Vec<(&[u8], Option<&[u8]>)> = input
        .meta
        .file()
        .key_value_metadata
        .iter()
        .flatten()
        .map(|kv| (kv.key, kv.value))
        .collect();
    let a = crate::arrow::arrow_schema(
        input.meta.schema_descr(),
        input.meta.schema(),
        &kv,
        &ReadOptions::default(),
    )
    .map_err(|e| e.context(&input.name))?;
    Ok(a.schema)
}
