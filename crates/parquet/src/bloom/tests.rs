use super::*;

/// A naive filter written from `BloomFilter.md` over bytes: the block from the hash's upper 32
/// bits, in word `i` bit `(key * SALT[i]) >> 27`, words little-endian.
fn naive_insert(bitset: &mut [u8], hash: u64) {
    let salts: [u32; 8] = [
        0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947,
        0x5c6bfb31,
    ];
    let blocks = (bitset.len() / 32) as u64;
    let block = (((hash >> 32) * blocks) >> 32) as usize;
    let key = hash as u32;
    for (i, salt) in salts.iter().enumerate() {
        let bit = (key.wrapping_mul(*salt) >> 27) as usize;
        bitset[block * 32 + i * 4 + bit / 8] |= 1 << (bit % 8);
    }
}

/// SplitMix64: reproducible pseudo-random hashes.
fn hashes(seed: u64, n: usize) -> Vec<u64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
}

#[test]
fn xxh64_matches_the_reference_implementation() {
    // From the xxHash C library (through the `xxhash` Python binding), seed 0; the last input
    // is over 32 bytes, so it takes the four-lane loop.
    let vectors: [(&[u8], u64); 6] = [
        (b"", 0xef46db3751d8e999),
        (b"a", 0xd24ec4f1a98c6e5b),
        (b"abc", 0x44bc2cf5ad770999),
        (b"hello", 0x26c7827d889f6da3),
        (b"parquet", 0x3c9d29275c52e429),
        (b"0123456789abcdef0123456789abcdef0123", 0xc4255ba3d1af5461),
    ];
    for (input, hash) in vectors {
        assert_eq!(hash_bytes(input), hash, "{input:?}");
    }
}

#[test]
fn typed_hashes_are_xxh64_of_the_plain_encoding() {
    // The reference hash of the PLAIN bytes: 4 or 8 bytes little-endian, IEEE 754 bits.
    assert_eq!(hash_i32(42), 0xd756d7b62fc50bf1);
    assert_eq!(hash_bytes(&[42, 0, 0, 0]), 0xd756d7b62fc50bf1);
    assert_eq!(hash_i32(-1), 0x7f78e4bda3addf93);
    assert_eq!(hash_i64(1234567890123), 0xd9d5580c14aa025d);
    assert_eq!(hash_f32(1.5), 0x4f2d82595c483a0d);
    assert_eq!(hash_bytes(&[0, 0, 0xc0, 0x3f]), 0x4f2d82595c483a0d);
    assert_eq!(hash_f64(-2.25), 0xedc48cc538c7e06e);
    assert_ne!(hash_f64(0.0), hash_f64(-0.0));
}

#[test]
fn inserts_set_the_bits_the_spec_names() {
    for num_bytes in [32, 64, 1024, 8192] {
        let mut filter = Sbbf::new(num_bytes);
        let mut naive = vec![0u8; num_bytes];
        for (n, h) in hashes(num_bytes as u64, 3000).into_iter().enumerate() {
            filter.insert(h);
            naive_insert(&mut naive, h);
            if n % 500 == 0 {
                assert_eq!(
                    filter.as_bytes(),
                    &naive[..],
                    "{num_bytes} bytes, {n} inserts"
                );
            }
        }
        assert_eq!(filter.as_bytes(), &naive[..], "{num_bytes} bytes");
    }
}

#[test]
fn block_index_uses_the_upper_32_bits() {
    let mut filter = Sbbf::new(4 * 32);
    // Upper half 0xC000_0000 of 4 blocks: block 3; the lower half sets one bit per word.
    filter.insert(0xC000_0000_0000_0001);
    let bytes = filter.as_bytes();
    assert!(bytes[..96].iter().all(|&b| b == 0));
    for word in bytes[96..].chunks_exact(4) {
        assert_eq!(u32::from_le_bytes(word.try_into().unwrap()).count_ones(), 1);
    }
    // key 1: bit (SALT[i] >> 27) of word i.
    let first = u32::from_le_bytes(bytes[96..100].try_into().unwrap());
    assert_eq!(first, 1 << (0x47b6137b_u32 >> 27));
}

#[test]
fn inserted_hashes_check_true_and_others_mostly_false() {
    let ndv = 10_000;
    let fpp = 0.01;
    let mut filter = Sbbf::new(Sbbf::optimal_num_bytes(ndv, fpp));
    let present = hashes(1, ndv as usize);
    for &h in &present {
        filter.insert(h);
    }
    assert!(present.iter().all(|&h| filter.check(h)));
    let absent = hashes(2, 100_000);
    let positives = absent.iter().filter(|&&h| filter.check(h)).count();
    // The bitset is rounded up to a power of two, so the rate is at most about fpp.
    assert!(positives < 100_000 / 100, "{positives} false positives");
    assert!(!Sbbf::new(32).check(present[0]));
}

