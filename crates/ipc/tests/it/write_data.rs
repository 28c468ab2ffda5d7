//! Test data for the write tests: a column of every type (with the type string pyarrow prints
//! for it), dictionary columns that grow or change between batches, and the canonical JSON of
//! values that `tests/py/read_ipc.py` prints for what pyarrow reads.

use bytes::Bytes;
use quiver_arrow::buffer::OffsetBuffer;
use quiver_arrow::builder::make_builder;
use quiver_arrow::{
    Array, BinaryArray, BinaryViewArray, Bitmap, BooleanArray, Buffer, DataType, DaysMs,
    DictionaryArray, Field, FieldRef, FixedSizeBinaryArray, FixedSizeListArray, I128, I256,
    IntervalUnit, LargeBinaryArray, LargeListViewArray, LargeStringArray, ListArray, ListViewArray,
    MapArray, Metadata, MonthDayNano, NullArray, PrimitiveArray, PrimitiveType, RecordBatch,
    RunEndArray, Schema, StringArray, StringViewArray, StructArray, TimeUnit, UnionArray,
    UnionFields, UnionMode,
};
use std::sync::Arc;

/// Rows of every column of [`all_types`].
pub const ROWS: usize = 5;

/// A column: its field, its values, and the type string pyarrow prints for it.
pub struct Column {
    pub field: Field,
    pub array: Array,
    pub pyarrow: &'static str,
}

fn col(name: &str, array: Array, pyarrow: &'static str) -> Column {
    let field = Field::new(name, array.data_type().clone(), true);
    Column {
        field,
        array,
        pyarrow,
    }
}

/// A primitive array of logical type `dt`.
pub fn prim<T: PrimitiveType>(dt: DataType, v: impl IntoIterator<Item = Option<T>>) -> Array {
    Array::from(
        PrimitiveArray::<T>::from_options(v)
            .with_data_type(dt)
            .unwrap(),
    )
}

fn utf8(v: &[Option<&str>]) -> Array {
    Array::from(StringArray::from_options(v.iter().copied()))
}

fn field(name: &str, dt: DataType, nullable: bool) -> FieldRef {
    Arc::new(Field::new(name, dt, nullable))
}

fn validity(bits: &[bool]) -> Option<Bitmap> {
    Some(bits.iter().copied().collect())
}

/// A batch of `columns` (schema metadata `metadata`).
pub fn batch_of(columns: &[Column], metadata: Metadata) -> RecordBatch {
    let fields: Vec<Field> = columns.iter().map(|c| c.field.clone()).collect();
    let schema = Arc::new(Schema::new(fields).with_metadata(metadata));
    RecordBatch::try_new(schema, columns.iter().map(|c| c.array.clone()).collect()).unwrap()
}

/// One column of every type the writer supports, 5 rows each, with nulls and edge values.
pub fn all_types() -> Vec<Column> {
    let mut c = primitives();
    c.extend(temporal());
    c.extend(binaries());
    c.extend(lists());
    c.extend(nested());
    c.extend(encoded());
    c
}

/// A primitive column whose slot `null` is null.
fn pn<T: PrimitiveType>(
    name: &str,
    dt: DataType,
    values: [T; ROWS],
    null: usize,
    pyarrow: &'static str,
) -> Column {
    let values = values.into_iter().enumerate();
    col(
        name,
        prim(dt, values.map(|(i, v)| (i != null).then_some(v))),
        pyarrow,
    )
}

