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
use quiver_arrow::buffer::{Bitmap, Buffer, MutableBitmap, MutableBuffer, Offset, OffsetBuffer};
use quiver_arrow::datatype::{DataType, Field, FieldRef, TimeUnit};
use quiver_arrow::native::{I128, I256};
use quiver_arrow::{Error, Result};

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

/// The assembled 64-bit `offsets` as offsets of type `O`: one pass for their range (an
/// overflow is an error), one to convert (a copy for `i64`).
fn narrow_offsets<O: Offset>(offsets: &[i64]) -> Result<OffsetBuffer<O>> {
    let (lo, hi) = offsets
        .iter()
        .fold((0i64, 0i64), |(lo, hi), &o| (lo.min(o), hi.max(o)));
    if lo < 0 || O::from_usize(hi as usize).is_none() {
        return Err(Error::overflow(format!(
            "offsets from {lo} to {hi} overflow {}-bit offsets",
            std::mem::size_of::<O>() * 8
        )));
    }
    let mut out = MutableBuffer::with_capacity(offsets.len() * std::mem::size_of::<O>());
    if O::IS_LARGE {
        out.extend_from_slice(bytemuck::cast_slice::<i64, u8>(offsets));
    } else {
        // Every offset is in `0..=i32::MAX` (checked above).
        out.extend_from_exact_iter(offsets.iter().map(|&o| o as i32));
    }
    OffsetBuffer::try_new(Buffer::from(out))
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
            narrow_offsets(&offsets)?,
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

/// Spreads `data` (dense values of `width` bytes) over `slots` by `present`.
fn spread_bytes(
    mut data: MutableBuffer,
    width: usize,
    slots: usize,
    present: Option<&Bitmap>,
) -> Result<MutableBuffer> {
    let valid = data.len() / width.max(1);
    if let Some(p) = present {
        let bits = p.to_aligned();
        data.resize(slots * width);
        spread_fixed(data.as_mut_slice(), width, &bits.bytes()[..], slots, valid)?;
    }
    Ok(data)
}

fn primitive<T: quiver_arrow::array::PrimitiveType>(
    t: &DataType,
    data: MutableBuffer,
    slots: usize,
    present: Option<&Bitmap>,
    validity: Option<Bitmap>,
) -> Result<Array> {
    let data = spread_bytes(data, std::mem::size_of::<T>(), slots, present)?;
    Ok(PrimitiveArray::<T>::try_new(t.clone(), Buffer::from(data), validity)?.into())
}

/// Decimal values into the 32- or 64-bit integers of `t` (`Decimal32` or `Decimal64`); a value
/// out of their range (more digits than the precision allows) is an error.
fn narrow_decimals(t: &DataType, values: impl Iterator<Item = i128>) -> Result<MutableBuffer> {
    let bits = if matches!(t, DataType::Decimal32 { .. }) {
        32
    } else {
        64
    };
    let mut out = MutableBuffer::with_capacity(values.size_hint().0 * bits / 8);
    for v in values {
        let fits = if bits == 32 {
            i32::try_from(v).map(|x| out.push(x)).is_ok()
        } else {
            i64::try_from(v).map(|x| out.push(x)).is_ok()
        };
        if !fits {
            return Err(Error::oos(format!(
                "decimal value {v} (unscaled) does not fit {t}"
            )));
        }
    }
    Ok(out)
}

/// A `Decimal32` or `Decimal64` array from the integers [`narrow_decimals`] made.
fn primitive_narrow(
    t: &DataType,
    data: MutableBuffer,
    slots: usize,
    present: Option<&Bitmap>,
    validity: Option<Bitmap>,
) -> Result<Array> {
    if matches!(t, DataType::Decimal32 { .. }) {
        primitive::<i32>(t, data, slots, present, validity)
    } else {
        primitive::<i64>(t, data, slots, present, validity)
    }
}

/// Converts each dense value of `width` bytes with `f` into `U`.
fn convert<U: bytemuck::Pod>(
    data: &MutableBuffer,
    width: usize,
    mut f: impl FnMut(&[u8]) -> U,
) -> MutableBuffer {
    // A large fresh buffer is zero without writes, so filling it in place writes each byte once.
    let mut out = MutableBuffer::zeroed(data.len() / width.max(1) * std::mem::size_of::<U>());
    for (o, b) in out
        .typed_mut::<U>()
        .iter_mut()
        .zip(data.as_slice().chunks_exact(width))
    {
        *o = f(b);
    }
    out
}

fn le_i32(b: &[u8]) -> i32 {
    i32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

fn le_i64(b: &[u8]) -> i64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    i64::from_le_bytes(a)
}

/// A big-endian two's-complement integer of up to 32 bytes, sign-extended to 32 little-endian bytes.
fn be_to_le32(b: &[u8]) -> [u8; 32] {
    let fill = if b.first().is_some_and(|&x| x & 0x80 != 0) {
        0xFF
    } else {
        0
    };
    let mut out = [fill; 32];
    for (i, &x) in b.iter().rev().take(32).enumerate() {
        out[i] = x;
    }
    out
}

/// The low 16 bytes of a 32-byte little-endian integer (exact when it fits 128 bits).
fn low_i128(le: [u8; 32]) -> i128 {
    let mut a = [0u8; 16];
    a.copy_from_slice(&le[..16]);
    i128::from_le_bytes(a)
}

/// The Julian day of 1970-01-01.
const JULIAN_UNIX_EPOCH: i128 = 2_440_588;

/// One INT96 timestamp (8 little-endian bytes of nanoseconds within the day, then 4 of the
/// Julian day) in `unit`s since the Unix epoch, the time of day cut to the unit as pyarrow and
/// Spark read it (so an instant before the epoch rounds down); `None` when it is out of the
/// 64-bit range of `unit`
/// (nanoseconds cover the years 1677 to 2262).
///
/// Spark writes INT96 from 64-bit microseconds and computes the Julian day in 64-bit
/// arithmetic, which wraps for instants after about the year 290,000 (as the year 290000 of
/// parquet-testing's `int96_from_spark.parquet`); it reads them back with the same wrapping.
/// A day and time whose exact microseconds do not fit 64 bits can only come from such a wrap,
/// so they are read as Spark reads them: the microseconds taken modulo 2⁶⁴.
pub fn int96_value(unit: TimeUnit, b: &[u8; 12]) -> Option<i64> {
    const MICROS_PER_DAY: i128 = 86_400_000_000;
    let (per_day, per_unit): (i128, i64) = match unit {
        TimeUnit::Nanosecond => (86_400_000_000_000, 1),
        TimeUnit::Microsecond => (MICROS_PER_DAY, 1_000),
        TimeUnit::Millisecond => (86_400_000, 1_000_000),
        TimeUnit::Second => (86_400, 1_000_000_000),
    };
    let nanos = le_i64(&b[..8]);
    let days = i128::from(le_i32(&b[8..12])) - JULIAN_UNIX_EPOCH;
    let micros = days * MICROS_PER_DAY + i128::from(nanos / 1_000);
    if i64::try_from(micros).is_ok() {
        return i64::try_from(days * per_day + i128::from(nanos / per_unit)).ok();
    }
    // Wrapped by the writer: Spark's own microseconds (the cast wraps them back).
    let micros = micros as i64;
    match unit {
        TimeUnit::Nanosecond => micros.checked_mul(1_000)?.checked_add(nanos % 1_000),
        TimeUnit::Microsecond => Some(micros),
        TimeUnit::Millisecond => Some(micros.div_euclid(1_000)),
        TimeUnit::Second => Some(micros.div_euclid(1_000_000)),
    }
}

/// The INT96 timestamps `data` (12 bytes each) in `unit` ([`int96_value`]); a value out of the
/// unit's range is an error naming it, where other readers wrap around to another date.
fn int96_values(unit: TimeUnit, data: &MutableBuffer) -> Result<MutableBuffer> {
    fn int96(b: &[u8]) -> &[u8; 12] {
        // ok: `convert` and `chunks_exact` hand out 12-byte chunks.
        b.try_into().expect("12 bytes")
    }
    let mut fits = true;
    let out = convert(data, 12, |b| {
        let v = int96_value(unit, int96(b));
        fits &= v.is_some();
        v.unwrap_or(0)
    });
    if fits {
        return Ok(out);
    }
    let bad = data
        .as_slice()
        .chunks_exact(12)
        .find(|b| int96_value(unit, int96(b)).is_none())
        // ok: `fits` is false only when some value did not fit.
        .expect("a value out of range");
    let day = i128::from(le_i32(&bad[8..12])) - JULIAN_UNIX_EPOCH;
    Err(Error::overflow(format!(
        "INT96 timestamp {day} days from 1970-01-01 (plus {} ns) is out of the range of \
         timestamp[{unit}]; read INT96 in a coarser unit (the `int96_unit` read option, \
         `--int96-unit` in the CLI)",
        le_i64(&bad[..8]),
    )))
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
    use crate::format::Type as P;
    use DataType as D;
    match (dense, t) {
        (_, D::Null) => Ok(NullArray::new(slots).into()),
        (Dense::Bool(bits), D::Boolean) => {
            let bits = bits.freeze();
            let values = match present {
                None => bits,
                Some(p) => {
                    let mut out = MutableBitmap::with_capacity(slots);
                    let mut next = 0;
                    for i in 0..slots {
                        if p.get(i) {
                            out.push(bits.get(next));
                            next += 1;
                        } else {
                            out.push(false);
                        }
                    }
                    out.freeze()
                }
            };
            Ok(BooleanArray::try_new(values, validity)?.into())
        }
        (Dense::Fixed { width, data }, t) => {
            let dt = t.clone();
            match (physical, t) {
                (P::INT32, D::Int32 | D::Date32 | D::Time32(_)) => {
                    primitive::<i32>(t, data, slots, present, validity)
                }
                (P::INT32, D::UInt32) => primitive::<u32>(t, data, slots, present, validity),
                (P::INT32, D::Int8) => primitive::<i8>(
                    t,
                    convert(&data, 4, |b| le_i32(b) as i8),
                    slots,
                    present,
                    validity,
                ),
                (P::INT32, D::Int16) => primitive::<i16>(
                    t,
                    convert(&data, 4, |b| le_i32(b) as i16),
                    slots,
                    present,
                    validity,
                ),
                (P::INT32, D::UInt8) => primitive::<u8>(
                    t,
                    convert(&data, 4, |b| le_i32(b) as u8),
                    slots,
                    present,
                    validity,
                ),
                (P::INT32, D::UInt16) => primitive::<u16>(
                    t,
                    convert(&data, 4, |b| le_i32(b) as u16),
                    slots,
                    present,
                    validity,
                ),
                (
                    P::INT64,
                    D::Int64 | D::Timestamp(..) | D::Time64(_) | D::Duration(_) | D::Date64,
                ) => primitive::<i64>(t, data, slots, present, validity),
                (P::INT64, D::UInt64) => primitive::<u64>(t, data, slots, present, validity),
                (P::INT32 | P::INT64, D::Decimal128 { .. }) => {
                    let f = |b: &[u8]| {
                        I128::from(if width == 4 {
                            le_i32(b) as i128
                        } else {
                            le_i64(b) as i128
                        })
                    };
                    primitive::<I128>(t, convert(&data, width, f), slots, present, validity)
                }
                (P::INT32 | P::INT64, D::Decimal256 { .. }) => {
                    let f = |b: &[u8]| {
                        I256::from(if width == 4 {
                            le_i32(b) as i128
                        } else {
                            le_i64(b) as i128
                        })
                    };
                    primitive::<I256>(t, convert(&data, width, f), slots, present, validity)
                }
                (P::INT32, D::Decimal32 { .. }) => {
                    primitive::<i32>(t, data, slots, present, validity)
                }
                (P::INT64, D::Decimal64 { .. }) => {
                    primitive::<i64>(t, data, slots, present, validity)
                }
                (P::INT32 | P::INT64, D::Decimal32 { .. } | D::Decimal64 { .. }) => {
                    let wide = |b: &[u8]| {
                        if width == 4 {
                            le_i32(b) as i128
                        } else {
                            le_i64(b) as i128
                        }
                    };
                    let data = narrow_decimals(t, data.as_slice().chunks_exact(width).map(wide))?;
                    primitive_narrow(t, data, slots, present, validity)
                }
                (P::FIXED_LEN_BYTE_ARRAY, D::Decimal32 { .. } | D::Decimal64 { .. })
                    if (1..=16).contains(&width) =>
                {
                    let wide = |b: &[u8]| low_i128(be_to_le32(b));
                    let data = narrow_decimals(t, data.as_slice().chunks_exact(width).map(wide))?;
                    primitive_narrow(t, data, slots, present, validity)
                }
                (P::INT96, D::Timestamp(unit, _)) => {
                    primitive::<i64>(t, int96_values(*unit, &data)?, slots, present, validity)
                }
                (P::FLOAT, D::Float32) => primitive::<f32>(t, data, slots, present, validity),
                (P::DOUBLE, D::Float64) => primitive::<f64>(t, data, slots, present, validity),
                (P::FIXED_LEN_BYTE_ARRAY, D::Float16) if width == 2 => {
                    primitive::<half::f16>(t, data, slots, present, validity)
                }
                (P::FIXED_LEN_BYTE_ARRAY, D::Decimal128 { .. }) if (1..=16).contains(&width) => {
                    // Widened in place: growing a large buffer moves no bytes (`mremap`).
                    let mut data = data;
                    data.resize(data.len() / width * 16);
                    big_endian::to_i128_in_place(data.as_mut_slice(), width)?;
                    primitive::<I128>(t, data, slots, present, validity)
                }
                (P::FIXED_LEN_BYTE_ARRAY, D::Decimal256 { .. }) if width <= 32 => {
                    primitive::<I256>(
                        t,
                        convert(&data, width, |b| I256::from_le_bytes(be_to_le32(b))),
                        slots,
                        present,
                        validity,
                    )
                }
                (P::FIXED_LEN_BYTE_ARRAY, D::FixedSizeBinary(n)) if *n as usize == width => {
                    let data = spread_bytes(data, width, slots, present)?;
                    Ok(
                        FixedSizeBinaryArray::try_new(*n, slots, Buffer::from(data), validity)?
                            .into(),
                    )
                }
                _ => Err(Error::not_supported(format!(
                    "reading {physical:?} as {dt}"
                ))),
            }
        }
        (Dense::Bytes(sink), t) => bytes_leaf(sink, utf8_known, t, slots, present, validity),
        (Dense::Decimal128 { data, .. }, t @ D::Decimal128 { .. }) => {
            primitive::<I128>(t, data, slots, present, validity)
        }
        (_, t) => Err(Error::not_supported(format!("reading {physical:?} as {t}"))),
    }
}

fn bytes_leaf(
    sink: FlexOffsets,
    utf8_known: bool,
    t: &DataType,
    slots: usize,
    present: Option<&Bitmap>,
    validity: Option<Bitmap>,
) -> Result<Array> {
    use DataType as D;
    match t {
        D::Utf8View | D::BinaryView => views(sink.into_wide(), t, slots, present, validity),
        D::Dictionary {
            key,
            value,
            ordered,
        } => dictionary(
            sink.into_wide(),
            key,
            value,
            *ordered,
            slots,
            present,
            validity,
        ),
        D::Binary | D::Utf8 => {
            let utf8 = matches!(t, D::Utf8);
            match sink {
                FlexOffsets::Narrow(s) => {
                    let (offsets, values) = spread_sink(s, slots, present)?;
                    let offsets = OffsetBuffer::<i32>::try_new(Buffer::from(offsets))?;
                    binary(offsets, values, validity, utf8, utf8_known)
                }
                FlexOffsets::Wide(s) => {
                    let (offsets, values) = spread_sink(s, slots, present)?;
                    let offsets = narrow_offsets::<i32>(offsets.typed::<i64>())?;
                    binary(offsets, values, validity, utf8, utf8_known)
                }
            }
        }
        D::LargeBinary | D::LargeUtf8 => {
            let (offsets, values) = spread_sink(sink.into_wide(), slots, present)?;
            let offsets = OffsetBuffer::<i64>::try_new(Buffer::from(offsets))?;
            let utf8 = matches!(t, D::LargeUtf8);
            binary(offsets, values, validity, utf8, utf8_known)
        }
        D::Decimal32 { .. } | D::Decimal64 { .. } => {
            let sink = sink.into_wide();
            let offsets = sink.offsets.typed::<i64>();
            let values = sink.values.as_slice();
            if let Some(w) = offsets.windows(2).find(|w| w[1].saturating_sub(w[0]) > 16) {
                return Err(Error::oos(format!("decimal of {} bytes", w[1] - w[0])));
            }
            let wide = offsets
                .windows(2)
                .map(|w| low_i128(be_to_le32(&values[w[0] as usize..w[1] as usize])));
            let data = narrow_decimals(t, wide)?;
            primitive_narrow(t, data, slots, present, validity)
        }
        D::Decimal128 { .. } | D::Decimal256 { .. } => {
            let sink = sink.into_wide();
            let offsets = sink.offsets.typed::<i64>();
            let values = sink.values.as_slice();
            let mut out = MutableBuffer::new();
            let large = matches!(t, D::Decimal256 { .. });
            for w in offsets.windows(2) {
                let b = &values[w[0] as usize..w[1] as usize];
                if b.len() > 32 || (!large && b.len() > 16) {
                    return Err(Error::oos(format!("decimal of {} bytes", b.len())));
                }
                let v = I256::from_le_bytes(be_to_le32(b));
                if large {
                    out.push(v)
                } else {
                    out.push(I128::from(low_i128(v.to_le_bytes())))
                }
            }
            let data = if large {
                spread_bytes(out, 32, slots, present)?
            } else {
                spread_bytes(out, 16, slots, present)?
            };
            if large {
                Ok(
                    PrimitiveArray::<I256>::try_new(t.clone(), Buffer::from(data), validity)?
                        .into(),
                )
            } else {
                Ok(
                    PrimitiveArray::<I128>::try_new(t.clone(), Buffer::from(data), validity)?
                        .into(),
                )
            }
        }
        other => Err(Error::not_supported(format!(
            "reading BYTE_ARRAY as {other}"
        ))),
    }
}

/// The offsets of `sink` spread over `slots` by `present` (in place), and its frozen values.
fn spread_sink<O: Offset>(
    sink: OffsetsSink<O>,
    slots: usize,
    present: Option<&Bitmap>,
) -> Result<(MutableBuffer, Bytes)> {
    let valid = sink.len();
    let mut offsets = sink.offsets;
    if let Some(p) = present {
        let bits = p.to_aligned();
        offsets.resize((slots + 1) * std::mem::size_of::<O>());
        spread_offsets(offsets.typed_mut::<O>(), &bits.bytes()[..], slots, valid)?;
    }
    Ok((offsets, sink.values.freeze()))
}

/// A string array when `utf8` (its values checked, unless `known` says they are UTF-8), else a
/// binary array.
fn binary<O: Offset>(
    offsets: OffsetBuffer<O>,
    values: Bytes,
    validity: Option<Bitmap>,
    utf8: bool,
    known: bool,
) -> Result<Array>
where
    Array: From<GenericBinaryArray<O>> + From<GenericStringArray<O>>,
{
    let values = Buffer::from_bytes(values);
    if utf8 && known {
        // SAFETY: every value is a copy of an entry of a dictionary whose entries were all
        // found to be UTF-8 when it was decoded (`all_utf8` in `Dict::decode`; `known` is
        // `LeafChunk::utf8`, cleared by any page whose values are not such copies), and null
        // slots hold empty values (`spread_offsets`). The structure is still checked.
        let s = unsafe { GenericStringArray::<O>::new_unchecked_utf8(offsets, values, validity) }
            .map_err(Error::into_input_error)?;
        Ok(s.into())
    } else if utf8 {
        let s = GenericStringArray::<O>::try_new(offsets, values, validity)
            .map_err(Error::into_input_error)?;
        Ok(s.into())
    } else {
        Ok(GenericBinaryArray::<O>::try_new(offsets, values, validity)?.into())
    }
}

/// `Utf8View` / `BinaryView`: the decoded bytes become one data buffer and each value a view
/// into it (short values inlined), with no copy of the bytes.
fn views(
    sink: OffsetsSink<i64>,
    t: &DataType,
    slots: usize,
    present: Option<&Bitmap>,
    validity: Option<Bitmap>,
) -> Result<Array> {
    let offsets = sink.offsets.typed::<i64>().to_vec();
    let block = sink.values.freeze();
    let nullable = validity.is_some();
    macro_rules! fill {
        ($builder:ty) => {{
            let mut b = <$builder>::with_capacity(slots);
            let id = b.append_block(block)?;
            let mut next = 0;
            for slot in 0..slots {
                if present.is_none_or(|p| p.get(slot)) {
                    let (start, end) = (offsets[next], offsets[next + 1]);
                    next += 1;
                    b.append_view(id, start as u32, (end - start) as u32)
                        .map_err(Error::into_input_error)?;
                } else if nullable {
                    b.append_null();
                } else {
                    // A required value under a null parent: any value does.
                    b.append_view(id, 0, 0)?;
                }
            }
            Array::from(b.finish())
        }};
    }
    Ok(match t {
        DataType::Utf8View => fill!(quiver_arrow::builder::StringViewBuilder),
        _ => fill!(quiver_arrow::builder::BinaryViewBuilder),
    })
}

/// A dictionary (as `ARROW:schema` asks): the distinct values in order of first appearance and
/// a key of the asked integer type per slot (more distinct values than the type counts is an
/// error).
fn dictionary(
    sink: OffsetsSink<i64>,
    key: &quiver_arrow::datatype::IntegerType,
    value: &DataType,
    ordered: bool,
    slots: usize,
    present: Option<&Bitmap>,
    validity: Option<Bitmap>,
) -> Result<Array> {
    use quiver_arrow::datatype::IntegerType as K;
    let offsets = sink.offsets.typed::<i64>();
    let bytes = sink.values.as_slice();
    let mut distinct: hashbrown::HashMap<&[u8], u32> = hashbrown::HashMap::new();
    let mut unique = OffsetsSink::<i64>::new();
    let mut indices: Vec<u32> = Vec::with_capacity(slots);
    let mut next = 0;
    for slot in 0..slots {
        if present.is_none_or(|p| p.get(slot)) {
            let v = &bytes[offsets[next] as usize..offsets[next + 1] as usize];
            next += 1;
            let n = distinct.len() as u32;
            let k = *distinct.entry(v).or_insert(n);
            if k == n {
                crate::encoding::byte_array::ByteArraySink::push(&mut unique, v)?;
            }
            indices.push(k);
        } else {
            indices.push(0);
        }
    }
    let count = distinct.len();
    let values = bytes_leaf(FlexOffsets::Wide(unique), false, value, count, None, None)?;
    macro_rules! keys {
        ($t:ty) => {{
            if count > 0 && <$t>::try_from(count - 1).is_err() {
                return Err(Error::overflow(format!(
                    "{count} distinct dictionary values do not fit {key:?} keys"
                )));
            }
            let keys: Vec<$t> = indices.iter().map(|&i| i as $t).collect();
            PrimitiveArray::<$t>::try_new(key.data_type(), Buffer::from(keys), validity)?.into()
        }};
    }
    let keys: Array = match key {
        K::Int8 => keys!(i8),
        K::Int16 => keys!(i16),
        K::Int32 => keys!(i32),
        K::Int64 => keys!(i64),
        K::UInt8 => keys!(u8),
        K::UInt16 => keys!(u16),
        K::UInt32 => keys!(u32),
        K::UInt64 => keys!(u64),
    };
    Ok(quiver_arrow::array::DictionaryArray::try_new(keys, values, ordered)?.into())
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
mod narrow_decimal_tests {
    use super::*;

    #[test]
    fn decimals_narrow_to_32_and_64_bits_or_name_the_value_that_does_not_fit() {
        let t32 = DataType::Decimal32 {
            precision: 9,
            scale: 2,
        };
        let t64 = DataType::Decimal64 {
            precision: 18,
            scale: 0,
        };
        let ok = narrow_decimals(
            &t32,
            [i32::MIN as i128, -1, 0, i32::MAX as i128].into_iter(),
        );
        assert_eq!(ok.unwrap().typed::<i32>(), [i32::MIN, -1, 0, i32::MAX]);
        let ok = narrow_decimals(&t64, [i64::MIN as i128, 7].into_iter()).unwrap();
        assert_eq!(ok.typed::<i64>(), [i64::MIN, 7]);
        let e = narrow_decimals(&t32, [1, i32::MAX as i128 + 1].into_iter()).unwrap_err();
        assert!(e.to_string().contains("2147483648"), "{e}");
        let e = narrow_decimals(&t64, [i64::MIN as i128 - 1].into_iter()).unwrap_err();
        assert!(e.to_string().contains("Decimal64"), "{e}");
    }
}