#[test]
fn optimal_num_bytes_follows_the_spec_formula() {
    // BloomFilter.md: about 9.7 bits per value at 1% (1.2 MB for a million values), rounded
    // up to a power of two.
    assert_eq!(Sbbf::optimal_num_bytes(1_000_000, 0.01), 1 << 21);
    assert_eq!(Sbbf::optimal_num_bytes(100_000, 0.01), 1 << 17);
    // 0.5%: the most values 2^20 bits hold by the formula, and one more (2^21 bits).
    let per_value = -8.0 / (1.0 - 0.005f64.powf(0.125)).ln();
    let fits = ((1u64 << 20) as f64 / per_value) as u64;
    assert_eq!(Sbbf::optimal_num_bytes(fits, 0.005), 1 << 17);
    assert_eq!(Sbbf::optimal_num_bytes(fits + 1, 0.005), 1 << 18);
    // Clamped to one block and 128 MiB.
    assert_eq!(Sbbf::optimal_num_bytes(0, 0.01), 32);
    assert_eq!(Sbbf::optimal_num_bytes(1, 0.01), 32);
    assert_eq!(Sbbf::optimal_num_bytes(10, 0.9), 32);
    assert_eq!(Sbbf::optimal_num_bytes(1000, 1.0), 32);
    assert_eq!(Sbbf::optimal_num_bytes(1000, 2.0), 32);
    assert_eq!(Sbbf::optimal_num_bytes(u64::MAX, 0.01), MAX_BYTES);
    assert_eq!(Sbbf::optimal_num_bytes(1000, 0.0), MAX_BYTES);
    assert_eq!(Sbbf::optimal_num_bytes(1000, f64::NAN), MAX_BYTES);
}

#[test]
fn new_rounds_up_to_a_power_of_two_within_bounds() {
    for (asked, got) in [
        (0, 32),
        (1, 32),
        (32, 32),
        (33, 64),
        (1000, 1024),
        (1024, 1024),
    ] {
        let filter = Sbbf::new(asked);
        assert_eq!(filter.as_bytes().len(), got, "{asked}");
        assert!(filter.as_bytes().iter().all(|&b| b == 0));
    }
    assert_eq!(Sbbf::new(MAX_BYTES + 1).as_bytes().len(), MAX_BYTES);
    assert_eq!(Sbbf::new(usize::MAX).as_bytes().len(), MAX_BYTES);
}

/// The header of a 1024-byte filter in thrift compact, byte by byte: field 1 (i32, zigzag
/// varint 2048), then fields 2, 3, 4, each a union (struct) whose field 1 is an empty struct.
const HEADER_1024: [u8; 16] = [
    0x15, 0x80, 0x10, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00,
];

#[test]
fn write_lays_out_the_header_then_the_bitset() {
    let mut filter = Sbbf::new(1024);
    for h in hashes(7, 50) {
        filter.insert(h);
    }
    let mut out = vec![0xAB];
    filter.write(&mut out);
    assert_eq!(out[0], 0xAB);
    assert_eq!(out[1..17], HEADER_1024);
    assert_eq!(&out[17..], filter.as_bytes());
    out.extend_from_slice(b"trailing");
    let (read, used) = Sbbf::read(&out[1..]).unwrap();
    assert_eq!(used, 16 + 1024);
    assert_eq!(read, filter);
}

#[test]
fn from_bytes_takes_whole_blocks_and_round_trips() {
    let mut filter = Sbbf::new(96 * 32);
    for h in hashes(3, 500) {
        filter.insert(h);
    }
    let copy = Sbbf::from_bytes(filter.as_bytes()).unwrap();
    assert_eq!(copy, filter);
    // Not a power of two: 96 blocks still index every block.
    assert!(hashes(3, 500).into_iter().all(|h| copy.check(h)));
    for len in [0, 1, 31, 33, 63] {
        let e = Sbbf::from_bytes(&vec![0; len]).unwrap_err().to_string();
        assert!(e.contains("not a positive multiple of 32"), "{len}: {e}");
    }
}

/// A header with `num_bytes` and the given union field ids for algorithm, hash, compression.
fn header(num_bytes: i32, ids: [i16; 3]) -> Vec<u8> {
    let [algorithm, hash, compression] = ids.map(|id| match id {
        1 => BloomFilterVariant::Defined,
        id => BloomFilterVariant::Unknown(id),
    });
    let h = BloomFilterHeader {
        num_bytes,
        algorithm,
        hash,
        compression,
    };
    let mut w = CompactWriter::new();
    h.write(&mut w);
    w.into_bytes()
}

fn read_error(bytes: &[u8]) -> String {
    Sbbf::read(bytes).unwrap_err().to_string()
}

