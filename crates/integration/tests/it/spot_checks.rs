//! Decoded values of a few gold files against the JSON read by eye, and helpers to compare
//! JSON documents.

use super::gold::{integration_dir, read_gold};
use quiver_arrow::{Array, DataType, DaysMs, I128, I256, IntegerType};
use serde_json::Value;
use std::io::Read;
use std::path::Path;

/// A gold file as raw JSON.
pub(crate) fn gold_json(path: &Path) -> Value {
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).expect("gold file"))
        .read_to_string(&mut text)
        .expect("gunzip");
    serde_json::from_str(&text).expect("gold JSON parses")
}

/// Normalises what the format leaves open, so that two documents can be compared: decimal
/// types get their default `bitWidth` (128), pre-1.0 union `VALIDITY` goes (unions have none
/// now), dictionary batches are sorted by id and their column names dropped (the names mean
/// nothing there), and metadata lists are sorted by key (quiver keeps metadata in an
/// ordered map, as DESIGN.md §3 says).
pub(crate) fn normalise(v: &mut Value) {
    fn walk(v: &mut Value) {
        match v {
            Value::Object(o) => {
                if o.get("name").and_then(Value::as_str) == Some("decimal")
                    && !o.contains_key("bitWidth")
                {
                    o.insert("bitWidth".into(), 128.into());
                }
                if o.contains_key("TYPE_ID") {
                    o.shift_remove("VALIDITY");
                }
                if let Some(Value::Array(m)) = o.get_mut("metadata") {
                    m.sort_by(|a, b| a["key"].as_str().cmp(&b["key"].as_str()));
                }
                o.values_mut().for_each(walk);
            }
            Value::Array(a) => a.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(v);
    if let Some(Value::Array(dicts)) = v.get_mut("dictionaries") {
        dicts.sort_by_key(|d| d["id"].as_i64());
        for d in dicts.iter_mut() {
            if let Some(Value::Array(cols)) = d.pointer_mut("/data/columns") {
                for c in cols {
                    c.as_object_mut().map(|o| o.shift_remove("name"));
                }
            }
        }
    }
}

/// Equality of two JSON documents after [`normalise`], reporting the first differing path.
pub(crate) fn same_json(a: &Value, b: &Value) -> Result<(), String> {
    let (mut a, mut b) = (a.clone(), b.clone());
    normalise(&mut a);
    normalise(&mut b);
    first_json_difference(&a, &b, "")
}

fn first_json_difference(a: &Value, b: &Value, at: &str) -> Result<(), String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => first_json_difference(p, q, &format!("{at}/{k}"))?,
                    (p, q) => return Err(format!("{at}/{k}: {p:?} vs {q:?}")),
                }
            }
            Ok(())
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .try_for_each(|(i, (p, q))| first_json_difference(p, q, &format!("{at}/{i}"))),
        _ if a == b => Ok(()),
        _ => Err(format!("{at}: {a} vs {b}")),
    }
}

#[test]
fn primitive_values() {
    let Some(dir) = integration_dir() else {
        return;
    };
    let f = read_gold(&dir, "1.0.0-littleendian", "generated_primitive");
    let b = &f.batches[0];
    assert_eq!(b.num_rows(), 17);
    let col = |name: &str| b.column_by_name(name).expect(name);
    // bool_nullable: VALIDITY [0, 0, 1], DATA [false, true, true]
    let bools = col("bool_nullable").as_boolean().unwrap();
    assert_eq!(
        (bools.get(0), bools.get(1), bools.get(2)),
        (None, None, Some(true))
    );
    assert!(bools.value(1), "null slots keep their DATA");
    let i8s = col("int8_nullable").as_primitive::<i8>().unwrap();
    assert_eq!(
        i8s.iter().take(3).collect::<Vec<_>>(),
        [Some(-128), Some(127), Some(27)]
    );
    // int64_nullable: VALIDITY [0, 1, 0], DATA ["-2147483648", "2147483647", "1756534929"]
    let i64s = col("int64_nullable").as_primitive::<i64>().unwrap();
    assert_eq!(
        i64s.iter().take(3).collect::<Vec<_>>(),
        [None, Some(2147483647), None]
    );
    assert_eq!(i64s.value(0), -2147483648);
    let u16s = col("uint16_nonnullable").as_primitive::<u16>().unwrap();
    assert_eq!(u16s.values()[..3], [0, 65535, 52470]);
    let f32s = col("float32_nullable").as_primitive::<f32>().unwrap();
    assert_eq!(
        f32s.iter().take(3).collect::<Vec<_>>(),
        [Some(641.818), None, Some(1394.072)]
    );
    let f64s = col("float64_nonnullable").as_primitive::<f64>().unwrap();
    assert_eq!(f64s.values()[..3], [471.617, -1174.894, 2613.999]);
    let bin = col("binary_nonnullable").as_binary().unwrap();
    assert_eq!(bin.offsets().as_slice()[..4], [0, 3, 3, 6]);
    assert_eq!(bin.value(0), [0x10, 0xC8, 0x6F]);
    assert_eq!(bin.value(2), [0x3E, 0x77, 0xC2]);
    let utf8 = col("utf8_nullable").as_utf8().unwrap();
    assert_eq!(utf8.get(0), None);
    assert_eq!(utf8.get(1), Some("r€j5mµc"));
    assert_eq!(utf8.get(2), Some("r矢iô°de"));
    let fsb = col("fixedsizebinary_19_nullable")
        .as_fixed_size_binary()
        .unwrap();
    assert_eq!(fsb.get(0), None);
    assert_eq!(fsb.value(0)[..3], [0x7B, 0xAC, 0xC2]);
    assert_eq!(fsb.get(1).unwrap()[17..], [0xB0, 0x42, 0xB3][1..]);
}

