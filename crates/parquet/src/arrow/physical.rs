//! Arrow leaf values as a Parquet physical type holds them ([`to_physical`]), and how a leaf's
//! statistics compare values ([`SortOrder`]); a leaf column's [`LeafSpec`] (made by
//! [`super::write_schema::WriteSchema`]).
//!
//! Where the Arrow layout already is the physical layout (32- and 64-bit integers, floats, byte
//! arrays, fixed-size binary) the array is returned as it is; `u32`/`u64` and `float16` are
//! re-typed without copying; everything else is converted in one pass. Null slots keep their
//! positions (the value written there is unspecified).

use crate::format::Type;
use quiver_arrow::array::{DictionaryArray, FixedSizeBinaryArray, PrimitiveArray, RunEndArray};
use quiver_arrow::buffer::{Bitmap, Buffer, MutableBuffer, OffsetBuffer};
use quiver_arrow::native::{I128, I256};
use quiver_arrow::{Array, Error, Result};

/// One leaf column of the written schema: what [`to_physical`] and the column writer need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeafSpec {
    /// The Parquet path (`["a", "list", "element"]`).
    pub path: Vec<String>,
    /// The physical type.
    pub physical: Type,
    /// The width of a `FIXED_LEN_BYTE_ARRAY`.
    pub type_length: Option<i32>,
    /// How statistics compare values.
    pub sort_order: SortOrder,
    /// How Arrow leaf values become physical values ([`to_physical`]).
    pub conversion: Conversion,
    /// The maximum definition level.
    pub max_def: i16,
    /// The maximum repetition level.
    pub max_rep: i16,
}

/// How a leaf's statistics (min/max, column and page indexes) compare values: the sort order
/// the Parquet format defines for the leaf's logical type (`parquet.thrift`, `ColumnOrder`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SortOrder {
    /// Signed integers (INT32/INT64 without an unsigned annotation: plain ints, dates, times,
    /// timestamps, durations, decimals stored as integers).
    Signed,
    /// Unsigned integers (`INTEGER(_, false)`) and booleans (`false < true`).
    Unsigned,
    /// FLOAT and DOUBLE: IEEE order, NaNs left out of min/max, `-0.0` as the minimum and `+0.0`
    /// as the maximum when a zero is the bound.
    Float,
    /// `FLOAT16` (2 little-endian bytes): the [`SortOrder::Float`] rules on half floats.
    Float16,
    /// Byte arrays and fixed-size byte arrays compared as unsigned bytes, lexicographically
    /// (strings, JSON, binary, UUID).
    Bytes,
    /// Decimals stored as (fixed-size) byte arrays: signed big-endian two's-complement values.
    Decimal,
    /// No defined order (INT96, INTERVAL): no min/max statistics.
    Undefined,
}

impl SortOrder {
    /// The order of a leaf read from a file's schema: from its physical type and its logical
    /// (or, without one, converted) type, as parquet.thrift's `ColumnOrder` defines it.
    /// Annotations this version does not know, geospatial types, INT96 and INTERVAL have no
    /// defined order.
    pub fn of_element(e: &crate::format::SchemaElement<'_>) -> SortOrder {
        use crate::format::{ConvertedType as C, LogicalType as L};
        let Some(physical) = e.type_ else {
            return SortOrder::Undefined;
        };
        let decimal = matches!(e.logical_type, Some(L::Decimal { .. }))
            || (e.logical_type.is_none() && e.converted_type == Some(C::DECIMAL));
        let unsigned = match &e.logical_type {
            Some(L::Integer { is_signed, .. }) => !is_signed,
            None => matches!(
                e.converted_type,
                Some(C::UINT_8 | C::UINT_16 | C::UINT_32 | C::UINT_64)
            ),
            _ => false,
        };
        let undefined_annotation = matches!(
            e.logical_type,
            Some(L::Unknown(_) | L::Geometry { .. } | L::Geography { .. } | L::Variant { .. })
        ) || (e.logical_type.is_none()
            && e.converted_type == Some(C::INTERVAL));
        if undefined_annotation {
            return SortOrder::Undefined;
        }
        match physical {
            Type::BOOLEAN => SortOrder::Unsigned,
            Type::INT32 | Type::INT64 if unsigned => SortOrder::Unsigned,
            Type::INT32 | Type::INT64 => SortOrder::Signed,
            Type::FLOAT | Type::DOUBLE => SortOrder::Float,
            Type::FIXED_LEN_BYTE_ARRAY if matches!(e.logical_type, Some(L::Float16)) => {
                SortOrder::Float16
            }
            Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY if decimal => SortOrder::Decimal,
            Type::BYTE_ARRAY | Type::FIXED_LEN_BYTE_ARRAY => SortOrder::Bytes,
            Type::INT96 | Type::Unknown(_) => SortOrder::Undefined,
        }
    }
}

