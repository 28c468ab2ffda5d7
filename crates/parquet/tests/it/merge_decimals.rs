//! Merging inputs that store one decimal column in different physical types
//! (`file::merge::convert`): FIXED_LEN_BYTE_ARRAY in one file, INT32/INT64 in another (as
//! pyarrow and DuckDB differ). The merged file stores the column as its first input does, reads
//! as the concatenation of the inputs, and its statistics, column index and Bloom filters
//! describe the values in that storage (they equal those of the same data written whole).

use crate::merge::{merge_bytes, read, write};
use quiver_arrow::array::{Array, ListArray, PrimitiveArray};
use quiver_arrow::buffer::OffsetBuffer;
use quiver_arrow::compute::first_difference;
use quiver_arrow::datatype::{DataType, Field, Schema, SchemaRef};
use quiver_arrow::parallel::ThreadPool;
use quiver_arrow::{I128, RecordBatch};
use quiver_parquet::arrow::column_writer::{BloomOptions, PageVersion};
use quiver_parquet::arrow::write_schema::DecimalLayout;
use quiver_parquet::bloom::{Sbbf, hash_bytes};
use quiver_parquet::file::merge::{MergeOptions, RowGroupTarget};
use quiver_parquet::file::writer::{ColumnOverride, WriteOptions};
use quiver_parquet::format::{ColumnIndex, Encoding, Type};
use quiver_parquet::metadata::parse_file;
use std::sync::Arc;

fn dec(precision: u8, scale: i8) -> DataType {
    DataType::Decimal128 { precision, scale }
}

fn schema() -> SchemaRef {
    let item = Arc::new(Field::new("element", dec(15, 3), true));
    Arc::new(Schema::new(vec![
        Field::new("d12", dec(12, 2), true),
        Field::new("d7", dec(7, 2), false),
        Field::new("l", DataType::List(item), true),
    ]))
}

fn decimals(t: DataType, values: impl Iterator<Item = Option<i128>>) -> Array {
    Array::I128(
        PrimitiveArray::from_options(values.map(|v| v.map(I128::from_i128)))
            .with_data_type(t)
            .unwrap(),
    )
}

/// Rows `start..start + n`: nulls here and there, negative and positive values, few distinct
/// in `d7` (dictionary pages), a list of 0 to 3 decimals per row.
fn batch(start: i128, n: i128) -> RecordBatch {
    let rows = start..start + n;
    let d12 = decimals(
        dec(12, 2),
        rows.clone()
            .map(|i| (i % 7 != 3).then_some((i * 7919 - 400_000) * 1_000_003)),
    );
    let d7 = decimals(
        dec(7, 2),
        rows.clone().map(|i| Some(i % 40 * 2501 - 49_000)),
    );
    let mut offsets = vec![0i32];
    let mut items = Vec::new();
    for i in rows {
        for k in 0..(i % 4) {
            items.push((k != 1 || i % 3 != 0).then_some(i * 1_000_000_007 - k * 999));
        }
        offsets.push(items.len() as i32);
    }
    let item = Arc::new(Field::new("element", dec(15, 3), true));
    let l = ListArray::try_new(
        item,
        OffsetBuffer::try_new(offsets.into()).unwrap(),
        decimals(dec(15, 3), items.into_iter()),
        None,
    )
    .unwrap();
    RecordBatch::try_new(schema(), vec![d12, d7, l.into()]).unwrap()
}

fn opts(layout: DecimalLayout) -> WriteOptions {
    let mut o = WriteOptions::default();
    o.schema.decimals = layout;
    o.column.bloom = Some(BloomOptions {
        ndv: 2000,
        fpp: 0.01,
    });
    o.column.page_rows = 300;
    o.row_group_rows = 700;
    o
}

/// The physical type of each leaf of a file.
fn physical(bytes: &[u8]) -> Vec<Type> {
    let m = parse_file(bytes).unwrap();
    m.schema_descr()
        .columns()
        .iter()
        .map(|c| c.physical)
        .collect()
}

/// Per row group, per leaf: statistics bounds and null count, the column index's bounds.
type Described = Vec<(Option<Vec<u8>>, Option<Vec<u8>>, Option<i64>, Vec<Vec<u8>>)>;

