//! Arrow arrays from decoded leaf columns: the levels become validity and offsets
//! ([`crate::levels::assemble`]), dense values are converted to the field's type and spread over
//! their slots, and the [`Plan`] puts structs, lists and maps together.

use super::leaf::{Dense, LeafChunk, LeafLevels};
use super::plan::Plan;
use crate::encoding::big_endian;
use crate::encoding::byte_array::{FlexOffsets, OffsetsSink};
use crate::levels::assemble::{Nested, Repetition};
use crate::levels::spread::{spread_fixed, spread_offsets};
use crate::schema::SchemaDescriptor;
use bytes::Bytes;
use quiver_arrow::array::{
    Array, BooleanArray, FixedSizeBinaryArray, FixedSizeListArray, GenericBinaryArray,
    GenericListArray, GenericListViewArray, GenericStringArray, MapArray, NullArray,
    PrimitiveArray, StructArray,
};
use quiver_arrow::buffer::{
    Bitmap, Buffer, MutableBitmap, MutableBuffer, Offset, OffsetBuffer, check_offsets,
};
use quiver_arrow::datatype::{DataType, Field, FieldRef, TimeUnit};
use quiver_arrow::native::{I128, I256};
use quiver_arrow::{Error, Result};

mod byte_arrays;
mod fixed;

pub use fixed::int96_value;

/// A leaf column ready for assembly: frozen validity and offsets per path node, and its values.
pub struct Column {
    validity: Vec<Option<Bitmap>>,
    offsets: Vec<Option<Buffer<i64>>>,
    slots: Vec<usize>,
    reps: Vec<Repetition>,
    nodes: Vec<usize>,
    dense: Option<Dense>,
    /// Whether the byte-array values are known to be UTF-8 ([`LeafChunk::utf8`]).
    utf8: bool,
    physical: crate::format::Type,
    /// The leaf array built ahead by [`Column::prebuild`] (on the decoding thread), and the
    /// schema node it was built for.
    built: Option<(usize, Result<Array>)>,
}

impl Column {
    /// Assembles the levels of `chunk`, a decoded chunk of column `index`.
    pub fn new(schema: &SchemaDescriptor, index: usize, chunk: LeafChunk) -> Result<Column> {
        let descr = &schema.columns()[index];
        let reps = descr.levels.nodes().to_vec();
        let nested = match chunk.levels {
            LeafLevels::None { len } => Nested {
                validity: vec![None; reps.len()],
                offsets: (0..reps.len()).map(|_| None).collect(),
                slots: vec![len],
                values: len,
            },
            LeafLevels::Validity(bits) => {
                let mut validity: Vec<Option<MutableBitmap>> =
                    (0..reps.len()).map(|_| None).collect();
                let len = bits.len();
                let values = len - bits.unset_bits();
                let pos = reps
                    .iter()
                    .position(|&r| r == Repetition::Optional)
                    .unwrap_or(0);
                validity[pos] = Some(bits);
                Nested {
                    validity,
                    offsets: (0..reps.len()).map(|_| None).collect(),
                    slots: vec![len],
                    values,
                }
            }
            LeafLevels::Full { def, rep } => descr.levels.assemble(&def, &rep)?,
        };
        if nested.values != chunk.dense.len() {
            return Err(Error::oos(format!(
                "column {:?}: the levels say {} values, the pages hold {}",
                descr.dotted_path(),
                nested.values,
                chunk.dense.len()
            )));
        }
        Ok(Column {
            validity: nested
                .validity
                .into_iter()
                .map(|v| v.map(MutableBitmap::freeze))
                .collect(),
            offsets: nested
                .offsets
                .into_iter()
                .map(|o| o.map(Buffer::from))
                .collect(),
            slots: nested.slots,
            reps,
            nodes: descr.nodes.clone(),
            dense: Some(chunk.dense),
            utf8: chunk.utf8,
            physical: descr.physical,
            built: None,
        })
    }

    /// Builds the leaf array of schema node `node` as type `t` now (its values converted and
    /// spread over their slots), for [`build`] to pick up: called on the thread that decoded
    /// the column, so that this work runs in parallel across columns rather than on the
    /// thread putting the batch together. An error is kept and reported by [`build`].
    pub fn prebuild(&mut self, node: usize, t: &DataType) {
        let array = self.build_leaf(node, t);
        self.built = Some((node, array));
    }

