use super::*;
use crate::encoding::rle::RleDecoder;
use crate::encoding::test_util::Rng;

fn finish(e: &mut RleEncoder) -> Vec<u8> {
    let mut out = Vec::new();
    e.finish_into(&mut out);
    out
}

/// Decodes `n` values, and checks the stream holds at most 7 more (the last group's padding).
fn decode(bytes: &[u8], width: u32, n: usize) -> Vec<u32> {
    let mut d = RleDecoder::new(bytes, width).unwrap();
    let mut out = vec![0u32; n + 64];
    let got = d.decode(&mut out).unwrap();
    assert!(got >= n && got < n + 8, "{got} values for {n}");
    // Padding is zeros.
    assert!(out[n..got].iter().all(|&v| v == 0));
    out.truncate(n);
    out
}

/// Values with runs of every length, as levels and dictionary indices have them.
fn values(rng: &mut Rng, width: u32, n: usize) -> Vec<u32> {
    let mask = if width == 32 {
        u32::MAX
    } else {
        (1u32 << width) - 1
    };
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let v = rng.next() as u32 & mask;
        let run = match rng.below(4) {
            0 => 1,
            1 => rng.below(8) as usize + 1,
            2 => rng.below(20) as usize + 1,
            _ => rng.below(300) as usize + 1,
        };
        out.extend(std::iter::repeat_n(v, run.min(n - out.len())));
    }
    out
}

#[test]
fn every_width_round_trips_through_the_decoder() {
    let mut rng = Rng::new(31);
    let mut e = RleEncoder::new(0);
    for width in 0..=32 {
        e.set_width(width);
        for _ in 0..20 {
            let n = rng.below(2000) as usize;
            let want = values(&mut rng, width, n);
            e.put_u32s(&want);
            assert_eq!(e.len(), n);
            let bytes = finish(&mut e);
            assert!(e.is_empty());
            assert_eq!(decode(&bytes, width, n), want, "width {width}");
        }
    }
}

#[test]
fn every_way_of_putting_writes_the_same_bytes_as_single_puts() {
    let mut rng = Rng::new(32);
    for width in [0u32, 1, 2, 3, 7, 8, 9, 16, 17, 31, 32] {
        for _ in 0..30 {
            let n = rng.below(1500) as usize;
            let want = values(&mut rng, width, n);
            let mut single = RleEncoder::new(width);
            want.iter().for_each(|&v| single.put(v));
            let reference = finish(&mut single);

            // Slices of random lengths, runs through put_repeated.
            let mut e = RleEncoder::new(width);
            let mut i = 0;
            while i < n {
                let k = (rng.below(40) as usize).min(n - i);
                match rng.below(3) {
                    0 => e.put_u32s(&want[i..i + k]),
                    1 if width <= 15 => {
                        let levels: Vec<i16> = want[i..i + k].iter().map(|&v| v as i16).collect();
                        e.put_levels(&levels);
                    }
                    _ => {
                        let r = want[i..].iter().take_while(|&&v| v == want[i]).count();
                        e.put_repeated(want[i], r);
                        i += r;
                        continue;
                    }
                }
                i += k;
            }
            assert_eq!(e.len(), n);
            assert_eq!(finish(&mut e), reference, "width {width}");
        }
    }
}

#[test]
fn put_bits_writes_the_same_bytes_as_single_puts() {
    let mut rng = Rng::new(33);
    for case in 0..300 {
        // Words with long stretches of ones or zeros, or random bits.
        let words: Vec<u64> = (0..rng.below(40) as usize + 1)
            .map(|_| match rng.below(4) {
                0 => 0,
                1 => u64::MAX,
                2 => rng.next() | rng.next(),
                _ => rng.next(),
            })
            .collect();
        let bits = words.len() * 64;
        let offset = rng.below(bits as u64) as usize;
        let len = rng.below((bits - offset) as u64 + 1) as usize;
        let want: Vec<u32> = (offset..offset + len)
            .map(|i| (words[i / 64] >> (i % 64)) as u32 & 1)
            .collect();
        let mut single = RleEncoder::new(1);
        want.iter().for_each(|&v| single.put(v));
        let reference = finish(&mut single);

        // Some single puts first, so the bits start at any point of a group, run or
        // bit-packed run; then the bits in pieces (as a column writer puts validity, slice
        // by slice), so that word steps start at any count of groups in the run.
        let mut e = RleEncoder::new(1);
        let lead = (rng.below(if case % 2 == 0 { 20 } else { 600 }) as usize).min(len);
        want[..lead].iter().for_each(|&v| e.put(v));
        let mut at = lead;
        while at < len {
            let piece = (1 + rng.below(300) as usize).min(len - at);
            e.put_bits(&words, offset + at, piece);
            at += piece;
        }
        assert_eq!(e.len(), len);
        let got = finish(&mut e);
        assert_eq!(got, reference, "case {case}");
        assert_eq!(decode(&got, 1, len), want, "case {case}");
    }
}

