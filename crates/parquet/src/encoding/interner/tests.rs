use super::*;
use crate::encoding::test_util::Rng;

/// The oracle: a linear search of the values seen so far.
/// `values` back to back, and Arrow's 32-bit offsets into them.
fn concatenated(values: &[&[u8]]) -> (Vec<u8>, Vec<i32>) {
    let mut data = Vec::new();
    let mut offsets = vec![0i32];
    for v in values {
        data.extend_from_slice(v);
        offsets.push(data.len() as i32);
    }
    (data, offsets)
}

/// [`naive`] through std's `HashMap`, for inputs too large for a linear search.
fn oracle_map<'v>(values: &[&'v [u8]]) -> (Vec<&'v [u8]>, Vec<u32>) {
    let mut map = std::collections::HashMap::new();
    let mut dict = Vec::new();
    let idx = values
        .iter()
        .map(|&v| {
            *map.entry(v).or_insert_with(|| {
                dict.push(v);
                dict.len() as u32 - 1
            })
        })
        .collect();
    (dict, idx)
}

fn naive<T: PartialEq + Clone>(values: &[T]) -> (Vec<T>, Vec<u32>) {
    let mut dict: Vec<T> = Vec::new();
    let idx = values
        .iter()
        .map(|v| match dict.iter().position(|d| d == v) {
            Some(i) => i as u32,
            None => {
                dict.push(v.clone());
                dict.len() as u32 - 1
            }
        })
        .collect();
    (dict, idx)
}

/// Values from a pool of `distinct`, in runs.
fn sample(rng: &mut Rng, n: usize, distinct: u64) -> Vec<u64> {
    let mut out = Vec::new();
    while out.len() < n {
        let v = rng.below(distinct).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        out.extend(std::iter::repeat_n(v, rng.below(4) as usize + 1));
    }
    out.truncate(n);
    out
}

#[test]
fn fixed_interners_match_the_oracle() {
    let mut rng = Rng::new(71);
    let mut d64 = FixedInterner::<u64>::new();
    let mut d32 = FixedInterner::<u32>::default();
    let mut d12 = FixedInterner::<[u8; 12]>::new();
    for distinct in [1u64, 2, 50, 700] {
        let values = sample(&mut rng, 2000, distinct);
        let (dict, want) = naive(&values);
        let mut idx = vec![7];
        d64.intern_all(&values, &mut idx);
        assert_eq!((d64.values(), &idx[1..]), (&dict[..], &want[..]));
        assert_eq!(d64.len(), dict.len());

        // Single interns continue the same dictionary.
        for (v, &i) in values.iter().zip(&want) {
            assert_eq!(d64.intern(*v), i);
        }

        let narrow: Vec<u32> = values.iter().map(|&v| (v >> 32) as u32).collect();
        let (dict, want) = naive(&narrow);
        let mut idx = Vec::new();
        d32.intern_all(&narrow, &mut idx);
        assert_eq!((d32.values(), &idx[..]), (&dict[..], &want[..]));

        let wide: Vec<[u8; 12]> = values
            .iter()
            .map(|&v| {
                let mut b = [0u8; 12];
                b[4..].copy_from_slice(&v.to_le_bytes());
                b
            })
            .collect();
        let (dict, want) = naive(&wide);
        let mut idx = Vec::new();
        d12.intern_all(&wide, &mut idx);
        assert_eq!((d12.values(), &idx[..]), (&dict[..], &want[..]));

        d64.clear();
        assert!(d64.is_empty());
        d32.clear();
        d12.clear();
    }
}

#[test]
fn floats_are_distinct_by_bits() {
    let quiet = f64::NAN.to_bits();
    let payload = quiet | 1;
    let neg_nan = (-f64::NAN).to_bits();
    let values = [
        quiet,
        0f64.to_bits(),
        (-0f64).to_bits(),
        payload,
        quiet,
        neg_nan,
        0,
    ];
    let mut d = FixedInterner::<u64>::new();
    let mut idx = Vec::new();
    d.intern_all(&values, &mut idx);
    assert_eq!(idx, [0, 1, 2, 3, 0, 4, 1]);
    let f = [f32::NAN.to_bits(), (-0f32).to_bits(), 0f32.to_bits()];
    let mut d = FixedInterner::<u32>::new();
    assert_eq!(f.map(|v| d.intern(v)), [0, 1, 2]);
}

