//! The structs against hand-assembled bytes (unknown variants, unknown enum values) and
//! encode → decode round trips of every struct with every field set.

use super::*;
use crate::thrift::{CompactReader, CompactWriter, ThriftRead, ThriftWrite, leaked, leaked_value};

fn round_trip<'a, T>(value: &T, buf: &'a mut Vec<u8>) -> T
where
    T: ThriftRead<'a> + ThriftWrite + std::fmt::Debug,
{
    let mut w = CompactWriter::new();
    value.write(&mut w);
    *buf = w.into_bytes();
    let mut r = CompactReader::new(buf);
    let back = T::read(&mut r).unwrap_or_else(|e| panic!("{value:?}: {e}"));
    assert_eq!(r.remaining(), 0);
    back
}

#[test]
fn enums_keep_unknown_values() {
    assert_eq!(Encoding::from(9), Encoding::BYTE_STREAM_SPLIT);
    assert_eq!(Encoding::from(1), Encoding::Unknown(1));
    assert_eq!(Encoding::Unknown(42).value(), 42);
    assert_eq!(CompressionCodec::from(7), CompressionCodec::LZ4_RAW);
    assert_eq!(Type::from(-1), Type::Unknown(-1));
    assert_eq!(FieldRepetitionType::from(3), FieldRepetitionType::VECTOR);
    assert_eq!(ConvertedType::from(21).name(), "INTERVAL");
    assert_eq!(PageType::from(3), PageType::DATA_PAGE_V2);
    // A list<Encoding> with a value from the future: [PLAIN, 77, RLE].
    let mut r = CompactReader::new(&[0x35, 0x00, 0x9a, 0x01, 0x06]);
    assert_eq!(
        r.list::<Encoding>().unwrap(),
        [Encoding::PLAIN, Encoding::Unknown(77), Encoding::RLE]
    );
}

#[test]
fn logical_types_from_bytes() {
    let decode = |bytes: &'static [u8]| LogicalType::read(&mut CompactReader::new(bytes)).unwrap();
    // { 1: StringType {} }
    assert_eq!(decode(&[0x1c, 0x00, 0x00]), LogicalType::String);
    // { 8: TimestampType { 1: true, 2: { 3: NanoSeconds {} } } }
    assert_eq!(
        decode(&[0x8c, 0x11, 0x1c, 0x3c, 0x00, 0x00, 0x00, 0x00]),
        LogicalType::Timestamp {
            is_adjusted_to_utc: true,
            unit: TimeUnit::Nanos
        }
    );
    // { 5: DecimalType { 1: scale 2, 2: precision 9 } }
    assert_eq!(
        decode(&[0x5c, 0x15, 0x04, 0x15, 0x12, 0x00, 0x00]),
        LogicalType::Decimal {
            scale: 2,
            precision: 9
        }
    );
    // { 10: IntType { 1: i8 16, 2: false } }
    assert_eq!(
        decode(&[0x0c, 0x14, 0x13, 0x10, 0x12, 0x00, 0x00]),
        LogicalType::Integer {
            bit_width: 16,
            is_signed: false
        }
    );
    // { 18: GeographyType { 1: "c", 2: KARNEY } }
    assert_eq!(
        decode(&[0x0c, 0x24, 0x18, 0x01, b'c', 0x15, 0x08, 0x00, 0x00]),
        LogicalType::Geography {
            crs: Some("c"),
            algorithm: Some(EdgeInterpolationAlgorithm::KARNEY)
        }
    );
    // { 42: SomeFutureType { 1: i32 7 } }: kept as Unknown(42).
    assert_eq!(
        decode(&[0x0c, 0x54, 0x15, 0x0e, 0x00, 0x00]),
        LogicalType::Unknown(42)
    );
    // TIME with a unit from the future: { 7: { 1: false, 2: { 9: {} } } }
    assert_eq!(
        decode(&[0x7c, 0x12, 0x1c, 0x9c, 0x00, 0x00, 0x00, 0x00]),
        LogicalType::Time {
            is_adjusted_to_utc: false,
            unit: TimeUnit::Unknown(9)
        }
    );
    // An empty union.
    assert_eq!(decode(&[0x00]), LogicalType::Unknown(0));
    // A variant field that is not a struct is skipped (fuzzer-found: it used to become
    // Unknown(10), which re-encoded as an INTEGER without its fields).
    assert_eq!(decode(&[0xa5, 0x02, 0x00]), LogicalType::Unknown(0));
    assert_eq!(
        decode(&[0xa5, 0x02, 0x0c, 0x02, 0x00, 0x00]),
        LogicalType::String
    );
}

