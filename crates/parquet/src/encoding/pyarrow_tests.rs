//! The encoders against pyarrow (Arrow C++): the same values, written by pyarrow into a
//! single-page uncompressed column without levels (`tests/write_pages.py`), end with the very
//! bytes our encoders write.

use super::byte_array_encoder::{encode_delta_byte_array, encode_delta_length};
use super::byte_stream_split;
use super::delta_encoder::{encode_i32, encode_i64};
use super::interner::FixedInterner;
use super::plain::encode_byte_arrays;
use super::rle_encoder::RleEncoder;
use super::test_util::Rng;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::Write;

fn have_pyarrow() -> bool {
    let ok = std::process::Command::new("python3")
        .args(["-c", "import pyarrow"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "pyarrow is missing (CI=true)"
        );
        eprintln!("skipping: python3 -c 'import pyarrow' fails");
    }
    ok
}

/// Each case's column chunk as pyarrow writes it.
fn pyarrow_chunks(cases: &[Value]) -> HashMap<String, Vec<u8>> {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/write_pages.py");
    let mut child = std::process::Command::new("python3")
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3"); // ok: test code (a #[cfg(test)] module)
    let mut stdin = child.stdin.take().unwrap(); // ok: test code (a #[cfg(test)] module)
    for c in cases {
        writeln!(stdin, "{c}").unwrap(); // ok: test code (a #[cfg(test)] module)
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap(); // ok: test code (a #[cfg(test)] module)
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap() // ok: test code (a #[cfg(test)] module)
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap(); // ok: test code (a #[cfg(test)] module)
            let hex = v["chunk"].as_str().unwrap(); // ok: test code (a #[cfg(test)] module)
            (v["name"].as_str().unwrap().to_string(), unhex(hex)) // ok: test code (a #[cfg(test)] module)
        })
        .collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()) // ok: test code (a #[cfg(test)] module)
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Integers with runs, sorted stretches and extremes.
fn ints(rng: &mut Rng, n: usize) -> Vec<i64> {
    let mut x = 0i64;
    (0..n)
        .map(|i| match (i / 50) % 4 {
            0 => {
                x += rng.below(100) as i64;
                x
            }
            1 => rng.below(7) as i64 - 3,
            2 => [i64::MIN, i64::MAX, 0, 17][rng.below(4) as usize],
            _ => rng.next() as i64,
        })
        .collect()
}

/// Runs of equal values from a small pool.
fn runs(rng: &mut Rng, n: usize, pool: u64) -> Vec<i64> {
    let mut out = Vec::new();
    while out.len() < n {
        let v = rng.below(pool) as i64 * 1000 - 5000;
        let len = [1, 3, 8, 20, 100][rng.below(5) as usize];
        out.extend(std::iter::repeat_n(v, len));
    }
    out.truncate(n);
    out
}

fn words(rng: &mut Rng, n: usize) -> Vec<Vec<u8>> {
    let stems: [&[u8]; 4] = [b"", b"parquet", b"parquet-format", b"pyarrow"];
    (0..n)
        .map(|_| {
            let mut w = stems[rng.below(4) as usize].to_vec();
            w.extend((0..rng.below(6)).map(|_| b'a' + rng.below(3) as u8));
            w
        })
        .collect()
}

