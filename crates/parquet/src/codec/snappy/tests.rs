use super::*;

/// `src` compressed by quiver's compressor (the Snappy library's elements).
pub(super) fn compress(src: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; max_compressed_len(src.len())];
    let n = SnappyEncoder::new().compress(src, &mut out);
    out.truncate(n);
    out
}

/// What `snap`'s decoder (an implementation of its own) makes of `stored`.
fn snap_decompress(stored: &[u8]) -> Vec<u8> {
    snap::raw::Decoder::new().decompress_vec(stored).unwrap()
}

/// Deterministic pseudo-random bytes (the encoding tests' generator).
fn noise(n: usize, seed: u64) -> Vec<u8> {
    crate::encoding::test_util::noise(seed, n)
}

/// Page-like inputs: length-prefixed five-digit strings, words, runs, noise, and their mixes.
fn inputs() -> Vec<Vec<u8>> {
    let mut zips = Vec::new();
    for i in 0..60_000u32 {
        let s = format!("{:05}", i.wrapping_mul(7919) % 100_000);
        zips.extend_from_slice(&5u32.to_le_bytes());
        zips.extend_from_slice(s.as_bytes());
    }
    let words = [
        "carefully",
        "final",
        "deposits",
        "sleep",
        "quickly",
        "among",
        "the",
        "ironic",
    ];
    let mut text = Vec::new();
    let r = noise(100_000, 3);
    for (i, b) in r.iter().enumerate() {
        text.extend_from_slice(words[(*b as usize + i) % words.len()].as_bytes());
        text.push(b' ');
    }
    let ints: Vec<u8> = (0..50_000i64)
        .flat_map(|i| (i * 3 / 7).to_le_bytes())
        .collect();
    let mut mixed = noise(70_000, 5);
    mixed.extend(std::iter::repeat_n(b'z', 70_000));
    mixed.extend_from_slice(&text[..70_000]);
    vec![zips, text, ints, mixed, vec![7; 200_000], noise(150_000, 9)]
}

#[test]
fn round_trips_through_another_decoder() {
    let mut all = inputs();
    // Lengths around the margin, the 64 KiB block and the table sizes.
    for n in [
        0, 1, 3, 4, 14, 15, 16, 17, 63, 64, 255, 256, 257, 65_535, 65_536, 65_537,
    ] {
        all.push(noise(n, n as u64));
        all.push(b"abcd".iter().copied().cycle().take(n).collect());
    }
    for src in &all {
        let stored = compress(src);
        assert!(stored.len() <= max_compressed_len(src.len()));
        assert_eq!(snap_decompress(&stored), *src, "{} bytes", src.len());
    }
}

#[test]
fn a_larger_table_finds_more_matches_than_snap() {
    for (i, src) in inputs().iter().enumerate() {
        let ours = compress(src).len();
        let snap = snap::raw::Encoder::new().compress_vec(src).unwrap().len();
        assert!(ours <= snap, "input {i}: {ours} bytes, snap {snap}");
        if i == 0 {
            // Five-digit strings: matches the smaller table loses.
            assert!(ours * 1000 < snap * 995, "{ours} vs {snap}");
        }
    }
}

/// The elements' layouts (format_description.txt): literal tags with the length less one
/// inline below 60 and in 1-4 bytes after tags 60-63; copies with a 1-byte offset (lengths
/// 4-11, offsets below 2,048) and a 2-byte offset (lengths 1-64); longer copies in pieces.
#[test]
fn elements_are_laid_out_as_the_format_says() {
    let emit = |f: &dyn Fn(&mut Out<'_>)| {
        let mut buf = vec![0u8; 70_000];
        let mut out = Out {
            buf: &mut buf,
            at: 0,
        };
        f(&mut out);
        let n = out.at;
        buf.truncate(n);
        buf
    };
    assert_eq!(
        emit(&|o| o.literal(b"xyz", 0, 3)),
        [2 << 2, b'x', b'y', b'z']
    );
    assert_eq!(
        emit(&|o| o.literal(b"_xyz_____________________", 1, 4)),
        [2 << 2, b'x', b'y', b'z']
    );
    let lit = |n: usize| emit(&|o| o.literal(&vec![b'q'; n], 0, n));
    assert_eq!(lit(60)[..1], [59 << 2]);
    assert_eq!(lit(61)[..2], [60 << 2, 60]);
    assert_eq!(lit(256)[..2], [60 << 2, 255]);
    assert_eq!(lit(257)[..3], [61 << 2, 0, 1]);
    assert_eq!(lit(65_536)[..3], [61 << 2, 0xFF, 0xFF]);
    assert_eq!(lit(65_536).len(), 3 + 65_536);
    // Tag: offset bits 8-10 in bits 5-7, length less 4 in bits 2-4, type 1.
    assert_eq!(emit(&|o| o.copy(10, 4)), [1, 10]);
    assert_eq!(emit(&|o| o.copy(2047, 11)), [7 << 5 | 7 << 2 | 1, 0xFF]);
    assert_eq!(emit(&|o| o.copy(2048, 4)), [3 << 2 | 2, 0x00, 0x08]);
    assert_eq!(emit(&|o| o.copy(5, 12)), [11 << 2 | 2, 5, 0]);
    assert_eq!(emit(&|o| o.copy(300, 64)), [63 << 2 | 2, 44, 1]);
    // 130 = 64 + 60 + 6; 67 = 60 + 7 (no piece shorter than 4).
    assert_eq!(
        emit(&|o| o.copy(9, 130)),
        [63 << 2 | 2, 9, 0, 59 << 2 | 2, 9, 0, 2 << 2 | 1, 9]
    );
    assert_eq!(emit(&|o| o.copy(9, 67)), [59 << 2 | 2, 9, 0, 3 << 2 | 1, 9]);
    // The preamble: the length as a little-endian base-128 varint.
    assert_eq!(compress(&[]), [0]);
    assert_eq!(compress(&vec![0; 300])[..2], [0xAC, 0x02]);
}