#[test]
fn required_fields_are_required() {
    // KeyValue { 2: value "v" } without its key.
    let e = KeyValue::read(&mut CompactReader::new(b"\x28\x01v\x00")).unwrap_err();
    assert_eq!(e.to_string(), "KeyValue lacks required field key");
    // DecimalType without precision.
    let e = LogicalType::read(&mut CompactReader::new(&[0x5c, 0x15, 0x04, 0x00, 0x00]))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("DecimalType lacks required field precision"),
        "{e}"
    );
}

fn every_logical_type() -> Vec<LogicalType<'static>> {
    let units = [TimeUnit::Millis, TimeUnit::Micros, TimeUnit::Nanos];
    let mut v = vec![
        LogicalType::String,
        LogicalType::Map,
        LogicalType::List,
        LogicalType::Enum,
        LogicalType::Decimal {
            scale: 3,
            precision: 38,
        },
        LogicalType::Date,
        LogicalType::Integer {
            bit_width: 64,
            is_signed: true,
        },
        LogicalType::Null,
        LogicalType::Json,
        LogicalType::Bson,
        LogicalType::Uuid,
        LogicalType::Float16,
        LogicalType::Variant {
            specification_version: Some(1),
        },
        LogicalType::Geometry { crs: None },
        LogicalType::Geography {
            crs: Some("OGC:CRS84"),
            algorithm: None,
        },
        LogicalType::Vector,
        LogicalType::Unknown(77),
    ];
    for unit in units {
        for utc in [true, false] {
            v.push(LogicalType::Time {
                is_adjusted_to_utc: utc,
                unit,
            });
            v.push(LogicalType::Timestamp {
                is_adjusted_to_utc: utc,
                unit,
            });
        }
    }
    v
}

#[test]
fn logical_types_round_trip() {
    for t in every_logical_type() {
        let mut buf = Vec::new();
        assert_eq!(round_trip(&t, &mut buf), t);
    }
}

fn statistics() -> Statistics<'static> {
    Statistics {
        max: Some(b"\x09"),
        min: Some(b""),
        null_count: Some(0),
        distinct_count: Some(7),
        max_value: Some(b"zz"),
        min_value: Some(b"aa"),
        is_max_value_exact: Some(true),
        is_min_value_exact: Some(false),
        nan_count: Some(3),
    }
}

fn column_chunk() -> ColumnChunk<'static> {
    ColumnChunk {
        file_path: Some("other.parquet"),
        file_offset: 100,
        meta_data: Some(ColumnMetaData {
            type_: Type::BYTE_ARRAY,
            encodings: leaked(&[Encoding::RLE_DICTIONARY, Encoding::Unknown(99)]),
            path_in_schema: leaked(&["a", "list", "element"]),
            codec: CompressionCodec::ZSTD,
            num_values: 10,
            total_uncompressed_size: 200,
            total_compressed_size: 150,
            key_value_metadata: Some(vec![KeyValue {
                key: b"k",
                value: None,
            }]),
            data_page_offset: 60,
            index_page_offset: Some(1),
            dictionary_page_offset: Some(4),
            statistics: Some(leaked_value(&statistics())),
            encoding_stats: Some(leaked(&[PageEncodingStats {
                page_type: PageType::DICTIONARY_PAGE,
                encoding: Encoding::PLAIN,
                count: 1,
            }])),
            bloom_filter_offset: Some(500),
            bloom_filter_length: Some(40),
            size_statistics: Some(leaked_value(&SizeStatistics {
                unencoded_byte_array_data_bytes: Some(12),
                repetition_level_histogram: Some(vec![1, 2]),
                definition_level_histogram: Some(vec![3, 4, 5]),
            })),
            geospatial_statistics: Some(Box::new(GeospatialStatistics {
                bbox: Some(BoundingBox {
                    xmin: -1.0,
                    xmax: 1.0,
                    ymin: -2.0,
                    ymax: 2.0,
                    zmin: Some(0.5),
                    zmax: None,
                    mmin: None,
                    mmax: Some(9.0),
                }),
                geospatial_types: Some(vec![1, 1003]),
            })),
        }),
        offset_index_offset: Some(700),
        offset_index_length: Some(20),
        column_index_offset: Some(720),
        column_index_length: Some(30),
        crypto_metadata: Some(Box::new(ColumnCryptoMetaData::WithColumnKey {
            path_in_schema: vec!["a"],
            key_metadata: Some(b"key"),
        })),
        encrypted_column_metadata: Some(b"\x00\x01"),
    }
}