/// How a leaf's Arrow values become its physical values (see [`to_physical`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conversion {
    /// The Arrow layout is the physical one (booleans, 32/64-bit integers, floats, byte arrays,
    /// fixed-size binary): the array as it is.
    Identity,
    /// 8/16-bit integers widened to INT32 (signed ones sign-extended, unsigned zero-extended);
    /// `u32` and `u64` re-typed as `i32`/`i64` (the same bits).
    Widen,
    /// Seconds to milliseconds (`time32[s]`, `timestamp[s]`): × 1000, overflow an error.
    SecondsToMillis,
    /// `date64` milliseconds to `date32` days (truncated, as Arrow C++ does).
    MillisToDays,
    /// A decimal to its physical type.
    Decimal(DecimalStorage),
    /// `float16` as `FIXED_LEN_BYTE_ARRAY(2)` (little-endian, re-typed without copying).
    Float16,
    /// The `null` type: INT32, every slot null.
    Null,
}

/// Where a decimal's unscaled values go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecimalStorage {
    /// INT32 (precision ≤ 9).
    Int32,
    /// INT64 (precision ≤ 18).
    Int64,
    /// `FIXED_LEN_BYTE_ARRAY(width)`: big-endian two's complement, `width` bytes.
    Fixed(usize),
}

/// The leaf's values as Parquet's physical type holds them: a Boolean, I32, I64, F32, F64,
/// FixedSizeBinary or byte-array (Binary, LargeBinary, Utf8, LargeUtf8, BinaryView, Utf8View)
/// array, the input itself (zero copy) where its layout already fits. Nulls keep their
/// positions. A Dictionary array comes back as a Dictionary with the same keys over converted
/// values; a run-end encoded array as the same runs over converted values.
///
/// Errors when a valid value does not fit the physical type (a decimal beyond its precision, a
/// seconds value overflowing in milliseconds, a `date64` beyond the `date32` range) or when the
/// array is not of the type the leaf was made for.
pub fn to_physical(array: &Array, leaf: &LeafSpec) -> Result<Array> {
    let path = || leaf.path.join(".");
    match array {
        Array::Dictionary(d) => {
            let values = convert(d.values(), leaf).map_err(|e| e.context(path()))?;
            Ok(Array::Dictionary(DictionaryArray::try_new_deferred(
                d.keys().clone(),
                values,
                d.is_ordered(),
            )?))
        }
        Array::RunEndEncoded(r) => {
            let values = convert(r.values(), leaf).map_err(|e| e.context(path()))?;
            Ok(Array::RunEndEncoded(RunEndArray::try_new_deferred(
                r.run_ends().clone(),
                values,
                r.offset(),
                r.len(),
            )?))
        }
        _ => convert(array, leaf).map_err(|e| e.context(path())),
    }
}

fn convert(array: &Array, leaf: &LeafSpec) -> Result<Array> {
    match leaf.conversion {
        Conversion::Identity => Ok(array.clone()),
        Conversion::Widen => widen(array),
        Conversion::SecondsToMillis => seconds_to_millis(array),
        Conversion::MillisToDays => millis_to_days(array),
        Conversion::Decimal(to) => decimal(array, to),
        Conversion::Float16 => float16(array),
        Conversion::Null => Ok(all_null_i32(array.len())),
    }
    .and_then(|out| check_physical(out, leaf))
}