fn describe(bytes: &[u8]) -> Described {
    let m = parse_file(bytes).unwrap();
    let mut out = Vec::new();
    for g in 0..m.num_row_groups() {
        for c in 0..m.num_columns() {
            let chunk = m.column_chunk(g, c).unwrap().into_owned();
            let s = chunk
                .meta_data
                .as_ref()
                .unwrap()
                .statistics
                .as_ref()
                .unwrap()
                .get();
            let at = chunk.column_index_offset.unwrap() as usize;
            let len = chunk.column_index_length.unwrap() as usize;
            let ci = ColumnIndex::decode(&bytes[at..at + len]).unwrap();
            let bounds = ci
                .min_values
                .iter()
                .chain(&ci.max_values)
                .map(|v| v.to_vec())
                .collect();
            out.push((
                s.min_value.map(<[u8]>::to_vec),
                s.max_value.map(<[u8]>::to_vec),
                s.null_count,
                bounds,
            ));
        }
    }
    out
}

fn bloom(bytes: &[u8], g: usize, c: usize) -> Sbbf {
    let m = parse_file(bytes).unwrap();
    let meta = m
        .column_chunk(g, c)
        .unwrap()
        .into_owned()
        .meta_data
        .unwrap();
    let at = meta.bloom_filter_offset.expect("a Bloom filter") as usize;
    Sbbf::read(&bytes[at..]).unwrap().0
}

fn assert_reads_as(merged: &[u8], expected: &[RecordBatch], what: &str) {
    let (s, got) = read(merged).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(s.fields, schema().fields, "{what}");
    for c in 0..3 {
        let want: Vec<&Array> = expected.iter().map(|b| b.column(c)).collect();
        let have: Vec<&Array> = got.iter().map(|b| b.column(c)).collect();
        let (want, have) = (
            quiver_arrow::compute::concat(&want).unwrap(),
            quiver_arrow::compute::concat(&have).unwrap(),
        );
        if let Some(d) = first_difference(&want, &have) {
            panic!("{what}: column {c}: {d}");
        }
    }
}

#[test]
fn decimals_stored_as_integers_and_as_fixed_bytes_merge_converted() {
    let parts = [batch(0, 1000), batch(1000, 900), batch(1900, 1100)];
    let fixed = opts(DecimalLayout::FixedLenByteArray);
    let mut integer = opts(DecimalLayout::Integer);
    // Every encoding integers take: DELTA_BINARY_PACKED and BYTE_STREAM_SPLIT pages, no
    // dictionary, v2 pages.
    integer.column_overrides = vec![
        ("d12".into(), ColumnOverride::Dictionary(false)),
        (
            "d12".into(),
            ColumnOverride::Encoding(Encoding::DELTA_BINARY_PACKED),
        ),
        ("l".into(), ColumnOverride::Dictionary(false)),
        (
            "l".into(),
            ColumnOverride::Encoding(Encoding::BYTE_STREAM_SPLIT),
        ),
    ];
    integer.column.page_version = PageVersion::V2;
    let dictionary_integers = opts(DecimalLayout::Integer);
    let files = [
        write(&schema(), std::slice::from_ref(&parts[0]), &fixed).unwrap(),
        write(&schema(), std::slice::from_ref(&parts[1]), &integer).unwrap(),
        write(
            &schema(),
            std::slice::from_ref(&parts[2]),
            &dictionary_integers,
        )
        .unwrap(),
    ];
    let fixed_types = vec![Type::FIXED_LEN_BYTE_ARRAY; 3];
    assert_eq!(physical(&files[0]), fixed_types);
    assert_eq!(physical(&files[1]), [Type::INT64, Type::INT32, Type::INT64]);
    let refs: Vec<&[u8]> = files.iter().map(Vec::as_slice).collect();
    for coalesce in [None, Some(RowGroupTarget::default())] {
        let what = if coalesce.is_some() {
            "coalescing"
        } else {
            "verbatim"
        };
        let o = MergeOptions {
            coalesce,
            threads: ThreadPool::sequential(),
            ..MergeOptions::default()
        };
        let (merged, report) = merge_bytes(&refs, &o).unwrap();
        assert_eq!(physical(&merged), fixed_types, "{what}");
        assert!(report.pages.converted > 0, "{what}: {:?}", report.pages);
        assert_reads_as(&merged, &parts, what);
        // The metadata describes the values as stored now: as if the data had been written
        // by the first input's settings, in the same row groups and pages.
        let same_cuts: Vec<u8> = {
            // Each input written again as the first was, then merged the same way.
            let mut out = Vec::new();
            for p in &parts {
                out.push(write(&schema(), std::slice::from_ref(p), &fixed).unwrap());
            }
            let r: Vec<&[u8]> = out.iter().map(Vec::as_slice).collect();
            merge_bytes(&r, &o).unwrap().0
        };
        assert_eq!(
            describe(&merged),
            describe(&same_cuts),
            "{what}: statistics"
        );
        // Every value's stored bytes are in its row group's Bloom filter.
        let m = parse_file(&merged).unwrap();
        let (_, batches) = read(&merged).unwrap();
        let mut row = 0usize;
        let all: Vec<Option<i128>> = batches
            .iter()
            .flat_map(|b| match b.column(0) {
                Array::I128(a) => (0..a.len())
                    .map(|i| a.is_valid(i).then(|| a.value(i).to_i128()))
                    .collect::<Vec<_>>(),
                other => panic!("{other:?}"),
            })
            .collect();
        for g in 0..m.num_row_groups() {
            let rows = m.row_group(g).unwrap().num_rows as usize;
            let b = bloom(&merged, g, 0);
            for v in all[row..row + rows].iter().flatten() {
                // decimal(12, 2) as FIXED_LEN_BYTE_ARRAY(6).
                let bytes = &v.to_be_bytes()[10..];
                assert!(b.check(hash_bytes(bytes)), "{what}: row group {g}: {v}");
            }
            row += rows;
        }
    }
    // Merged the other way round, the integers win.
    let (merged, _) = merge_bytes(&[&files[1], &files[0]], &MergeOptions::default()).unwrap();
    assert_eq!(physical(&merged), [Type::INT64, Type::INT32, Type::INT64]);
    assert_reads_as(
        &merged,
        &[parts[1].clone(), parts[0].clone()],
        "integers first",
    );
}

