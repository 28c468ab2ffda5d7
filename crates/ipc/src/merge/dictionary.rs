//! The merged dictionaries: for every input and dictionary id, how the input's dictionary
//! relates to the one merged so far, the dictionary batches to write, and the index mapping
//! of the inputs whose record batches need re-encoding.
//!
//! The merged dictionary of an id only ever grows, so the indices of every record batch
//! written before stay valid: the file format's readers apply all dictionary batches, deltas
//! in footer order, before decoding any record batch.

use super::input::Input;
use super::report::{DictionaryAction, DictionaryMerge};
use crate::compression::Codec;
use crate::schema::{IpcSchema, field_at};
use quiver_arrow::builder::DictionaryBuilder;
use quiver_arrow::compute::{concat, logical_eq, take};
use quiver_arrow::{Array, DataType, Error, IntegerType, Result};
use std::collections::HashMap;
use std::sync::Arc;

/// One dictionary batch to write.
#[derive(Debug)]
pub(super) struct Emit {
    /// The output's id.
    pub(super) id: i64,
    /// The values: the whole dictionary, or a delta's new values.
    pub(super) values: Array,
    /// True for a delta.
    pub(super) is_delta: bool,
    /// Compression of the body (the input's, for its dictionaries).
    pub(super) codec: Option<Codec>,
}

/// What one input brings.
#[derive(Debug, Default)]
pub(super) struct InputPlan {
    /// Dictionary batches to write before its record batches, nested dictionaries first.
    pub(super) emits: Vec<Emit>,
    /// For the ids whose indices change: the merged index of each of the input's values.
    pub(super) remaps: HashMap<i64, Vec<usize>>,
    /// What was done, id by id, for the report.
    pub(super) events: Vec<DictionaryMerge>,
}

/// A dictionary id of the output and what the merge needs to know about it.
struct Slot {
    id: i64,
    /// Field names of its first path, joined by `.`.
    label: String,
    key: IntegerType,
    /// True when the field lies in another dictionary's values (its indices are in that
    /// dictionary's batches, not in record batches).
    nested: bool,
}

