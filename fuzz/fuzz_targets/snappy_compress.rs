//! quiver's Snappy compressor: any input compresses within `max_compressed_len` and another
//! decoder (the `snap` crate's) gives the input back. The first byte picks a piece length, so
//! that one compressor (its table reused) takes several pieces of the input in turn.

#![no_main]

use libfuzzer_sys::fuzz_target;
use quiver_parquet::codec::snappy::{SnappyEncoder, max_compressed_len};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let piece = 1 + (first as usize) * 97;
    let mut encoder = SnappyEncoder::new();
    let mut out = Vec::new();
    for src in rest.chunks(piece).chain([rest]) {
        out.resize(max_compressed_len(src.len()), 0);
        let n = encoder.compress(src, &mut out);
        assert!(n <= out.len());
        let back = snap::raw::Decoder::new()
            .decompress_vec(&out[..n])
            .expect("snap decodes quiver's Snappy");
        assert!(back == src, "round trip differs");
    }
});
