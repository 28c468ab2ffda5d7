use super::*;
use crate::arrow::write_schema::{DecimalLayout, SchemaOptions, WriteSchema};
use half::f16;
use quiver_arrow::array::StringArray;
use quiver_arrow::datatype::{Field, IntegerType, Schema, TimeUnit};
use quiver_arrow::{DataType, I128};

fn leaf_for(t: DataType) -> LeafSpec {
    leaf_with(t, &SchemaOptions::default())
}

fn leaf_with(t: DataType, options: &SchemaOptions) -> LeafSpec {
    let schema = Schema::new(vec![Field::new("x", t, true)]);
    WriteSchema::new(&schema, options).unwrap().leaves()[0].clone()
}

fn typed<T: quiver_arrow::array::PrimitiveType>(values: Vec<Option<T>>, t: DataType) -> Array {
    T::into_array(
        PrimitiveArray::from_options(values)
            .with_data_type(t)
            .unwrap(),
    )
}

fn i32s(a: &Array) -> Vec<Option<i32>> {
    match a {
        Array::I32(p) => p.iter().collect(),
        other => panic!("not I32: {:?}", other.data_type()),
    }
}

fn i64s(a: &Array) -> Vec<Option<i64>> {
    match a {
        Array::I64(p) => p.iter().collect(),
        other => panic!("not I64: {:?}", other.data_type()),
    }
}

fn fixed(a: &Array) -> Vec<Option<Vec<u8>>> {
    match a {
        Array::FixedSizeBinary(f) => f.iter().map(|v| v.map(<[u8]>::to_vec)).collect(),
        other => panic!("not FLBA: {:?}", other.data_type()),
    }
}

#[test]
fn small_and_unsigned_integers_widen() {
    let a = typed(vec![Some(-128i8), None, Some(127)], DataType::Int8);
    assert_eq!(
        i32s(&to_physical(&a, &leaf_for(DataType::Int8)).unwrap()),
        [Some(-128), None, Some(127)]
    );
    let a = typed(vec![Some(255u8), Some(0)], DataType::UInt8);
    assert_eq!(
        i32s(&to_physical(&a, &leaf_for(DataType::UInt8)).unwrap()),
        [Some(255), Some(0)]
    );
    let a = typed(vec![Some(65535u16), None], DataType::UInt16);
    assert_eq!(
        i32s(&to_physical(&a, &leaf_for(DataType::UInt16)).unwrap()),
        [Some(65535), None]
    );
    let a = typed(vec![Some(-32768i16)], DataType::Int16);
    assert_eq!(
        i32s(&to_physical(&a, &leaf_for(DataType::Int16)).unwrap()),
        [Some(-32768)]
    );
    // u32 and u64 keep their bits (zero copy): 2^32 - 1 is -1 as i32.
    let p = PrimitiveArray::from_options([Some(u32::MAX), Some(7), None]);
    let a = Array::U32(p.slice(0, 3));
    let out = to_physical(&a, &leaf_for(DataType::UInt32)).unwrap();
    assert_eq!(i32s(&out), [Some(-1), Some(7), None]);
    let Array::I32(o) = &out else { unreachable!() };
    assert_eq!(o.values().as_ptr() as usize, p.values().as_ptr() as usize);
    let a = Array::U64(PrimitiveArray::from_options([Some(1u64 << 63), None]));
    assert_eq!(
        i64s(&to_physical(&a, &leaf_for(DataType::UInt64)).unwrap()),
        [Some(i64::MIN), None]
    );
}

#[test]
fn identity_layouts_are_zero_copy() {
    let a = typed(
        vec![Some(1i64), None],
        DataType::Timestamp(TimeUnit::Nanosecond, None),
    );
    let out = to_physical(&a, &leaf_for(a.data_type().clone())).unwrap();
    let (Array::I64(x), Array::I64(y)) = (&a, &out) else {
        unreachable!()
    };
    assert_eq!(x.values().as_ptr(), y.values().as_ptr());
    let s = Array::Utf8(StringArray::from_options([Some("a"), None]));
    assert!(matches!(
        to_physical(&s, &leaf_for(DataType::Utf8)).unwrap(),
        Array::Utf8(_)
    ));
}