/// The converted array's layout must be the leaf's physical type (a wrong array for the leaf
/// would otherwise be written as garbage).
fn check_physical(out: Array, leaf: &LeafSpec) -> Result<Array> {
    let ok = match (&out, leaf.physical) {
        (Array::Boolean(_), Type::BOOLEAN)
        | (Array::I32(_), Type::INT32)
        | (Array::I64(_), Type::INT64)
        | (Array::F32(_), Type::FLOAT)
        | (Array::F64(_), Type::DOUBLE) => true,
        (Array::FixedSizeBinary(f), Type::FIXED_LEN_BYTE_ARRAY) => {
            leaf.type_length == Some(f.size() as i32)
        }
        (Array::LargeBinary(a), Type::BYTE_ARRAY) => {
            check_byte_array_lengths(a.offsets())?;
            true
        }
        (Array::LargeUtf8(a), Type::BYTE_ARRAY) => {
            check_byte_array_lengths(a.offsets())?;
            true
        }
        // Offsets of 32 bits and view lengths cannot pass i32::MAX.
        (
            Array::Binary(_) | Array::Utf8(_) | Array::BinaryView(_) | Array::Utf8View(_),
            Type::BYTE_ARRAY,
        ) => true,
        _ => false,
    };
    if ok {
        Ok(out)
    } else {
        Err(Error::invalid(format!(
            "an array of {} cannot be written as {}{}",
            out.data_type(),
            leaf.physical.name(),
            leaf.type_length.map_or(String::new(), |w| format!("({w})"))
        )))
    }
}

/// Parquet stores a byte array's length in 4 bytes that other readers read as signed: a value
/// of a large (64-bit offset) array longer than `i32::MAX` bytes is an error here, before it
/// reaches the encoders, which rely on this check for their length conversions.
fn check_byte_array_lengths(offsets: &OffsetBuffer<i64>) -> Result<()> {
    let max = i64::from(i32::MAX);
    // No value can be longer than all the values together (the usual case: nothing to scan).
    if offsets.last() - offsets.first() <= max {
        return Ok(());
    }
    match offsets
        .as_slice()
        .windows(2)
        .position(|w| w[1] - w[0] > max)
    {
        Some(i) => Err(Error::invalid(format!(
            "value {i} is {} bytes long: a Parquet byte array holds at most {max} bytes",
            offsets.len_of(i)
        ))),
        None => Ok(()),
    }
}

fn mismatch(array: &Array, what: &str) -> Error {
    Error::invalid(format!(
        "expected {what}, found an array of {}",
        array.data_type()
    ))
}

/// A primitive array of `values` with `validity`, typed as the default type of `T`.
fn primitive<T: quiver_arrow::array::PrimitiveType>(
    values: Buffer<T>,
    validity: Option<&Bitmap>,
) -> Result<Array> {
    Ok(T::into_array(
        PrimitiveArray::new(values).with_validity(validity.cloned())?,
    ))
}

/// Re-types a buffer's bytes as another native type of the same width (zero copy: the bytes
/// keep their alignment).
fn retype<T: quiver_arrow::native::NativeType, U: quiver_arrow::native::NativeType>(
    b: &Buffer<T>,
) -> Buffer<U> {
    debug_assert_eq!(std::mem::size_of::<T>(), std::mem::size_of::<U>());
    Buffer::from_bytes(b.bytes().clone())
}

fn widen(array: &Array) -> Result<Array> {
    fn to_i32<T: quiver_arrow::array::PrimitiveType + Into<i32>>(
        p: &PrimitiveArray<T>,
    ) -> Result<Array> {
        let values: Buffer<i32> = p.values().iter().map(Into::into).collect();
        primitive(values, p.validity())
    }
    match array {
        Array::I8(p) => to_i32(p),
        Array::I16(p) => to_i32(p),
        Array::U8(p) => to_i32(p),
        Array::U16(p) => to_i32(p),
        Array::U32(p) => primitive::<i32>(retype(p.values()), p.validity()),
        Array::U64(p) => primitive::<i64>(retype(p.values()), p.validity()),
        Array::I32(_) | Array::I64(_) => Ok(array.clone()),
        _ => Err(mismatch(array, "an integer array")),
    }
}

