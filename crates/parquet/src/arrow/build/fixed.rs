//! Fixed-width leaves: dense values of INT32, INT64, INT96, FLOAT, DOUBLE and
//! FIXED_LEN_BYTE_ARRAY columns converted to the field's Arrow type (narrowed, widened,
//! sign-extended, INT96 to timestamps) and spread over their slots (byte arrays are
//! [`super::byte_arrays`]'s).

use super::*;

/// Spreads `data` (dense values of `width` bytes) over `slots` by `present`.
pub(super) fn spread_bytes(
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

/// A `Decimal32` or `Decimal64` array (`t`) of `values` ([`narrow_decimals`]) spread over
/// `slots` by `present`.
pub(super) fn small_decimals(
    t: &DataType,
    values: impl Iterator<Item = i128>,
    slots: usize,
    present: Option<&Bitmap>,
    validity: Option<Bitmap>,
) -> Result<Array> {
    let data = narrow_decimals(t, values)?;
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
pub(super) fn be_to_le32(b: &[u8]) -> [u8; 32] {
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
pub(super) fn low_i128(le: [u8; 32]) -> i128 {
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
        b.try_into().expect("12 bytes") // ok: `convert` and `chunks_exact` hand out 12-byte chunks.
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
        .expect("a value out of range"); // ok: `fits` is false only when some value did not fit.
    let day = i128::from(le_i32(&bad[8..12])) - JULIAN_UNIX_EPOCH;
    Err(Error::overflow(format!(
        "INT96 timestamp {day} days from 1970-01-01 (plus {} ns) is out of the range of \
         timestamp[{unit}]; read INT96 in a coarser unit (the `int96_unit` read option, \
         `--int96-unit` in the CLI)",
        le_i64(&bad[..8]),
    )))
}

/// The leaf array of type `t` from `dense` values that are not byte arrays (and of the Null
/// type from any).
pub(super) fn fixed_leaf(
    dense: Dense,
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
                    small_decimals(
                        t,
                        data.as_slice().chunks_exact(width).map(wide),
                        slots,
                        present,
                        validity,
                    )
                }
                (P::FIXED_LEN_BYTE_ARRAY, D::Decimal32 { .. } | D::Decimal64 { .. })
                    if (1..=16).contains(&width) =>
                {
                    let wide = |b: &[u8]| low_i128(be_to_le32(b));
                    small_decimals(
                        t,
                        data.as_slice().chunks_exact(width).map(wide),
                        slots,
                        present,
                        validity,
                    )
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
        (Dense::Decimal128 { data, .. }, t @ D::Decimal128 { .. }) => {
            primitive::<I128>(t, data, slots, present, validity)
        }
        (_, t) => Err(Error::not_supported(format!("reading {physical:?} as {t}"))),
    }
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
