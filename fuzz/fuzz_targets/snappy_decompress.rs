//! quiver's Snappy decompressor (`codec::snappy::decode`) on any bytes: it never panics or
//! reads or writes outside its buffers, and it accepts exactly the streams another decoder
//! (the `snap` crate's) accepts, with the same bytes. Streams that either decoder reads as
//! stating more than 1 MiB are left out (the output is allocated at the stated size).

#![no_main]

use libfuzzer_sys::fuzz_target;
use quiver_parquet::codec::snappy::{decompress, decompress_len};

/// A decoder's reading of a stream: refused (at its length or its elements), too long to try,
/// or the bytes.
enum Outcome {
    Refused,
    TooLong,
    Bytes(Vec<u8>),
}

const MAX: usize = 1 << 20;

fuzz_target!(|data: &[u8]| {
    let ours = match decompress_len(data) {
        Err(_) => Outcome::Refused,
        Ok(n) if n > MAX => Outcome::TooLong,
        Ok(n) => {
            let mut out = vec![0xA5u8; n];
            match decompress(data, &mut out) {
                Ok(()) => Outcome::Bytes(out),
                Err(_) => Outcome::Refused,
            }
        }
    };
    let theirs = match snap::raw::decompress_len(data) {
        Err(_) => Outcome::Refused,
        Ok(n) if n > MAX => Outcome::TooLong,
        Ok(n) => {
            let mut out = vec![0u8; n];
            match snap::raw::Decoder::new().decompress(data, &mut out) {
                Ok(k) => Outcome::Bytes(out[..k].to_vec()),
                Err(_) => Outcome::Refused,
            }
        }
    };
    match (ours, theirs) {
        (Outcome::TooLong, _) | (_, Outcome::TooLong) => {}
        (Outcome::Refused, Outcome::Refused) => {}
        (Outcome::Bytes(a), Outcome::Bytes(b)) => assert!(a == b, "the decoders' bytes differ"),
        (Outcome::Bytes(a), Outcome::Refused) => {
            panic!("quiver decodes {} bytes that snap refuses", a.len())
        }
        (Outcome::Refused, Outcome::Bytes(b)) => {
            panic!("snap decodes {} bytes that quiver refuses", b.len())
        }
    }
});
