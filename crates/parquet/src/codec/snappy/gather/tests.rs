use super::*;
use crate::codec::snappy::tests::compress;
use crate::codec::snappy::{decompress, split_preamble};
use crate::encoding::test_util::Rng;

/// `src` compressed by the `snap` crate (elements of its own choosing).
fn snap_compress(src: &[u8]) -> Vec<u8> {
    snap::raw::Encoder::new().compress_vec(src).unwrap()
}

/// The elements of `stream` (its preamble dropped).
fn elements(stream: &[u8]) -> &[u8] {
    split_preamble(stream).unwrap().1
}

/// A PLAIN dictionary: its bytes and the range of each entry.
struct Dict {
    bytes: Vec<u8>,
    entries: Vec<(usize, usize)>,
}

impl Dict {
    fn fixed(values: &[Vec<u8>]) -> Dict {
        let mut d = Dict {
            bytes: Vec::new(),
            entries: Vec::new(),
        };
        for v in values {
            let s = d.bytes.len();
            d.bytes.extend_from_slice(v);
            d.entries.push((s, d.bytes.len()));
        }
        d
    }

    fn byte_array(values: &[Vec<u8>]) -> Dict {
        let prefixed: Vec<Vec<u8>> = values
            .iter()
            .map(|v| {
                let mut p = (v.len() as u32).to_le_bytes().to_vec();
                p.extend_from_slice(v);
                p
            })
            .collect();
        Dict::fixed(&prefixed)
    }

    /// The PLAIN bytes of `indices`, value by value.
    fn pick(&self, indices: &[u32]) -> Vec<u8> {
        let mut out = Vec::new();
        for &i in indices {
            let (s, e) = self.entries[i as usize];
            out.extend_from_slice(&self.bytes[s..e]);
        }
        out
    }
}

/// Dictionaries of the kinds Parquet pages hold: distinct 8-byte integers (ascending,
/// random, small), doubles, short words, comment-like text, near-identical fixed-size values
/// (runs that cross entries), empty strings among others, and incompressible blobs.
fn dictionaries() -> Vec<(&'static str, Dict)> {
    let mut rng = Rng::new(7);
    let mut v = Vec::new();
    let ascending: Vec<Vec<u8>> = (0..3000u64)
        .map(|i| (1000 + i * 4).to_le_bytes().to_vec())
        .collect();
    v.push(("ascending i64", Dict::fixed(&ascending)));
    let mut seen = std::collections::HashSet::new();
    let random: Vec<Vec<u8>> = (0..4000)
        .map(|_| rng.below(200_000))
        .filter(|x| seen.insert(*x))
        .map(|x| x.to_le_bytes().to_vec())
        .collect();
    v.push(("random i64", Dict::fixed(&random)));
    let doubles: Vec<Vec<u8>> = (0..2000)
        .map(|i| (f64::from(i) * 1.37 + 0.5).to_le_bytes().to_vec())
        .collect();
    v.push(("doubles", Dict::fixed(&doubles)));
    let small: Vec<Vec<u8>> = (0..50i32).map(|i| i.to_le_bytes().to_vec()).collect();
    v.push(("small i32", Dict::fixed(&small)));
    let words = [
        "carefully",
        "final",
        "deposits",
        "sleep",
        "quickly",
        "among",
        "the",
        "ironic",
        "packages",
        "furiously",
    ];
    let mut text = std::collections::BTreeSet::new();
    while text.len() < 3000 {
        let n = 2 + rng.below(6) as usize;
        let s: Vec<&str> = (0..n)
            .map(|_| words[rng.below(words.len() as u64) as usize])
            .collect();
        text.insert(s.join(" "));
    }
    let mut text: Vec<Vec<u8>> = text.into_iter().map(String::into_bytes).collect();
    // Not sorted: a dictionary is in order of first appearance.
    for i in (1..text.len()).rev() {
        text.swap(i, rng.below(i as u64 + 1) as usize);
    }
    v.push(("comments", Dict::byte_array(&text)));
    let near: Vec<Vec<u8>> = (0..2000u32)
        .map(|i| {
            let mut b = vec![0u8; 24];
            b[20..].copy_from_slice(&i.to_be_bytes());
            b
        })
        .collect();
    v.push(("near-identical FLBA", Dict::fixed(&near)));
    let mut with_empty: Vec<Vec<u8>> = vec![Vec::new()];
    with_empty.extend((0..500).map(|i| format!("v{i}").into_bytes()));
    v.push(("with an empty string", Dict::byte_array(&with_empty)));
    let blobs: Vec<Vec<u8>> = (0..3000)
        .map(|_| (0..40).map(|_| rng.next() as u8).collect())
        .collect();
    v.push(("incompressible", Dict::byte_array(&blobs)));
    v.push(("one entry", Dict::byte_array(&[b"only".to_vec()])));
    v
}

