//! The Parquet footer decoder. The input is taken three ways: as the metadata bytes of a
//! file (`parse_metadata`, then every column chunk decoded and validated), as a whole file
//! (`parse_file`), the lazy and eager decoders agreeing, and as a page header, column index, offset index and Bloom filter header.
//! Errors are fine; panics, hangs and unbounded allocations are bugs, and so is metadata that
//! does not survive an encode → decode → encode round trip byte for byte.

#![no_main]

use libfuzzer_sys::fuzz_target;
use quiver_parquet::format::{
    BloomFilterHeader, ColumnChunks, ColumnIndex, FileMetaData, OffsetIndex, PageHeader,
};
use quiver_parquet::metadata::{
    chunk_byte_range, parse_file, parse_metadata, parse_metadata_eager,
};

fuzz_target!(|data: &[u8]| {
    // Room for the column data the metadata may point to.
    let file_len = data.len() as u64 + 12 + (1 << 20);
    if let Ok(m) = parse_metadata(data, file_len) {
        let all = m.decode_all();
        for g in 0..m.num_row_groups() {
            for c in 0..m.num_columns() {
                if let Ok(chunk) = m.column_chunk(g, c) {
                    let range = chunk_byte_range(&chunk, m.file_len()).expect("validated");
                    assert!(range.end <= m.file_len());
                }
            }
        }
        let eager = parse_metadata_eager(data, file_len).and_then(|e| e.decode_all());
        assert_eq!(
            all.is_ok(),
            eager.is_ok(),
            "lazy and eager decoding disagree"
        );
        if let Ok(all) = all {
            // Compared as text: NaN bounds of geospatial statistics are not equal to themselves.
            let eager = format!("{:?}", eager.expect("checked above"));
            assert_eq!(eager, format!("{all:?}"), "eager decoding differs");
            round_trip(m.file(), all);
        }
    } else {
        assert!(
            parse_metadata_eager(data, file_len).is_err(),
            "only eager decoding succeeds"
        );
    }
    let _ = parse_file(data).map(|m| m.decode_all().map(|v| v.len()));
    let _ = PageHeader::decode(data);
    let _ = ColumnIndex::decode(data);
    let _ = OffsetIndex::decode(data);
    let _ = BloomFilterHeader::decode(data);
});

/// Encodes the metadata with its chunks decoded, decodes that and encodes it again: the two
/// encodings are the same bytes.
fn round_trip(file: &FileMetaData<'_>, chunks: Vec<Vec<quiver_parquet::format::ColumnChunk<'_>>>) {
    let mut decoded = file.clone();
    for (rg, chunks) in decoded.row_groups.iter_mut().zip(chunks) {
        rg.columns = ColumnChunks::from_decoded(chunks);
    }
    let once = decoded.encode();
    let again = FileMetaData::decode(&once).expect("re-decoding what was encoded");
    assert_eq!(again.encode(), once, "encode → decode → encode differs");
}