#[test]
fn bytes_interner_matches_the_oracle() {
    let mut rng = Rng::new(72);
    let mut d = BytesInterner::new();
    for distinct in [1u64, 3, 40, 900] {
        let values: Vec<Vec<u8>> = sample(&mut rng, 3000, distinct)
            .iter()
            .map(|&v| v.to_le_bytes()[..(v % 9) as usize].to_vec())
            .collect();
        let (dict, want) = naive(&values);
        let mut idx = Vec::new();
        d.intern_all(values.iter().map(|v| &v[..]), &mut idx);
        assert_eq!(idx, want);
        assert_eq!(d.len(), dict.len());
        let got: Vec<&[u8]> = d.iter().collect();
        let dict_refs: Vec<&[u8]> = dict.iter().map(|v| &v[..]).collect();
        assert_eq!(got, dict_refs);
        assert_eq!(d.data(), dict.concat());
        assert_eq!(d.data_len(), d.data().len());
        for (i, v) in dict.iter().enumerate() {
            assert_eq!(d.get(i as u32), &v[..]);
            assert_eq!(d.intern(v), i as u32);
        }
        d.clear();
        assert!(d.is_empty() && d.iter().next().is_none() && d.data_len() == 0);
    }
}

#[test]
fn truncate_forgets_the_later_values() {
    let mut d = BytesInterner::new();
    for v in [&b"a"[..], b"bb", b"ccc", b"dddd"] {
        d.intern(v);
    }
    d.truncate(2);
    assert_eq!((d.len(), d.data(), d.data_len()), (2, &b"abb"[..], 3));
    // The forgotten values are new again, the kept ones are found.
    assert_eq!(d.intern(b"bb"), 1);
    assert_eq!(d.intern(b"dddd"), 2);
    assert_eq!(d.intern(b"ccc"), 3);
    d.truncate(9);
    assert_eq!(d.len(), 4);
}

#[test]
fn bytes_of_every_length_are_told_apart() {
    // Lengths 0-40 (the two-word keys up to 16 bytes, the chunked hash beyond), values that
    // share their first and last 8 bytes, repeat a word ("abcdefgh" and "abcdefghabcdefgh"
    // read as the same two words), or differ in one middle byte.
    let mut values: Vec<Vec<u8>> = Vec::new();
    for n in 0..=40usize {
        let base: Vec<u8> = (0..n).map(|i| b"abcdefgh"[i % 8]).collect();
        values.push(base.clone());
        for at in [n / 2, n.saturating_sub(1), 0] {
            if at < n {
                let mut other = base.clone();
                other[at] ^= 0x20;
                values.push(other);
            }
        }
        values.push(vec![0; n]);
    }
    let mut rng = Rng::new(73);
    let order: Vec<Vec<u8>> = (0..5000)
        .map(|_| values[rng.below(values.len() as u64) as usize].clone())
        .collect();
    let (dict, want) = naive(&order);
    let mut d = BytesInterner::new();
    let mut idx = Vec::new();
    d.intern_all(order.iter().map(|v| &v[..]), &mut idx);
    assert_eq!(idx, want);
    let got: Vec<&[u8]> = d.iter().collect();
    assert_eq!(got, dict.iter().map(|v| &v[..]).collect::<Vec<_>>());
}

