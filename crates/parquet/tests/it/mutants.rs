//! Thousands of fixed-seed mutants of valid files (bytes flipped, ranges zeroed or filled,
//! files cut short) are read whole: every one gives batches or an error, never a panic.

use quiver_integration::testdata::require_test_data;
use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::file::FileReader;

pub(crate) struct Rng(pub u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A mutant of `file`: bits flipped, a range filled, a byte replaced, or the data cut short
/// with the footer kept.
pub(crate) fn mutate(rng: &mut Rng, file: &[u8]) -> Vec<u8> {
    let mut m = file.to_vec();
    match rng.below(4) {
        0 => {
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(m.len());
                m[i] ^= 1 << rng.below(8);
            }
        }
        1 => {
            let i = rng.below(m.len());
            let len = rng.below(16).min(m.len() - i);
            let fill = [0u8, 0xFF, 0x7F][rng.below(3)];
            m[i..i + len].fill(fill);
        }
        2 => {
            let i = rng.below(m.len());
            m[i] = rng.next() as u8;
        }
        _ => {
            // Cut the data but keep the footer, so the metadata points past the pages.
            let tail = m.len().min(8 + rng.below(64));
            let cut = rng.below(m.len() - tail);
            let footer = m[m.len() - tail..].to_vec();
            m.truncate(cut);
            m.extend_from_slice(&footer);
        }
    }
    m
}

#[test]
fn mutants_of_valid_files_never_panic() {
    let Some(root) = require_test_data().unwrap_or_else(|e| panic!("{e}")) else {
        return;
    };
    let names = [
        "alltypes_plain.parquet",
        "alltypes_dictionary.parquet",
        "datapage_v2.snappy.parquet",
        "nested_lists.snappy.parquet",
        "nonnullable.impala.parquet",
        "delta_encoding_optional_column.parquet",
        "byte_stream_split.zstd.parquet",
        "rle_boolean_encoding.parquet",
        "null_list.parquet",
        "fixed_length_decimal.parquet",
    ];
    let mut rng = Rng(0x5EED_1234_5678_9ABC);
    let mut read = 0;
    let mut refused = 0;
    for name in names {
        let file = std::fs::read(root.join("parquet-testing/data").join(name)).unwrap();
        for _ in 0..300 {
            let m = mutate(&mut rng, &file);
            let r = std::panic::catch_unwind(|| {
                FileReader::try_new(&m, ReadOptions::default())
                    .and_then(|r| r.read_all())
                    .is_ok()
            });
            match r {
                Ok(true) => read += 1,
                Ok(false) => refused += 1,
                Err(_) => panic!("{name}: a mutant panicked"),
            }
        }
    }
    eprintln!("mutants: {read} read, {refused} refused");
    assert!(refused > 0 && read + refused == names.len() * 300);
}