#[test]
fn a_stream_behind_a_literal_decompresses_to_both() {
    // A stream with back-references (repeated text) put behind literals of every length class
    // (none, 1 tag byte, 1-3 length bytes), as a merge turns a dictionary page into a PLAIN
    // data page.
    let text: Vec<u8> = (0..40_000u32)
        .flat_map(|i| format!("entry {} of a dictionary; ", i % 997).into_bytes())
        .collect();
    let mut stream = vec![0; max_compressed_len(text.len())];
    let n = SnappyEncoder::new().compress(&text, &mut stream);
    stream.truncate(n);
    let (len, elements) = split_preamble(&stream).unwrap();
    assert_eq!(len, text.len() as u64);
    for prefix_len in [0usize, 1, 59, 60, 61, 255, 256, 257, 65_536, 70_000] {
        let prefix: Vec<u8> = (0..prefix_len).map(|i| (i * 7 % 256) as u8).collect();
        let mut spliced = Vec::new();
        start_with_literal(prefix.len() + text.len(), &prefix, &mut spliced);
        spliced.extend_from_slice(elements);
        let got = snap::raw::Decoder::new().decompress_vec(&spliced).unwrap();
        assert_eq!(got.len(), prefix_len + text.len(), "prefix {prefix_len}");
        assert!(got[..prefix_len] == prefix[..] && got[prefix_len..] == text[..]);
    }
    // Preambles longer than 32 bits, or unfinished, are refused.
    assert_eq!(split_preamble(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x01]), None);
    assert_eq!(split_preamble(&[0xff, 0xff, 0xff, 0xff, 0x1f]), None);
    assert_eq!(split_preamble(&[0x80]), None);
    assert_eq!(split_preamble(&[0x05, 1]), Some((5, &[1u8][..])));
}

/// What our decoder makes of `stored` (the length its preamble states, capped).
fn ours(stored: &[u8]) -> quiver_arrow::Result<Vec<u8>> {
    let len = decompress_len(stored)?;
    if len > 1 << 24 {
        return Err(quiver_arrow::Error::codec("too long for a test"));
    }
    let mut out = vec![0xA5; len];
    decompress(stored, &mut out)?;
    Ok(out)
}

/// Streams of elements of every kind near the fast loop's limits: short inputs, every literal
/// length class, copies from 1 to 70 bytes back of 1 to 64 bytes.
fn varied_inputs() -> Vec<Vec<u8>> {
    let mut all = inputs();
    for n in (0..200).chain([255, 256, 1000, 65_535, 65_536, 65_537, 200_000]) {
        all.push(noise(n, n as u64 + 100));
        all.push(b"abcdefg".iter().copied().cycle().take(n).collect());
    }
    for period in 1..70 {
        let unit = noise(period, period as u64);
        let mut v: Vec<u8> = unit.iter().copied().cycle().take(3000).collect();
        v.extend(noise(50, 7));
        v.extend(unit.iter().copied().cycle().take(period * 3 + 5));
        all.push(v);
    }
    all
}

#[test]
fn decompresses_what_both_encoders_write() {
    for src in &varied_inputs() {
        let ours_stored = compress(src);
        let snap_stored = snap::raw::Encoder::new().compress_vec(src).unwrap();
        for stored in [&ours_stored, &snap_stored] {
            assert_eq!(ours(stored).unwrap(), *src, "{} bytes", src.len());
            assert_eq!(decompress_len(stored).unwrap(), src.len());
        }
    }
}

