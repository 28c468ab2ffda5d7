//! Concatenation of the nested layouts: lists, list views, fixed-size lists, structs, maps.

use super::{concat, concat_slices};
use crate::array::{
    Array, FixedSizeListArray, GenericListArray, GenericListViewArray, MapArray, StructArray,
};
use crate::buffer::Offset;
use crate::compute::bits::concat_validity;
use crate::compute::rebase;
use crate::datatype::DataType;
use crate::error::{Error, Result};

pub(super) fn list<O: Offset>(arrays: &[&GenericListArray<O>]) -> Result<GenericListArray<O>> {
    let offsets: Vec<_> = arrays.iter().map(|a| a.offsets()).collect();
    let (offsets, ranges) = rebase::offsets(&offsets, "list values")?;
    let children: Vec<&Array> = arrays.iter().map(|a| a.values()).collect();
    let child = concat_slices(&children, &ranges)?;
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    let field = arrays[0].field().clone();
    GenericListArray::try_new(field, offsets, child, validity)
}

/// List views: each input's child is trimmed to the range its views use, the trimmed children
/// are concatenated and the offsets moved accordingly. Null and empty views become `(0, 0)`.
pub(super) fn list_view<O: Offset>(
    arrays: &[&GenericListViewArray<O>],
) -> Result<GenericListViewArray<O>> {
    let ranges: Vec<_> = arrays.iter().map(|a| rebase::list_view_range(a)).collect();
    let (offsets, sizes) = rebase::list_views(arrays, &ranges)?;
    let children: Vec<&Array> = arrays.iter().map(|a| a.values()).collect();
    let child = concat_slices(&children, &ranges)?;
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    let field = arrays[0].field().clone();
    GenericListViewArray::try_new(field, offsets, sizes, child, validity)
}

pub(super) fn fixed_list(arrays: &[&FixedSizeListArray]) -> Result<FixedSizeListArray> {
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

pub(super) fn struct_(arrays: &[&StructArray]) -> Result<StructArray> {
    let fields = arrays[0].fields().clone();
    let total = arrays.iter().map(|a| a.len()).sum();
    let children = (0..fields.len())
        .map(|c| concat(&arrays.iter().map(|a| a.column(c)).collect::<Vec<_>>()))
        .collect::<Result<Vec<_>>>()?;
    let validity = concat_validity(arrays.iter().map(|a| (a.validity(), a.len())))?;
    StructArray::try_new(fields, total, children, validity)
}

pub(super) fn map(arrays: &[&MapArray]) -> Result<MapArray> {
    let offsets: Vec<_> = arrays.iter().map(|a| a.offsets()).collect();
    let (offsets, ranges) = rebase::offsets(&offsets, "map entries")?;
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