#[test]
fn tables_grow_and_truncate_keeping_every_index() {
    // Many distinct values: the tables grow many times, and a truncated table still finds the
    // values it kept and takes the others as new.
    let values: Vec<u64> = (0..100_000u64)
        .map(|i| i.wrapping_mul(0x1_0000_0001))
        .collect();
    let mut d = FixedInterner::<u64>::new();
    d.reserve(10);
    let mut idx = Vec::new();
    d.intern_all(&values, &mut idx);
    assert_eq!(idx, (0..100_000u32).collect::<Vec<_>>());
    d.truncate(60_000);
    assert_eq!(d.len(), 60_000);
    assert_eq!(d.intern(values[59_999]), 59_999);
    assert_eq!(d.intern(values[99_999]), 60_000);
    assert_eq!(d.intern(values[60_000]), 60_001);

    let mut b = BytesInterner::new();
    b.reserve(3, 10);
    let bytes: Vec<Vec<u8>> = (0..50_000u32)
        .map(|i| format!("value {i} {}", "x".repeat((i % 23) as usize)).into_bytes())
        .collect();
    let mut idx = Vec::new();
    b.intern_all(bytes.iter().map(|v| &v[..]), &mut idx);
    assert_eq!(idx, (0..50_000u32).collect::<Vec<_>>());
    b.truncate(10);
    assert_eq!((b.len(), b.get(9)), (10, &bytes[9][..]));
    assert_eq!(b.intern(&bytes[3]), 3);
    assert_eq!(b.intern(&bytes[40_000]), 10);
    b.clear();
    assert_eq!(b.intern(&bytes[40_000]), 0);
}

/// Batches through the direct map (narrow ranges, widening, negative and extreme keys) mixed
/// with batches and single values through the hash table give the oracle's indices.
#[test]
fn direct_map_batches_match_the_oracle() {
    let mut rng = Rng::new(5);
    let mut d64 = FixedInterner::<u64>::new();
    let mut d32 = FixedInterner::<u32>::new();
    let mut all64: Vec<u64> = Vec::new();
    let mut all32: Vec<u32> = Vec::new();
    let (mut got64, mut got32) = (Vec::new(), Vec::new());
    // (base, spread): narrow ranges (direct), one that widens them, wide ones (hashed).
    let ranges: [(i64, u64); 9] = [
        (100, 50),
        (130, 400),
        (-300, 200),
        (0, 1 << 20),
        (i64::MIN, 90),
        (i64::MAX - 70, 70),
        (20_000, 40_000),
        (5, 3),
        (-(1 << 40), 1 << 41),
    ];
    for (round, &(base, spread)) in ranges.iter().cycle().take(27).enumerate() {
        let n = [1usize, 63, 64, 500, 3000][round % 5];
        let batch: Vec<u64> = (0..n)
            .map(|_| base.wrapping_add(rng.below(spread) as i64) as u64)
            .collect();
        let narrow: Vec<u32> = batch.iter().map(|&v| v as u32).collect();
        if round % 4 == 3 {
            // Single interns between batches.
            for (&v, &w) in batch.iter().zip(&narrow) {
                got64.push(d64.intern(v));
                got32.push(d32.intern(w));
            }
        } else {
            d64.intern_all(&batch, &mut got64);
            d32.intern_all(&narrow, &mut got32);
        }
        all64.extend(&batch);
        all32.extend(&narrow);
        let (dict, want) = naive(&all64);
        assert_eq!(
            (d64.values(), &got64[..]),
            (&dict[..], &want[..]),
            "round {round}"
        );
        let (dict, want) = naive(&all32);
        assert_eq!(
            (d32.values(), &got32[..]),
            (&dict[..], &want[..]),
            "round {round}"
        );
    }
}

/// Truncating and clearing forget values in the direct map too: interned again, they get new
/// indices.
#[test]
fn direct_map_forgets_truncated_values() {
    let mut d = FixedInterner::<u32>::new();
    let batch: Vec<u32> = (0..100).map(|i| 1000 + i % 80).collect();
    let mut idx = Vec::new();
    d.intern_all(&batch, &mut idx);
    assert_eq!(d.len(), 80);
    assert!(
        d.dense.len() >= 80 && d.hashed == 0,
        "the batch went through the direct map"
    );
    d.truncate(10);
    assert_eq!(d.values(), (1000..1010).collect::<Vec<_>>());
    // 1079 was index 79; now it is new (index 10), through the map and through the table.
    let mut idx = Vec::new();
    d.intern_all(&[1079u32; 64], &mut idx);
    assert_eq!(idx, [10; 64]);
    assert_eq!(d.intern(1078), 11);
    assert_eq!(d.intern(1005), 5);
    d.clear();
    let mut idx = Vec::new();
    d.intern_all(&batch[20..], &mut idx);
    assert_eq!(&idx[..3], [0, 1, 2]);
    assert_eq!(d.values()[0], 1020);
}

