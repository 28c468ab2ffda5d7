//! Columns with children (lists, structs, maps, unions, run-end encoded) and
//! dictionary-encoded columns.

use super::FieldPath;
use super::read::{Decoder, Node, input_error};
use super::value::{json_bool, native_int};
use quiver_arrow::buffer::{Offset, OffsetBuffer};
use quiver_arrow::{
    Array, DataType, DictionaryArray, Error, FieldRef, Fields, FixedSizeListArray,
    GenericListArray, GenericListViewArray, IntegerType, MapArray, PrimitiveArray, PrimitiveType,
    Result, RunEndArray, StructArray, UnionArray, UnionFields, UnionMode,
};

/// The array of a nested, run-end encoded or dictionary type.
pub(crate) fn nested(
    d: &Decoder,
    node: &Node,
    dt: &DataType,
    path: &mut FieldPath,
) -> Result<Array> {
    match dt {
        DataType::List(f) => list::<i32>(d, node, f, path),
        DataType::LargeList(f) => list::<i64>(d, node, f, path),
        DataType::ListView(f) => list_view::<i32>(d, node, f, path),
        DataType::LargeListView(f) => list_view::<i64>(d, node, f, path),
        DataType::FixedSizeList(f, size) => {
            let validity = node.validity()?;
            let child = one_child(d, node, f, path)?;
            let a = FixedSizeListArray::try_new(f.clone(), *size, node.len, child, validity);
            Ok(a.map_err(input_error)?.into())
        }
        DataType::Struct(fields) => Ok(strukt(d, node, fields, path)?.into()),
        DataType::Map(entries, sorted) => map(d, node, entries, *sorted, path),
        DataType::Union(fields, mode) => union(d, node, fields, *mode, path),
        DataType::RunEndEncoded(r, v) => run_end_encoded(d, node, r, v, path),
        DataType::Dictionary { key, ordered, .. } => dictionary(d, node, *key, *ordered, path),
        other => Err(Error::not_supported(format!(
            "{other} is not a nested type (internal dispatch error)"
        ))),
    }
}

fn one_child(d: &Decoder, node: &Node, f: &FieldRef, path: &mut FieldPath) -> Result<Array> {
    let mut children = d.children(node, std::slice::from_ref(f), path)?;
    children
        .pop()
        .ok_or_else(|| Error::oos("missing child".to_string()))
}

fn offsets<O: Offset + TryFrom<i128>>(node: &Node) -> Result<OffsetBuffer<O>> {
    let o = node.values("OFFSET", node.len + 1, native_int::<O>)?;
    OffsetBuffer::try_new(o.into()).map_err(|e| e.context("OFFSET"))
}

fn list<O: Offset + TryFrom<i128>>(
    d: &Decoder,
    node: &Node,
    f: &FieldRef,
    path: &mut FieldPath,
) -> Result<Array>
where
    Array: From<GenericListArray<O>>,
{
    let validity = node.validity()?;
    let offsets = offsets::<O>(node)?;
    let child = one_child(d, node, f, path)?;
    let a = GenericListArray::<O>::try_new(f.clone(), offsets, child, validity);
    Ok(a.map_err(input_error)?.into())
}

fn list_view<O: Offset + TryFrom<i128>>(
    d: &Decoder,
    node: &Node,
    f: &FieldRef,
    path: &mut FieldPath,
) -> Result<Array>
where
    Array: From<GenericListViewArray<O>>,
{
    let validity = node.validity()?;
    let offsets = node.values("OFFSET", node.len, native_int::<O>)?;
    let sizes = node.values("SIZE", node.len, native_int::<O>)?;
    let child = one_child(d, node, f, path)?;
    let a = GenericListViewArray::<O>::try_new(
        f.clone(),
        offsets.into(),
        sizes.into(),
        child,
        validity,
    );
    Ok(a.map_err(input_error)?.into())
}

fn strukt(d: &Decoder, node: &Node, fields: &Fields, path: &mut FieldPath) -> Result<StructArray> {
    let validity = node.validity()?;
    let children = d.children(node, fields, path)?;
    StructArray::try_new(fields.clone(), node.len, children, validity).map_err(input_error)
}

fn map(
    d: &Decoder,
    node: &Node,
    entries: &FieldRef,
    sorted: bool,
    path: &mut FieldPath,
) -> Result<Array> {
    let validity = node.validity()?;
    let offsets = offsets::<i32>(node)?;
    let child = one_child(d, node, entries, path)?;
    let Array::Struct(entries_array) = child else {
        return Err(Error::oos("map entries are not a struct".to_string()));
    };
    let a = MapArray::try_new(entries.clone(), sorted, offsets, entries_array, validity);
    Ok(a.map_err(input_error)?.into())
}

fn union(
    d: &Decoder,
    node: &Node,
    fields: &UnionFields,
    mode: UnionMode,
    path: &mut FieldPath,
) -> Result<Array> {
    // Unions lost their validity bitmap in format 1.0; files from before (0.17) still carry
    // one. It is accepted when it marks no slot null, as it then adds nothing.
    if node.has("VALIDITY")
        && node
            .values("VALIDITY", node.len, json_bool)?
            .contains(&false)
    {
        return Err(Error::not_supported(
            "a union with nulls in its own VALIDITY (pre-1.0 unions); nulls are in the children now"
                .to_string(),
        ));
    }
    let type_ids = node.values("TYPE_ID", node.len, native_int::<i8>)?;
    let offsets = match mode {
        UnionMode::Dense => Some(node.values("OFFSET", node.len, native_int::<i32>)?.into()),
        UnionMode::Sparse => None,
    };
    let children = d.children(node, fields.fields(), path)?;
    let a = UnionArray::try_new(fields.clone(), mode, type_ids.into(), offsets, children);
    Ok(a.map_err(input_error)?.into())
}

fn run_end_encoded(
    d: &Decoder,
    node: &Node,
    run_ends: &FieldRef,
    values: &FieldRef,
    path: &mut FieldPath,
) -> Result<Array> {
    let fields = [run_ends.clone(), values.clone()];
    let mut children = d.children(node, &fields, path)?.into_iter();
    let (Some(r), Some(v)) = (children.next(), children.next()) else {
        return Err(Error::oos(
            "run-end encoded data needs 2 children".to_string(),
        ));
    };
    let a = RunEndArray::try_new_sliced(r, v, 0, node.len)
        .and_then(|a| a.with_fields(run_ends.clone(), values.clone()));
    Ok(a.map_err(input_error)?.into())
}

fn dictionary(
    d: &Decoder,
    node: &Node,
    key: IntegerType,
    ordered: bool,
    path: &mut FieldPath,
) -> Result<Array> {
    let values = d.dictionary(path)?;
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
    let a = DictionaryArray::try_new(keys, values, ordered).map_err(input_error)?;
    Ok(a.into())
}

fn keys<T: PrimitiveType + TryFrom<i128>>(node: &Node) -> Result<Array> {
    let values = node.values("DATA", node.len, native_int::<T>)?;
    let a = PrimitiveArray::<T>::try_new(T::default_data_type(), values.into(), node.validity()?);
    Ok(a.map_err(input_error)?.into())
}