#[test]
fn seconds_become_milliseconds_and_overflow_is_an_error() {
    let t = DataType::Timestamp(TimeUnit::Second, Some("UTC".into()));
    let a = typed(vec![Some(-2i64), None, Some(1_700_000_000)], t.clone());
    assert_eq!(
        i64s(&to_physical(&a, &leaf_for(t.clone())).unwrap()),
        [Some(-2000), None, Some(1_700_000_000_000)]
    );
    // A null slot holding an overflowing value is not an error; a valid one is.
    let a = typed(vec![Some(1i64), None], t.clone());
    let Array::I64(p) = &a else { unreachable!() };
    let (dt, _, validity) = p.clone().into_parts();
    let big = Array::I64(
        PrimitiveArray::try_new(dt.clone(), vec![1, i64::MAX].into(), validity).unwrap(),
    );
    assert_eq!(
        i64s(&to_physical(&big, &leaf_for(t.clone())).unwrap())[0],
        Some(1000)
    );
    let bad = Array::I64(PrimitiveArray::try_new(dt, vec![i64::MAX].into(), None).unwrap());
    let e = to_physical(&bad, &leaf_for(t)).unwrap_err().to_string();
    assert!(
        e.contains("value 0") && e.contains("overflows") && e.contains('x'),
        "{e}"
    );
    let t = DataType::Time32(TimeUnit::Second);
    let a = typed(vec![Some(86_399i32), None], t.clone());
    assert_eq!(
        i32s(&to_physical(&a, &leaf_for(t)).unwrap()),
        [Some(86_399_000), None]
    );
}

#[test]
fn date64_becomes_days_truncated_as_arrow_cpp() {
    let day = 86_400_000i64;
    let a = typed(
        vec![Some(0), Some(3 * day + 5), Some(-1), Some(-day - 1), None],
        DataType::Date64,
    );
    assert_eq!(
        i32s(&to_physical(&a, &leaf_for(DataType::Date64)).unwrap()),
        [Some(0), Some(3), Some(0), Some(-1), None]
    );
    let a = typed(vec![Some(i64::MAX)], DataType::Date64);
    assert!(to_physical(&a, &leaf_for(DataType::Date64)).is_err());
}

#[test]
fn float16_is_two_little_endian_bytes() {
    let a = Array::F16(PrimitiveArray::from_options([
        Some(f16::from_f32(1.0)),
        None,
        Some(f16::from_f32(-2.5)),
    ]));
    let out = fixed(&to_physical(&a, &leaf_for(DataType::Float16)).unwrap());
    // 1.0 = 0x3C00, -2.5 = 0xC100.
    assert_eq!(out, [Some(vec![0x00, 0x3C]), None, Some(vec![0x00, 0xC1])]);
}

fn dec128(values: Vec<Option<i128>>, precision: u8, scale: i8) -> Array {
    typed(
        values.into_iter().map(|v| v.map(I128::from_i128)).collect(),
        DataType::Decimal128 { precision, scale },
    )
}