#[test]
fn read_rejects_unsupported_or_malformed_headers() {
    let bitset = [0u8; 64];
    let with = |h: Vec<u8>| [h, bitset.to_vec()].concat();
    assert!(Sbbf::read(&with(header(64, [1, 1, 1]))).is_ok());
    let e = read_error(&with(header(64, [2, 1, 1])));
    assert!(e.contains("algorithm") && e.contains("field id 2"), "{e}");
    let e = read_error(&with(header(64, [1, 3, 1])));
    assert!(e.contains("hash") && e.contains("XXHASH"), "{e}");
    let e = read_error(&with(header(64, [1, 1, 4])));
    assert!(
        e.contains("compression") && e.contains("UNCOMPRESSED"),
        "{e}"
    );
    for n in [0, -32, 33, 48] {
        let e = read_error(&with(header(n, [1, 1, 1])));
        assert!(e.contains(&format!("numBytes {n} ")), "{n}: {e}");
    }
    let e = read_error(&with(header(96, [1, 1, 1])));
    assert!(e.contains("96 bytes runs past the 64 bytes"), "{e}");
    let e = read_error(&with(header(i32::MAX - 31, [1, 1, 1])));
    assert!(e.contains("runs past"), "{e}");
    // A header lacking its fields (the deprecated binary header starts with zero bytes).
    let e = read_error(&[0, 4, 0, 0, 0, 0, 0, 0]);
    assert!(e.contains("BloomFilterHeader lacks"), "{e}");
    assert!(read_error(&[]).contains("Bloom filter header"));
}

#[test]
fn read_never_panics_on_truncated_or_mutated_input() {
    let mut filter = Sbbf::new(64);
    filter.insert(hash_bytes(b"x"));
    let mut good = Vec::new();
    filter.write(&mut good);
    for len in 0..good.len() {
        assert!(Sbbf::read(&good[..len]).is_err(), "{len}");
    }
    for (i, r) in hashes(11, 4000).into_iter().enumerate() {
        let mut bytes = good.clone();
        let at = i % 17;
        bytes[at] = r as u8;
        if let Ok((f, used)) = Sbbf::read(&bytes) {
            assert!(used <= bytes.len());
            assert_eq!(f.as_bytes().len() % 32, 0);
        }
    }
}

#[test]
fn folding_gives_the_filter_built_at_the_smaller_size() {
    let hs = hashes(7, 3000);
    let mut big = Sbbf::new(4096);
    let mut small = Sbbf::new(512);
    for &h in &hs {
        big.insert(h);
        small.insert(h);
    }
    assert_eq!(big.fold_to(512).unwrap(), small);
    assert_eq!(big.fold_to(4096).unwrap(), big);
    // Larger, or not a power of two: no fold.
    assert!(small.fold_to(1024).is_none());
    assert!(big.fold_to(96).is_none());
    let odd = Sbbf::from_bytes(&[0u8; 96]).unwrap();
    assert!(odd.fold_to(32).is_none());
}

#[test]
fn union_holds_every_value_of_each_filter_at_the_smallest_size() {
    let (a_h, b_h) = (hashes(1, 500), hashes(2, 800));
    let mut a = Sbbf::new(1024);
    let mut b = Sbbf::new(256);
    let mut both = Sbbf::new(256);
    for &h in &a_h {
        a.insert(h);
        both.insert(h);
    }
    for &h in &b_h {
        b.insert(h);
        both.insert(h);
    }
    let u = Sbbf::union(&[&a, &b]).unwrap();
    assert_eq!(u, both);
    assert!(a_h.iter().chain(&b_h).all(|&h| u.check(h)));
    assert!(Sbbf::union(&[]).is_none());
}

/// Filters of one size unite whatever that size (3 blocks here: other writers need not round
/// to a power of two); of two sizes, only where folding is exact.
#[test]
fn filters_of_one_size_unite_even_when_it_is_not_a_power_of_two() {
    let odd = |seed| {
        let mut f = Sbbf::from_bytes(&[0u8; 96]).unwrap();
        for h in hashes(seed, 40) {
            f.insert(h);
        }
        (f, hashes(seed, 40))
    };
    let ((a, a_h), (b, b_h)) = (odd(3), odd(4));
    let u = Sbbf::union(&[&a, &b]).unwrap();
    assert_eq!(u.as_bytes().len(), 96);
    assert!(a_h.iter().chain(&b_h).all(|&h| u.check(h)));
    let expected: Vec<u8> = a
        .as_bytes()
        .iter()
        .zip(b.as_bytes())
        .map(|(x, y)| x | y)
        .collect();
    assert_eq!(u.as_bytes(), expected);
    assert!(Sbbf::union(&[&a, &Sbbf::new(64)]).is_none());
    assert_eq!(Sbbf::union(&[&a]).unwrap(), a);
}