/// Plans the dictionary batches of merging `inputs` (already checked to have the schema
/// `schema`, the first input's), input by input. Every input with record batches has a
/// dictionary for every id, so every id that record batches use gets one.
pub(super) fn plan(schema: &IpcSchema, inputs: &[Input<'_>]) -> Result<Vec<InputPlan>> {
    let slots = slots(schema)?;
    let mut merged: HashMap<i64, Arc<Array>> = HashMap::new();
    let mut plans = Vec::with_capacity(inputs.len());
    for input in inputs {
        let mut p = InputPlan::default();
        for slot in &slots {
            step(slot, input, &mut merged, &mut p)
                .map_err(|e| e.context(format!("dictionary {} (field {})", slot.id, slot.label)))
                .map_err(|e| e.context(format!("input \"{}\"", input.name)))?;
        }
        plans.push(p);
    }
    Ok(plans)
}

/// The ids of `schema`, each once, those in other dictionaries' values first (they must be
/// read before the dictionaries whose values use them).
fn slots(schema: &IpcSchema) -> Result<Vec<Slot>> {
    let types = schema.dictionaries.value_types(&schema.schema)?;
    let mut slots = Vec::with_capacity(types.len());
    for (id, (_, path)) in types {
        let field = field_at(&schema.schema, &path)
            .ok_or_else(|| Error::oos(format!("dictionary {id}: no field at path {path:?}")))?;
        let DataType::Dictionary { key, .. } = field.data_type() else {
            return Err(Error::oos(format!(
                "dictionary {id}: field {path:?} is not one"
            )));
        };
        let nested = (1..path.len()).any(|n| schema.dictionaries.id_at(&path[..n]).is_some());
        let label = (1..=path.len())
            .filter_map(|n| field_at(&schema.schema, &path[..n]))
            .map(|f| f.name().to_string())
            .collect::<Vec<_>>()
            .join(".");
        slots.push((
            path.len(),
            Slot {
                id,
                label,
                key: *key,
                nested,
            },
        ));
    }
    slots.sort_by_key(|(depth, s)| (std::cmp::Reverse(*depth), s.id));
    Ok(slots.into_iter().map(|(_, s)| s).collect())
}

/// How an input's dictionary relates to the merged one.
enum Relation {
    /// Equal, or a prefix of it.
    Within,
    /// The merged one is its prefix.
    Extends,
    /// Neither.
    Differs,
}

fn relation(merged: &Array, input: &Array) -> Relation {
    let n = merged.len().min(input.len());
    if !logical_eq(&merged.slice(0, n), &input.slice(0, n)) {
        Relation::Differs
    } else if input.len() <= merged.len() {
        Relation::Within
    } else {
        Relation::Extends
    }
}

/// Merges `input`'s dictionary of `slot` into `merged`, adding to the input's plan.
fn step(
    slot: &Slot,
    input: &Input<'_>,
    merged: &mut HashMap<i64, Arc<Array>>,
    plan: &mut InputPlan,
) -> Result<()> {
    let Some(values) = input
        .ids
        .get(&slot.id)
        .and_then(|i| input.dictionaries.get(i))
    else {
        return Ok(());
    };
    let codec = input
        .ids
        .get(&slot.id)
        .and_then(|i| input.dictionary_codecs.get(i));
    let codec = codec.copied().flatten();
    let mut emit = |values: Array, is_delta: bool| {
        let added = values.len();
        plan.emits.push(Emit {
            id: slot.id,
            values,
            is_delta,
            codec,
        });
        added
    };
    let (action, added) = match merged.get(&slot.id) {
        None => (
            DictionaryAction::First,
            emit(values.as_ref().clone(), false),
        ),
        Some(m) => match relation(m, values) {
            Relation::Within => (DictionaryAction::Same, 0),
            Relation::Extends => {
                let new = values.slice(m.len(), values.len() - m.len());
                (DictionaryAction::Delta, emit(new, true))
            }
            Relation::Differs if slot.nested => {
                return Err(Error::not_supported(
                    "the dictionary differs from the earlier inputs' and lies in the values \
                     of another dictionary: unifying nested dictionaries",
                ));
            }
            Relation::Differs => {
                let u = unify(m, values, slot.key)?;
                plan.remaps.insert(slot.id, u.mapping);
                let added = if u.delta.is_empty() {
                    0
                } else {
                    emit(u.delta, true)
                };
                merged.insert(slot.id, u.merged);
                (DictionaryAction::Unified, added)
            }
        },
    };
    if action != DictionaryAction::Unified && action != DictionaryAction::Same {
        merged.insert(slot.id, values.clone());
    }
    plan.events.push(DictionaryMerge {
        id: slot.id,
        field: slot.label.clone(),
        action,
        values_added: added,
    });
    Ok(())
}

/// A dictionary unified with an input's.
#[derive(Debug)]
struct Unified {
    /// The merged values followed by the input's values not among them.
    merged: Arc<Array>,
    /// Those new values.
    delta: Array,
    /// The index in `merged` of each of the input's values.
    mapping: Vec<usize>,
}

/// Unifies `input` into `merged` (whose indices must stay valid): each input value is found
/// among the merged ones by its bytes, or appended. Null values map to the first null of
/// the merged dictionary (one is appended when it has none).
fn unify(merged: &Arc<Array>, input: &Array, key: IntegerType) -> Result<Unified> {
    let first_null = |a: &Array| {
        (a.null_count() > 0)
            .then(|| (0..a.len()).find(|&i| a.is_null(i)))
            .flatten()
    };
    let mut base = merged.clone();
    let mut null_at = first_null(merged);
    if let (None, Some(i)) = (null_at, first_null(input)) {
        let null = take(input, &[i])?;
        base = Arc::new(concat(&[merged.as_ref(), &null])?);
        null_at = Some(merged.len());
    }
    let mut b = DictionaryBuilder::with_values(key, &base).map_err(|e| {
        e.context(format!(
            "a dictionary of {} values with {key:?} indices",
            base.len()
        ))
    })?;
    let mut mapping = Vec::new();
    mapping
        .try_reserve_exact(input.len())
        .map_err(|e| Error::overflow(e.to_string()))?;
    for i in 0..input.len() {
        mapping.push(b.intern_value(input, i, &mut null_at)?);
    }
    let all = b.finish().values().clone();
    let delta = all.slice(merged.len(), all.len() - merged.len());
    Ok(Unified {
        merged: all,
        delta,
        mapping,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quiver_arrow::{PrimitiveArray, StringArray};

    fn strings(v: &[Option<&str>]) -> Arc<Array> {
        Arc::new(Array::from(StringArray::from_options(v.iter().copied())))
    }

    #[test]
    fn unify_appends_missing_values_and_maps_every_value() {
        let merged = strings(&[Some("a"), Some("b"), Some("c")]);
        let input = strings(&[Some("c"), Some("x"), Some("a"), None, Some("x")]);
        let u = unify(&merged, &input, IntegerType::Int32).unwrap();
        // The null value comes first among the new ones; the repeated "x" maps to one slot.
        assert_eq!(u.mapping, vec![2, 4, 0, 3, 4]);
        assert_eq!(u.delta, *strings(&[None, Some("x")]));
        assert_eq!(
            *u.merged,
            *strings(&[Some("a"), Some("b"), Some("c"), None, Some("x")])
        );
        // A null already in the merged dictionary is reused.
        let u2 = unify(&u.merged, &strings(&[None, Some("b")]), IntegerType::Int32).unwrap();
        assert_eq!((u2.mapping, u2.delta.len()), (vec![3, 1], 0));
    }

    #[test]
    fn unify_fails_past_the_key_type_and_for_nested_values() {
        let merged = Arc::new(Array::from(PrimitiveArray::<i64>::new(
            (0..128).collect::<Vec<_>>(),
        )));
        let input = Array::from(PrimitiveArray::<i64>::new(vec![500, 3]));
        let e = unify(&merged, &input, IntegerType::Int8).unwrap_err();
        assert!(matches!(e, Error::Overflow { .. }), "{e}");
        let list = quiver_arrow::compute::take(&nested_values(), &[0]).unwrap();
        let e = unify(&Arc::new(list.clone()), &list, IntegerType::Int8).unwrap_err();
        assert!(matches!(e, Error::NotSupported { .. }), "{e}");
    }

    /// `[[1]]` as a list of int32.
    fn nested_values() -> Array {
        use quiver_arrow::buffer::OffsetBuffer;
        let item = Arc::new(quiver_arrow::Field::new("item", DataType::Int32, true));
        let offsets = OffsetBuffer::try_new(vec![0i32, 1].into()).unwrap();
        let child = Array::from(PrimitiveArray::<i32>::new(vec![1]));
        let list = quiver_arrow::ListArray::try_new(item, offsets, child, None).unwrap();
        Array::from(list)
    }
}
