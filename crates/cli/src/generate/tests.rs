//! Tests of the generated data sets.

use super::*;
use quiver_arrow::ValidationLevel;

fn all(dataset: Dataset, rows: u64, batch_size: usize, seed: u64) -> Vec<RecordBatch> {
    batches(dataset, rows, batch_size, seed)
        .collect::<Result<Vec<_>>>()
        .unwrap()
}

/// One batch of `rows` rows from row 0.
fn one(dataset: Dataset, rows: usize) -> RecordBatch {
    generate_batch(dataset, 42, 0, rows, 0).unwrap()
}

/// Calls `f` with every buffer of an array (validity, offsets, values), children included.
fn visit(a: &Array, f: &mut dyn FnMut(&[u8])) {
    if let Some(v) = a.validity() {
        f(v.bytes());
    }
    match a {
        Array::I32(p) => f(p.values().bytes()),
        Array::I64(p) => f(p.values().bytes()),
        Array::F64(p) => f(p.values().bytes()),
        Array::I128(p) => f(p.values().bytes()),
        Array::Utf8(s) => {
            f(s.offsets().buffer().bytes());
            f(s.values().bytes());
        }
        Array::List(l) => {
            f(l.offsets().buffer().bytes());
            visit(l.values(), f);
        }
        Array::Struct(s) => s.columns().iter().for_each(|c| visit(c, f)),
        Array::Map(m) => {
            f(m.offsets().buffer().bytes());
            visit(&Array::from(m.entries().clone()), f);
        }
        other => panic!("unexpected layout {}", other.data_type()),
    }
}

fn batch_buffers(b: &RecordBatch) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for c in b.columns() {
        visit(c, &mut |bytes| out.push(bytes.to_vec()));
    }
    out
}

/// In-memory size: the sum of the buffer sizes.
fn batch_bytes(b: &RecordBatch) -> usize {
    let mut n = 0;
    for c in b.columns() {
        visit(c, &mut |bytes| n += bytes.len());
    }
    n
}

fn strings<'a>(b: &'a RecordBatch, name: &str) -> &'a StringArray {
    match b.column_by_name(name) {
        Some(Array::Utf8(s)) => s,
        _ => panic!("{name} is not utf8"),
    }
}

fn prims<'a, T: quiver_arrow::PrimitiveType>(
    b: &'a RecordBatch,
    name: &str,
) -> &'a PrimitiveArray<T> {
    b.column_by_name(name).unwrap().as_primitive::<T>().unwrap()
}

fn list<'a>(b: &'a RecordBatch, name: &str) -> &'a ListArray {
    match b.column_by_name(name) {
        Some(Array::List(l)) => l,
        _ => panic!("{name} is not a list"),
    }
}

fn as_struct(a: &Array) -> &StructArray {
    match a {
        Array::Struct(s) => s,
        _ => panic!("not a struct"),
    }
}

#[test]
fn validity_matches_pushed_bits() {
    let mut rng = Rng(9);
    for len in [0usize, 1, 63, 64, 65, 130, 200] {
        for first_null in [0usize, 1, 64, 100, usize::MAX] {
            let bits: Vec<bool> = (0..len).map(|i| i < first_null || rng.one_in(2)).collect();
            let mut v = Validity::with_capacity(len);
            bits.iter().for_each(|&b| v.push(b));
            match v.finish().unwrap() {
                None => assert!(bits.iter().all(|&b| b)),
                Some(bitmap) => {
                    assert_eq!(bitmap.iter().collect::<Vec<_>>(), bits);
                    assert_eq!(bitmap.unset_bits(), bitmap.count_unset());
                    assert_eq!(bitmap.bytes().len(), len.div_ceil(8));
                }
            }
        }
    }
}

#[test]
fn deterministic_byte_for_byte() {
    for dataset in [Dataset::Lineitem, Dataset::Nested] {
        let a = all(dataset, 5_000, 1_024, 7);
        let b = all(dataset, 5_000, 1_024, 7);
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(batch_buffers(x), batch_buffers(y), "{dataset:?}");
        }
        let c = all(dataset, 5_000, 1_024, 8);
        assert_ne!(batch_buffers(&a[0]), batch_buffers(&c[0]), "{dataset:?}");
    }
}

#[test]
fn batches_are_independent() {
    for dataset in [Dataset::Lineitem, Dataset::Nested] {
        let from_iter = all(dataset, 10_000, 1_000, 3);
        let alone = generate_batch(dataset, 3, 3, 1_000, 3_000).unwrap();
        assert_eq!(batch_buffers(&alone), batch_buffers(&from_iter[3]));
        // Rows do not depend on the batch size either.
        let whole = one_seeded(dataset, 3, 10_000);
        for (k, b) in all(dataset, 10_000, 777, 3).iter().enumerate() {
            let expected = whole.slice(k * 777, b.num_rows());
            assert_eq!(expected.columns(), b.columns(), "{dataset:?} batch {k}");
        }
    }
}