#[rustfmt::skip] // a table: one column per line
fn primitives() -> Vec<Column> {
    use DataType as D;
    let bools = [Some(true), None, Some(false), Some(true), Some(false)];
    let d32 = D::Decimal32 { precision: 9, scale: 2 };
    let d64 = D::Decimal64 { precision: 18, scale: 3 };
    let d128 = D::Decimal128 { precision: 38, scale: 10 };
    let d256 = D::Decimal256 { precision: 76, scale: 5 };
    let i128s = [-(10i128.pow(37)), 0, 1, 0, 123_456_789_012_345_678].map(I128::from_i128);
    let i256s = [i128::MIN, i128::MAX, 0, -5, 0].map(I256::from_i128);
    vec![
        col("bool", Array::from(BooleanArray::from_options(bools)), "bool"),
        pn("i8", D::Int8, [i8::MIN, 0, 0, i8::MAX, -1], 1, "int8"),
        pn("i16", D::Int16, [i16::MIN, 7, 0, i16::MAX, -1], 2, "int16"),
        pn("i32", D::Int32, [i32::MIN, 7, 0, 0, i32::MAX], 3, "int32"),
        pn("i64", D::Int64, [i64::MIN, 7, 0, i64::MAX, 0], 4, "int64"),
        pn("u8", D::UInt8, [0, u8::MAX, 0, 1, 2], 0, "uint8"),
        pn("u16", D::UInt16, [u16::MAX, 0, 0, 1, 2], 1, "uint16"),
        pn("u32", D::UInt32, [u32::MAX, 3, 0, 1, 2], 2, "uint32"),
        pn("u64", D::UInt64, [u64::MAX, 3, 9, 0, 2], 3, "uint64"),
        col("f16", f16_array(), "halffloat"),
        pn("f32", D::Float32, [1.5, f32::NAN, -0.0, f32::INFINITY, 0.0], 4, "float"),
        pn("f64", D::Float64, [0.0, -2.25, f64::NAN, f64::MIN_POSITIVE, 0.0], 0, "double"),
        pn("dec32", d32, [12345i32, -1, 0, 999_999_999, 0], 2, "decimal32(9, 2)"),
        pn("dec64", d64, [-12345i64, 0, 1, 0, 7], 1, "decimal64(18, 3)"),
        pn("dec128", d128, i128s, 1, "decimal128(38, 10)"),
        pn("dec256", d256, i256s, 2, "decimal256(76, 5)"),
    ]
}

/// A Float16 array from bit patterns (1.0, NaN, null, -0.0, the smallest subnormal), built
/// without naming the `f16` type.
fn f16_array() -> Array {
    let Array::F16(template) = make_builder(&DataType::Float16, 0).unwrap().finish() else {
        unreachable!("a Float16 builder builds a Float16 array")
    };
    let bits: Vec<u8> = [0x3C00u16, 0x7E00, 0xFC00, 0x8000, 0x0001]
        .iter()
        .flat_map(|b| b.to_le_bytes())
        .collect();
    let values = Buffer::from_bytes(Bytes::from(bits));
    let v = validity(&[true, true, false, true, true]);
    Array::from(same_native(&template, values, v))
}

fn same_native<T: PrimitiveType>(
    template: &PrimitiveArray<T>,
    values: Buffer<T>,
    validity: Option<Bitmap>,
) -> PrimitiveArray<T> {
    PrimitiveArray::try_new(template.data_type().clone(), values, validity).unwrap()
}

#[rustfmt::skip] // a table: one column per line
fn temporal() -> Vec<Column> {
    use DataType as D;
    use IntervalUnit as IU;
    use TimeUnit::*;
    let i32s = [0i32, -1, 0, 19_000, i32::MAX];
    let i64s = [0i64, 0, -1, 1_700_000_000_123, i64::MAX];
    let days = [0i64, 0, 86_400_000, -86_400_000, 19_675 * 86_400_000];
    let tz = |s: &str| Some(Arc::<str>::from(s));
    let dt = |days, milliseconds| DaysMs { days, milliseconds };
    let dts = [dt(1, -2), dt(0, 0), dt(0, 0), dt(i32::MAX, i32::MIN), dt(-1, 1)];
    let mdn = |months, days, nanoseconds| MonthDayNano { months, days, nanoseconds };
    let mdns = [mdn(1, -2, 3), mdn(0, 0, 0), mdn(0, 0, 0), mdn(-1, 0, i64::MIN), mdn(12, 31, 1)];
    let (ts_s, ts_ms) = (D::Timestamp(Second, None), D::Timestamp(Millisecond, tz("UTC")));
    let ts_us = D::Timestamp(Microsecond, tz("+05:30"));
    let ts_ns = D::Timestamp(Nanosecond, tz("Europe/Paris"));
    vec![
        pn("date32", D::Date32, i32s, 2, "date32[day]"),
        pn("date64", D::Date64, days, 1, "date64[ms]"),
        pn("time32s", D::Time32(Second), [0i32, 86_399, 0, 1, 2], 2, "time32[s]"),
        pn("time32ms", D::Time32(Millisecond), [0i32, 86_399_999, 0, 1, 2], 2, "time32[ms]"),
        pn("time64us", D::Time64(Microsecond), [0i64, 86_399_999_999, 0, 1, 2], 2, "time64[us]"),
        pn("time64ns", D::Time64(Nanosecond), [0i64, 86_399_999_999_999, 0, 1, 2], 2, "time64[ns]"),
        pn("ts_s", ts_s, i64s, 1, "timestamp[s]"),
        pn("ts_ms_utc", ts_ms, i64s, 1, "timestamp[ms, tz=UTC]"),
        pn("ts_us_offset", ts_us, i64s, 1, "timestamp[us, tz=+05:30]"),
        pn("ts_ns_paris", ts_ns, i64s, 1, "timestamp[ns, tz=Europe/Paris]"),
        pn("dur_s", D::Duration(Second), i64s, 1, "duration[s]"),
        pn("dur_ms", D::Duration(Millisecond), i64s, 1, "duration[ms]"),
        pn("dur_us", D::Duration(Microsecond), i64s, 1, "duration[us]"),
        pn("dur_ns", D::Duration(Nanosecond), i64s, 1, "duration[ns]"),
        pn("iv_ym", D::Interval(IU::YearMonth), i32s, 2, "month_interval"),
        pn("iv_dt", D::Interval(IU::DayTime), dts, 1, "day_time_interval"),
        pn("iv_mdn", D::Interval(IU::MonthDayNano), mdns, 1, "month_day_nano_interval"),
    ]
}

