use super::*;
use crate::encoding::delta::decode;
use crate::encoding::test_util::{Rng, delta_naive_absent};
use quiver_arrow::buffer::MutableBuffer;

/// Lengths around the block and miniblock edges, and a few long ones.
const LENS: [usize; 14] = [
    0, 1, 2, 31, 32, 33, 127, 128, 129, 130, 257, 300, 1000, 4097,
];

fn i64s(rng: &mut Rng, n: usize) -> Vec<i64> {
    let kind = rng.below(5);
    let mut x = rng.next() as i64;
    (0..n)
        .map(|_| match kind {
            // Sorted with small steps (timestamps, keys).
            0 => {
                x = x.wrapping_add(rng.below(1000) as i64);
                x
            }
            // Small values of both signs.
            1 => rng.below(200) as i64 - 100,
            // Anything, extremes included.
            2 => [i64::MIN, i64::MAX, 0, -1][rng.below(4) as usize],
            3 => rng.next() as i64,
            _ => 42,
        })
        .collect()
}

#[test]
fn i64_streams_match_the_oracle_and_decode_back() {
    let mut rng = Rng::new(41);
    for &n in &LENS {
        for _ in 0..10 {
            let values = i64s(&mut rng, n);
            let mut out = vec![0xAB];
            encode_i64(&values, &mut out);
            assert_eq!(out[0], 0xAB);
            assert_eq!(out[1..], delta_naive_absent(&values, 256, 4, 0), "n {n}");
            let mut back = MutableBuffer::new();
            let d = decode::<i64>(&out[1..], n, &mut back).unwrap();
            assert_eq!((d.values, d.bytes), (n, out.len() - 1));
            assert_eq!(back.typed::<i64>(), &values[..]);
        }
    }
}

#[test]
fn i32_streams_decode_back_and_match_the_oracle_without_overflow() {
    let mut rng = Rng::new(42);
    for &n in &LENS {
        for _ in 0..10 {
            let values: Vec<i32> = i64s(&mut rng, n).iter().map(|&v| v as i32).collect();
            let mut out = Vec::new();
            encode_i32(&values, &mut out);
            let mut back = MutableBuffer::new();
            let d = decode::<i32>(&out, n, &mut back).unwrap();
            assert_eq!((d.values, d.bytes), (n, out.len()));
            assert_eq!(back.typed::<i32>(), &values[..]);
            // Deltas wrap in 32 bits: no miniblock is wider than 32.
            let wide: Vec<i64> = values.iter().map(|&v| i64::from(v)).collect();
            let fits = wide.windows(2).all(|w| i32::try_from(w[1] - w[0]).is_ok());
            if fits {
                assert_eq!(out, delta_naive_absent(&wide, 128, 4, 0), "n {n}");
            }
        }
    }
}

#[test]
fn extreme_deltas_wrap() {
    // i32: MIN → MAX is a delta of -1 in 32 bits; the block's min delta is -1, widths 1.
    let values = [i32::MIN, i32::MAX, i32::MIN, i32::MAX];
    let mut out = Vec::new();
    encode_i32(&values, &mut out);
    // Header: 80 01, 4, 4, zigzag(MIN) = 2^32 - 1 as ULEB128 (FF FF FF FF 0F).
    let mut want = vec![0x80, 0x01, 4, 4, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F];
    // Deltas -1, 1, -1: min -1 (zigzag 1), offsets 0, 2, 0 at width 2: 0b00_10_00 then zeros.
    want.extend([1, 2, 0, 0, 0, 0b0000_1000]);
    want.extend([0; 7]);
    assert_eq!(out, want);

    let values = [i64::MAX, i64::MIN, 0, i64::MAX];
    let mut out = Vec::new();
    encode_i64(&values, &mut out);
    let mut back = MutableBuffer::new();
    decode::<i64>(&out, 4, &mut back).unwrap();
    assert_eq!(back.typed::<i64>(), &values);
}

#[test]
fn small_streams_byte_for_byte() {
    // Encodings.md's first example: 1..=5, deltas all 1: min delta 1 (zigzag 2), widths 0.
    let mut out = Vec::new();
    encode_i32(&[1, 2, 3, 4, 5], &mut out);
    assert_eq!(out, [0x80, 0x01, 4, 5, 2, 2, 0, 0, 0, 0]);
    // Its second: 7, 5, 3, 1, 2, 3, 4, 5: deltas -2 -2 -2 1 1 1 1, min -2 (zigzag 3), offsets
    // 0 0 0 3 3 3 3 at width 2, padded to 32 values: 8 bytes.
    let mut out = Vec::new();
    encode_i32(&[7, 5, 3, 1, 2, 3, 4, 5], &mut out);
    let mut want = vec![
        0x80,
        0x01,
        4,
        8,
        14,
        3,
        2,
        0,
        0,
        0,
        0b1100_0000,
        0b0011_1111,
    ];
    want.extend([0; 6]);
    assert_eq!(out, want);
    // As INT64: blocks of 256 (80 02), miniblocks of 64 values, 16 bytes at width 2.
    let mut out = Vec::new();
    encode_i64(&[7, 5, 3, 1, 2, 3, 4, 5], &mut out);
    want[1] = 0x02;
    want.extend([0; 8]);
    assert_eq!(out, want);
    // No values: the header alone, first value 0; one value: no block.
    let mut out = Vec::new();
    encode_i64(&[], &mut out);
    assert_eq!(out, [0x80, 0x02, 4, 0, 0]);
    let mut out = Vec::new();
    encode_i32(&[-3], &mut out);
    assert_eq!(out, [0x80, 0x01, 4, 1, 5]);
}
