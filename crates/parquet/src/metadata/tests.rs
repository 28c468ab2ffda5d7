//! The footer framing and the validation, on files assembled with the encoder.

use super::*;
use crate::format::{
    ColumnChunk, ColumnChunks, ColumnCryptoMetaData, ColumnMetaData, CompressionCodec, Encoding,
    FieldRepetitionType, RowGroup, Type,
};
use crate::thrift::leaked;

fn leaf(name: &'static str) -> SchemaElement<'static> {
    SchemaElement {
        type_: Some(Type::INT32),
        repetition_type: Some(FieldRepetitionType::REQUIRED),
        name,
        ..Default::default()
    }
}

fn chunk(offset: i64, size: i64) -> ColumnChunk<'static> {
    ColumnChunk {
        file_offset: 0,
        meta_data: Some(ColumnMetaData {
            type_: Type::INT32,
            encodings: leaked(&[Encoding::PLAIN]),
            path_in_schema: leaked(&["a"]),
            codec: CompressionCodec::UNCOMPRESSED,
            num_values: 1,
            total_uncompressed_size: size,
            total_compressed_size: size,
            data_page_offset: offset,
            ..ColumnMetaData::empty()
        }),
        ..Default::default()
    }
}

/// A file of two leaf columns `a`, `b` in one group `g`, one row group, 20 bytes of data.
fn metadata() -> FileMetaData<'static> {
    let root = SchemaElement {
        name: "schema",
        num_children: Some(1),
        ..Default::default()
    };
    let group = SchemaElement {
        name: "g",
        num_children: Some(2),
        repetition_type: Some(FieldRepetitionType::OPTIONAL),
        ..Default::default()
    };
    FileMetaData {
        version: 1,
        schema: vec![root, group, leaf("a"), leaf("b")],
        num_rows: 1,
        row_groups: vec![RowGroup {
            columns: ColumnChunks::from_decoded(vec![chunk(4, 10), chunk(14, 10)]),
            total_byte_size: 20,
            num_rows: 1,
            sorting_columns: None,
            file_offset: None,
            total_compressed_size: None,
            ordinal: None,
        }],
        key_value_metadata: None,
        created_by: None,
        column_orders: None,
        encryption_algorithm: None,
        footer_signing_key_metadata: None,
    }
}

fn file_of(m: &FileMetaData<'_>) -> Vec<u8> {
    let meta = m.encode();
    let mut file = b"PAR1".to_vec();
    file.extend_from_slice(&[0u8; 20]);
    file.extend_from_slice(&meta);
    file.extend_from_slice(&(meta.len() as u32).to_le_bytes());
    file.extend_from_slice(b"PAR1");
    file
}

fn error_of(m: &FileMetaData<'_>) -> String {
    let file = file_of(m);
    match parse_file(&file) {
        Err(e) => e.to_string(),
        Ok(p) => p.decode_all().expect_err("an invalid file").to_string(),
    }
}

#[test]
fn footer_framing() {
    assert_eq!(footer_len(b"\x10\x00\x00\x00PAR1").unwrap(), 24);
    assert_eq!(
        footer_len(b"\xff\xff\xff\xffPAR1").unwrap(),
        (u32::MAX as usize) + 8
    );
    let e = footer_len(b"\x10\x00\x00\x00PARE").unwrap_err().to_string();
    assert_eq!(
        e,
        "footer magic PARE: not supported: encrypted; decryption keys required"
    );
    let e = footer_len(b"\x10\x00\x00\x00ABCD").unwrap_err().to_string();
    assert!(e.contains("not a Parquet file"), "{e}");
    assert!(parse_file(b"PAR1PAR1").is_err());
    // The metadata length must leave room for the leading magic.
    let mut file = file_of(&metadata());
    let n = file.len();
    file[n - 8..n - 4].copy_from_slice(&((n - 10) as u32).to_le_bytes());
    let e = parse_file(&file).unwrap_err().to_string();
    assert!(e.contains("does not fit in a file"), "{e}");
    // A different leading magic.
    let mut file = file_of(&metadata());
    file[..4].copy_from_slice(b"PARE");
    assert!(
        parse_file(&file)
            .unwrap_err()
            .to_string()
            .contains(ENCRYPTED)
    );
}