#[test]
fn decimals_by_precision() {
    let t = |precision| DataType::Decimal128 {
        precision,
        scale: 2,
    };
    // precision 20 → FLBA(9), big-endian two's complement.
    let a = dec128(
        vec![Some(-1), Some(1), None, Some(-(10i128.pow(20) - 1))],
        20,
        2,
    );
    let out = fixed(&to_physical(&a, &leaf_for(t(20))).unwrap());
    assert_eq!(out[0], Some(vec![0xFF; 9]));
    assert_eq!(out[1], Some(vec![0, 0, 0, 0, 0, 0, 0, 0, 1]));
    assert_eq!(out[2], None);
    // -(10^20 - 1) = -0x56BC75E2D630FFFFF → two's complement in 9 bytes.
    assert_eq!(
        out[3],
        Some(vec![0xFA, 0x94, 0x38, 0xA1, 0xD2, 0x9C, 0xF0, 0x00, 0x01])
    );
    // precision ≤ 9 → INT32, ≤ 18 → INT64.
    let a = dec128(vec![Some(-999_999_999), None], 9, 2);
    assert_eq!(
        i32s(&to_physical(&a, &leaf_for(t(9))).unwrap()),
        [Some(-999_999_999), None]
    );
    let a = dec128(vec![Some(10i128.pow(17)), Some(-5)], 18, 2);
    assert_eq!(
        i64s(&to_physical(&a, &leaf_for(t(18))).unwrap()),
        [Some(10i64.pow(17)), Some(-5)]
    );
    // A valid value beyond the stored width is an error.
    let a = dec128(vec![Some(1i128 << 40)], 9, 2);
    let e = to_physical(&a, &leaf_for(t(9))).unwrap_err().to_string();
    assert!(e.contains("beyond its precision"), "{e}");
    let a = dec128(vec![Some(1i128 << 80)], 20, 2);
    assert!(to_physical(&a, &leaf_for(t(20))).is_err());
}

#[test]
fn decimal32_64_256_sources() {
    let flba = SchemaOptions {
        decimals: DecimalLayout::FixedLenByteArray,
    };
    let t32 = DataType::Decimal32 {
        precision: 5,
        scale: 1,
    };
    let a = typed(vec![Some(-2i32), Some(300)], t32.clone());
    assert_eq!(
        i32s(&to_physical(&a, &leaf_for(t32.clone())).unwrap()),
        [Some(-2), Some(300)]
    );
    // FLBA(3), as pyarrow stores decimal32(5, 1) by default.
    let out = fixed(&to_physical(&a, &leaf_with(t32, &flba)).unwrap());
    assert_eq!(
        out,
        [Some(vec![0xFF, 0xFF, 0xFE]), Some(vec![0, 0x01, 0x2C])]
    );
    let t64 = DataType::Decimal64 {
        precision: 4,
        scale: 0,
    };
    let a = typed(vec![Some(-9999i64)], t64.clone());
    assert_eq!(
        i32s(&to_physical(&a, &leaf_for(t64)).unwrap()),
        [Some(-9999)]
    );
    let t256 = DataType::Decimal256 {
        precision: 40,
        scale: 0,
    };
    let v = quiver_arrow::I256::from(-256i128);
    let a = typed(vec![Some(v)], t256.clone());
    let mut want = vec![0xFF; 17];
    want[16] = 0x00;
    assert_eq!(
        fixed(&to_physical(&a, &leaf_for(t256)).unwrap()),
        [Some(want)]
    );
    let t256 = DataType::Decimal256 {
        precision: 15,
        scale: 0,
    };
    let a = typed(vec![Some(quiver_arrow::I256::from(-7i128))], t256.clone());
    assert_eq!(i64s(&to_physical(&a, &leaf_for(t256)).unwrap()), [Some(-7)]);
}

#[test]
fn null_columns_are_all_null_int32() {
    let a = Array::Null(quiver_arrow::array::NullArray::new(5));
    let out = to_physical(&a, &leaf_for(DataType::Null)).unwrap();
    assert_eq!(i32s(&out), [None; 5]);
    assert_eq!(out.null_count(), 5);
}

#[test]
fn dictionaries_keep_their_keys() {
    let values = typed(vec![Some(86_400_000i64 * 2), Some(0)], DataType::Date64);
    let keys = Array::I8(PrimitiveArray::from_options([Some(1i8), None, Some(0)]));
    let d = Array::Dictionary(DictionaryArray::try_new(keys, values, false).unwrap());
    let t = DataType::dictionary(IntegerType::Int8, DataType::Date64);
    let out = to_physical(&d, &leaf_for(t)).unwrap();
    let Array::Dictionary(o) = &out else {
        panic!("not a dictionary")
    };
    assert_eq!(i32s(o.values()), [Some(2), Some(0)]);
    let Array::I8(k) = o.keys() else {
        unreachable!()
    };
    assert_eq!(k.iter().collect::<Vec<_>>(), [Some(1), None, Some(0)]);
}

