//! Concatenation of the encoded layouts: unions, dictionaries, run-end encoded arrays.

use super::{concat, typed};
use crate::array::{
    Array, DictionaryArray, PrimitiveArray, PrimitiveType, RunEndArray, UnionArray,
};
use crate::buffer::{Buffer, MutableBuffer};
use crate::compute::bits::concat_validity;
use crate::datatype::UnionMode;
use crate::error::{Error, Result};
use std::sync::Arc;

/// Dispatches the encoded layouts (all `arrays` share the data type of `first`).
pub(super) fn concat_encoded(first: &Array, arrays: &[&Array]) -> Result<Array> {
    Ok(match first {
        Array::Union(_) => Array::from(union(&typed!(arrays, Union))?),
        Array::Dictionary(_) => Array::from(dictionary(&typed!(arrays, Dictionary))?),
        Array::RunEndEncoded(_) => Array::from(run_end(&typed!(arrays, RunEndEncoded))?),
        other => {
            return Err(Error::NotSupported(format!(
                "concat of {} arrays",
                other.data_type()
            )));
        }
    })
}

fn union(arrays: &[&UnionArray]) -> Result<UnionArray> {
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

/// Child index and offset of slot `i` of a dense union, checked (no panics on bad ids).
fn dense_slot(a: &UnionArray, table: &[u8; 128], i: usize) -> Result<(usize, usize)> {
    let id = a.type_ids()[i];
    let c = usize::try_from(id)
        .ok()
        .and_then(|id| table.get(id))
        .filter(|&&c| c != u8::MAX)
        .ok_or_else(|| Error::oos(format!("union slot {i} has undeclared type id {id}")))?;
    let offset = a.offsets().map_or(i as i32, |o| o[i]);
    let offset = usize::try_from(offset)
        .map_err(|_| Error::oos(format!("union slot {i} has negative offset {offset}")))?;
    Ok((*c as usize, offset))
}

/// Dense children: each input's child trimmed to the offsets it uses, concatenated per child;
/// offsets moved to the trimmed child's place in the result.
fn dense_children(arrays: &[&UnionArray]) -> Result<(Buffer<i32>, Vec<Array>)> {
    let n_children = arrays[0].children().len();
    let table = arrays[0].fields().id_table();
    let mut parts: Vec<Vec<Array>> = vec![Vec::with_capacity(arrays.len()); n_children];
    let mut base = vec![0usize; n_children];
    let total: usize = arrays.iter().map(|a| a.len()).sum();
    let mut offsets = MutableBuffer::with_capacity(total * 4);
    for a in arrays {
        let mut used = vec![(usize::MAX, 0usize); n_children];
        for i in 0..a.len() {
            let (c, o) = dense_slot(a, &table, i)?;
            used[c] = (used[c].0.min(o), used[c].1.max(o + 1));
        }
        for i in 0..a.len() {
            let (c, o) = dense_slot(a, &table, i)?;
            let moved = o - used[c].0 + base[c];
            let moved = i32::try_from(moved)
                .map_err(|_| Error::Overflow(format!("dense union offset {moved} beyond i32")))?;
            offsets.push(moved);
        }
        for (c, &(lo, hi)) in used.iter().enumerate() {
            let child = &a.children()[c];
            let (lo, hi) = if lo > hi {
                (0, 0)
            } else {
                (lo, hi.min(child.len()))
            };
            parts[c].push(child.slice(lo, hi.saturating_sub(lo)));
            base[c] += hi.saturating_sub(lo);
        }
    }
    let children = parts
        .iter()
        .map(|p| concat(&p.iter().collect::<Vec<_>>()))
        .collect::<Result<Vec<_>>>()?;
    Ok((Buffer::from(offsets), children))
}

fn dictionary(arrays: &[&DictionaryArray]) -> Result<DictionaryArray> {
    let first = arrays[0];
    let keys: Vec<&Array> = arrays.iter().map(|a| a.keys()).collect();
    if arrays
        .iter()
        .all(|a| Arc::ptr_eq(a.values(), first.values()))
    {
        return DictionaryArray::try_new(
            concat(&keys)?,
            first.values().clone(),
            first.is_ordered(),
        );
    }
    let values: Vec<&Array> = arrays.iter().map(|a| a.values().as_ref()).collect();
    let merged = concat(&values)?;
    let mut bases = Vec::with_capacity(arrays.len());
    let mut base = 0usize;
    for a in arrays {
        bases.push(base);
        base += a.values().len();
    }
    let shifted = match first.keys() {
        Array::I8(_) => Array::from(shift_keys(&typed!(keys, I8), &bases, base)?),
        Array::I16(_) => Array::from(shift_keys(&typed!(keys, I16), &bases, base)?),
        Array::I32(_) => Array::from(shift_keys(&typed!(keys, I32), &bases, base)?),
        Array::I64(_) => Array::from(shift_keys(&typed!(keys, I64), &bases, base)?),
        Array::U8(_) => Array::from(shift_keys(&typed!(keys, U8), &bases, base)?),
        Array::U16(_) => Array::from(shift_keys(&typed!(keys, U16), &bases, base)?),
        Array::U32(_) => Array::from(shift_keys(&typed!(keys, U32), &bases, base)?),
        Array::U64(_) => Array::from(shift_keys(&typed!(keys, U64), &bases, base)?),
        other => {
            return Err(Error::oos(format!(
                "dictionary keys must be integers, not {}",
                other.data_type()
            )));
        }
    };
    DictionaryArray::try_new(shifted, merged, first.is_ordered())
}

/// Keys of each input moved by the number of dictionary values before its dictionary; null
/// keys become 0. Fails when `total_values` dictionary values cannot be indexed by `K`.
fn shift_keys<K>(
    keys: &[&PrimitiveArray<K>],
    bases: &[usize],
    total_values: usize,
) -> Result<PrimitiveArray<K>>
where
    K: PrimitiveType + TryFrom<usize> + TryInto<usize>,
{
    let overflow = || {
        Error::Overflow(format!(
            "{total_values} concatenated dictionary values cannot be indexed by {} keys",
            K::NAME
        ))
    };
    if total_values > 0 {
        K::try_from(total_values - 1).map_err(|_| overflow())?;
    }
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
            out.push(K::try_from(v + base).map_err(|_| overflow())?);
        }
    }
    let validity = concat_validity(keys.iter().map(|k| (k.validity(), k.len())))?;
    PrimitiveArray::try_new(keys[0].data_type().clone(), Buffer::from(out), validity)
}