#[test]
fn decimal_values() {
    let Some(dir) = integration_dir() else {
        return;
    };
    let f = read_gold(&dir, "1.0.0-littleendian", "generated_decimal");
    let f0 = f.batches[0].column_by_name("f0").unwrap();
    assert_eq!(
        f0.data_type(),
        &DataType::Decimal128 {
            precision: 3,
            scale: 2
        }
    );
    // VALIDITY [1, 0, …], DATA ["12810", "-17617", …]: beyond precision 3, read all the same.
    let p = f0.as_primitive::<I128>().unwrap();
    assert_eq!(p.get(0), Some(I128::from_i128(12810)));
    assert_eq!(p.value(1), I128::from_i128(-17617));
    assert_eq!(p.get(1), None);
    let f33 = f.batches[0]
        .column_by_name("f33")
        .unwrap()
        .as_primitive::<I128>()
        .unwrap();
    assert_eq!(
        f33.value(0).to_string(),
        "94577097079548249227131361495832669170"
    );
    let f = read_gold(&dir, "1.0.0-littleendian", "generated_decimal256");
    let f32 = f.batches[0].column_by_name("f32").unwrap();
    assert_eq!(
        f32.data_type(),
        &DataType::Decimal256 {
            precision: 69,
            scale: 5
        }
    );
    let p = f32.as_primitive::<I256>().unwrap();
    assert_eq!(p.get(0), None);
    assert_eq!(
        p.get(1).unwrap().to_string(),
        "120686876236335143086632587984640773340513205180365"
    );
    assert_eq!(
        p.value(0).to_string(),
        "-108565108811301347056586434826290143411794995504437"
    );
}

#[test]
fn dictionary_values_and_ids() {
    let Some(dir) = integration_dir() else {
        return;
    };
    let f = read_gold(&dir, "1.0.0-littleendian", "generated_dictionary");
    let ids: Vec<_> = f
        .dictionaries
        .ids
        .iter()
        .map(|(p, id)| (p.clone(), *id))
        .collect();
    assert_eq!(ids, [(vec![0], 0), (vec![1], 1), (vec![2], 2)]);
    let dict0 = f.batches[0].column(0).as_dictionary().unwrap();
    assert_eq!(dict0.key_type(), IntegerType::Int8);
    // dict0: VALIDITY [1, 0, …], DATA [2, 7, …]; dictionary 0 DATA[2] = "nwg€6d€".
    assert_eq!(dict0.key(0), Some(2));
    assert_eq!(dict0.key(1), None);
    let values = dict0.values().as_utf8().unwrap();
    assert_eq!(values.get(2), Some("nwg€6d€"));
    assert_eq!(values.get(1), None);
    // dict2 (Int16 keys into Int64 values): key 0 is 47.
    let dict2 = f.batches[0].column(2).as_dictionary().unwrap();
    assert_eq!(dict2.key(0), Some(47));
    let v2 = f.dictionaries.values[&2].as_primitive::<i64>().unwrap();
    assert_eq!(v2.get(2), Some(1910983049));
    assert!(std::sync::Arc::ptr_eq(
        dict2.values(),
        &f.dictionaries.values[&2]
    ));

    // Nested: dictionary 1 holds lists of dictionary-0 strings, 2 structs of two of them.
    let f = read_gold(&dir, "1.0.0-littleendian", "generated_nested_dictionary");
    let ids: Vec<_> = f
        .dictionaries
        .ids
        .iter()
        .map(|(p, id)| (p.clone(), *id))
        .collect();
    assert_eq!(
        ids,
        [
            (vec![0], 1),
            (vec![0, 0], 0),
            (vec![1], 2),
            (vec![1, 0], 0),
            (vec![1, 1], 0)
        ]
    );
    let list_dict = f.batches[0].column(0).as_dictionary().unwrap();
    let lists = list_dict.values().as_list().unwrap();
    let inner = lists.values().as_dictionary().unwrap();
    assert!(std::sync::Arc::ptr_eq(
        inner.values(),
        &f.dictionaries.values[&0]
    ));
}