#[test]
fn encoders_write_what_pyarrow_writes() {
    if !have_pyarrow() {
        return;
    }
    let mut rng = Rng::new(81);
    let big = ints(&mut rng, 1000);
    let i64s: Vec<i64> = big.clone();
    let i32s: Vec<i32> = big.iter().map(|&v| v as i32).collect();
    let bools: Vec<bool> = runs(&mut rng, 3000, 2).iter().map(|&v| v > -5000).collect();
    let randbools: Vec<bool> = (0..777).map(|_| rng.below(2) == 0).collect();
    let alternating: Vec<bool> = (0..1000).map(|i| i % 2 == 0).collect();
    let dict = runs(&mut rng, 2000, 37);
    let wide_dict: Vec<i64> = (0..3000).map(|_| rng.below(600) as i64).collect();
    let strings = words(&mut rng, 700);
    let floats: Vec<f32> = (0..333).map(|_| rng.below(1 << 20) as f32 / 7.0).collect();
    let str_hex: Vec<String> = strings.iter().map(|s| hex(s)).collect();
    let cases = [
        json!({"name": "i32", "type": "int32", "encoding": "DELTA_BINARY_PACKED", "values": i32s}),
        json!({"name": "i64", "type": "int64", "encoding": "DELTA_BINARY_PACKED", "values": i64s}),
        json!({"name": "bools", "type": "bool", "encoding": "RLE", "values": bools}),
        json!({"name": "randbools", "type": "bool", "encoding": "RLE", "values": randbools}),
        json!({"name": "alternating", "type": "bool", "encoding": "RLE", "values": alternating}),
        json!({"name": "dict", "type": "int64", "encoding": "DICTIONARY", "values": dict}),
        json!({"name": "wide_dict", "type": "int64", "encoding": "DICTIONARY", "values": wide_dict}),
        json!({"name": "len", "type": "binary", "encoding": "DELTA_LENGTH_BYTE_ARRAY", "values": str_hex}),
        json!({"name": "dba", "type": "binary", "encoding": "DELTA_BYTE_ARRAY", "values": str_hex}),
        json!({"name": "plain", "type": "binary", "encoding": "PLAIN", "values": str_hex}),
        json!({"name": "bss", "type": "float", "encoding": "BYTE_STREAM_SPLIT", "values": floats}),
    ];
    let chunks = pyarrow_chunks(&cases);
    let ends_with = |name: &str, ours: &[u8]| {
        let chunk = &chunks[name];
        if !chunk.ends_with(ours) {
            let tail = &chunk[chunk.len().saturating_sub(ours.len())..];
            let at = ours.iter().zip(tail).position(|(a, b)| a != b);
            let show = |b: &[u8], at: usize| hex(&b[at.saturating_sub(16)..(at + 16).min(b.len())]);
            let at = at.unwrap_or(0);
            panic!(
                "{name}: {} bytes, pyarrow's chunk {}; first difference at {at} of ours: \
                 ours ..{}.. pyarrow ..{}..",
                ours.len(),
                chunk.len(),
                show(ours, at),
                show(tail, at)
            );
        }
    };

    let mut out = Vec::new();
    encode_i32(&i32s, &mut out);
    ends_with("i32", &out);
    out.clear();
    encode_i64(&i64s, &mut out);
    ends_with("i64", &out);

    // RLE booleans: the stream after its 4-byte length.
    let bool_cases = [
        ("bools", &bools),
        ("randbools", &randbools),
        ("alternating", &alternating),
    ];
    for (name, bits) in bool_cases {
        let mut words = vec![0u64; bits.len().div_ceil(64)];
        for (i, &b) in bits.iter().enumerate() {
            words[i / 64] |= (b as u64) << (i % 64);
        }
        let mut e = RleEncoder::new(1);
        e.put_bits(&words, 0, bits.len());
        let mut out = Vec::new();
        e.finish_into(&mut out);
        let mut framed = (out.len() as u32).to_le_bytes().to_vec();
        framed.extend(out);
        ends_with(name, &framed);
    }

    // Dictionary: the dictionary page holds the values in first-seen order; the data page is
    // the bit width, then the indices.
    for (name, values) in [("dict", &dict), ("wide_dict", &wide_dict)] {
        let mut d = FixedInterner::<u64>::new();
        let mut idx = Vec::new();
        let bits: Vec<u64> = values.iter().map(|&v| v as u64).collect();
        d.intern_all(&bits, &mut idx);
        let dict_page: Vec<u8> = d.values().iter().flat_map(|v| v.to_le_bytes()).collect();
        let chunk = &chunks[name];
        assert!(chunk.windows(dict_page.len()).any(|w| w == dict_page));
        let width = 32 - (d.len() as u32 - 1).leading_zeros();
        let mut e = RleEncoder::new(width);
        e.put_u32s(&idx);
        let mut out = vec![width as u8];
        e.finish_into(&mut out);
        ends_with(name, &out);
    }

    let refs: Vec<&[u8]> = strings.iter().map(|s| &s[..]).collect();
    let mut out = Vec::new();
    encode_delta_length(&refs, &mut out);
    ends_with("len", &out);
    out.clear();
    encode_delta_byte_array(&refs, &mut out);
    ends_with("dba", &out);
    out.clear();
    encode_byte_arrays(refs.iter().copied(), &mut out);
    ends_with("plain", &out);

    let raw: Vec<u8> = floats.iter().flat_map(|f| f.to_le_bytes()).collect();
    let mut out = Vec::new();
    byte_stream_split::encode(&raw, 4, &mut out);
    ends_with("bss", &out);
}