#[test]
fn decimals_of_different_precision_or_scale_still_do_not_merge() {
    let one = |t: DataType| {
        let s = Arc::new(Schema::new(vec![Field::new("d", t.clone(), true)]));
        let b = RecordBatch::try_new(s.clone(), vec![decimals(t, (0..10).map(Some))]).unwrap();
        write(&s, &[b], &opts(DecimalLayout::Integer)).unwrap()
    };
    let a = one(dec(12, 2));
    let mut fixed = opts(DecimalLayout::FixedLenByteArray);
    fixed.column.bloom = None;
    for other in [dec(12, 3), dec(11, 2)] {
        let s = Arc::new(Schema::new(vec![Field::new("d", other.clone(), true)]));
        let b = RecordBatch::try_new(s.clone(), vec![decimals(other, (0..10).map(Some))]).unwrap();
        let f = write(&s, &[b], &fixed).unwrap();
        let err = merge_bytes(&[&a, &f], &MergeOptions::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("input 1") && err.contains("\"d\""), "{err}");
    }
}

/// Mutants of inputs whose decimals are converted and whose Bloom filters are rebuilt merge
/// or fail with an error naming the input; what merges reads (or fails cleanly); no panic.
#[test]
fn mutants_of_converted_inputs_merge_or_fail_cleanly() {
    use crate::mutants::{Rng, mutate};
    let fixed = write(
        &schema(),
        &[batch(0, 500)],
        &opts(DecimalLayout::FixedLenByteArray),
    )
    .unwrap();
    let mut plain = opts(DecimalLayout::Integer);
    plain.column_overrides = vec![
        ("d12".into(), ColumnOverride::Dictionary(false)),
        (
            "d12".into(),
            ColumnOverride::Encoding(Encoding::DELTA_BINARY_PACKED),
        ),
    ];
    plain.column.bloom = None;
    let inputs = [
        write(&schema(), &[batch(500, 400)], &opts(DecimalLayout::Integer)).unwrap(),
        write(&schema(), &[batch(900, 400)], &plain).unwrap(),
    ];
    let mut rng = Rng(0x5EED_DEC1_0A15);
    let (mut merged, mut refused) = (0, 0);
    for (i, input) in inputs.iter().enumerate() {
        for k in 0..150 {
            let m = mutate(&mut rng, input);
            let o = MergeOptions {
                coalesce: (k % 2 == 0).then(RowGroupTarget::default),
                threads: ThreadPool::sequential(),
                ..MergeOptions::default()
            };
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                merge_bytes(&[&fixed, &m], &o).map(|(out, _)| {
                    let _ = read(&out);
                })
            }));
            match r {
                Ok(Ok(())) => merged += 1,
                Ok(Err(e)) => {
                    assert!(
                        e.to_string().contains("input 1"),
                        "input {i}, mutant {k}: {e}"
                    );
                    refused += 1;
                }
                Err(_) => panic!("input {i}: mutant {k} panicked"),
            }
        }
    }
    assert!(
        merged > 0 && refused > 0,
        "{merged} merged, {refused} refused"
    );
}