    /// The leaf array of schema node `node` as type `t`, from the column's values (taken).
    fn build_leaf(&mut self, node: usize, t: &DataType) -> Result<Array> {
        let pos = self.position(node)?;
        let validity = if self.reps[pos] == Repetition::Optional {
            self.validity[pos].clone()
        } else {
            None
        };
        let slots = self.slots(pos);
        let present = self.present();
        let dense = self
            .dense
            .take()
            .ok_or_else(|| Error::invalid("leaf built twice"))?;
        let known = self.utf8;
        leaf(
            dense,
            known,
            self.physical,
            t,
            slots,
            present.as_ref(),
            validity,
        )
    }

    fn position(&self, node: usize) -> Result<usize> {
        self.nodes.iter().position(|&n| n == node).ok_or_else(|| {
            Error::invalid(format!("schema node {node} is not on the column's path"))
        })
    }

    fn segment(&self, pos: usize) -> usize {
        self.reps[..=pos]
            .iter()
            .filter(|&&r| r == Repetition::Repeated)
            .count()
    }

    /// The slots of the segment holding the node at `pos`.
    fn slots(&self, pos: usize) -> usize {
        self.slots[self.segment(pos)]
    }

    /// Which slots of the leaf's segment hold a value: the validity of the deepest optional node
    /// in the segment (`None`: all of them).
    fn present(&self) -> Option<Bitmap> {
        let last = self.reps.len() - 1;
        let seg_start = self
            .reps
            .iter()
            .rposition(|&r| r == Repetition::Repeated)
            .unwrap_or(0);
        (seg_start..=last).rev().find_map(|p| {
            if self.reps[p] == Repetition::Optional {
                self.validity[p].clone()
            } else {
                None
            }
        })
    }
}

/// Builds the array of `field` by `plan` from the decoded `columns` (indexed by column; those
/// the plan uses must be present).
pub fn build(plan: &Plan, field: &Field, columns: &mut [Option<Column>]) -> Result<Array> {
    match plan {
        Plan::Leaf { column, node } => {
            let col = columns[*column]
                .as_mut()
                .ok_or_else(|| Error::invalid(format!("column {column} was not decoded")))?;
            let array = match col.built.take() {
                Some((n, array)) if n == *node => array,
                other => {
                    col.built = other;
                    col.build_leaf(*node, field.data_type())
                }
            };
            array.map_err(|e| e.context(format!("column {:?}", field.name())))
        }
        Plan::Struct { node, children } => {
            let DataType::Struct(fields) = field.data_type() else {
                return Err(Error::invalid(format!(
                    "struct plan for {}",
                    field.data_type()
                )));
            };
            let first = plan
                .first_column()
                .ok_or_else(|| Error::invalid("struct without columns"))?;
            let (len, validity) = {
                let col = columns[first]
                    .as_ref()
                    .ok_or_else(|| Error::invalid("column not decoded"))?;
                let pos = col.position(*node)?;
                let v = if col.reps[pos] == Repetition::Optional {
                    col.validity[pos].clone()
                } else {
                    None
                };
                (col.slots(pos), v)
            };
            let arrays = children
                .iter()
                .zip(fields.iter())
                .map(|(p, f)| build(p, f, columns))
                .collect::<Result<Vec<_>>>()?;
            Ok(StructArray::try_new(fields.clone(), len, arrays, validity)?.into())
        }
        Plan::List {
            node,
            repeated,
            element,
        } => {
            let first = plan
                .first_column()
                .ok_or_else(|| Error::invalid("list without columns"))?;
            let (offsets, validity) = {
                let col = columns[first]
                    .as_ref()
                    .ok_or_else(|| Error::invalid("column not decoded"))?;
                let rpos = col.position(*repeated)?;
                let offsets = col.offsets[rpos]
                    .clone()
                    .ok_or_else(|| Error::invalid("no offsets"))?;
                let validity = if node != repeated {
                    let pos = col.position(*node)?;
                    if col.reps[pos] == Repetition::Optional {
                        col.validity[pos].clone()
                    } else {
                        None
                    }
                } else {
                    None
                };
                (offsets, validity)
            };
            list(field, offsets, validity, |item| {
                build(element, item, columns)
            })
        }
    }
}