#[test]
fn a_valid_file_decodes_each_chunk_on_access() {
    let file = file_of(&metadata());
    let m = parse_file(&file).unwrap();
    assert_eq!(m.num_columns(), 2);
    assert_eq!(m.leaf_indices(), [2, 3]);
    assert_eq!(m.data_range(), 4..24);
    assert_eq!(*m.column_chunk(0, 1).unwrap(), chunk(14, 10));
    assert_eq!(m.file_len(), file.len() as u64);
    let range = chunk_byte_range(&m.column_chunk(0, 0).unwrap(), m.file_len()).unwrap();
    assert_eq!(range, 4..14);
    assert_eq!(m.decode_all().unwrap().len(), 1);
    assert!(m.column_chunk(1, 0).is_err());
    assert!(m.column_chunk(0, 2).is_err());
    // The sans-IO path: the tail, then the metadata.
    let tail: &[u8; 8] = file[file.len() - 8..].try_into().unwrap();
    let needed = footer_len(tail).unwrap();
    let meta = &file[file.len() - needed..file.len() - 8];
    assert_eq!(
        parse_metadata(meta, file.len() as u64).unwrap().num_rows(),
        1
    );
}

#[test]
fn validation_names_the_problem() {
    let mut m = metadata();
    m.num_rows = -1;
    assert_eq!(error_of(&m), "file metadata: num_rows is -1");

    let mut m = metadata();
    m.row_groups[0].columns = ColumnChunks::from_decoded(vec![chunk(4, 10)]);
    let e = error_of(&m);
    assert_eq!(
        e,
        "file metadata, row group 0: 1 column chunks for 2 leaf columns in the schema"
    );

    let mut m = metadata();
    m.schema[1].num_children = Some(3);
    assert!(error_of(&m).contains("declares 3 children, the schema ends first"));

    let mut m = metadata();
    m.schema[3].type_ = Some(Type::Unknown(12));
    assert!(error_of(&m).contains("leaf \"b\" has unknown physical type 12"));

    let mut m = metadata();
    m.row_groups[0].columns = ColumnChunks::from_decoded(vec![chunk(4, 10), chunk(14, 1000)]);
    let e = error_of(&m);
    let len = file_of(&m).len();
    assert_eq!(
        e,
        format!(
            "row group 0, column 1: pages at 14 of 1000 bytes do not end inside the file of {len} bytes"
        )
    );
    // Pages running into the footer, but not past the file's end, are read as Arrow C++
    // reads them; `locations` (quiver validate) names them.
    let into_footer = chunk(14, 11);
    m.row_groups[0].columns = ColumnChunks::from_decoded(vec![chunk(4, 10), into_footer.clone()]);
    let file = file_of(&m);
    let parsed = parse_file(&file).unwrap().decode_all().unwrap();
    assert_eq!(parsed[0][1], into_footer);
    let e = super::validate::locations(&into_footer, &(4..24))
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "pages at 14 of 11 bytes do not end before the footer at 24"
    );
    m = metadata();

    let mut bad = chunk(4, 10);
    bad.meta_data.as_mut().unwrap().type_ = Type::INT64;
    m.row_groups[0].columns = ColumnChunks::from_decoded(vec![bad, chunk(14, 10)]);
    assert!(error_of(&m).contains("row group 0, column 0: physical type INT64 differs"));

    let mut bad = chunk(4, 10);
    bad.column_index_offset = Some(20);
    bad.column_index_length = Some(5);
    // Reading never needs the page index, so a misplaced one is no decoding error (pyarrow
    // reads such files); `locations` (quiver validate) names it.
    let e = super::validate::locations(&bad, &(4..24))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("column index at 20 of 5 bytes does not end before"),
        "{e}"
    );
    m.row_groups[0].columns = ColumnChunks::from_decoded(vec![bad, chunk(14, 10)]);
    assert!(parse_file(&file_of(&m)).unwrap().decode_all().is_ok());

    let mut bad = chunk(4, 10);
    bad.meta_data.as_mut().unwrap().num_values = -3;
    m.row_groups[0].columns = ColumnChunks::from_decoded(vec![bad, chunk(14, 10)]);
    assert!(error_of(&m).contains("num_values is -3"));
}

