//! Decoding edge cases: counts, ranges, layouts, byte order, compression, dictionaries.

use super::*;
use crate::read::{DictionaryTable, ReadOptions, decode_record_batch};
use crate::schema::Endianness;
use quiver_arrow::{
    Array, IntegerType, PrimitiveArray, RecordBatch, Result, StringArray, StringViewArray,
    UnionFields, UnionMode,
};

fn decode(schema: &IpcSchema, batch: &Batch) -> Result<RecordBatch> {
    let table = DictionaryTable::new(schema).unwrap();
    decode_record_batch(&batch.message(), schema, &table, &ReadOptions::new())
}

fn err(schema: &IpcSchema, batch: &Batch) -> String {
    decode(schema, batch).unwrap_err().to_string()
}

fn ints(values: &[Option<i32>]) -> Array {
    Array::from(PrimitiveArray::<i32>::from_options(values.iter().copied()))
}

#[test]
fn primitive_with_nulls() {
    let b = decode(&schema1(DataType::Int32), &int32_batch()).unwrap();
    assert_eq!(b.column(0), &ints(&[Some(1), None, Some(3)]));
    assert_eq!(b.column(0).null_count(), 1);
}

#[test]
fn buffer_out_of_range_names_the_numbers() {
    let mut batch = int32_batch();
    batch.descriptors = Some(vec![(0, 1), (8, 1024)]);
    assert_eq!(
        err(&schema1(DataType::Int32), &batch),
        "buffer 1 needs bytes [8..1032) but the body has 24"
    );
}

#[test]
fn truncated_body_and_short_buffers() {
    let (metadata, body) = int32_batch().parts();
    let e = Message::try_new(Bytes::from(metadata), Bytes::from(body[..20].to_vec())).unwrap_err();
    assert_eq!(
        e.to_string(),
        "message declares a body of 24 bytes but 20 were given"
    );
    let short = Batch::new(3)
        .node(3, 0)
        .buffer([])
        .buffer(le(&[1i32, 2], i32::to_le_bytes));
    assert_eq!(
        err(&schema1(DataType::Int32), &short),
        "column \"a\": buffer 1 (values) has 8 bytes but 3 values of i32 need 12"
    );
}

#[test]
fn counts_are_checked_before_walking() {
    let extra_node = int32_batch().node(3, 0);
    assert_eq!(
        err(&schema1(DataType::Int32), &extra_node),
        "the schema needs 1 field nodes but the message has 2"
    );
    let missing_buffer = Batch::new(3).node(3, 0).buffer([]);
    assert_eq!(
        err(&schema1(DataType::Int32), &missing_buffer),
        "the schema needs 2 buffers (2 fixed + 0 variadic) but the message has 1"
    );
    let mut bad_node = int32_batch();
    bad_node.nodes[0] = (3, 4);
    assert_eq!(
        err(&schema1(DataType::Int32), &bad_node),
        "column \"a\": field node 0 has length 3 and null count 4"
    );
}

#[test]
fn null_counts_are_validated() {
    let mut batch = int32_batch();
    batch.nodes[0] = (3, 2);
    assert_eq!(
        err(&schema1(DataType::Int32), &batch),
        "column \"a\": declared null count 2 but the validity bitmap has 1 nulls"
    );
    let mut empty_validity = int32_batch();
    empty_validity.buffers[0].clear();
    assert!(
        err(&schema1(DataType::Int32), &empty_validity)
            .contains("buffer 0 (validity) is empty but the node has 1 nulls")
    );
}

#[test]
fn strings_are_validated_unless_trusted() {
    let batch = Batch::new(2)
        .node(2, 0)
        .buffer([])
        .buffer(le(&[0i32, 1, 3], i32::to_le_bytes))
        .buffer(b"a\xff\xfe");
    let schema = schema1(DataType::Utf8);
    assert!(
        err(&schema, &batch).contains("not valid UTF-8"),
        "{}",
        err(&schema, &batch)
    );
    let ok = Batch {
        buffers: vec![vec![], le(&[0i32, 1, 3], i32::to_le_bytes), b"abc".to_vec()],
        ..batch
    };
    let table = DictionaryTable::new(&schema).unwrap();
    // SAFETY: the batch is valid (checked just below by the validating path).
    let trusted = unsafe { ReadOptions::new().with_trusted_input() };
    let b = decode_record_batch(&ok.message(), &schema, &table, &trusted).unwrap();
    assert_eq!(
        b.column(0),
        &Array::from(StringArray::from_options([Some("a"), Some("bc")]))
    );
    assert_eq!(decode(&schema, &ok).unwrap().column(0), b.column(0));
}

