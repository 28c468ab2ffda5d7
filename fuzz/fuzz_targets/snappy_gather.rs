//! The merge's Snappy gather (`codec::snappy::gather`): a dictionary made from the input
//! (values of the lengths its bytes say, fixed-width or length-prefixed), compressed by quiver's
//! compressor or by the `snap` crate, and indices in order of first appearance with repeats
//! where the input says; the gathered stream must decompress, by quiver and by `snap`, to the
//! picked values. The input taken as the elements of a stream (anything) must not panic
//! either.

#![no_main]

use libfuzzer_sys::fuzz_target;
use quiver_parquet::codec::snappy::{
    SnappyEncoder, decompress, gather::gather, max_compressed_len, split_preamble,
    start_with_literal,
};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (head, body) = rest.split_at(rest.len() / 2);
    // The dictionary: values from `body`, each as long as its next byte says (or fixed).
    let fixed = (mode & 0x0F) as usize;
    let mut dict = Vec::new();
    let mut entries: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    while at < body.len() {
        let len = if fixed > 0 {
            fixed
        } else {
            (body[at] % 24) as usize
        };
        let skip = usize::from(fixed == 0);
        let Some(v) = body.get(at + skip..at + skip + len) else {
            break;
        };
        // Distinct values are not needed: the gather does not compare them.
        let s = dict.len();
        if fixed == 0 {
            dict.extend_from_slice(&(len as u32).to_le_bytes());
        }
        dict.extend_from_slice(v);
        entries.push((s, dict.len()));
        at += skip + len;
    }
    // Indices: each byte of `head` a new entry or a repeat of an earlier one.
    let n = entries.len();
    let mut indices = Vec::new();
    let mut seen = 0u32;
    for &b in head {
        if (seen as usize) < n && (b < 160 || seen == 0) {
            indices.push(seen);
            seen += 1;
        } else if seen > 0 {
            let back = u32::from(b) % seen;
            indices.push(if b & 1 == 0 {
                seen - 1 - back.min(seen - 1)
            } else {
                back
            });
        }
    }
    while (seen as usize) < n {
        indices.push(seen);
        seen += 1;
    }
    let stream = if mode & 0x10 == 0 {
        let mut out = vec![0u8; max_compressed_len(dict.len())];
        let k = SnappyEncoder::new().compress(&dict, &mut out);
        out.truncate(k);
        out
    } else {
        snap::raw::Encoder::new()
            .compress_vec(&dict)
            .expect("snap compresses")
    };
    let elements = split_preamble(&stream).expect("a preamble").1;
    let mut out = Vec::new();
    let total = gather(elements, &dict, &entries, &indices, &mut out)
        .expect("indices in order of first appearance over a valid stream");
    let mut want = Vec::new();
    for &i in &indices {
        let (s, e) = entries[i as usize];
        want.extend_from_slice(&dict[s..e]);
    }
    assert_eq!(total, want.len());
    let mut s = Vec::new();
    start_with_literal(total, &[], &mut s);
    s.extend_from_slice(&out);
    let mut got = vec![0u8; total];
    decompress(&s, &mut got).expect("quiver decompresses the gathered stream");
    assert!(got == want, "quiver: other bytes");
    let other = snap::raw::Decoder::new()
        .decompress_vec(&s)
        .expect("snap decompresses the gathered stream");
    assert!(other == want, "snap: other bytes");
    // Anything as the elements: no panic (the result is the caller's to trust or not).
    let mut junk = Vec::new();
    let _ = gather(rest, &dict, &entries, &indices, &mut junk);
});