/// Strings, some longer than 12 bytes (view data buffers) and some not ASCII.
pub const STRINGS: [Option<&str>; ROWS] = [
    Some("joe"),
    None,
    Some("a string longer than twelve bytes"),
    Some("héllo wörld, über-long as well"),
    Some("😀 ∑ 日本"),
];

fn binaries() -> Vec<Column> {
    let bytes: Vec<Option<&[u8]>> = STRINGS.iter().map(|s| s.map(str::as_bytes)).collect();
    let fixed = FixedSizeBinaryArray::try_new(
        3,
        ROWS,
        Buffer::from(b"abcdefghijklmno".to_vec()),
        validity(&[true, false, true, true, true]),
    )
    .unwrap();
    let uuid =
        FixedSizeBinaryArray::try_new(16, ROWS, Buffer::from((0..80u8).collect::<Vec<_>>()), None)
            .unwrap();
    let mut ext = col("ext_uuid", Array::from(uuid), "fixed_size_binary[16]");
    ext.field = ext.field.with_extension("quiver.test_uuid", "{\"v\":1}");
    vec![
        col(
            "binary",
            Array::from(BinaryArray::from_options(bytes.iter().copied())),
            "binary",
        ),
        col(
            "large_binary",
            Array::from(LargeBinaryArray::from_options(bytes.iter().copied())),
            "large_binary",
        ),
        col("utf8", utf8(&STRINGS), "string"),
        col(
            "large_utf8",
            Array::from(LargeStringArray::from_options(STRINGS)),
            "large_string",
        ),
        col(
            "binary_view",
            Array::from(BinaryViewArray::from_options(bytes.iter().copied())),
            "binary_view",
        ),
        col(
            "utf8_view",
            Array::from(StringViewArray::from_options(STRINGS)),
            "string_view",
        ),
        col("fixed3", Array::from(fixed), "fixed_size_binary[3]"),
        ext,
    ]
}

fn lists() -> Vec<Column> {
    use DataType as D;
    let item = |dt: DataType| field("item", dt, true);
    let ints = prim(
        D::Int32,
        [Some(1), None, Some(3), Some(4), Some(5), Some(6), Some(7)],
    );
    let offsets = OffsetBuffer::try_new(vec![0, 2, 2, 2, 5, 7].into()).unwrap();
    let list = ListArray::try_new(
        item(D::Int32),
        offsets,
        ints,
        validity(&[true, false, true, true, true]),
    )
    .unwrap();
    let strings = Array::from(LargeStringArray::from_options(STRINGS));
    let offsets = OffsetBuffer::try_new(vec![0i64, 1, 3, 3, 5, 5].into()).unwrap();
    let large =
        quiver_arrow::LargeListArray::try_new(item(D::LargeUtf8), offsets, strings, None).unwrap();
    let i16s = prim(
        D::Int16,
        [Some(10i16), Some(11), None, Some(13), Some(14), Some(15)],
    );
    let v = validity(&[true, true, false, true, true]);
    let (offsets, sizes) = (vec![4, 0, 0, 1, 0], vec![2, 3, 0, 4, 0]);
    let view = ListViewArray::try_new(
        item(D::Int16),
        offsets.into(),
        sizes.into(),
        i16s.clone(),
        v.clone(),
    )
    .unwrap();
    let lv = |o: Vec<i64>, s: Vec<i64>| {
        LargeListViewArray::try_new(item(D::Int16), o.into(), s.into(), i16s.clone(), v.clone())
            .unwrap()
    };
    let floats = prim(
        D::Float32,
        (0..15).map(|i| (i % 4 != 1).then_some(i as f32)),
    );
    let fixed = FixedSizeListArray::try_new(
        item(D::Float32),
        3,
        ROWS,
        floats,
        validity(&[true, true, false, true, true]),
    )
    .unwrap();
    vec![
        col("list", Array::from(list), "list<item: int32>"),
        col(
            "large_list",
            Array::from(large),
            "large_list<item: large_string>",
        ),
        col("list_view", Array::from(view), "list_view<item: int16>"),
        col(
            "large_list_view",
            Array::from(lv(vec![3, 0, 0, 1, 5], vec![3, 3, 0, 2, 1])),
            "large_list_view<item: int16>",
        ),
        col(
            "fixed_list",
            Array::from(fixed),
            "fixed_size_list<item: float>[3]",
        ),
    ]
}

