//! The codecs against other implementations: quiver's Snappy compressor writes the bytes the
//! Snappy library (google/snappy, bundled by pyarrow and Arrow C++) writes.

use crate::common::{python_on_folder, test_files, writer_available};
use quiver_parquet::codec::snappy::{SnappyEncoder, max_compressed_len};

/// Deterministic pseudo-random bytes.
fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// Page-like inputs of every shape the compressor has a path for: length-prefixed short
/// strings (a dictionary page), words (comments), runs, noise, integers, their mixes, the
/// official test files' bytes, and lengths around the format's 64 KiB blocks and 15-byte margin.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut zips = Vec::new();
    for i in 0..120_000u32 {
        let s = format!("{:05}", i.wrapping_mul(7919) % 100_000);
        zips.extend_from_slice(&5u32.to_le_bytes());
        zips.extend_from_slice(s.as_bytes());
    }
    out.push(("zips".to_string(), zips));
    let words = [
        "carefully",
        "final",
        "deposits",
        "sleep",
        "quickly",
        "ironic",
        "the",
        "a",
    ];
    let text: Vec<u8> = (0..300_000usize)
        .map(|i| words[(i * 2_654_435_761) % 7 + (i % 3 == 0) as usize])
        .collect::<Vec<_>>()
        .join(" ")
        .into_bytes();
    out.push(("text".to_string(), text.clone()));
    out.push((
        "runs".to_string(),
        [vec![7u8; 100_000], vec![0; 70_000]].concat(),
    ));
    out.push(("noise".to_string(), noise(200_000, 3)));
    let ints: Vec<u8> = (0..150_000i64)
        .flat_map(|i| (i * 37 % 1_000_003).to_le_bytes())
        .collect();
    out.push(("ints".to_string(), ints));
    let mixed: Vec<u8> = (0..40)
        .flat_map(|i| {
            if i % 2 == 0 {
                noise(3_000 + i * 17, i as u64)
            } else {
                text[i * 1000..i * 1000 + 5_000].to_vec()
            }
        })
        .collect();
    out.push(("mixed".to_string(), mixed));
    for n in [
        0, 1, 14, 15, 16, 17, 31, 64, 255, 4_097, 65_535, 65_536, 65_537, 131_073,
    ] {
        out.push((format!("text-{n}"), text[..n].to_vec()));
        out.push((format!("noise-{n}"), noise(n, n as u64)));
    }
    if let Some(files) = test_files() {
        let official: Vec<u8> = files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
            .take(60)
            .flat_map(|p| std::fs::read(p).unwrap())
            .take(3 << 20)
            .collect();
        out.push(("official".to_string(), official));
    }
    out
}

#[test]
fn snappy_output_is_byte_identical_to_the_snappy_library() {
    if !writer_available("pyarrow", "import pyarrow") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let inputs = inputs();
    for (name, bytes) in &inputs {
        std::fs::write(dir.path().join(format!("{name}.bin")), bytes).unwrap();
    }
    python_on_folder("libsnappy.py", dir.path());
    let mut encoder = SnappyEncoder::new();
    let mut differ = Vec::new();
    for (name, bytes) in &inputs {
        let mut ours = vec![0; max_compressed_len(bytes.len())];
        let n = encoder.compress(bytes, &mut ours);
        ours.truncate(n);
        let theirs = std::fs::read(dir.path().join(format!("{name}.bin.snappy"))).unwrap();
        // And what another decoder (the `snap` crate's) makes of ours.
        let back = snap::raw::Decoder::new().decompress_vec(&ours).unwrap();
        assert!(back == *bytes, "{name}: does not round-trip");
        if ours != theirs {
            differ.push(format!(
                "{name}: {} bytes, the library's {}",
                ours.len(),
                theirs.len()
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