/// Indices over `n` entries in order of first appearance: each either the next new entry or
/// a repeat — a run of the last value, one of the last few, or any seen so far — in the
/// proportions `repeat` (percent of picks that repeat) and `pattern`.
fn first_appearance(n: usize, repeat: u64, pattern: u64, rng: &mut Rng) -> Vec<u32> {
    let mut out = Vec::new();
    let mut seen = 0u32;
    let mut recent: Vec<u32> = Vec::new();
    while (seen as usize) < n {
        let pick = if seen > 0 && rng.below(100) < repeat {
            match (pattern + rng.below(3)) % 3 {
                0 => *out.last().unwrap(),
                1 => recent[recent.len() - 1 - rng.below(recent.len().min(8) as u64) as usize],
                _ => rng.below(u64::from(seen)) as u32,
            }
        } else {
            seen += 1;
            seen - 1
        };
        out.push(pick);
        recent.push(pick);
    }
    // Repeats after the last new entry too.
    for _ in 0..rng.below(5) {
        out.push(rng.below(n as u64) as u32);
    }
    out
}

/// The whole stream [`gather`] makes, with its preamble.
fn gathered(stream: &[u8], d: &Dict, indices: &[u32]) -> Option<Vec<u8>> {
    let mut elements_out = vec![0xAA]; // bytes before are kept
    let total = gather(
        elements(stream),
        &d.bytes,
        &d.entries,
        indices,
        &mut elements_out,
    )?;
    assert_eq!(elements_out[0], 0xAA);
    let mut s = Vec::new();
    crate::codec::snappy::start_with_literal(total, &[], &mut s);
    s.extend_from_slice(&elements_out[1..]);
    Some(s)
}

fn check(what: &str, stream: &[u8], d: &Dict, indices: &[u32]) -> (usize, usize) {
    let want = d.pick(indices);
    let s = gathered(stream, d, indices).unwrap_or_else(|| panic!("{what}: no stream"));
    let mut got = vec![0u8; want.len()];
    decompress(&s, &mut got).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(got == want, "{what}: quiver decompresses other bytes");
    // An implementation of its own reads it the same.
    let other = snap::raw::Decoder::new()
        .decompress_vec(&s)
        .unwrap_or_else(|e| panic!("{what}: snap: {e}"));
    assert!(other == want, "{what}: snap decompresses other bytes");
    (s.len(), compress(&want).len())
}

#[test]
fn gathered_streams_decompress_to_the_picked_values() {
    let mut rng = Rng::new(11);
    // Sizes of the pages with few repeats, as a merge makes them this way: made, compressed
    // afresh.
    let (mut made, mut fresh) = (0usize, 0usize);
    for (name, d) in dictionaries() {
        let n = d.entries.len();
        for (ci, stream) in [compress(&d.bytes), snap_compress(&d.bytes)]
            .iter()
            .enumerate()
        {
            for repeat in [0, 1, 3, 10, 50, 90] {
                for pattern in 0..3 {
                    let indices = first_appearance(n, repeat, pattern, &mut rng);
                    let what = format!("{name}, compressor {ci}, {repeat}% repeats ({pattern})");
                    let (m, f) = check(&what, stream, &d, &indices);
                    let repeats = indices.len() - n;
                    if repeats <= indices.len() / GATHER_REPEATS && n > 1 {
                        // Each repeat costs a copy, and a split of the copy it lands in:
                        // a little more than compressing again finds.
                        assert!(
                            m as f64 <= f as f64 * 1.08 + 16.0,
                            "{what}: {m} bytes, {f} afresh"
                        );
                        made += m;
                        fresh += f;
                    }
                }
            }
        }
    }
    assert!(
        made as f64 <= fresh as f64 * 1.03,
        "gathered {made} bytes, compressed afresh {fresh}"
    );
}