/// A struct `{a: int32 not null, b: utf8}` of `ROWS` rows with a null row.
pub fn struct_array() -> StructArray {
    let a = prim(DataType::Int32, (0..ROWS as i32).map(Some));
    let fields = vec![
        field("a", DataType::Int32, false),
        field("b", DataType::Utf8, true),
    ];
    StructArray::try_new(
        fields.into(),
        ROWS,
        vec![a, utf8(&STRINGS)],
        validity(&[true, true, true, false, true]),
    )
    .unwrap()
}

fn union(mode: UnionMode) -> UnionArray {
    let fields = UnionFields::try_new(
        vec![5i8, 7],
        vec![
            field("i", DataType::Int32, true),
            field("s", DataType::Utf8, true),
        ],
    )
    .unwrap();
    let ids: Buffer<i8> = vec![5, 7, 5, 7, 7].into();
    match mode {
        UnionMode::Sparse => {
            let i = prim(
                DataType::Int32,
                [Some(1), Some(99), None, Some(99), Some(99)],
            );
            let s = utf8(&[
                Some("x"),
                Some("yy"),
                Some("z"),
                None,
                Some("a string longer than twelve"),
            ]);
            UnionArray::try_new(fields, mode, ids, None, vec![i, s]).unwrap()
        }
        UnionMode::Dense => {
            let i = prim(DataType::Int32, [Some(1), None, Some(42)]);
            let s = utf8(&[Some("unused"), Some("yy"), None, Some("last")]);
            let offsets: Buffer<i32> = vec![0, 1, 1, 2, 3].into();
            UnionArray::try_new(fields, mode, ids, Some(offsets), vec![i, s]).unwrap()
        }
    }
}

fn nested() -> Vec<Column> {
    let keys = utf8(&[
        Some("k1"),
        Some("k2"),
        Some("k3"),
        Some("k4"),
        Some("k5"),
        Some("k6"),
    ]);
    let values = prim(
        DataType::Int64,
        [Some(1i64), None, Some(3), Some(4), Some(5), Some(6)],
    );
    let entry_fields = vec![
        field("key", DataType::Utf8, false),
        field("value", DataType::Int64, true),
    ];
    let entries =
        StructArray::try_new(entry_fields.clone().into(), 6, vec![keys, values], None).unwrap();
    let entries_field = field("entries", DataType::Struct(entry_fields.into()), false);
    let offsets = OffsetBuffer::try_new(vec![0, 2, 2, 3, 6, 6].into()).unwrap();
    let map = MapArray::try_new(
        entries_field,
        false,
        offsets,
        entries,
        validity(&[true, false, true, true, true]),
    )
    .unwrap();
    vec![
        col(
            "struct",
            Array::from(struct_array()),
            "struct<a: int32 not null, b: string>",
        ),
        col("map", Array::from(map), "map<string, int64>"),
        col(
            "sparse_union",
            Array::from(union(UnionMode::Sparse)),
            "sparse_union<i: int32=5, s: string=7>",
        ),
        col(
            "dense_union",
            Array::from(union(UnionMode::Dense)),
            "dense_union<i: int32=5, s: string=7>",
        ),
        col("null", Array::from(NullArray::new(ROWS)), "null"),
    ]
}

/// A dictionary of `values` with `keys`.
pub fn dict(keys: Array, values: Array, ordered: bool) -> Array {
    Array::from(DictionaryArray::try_new(keys, values, ordered).unwrap())
}