fn schema() -> Vec<SchemaElement<'static>> {
    let root = SchemaElement {
        name: "schema",
        num_children: Some(1),
        ..Default::default()
    };
    let leaf = SchemaElement {
        type_: Some(Type::FIXED_LEN_BYTE_ARRAY),
        type_length: Some(16),
        repetition_type: Some(FieldRepetitionType::OPTIONAL),
        name: "a",
        num_children: None,
        converted_type: Some(ConvertedType::DECIMAL),
        scale: Some(2),
        precision: Some(30),
        field_id: Some(-5),
        logical_type: Some(LogicalType::Decimal {
            scale: 2,
            precision: 30,
        }),
        vector_length: Some(3),
    };
    vec![root, leaf]
}

#[test]
fn file_metadata_round_trips_and_chunks_decode_lazily() {
    let chunks = vec![column_chunk(), ColumnChunk::default()];
    let file = FileMetaData {
        version: 2,
        schema: schema(),
        num_rows: 10,
        row_groups: vec![RowGroup {
            columns: ColumnChunks::from_decoded(chunks.clone()),
            total_byte_size: 300,
            num_rows: 10,
            sorting_columns: Some(vec![SortingColumn {
                column_idx: 0,
                descending: true,
                nulls_first: false,
            }]),
            file_offset: Some(4),
            total_compressed_size: Some(150),
            ordinal: Some(0),
        }],
        key_value_metadata: Some(vec![KeyValue {
            key: b"ARROW:schema",
            value: Some(b"\xff\xfe"),
        }]),
        created_by: Some(b"quiver"),
        column_orders: Some(vec![ColumnOrder::TypeDefined, ColumnOrder::Unknown(5)]),
        encryption_algorithm: Some(EncryptionAlgorithm::AesGcmCtrV1(AesGcm {
            aad_prefix: Some(b"p"),
            aad_file_unique: None,
            supply_aad_prefix: Some(true),
        })),
        footer_signing_key_metadata: Some(b"sig"),
    };
    let bytes = file.encode();
    let back = FileMetaData::decode(&bytes).unwrap();
    let columns = &back.row_groups[0].columns;
    assert_eq!(columns.len(), 2);
    // Indexed: each chunk's bytes are recorded, decoded on access.
    assert!(columns.raw(0).is_some());
    assert_eq!(columns.get(1).unwrap().into_owned(), chunks[1]);
    assert_eq!(columns.decode_all().unwrap(), chunks);
    assert!(columns.get(2).is_err());
    // Everything else equal; re-encoding the indexed form gives the same bytes.
    assert_eq!(back.encode(), bytes);
    let mut decoded = back.clone();
    decoded.row_groups[0].columns = ColumnChunks::from_decoded(chunks);
    assert_eq!(decoded, file);
}

#[test]
fn page_headers_round_trip() {
    let headers = [
        PageHeader {
            type_: PageType::DATA_PAGE,
            uncompressed_page_size: 100,
            compressed_page_size: 80,
            crc: Some(-12345),
            data_page_header: Some(DataPageHeader {
                num_values: 10,
                encoding: Encoding::PLAIN,
                definition_level_encoding: Encoding::RLE,
                repetition_level_encoding: Encoding::BIT_PACKED,
                statistics: Some(statistics()),
            }),
            index_page_header: false,
            dictionary_page_header: None,
            data_page_header_v2: None,
        },
        PageHeader {
            type_: PageType::DATA_PAGE_V2,
            uncompressed_page_size: 100,
            compressed_page_size: 100,
            crc: None,
            data_page_header: None,
            index_page_header: true,
            dictionary_page_header: Some(DictionaryPageHeader {
                num_values: 3,
                encoding: Encoding::PLAIN_DICTIONARY,
                is_sorted: Some(false),
            }),
            data_page_header_v2: Some(DataPageHeaderV2 {
                num_values: 10,
                num_nulls: 2,
                num_rows: 5,
                encoding: Encoding::DELTA_BYTE_ARRAY,
                definition_levels_byte_length: 4,
                repetition_levels_byte_length: 6,
                is_compressed: Some(false),
                statistics: None,
            }),
        },
    ];
    for h in headers {
        let mut buf = Vec::new();
        assert_eq!(round_trip(&h, &mut buf), h);
        // The header's length is reported so the page data can follow it.
        buf.extend_from_slice(b"page data");
        let (back, len) = PageHeader::decode(&buf).unwrap();
        assert_eq!(back, h);
        assert_eq!(&buf[len..], b"page data");
    }
}