fn one_seeded(dataset: Dataset, seed: u64, rows: usize) -> RecordBatch {
    generate_batch(dataset, seed, 0, rows, 0).unwrap()
}

#[test]
fn schemas_match() {
    let names: Vec<_> = Dataset::Lineitem
        .schema()
        .fields
        .iter()
        .map(|f| f.name().to_string())
        .collect();
    assert_eq!(names.len(), 17);
    assert_eq!(names[0], "l_orderkey");
    assert_eq!(names[15], "l_comment");
    assert_eq!(names[16], "l_weight");
    for dataset in [Dataset::Lineitem, Dataset::Nested] {
        let b = one(dataset, 100);
        assert_eq!(b.schema(), &dataset.schema());
        for (f, c) in b.schema().fields.iter().zip(b.columns()) {
            assert_eq!(f.data_type(), c.data_type());
        }
    }
    let nested = Dataset::Nested.schema();
    assert!(matches!(nested.fields[3].data_type(), DataType::Map(..)));
}

#[test]
fn full_validation_passes() {
    for dataset in [Dataset::Lineitem, Dataset::Nested] {
        for b in all(dataset, 20_000, 6_000, 11) {
            b.validate(ValidationLevel::Full).unwrap();
        }
    }
}

#[test]
fn lineitem_null_ratios() {
    let b = one(Dataset::Lineitem, 100_000);
    for (i, (f, c)) in b.schema().fields.iter().zip(b.columns()).enumerate() {
        let ratio = c.null_count() as f64 / 100_000.0;
        if i >= 15 {
            assert!((0.045..=0.055).contains(&ratio), "{}: {ratio}", f.name());
        } else {
            assert_eq!(c.null_count(), 0, "{}", f.name());
        }
    }
}

#[test]
fn lineitem_value_ranges() {
    let b = one(Dataset::Lineitem, 50_000);
    let dec = |n| {
        prims::<I128>(&b, n)
            .values()
            .iter()
            .map(I128::to_i128)
            .collect::<Vec<_>>()
    };
    let (qty, price) = (dec("l_quantity"), dec("l_extendedprice"));
    let partkeys = prims::<i64>(&b, "l_partkey").values();
    for (i, (q, p)) in qty.iter().zip(&price).enumerate() {
        assert!((100..=5_000).contains(q) && q % 100 == 0, "quantity {q}");
        let pk = partkeys[i];
        assert!((1..=200_000).contains(&pk));
        assert_eq!(*p, i128::from(retail_price(pk)) * q / 100);
    }
    assert!(dec("l_discount").iter().all(|d| (0..=10).contains(d)));
    assert!(dec("l_tax").iter().all(|d| (0..=8).contains(d)));
    assert_eq!(b.column(4).data_type(), &decimal_15_2());
    let date = |n| prims::<i32>(&b, n).values().as_slice().to_vec();
    let (ship, commit, receipt) = (
        date("l_shipdate"),
        date("l_commitdate"),
        date("l_receiptdate"),
    );
    for i in 0..b.num_rows() {
        for d in [ship[i], commit[i], receipt[i]] {
            assert!((START_DATE..=END_DATE).contains(&d), "date {d}");
        }
        assert!(receipt[i] > ship[i]);
        let expected = if ship[i] > CURRENT_DATE { "O" } else { "F" };
        assert_eq!(strings(&b, "l_linestatus").value(i), expected);
        let flag = strings(&b, "l_returnflag").value(i);
        assert_eq!(flag == "N", receipt[i] > CURRENT_DATE, "flag {flag}");
    }
    assert_eq!(b.column(10).data_type(), &DataType::Date32);
    check_lineitem_strings(&b);
}

fn check_lineitem_strings(b: &RecordBatch) {
    let supp = prims::<i64>(b, "l_suppkey");
    assert!(supp.values().iter().all(|s| (1..=10_000).contains(&s)));
    for s in strings(b, "l_shipmode").iter() {
        assert!(SHIP_MODE.contains(&s.unwrap()));
    }
    for s in strings(b, "l_shipinstruct").iter() {
        assert!(SHIP_INSTRUCT.contains(&s.unwrap()));
    }
    for c in strings(b, "l_comment").iter().flatten() {
        assert!((COMMENT_MIN..=COMMENT_MAX).contains(&c.len()), "{c:?}");
    }
    let distinct: std::collections::HashSet<_> = strings(b, "l_comment").iter().collect();
    assert!(distinct.len() > b.num_rows() * 9 / 10, "{}", distinct.len());
    for w in prims::<f64>(b, "l_weight").iter().flatten() {
        assert!((0.5..=2_500.0).contains(&w), "weight {w}");
    }
}

