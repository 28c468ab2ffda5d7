use super::*;
use crate::encoding::test_util::Rng;
use std::io::Write;

/// Text-like data with repeats (compressible), and some noise.
fn sample(seed: u64, n: usize) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let words: [&[u8]; 5] = [
        b"parquet ",
        b"column ",
        b"page ",
        b"\x00\x00\x00\x00",
        b"zz",
    ];
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        if rng.below(8) == 0 {
            out.push(rng.next() as u8);
        } else {
            out.extend_from_slice(words[rng.below(5) as usize]);
        }
    }
    out.truncate(n);
    out
}

fn round_trip(codec: Codec, stored: &[u8], want: &[u8]) {
    let mut out = vec![0xAA; want.len()];
    Decompressor::default()
        .decompress(codec, stored, &mut out)
        .unwrap_or_else(|e| panic!("{codec}: {e}"));
    assert_eq!(out, want, "{codec}");
    // One byte more or less declared is an error, not silent truncation or padding.
    for len in [want.len() + 1, want.len().saturating_sub(1)] {
        if len != want.len() {
            let mut out = vec![0; len];
            let r = Decompressor::default().decompress(codec, stored, &mut out);
            assert!(
                r.is_err(),
                "{codec} accepted {len} bytes for {}",
                want.len()
            );
        }
    }
}

fn hadoop_frame(data: &[u8], block: usize, chunk: impl Fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    let mut out = Vec::new();
    for b in data.chunks(block) {
        out.extend_from_slice(&(b.len() as u32).to_be_bytes());
        // Two chunks per block where it splits, to cover several chunks in one block.
        let mid = b.len() / 2;
        for part in [&b[..mid], &b[mid..]] {
            if part.is_empty() {
                continue;
            }
            let c = chunk(part);
            out.extend_from_slice(&(c.len() as u32).to_be_bytes());
            out.extend_from_slice(&c);
        }
    }
    out
}

#[test]
fn every_codec_round_trips() {
    for (seed, n) in [(1u64, 0usize), (2, 1), (3, 1000), (4, 300_000)] {
        let data = sample(seed, n);
        round_trip(Codec::Uncompressed, &data, &data);
        round_trip(
            Codec::Snappy,
            &snap::raw::Encoder::new().compress_vec(&data).unwrap(),
            &data,
        );

        // Gzip: two members back to back.
        let mut gz = Vec::new();
        for half in [&data[..n / 2], &data[n / 2..]] {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(half).unwrap();
            gz.extend(e.finish().unwrap());
        }
        round_trip(Codec::Gzip, &gz, &data);

        let mut br = Vec::new();
        brotli::BrotliCompress(&mut &data[..], &mut br, &Default::default()).unwrap();
        round_trip(Codec::Brotli, &br, &data);

        if n > 0 {
            let mut z = Vec::new();
            quiver_ipc::compression::compress_buffer(quiver_ipc::Codec::Zstd, &data, None, &mut z)
                .unwrap();
            if i64::from_le_bytes(z[..8].try_into().unwrap()) != -1 {
                round_trip(Codec::Zstd, &z[8..], &data);
            }
        }

        let raw = lz4_flex::block::compress(&data);
        round_trip(Codec::Lz4Raw, &raw, &data);
        // LZ4 as Hadoop frames, and the raw-block fallback.
        let framed = hadoop_frame(&data, 65536, lz4_flex::block::compress);
        round_trip(Codec::Lz4, &framed, &data);
        if n > 0 {
            round_trip(Codec::Lz4, &raw, &data);
        }
    }
}