/// Hand-made streams with what encoders seldom write: copies with 4-byte offsets, copies that
/// repeat their own bytes at every offset below 16, literals with 1 to 4 length bytes, and a
/// literal followed by a copy in the fast region and at the stream's end.
#[test]
fn decodes_every_element_kind() {
    let stream = |len: usize, elements: &[u8]| {
        let mut s = Vec::new();
        let mut n = len;
        while n >= 0x80 {
            s.push(n as u8 | 0x80);
            n >>= 7;
        }
        s.push(n as u8);
        s.extend_from_slice(elements);
        s
    };
    // "abcd", then copy 4-byte offset 4, length 8 (tag: length less 1 in bits 2-7, type 3).
    let s = stream(
        12,
        &[3 << 2, b'a', b'b', b'c', b'd', 7 << 2 | 3, 4, 0, 0, 0],
    );
    assert_eq!(ours(&s).unwrap(), b"abcdabcdabcd");
    for offset in 1..=16usize {
        for len in [4usize, 7, 11, 12, 17, 33, 64] {
            // A literal of `offset` bytes, the copy (2-byte offset), then a 100-byte literal
            // so that the copy is decoded in the fast region, and again at the end.
            let lit: Vec<u8> = (0..offset as u8).map(|b| b + 1).collect();
            let tail = noise(100, offset as u64);
            let mut el = vec![((offset - 1) as u8) << 2];
            el.extend_from_slice(&lit);
            el.extend_from_slice(&[((len - 1) as u8) << 2 | 2, offset as u8, 0]);
            let mut at_end = el.clone();
            el.extend_from_slice(&[60 << 2, 99]);
            el.extend_from_slice(&tail);
            let mut want: Vec<u8> = lit.iter().copied().cycle().take(offset + len).collect();
            assert_eq!(ours(&stream(want.len(), &at_end)).unwrap(), want);
            want.extend_from_slice(&tail);
            assert_eq!(
                ours(&stream(want.len(), &el)).unwrap(),
                want,
                "{offset} {len}"
            );
            at_end.clear();
        }
    }
    for len_bytes in 1..=4usize {
        let n = if len_bytes == 1 { 200 } else { 300 };
        let mut el = vec![((59 + len_bytes) as u8) << 2];
        el.extend_from_slice(&((n - 1) as u32).to_le_bytes()[..len_bytes]);
        let body = noise(n, 1);
        el.extend_from_slice(&body);
        assert_eq!(ours(&stream(n, &el)).unwrap(), body);
    }
}

#[test]
fn bad_streams_are_errors_naming_the_problem() {
    let err = |s: &[u8], len: usize| {
        let mut out = vec![0; len];
        decompress(s, &mut out).unwrap_err().to_string()
    };
    // Copy from 1 byte back with nothing written; offset 0.
    assert!(err(&[4, 1, 1], 4).contains("1 bytes back at output byte 0"));
    assert!(err(&[5, 0, b'a', 1, 0], 5).contains("0 bytes back"));
    // A literal past the input's end; an element past the stated length; too few elements.
    assert!(err(&[4, 3 << 2, b'a'], 4).contains("runs past the stream's end"));
    assert!(err(&[2, 3 << 2, 1, 2, 3, 4], 2).contains("overruns the 2 bytes stated"));
    assert!(err(&[4, 1 << 2, 1, 2], 4).contains("ends after 2 of its 4 bytes"));
    // Cut inside a literal's length bytes or a copy's offset.
    assert!(err(&[4, 61 << 2, 1], 4).contains("length is cut short"));
    assert!(err(&[8, 3 << 2, 1, 2, 3, 4, 3 << 2 | 2, 4], 8).contains("offset is cut short"));
    // The preamble: not a varint, or not the length expected.
    assert!(err(&[0x80], 0).contains("preamble"));
    assert!(err(&[3, 2 << 2, 1, 2, 3], 4).contains("3 bytes, 4 expected"));
    // The error names where the element is.
    assert!(err(&[4, 1 << 2, 1, 2, 1, 9], 4).contains("Snappy element at byte 4"));
}

/// Fixed-seed mutants of real streams: our decoder never panics, and accepts exactly what
/// `snap` accepts, with the same bytes.
#[test]
fn mutants_decode_as_another_decoder_does() {
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let sources: Vec<Vec<u8>> = varied_inputs()
        .into_iter()
        .filter(|s| (20..70_000).contains(&s.len()))
        .take(40)
        .collect();
    let (mut agreed_ok, mut agreed_err) = (0, 0);
    for src in &sources {
        let stored = compress(src);
        for _ in 0..150 {
            let mut m = stored.clone();
            match next() % 4 {
                0 => {
                    let i = (next() as usize) % m.len();
                    m[i] ^= 1 << (next() % 8);
                }
                1 => {
                    let i = (next() as usize) % m.len();
                    m[i] = next() as u8;
                }
                2 => m.truncate((next() as usize) % m.len()),
                _ => {
                    let i = 1 + (next() as usize) % (m.len() - 1);
                    m.insert(i, next() as u8);
                }
            }
            let theirs = snap::raw::decompress_len(&m).ok().and_then(|len| {
                let mut out = vec![0; len.min(1 << 24)];
                (len < 1 << 24)
                    .then(|| snap::raw::Decoder::new().decompress(&m, &mut out).ok())
                    .flatten()
                    .map(|n| out[..n].to_vec())
            });
            match (ours(&m), theirs) {
                (Ok(a), Some(b)) => {
                    assert_eq!(a, b);
                    agreed_ok += 1;
                }
                (Err(_), None) => agreed_err += 1,
                (a, b) => panic!(
                    "ours {:?}, snap {:?}",
                    a.map(|v| v.len()),
                    b.map(|v| v.len())
                ),
            }
        }
    }
    // Both kinds of mutant occur.
    assert!(
        agreed_ok > 100 && agreed_err > 1000,
        "{agreed_ok} {agreed_err}"
    );
}