#[test]
fn run_end_encoded_keeps_its_runs() {
    let values = typed(vec![Some(5u8), None], DataType::UInt8);
    let ends = Array::I32(PrimitiveArray::new(vec![2, 5]));
    let r = RunEndArray::try_new(ends, values).unwrap();
    let a = Array::RunEndEncoded(r);
    let t = a.data_type().clone();
    let out = to_physical(&a, &leaf_for(t)).unwrap();
    let Array::RunEndEncoded(o) = &out else {
        panic!("not run-end encoded")
    };
    assert_eq!((o.len(), i32s(o.values())), (5, vec![Some(5), None]));
}

#[test]
fn a_wrong_array_for_the_leaf_is_an_error() {
    let a = Array::Utf8(StringArray::from_options([Some("a")]));
    let e = to_physical(&a, &leaf_for(DataType::Int64))
        .unwrap_err()
        .to_string();
    assert!(e.contains("INT64") && e.contains('x'), "{e}");
    let a = typed(vec![Some(1i64)], DataType::Int64);
    assert!(
        to_physical(
            &a,
            &leaf_for(DataType::Decimal128 {
                precision: 20,
                scale: 0
            })
        )
        .is_err()
    );
}

#[test]
fn byte_arrays_past_i32_max_are_errors() {
    let max = i64::from(i32::MAX);
    let offsets = |v: Vec<i64>| OffsetBuffer::try_new(Buffer::from(v)).unwrap();
    // Values up to i32::MAX bytes pass, even when they add up to more.
    check_byte_array_lengths(&offsets(vec![0, 10, max + 10, 2 * max + 10])).unwrap();
    let e = check_byte_array_lengths(&offsets(vec![5, 10, 20, max + 21])).unwrap_err();
    assert!(
        e.to_string().contains("value 2 is 2147483648 bytes long"),
        "{e}"
    );
}

/// Decimals written as fixed-size byte arrays of every width up to 16 are each value's last
/// big-endian bytes (as the naive slicing gives them), from 32-, 64- and 128-bit sources; a
/// valid value beyond the width is an error naming it, a null slot holding one is not.
#[test]
fn fixed_size_decimals_are_the_last_big_endian_bytes() {
    let noise = crate::encoding::test_util::noise(9, 16 * 300);
    for width in 1..=16usize {
        let bits = 8 * width as u32;
        // Values that fit in `width` bytes: the noise cut to `bits` and sign-extended.
        let values: Vec<i128> = noise
            .chunks_exact(16)
            .map(|c| {
                let v = i128::from_le_bytes(c.try_into().unwrap());
                if bits == 128 {
                    v
                } else {
                    (v << (128 - bits)) >> (128 - bits)
                }
            })
            .collect();
        let want: Vec<Option<Vec<u8>>> = values
            .iter()
            .map(|v| Some(v.to_be_bytes()[16 - width..].to_vec()))
            .collect();
        let t = DataType::Decimal128 {
            precision: 38,
            scale: 0,
        };
        let a = typed(
            values.iter().map(|&v| Some(I128::from_i128(v))).collect(),
            t.clone(),
        );
        let got = fixed(&decimal(&a, DecimalStorage::Fixed(width)).unwrap());
        assert_eq!(got, want, "width {width} from 128 bits");
        // The same values from the narrower sources that hold them.
        let t64 = DataType::Decimal64 {
            precision: 18,
            scale: 0,
        };
        let t32 = DataType::Decimal32 {
            precision: 9,
            scale: 0,
        };
        let narrower = [
            (
                64,
                typed(values.iter().map(|&v| Some(v as i64)).collect(), t64),
            ),
            (
                32,
                typed(values.iter().map(|&v| Some(v as i32)).collect(), t32),
            ),
        ];
        for (source_bits, a) in narrower.iter().filter(|(b, _)| 8 * width <= *b) {
            let got = fixed(&decimal(a, DecimalStorage::Fixed(width)).unwrap());
            assert_eq!(got, want, "width {width} from {source_bits} bits");
        }
        if width < 16 {
            // One past the largest value: an error for a valid slot, nothing for a null one.
            let past = 1i128 << (bits - 1);
            let mut v: Vec<Option<I128>> =
                values.iter().map(|&v| Some(I128::from_i128(v))).collect();
            v[7] = None;
            let hidden = hidden_under_null(typed(v.clone(), t.clone()), 7, past);
            assert!(
                decimal(&hidden, DecimalStorage::Fixed(width)).is_ok(),
                "width {width}"
            );
            v[7] = Some(I128::from_i128(-past - 1));
            v[9] = Some(I128::from_i128(past));
            let e = decimal(&typed(v, t.clone()), DecimalStorage::Fixed(width))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("value 7 (") && e.contains("beyond its precision"),
                "{e}"
            );
        }
    }
}

