//! Thousands of fixed-seed mutants of real footers: decoding them gives errors or metadata,
//! never a panic, and whatever decodes survives an encode → decode → encode round trip.

use crate::common::test_files;
use quiver_parquet::format::{ColumnChunks, FileMetaData};
use quiver_parquet::metadata::{parse_metadata, parse_metadata_eager};

/// xorshift64*: a small deterministic generator (the seed fixes every mutant).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The metadata bytes of a Parquet file (`None` if it has no plausible footer).
fn footer(file: &[u8]) -> Option<&[u8]> {
    let n = file.len();
    if n < 12 || &file[n - 4..] != b"PAR1" {
        return None;
    }
    let len = u32::from_le_bytes(file[n - 8..n - 4].try_into().unwrap()) as usize;
    (len + 12 <= n).then(|| &file[n - 8 - len..n - 8])
}

fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(bytes.len());
        match rng.below(7) {
            0 => bytes[at] ^= 1 << rng.below(8),
            1 => bytes[at] = rng.next() as u8,
            2 => bytes[at] = [0x00, 0xff, 0x7f, 0x80, 0x0f, 0xf0][rng.below(6)],
            3 => bytes.truncate(at),
            4 => {
                let end = (at + 1 + rng.below(16)).min(bytes.len());
                bytes.drain(at..end);
            }
            5 => {
                let from = rng.below(bytes.len());
                let end = (from + 1 + rng.below(32)).min(bytes.len());
                let chunk = bytes[from..end].to_vec();
                bytes.splice(at..at, chunk);
            }
            _ => bytes.insert(at, [0xff, 0x1c, 0x19, 0xf9][rng.below(4)]),
        }
        if bytes.is_empty() {
            return;
        }
    }
}

/// Decodes `meta` lazily and eagerly: both agree; whatever decodes round-trips.
fn check(meta: &[u8]) -> bool {
    let file_len = meta.len() as u64 + (1 << 20);
    let lazy = parse_metadata(meta, file_len).and_then(|m| m.decode_all().map(|all| (m, all)));
    let eager = parse_metadata_eager(meta, file_len).and_then(|m| m.decode_all());
    let Ok((m, all)) = lazy else {
        assert!(
            eager.is_err(),
            "the lazy decoder failed, the eager one did not"
        );
        return false;
    };
    // Compared as text: NaN bounds of geospatial statistics are not equal to themselves.
    let eager = format!("{:?}", eager.expect("the eager decoder fails"));
    assert_eq!(eager, format!("{all:?}"), "the eager decoder differs");
    let mut decoded = m.file().clone();
    for (rg, chunks) in decoded.row_groups.iter_mut().zip(all) {
        rg.columns = ColumnChunks::from_decoded(chunks);
    }
    let once = decoded.encode();
    let again = FileMetaData::decode(&once).expect("re-decoding what was encoded");
    assert_eq!(again.encode(), once, "encode → decode → encode differs");
    true
}

#[test]
fn mutated_footers_never_panic() {
    let Some(files) = test_files() else { return };
    let mut rng = Rng(0x5eed_1234_abcd_9876);
    let (mut mutants, mut decoded) = (0, 0);
    for path in files
        .iter()
        .filter(|p| p.to_string_lossy().contains("parquet-testing/data"))
    {
        let file = std::fs::read(path).unwrap();
        let Some(meta) = footer(&file) else { continue };
        if parse_metadata(meta, file.len() as u64).is_err() {
            continue; // encrypted footers and the like
        }
        for i in 0..400 {
            let mut bytes = meta.to_vec();
            mutate(&mut rng, &mut bytes);
            let result = std::panic::catch_unwind(|| check(&bytes));
            match result {
                Ok(ok) => decoded += usize::from(ok),
                Err(_) => panic!("{} mutant {i} panicked: {bytes:02x?}", path.display()),
            }
            mutants += 1;
        }
    }
    eprintln!("{mutants} mutants, {decoded} decoded in full");
    assert!(mutants >= 5000, "{mutants} mutants");
}