/// The assembled 64-bit `offsets` as 32-bit offsets: one vectorised pass checks them (first
/// non-negative, non-decreasing, and so all in range when the last fits), one converts. An
/// offset past `i32::MAX` is an overflow error.
fn narrow_offsets(offsets: &[i64]) -> Result<OffsetBuffer<i32>> {
    check_offsets(offsets)?;
    let last = *offsets.last().expect("checked non-empty"); // ok: `check_offsets` found at least one offset.
    if last > i32::MAX as i64 {
        return Err(Error::overflow(format!(
            "offsets up to {last} overflow 32-bit offsets"
        )));
    }
    let mut out = MutableBuffer::with_capacity(offsets.len() * 4);
    // Every offset is in `0..=last`, which fits `i32` (checked above).
    out.extend_from_exact_iter(offsets.iter().map(|&o| o as i32));
    // SAFETY: the offsets are the checked ones above, each converted without loss: non-empty,
    // the first non-negative, non-decreasing.
    Ok(unsafe { OffsetBuffer::new_unchecked(Buffer::from(out)) })
}

/// The leaf array of type `t` from `dense` values; `utf8_known`: its byte arrays are known to be
/// UTF-8 ([`LeafChunk::utf8`]).
fn leaf(
    dense: Dense,
    utf8_known: bool,
    physical: crate::format::Type,
    t: &DataType,
    slots: usize,
    present: Option<&Bitmap>,
    validity: Option<Bitmap>,
) -> Result<Array> {
    match dense {
        Dense::Bytes(sink) if *t != DataType::Null => {
            byte_arrays::bytes_leaf(sink, utf8_known, t, slots, present, validity)
        }
        dense => fixed::fixed_leaf(dense, physical, t, slots, present, validity),
    }
}

/// The item field of a list-shaped `field` (list, large list, list view, fixed-size list, or
/// map: its entries).
fn list_item(field: &Field) -> Result<&FieldRef> {
    match field.data_type() {
        DataType::List(item)
        | DataType::LargeList(item)
        | DataType::ListView(item)
        | DataType::LargeListView(item)
        | DataType::FixedSizeList(item, _)
        | DataType::Map(item, _) => Ok(item),
        other => Err(Error::invalid(format!("list plan for {other}"))),
    }
}

/// The leaf columns that [`build`] turns into arrays for `field` by `plan`: (column, schema
/// node, Arrow type) each, for [`Column::prebuild`]. Shapes `build` would reject are left out
/// (it reports them).
pub fn leaf_targets(plan: &Plan, field: &Field, out: &mut Vec<(usize, usize, DataType)>) {
    match plan {
        Plan::Leaf { column, node } => out.push((*column, *node, field.data_type().clone())),
        Plan::Struct { children, .. } => {
            if let DataType::Struct(fields) = field.data_type() {
                for (p, f) in children.iter().zip(fields.iter()) {
                    leaf_targets(p, f, out);
                }
            }
        }
        Plan::List { element, .. } => {
            if let Ok(item) = list_item(field) {
                leaf_targets(element, item, out);
            }
        }
    }
}

fn list(
    field: &Field,
    offsets: Buffer<i64>,
    validity: Option<Bitmap>,
    element: impl FnOnce(&Field) -> Result<Array>,
) -> Result<Array> {
    let len = offsets.len() - 1;
    let item = list_item(field)?;
    let values = element(item)?;
    match field.data_type() {
        DataType::List(_) => Ok(GenericListArray::<i32>::try_new(
            item.clone(),
            narrow_offsets(&offsets)?,
            values,
            validity,
        )?
        .into()),
        DataType::LargeList(_) => Ok(GenericListArray::<i64>::try_new(
            item.clone(),
            OffsetBuffer::try_new(offsets)?,
            values,
            validity,
        )?
        .into()),
        DataType::ListView(_) => list_view::<i32>(item, &offsets, values, validity),
        DataType::LargeListView(_) => list_view::<i64>(item, &offsets, values, validity),
        DataType::FixedSizeList(_, n) => {
            let values = pad_null_lists(item, *n, &offsets, validity.as_ref(), values)?;
            Ok(FixedSizeListArray::try_new(item.clone(), *n, len, values, validity)?.into())
        }
        DataType::Map(_, sorted) => {
            let Array::Struct(entries_array) = values else {
                return Err(Error::invalid("map entries are not a struct"));
            };
            Ok(MapArray::try_new(
                item.clone(),
                *sorted,
                narrow_offsets(&offsets)?,
                entries_array,
                validity,
            )?
            .into())
        }
        other => Err(Error::invalid(format!("list plan for {other}"))),
    }
}