#[test]
fn empty_offsets_buffer_for_empty_array() {
    let batch = Batch::new(0).node(0, 0).buffer([]).buffer([]).buffer([]);
    let b = decode(&schema1(DataType::Utf8), &batch).unwrap();
    assert_eq!(b.num_rows(), 0);
}

fn union_schema() -> IpcSchema {
    let fields = UnionFields::with_default_ids(vec![Field::new("i", DataType::Int32, true)]);
    schema1(DataType::Union(fields, UnionMode::Sparse))
}

#[test]
fn v4_unions_have_a_validity_slot() {
    let v5 = Batch::new(2)
        .node(2, 0)
        .buffer([0u8, 0])
        .node(2, 0)
        .buffer([])
        .buffer(le(&[5i32, 6], i32::to_le_bytes));
    let expected = decode(&union_schema(), &v5).unwrap();
    let u = expected.column(0).as_union().unwrap();
    assert_eq!(u.children()[0], ints(&[Some(5), Some(6)]));
    let mut v4 = Batch {
        buffers: [vec![vec![]], v5.buffers.clone()].concat(),
        ..v5.clone()
    };
    v4.version = fb::MetadataVersion::V4;
    let b = decode(&union_schema(), &v4).unwrap();
    assert_eq!(b.column(0), expected.column(0));
    // The same buffers under V5 have one buffer too many.
    v4.version = fb::MetadataVersion::V5;
    assert!(err(&union_schema(), &v4).contains("needs 3 buffers"));
    // A V4 union with top-level nulls cannot be represented.
    let mut nulls = Batch {
        nodes: vec![(2, 1), (2, 0)],
        ..v4
    };
    nulls.version = fb::MetadataVersion::V4;
    assert!(err(&union_schema(), &nulls).contains("top-level nulls"));
}

#[test]
fn union_type_ids_are_validated() {
    let bad = Batch::new(2)
        .node(2, 0)
        .buffer([0u8, 3])
        .node(2, 0)
        .buffer([])
        .buffer(le(&[5i32, 6], i32::to_le_bytes));
    assert!(err(&union_schema(), &bad).contains("slot 1 has type id 3"));
}

#[test]
fn views_with_variadic_buffers() {
    let long = b"a string longer than twelve bytes";
    let views = [
        quiver_arrow::View::inline(b"hi")
            .length
            .to_le_bytes()
            .to_vec(),
        b"hi\0\0\0\0\0\0\0\0\0\0".to_vec(),
        (long.len() as u32).to_le_bytes().to_vec(),
        long[..4].to_vec(),
        0u32.to_le_bytes().to_vec(),
        0u32.to_le_bytes().to_vec(),
    ]
    .concat();
    let mut batch = Batch::new(2)
        .node(2, 0)
        .buffer([])
        .buffer(&views)
        .buffer(long);
    batch.variadic = Some(vec![1]);
    let b = decode(&schema1(DataType::Utf8View), &batch).unwrap();
    let expected =
        StringViewArray::from_options([Some("hi"), Some(std::str::from_utf8(long).unwrap())]);
    assert_eq!(b.column(0), &Array::from(expected));
    batch.variadic = None;
    assert!(
        err(&schema1(DataType::Utf8View), &batch)
            .contains("1 view fields but the message has 0 variadic")
    );
    batch.variadic = Some(vec![0]);
    assert!(
        err(&schema1(DataType::Utf8View), &batch)
            .contains("needs 2 buffers (2 fixed + 0 variadic)")
    );
}

#[test]
fn run_end_encoded_keeps_schema_fields() {
    let dt = DataType::RunEndEncoded(
        Arc::new(Field::new("ends", DataType::Int32, false)),
        Arc::new(Field::new("vals", DataType::Int32, true)),
    );
    let batch = Batch::new(5)
        .node(5, 0)
        .node(2, 0)
        .buffer([])
        .buffer(le(&[2i32, 5], i32::to_le_bytes))
        .node(2, 0)
        .buffer([])
        .buffer(le(&[7i32, 8], i32::to_le_bytes));
    let b = decode(&schema1(dt.clone()), &batch).unwrap();
    assert_eq!(b.column(0).data_type(), &dt);
    let mut bad = batch;
    bad.buffers[1] = le(&[3i32, 2], i32::to_le_bytes);
    assert!(err(&schema1(dt), &bad).contains("run ends must strictly increase"));
}