/// Values interned from a buffer and its offsets (masked word loads where 16 bytes follow a
/// value's start, byte by byte near the end) get the oracle's indices, the same dictionary as
/// single interns get, and `each` sees every value in order.
#[test]
fn offsets_interning_matches_the_oracle() {
    let mut rng = Rng::new(74);
    // Lengths 0-20 of bytes that also follow other values, so masking is what tells them apart.
    let pool: Vec<Vec<u8>> = (0..60)
        .map(|i| {
            let n = i % 21;
            (0..n).map(|j| b"xyzzyx"[(j + i / 21) % 6]).collect()
        })
        .collect();
    let values: Vec<&[u8]> = (0..4000)
        .map(|_| &pool[rng.below(pool.len() as u64) as usize][..])
        .collect();
    let (data, offsets) = concatenated(&values);
    let (dict, want) = naive(&values);
    let mut d = BytesInterner::new();
    let mut seen = Vec::new();
    let mut idx = Vec::new();
    d.intern_offsets(&data, &offsets, |k, v| {
        idx.push(k);
        seen.push(v);
    });
    assert_eq!((idx, &seen), (want, &values));
    let got: Vec<&[u8]> = d.iter().collect();
    assert_eq!(got, dict);
    // Single interns find the same entries.
    for (i, v) in dict.iter().enumerate() {
        assert_eq!(d.intern(v), i as u32);
    }
    assert_eq!(d.len(), dict.len());
}

/// Batches into a table large enough that slots are fetched ahead (and that grows during a
/// batch): contiguous values and listed positions, short and long, against the oracle.
#[test]
fn batches_into_large_tables_match_the_oracle() {
    let mut rng = Rng::new(75);
    // 60,000 distinct values of 1 to 40 bytes (so 20,000+ entries: past the prefetch size).
    let pool: Vec<Vec<u8>> = (0..60_000u32)
        .map(|i| {
            let n = 1 + (i as usize * 7) % 40;
            let s = format!("{i:08}-{}", "v".repeat(40));
            s.as_bytes()[..n.max(8).min(s.len())].to_vec()
        })
        .collect();
    let values: Vec<&[u8]> = (0..120_000)
        .map(|_| &pool[rng.below(pool.len() as u64) as usize][..])
        .collect();
    let (data, offsets) = concatenated(&values);
    // Contiguous, in batches of several sizes.
    let (dict, want) = oracle_map(&values);
    let mut d = BytesInterner::new();
    let (mut idx, mut seen) = (Vec::new(), Vec::new());
    let mut at = 0;
    for (k, size) in [3usize, 17, 5_000, 70_000, 1, 44_979]
        .into_iter()
        .enumerate()
    {
        let end = (at + size).min(values.len());
        d.intern_offsets(&data, &offsets[at..=end], |k, v| {
            idx.push(k);
            seen.push(v);
        });
        at = end;
        assert!(k < 5 || at == values.len());
    }
    assert_eq!((&idx, &seen), (&want, &values));
    assert_eq!(d.iter().collect::<Vec<_>>(), dict);
    // Listed positions (every third value, then the rest) into a fresh dictionary.
    let positions: Vec<u32> = (0..values.len() as u32)
        .filter(|i| i % 3 == 0)
        .chain((0..values.len() as u32).filter(|i| i % 3 != 0))
        .collect();
    let listed: Vec<&[u8]> = positions.iter().map(|&i| values[i as usize]).collect();
    let (dict, want) = oracle_map(&listed);
    let mut d = BytesInterner::new();
    let (mut idx, mut seen) = (Vec::new(), Vec::new());
    d.intern_positions(&data, &offsets, &positions, |k, v| {
        idx.push(k);
        seen.push(v);
    });
    assert_eq!((&idx, &seen), (&want, &listed));
    assert_eq!(d.iter().collect::<Vec<_>>(), dict);
}