/// The values of a fixed-size list of `n` whose null lists were stored empty (as Parquet stores
/// them): `n` null items put in for each, so that list `i` starts at item `i * n`. Every other
/// list must have exactly `n` items.
/// A list view array of the lists `offsets` delimit (each list's view: its start and length,
/// in order, as `ARROW:schema` asks for a list view written as a Parquet list).
fn list_view<O: Offset>(
    item: &FieldRef,
    offsets: &[i64],
    values: Array,
    validity: Option<Bitmap>,
) -> Result<Array>
where
    Array: From<GenericListViewArray<O>>,
{
    let narrow = |v: i64| {
        usize::try_from(v)
            .ok()
            .and_then(O::from_usize)
            .ok_or_else(|| Error::overflow(format!("list view offset {v}")))
    };
    let n = offsets.len().saturating_sub(1);
    let (mut starts, mut sizes) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for w in offsets.windows(2) {
        starts.push(narrow(w[0])?);
        sizes.push(narrow(w[1] - w[0])?);
    }
    let views = GenericListViewArray::<O>::try_new(
        item.clone(),
        Buffer::from(starts),
        Buffer::from(sizes),
        values,
        validity,
    )?;
    Ok(views.into())
}

fn pad_null_lists(
    item: &Field,
    n: i32,
    offsets: &[i64],
    validity: Option<&Bitmap>,
    values: Array,
) -> Result<Array> {
    let size = i64::from(n);
    let mut pieces: Vec<Array> = Vec::new();
    let mut run_start = 0usize;
    let mut padded = false;
    for (i, w) in offsets.windows(2).enumerate() {
        let len = w[1] - w[0];
        if len == size {
            continue;
        }
        if len != 0 || validity.is_some_and(|v| v.get(i)) {
            return Err(Error::oos(format!(
                "fixed-size list of {n}: list {i} has {len} items"
            )));
        }
        // A null list stored empty: the items so far, then n nulls.
        padded = true;
        let end = w[0] as usize;
        if end > run_start {
            pieces.push(values.slice(run_start, end - run_start));
        }
        let mut nulls = quiver_arrow::builder::make_builder(item.data_type(), n as usize)?;
        for _ in 0..n {
            nulls.append_null();
        }
        pieces.push(nulls.try_finish()?);
        run_start = end;
    }
    if !padded {
        return Ok(values);
    }
    if values.len() > run_start {
        pieces.push(values.slice(run_start, values.len() - run_start));
    }
    let refs: Vec<&Array> = pieces.iter().collect();
    quiver_arrow::compute::concat(&refs)
}

#[cfg(test)]
mod tests {
    use super::narrow_offsets;

    /// Narrowing keeps every offset, and refuses what 32-bit offsets cannot hold or what
    /// is not offsets at all (the result is built without a second check).
    #[test]
    fn narrowed_offsets_are_checked() {
        let o = narrow_offsets(&[0, 3, 3, i32::MAX as i64]).unwrap();
        assert_eq!(o.as_slice(), &[0, 3, 3, i32::MAX]);
        let e = narrow_offsets(&[0, 1, i32::MAX as i64 + 1]).unwrap_err();
        assert!(e.to_string().contains("overflow 32-bit offsets"), "{e}");
        assert!(narrow_offsets(&[0, 5, 4]).is_err());
        assert!(narrow_offsets(&[-1, 5]).is_err());
        assert!(narrow_offsets(&[]).is_err());
    }
}