#[test]
fn big_endian_values_are_swapped() {
    let mut schema = schema1(DataType::Interval(quiver_arrow::IntervalUnit::DayTime));
    schema.endianness = Endianness::Big;
    let batch = Batch::new(1).node(1, 0).buffer([]).buffer(
        [
            le(&[3i32], i32::to_be_bytes),
            le(&[-4i32], i32::to_be_bytes),
        ]
        .concat(),
    );
    let b = decode(&schema, &batch).unwrap();
    let v = b
        .column(0)
        .as_primitive::<quiver_arrow::DaysMs>()
        .unwrap()
        .value(0);
    assert_eq!((v.days, v.milliseconds), (3, -4));
    let mut schema = schema1(DataType::Utf8);
    schema.endianness = Endianness::Big;
    let batch = Batch::new(2)
        .node(2, 0)
        .buffer([])
        .buffer(le(&[0i32, 1, 3], i32::to_be_bytes))
        .buffer(b"abc");
    let b = decode(&schema, &batch).unwrap();
    assert_eq!(
        b.column(0),
        &Array::from(StringArray::from_options([Some("a"), Some("bc")]))
    );
}

#[test]
fn compressed_bodies() {
    for codec in [Codec::Lz4Frame, Codec::Zstd] {
        let values: Vec<i32> = (0..10_000).map(|i| i % 10).collect();
        let mut batch = Batch::new(10_000)
            .node(10_000, 0)
            .buffer([])
            .buffer(le(&values, i32::to_le_bytes));
        batch.codec = Some(codec);
        let b = decode(&schema1(DataType::Int32), &batch).unwrap();
        assert_eq!(
            b.column(0),
            &Array::from(PrimitiveArray::<i32>::new(values.clone()))
        );
        let table = DictionaryTable::new(&schema1(DataType::Int32)).unwrap();
        let tight = ReadOptions::new().with_max_decompressed_bytes(1000);
        let e = decode_record_batch(&batch.message(), &schema1(DataType::Int32), &table, &tight)
            .unwrap_err();
        assert!(e.to_string().contains("more than the 1000 allowed"), "{e}");
    }
}

fn dictionary_schema() -> IpcSchema {
    let dt = DataType::dictionary(IntegerType::Int8, DataType::Utf8);
    IpcSchema::new(Arc::new(Schema::new(vec![
        Field::new("a", dt.clone(), true),
        Field::new("b", dt, true),
    ])))
}

fn utf8_dictionary(id: i64, delta: bool, values: &[&str]) -> Batch {
    let mut offsets = vec![0i32];
    for v in values {
        offsets.push(offsets.last().unwrap() + v.len() as i32);
    }
    let mut b = Batch::new(values.len() as i64)
        .node(values.len() as i64, 0)
        .buffer([])
        .buffer(le(&offsets, i32::to_le_bytes))
        .buffer(values.concat());
    b.dictionary = Some((id, delta));
    b
}

fn keys_batch(keys: &[i8]) -> Batch {
    let n = keys.len() as i64;
    let k: Vec<u8> = keys.iter().map(|&k| k as u8).collect();
    Batch::new(n)
        .node(n, 0)
        .buffer([])
        .buffer(&k)
        .node(n, 0)
        .buffer([])
        .buffer(&k)
}

#[test]
fn dictionaries_replacement_delta_and_sharing() {
    let schema = dictionary_schema();
    // Ids are assigned 0 and 1; make both fields share id 0.
    let mut shared = schema.clone();
    shared.dictionaries.insert(vec![1], 0);
    let opts = ReadOptions::new();
    let mut table = DictionaryTable::new(&shared).unwrap();
    let e = decode_record_batch(&keys_batch(&[0]).message(), &shared, &table, &opts).unwrap_err();
    assert!(
        e.to_string()
            .contains("no dictionary with id 0 has been read"),
        "{e}"
    );
    table
        .apply(&utf8_dictionary(0, false, &["x", "y"]).message(), &opts)
        .unwrap();
    table
        .apply(&utf8_dictionary(0, true, &["z"]).message(), &opts)
        .unwrap();
    let b = decode_record_batch(&keys_batch(&[2, 0]).message(), &shared, &table, &opts).unwrap();
    let d = b.column(1).as_dictionary().unwrap();
    assert_eq!(
        d.values().as_ref(),
        &Array::from(StringArray::from_options([Some("x"), Some("y"), Some("z")]))
    );
    let e =
        decode_record_batch(&keys_batch(&[3, 0]).message(), &shared, &table, &opts).unwrap_err();
    assert!(
        e.to_string()
            .contains("dictionary key 0 is 3 but the dictionary has 3 values"),
        "{e}"
    );
    // A stream may replace a dictionary; a file may not.
    table
        .apply(&utf8_dictionary(0, false, &["w"]).message(), &opts)
        .unwrap();
    assert_eq!(table.get(0).unwrap().len(), 1);
    let mut file = DictionaryTable::new_for_file(&shared).unwrap();
    file.apply(&utf8_dictionary(0, false, &["x"]).message(), &opts)
        .unwrap();
    let e = file
        .apply(&utf8_dictionary(0, false, &["y"]).message(), &opts)
        .unwrap_err();
    assert!(e.to_string().contains("replaces dictionary 0"), "{e}");
    let e = file
        .apply(&utf8_dictionary(7, false, &["y"]).message(), &opts)
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("id 7, which no field of the schema uses"),
        "{e}"
    );
    let mut fresh = DictionaryTable::new(&schema).unwrap();
    let e = fresh
        .apply(&utf8_dictionary(1, true, &["y"]).message(), &opts)
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("delta dictionary batch for id 1 before any"),
        "{e}"
    );
}

