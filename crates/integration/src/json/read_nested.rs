//! Columns with children (lists, structs, maps, unions, run-end encoded) and
//! dictionary-encoded columns, from their node's buffers and their decoded children.
//!
//! The child columns come from the caller (`read.rs`, which decodes them by recursing into
//! its dispatch), asked for through [`ChildColumns`] once the node's own buffers are read.

use super::node::Node;
use super::value::native_int;
use quiver_arrow::buffer::{Offset, OffsetBuffer};
use quiver_arrow::datatype::BufferKind as K;
use quiver_arrow::{
    Array, DataType, DictionaryArray, Error, FieldRef, Fields, FixedSizeListArray,
    GenericListArray, GenericListViewArray, IntegerType, MapArray, PrimitiveArray, PrimitiveType,
    Result, RunEndArray, StructArray, UnionArray, UnionFields, UnionMode,
};
use std::sync::Arc;

/// Decodes the child columns of the node, one per child of its type's layout.
pub(crate) type ChildColumns<'c> = dyn FnMut() -> Result<Vec<Array>> + 'c;

/// The array of a nested or run-end encoded type.
pub(crate) fn nested(node: &Node, dt: &DataType, children: &mut ChildColumns) -> Result<Array> {
    let c = children;
    match dt {
        DataType::List(f) => list::<i32>(node, f, c),
        DataType::LargeList(f) => list::<i64>(node, f, c),
        DataType::ListView(f) => list_view::<i32>(node, f, c),
        DataType::LargeListView(f) => list_view::<i64>(node, f, c),
        DataType::FixedSizeList(f, size) => {
            let validity = node.validity()?;
            let child = one_child(c)?;
            let a = FixedSizeListArray::try_new(f.clone(), *size, node.len, child, validity);
            Ok(a.map_err(Error::into_input_error)?.into())
        }
        DataType::Struct(fields) => Ok(strukt(node, fields, c)?.into()),
        DataType::Map(entries, sorted) => map(node, entries, *sorted, c),
        DataType::Union(fields, mode) => union(node, fields, *mode, c),
        DataType::RunEndEncoded(r, v) => run_end_encoded(node, r, v, c),
        other => Err(Error::not_supported(format!(
            "{other} is not a nested type (internal dispatch error)"
        ))),
    }
}

fn one_child(children: &mut ChildColumns) -> Result<Array> {
    children()?
        .pop()
        .ok_or_else(|| Error::oos("missing child".to_string()))
}

fn offsets<O: Offset + TryFrom<i128>>(node: &Node) -> Result<OffsetBuffer<O>> {
    let o = node.values(K::Offsets, node.len + 1, native_int::<O>)?;
    OffsetBuffer::try_new(o.into()).map_err(|e| e.context("OFFSET"))
}

fn list<O: Offset + TryFrom<i128>>(
    node: &Node,
    f: &FieldRef,
    children: &mut ChildColumns,
) -> Result<Array>
where
    Array: From<GenericListArray<O>>,
{
    let validity = node.validity()?;
    let offsets = offsets::<O>(node)?;
    let child = one_child(children)?;
    let a = GenericListArray::<O>::try_new(f.clone(), offsets, child, validity);
    Ok(a.map_err(Error::into_input_error)?.into())
}

fn list_view<O: Offset + TryFrom<i128>>(
    node: &Node,
    f: &FieldRef,
    children: &mut ChildColumns,
) -> Result<Array>
where
    Array: From<GenericListViewArray<O>>,
{
    let validity = node.validity()?;
    let offsets = node.values(K::Offsets, node.len, native_int::<O>)?;
    let sizes = node.values(K::Sizes, node.len, native_int::<O>)?;
    let child = one_child(children)?;
    let a = GenericListViewArray::<O>::try_new(
        f.clone(),
        offsets.into(),
        sizes.into(),
        child,
        validity,
    );
    Ok(a.map_err(Error::into_input_error)?.into())
}

fn strukt(node: &Node, fields: &Fields, children: &mut ChildColumns) -> Result<StructArray> {
    let validity = node.validity()?;
    let children = children()?;
    StructArray::try_new(fields.clone(), node.len, children, validity)
        .map_err(Error::into_input_error)
}

fn map(
    node: &Node,
    entries: &FieldRef,
    sorted: bool,
    children: &mut ChildColumns,
) -> Result<Array> {
    let validity = node.validity()?;
    let offsets = offsets::<i32>(node)?;
    let child = one_child(children)?;
    let Array::Struct(entries_array) = child else {
        return Err(Error::oos("map entries are not a struct".to_string()));
    };
    let a = MapArray::try_new(entries.clone(), sorted, offsets, entries_array, validity);
    Ok(a.map_err(Error::into_input_error)?.into())
}

fn union(
    node: &Node,
    fields: &UnionFields,
    mode: UnionMode,
    children: &mut ChildColumns,
) -> Result<Array> {
    node.check_pre_v1_union_validity()?;
    let type_ids = node.values(K::TypeIds, node.len, native_int::<i8>)?;
    let offsets = match mode {
        UnionMode::Dense => Some(node.values(K::Offsets, node.len, native_int::<i32>)?.into()),
        UnionMode::Sparse => None,
    };
    let children = children()?;
    let a = UnionArray::try_new(fields.clone(), mode, type_ids.into(), offsets, children);
    Ok(a.map_err(Error::into_input_error)?.into())
}

fn run_end_encoded(
    node: &Node,
    run_ends: &FieldRef,
    values: &FieldRef,
    children: &mut ChildColumns,
) -> Result<Array> {
    let mut children = children()?.into_iter();
    let (Some(r), Some(v)) = (children.next(), children.next()) else {
        return Err(Error::oos(
            "run-end encoded data needs 2 children".to_string(),
        ));
    };
    let a = RunEndArray::try_new_sliced(r, v, 0, node.len)
        .and_then(|a| a.with_fields(run_ends.clone(), values.clone()));
    Ok(a.map_err(Error::into_input_error)?.into())
}

/// A dictionary-encoded column: its indices over `values` (the dictionary of its field).
pub(crate) fn dictionary(
    node: &Node,
    key: IntegerType,
    ordered: bool,
    values: Arc<Array>,
) -> Result<Array> {
    let keys = match key {
        IntegerType::Int8 => keys::<i8>(node)?,
        IntegerType::Int16 => keys::<i16>(node)?,
        IntegerType::Int32 => keys::<i32>(node)?,
        IntegerType::Int64 => keys::<i64>(node)?,
        IntegerType::UInt8 => keys::<u8>(node)?,
        IntegerType::UInt16 => keys::<u16>(node)?,
        IntegerType::UInt32 => keys::<u32>(node)?,
        IntegerType::UInt64 => keys::<u64>(node)?,
    };
    let a = DictionaryArray::try_new(keys, values, ordered).map_err(Error::into_input_error)?;
    Ok(a.into())
}

fn keys<T: PrimitiveType + TryFrom<i128>>(node: &Node) -> Result<Array> {
    let values = node.values(K::Indices, node.len, native_int::<T>)?;
    let a = PrimitiveArray::<T>::try_new(T::default_data_type(), values.into(), node.validity()?);
    Ok(a.map_err(Error::into_input_error)?.into())
}