fn encoded() -> Vec<Column> {
    use DataType as D;
    let words = utf8(&[
        Some("apple"),
        Some("banana"),
        None,
        Some("a string longer than twelve"),
    ]);
    let d32 = dict(
        prim(D::Int32, [Some(0), Some(3), None, Some(2), Some(0)]),
        words.clone(),
        false,
    );
    let d8 = dict(
        prim(D::Int8, [Some(1i8), Some(1), Some(0), None, Some(3)]),
        words.clone(),
        true,
    );
    let run_ends = prim(D::Int32, [Some(2), Some(3), Some(5)]);
    let ree = RunEndArray::try_new(run_ends, utf8(&[Some("run"), None, Some("last run")])).unwrap();
    let run_ends = prim(D::Int16, [Some(1i16), Some(4), Some(5)]);
    let ree16 =
        RunEndArray::try_new(run_ends, prim(D::Float64, [Some(0.5), Some(-1.0), None])).unwrap();
    let inner = dict(
        prim(
            D::Int32,
            [Some(1), Some(0), Some(1), None, Some(3), Some(2)],
        ),
        words.clone(),
        false,
    );
    let offsets = OffsetBuffer::try_new(vec![0, 2, 2, 3, 5, 6].into()).unwrap();
    let list = ListArray::try_new(
        field("item", inner.data_type().clone(), true),
        offsets,
        inner,
        None,
    )
    .unwrap();
    vec![
        col(
            "dict32",
            d32,
            "dictionary<values=string, indices=int32, ordered=0>",
        ),
        col(
            "dict8_ordered",
            d8,
            "dictionary<values=string, indices=int8, ordered=1>",
        ),
        col(
            "ree32",
            Array::from(ree),
            "run_end_encoded<run_ends: int32, values: string>",
        ),
        col(
            "ree16",
            Array::from(ree16),
            "run_end_encoded<run_ends: int16, values: double>",
        ),
        col(
            "list_of_dict",
            Array::from(list),
            "list<item: dictionary<values=string, indices=int32, ordered=0>>",
        ),
        col(
            "nested_dict",
            nested_dictionary(&["apple", "banana", "cherry"]),
            NESTED_DICT_TYPE,
        ),
    ]
}

/// The pyarrow type of [`nested_dictionary`].
pub const NESTED_DICT_TYPE: &str = concat!(
    "dictionary<values=list<item: dictionary<values=string, indices=int8, ordered=0>>, ",
    "indices=int16, ordered=0>"
);

/// A dictionary (Int16 keys) whose values are lists of a dictionary (Int8 keys) of `words`
/// (at least 3; only the first 3 are used): 5 rows.
pub fn nested_dictionary(words: &[&str]) -> Array {
    use DataType as D;
    let words = Array::from(StringArray::from_options(words.iter().map(|w| Some(*w))));
    let inner = dict(
        prim(D::Int8, [Some(0i8), Some(2), Some(1), None]),
        words,
        false,
    );
    let offsets = OffsetBuffer::try_new(vec![0, 2, 2, 4].into()).unwrap();
    let lists = ListArray::try_new(
        field("item", inner.data_type().clone(), true),
        offsets,
        inner,
        validity(&[true, false, true]),
    )
    .unwrap();
    dict(
        prim(D::Int16, [Some(2i16), Some(0), None, Some(1), Some(2)]),
        Array::from(lists),
        false,
    )
}

/// A string array of `w`.
pub fn words(w: &[&str]) -> Array {
    Array::from(StringArray::from_options(w.iter().map(|s| Some(*s))))
}

/// Batches of a dictionary column `d` and a nested dictionary column whose dictionaries grow
/// (deltas), then with `replace` change (replacements).
pub fn dictionary_batches(replace: bool) -> (Arc<Schema>, Vec<(RecordBatch, Metadata)>) {
    let keys = |k: [i32; ROWS]| prim(DataType::Int32, k.map(Some));
    let dicts = [
        (
            words(&["a", "b"]),
            nested_dictionary(&["apple", "banana", "cherry"]),
        ),
        (
            words(&["a", "b", "c", "d"]),
            nested_dictionary(&["apple", "banana", "cherry", "date"]),
        ),
        (
            words(&["z", "a"]),
            nested_dictionary(&["xylophone", "yak", "zebra"]),
        ),
    ];
    let n = if replace { 3 } else { 2 };
    let ks = [[0, 1, 1, 0, 1], [3, 2, 0, 1, 3], [0, 1, 0, 1, 0]];
    let columns: Vec<Vec<Array>> = (0..n)
        .map(|i| {
            vec![
                dict(keys(ks[i]), dicts[i].0.clone(), false),
                dicts[i].1.clone(),
            ]
        })
        .collect();
    let fields = vec![
        Field::new("d", columns[0][0].data_type().clone(), true),
        Field::new("nested", columns[0][1].data_type().clone(), true),
    ];
    let schema = Arc::new(Schema::new(fields));
    let batches = columns
        .into_iter()
        .map(|c| {
            (
                RecordBatch::try_new(schema.clone(), c).unwrap(),
                Metadata::new(),
            )
        })
        .collect();
    (schema, batches)
}