/// Decimal128 narrowed to INT32 and INT64 storage: every value whose i128 fits the integer
/// type comes out as `i32::try_from` / `i64::try_from` gives it, the first valid one that does
/// not fit is the error, and values hidden under nulls do not count.
#[test]
fn decimal128_narrowing_matches_try_from() {
    let t = DataType::Decimal128 {
        precision: 38,
        scale: 0,
    };
    let edges: Vec<i128> = [0i128, 1, -1, 2, -2]
        .into_iter()
        .chain([i32::MAX, i32::MIN].map(i128::from))
        .chain([i64::MAX, i64::MIN].map(i128::from))
        .flat_map(|v| [v - 1, v, v + 1])
        .chain([1 << 64, -(1 << 64), (1 << 64) - 1, i128::MAX, i128::MIN + 1])
        .chain([0xFFFF_FFFFi128, 0x1_0000_0000, -0x8000_0001])
        .collect();
    for storage in [DecimalStorage::Int32, DecimalStorage::Int64] {
        let fits = |v: i128| match storage {
            DecimalStorage::Int32 => i32::try_from(v).is_ok(),
            _ => i64::try_from(v).is_ok(),
        };
        let ok: Vec<i128> = edges.iter().copied().filter(|&v| fits(v)).collect();
        let array = typed(
            ok.iter().map(|&v| Some(I128::from_i128(v))).collect(),
            t.clone(),
        );
        let got = decimal(&array, storage).unwrap();
        let back: Vec<i128> = match &got {
            Array::I32(p) => p.values().iter().map(i128::from).collect(),
            Array::I64(p) => p.values().iter().map(i128::from).collect(),
            other => panic!("{:?}", other.data_type()),
        };
        assert_eq!(back, ok, "{storage:?}");
        for &bad in edges.iter().filter(|&&v| !fits(v)) {
            // Valid: an error naming it. Under a null: no error.
            let mut v: Vec<Option<I128>> = ok.iter().map(|&v| Some(I128::from_i128(v))).collect();
            v.insert(3, Some(I128::from_i128(bad)));
            let e = decimal(&typed(v.clone(), t.clone()), storage)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("value 3 (") && e.contains("beyond its precision"),
                "{e}"
            );
            v[3] = None;
            let hidden = hidden_under_null(typed(v, t.clone()), 3, bad);
            assert!(decimal(&hidden, storage).is_ok(), "{storage:?} {bad}");
        }
    }
}

/// `with_null` (a Decimal128 array, slot `i` null) with `value` stored under that null slot.
fn hidden_under_null(with_null: Array, i: usize, value: i128) -> Array {
    let Array::I128(p) = &with_null else {
        unreachable!()
    };
    let mut raw: Vec<I128> = p.values().as_slice().to_vec();
    raw[i] = I128::from_i128(value);
    Array::I128(
        PrimitiveArray::new(raw.iter().copied().collect::<Buffer<I128>>())
            .with_validity(p.validity().cloned())
            .unwrap(),
    )
}