#[test]
fn lineitem_orders_like_tpch() {
    // Start mid-block to cover a batch boundary inside an order block.
    let b = generate_batch(Dataset::Lineitem, 5, 0, 10_000, 1_000_003).unwrap();
    let keys = prims::<i64>(&b, "l_orderkey").values();
    let lines = prims::<i32>(&b, "l_linenumber").values();
    let mut orders = 0;
    for i in 1..b.num_rows() {
        if keys[i] == keys[i - 1] {
            assert_eq!(lines[i], lines[i - 1] + 1);
        } else {
            assert!(keys[i] > keys[i - 1]);
            assert_eq!(lines[i], 1, "row {i}");
            orders += 1;
        }
        assert!((1..=7).contains(&lines[i]));
    }
    // About 4 lines per order on average.
    assert!((2_000..3_300).contains(&orders), "{orders} orders");
}

#[test]
fn nested_nulls_at_every_level() {
    let b = one(Dataset::Nested, 20_000);
    let id = prims::<i64>(&b, "id");
    assert_eq!(id.null_count(), 0);
    assert_eq!(id.value(19_999), 19_999);
    let count = |what: &str, n: usize| assert!(n > 100, "{what}: {n}");
    let empty = |l: &ListArray| {
        (0..l.len())
            .filter(|&i| l.is_valid(i) && l.offsets().len_of(i) == 0)
            .count()
    };
    let (tags, points) = (list(&b, "tags"), list(&b, "points"));
    count("null tag lists", tags.null_count());
    count("empty tag lists", empty(tags));
    count("null tags", tags.values().null_count());
    count("null point lists", points.null_count());
    count("empty point lists", empty(points));
    let point = as_struct(points.values());
    count("null points", point.null_count());
    assert_eq!(point.column(0).null_count(), 0, "x is not nullable");
    count("null y", point.column(1).null_count());
    count("null labels", point.column(2).null_count());
    let Some(Array::Map(map)) = b.column_by_name("attributes") else {
        panic!("map")
    };
    count("null maps", map.null_count());
    count(
        "empty maps",
        (0..map.len())
            .filter(|&i| map.is_valid(i) && map.offsets().len_of(i) == 0)
            .count(),
    );
    assert_eq!(map.keys().null_count(), 0);
    count("null map values", map.values().null_count());
    let profile = as_struct(b.column_by_name("profile").unwrap());
    count("null profiles", profile.null_count());
    count("null names", profile.column(0).null_count());
    count("null ages", profile.column(1).null_count());
    let address = as_struct(profile.column(2));
    count("null addresses", address.null_count());
    count("null cities", address.column(0).null_count());
    count("null zips", address.column(1).null_count());
}

#[test]
fn nested_map_keys_are_distinct() {
    let b = one(Dataset::Nested, 2_000);
    let Some(Array::Map(map)) = b.column_by_name("attributes") else {
        panic!("map")
    };
    for i in 0..map.len() {
        let entries = map.value(i);
        let Array::Utf8(keys) = entries.column(0) else {
            panic!("keys")
        };
        let set: std::collections::HashSet<_> = keys.iter().collect();
        assert_eq!(set.len(), keys.len());
    }
}

#[test]
fn row_counts_and_partial_last_batch() {
    for dataset in [Dataset::Lineitem, Dataset::Nested] {
        let bs = all(dataset, 10_005, 1_000, 1);
        assert_eq!(bs.len(), 11);
        assert!(bs[..10].iter().all(|b| b.num_rows() == 1_000));
        assert_eq!(bs[10].num_rows(), 5);
        assert!(all(dataset, 0, 1_000, 1).is_empty());
        assert_eq!(one(dataset, 0).num_rows(), 0);
        let zero: Vec<_> = batches(dataset, 10, 0, 1).collect();
        assert!(zero.len() == 1 && zero[0].is_err());
    }
    assert!(generate_batch(Dataset::Lineitem, 0, 0, 10, u64::MAX - 5).is_err());
    assert!(generate_batch(Dataset::Nested, 0, 0, 1 << 31, 0).is_err());
}

#[test]
fn lineitem_size_for_six_million_rows() {
    let rows = 200_000;
    let b = one(Dataset::Lineitem, rows);
    let per_row = batch_bytes(&b) as f64 / rows as f64;
    let total = per_row * 6_000_000.0;
    println!(
        "lineitem: {per_row:.1} bytes/row, 6M rows = {:.3} GB",
        total / 1e9
    );
    assert!((0.75e9..=1.1e9).contains(&total), "{total}");
    let nested = one(Dataset::Nested, rows);
    let per_row = batch_bytes(&nested) as f64 / rows as f64;
    println!(
        "nested: {per_row:.1} bytes/row, 2M rows = {:.3} GB",
        per_row * 2e6 / 1e9
    );
}
