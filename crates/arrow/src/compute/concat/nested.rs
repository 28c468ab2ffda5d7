//! Concatenation of the nested layouts: lists, list views, fixed-size lists, structs, maps.

use super::flat::rebase_offsets;
use super::{concat, typed};
use crate::array::{
    Array, FixedSizeListArray, GenericListArray, GenericListViewArray, MapArray, StructArray,
};
use crate::buffer::{Buffer, MutableBuffer, Offset};
use crate::compute::bits::concat_validity;
use crate::datatype::DataType;
use crate::error::{Error, Result};

/// Dispatches the nested and encoded layouts (all `arrays` share the data type of `first`).
pub(super) fn concat_nested(first: &Array, arrays: &[&Array]) -> Result<Array> {
    Ok(match first {
        Array::List(_) => Array::from(list(&typed!(arrays, List))?),
        Array::LargeList(_) => Array::from(list(&typed!(arrays, LargeList))?),
        Array::ListView(_) => Array::from(list_view(&typed!(arrays, ListView))?),
        Array::LargeListView(_) => Array::from(list_view(&typed!(arrays, LargeListView))?),
        Array::FixedSizeList(_) => Array::from(fixed_list(&typed!(arrays, FixedSizeList))?),
        Array::Struct(_) => Array::from(struct_(&typed!(arrays, Struct))?),
        Array::Map(_) => Array::from(map(&typed!(arrays, Map))?),
        _ => super::encoded::concat_encoded(first, arrays)?,
    })
}

/// Concatenates the slices `ranges[i]` of `children[i]`.
fn concat_slices(children: &[&Array], ranges: &[std::ops::Range<usize>]) -> Result<Array> {
    let slices: Vec<Array> = children
        .iter()
        .zip(ranges)
        .map(|(c, r)| c.slice(r.start, r.len()))
        .collect();
    concat(&slices.iter().collect::<Vec<_>>())
}

fn list<O: Offset>(arrays: &[&GenericListArray<O>]) -> Result<GenericListArray<O>> {
    let offsets: Vec<_> = arrays.iter().map(|a| a.offsets()).collect();
    let (offsets, ranges) = rebase_offsets(&offsets, "list values")?;
    let children: Vec<&Array> = arrays.iter().map(|a| a.values()).collect();
    let child = concat_slices(&children, &ranges)?;
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    let field = arrays[0].field().clone();
    GenericListArray::try_new(field, offsets, child, validity)
}

/// The child range `[min offset, max end)` the valid, non-empty views of `a` use.
fn used_range<O: Offset>(a: &GenericListViewArray<O>) -> std::ops::Range<usize> {
    let (mut lo, mut hi) = (usize::MAX, 0);
    for i in 0..a.len() {
        let size = a.sizes()[i].as_usize();
        if size == 0 || a.is_null(i) {
            continue;
        }
        let start = a.offsets()[i].as_usize();
        lo = lo.min(start);
        hi = hi.max(start + size);
    }
    if lo > hi { 0..0 } else { lo..hi }
}

/// List views: each input's child is trimmed to the range its views use, the trimmed children
/// are concatenated and the offsets moved accordingly. Null and empty views become `(0, 0)`.
fn list_view<O: Offset>(arrays: &[&GenericListViewArray<O>]) -> Result<GenericListViewArray<O>> {
    let total: usize = arrays.iter().map(|a| a.len()).sum();
    let ranges: Vec<_> = arrays.iter().map(|a| used_range(a)).collect();
    let mut offsets = MutableBuffer::with_capacity(total * std::mem::size_of::<O>());
    let mut sizes = MutableBuffer::with_capacity(total * std::mem::size_of::<O>());
    let mut base = 0usize;
    for (a, r) in arrays.iter().zip(&ranges) {
        for i in 0..a.len() {
            let size = a.sizes()[i];
            if size.as_usize() == 0 || a.is_null(i) {
                offsets.push(O::ZERO);
                sizes.push(O::ZERO);
                continue;
            }
            let moved = a.offsets()[i].as_usize() - r.start + base;
            let moved = O::from_usize(moved).ok_or_else(|| {
                Error::Overflow(format!(
                    "list view offset {moved} beyond {} offsets",
                    O::NAME
                ))
            })?;
            offsets.push(moved);
            sizes.push(size);
        }
        base += r.len();
    }
    let children: Vec<&Array> = arrays.iter().map(|a| a.values()).collect();
    let child = concat_slices(&children, &ranges)?;
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    let field = arrays[0].field().clone();
    GenericListViewArray::try_new(
        field,
        Buffer::from(offsets),
        Buffer::from(sizes),
        child,
        validity,
    )
}

fn fixed_list(arrays: &[&FixedSizeListArray]) -> Result<FixedSizeListArray> {
    let DataType::FixedSizeList(field, size) = arrays[0].data_type() else {
        return Err(Error::invalid("concat: fixed-size list without its type"));
    };
    let total = arrays.iter().map(|a| a.len()).sum();
    // Children are exactly `len * size` long (slicing a fixed-size list slices its child).
    let children: Vec<&Array> = arrays.iter().map(|a| a.values()).collect();
    let child = concat(&children)?;
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    FixedSizeListArray::try_new(field.clone(), *size, total, child, validity)
}

fn struct_(arrays: &[&StructArray]) -> Result<StructArray> {
    let fields = arrays[0].fields().clone();
    let total = arrays.iter().map(|a| a.len()).sum();
    let children = (0..fields.len())
        .map(|c| concat(&arrays.iter().map(|a| a.column(c)).collect::<Vec<_>>()))
        .collect::<Result<Vec<_>>>()?;
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    StructArray::try_new(fields, total, children, validity)
}

fn map(arrays: &[&MapArray]) -> Result<MapArray> {
    let offsets: Vec<_> = arrays.iter().map(|a| a.offsets()).collect();
    let (offsets, ranges) = rebase_offsets(&offsets, "map entries")?;
    let slices: Vec<Array> = arrays
        .iter()
        .zip(&ranges)
        .map(|(a, r)| Array::Struct(a.entries().slice(r.start, r.len())))
        .collect();
    let Array::Struct(entries) = concat(&slices.iter().collect::<Vec<_>>())? else {
        return Err(Error::invalid(
            "concat: map entries did not concatenate to a struct",
        ));
    };
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    let first = arrays[0];
    MapArray::try_new(
        first.entries_field().clone(),
        first.keys_sorted(),
        offsets,
        entries,
        validity,
    )
}