#[test]
fn the_spec_examples_byte_for_byte() {
    // Encodings.md's bit-packing example: 0..8 at width 3 is 10001000 11000110 11111010,
    // as one bit-packed run of one group (header 1 << 1 | 1).
    let mut e = RleEncoder::new(3);
    e.put_u32s(&[0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(
        finish(&mut e),
        [0b11, 0b1000_1000, 0b1100_0110, 0b1111_1010]
    );

    // 100 copies of 5 at width 3: header ULEB128(200) = C8 01, then the value in one byte.
    let mut e = RleEncoder::new(3);
    e.put_repeated(5, 100);
    assert_eq!(finish(&mut e), [0xC8, 0x01, 5]);

    // Width 9 repeats store the value in two bytes, little endian; width 0 stores none.
    let mut e = RleEncoder::new(9);
    e.put_repeated(0x1FF, 8);
    assert_eq!(finish(&mut e), [16, 0xFF, 0x01]);
    let mut e = RleEncoder::new(0);
    e.put_repeated(0, 3);
    assert_eq!(finish(&mut e), [6]);

    // Levels 1,0,1,1,1,1,1,1 then ten 1s at width 1: the first group is no run (it ends in six
    // 1s), so it is bit-packed; the next eight 1s start a repeated run, ten long at the end.
    let mut e = RleEncoder::new(1);
    e.put_levels(&[1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    assert_eq!(finish(&mut e), [0b11, 0b1111_1101, 10 << 1, 1]);

    // Leftovers after a bit-packed run are padded into a last group, even when equal.
    let mut e = RleEncoder::new(2);
    e.put_u32s(&[0, 1, 2, 3, 0, 1, 2, 3, 2, 2]);
    assert_eq!(
        finish(&mut e),
        [2 << 1 | 1, 0b1110_0100, 0b1110_0100, 0b1010, 0]
    );

    // Nothing put, nothing written.
    assert!(finish(&mut RleEncoder::new(5)).is_empty());
}

#[test]
fn bit_packed_runs_end_after_63_groups() {
    // 125 groups without a run of eight: runs of 63 and 62 groups (headers 7F and 7D), as
    // pyarrow writes them; through put_bits too, whose word steps must stop at the 63rd group.
    let want: Vec<u32> = (0..1000).map(|i| (i + 1) % 2).collect();
    let mut expected = vec![0x7F];
    expected.extend([0x55; 63]);
    expected.push(0x7D);
    expected.extend([0x55; 62]);
    let mut e = RleEncoder::new(1);
    e.put_u32s(&want);
    let bytes = finish(&mut e);
    assert_eq!(bytes, expected);
    assert_eq!(decode(&bytes, 1, 1000), want);
    let words = vec![0x5555_5555_5555_5555u64; 16];
    let mut e = RleEncoder::new(1);
    e.put_bits(&words, 0, 1000);
    assert_eq!(finish(&mut e), expected);
    // Word steps that fill the run to exactly 63 groups close it: 55 groups put one by one,
    // then words of eight (the column writer's slices of validity reach this).
    let mut e = RleEncoder::new(1);
    e.put_bits(&words, 0, 55 * 8);
    e.put_bits(&words, 0, 1000 - 55 * 8);
    assert_eq!(finish(&mut e), expected);
}

#[test]
fn long_repeats_take_constant_time() {
    let mut e = RleEncoder::new(4);
    e.put(1);
    e.put_repeated(9, 1 << 40);
    e.put_repeated(9, 1 << 40);
    assert_eq!(e.len(), 1 + (1 << 41));
    let bytes = finish(&mut e);
    // The first group (1 and seven 9s) is bit-packed; the rest is one run of 2^41 - 7 nines.
    let mut want = vec![0b11, 0x91, 0x99, 0x99, 0x99];
    write_uleb128(&mut want, ((1u64 << 41) - 7) << 1);
    want.push(9);
    assert_eq!(bytes, want);

    // Bits: a run of 2^20 ones takes one step per word.
    let words = vec![u64::MAX; 1 << 14];
    let mut e = RleEncoder::new(1);
    e.put_bits(&words, 3, (1 << 20) - 3);
    let mut want = Vec::new();
    write_uleb128(&mut want, ((1u64 << 20) - 3) << 1);
    want.push(1);
    assert_eq!(finish(&mut e), want);
}

#[test]
fn reuse_after_finish_starts_a_fresh_stream() {
    let mut rng = Rng::new(34);
    let first = values(&mut rng, 6, 333);
    let second = values(&mut rng, 6, 100);
    let mut e = RleEncoder::new(6);
    e.put_u32s(&first);
    let mut out = vec![0xEE];
    e.finish_into(&mut out);
    assert_eq!(out[0], 0xEE);
    e.put_u32s(&second);
    let reused = finish(&mut e);
    let mut fresh = RleEncoder::new(6);
    fresh.put_u32s(&second);
    assert_eq!(reused, finish(&mut fresh));
    assert_eq!(decode(&out[1..], 6, 333), first);
}