/// Logical end (exclusive) of run `j`, as `usize`.
fn run_end_at(run_ends: &Array, j: usize) -> usize {
    let e: i64 = match run_ends {
        Array::I16(p) => p.value(j).into(),
        Array::I32(p) => p.value(j).into(),
        Array::I64(p) => p.value(j),
        _ => 0,
    };
    usize::try_from(e).unwrap_or(0)
}

/// Run-end encoded arrays: each input contributes the runs covering its logical slice, with
/// ends clipped to the slice and moved by the length of the inputs before it.
fn run_end(arrays: &[&RunEndArray]) -> Result<RunEndArray> {
    let first = arrays[0];
    let mut ends: Vec<usize> = Vec::new();
    let mut values: Vec<Array> = Vec::new();
    let mut base = 0usize;
    for a in arrays.iter().filter(|a| !a.is_empty()) {
        let (p0, p1) = (a.physical_index(0), a.physical_index(a.len() - 1));
        let stop = a.offset() + a.len();
        for j in p0..=p1 {
            ends.push(
                run_end_at(a.run_ends(), j)
                    .min(stop)
                    .saturating_sub(a.offset())
                    + base,
            );
        }
        values.push(a.values().slice(p0, p1 + 1 - p0));
        base += a.len();
    }
    let values = if values.is_empty() {
        first.values().slice(0, 0)
    } else {
        concat(&values.iter().collect::<Vec<_>>())?
    };
    let run_ends = match first.run_ends() {
        Array::I16(_) => narrow_run_ends::<i16>(&ends)?,
        Array::I32(_) => narrow_run_ends::<i32>(&ends)?,
        _ => narrow_run_ends::<i64>(&ends)?,
    };
    RunEndArray::try_new(run_ends, values)
}

/// Run ends as an array of the run-end type `T`, failing when the last one does not fit.
fn narrow_run_ends<T: PrimitiveType + TryFrom<usize>>(ends: &[usize]) -> Result<Array> {
    let narrowed = ends
        .iter()
        .map(|&e| {
            T::try_from(e).map_err(|_| {
                Error::Overflow(format!(
                    "run end {e} is beyond the range of {} run ends",
                    T::NAME
                ))
            })
        })
        .collect::<Result<Vec<T>>>()?;
    Ok(Array::from(PrimitiveArray::<T>::new(narrowed)))
}