/// LZO1X streams made by the reference library through PyPI's `python-lzo`.
#[test]
fn lzo_matches_the_reference_compressor() {
    let have = std::process::Command::new("python3")
        .args(["-c", "import lzo"])
        .status()
        .is_ok_and(|s| s.success());
    if !have {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "python-lzo is missing (CI=true)"
        );
        eprintln!("skipping: python3 -c 'import lzo' fails");
        return;
    }
    let dir = std::env::temp_dir().join(format!("quiver-lzo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (seed, n) in [(5u64, 1usize), (6, 17), (7, 5000), (8, 200_000)] {
        let data = sample(seed, n);
        let input = dir.join(format!("{seed}.raw"));
        std::fs::write(&input, &data).unwrap();
        // Level 1 is lzo1x_1, level 9 lzo1x_999: different instruction mixes.
        for level in [1, 9] {
            let output = dir.join(format!("{seed}.{level}.lzo"));
            let script = format!(
                "import lzo,sys; d=open(sys.argv[1],'rb').read(); \
                 open(sys.argv[2],'wb').write(lzo.compress(d,{level},False))"
            );
            let ok = std::process::Command::new("python3")
                .args(["-c", &script])
                .arg(&input)
                .arg(&output)
                .status()
                .unwrap();
            assert!(ok.success());
            let stream = std::fs::read(&output).unwrap();
            let mut out = vec![0u8; n];
            assert_eq!(
                lzo::decompress(&stream, &mut out).unwrap(),
                n,
                "level {level}"
            );
            assert_eq!(out, data, "level {level}, {n} bytes");
            // Hadoop-framed as parquet-mr writes it.
            let mut block = (n as u32).to_be_bytes().to_vec();
            block.extend_from_slice(&(stream.len() as u32).to_be_bytes());
            block.extend_from_slice(&stream);
            round_trip(Codec::Lzo, &block, &data);
            // python-lzo's own header (fastparquet's LZO pages): the level's mark, the size.
            let mut headed = vec![if level == 1 { 0xF0 } else { 0xF1 }];
            headed.extend_from_slice(&(n as u32).to_be_bytes());
            headed.extend_from_slice(&stream);
            round_trip(Codec::Lzo, &headed, &data);
            // Every truncation and many mutations: an error or a value, never a panic.
            let mut rng = Rng::new(seed);
            for cut in (0..stream.len()).step_by(stream.len() / 50 + 1) {
                let _ = lzo::decompress(&stream[..cut], &mut out);
            }
            for _ in 0..500 {
                let mut bad = stream.clone();
                let i = rng.below(bad.len() as u64) as usize;
                bad[i] = rng.next() as u8;
                let _ = lzo::decompress(&bad, &mut out);
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn corrupt_pages_are_errors() {
    let data = sample(9, 10_000);
    let mut out = vec![0u8; data.len()];
    let mut d = Decompressor::default();
    for codec in [
        Codec::Snappy,
        Codec::Gzip,
        Codec::Brotli,
        Codec::Zstd,
        Codec::Lz4Raw,
        Codec::Lz4,
        Codec::Lzo,
    ] {
        let e = d
            .decompress(codec, b"\xff\xff\xff\xff garbage", &mut out)
            .unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&format!("{codec} page of 12 bytes")),
            "{e}"
        );
    }
    // A Hadoop block declaring more than the page.
    let mut framed = (u32::MAX).to_be_bytes().to_vec();
    framed.extend_from_slice(&[0; 8]);
    let e = d
        .decompress(Codec::Lzo, &framed, &mut out)
        .unwrap_err()
        .to_string();
    assert!(e.contains("declares 4294967295 bytes"), "{e}");
    // A python-lzo header declaring another size than the page's.
    let mut headed = vec![0xF0];
    headed.extend_from_slice(&(data.len() as u32 + 1).to_be_bytes());
    headed.extend_from_slice(&[0x11, 0, 0]);
    let e = d
        .decompress(Codec::Lzo, &headed, &mut out)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("python-lzo header declares 10001 bytes, the page header 10000"),
        "{e}"
    );
}

#[test]
fn every_writable_codec_round_trips_through_the_decompressor() {
    let text: Vec<u8> = (0..200_000u32)
        .flat_map(|i| format!("row {} value {}\n", i % 977, i / 3).into_bytes())
        .collect();
    let random: Vec<u8> = (0..70_000u64)
        .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8)
        .collect();
    let codecs = [
        Codec::Uncompressed,
        Codec::Snappy,
        Codec::Gzip,
        Codec::Brotli,
        Codec::Zstd,
        Codec::Lz4Raw,
        Codec::Lz4,
    ];
    let mut d = Decompressor::default();
    for codec in codecs {
        let mut c = Compressor::new(codec, None).unwrap();
        // Reuse across pages of different sizes, the big one last so the scratch shrinks logically.
        for page in [&text[..], &random[..], &[][..], &text[..10], &random[..]] {
            let stored = c.compress(page).unwrap().to_vec();
            if codec != Codec::Uncompressed && page.len() > 100_000 {
                assert!(stored.len() < page.len() / 2, "{codec}: {}", stored.len());
            }
            let mut back = vec![0u8; page.len()];
            d.decompress(codec, &stored, &mut back).unwrap();
            assert!(back == page, "{codec}");
        }
    }
}

#[test]
fn levels_are_checked_and_lzo_is_not_written() {
    let e = Compressor::new(Codec::Zstd, Some(23))
        .unwrap_err()
        .to_string();
    assert!(e.contains("level 23 is outside -7..=22"), "{e}");
    let e = Compressor::new(Codec::Snappy, Some(3))
        .unwrap_err()
        .to_string();
    assert!(e.contains("SNAPPY has no compression levels"), "{e}");
    let e = Compressor::new(Codec::Lzo, None).unwrap_err().to_string();
    assert!(e.contains("LZO"), "{e}");
    // A higher level compresses text at least as well.
    let text: Vec<u8> = (0..50_000u32)
        .flat_map(|i| format!("{} ", i % 1000).into_bytes())
        .collect();
    for (codec, high) in [(Codec::Gzip, 9), (Codec::Brotli, 11)] {
        let low = Compressor::new(codec, Some(1))
            .unwrap()
            .compress(&text)
            .unwrap()
            .len();
        let high = Compressor::new(codec, Some(high))
            .unwrap()
            .compress(&text)
            .unwrap()
            .len();
        assert!(high <= low, "{codec}: {high} > {low}");
    }
}

#[test]
fn lz4_pages_carry_hadoop_framing() {
    let page = b"abcdabcdabcdabcdabcdabcdabcdabcd".repeat(4);
    let mut c = Compressor::new(Codec::Lz4, None).unwrap();
    let stored = c.compress(&page).unwrap();
    assert_eq!(stored[..4], (page.len() as u32).to_be_bytes());
    assert_eq!(stored[4..8], ((stored.len() - 8) as u32).to_be_bytes());
}
