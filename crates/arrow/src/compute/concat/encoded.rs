//! Concatenation of the encoded layouts: unions, dictionaries, run-end encoded arrays.

use super::{concat, concat_slices, typed};
use crate::array::{
    Array, DictionaryArray, PrimitiveArray, PrimitiveType, RunEndArray, UnionArray,
};
use crate::buffer::{Buffer, MutableBuffer};
use crate::compute::bits::concat_validity;
use crate::compute::rebase;
use crate::datatype::{IntegerType, UnionMode};
use crate::error::{Error, Result};
use std::ops::Range;
use std::sync::Arc;

pub(super) fn union(arrays: &[&UnionArray]) -> Result<UnionArray> {
    let first = arrays[0];
    let total: usize = arrays.iter().map(|a| a.len()).sum();
    let mut type_ids = MutableBuffer::with_capacity(total);
    for a in arrays {
        type_ids.extend_from_slice(a.type_ids().as_slice());
    }
    let (offsets, children) = match first.mode() {
        UnionMode::Sparse => (None, sparse_children(arrays)?),
        UnionMode::Dense => {
            let (offsets, children) = dense_children(arrays)?;
            (Some(offsets), children)
        }
    };
    UnionArray::try_new(
        first.fields().clone(),
        first.mode(),
        Buffer::from(type_ids),
        offsets,
        children,
    )
}

/// Sparse children are as long as their union (slicing slices them): concatenate them.
fn sparse_children(arrays: &[&UnionArray]) -> Result<Vec<Array>> {
    (0..arrays[0].children().len())
        .map(|c| concat(&arrays.iter().map(|a| &a.children()[c]).collect::<Vec<_>>()))
        .collect()
}

