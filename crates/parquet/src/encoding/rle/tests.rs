use super::*;
use crate::encoding::test_util::{Rng, pack_naive};
use crate::encoding::varint::write_uleb128;

/// A random hybrid stream of `width`-bit values and the values it holds.
fn stream(rng: &mut Rng, width: u32) -> (Vec<u8>, Vec<u32>) {
    let mask = if width == 32 {
        u32::MAX as u64
    } else {
        (1u64 << width) - 1
    };
    let mut bytes = Vec::new();
    let mut values = Vec::new();
    for _ in 0..rng.below(12) {
        if rng.below(2) == 0 {
            let len = rng.below(300) as usize;
            let v = (rng.next() & mask) as u32;
            write_uleb128(&mut bytes, (len as u64) << 1);
            bytes.extend_from_slice(&v.to_le_bytes()[..width.div_ceil(8) as usize]);
            values.extend(std::iter::repeat_n(v, len));
        } else {
            let groups = rng.below(20) as usize;
            let run: Vec<u64> = (0..groups * 8).map(|_| rng.next() & mask).collect();
            write_uleb128(&mut bytes, (groups as u64) << 1 | 1);
            bytes.extend(pack_naive(&run, width));
            values.extend(run.iter().map(|&v| v as u32));
        }
    }
    (bytes, values)
}

#[test]
fn decode_in_random_pieces_matches_the_oracle() {
    let mut rng = Rng::new(1);
    for width in 0..=32 {
        for _ in 0..20 {
            let (bytes, want) = stream(&mut rng, width);
            let mut d = RleDecoder::new(&bytes, width).unwrap();
            let mut got = Vec::new();
            loop {
                let mut piece = vec![0u32; rng.below(40) as usize + 1];
                let n = d.decode(&mut piece).unwrap();
                got.extend_from_slice(&piece[..n]);
                if n < piece.len() {
                    break;
                }
            }
            assert_eq!(got, want, "width {width}");
        }
    }
}

#[test]
fn skip_and_runs_agree_with_decode() {
    let mut rng = Rng::new(2);
    for width in [0u32, 1, 3, 8, 13, 32] {
        for _ in 0..20 {
            let (bytes, want) = stream(&mut rng, width);
            // Skip a random prefix, decode a random middle, then take the rest run by run.
            let mut d = RleDecoder::new(&bytes, width).unwrap();
            let skip = rng.below(want.len() as u64 + 1) as usize;
            assert_eq!(d.skip(skip).unwrap(), skip);
            let mid = (rng.below(30) as usize).min(want.len() - skip);
            let mut piece = vec![0u32; mid];
            assert_eq!(d.decode(&mut piece).unwrap(), mid);
            assert_eq!(piece, want[skip..skip + mid]);
            let mut rest = Vec::new();
            while let Some(run) = d.next_run(rng.below(100) as usize + 1).unwrap() {
                match run {
                    Run::Repeat { value, len } => rest.extend(std::iter::repeat_n(value, len)),
                    Run::Packed { data, skip, len } => {
                        let mut all = vec![0u32; (skip + len).div_ceil(8) * 8];
                        unpack32(data, width, &mut all);
                        rest.extend_from_slice(&all[skip..skip + len]);
                    }
                }
            }
            assert_eq!(rest, want[skip + mid..], "width {width}");
        }
    }
}

#[test]
fn truncated_streams_end_early_or_fail_cleanly() {
    let mut rng = Rng::new(4);
    for width in [1u32, 5, 17] {
        let (bytes, want) = stream(&mut rng, width);
        for cut in 0..bytes.len() {
            let mut d = RleDecoder::new(&bytes[..cut], width).unwrap();
            let mut out = vec![0u32; want.len()];
            // Either an error, or a prefix of the values.
            if let Ok(n) = d.decode(&mut out) {
                assert!(n <= want.len());
                assert_eq!(out[..n], want[..n]);
            }
        }
    }
    // A header promising 2^31 groups over three bytes yields only the values present.
    let mut huge = Vec::new();
    write_uleb128(&mut huge, (1u64 << 31) << 1 | 1);
    huge.extend_from_slice(&[0xFF; 3]);
    let mut d = RleDecoder::new(&huge, 8).unwrap();
    let mut out = vec![0u32; 16];
    assert_eq!(d.decode(&mut out).unwrap(), 3);
    assert!(RleDecoder::new(&[], 33).is_err());
}