/// Layouts the gold files lack, each as (schema, valid batch).
fn other_layouts() -> Vec<(IpcSchema, Batch)> {
    let item = Arc::new(Field::new("item", DataType::Int32, true));
    let list_view = Batch::new(3)
        .node(3, 1)
        .buffer([0b101])
        .buffer(le(&[0i32, 0, 1], i32::to_le_bytes))
        .buffer(le(&[2i32, 0, 2], i32::to_le_bytes))
        .node(3, 0)
        .buffer([])
        .buffer(le(&[1i32, 2, 3], i32::to_le_bytes));
    let dense = DataType::Union(
        UnionFields::try_new(
            vec![3i8, 5],
            vec![
                Field::new("i", DataType::Int32, true),
                Field::new("s", DataType::Utf8, true),
            ],
        )
        .unwrap(),
        UnionMode::Dense,
    );
    let dense_batch = Batch::new(3)
        .node(3, 0)
        .buffer([3u8, 5, 3])
        .buffer(le(&[0i32, 0, 1], i32::to_le_bytes))
        .node(2, 0)
        .buffer([])
        .buffer(le(&[7i32, 8], i32::to_le_bytes))
        .node(1, 0)
        .buffer([])
        .buffer(le(&[0i32, 2], i32::to_le_bytes))
        .buffer(b"ok");
    let fsl = DataType::FixedSizeList(item.clone(), 2);
    let fsl_batch = Batch::new(2)
        .node(2, 0)
        .buffer([])
        .node(4, 1)
        .buffer([0b1011])
        .buffer(le(&[1i32, 2, 0, 4], i32::to_le_bytes));
    let mut views = views_batch();
    views.variadic = Some(vec![1]);
    vec![
        (schema1(DataType::ListView(item)), list_view),
        (schema1(dense), dense_batch),
        (schema1(fsl), fsl_batch),
        (schema1(DataType::Utf8View), views),
        (schema1(DataType::BinaryView), views_batch_binary()),
    ]
}

fn views_batch() -> Batch {
    let long = b"a string longer than twelve bytes";
    let mut views = 2u32.to_le_bytes().to_vec();
    views.extend(b"hi\0\0\0\0\0\0\0\0\0\0");
    views.extend((long.len() as u32).to_le_bytes());
    views.extend(&long[..4]);
    views.extend([0u8; 8]);
    Batch::new(2)
        .node(2, 0)
        .buffer([])
        .buffer(&views)
        .buffer(long)
}

fn views_batch_binary() -> Batch {
    let mut b = views_batch();
    b.variadic = Some(vec![1]);
    b
}

#[test]
fn other_layouts_decode_and_survive_mutation() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut rand = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (schema, batch) in other_layouts() {
        let b = decode(&schema, &batch)
            .unwrap_or_else(|e| panic!("{:?}: {e}", schema.schema.fields[0].data_type()));
        assert_eq!(b.column(0).data_type(), schema.schema.fields[0].data_type());
        for _ in 0..400 {
            let mut m = batch.clone();
            if !m.buffers.is_empty() && rand() % 4 != 0 {
                let k = (rand() % m.buffers.len() as u64) as usize;
                if !m.buffers[k].is_empty() {
                    let len = m.buffers[k].len();
                    m.buffers[k][(rand() % len as u64) as usize] = rand() as u8;
                }
            } else {
                let k = (rand() % m.nodes.len() as u64) as usize;
                m.nodes[k] = ((rand() % 8) as i64 - 1, (rand() % 4) as i64);
            }
            let outcome = std::panic::catch_unwind(|| {
                decode(&schema, &m).map(|b| b.validate(quiver_arrow::ValidationLevel::Full))
            });
            assert!(
                outcome.is_ok(),
                "panicked on {:?} with nodes {:?} buffers {:?}",
                schema.schema.fields[0].data_type(),
                m.nodes,
                m.buffers
            );
        }
    }
}
