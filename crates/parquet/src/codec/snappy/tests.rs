use super::*;

fn compress(src: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; max_compressed_len(src.len())];
    let n = SnappyEncoder::new().compress(src, &mut out);
    out.truncate(n);
    out
}

/// What `snap`'s decoder (an implementation of its own) makes of `stored`.
fn decompress(stored: &[u8]) -> Vec<u8> {
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
        assert_eq!(decompress(&stored), *src, "{} bytes", src.len());
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
