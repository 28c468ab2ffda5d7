//! A small file that legitimately decodes to terabytes (DuckDB's "42.parquet" report): every
//! row group points at the same few bytes, a dictionary page and a data page whose one RLE run
//! repeats index 0 two billion times. Reading it streams batch by batch: the first batches come
//! out at once and memory stays bounded by the batch, not by the pages or the row groups.

use quiver_parquet::arrow::options::ReadOptions;
use quiver_parquet::file::{FileReader, Selection};
use quiver_parquet::format::{
    ColumnChunks, CompressionCodec, DataPageHeader, DictionaryPageHeader, Encoding, FileMetaData,
    PageHeader, PageType,
};
use quiver_parquet::thrift::{CompactWriter, ThriftWrite};
use std::path::Path;

const ROWS_PER_PAGE: i32 = i32::MAX;
const ROW_GROUPS: usize = 1000;

fn header(h: &PageHeader<'_>) -> Vec<u8> {
    let mut w = CompactWriter::new();
    h.write(&mut w);
    w.into_bytes()
}

/// The file: `PAR1`, one column chunk (dictionary page, data page), then a footer taken from a
/// pyarrow file of one `int64 not null` column and rewritten so that `ROW_GROUPS` row groups
/// each read that chunk as `ROWS_PER_PAGE` rows.
fn bomb(dir: &Path) -> Vec<u8> {
    let template = dir.join("one.parquet");
    let script = "import pyarrow as pa, pyarrow.parquet as pq, sys\n\
        t = pa.table({'x': pa.array([42], pa.int64())}, \
                     schema=pa.schema([pa.field('x', pa.int64(), nullable=False)]))\n\
        pq.write_table(t, sys.argv[1], compression='none', write_statistics=False)";
    let ok = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(&template)
        .status()
        .unwrap();
    assert!(ok.success());
    let template = std::fs::read(template).unwrap();
    let footer_len = u32::from_le_bytes(template[template.len() - 8..][..4].try_into().unwrap());
    let footer = &template[template.len() - 8 - footer_len as usize..template.len() - 8];
    let mut meta = FileMetaData::decode(footer).unwrap();

    let dict_values = 42i64.to_le_bytes();
    let dict = PageHeader {
        type_: PageType::DICTIONARY_PAGE,
        uncompressed_page_size: 8,
        compressed_page_size: 8,
        crc: None,
        data_page_header: None,
        index_page_header: false,
        dictionary_page_header: Some(DictionaryPageHeader {
            num_values: 1,
            encoding: Encoding::PLAIN,
            is_sorted: None,
        }),
        data_page_header_v2: None,
    };
    // Bit width 1, then one repeated run of ROWS_PER_PAGE copies of index 0.
    let mut body = vec![1u8];
    let mut run = (ROWS_PER_PAGE as u64) << 1;
    while run >= 0x80 {
        body.push(run as u8 | 0x80);
        run >>= 7;
    }
    body.extend([run as u8, 0]);
    let data = PageHeader {
        type_: PageType::DATA_PAGE,
        uncompressed_page_size: body.len() as i32,
        compressed_page_size: body.len() as i32,
        crc: None,
        data_page_header: Some(DataPageHeader {
            num_values: ROWS_PER_PAGE,
            encoding: Encoding::RLE_DICTIONARY,
            definition_level_encoding: Encoding::RLE,
            repetition_level_encoding: Encoding::RLE,
            statistics: None,
        }),
        index_page_header: false,
        dictionary_page_header: None,
        data_page_header_v2: None,
    };
    let mut file = b"PAR1".to_vec();
    let chunk_start = file.len() as i64;
    file.extend(header(&dict));
    file.extend(dict_values);
    let data_start = file.len() as i64;
    file.extend(header(&data));
    file.extend(&body);
    let chunk_len = file.len() as i64 - chunk_start;

    let mut group = meta.row_groups[0].clone();
    let mut chunk = group.columns.get(0).unwrap().into_owned();
    let m = chunk.meta_data.as_mut().unwrap();
    m.codec = CompressionCodec::UNCOMPRESSED;
    m.num_values = i64::from(ROWS_PER_PAGE);
    m.total_uncompressed_size = chunk_len;
    m.total_compressed_size = chunk_len;
    m.data_page_offset = data_start;
    m.dictionary_page_offset = Some(chunk_start);
    m.statistics = None;
    m.encoding_stats = None;
    m.index_page_offset = None;
    chunk.file_offset = chunk_start;
    chunk.offset_index_offset = None;
    chunk.offset_index_length = None;
    chunk.column_index_offset = None;
    chunk.column_index_length = None;
    group.columns = ColumnChunks::from_decoded(vec![chunk]);
    group.num_rows = i64::from(ROWS_PER_PAGE);
    group.total_byte_size = chunk_len;
    group.file_offset = Some(chunk_start);
    group.total_compressed_size = Some(chunk_len);
    meta.row_groups = vec![group; ROW_GROUPS];
    meta.num_rows = i64::from(ROWS_PER_PAGE) * ROW_GROUPS as i64;
    let footer = meta.encode();
    file.extend(&footer);
    file.extend((footer.len() as u32).to_le_bytes());
    file.extend(b"PAR1");
    file
}

/// The process's peak resident memory so far, in KiB (Linux).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_file_decoding_to_terabytes_streams_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = bomb(dir.path());
    assert!(bytes.len() < 200_000, "{} bytes", bytes.len());
    let reader = FileReader::try_new(&bytes, ReadOptions::default()).unwrap();
    assert_eq!(
        reader.metadata().num_rows(),
        i64::from(ROWS_PER_PAGE) * ROW_GROUPS as i64
    );
    let before = peak_rss_kib();
    // 400 batches of 64 Ki rows: 200 MiB of values decoded in all, 512 KiB at a time.
    let s = Selection {
        batch_size: 65_536,
        ..Selection::default()
    };
    let mut rows = 0usize;
    for batch in reader.batches(&s).unwrap().take(400) {
        let batch = batch.unwrap();
        let x = batch.columns()[0]
            .as_primitive::<i64>()
            .expect("an int64 column");
        assert!(x.values().iter().all(|v| v == 42));
        rows += batch.num_rows();
    }
    assert_eq!(rows, 400 * 65_536);
    // Rows deep inside a later row group, past the offset: reached by skipping batches.
    let s = Selection {
        row_groups: Some(vec![999]),
        offset: 1_000_000,
        limit: Some(10),
        ..Selection::default()
    };
    let got: Vec<_> = reader.batches(&s).unwrap().collect();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].as_ref().unwrap().num_rows(), 10);
    if let (Some(before), Some(after)) = (before, peak_rss_kib()) {
        // Tests run in parallel threads of one process: allow for them, but not for the
        // gigabytes a page or a row group read whole would take.
        assert!(
            after.saturating_sub(before) < 512 * 1024,
            "peak RSS grew by {} KiB",
            after - before
        );
    }
}