/// Dense children: each input's child cut to the range its slots use, concatenated per child;
/// offsets moved to the cut child's place in the result.
fn dense_children(arrays: &[&UnionArray]) -> Result<(Buffer<i32>, Vec<Array>)> {
    let ranges = arrays
        .iter()
        .map(|a| rebase::dense_union_ranges(a))
        .collect::<Result<Vec<_>>>()?;
    let offsets = rebase::dense_union_offsets(arrays, &ranges)?;
    let children = (0..arrays[0].children().len())
        .map(|c| {
            let children: Vec<&Array> = arrays.iter().map(|a| &a.children()[c]).collect();
            let cut: Vec<Range<usize>> = ranges.iter().map(|r| r[c].clone()).collect();
            concat_slices(&children, &cut)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((offsets, children))
}

/// Dictionary arrays: each distinct dictionary (by identity: slices of one array, or arrays
/// sharing its values, share it) is kept once, in order of first appearance, and empty ones
/// add nothing; keys are moved by the number of values of the dictionaries kept before their
/// own. Inputs that all use one dictionary (and empty ones) keep it as it is.
pub(super) fn dictionary(arrays: &[&DictionaryArray]) -> Result<DictionaryArray> {
    let first = arrays[0];
    let keys: Vec<&Array> = arrays.iter().map(|a| a.keys()).collect();
    let mut kept: Vec<&Arc<Array>> = Vec::new();
    let mut base_of: std::collections::HashMap<*const Array, usize> =
        std::collections::HashMap::new();
    let mut bases = Vec::with_capacity(arrays.len());
    let mut base = 0usize;
    for a in arrays {
        let v = a.values();
        if v.is_empty() {
            bases.push(0);
            continue;
        }
        let b = *base_of.entry(Arc::as_ptr(v)).or_insert_with(|| {
            kept.push(v);
            base += v.len();
            base - v.len()
        });
        bases.push(b);
    }
    if kept.len() <= 1 {
        let values = kept.first().map_or(first.values(), |v| *v).clone();
        return DictionaryArray::try_new(concat(&keys)?, values, first.is_ordered());
    }
    if base > 0 && !first.key_type().holds(base - 1) {
        // Too many values for the keys side by side (a dictionary per row group of a
        // Parquet column, say): the same values once each.
        return concat_dictionaries(arrays, first.key_type());
    }
    let values: Vec<&Array> = kept.iter().map(|v| v.as_ref()).collect();
    let merged = concat(&values)?;
    let shifted = match first.keys() {
        Array::I8(_) => Array::from(shift_keys(&typed!(keys, I8), &bases)?),
        Array::I16(_) => Array::from(shift_keys(&typed!(keys, I16), &bases)?),
        Array::I32(_) => Array::from(shift_keys(&typed!(keys, I32), &bases)?),
        Array::I64(_) => Array::from(shift_keys(&typed!(keys, I64), &bases)?),
        Array::U8(_) => Array::from(shift_keys(&typed!(keys, U8), &bases)?),
        Array::U16(_) => Array::from(shift_keys(&typed!(keys, U16), &bases)?),
        Array::U32(_) => Array::from(shift_keys(&typed!(keys, U32), &bases)?),
        Array::U64(_) => Array::from(shift_keys(&typed!(keys, U64), &bases)?),
        other => {
            return Err(Error::oos(format!(
                "dictionary keys must be integers, not {}",
                other.data_type()
            )));
        }
    };
    DictionaryArray::try_new(shifted, merged, first.is_ordered())
}

/// `arrays` (dictionary arrays of one type) joined into one with `key` keys, whose dictionary
/// holds each distinct value their keys use once (in order of first use; null values one null
/// entry), each distinct dictionary (by identity) mapped once: how [`concat`] joins inputs
/// whose dictionaries, side by side, have more values than their key type indexes, and how a
/// caller re-keys them into another key type. Too many distinct values for `key` is
/// [`Error::Overflow`]; value types without deduplication (nested ones) are
/// [`Error::NotSupported`].
///
/// ```
/// use quiver_arrow::compute::concat_dictionaries;
/// use quiver_arrow::{Array, DictionaryArray, IntegerType, PrimitiveArray, StringArray};
/// let values = Array::from(StringArray::from_options([Some("a"), Some("b"), Some("c")]));
/// let keys = Array::from(PrimitiveArray::<i8>::from_options([Some(2), None, Some(2)]));
/// let d = DictionaryArray::try_new(keys, values, false).unwrap();
/// let joined = concat_dictionaries(&[&d, &d], IntegerType::Int32).unwrap();
/// assert_eq!((joined.key_type(), joined.values().len(), joined.key(2)), (IntegerType::Int32, 1, Some(0)));
/// ```
pub fn concat_dictionaries(
    arrays: &[&DictionaryArray],
    key: IntegerType,
) -> Result<DictionaryArray> {
    let Some(first) = arrays.first() else {
        return Err(Error::invalid(
            "concat_dictionaries needs at least one array",
        ));
    };
    let mut b = crate::builder::DictionaryBuilder::with_capacity(
        key,
        first.values().data_type().clone(),
        arrays.iter().map(|a| a.len()).sum(),
    )?
    .with_ordered(first.is_ordered());
    let mut null_at = None;
    // Each dictionary's values are interned as keys first reach them (`usize::MAX`: not yet),
    // so values no key uses (a row group's dictionary beyond a slice of it) take no entry.
    let mut maps: std::collections::HashMap<*const Array, Vec<usize>> =
        std::collections::HashMap::new();
    for a in arrays {
        let values = a.values();
        maps.entry(Arc::as_ptr(values))
            .or_insert_with(|| vec![usize::MAX; values.len()]);
    }
    let total: usize = maps.values().map(Vec::len).sum();
    let overflow = |e: Error| match e {
        Error::Overflow { .. } => Error::overflow(format!(
            "{total} concatenated dictionary values hold more distinct values (among those the \
             keys use) than {} keys index ({})",
            crate::display::format_type(&key.data_type()),
            key.max_value() as u128 + 1
        )),
        other => other.context("unifying the dictionaries of concatenated arrays"),
    };
    for a in arrays {
        let values = a.values();
        let mut map = maps.get_mut(&Arc::as_ptr(values));
        for i in 0..a.len() {
            let Some(k) = a.key(i) else {
                b.append_null();
                continue;
            };
            let slot = map
                .as_deref_mut()
                .and_then(|m| m.get_mut(k))
                .ok_or_else(|| {
                    Error::invalid(format!(
                        "dictionary key {k} is beyond its {} values",
                        values.len()
                    ))
                })?;
            if *slot == usize::MAX {
                *slot = b.intern_value(values, k, &mut null_at).map_err(overflow)?;
            }
            b.append_key(*slot)?;
        }
    }
    Ok(b.finish())
}

/// Keys of each input moved by the number of dictionary values before its dictionary; null
/// keys become 0. The caller has made sure the dictionaries side by side fit `K` (else they are
/// unified instead); a key beyond its own dictionary that then passes `K` is an error.
fn shift_keys<K>(keys: &[&PrimitiveArray<K>], bases: &[usize]) -> Result<PrimitiveArray<K>>
where
    K: PrimitiveType + TryFrom<usize> + TryInto<usize>,
{
    let len: usize = keys.iter().map(|k| k.len()).sum();
    let mut out = MutableBuffer::with_capacity(len * std::mem::size_of::<K>());
    for (k, &base) in keys.iter().zip(bases) {
        let no_nulls = k.null_count() == 0;
        for (i, v) in k.values().iter().enumerate() {
            if !no_nulls && k.is_null(i) {
                out.push(K::default());
                continue;
            }
            let v: usize = v
                .try_into()
                .map_err(|_| Error::oos(format!("dictionary key {i} is negative")))?;
            out.push(K::try_from(v + base).map_err(|_| {
                Error::overflow(format!(
                    "dictionary key {i} ({v}, moved by {base}) cannot be a {} key",
                    K::NAME
                ))
            })?);
        }
    }
    let validity = concat_validity(keys.iter().map(|k| (k.validity(), k.len())))?;
    PrimitiveArray::try_new(keys[0].data_type().clone(), Buffer::from(out), validity)
}

/// Run-end encoded arrays: each input contributes the runs covering its logical slice, with
/// ends clipped to the slice and moved by the length of the inputs before it.
pub(super) fn run_end(arrays: &[&RunEndArray]) -> Result<RunEndArray> {
    let (run_ends, ranges) = rebase::run_ends(arrays)?;
    let values: Vec<Array> = arrays
        .iter()
        .zip(&ranges)
        .filter(|(_, r)| !r.is_empty())
        .map(|(a, r)| a.values().slice(r.start, r.len()))
        .collect();
    let values = if values.is_empty() {
        arrays[0].values().slice(0, 0)
    } else {
        concat(&values.iter().collect::<Vec<_>>())?
    };
    RunEndArray::try_new(run_ends, values)
}
