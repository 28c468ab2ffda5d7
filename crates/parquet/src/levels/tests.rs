use super::*;
use crate::encoding::test_util::Rng;
use crate::encoding::varint::write_uleb128;
use quiver_arrow::buffer::MutableBitmap;

/// A hybrid stream mixing repeated and bit-packed runs.
fn rle_levels(levels: &[i16], width: u32, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < levels.len() {
        let same = levels[i..].iter().take_while(|&&l| l == levels[i]).count();
        if same >= 8 || rng.below(3) == 0 {
            write_uleb128(&mut out, (same as u64) << 1);
            out.extend_from_slice(&(levels[i] as u32).to_le_bytes()[..width.div_ceil(8) as usize]);
            i += same;
        } else {
            let n = (levels.len() - i).min(8 * (1 + rng.below(3) as usize));
            let vals: Vec<u64> = levels[i..i + n].iter().map(|&l| l as u64).collect();
            write_uleb128(&mut out, (n.div_ceil(8) as u64) << 1 | 1);
            out.extend(crate::encoding::test_util::pack_naive(&vals, width));
            i += n;
        }
    }
    out
}

#[test]
fn v1_levels_round_trip_in_both_encodings() {
    let mut rng = Rng::new(21);
    for max in [1i16, 2, 3, 7, 200] {
        let n = 1000;
        let levels: Vec<i16> = (0..n)
            .map(|_| {
                if rng.below(2) == 0 {
                    max
                } else {
                    rng.below(max as u64 + 1) as i16
                }
            })
            .collect();
        let width = level_width(max);
        let rle = rle_levels(&levels, width, &mut rng);
        let mut body = (rle.len() as u32).to_le_bytes().to_vec();
        body.extend_from_slice(&rle);
        body.extend_from_slice(b"values");
        let (lv, rest) = split_v1(&body, LevelEncoding::Rle, max, n).unwrap();
        assert_eq!(rest, b"values");
        let mut out = vec![0i16; n];
        decode(lv, LevelEncoding::Rle, max, &mut out).unwrap();
        assert_eq!(out, levels);
        // A batch at a time, the pieces starting and ending inside runs and groups.
        let mut d = RleDecoder::new(lv, width).unwrap();
        let mut pieces = vec![0i16; n];
        let mut at = 0;
        while at < n {
            let k = (1 + rng.below(40) as usize).min(n - at);
            decode_rle(&mut d, max, &mut pieces[at..at + k]).unwrap();
            at += k;
        }
        assert_eq!(pieces, levels);

        // BIT_PACKED: most significant bit first, no prefix.
        let mut packed = vec![0u8; (n * width as usize).div_ceil(8)];
        for (i, &l) in levels.iter().enumerate() {
            for b in 0..width as usize {
                if (l as u32) >> (width as usize - 1 - b) & 1 == 1 {
                    let bit = i * width as usize + b;
                    packed[bit / 8] |= 0x80 >> (bit % 8);
                }
            }
        }
        packed.extend_from_slice(b"values");
        let (lv, rest) = split_v1(&packed, LevelEncoding::BitPacked, max, n).unwrap();
        assert_eq!(rest, b"values");
        decode(lv, LevelEncoding::BitPacked, max, &mut out).unwrap();
        assert_eq!(out, levels);

        // One level too many asked, or a maximum one lower: errors.
        let (lv, _) = split_v1(&body, LevelEncoding::Rle, max, n).unwrap();
        let mut more = vec![0i16; n + 9];
        assert!(decode(lv, LevelEncoding::Rle, max, &mut more).is_err());
        if level_width(max - 1) == width {
            assert!(decode(lv, LevelEncoding::Rle, max - 1, &mut out).is_err());
        }
    }
    assert!(split_v1(&[9, 0, 0, 0, 1], LevelEncoding::Rle, 1, 5).is_err());
    assert!(split_v1(&[1, 0], LevelEncoding::Rle, 1, 5).is_err());
}

#[test]
fn flat_validity_matches_the_levels() {
    let mut rng = Rng::new(22);
    for _ in 0..50 {
        let n = rng.below(3000) as usize;
        let density = rng.below(11);
        let levels: Vec<i16> = (0..n).map(|_| i16::from(rng.below(10) < density)).collect();
        let stream = rle_levels(&levels, 1, &mut rng);
        let mut d = RleDecoder::new(&stream, 1).unwrap();
        let mut bits = MutableBitmap::with_capacity(n);
        bits.push(true); // something before: appending keeps it
        // In two pieces, to cut a run.
        let first = n / 3;
        let a = validity::append(&mut d, first, &mut bits).unwrap();
        let b = validity::append(&mut d, n - first, &mut bits).unwrap();
        assert_eq!(a + b, levels.iter().filter(|&&l| l == 1).count());
        let got: Vec<bool> = (1..=n).map(|i| bits.get(i)).collect();
        let want: Vec<bool> = levels.iter().map(|&l| l == 1).collect();
        assert_eq!(got, want);
        // Past the end (a last bit-packed group may pad up to 7 values).
        assert!(
            validity::append(&mut d, 8, &mut bits).is_err(),
            "past the end"
        );
    }
    let mut d = RleDecoder::new(&[2 << 1, 2], 1).unwrap();
    let e = validity::append(&mut d, 2, &mut MutableBitmap::with_capacity(2)).unwrap_err();
    assert!(e.to_string().contains("level 2 is above"), "{e}");
}