#[test]
fn union_values() {
    let Some(dir) = integration_dir() else {
        return;
    };
    let f = read_gold(&dir, "0.17.1", "generated_union");
    let b = &f.batches[1];
    // sparse: TYPE_ID [5, 7, …], typeIds [5, 7]; f1 DATA [-212567136, …], f2 DATA[1] "£k5cg£€"
    let sparse = b.column(0).as_union().unwrap();
    assert_eq!(sparse.type_ids()[..2], [5, 7]);
    let v0 = sparse.value(0);
    assert_eq!(v0.as_primitive::<i32>().unwrap().get(0), Some(-212567136));
    assert_eq!(sparse.value(1).as_utf8().unwrap().get(0), Some("£k5cg£€"));
    // dense: TYPE_ID [20, 10, …], OFFSET [0, 0, …]; 20 is f2 (binary) whose DATA[0] is "6F".
    let dense = b.column(1).as_union().unwrap();
    assert_eq!(dense.offsets().unwrap()[..3], [0, 0, 1]);
    assert_eq!(
        dense.value(0).as_binary().unwrap().get(0),
        Some(&[0x6F][..])
    );
    assert_eq!(
        dense.value(1).as_primitive::<i16>().unwrap().get(0),
        Some(25063)
    );
}

#[test]
fn map_and_interval_values() {
    let Some(dir) = integration_dir() else {
        return;
    };
    let f = read_gold(&dir, "1.0.0-littleendian", "generated_map");
    // VALIDITY [1, 0, 1, …], OFFSET [0, 2, 2, 4, …]; keys "add5Â°d", "jk\u{f4}occ3"; values i32::MIN, i32::MAX
    let m = f.batches[0].column(0).as_map().unwrap();
    assert_eq!(m.offsets().as_slice()[..4], [0, 2, 2, 4]);
    assert!(m.is_null(1));
    let first = m.value(0);
    assert_eq!(first.len(), 2);
    let keys = first.column(0).as_utf8().unwrap();
    assert_eq!((keys.value(0), keys.value(1)), ("add5Â°d", "jkôocc3"));
    let values = first.column(1).as_primitive::<i32>().unwrap();
    assert_eq!(values.values()[..], [i32::MIN, i32::MAX]);

    let f = read_gold(&dir, "1.0.0-littleendian", "generated_interval");
    // f6 DAY_TIME: VALIDITY [1, …], DATA[0] {"days": -2622376, "milliseconds": -67227994}
    let f6 = f.batches[0].column_by_name("f6").unwrap();
    assert!(matches!(f6, Array::DaysMs(_)));
    let p = f6.as_primitive::<DaysMs>().unwrap();
    assert_eq!(
        p.get(0),
        Some(DaysMs {
            days: -2622376,
            milliseconds: -67227994
        })
    );
    // f1 duration[s]: DATA[0] "-9223372036854775808"
    let f1 = f.batches[0]
        .column_by_name("f1")
        .unwrap()
        .as_primitive::<i64>()
        .unwrap();
    assert_eq!(f1.get(0), Some(i64::MIN));
}

#[test]
fn extension_and_metadata() {
    let Some(dir) = integration_dir() else {
        return;
    };
    let f = read_gold(&dir, "1.0.0-littleendian", "generated_extension");
    let uuids = &f.schema.fields[0];
    let ext = uuids.extension_type().expect("extension");
    assert_eq!((ext.name, ext.metadata), ("uuid", "uuid-serialized"));
    assert_eq!(uuids.data_type(), &DataType::FixedSizeBinary(16));
    let f = read_gold(&dir, "1.0.0-littleendian", "generated_custom_metadata");
    assert_eq!(
        f.schema.metadata.get("schema_custom_0").map(String::as_str),
        Some("{}")
    );
    assert_eq!(f.schema.fields[1].metadata().len(), 9);
}