/// Maps each value with `f`; a valid value `f` rejects is an error (`what` says why), a null
/// one becomes the default.
fn map_checked<T, U, F>(p: &PrimitiveArray<T>, what: &str, f: F) -> Result<Buffer<U>>
where
    T: quiver_arrow::array::PrimitiveType + std::fmt::Display,
    U: quiver_arrow::native::NativeType + Default,
    F: Fn(T) -> Option<U>,
{
    let values = p.values().as_slice();
    // One pass without a branch per value, straight into the output buffer; only when some
    // value does not convert, a second looks for the first valid one among them (null slots'
    // values are not data).
    let mut all = true;
    let mut buf = MutableBuffer::new();
    buf.extend_from_exact_iter(values.iter().map(|&v| {
        let r = f(v);
        all &= r.is_some();
        r.unwrap_or_default()
    }));
    if !all {
        first_invalid(p, what, |i| f(values[i]).is_none())?;
    }
    Ok(Buffer::from(buf))
}

/// The error for the first valid value of `p` that `bad` says does not convert, if any.
fn first_invalid<T>(p: &PrimitiveArray<T>, what: &str, bad: impl Fn(usize) -> bool) -> Result<()>
where
    T: quiver_arrow::array::PrimitiveType + std::fmt::Display,
{
    let values = p.values().as_slice();
    match (0..values.len()).find(|&i| bad(i) && p.is_valid(i)) {
        Some(i) => Err(Error::invalid(format!("value {i} ({}) {what}", values[i]))),
        None => Ok(()),
    }
}

/// Decimal128 values as 64-bit (`NARROW32` false) or 32-bit integers: the low bits kept, and
/// whether each fits checked by comparing the high word (and for 32 bits the low word's upper
/// half) with the sign of what is kept, OR-ed over the array: no branch per value, so the
/// loop has no branch per value. A valid value beyond the narrower type is an error.
fn narrow_i128<const NARROW32: bool>(p: &PrimitiveArray<I128>) -> Result<Array> {
    let values = p.values().as_slice();
    let mut buf = MutableBuffer::new();
    let fits = |v: I128| {
        let [lo, hi] = v.0;
        let kept = if NARROW32 {
            lo as i32 as i64
        } else {
            lo as i64
        };
        ((kept as u64) ^ lo) | (((kept >> 63) as u64) ^ hi)
    };
    let mut bad = 0u64;
    // Written in place, without zero-filling the buffer first.
    if NARROW32 {
        buf.extend_from_exact_iter(values.iter().map(|&v| {
            bad |= fits(v);
            v.0[0] as i32
        }));
    } else {
        buf.extend_from_exact_iter(values.iter().map(|&v| {
            bad |= fits(v);
            v.0[0] as i64
        }));
    }
    if bad != 0 {
        first_invalid(p, BEYOND_PRECISION, |i| fits(values[i]) != 0)?;
    }
    let validity = p.validity();
    if NARROW32 {
        primitive(Buffer::<i32>::from(buf), validity)
    } else {
        primitive(Buffer::<i64>::from(buf), validity)
    }
}

fn seconds_to_millis(array: &Array) -> Result<Array> {
    const WHAT: &str = "overflows when converted from seconds to milliseconds";
    match array {
        Array::I32(p) => primitive(map_checked(p, WHAT, |v| v.checked_mul(1000))?, p.validity()),
        Array::I64(p) => primitive(map_checked(p, WHAT, |v| v.checked_mul(1000))?, p.validity()),
        _ => Err(mismatch(array, "time32 or timestamp values in seconds")),
    }
}