#[test]
fn streams_of_every_element_kind_are_rewritten() {
    // A dictionary whose stream holds long literals, runs (overlapping copies) across
    // entries, 1-, 2- and 4-byte offsets: written by hand, element by element.
    let values: Vec<Vec<u8>> = (0..400u32)
        .map(|i| {
            let mut v = vec![b'x'; 10 + (i as usize % 7)];
            v.extend_from_slice(&i.to_le_bytes());
            v
        })
        .collect();
    let d = Dict::byte_array(&values);
    let mut stream = Vec::new();
    crate::codec::snappy::start_with_literal(d.bytes.len(), &[], &mut stream);
    let mut rng = Rng::new(5);
    let mut p = 0;
    while p < d.bytes.len() {
        let left = d.bytes.len() - p;
        let len = (1 + rng.below(70) as usize).min(left);
        // A copy from the nearest earlier position the next bytes match, if they are 4 or more.
        // (From less than `len` back: a run, as the format allows.)
        let found = (1..=p.min(70_000))
            .find(|&off| (0..len).all(|k| d.bytes[p - off + k] == d.bytes[p + k]));
        match found {
            Some(off) if len >= 4 && rng.below(4) > 0 => {
                let kind = rng.below(3);
                if kind == 0 && (4..12).contains(&len) && off < 2048 {
                    stream.push((((off >> 8) as u8) << 5) | (((len - 4) as u8) << 2) | 1);
                    stream.push(off as u8);
                } else if kind == 1 && len <= 64 {
                    stream.push((((len - 1) as u8) << 2) | 2);
                    stream.extend_from_slice(&(off as u16).to_le_bytes());
                } else if len <= 64 {
                    stream.push((((len - 1) as u8) << 2) | 3);
                    stream.extend_from_slice(&(off as u32).to_le_bytes());
                } else {
                    super::super::push_literal(&d.bytes[p..p + len], &mut stream);
                }
            }
            _ => super::super::push_literal(&d.bytes[p..p + len], &mut stream),
        }
        p += len;
    }
    // One long literal of everything, too.
    let mut one = Vec::new();
    crate::codec::snappy::start_with_literal(d.bytes.len(), &d.bytes, &mut one);
    for s in [&stream, &one] {
        let mut plain = vec![0u8; d.bytes.len()];
        decompress(s, &mut plain).unwrap();
        assert_eq!(plain, d.bytes, "the hand-made stream");
        for repeat in [0, 20, 70] {
            for pattern in 0..3 {
                let indices = first_appearance(d.entries.len(), repeat, pattern, &mut rng);
                check("hand-made", s, &d, &indices);
            }
        }
    }
}

#[test]
fn far_repeats_are_literals_and_offsets_stay_in_16_bits() {
    // 200 KB of distinct values, each early one repeated at the end (more than 64 KiB on).
    let mut rng = Rng::new(3);
    let values: Vec<Vec<u8>> = (0..5000)
        .map(|_| (0..36).map(|_| b'a' + (rng.below(4) as u8)).collect())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let d = Dict::byte_array(&values);
    let stream = compress(&d.bytes);
    let n = d.entries.len() as u32;
    let mut indices: Vec<u32> = (0..n).collect();
    indices.extend((0..50).chain(n - 50..n));
    check("far repeats", &stream, &d, &indices);
    let s = gathered(&stream, &d, &indices).unwrap();
    // Every copy has a 1- or 2-byte offset, as the library writes.
    let mut at = 0;
    let e = elements(&s);
    while at < e.len() {
        let tag = e[at];
        assert_ne!(tag & 3, 3, "a copy with a 4-byte offset");
        next_element(e, &mut at).unwrap();
    }
}

#[test]
fn indices_of_another_shape_are_refused() {
    let d = Dict::byte_array(&[b"a".to_vec(), b"bb".to_vec(), b"ccc".to_vec()]);
    let stream = compress(&d.bytes);
    for (indices, why) in [
        (vec![1, 0, 2], "an entry before the next new one"),
        (vec![0, 2, 1], "an entry skipped"),
        (vec![0, 1], "an entry missing"),
        (vec![0, 1, 2, 3], "an index past the end"),
        (vec![], "no indices"),
    ] {
        let mut out = vec![9u8; 3];
        let r = gather(elements(&stream), &d.bytes, &d.entries, &indices, &mut out);
        assert_eq!(r, None, "{why}");
        assert_eq!(out, [9, 9, 9], "{why}: the output is left as it was");
    }
    // A stream cut short, or one making more or fewer bytes than the dictionary.
    let e = elements(&stream);
    let mut out = Vec::new();
    assert_eq!(
        gather(
            &e[..e.len() - 1],
            &d.bytes,
            &d.entries,
            &[0, 1, 2],
            &mut out
        ),
        None
    );
    assert!(out.is_empty());
    let longer = compress(b"\x01\0\0\0a\x02\0\0\0bb\x03\0\0\0cccX");
    assert_eq!(
        gather(
            elements(&longer),
            &d.bytes,
            &d.entries,
            &[0, 1, 2],
            &mut out
        ),
        None
    );
    // Entries that do not cover the dictionary.
    let entries = [(0, 5), (5, 11)];
    assert_eq!(gather(e, &d.bytes, &entries, &[0, 1], &mut out), None);
    assert!(out.is_empty());
    // An empty dictionary with no indices is an empty stream.
    assert_eq!(gather(&[], &[], &[], &[], &mut out), Some(0));
    assert!(out.is_empty());
}