#[test]
fn encrypted_columns_are_rejected_when_read() {
    let mut m = metadata();
    let mut secret = chunk(14, 10);
    secret.crypto_metadata = Some(Box::new(ColumnCryptoMetaData::WithFooterKey));
    m.row_groups[0].columns = ColumnChunks::from_decoded(vec![chunk(4, 10), secret]);
    let file = file_of(&m);
    let p = parse_file(&file).unwrap();
    assert!(p.column_chunk(0, 0).is_ok());
    let e = p.column_chunk(0, 1).unwrap_err().to_string();
    assert_eq!(
        e,
        "row group 0, column 1: not supported: encrypted; decryption keys required"
    );
}

#[test]
fn truncated_metadata_is_an_error_at_every_length() {
    let meta = metadata().encode();
    for cut in 0..meta.len() {
        assert!(parse_metadata(&meta[..cut], 1000).is_err(), "cut at {cut}");
    }
}

/// `m` encoded with its schema field before the row groups when `before`, and a schema field
/// `after` them when given (a later field replaces an earlier one).
fn reordered(m: &FileMetaData<'_>, before: bool, after: Option<&[SchemaElement<'_>]>) -> Vec<u8> {
    let mut w = crate::thrift::CompactWriter::new();
    w.struct_begin();
    if before {
        w.field_list(2, &m.schema);
    }
    w.field(1, &m.version);
    w.field(3, &m.num_rows);
    w.field_list(4, &m.row_groups);
    if let Some(schema) = after {
        w.field_list(2, schema);
    }
    w.struct_end();
    w.into_bytes()
}

/// Eager parsing of `meta` as the footer of a file with 20 bytes of data (as [`file_of`]).
fn eager(meta: &[u8]) -> Result<ParquetMetaData<'_>> {
    parse_metadata_eager(meta, (4 + 20 + meta.len() + 8) as u64)
}

#[test]
fn eager_parsing_validates_each_chunk_whatever_the_field_order() {
    let mut bad = chunk(4, 10);
    bad.meta_data.as_mut().unwrap().type_ = Type::INT64;
    let mut m = metadata();
    m.row_groups[0].columns = ColumnChunks::from_decoded(vec![chunk(4, 10), bad]);
    let want = "row group 0, column 1: physical type INT64 differs";
    // Schema first (as encoded): the chunk is checked as soon as it is decoded.
    let meta = m.encode();
    let e = eager(&meta).unwrap_err().to_string();
    assert!(e.starts_with(want), "{e}");
    // Schema after the row groups: the chunks are checked once the schema is known.
    let meta = reordered(&m, false, Some(&m.schema));
    let e = eager(&meta).unwrap_err().to_string();
    assert!(e.starts_with(want), "{e}");
    // A second schema field replacing the first after the row groups were checked against
    // it: the chunks are checked again against the schema the file ends up with.
    let mut int64 = m.schema.clone();
    int64[3].type_ = Some(Type::INT64);
    let meta = reordered(&m, true, Some(&int64));
    assert!(eager(&meta).is_ok());
    let mut checked_as_int64 = m.clone();
    checked_as_int64.schema = int64;
    let meta = reordered(&checked_as_int64, true, Some(&m.schema));
    let e = eager(&meta).unwrap_err().to_string();
    assert!(e.starts_with(want), "{e}");
    // A valid file: every chunk is returned without being validated again.
    let meta = metadata().encode();
    let p = eager(&meta).unwrap();
    assert_eq!(*p.column_chunk(0, 1).unwrap(), chunk(14, 10));
    assert_eq!(p.decode_all().unwrap()[0].len(), 2);
}