const MILLIS_PER_DAY: i64 = 86_400_000;

fn millis_to_days(array: &Array) -> Result<Array> {
    match array {
        Array::I64(p) => {
            let days = map_checked(p, "is beyond the date32 range", |v| {
                i32::try_from(v / MILLIS_PER_DAY).ok()
            })?;
            primitive(days, p.validity())
        }
        _ => Err(mismatch(array, "date64 values")),
    }
}

fn float16(array: &Array) -> Result<Array> {
    match array {
        Array::F16(p) => Ok(Array::FixedSizeBinary(FixedSizeBinaryArray::try_new(
            2,
            p.len(),
            Buffer::from_bytes(p.values().bytes().clone()),
            p.validity().cloned(),
        )?)),
        _ => Err(mismatch(array, "float16 values")),
    }
}

fn all_null_i32(len: usize) -> Array {
    let values = Buffer::from(MutableBuffer::zeroed(len * 4));
    let bits = MutableBuffer::zeroed(len.div_ceil(8)).freeze();
    let validity = Bitmap::try_new_with_unset(bits, 0, len, len).expect("enough bytes"); // ok: `len.div_ceil(8)` bytes hold `len` bits.
    Array::I32(
        PrimitiveArray::new(values)
            .with_validity(Some(validity))
            .expect("lengths agree"), // ok: values and validity both have `len` slots.
    )
}

const BEYOND_PRECISION: &str = "does not fit the decimal's physical type (beyond its precision)";

fn decimal(array: &Array, to: DecimalStorage) -> Result<Array> {
    match (array, to) {
        (Array::I32(_), DecimalStorage::Int32) | (Array::I64(_), DecimalStorage::Int64) => {
            Ok(array.clone())
        }
        (Array::I32(p), DecimalStorage::Int64) => {
            let values: Buffer<i64> = p.values().iter().map(i64::from).collect();
            primitive(values, p.validity())
        }
        (Array::I64(p), DecimalStorage::Int32) => narrow(p, |v| i32::try_from(v).ok()),
        (Array::I128(p), DecimalStorage::Int32) => narrow_i128::<true>(p),
        (Array::I128(p), DecimalStorage::Int64) => narrow_i128::<false>(p),
        (Array::I256(p), DecimalStorage::Int32) => {
            narrow(p, |v| v.to_i128().and_then(|v| i32::try_from(v).ok()))
        }
        (Array::I256(p), DecimalStorage::Int64) => {
            narrow(p, |v| v.to_i128().and_then(|v| i64::try_from(v).ok()))
        }
        (Array::I32(p), DecimalStorage::Fixed(w)) => fixed_narrow(p, w, 4, i128::from),
        (Array::I64(p), DecimalStorage::Fixed(w)) => fixed_narrow(p, w, 8, i128::from),
        (Array::I128(p), DecimalStorage::Fixed(w)) => fixed_narrow(p, w, 16, |v| v.to_i128()),
        (Array::I256(p), DecimalStorage::Fixed(w)) => fixed(p, w, be256),
        _ => Err(mismatch(array, "decimal values")),
    }
}

fn be256(v: I256) -> [u8; 32] {
    let mut b = v.to_le_bytes();
    b.reverse();
    b
}

fn narrow<T, U>(p: &PrimitiveArray<T>, f: impl Fn(T) -> Option<U>) -> Result<Array>
where
    T: quiver_arrow::array::PrimitiveType + std::fmt::Display,
    U: quiver_arrow::array::PrimitiveType + Default,
{
    primitive(map_checked(p, BEYOND_PRECISION, f)?, p.validity())
}

