//! BYTE_ARRAY leaves: strings and binary (32- or 64-bit offsets, views), dictionaries, and
//! decimals stored as byte arrays, spread over their slots.

use super::fixed::{be_to_le32, low_i128, small_decimals, spread_bytes};
use super::*;

pub(super) fn bytes_leaf(
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
                    let offsets = narrow_offsets(offsets.typed::<i64>())?;
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
            small_decimals(t, wide, slots, present, validity)
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
