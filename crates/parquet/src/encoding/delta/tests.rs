use super::*;
use crate::encoding::test_util::{Rng, delta_naive};

fn run<T: DeltaInt + std::fmt::Debug + PartialEq>(
    stream: &[u8],
    max: usize,
) -> Result<(Vec<T>, Decoded)> {
    let mut out = MutableBuffer::new();
    let d = decode::<T>(stream, max, &mut out)?;
    Ok((out.typed::<T>().to_vec(), d))
}

#[test]
fn spec_examples() {
    // Encodings.md: 1 2 3 4 5 → deltas 1 1 1 1, min delta 1, width 0.
    let s = delta_naive(&[1, 2, 3, 4, 5], 128, 4);
    let (v, d) = run::<i32>(&s, 5).unwrap();
    assert_eq!(v, [1, 2, 3, 4, 5]);
    assert_eq!(d.bytes, s.len());
    // 7 5 3 1 2 3 4 5 → deltas -2 -2 -2 1 1 1 1, min -2, relative 0 0 0 3 3 3 3, width 2.
    let s = delta_naive(&[7, 5, 3, 1, 2, 3, 4, 5], 128, 4);
    assert_eq!(s[6], 2, "the first miniblock's width");
    assert_eq!(run::<i64>(&s, 8).unwrap().0, [7, 5, 3, 1, 2, 3, 4, 5]);
}

#[test]
fn random_streams_match_the_oracle() {
    let mut rng = Rng::new(7);
    for case in 0..300 {
        let n = rng.below(2000) as usize;
        let spread = 1u64 << rng.below(64);
        let values: Vec<i64> = (0..n)
            .map(|_| (rng.next() % spread) as i64 - (spread / 2) as i64)
            .collect();
        let (block, minis) = [(128, 4), (128, 1), (256, 8), (1024, 32), (128, 2)][case % 5];
        let s = delta_naive(&values, block, minis);
        let (got, d) = run::<i64>(&s, n).unwrap();
        assert_eq!(got, values, "case {case}");
        assert_eq!(d.bytes, s.len(), "case {case}");
        // The same stream as INT32 is the truncation (wrapping arithmetic).
        let (got32, _) = run::<i32>(&s, n).unwrap();
        assert!(
            got32.iter().zip(&values).all(|(a, b)| *a == *b as i32),
            "case {case}"
        );
    }
}

#[test]
fn extremes_wrap() {
    let values = [i64::MIN, i64::MAX, 0, -1, i64::MIN, 1];
    let s = delta_naive(&values, 128, 4);
    assert_eq!(run::<i64>(&s, 6).unwrap().0, values);
    let v32: Vec<i64> = [i32::MIN, i32::MAX, 0, i32::MIN]
        .iter()
        .map(|&v| v as i64)
        .collect();
    let s = delta_naive(&v32, 128, 4);
    assert_eq!(
        run::<i32>(&s, 4).unwrap().0,
        [i32::MIN, i32::MAX, 0, i32::MIN]
    );
}

#[test]
fn trailing_stream_is_not_consumed() {
    let mut s = delta_naive(&[10, 20, 30], 128, 4);
    let len = s.len();
    s.extend_from_slice(b"next stream");
    assert_eq!(run::<i32>(&s, 3).unwrap().1.bytes, len);
}

#[test]
fn bad_headers_and_truncation_are_errors() {
    let good = delta_naive(&(0..300).map(|i| i * i).collect::<Vec<i64>>(), 128, 4);
    let want: Vec<i64> = (0..300).map(|i| i * i).collect();
    let mut accepted = 0;
    for cut in 0..good.len() {
        // Cut inside the values: an error. Cut only in the last miniblock's padding: the values.
        if let Ok((got, _)) = run::<i64>(&good[..cut], 300) {
            assert_eq!(got, want, "cut at {cut}");
            accepted += 1;
        }
    }
    assert!(accepted < 64, "only padding may be missing");
    // Too many values for the page.
    let e = run::<i64>(&good, 299).unwrap_err().to_string();
    assert!(e.contains("300 values"), "{e}");
    // Block size not a multiple of 128; miniblocks not splitting it into multiples of 32.
    let heads: [&[u8]; 4] = [
        &[100, 4, 1, 0],
        &[0x80, 1, 3, 1, 0],
        &[0x80, 1, 0, 1, 0],
        &[0x80, 1, 8, 1, 0],
    ];
    for head in heads {
        assert!(run::<i64>(head, 10).is_err(), "{head:?}");
    }
    // One miniblock of 128 is fine.
    assert_eq!(run::<i64>(&[0x80, 1, 1, 1, 4], 10).unwrap().0, [2]);
    // A bit width over 64.
    let mut s = delta_naive(&[1, 2], 128, 4);
    s[6] = 65;
    assert!(
        run::<i64>(&s, 2)
            .unwrap_err()
            .to_string()
            .contains("bit width 65")
    );
}