/// Each value (of `bytes` ≤ 16 bytes, `as_i128` widening it) as its last `width` big-endian
/// bytes; a valid value that does not fit in `width` bytes is an error. No per-value branch or
/// variable-length copy: each value is shifted so that its `width` bytes lead, stored as 16
/// bytes into a block on the stack at `width`-byte steps (the next value overwrites the rest),
/// and the block appended 64 values at a time.
fn fixed_narrow<T>(
    p: &PrimitiveArray<T>,
    width: usize,
    bytes: usize,
    as_i128: impl Fn(T) -> i128,
) -> Result<Array>
where
    T: quiver_arrow::array::PrimitiveType + std::fmt::Display,
{
    const N: usize = 16;
    check_width(width, bytes.min(N))?;
    let shift = (8 * (N - width)) as u32;
    let values = p.values().as_slice();
    const BLOCK: usize = 64;
    let mut out = MutableBuffer::with_capacity(values.len() * width);
    let mut fits = true;
    let mut block = [0u8; BLOCK * N];
    if width <= 8 {
        // In 64-bit words (most decimals): narrower shifts and stores.
        let shift = (8 * (8 - width)) as u32;
        for chunk in values.chunks(BLOCK) {
            for (i, &v) in chunk.iter().enumerate() {
                let v = as_i128(v);
                let low = v as i64;
                let lead = low << shift;
                fits &= (lead >> shift == low) & (i128::from(low) == v);
                block[i * width..i * width + 8].copy_from_slice(&lead.to_be_bytes());
            }
            out.extend_from_slice(&block[..chunk.len() * width]);
        }
    } else {
        for chunk in values.chunks(BLOCK) {
            for (i, &v) in chunk.iter().enumerate() {
                let v = as_i128(v);
                let lead = v << shift;
                fits &= lead >> shift == v;
                block[i * width..i * width + N].copy_from_slice(&lead.to_be_bytes());
            }
            out.extend_from_slice(&block[..chunk.len() * width]);
        }
    }
    // Rare: the first valid value that does not fit (nulls may hold anything).
    let bad = (!fits)
        .then(|| {
            values.iter().enumerate().position(|(i, &v)| {
                let v = as_i128(v);
                (v << shift) >> shift != v && p.is_valid(i)
            })
        })
        .flatten();
    fixed_array(p, width, out, bad)
}

/// Each value as its last `width` big-endian bytes; a valid value whose dropped bytes are not
/// its sign extension is an error.
fn fixed<T, const N: usize>(
    p: &PrimitiveArray<T>,
    width: usize,
    be: impl Fn(T) -> [u8; N],
) -> Result<Array>
where
    T: quiver_arrow::array::PrimitiveType + std::fmt::Display,
{
    check_width(width, N)?;
    let cut = N - width;
    let values = p.values().as_slice();
    let mut out = MutableBuffer::with_capacity(values.len() * width);
    let mut bad = None;
    for (i, &v) in values.iter().enumerate() {
        let b = be(v);
        let sign = if b[cut] & 0x80 != 0 { 0xFF } else { 0 };
        if bad.is_none() && b[..cut].iter().any(|&x| x != sign) && p.is_valid(i) {
            bad = Some(i);
        }
        out.extend_from_slice(&b[cut..]);
    }
    fixed_array(p, width, out, bad)
}

/// The fixed-size array of `width`-byte values `out` converted from `p` (its validity kept),
/// or the error naming value `bad` of `p`, which does not fit.
fn fixed_array<T>(
    p: &PrimitiveArray<T>,
    width: usize,
    out: MutableBuffer,
    bad: Option<usize>,
) -> Result<Array>
where
    T: quiver_arrow::array::PrimitiveType + std::fmt::Display,
{
    if let Some(i) = bad {
        return Err(Error::invalid(format!(
            "value {i} ({}) {BEYOND_PRECISION}",
            p.values().as_slice()[i]
        )));
    }
    Ok(Array::FixedSizeBinary(FixedSizeBinaryArray::try_new(
        width as i32,
        p.len(),
        Buffer::from(out),
        p.validity().cloned(),
    )?))
}

/// An error unless a decimal of `bytes` bytes can be cut to `width` (1 to `bytes`).
fn check_width(width: usize, bytes: usize) -> Result<()> {
    if width == 0 || width > bytes {
        return Err(Error::invalid(format!(
            "a decimal of {bytes} bytes cannot be stored in {width} bytes"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