#[test]
fn indexes_and_bloom_filter_headers_round_trip() {
    let ci = ColumnIndex {
        null_pages: vec![true, false],
        min_values: vec![b"", b"a"],
        max_values: vec![b"", b"z"],
        boundary_order: BoundaryOrder::ASCENDING,
        null_counts: Some(vec![5, 0]),
        repetition_level_histograms: Some(vec![1, 2, 3, 4]),
        definition_level_histograms: None,
        nan_counts: Some(vec![0, 0]),
    };
    let mut buf = Vec::new();
    assert_eq!(round_trip(&ci, &mut buf), ci);
    let oi = OffsetIndex {
        page_locations: vec![PageLocation {
            offset: 4,
            compressed_page_size: 30,
            first_row_index: 0,
        }],
        unencoded_byte_array_data_bytes: Some(vec![7]),
    };
    let mut buf = Vec::new();
    assert_eq!(round_trip(&oi, &mut buf), oi);
    assert_eq!(OffsetIndex::decode(&buf).unwrap(), oi);
    // BloomFilterHeader { 1: 32, 2: { 1: {} }, 3: { 1: {} }, 4: { 1: {} } } then the bitset.
    let bytes = [
        0x15, 0x40, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00,
        0xaa,
    ];
    let (h, len) = BloomFilterHeader::decode(&bytes).unwrap();
    assert_eq!(len, bytes.len() - 1);
    assert_eq!(
        h,
        BloomFilterHeader {
            num_bytes: 32,
            algorithm: BloomFilterVariant::Defined,
            hash: BloomFilterVariant::Defined,
            compression: BloomFilterVariant::Defined,
        }
    );
    let mut buf = Vec::new();
    assert_eq!(round_trip(&h, &mut buf), h);
    assert_eq!(buf, bytes[..len]);
    let crypto = FileCryptoMetaData {
        encryption_algorithm: EncryptionAlgorithm::AesGcmV1(AesGcm::default()),
        key_metadata: Some(b"k"),
    };
    let mut buf = Vec::new();
    assert_eq!(round_trip(&crypto, &mut buf), crypto);
}

/// A truncated binary inside a struct is an error whether the struct is read or skipped
/// (skipping once read the length again from the byte after it, and stepped over too little).
#[test]
fn truncated_binary_fails_skipping_as_reading() {
    // Statistics { 1: binary of 249 bytes } with 14 bytes after the length.
    let mut bytes = vec![0x18, 0xf9, 0x01];
    bytes.extend_from_slice(&[
        0x01, 0x18, 0x01, 0x00, 0x16, 0x0c, 0x28, 0x01, 0x01, 0x18, 0x01, 0x00, 0x00, 0x00,
    ]);
    let read = Statistics::read(&mut CompactReader::new(&bytes)).unwrap_err();
    assert!(
        read.to_string()
            .contains("binary of 249 bytes at byte 3 runs past the end"),
        "{read}"
    );
    for skip in [
        Statistics::check(&mut CompactReader::new(&bytes)),
        CompactReader::new(&bytes).skip(crate::thrift::ValueType::Struct),
    ] {
        let e = skip.unwrap_err().to_string();
        assert!(
            e.contains("binary of 249 bytes at byte 3 runs past the end"),
            "{e}"
        );
    }
}

/// `SizeStatistics::check` (what decoding a column chunk runs) fails exactly where `read`
/// does: histograms of `i64`, of another element type, cut short, or fields of another type.
#[test]
fn size_statistics_check_fails_where_read_fails() {
    let cases: [(&str, &[u8], bool); 7] = [
        // 1: i64 300, 3: list<i64> [1, 2] (short-form header 0x26 = 2 × type 6).
        (
            "both fields",
            &[0x16, 0xd8, 0x04, 0x29, 0x26, 0x02, 0x04, 0x00],
            true,
        ),
        ("empty", &[0x00], true),
        // 2: list<i32> [1]: the wrong element type.
        ("i32 elements", &[0x29, 0x15, 0x02, 0x00], false),
        // 2: list of 3 i64 with 2 present.
        ("cut short", &[0x29, 0x36, 0x02, 0x04], false),
        // 2: an i32 field instead of a list: skipped by both.
        ("histogram as i32", &[0x25, 0x02, 0x00], true),
        // An empty list of any element type (fastparquet writes 0x00).
        ("empty untyped list", &[0x29, 0x00, 0x00], true),
        // 3: a varint of 11 bytes inside the histogram.
        (
            "overlong element",
            &[
                0x39, 0x16, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00, 0x00,
            ],
            false,
        ),
    ];
    for (name, bytes, ok) in cases {
        let read = SizeStatistics::read(&mut CompactReader::new(bytes));
        let mut r = CompactReader::new(bytes);
        let check = SizeStatistics::check(&mut r);
        assert_eq!(read.is_ok(), ok, "{name}: read {read:?}");
        assert_eq!(check.is_ok(), ok, "{name}: check {check:?}");
        if ok {
            assert_eq!(r.remaining(), 0, "{name}: check stops at the struct's end");
        }
    }
}
