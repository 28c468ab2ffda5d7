//! A tour of quiver-arrow: build a record batch with nested and dictionary-encoded columns,
//! validate it, slice it (zero-copy) and print it as a table.
//!
//! Run with `cargo run --release -p quiver-arrow --example tour`.

use quiver_arrow::builder::{
    ListBuilder, MapBuilder, PrimitiveBuilder, StringBuilder, StringDictionaryBuilder,
    StringViewBuilder, StructBuilder,
};
use quiver_arrow::display::{TableOptions, pretty_format_batches, pretty_format_batches_with};
use quiver_arrow::{
    Array, DataType, Field, RecordBatch, Result, Schema, TimeUnit, ValidationLevel,
};
use std::sync::Arc;

const CITIES: [&str; 4] = ["Lisbon", "Oslo", "Kyoto", "Quito"];
const TAGS: [&str; 5] = ["new", "vip", "returning", "new", "trial"];

fn main() -> Result<()> {
    let rows = 8;
    let columns = vec![
        ids(rows),
        names(rows),
        tags(rows)?,
        addresses(rows)?,
        scores(rows),
        seen(rows)?,
    ];
    let schema = Schema::new(
        columns
            .iter()
            .zip(["id", "name", "tags", "address", "scores", "last_seen"])
            .map(|(c, name)| Field::new(name, c.data_type().clone(), name != "id"))
            .collect::<Vec<_>>(),
    );
    let batch = RecordBatch::try_new(Arc::new(schema), columns)?;

    println!("Schema:");
    for f in batch.schema().fields.iter() {
        println!("  {f}");
    }

    batch.validate(ValidationLevel::Full)?;
    println!(
        "\nFull validation passed for {} rows × {} columns.\n",
        batch.num_rows(),
        batch.num_columns()
    );
    println!("{}", pretty_format_batches(std::slice::from_ref(&batch)));

    let slice = batch.slice(2, 4);
    slice.validate(ValidationLevel::Full)?;
    let shared = slice.column(1).as_utf8_view().map(|s| s.views().as_ptr())
        == batch
            .column(1)
            .as_utf8_view()
            .map(|s| s.views().as_slice()[2..].as_ptr());
    println!("Rows 2..6 (a zero-copy slice: the name views are shared with the batch: {shared}):");
    let narrow = TableOptions {
        max_width: Some(80),
        max_rows: None,
    };
    println!("{}", pretty_format_batches_with(&[slice], &narrow));
    Ok(())
}

fn ids(rows: usize) -> Array {
    let mut b = PrimitiveBuilder::<i64>::with_capacity(rows);
    (0..rows as i64).for_each(|i| b.append_value(1000 + i));
    b.finish().into()
}

fn names(rows: usize) -> Array {
    let mut b = StringViewBuilder::new();
    for i in 0..rows {
        match i % 4 {
            3 => b.append_null(),
            1 => b.append_value(format!("customer number {i} with a long name")),
            _ => b.append_value(format!("cust-{i}")),
        }
    }
    b.finish().into()
}

/// `List<Dictionary<Int16, Utf8>>`: repeated tags stored once in the dictionary.
fn tags(rows: usize) -> Result<Array> {
    let mut b = ListBuilder::new(StringDictionaryBuilder::<i16>::new());
    for i in 0..rows {
        if i % 5 == 4 {
            b.append_null();
            continue;
        }
        for t in 0..(i % 3) {
            b.values().append(TAGS[(i + t) % TAGS.len()])?;
        }
        b.append(true);
    }
    Ok(b.finish().into())
}

/// `Struct<city: Utf8, zip: Int32>` with a null struct slot and a null child value.
fn addresses(rows: usize) -> Result<Array> {
    let fields = vec![
        Field::new("city", DataType::Utf8, true),
        Field::new("zip", DataType::Int32, true),
    ];
    let mut b = StructBuilder::try_new(fields.into())?;
    for i in 0..rows {
        if i == 5 {
            b.append_null();
            continue;
        }
        b.field_builder(0)
            .as_string_mut()
            .expect("utf8 child") // ok: the struct builder was made with a Utf8 field 0
            .append_value(CITIES[i % CITIES.len()]);
        let zip = b
            .field_builder(1)
            .as_primitive_mut::<i32>()
            .expect("int32 child"); // ok: and an Int32 field 1
        if i % 3 == 2 {
            zip.append_null()
        } else {
            zip.append_value(10_000 + i as i32 * 7)
        }
        b.append(true);
    }
    Ok(b.finish().into())
}

/// `Map<Utf8, Float64>`.
fn scores(rows: usize) -> Array {
    let mut b = MapBuilder::new(StringBuilder::new(), PrimitiveBuilder::<f64>::new());
    for i in 0..rows {
        for (k, key) in ["math", "art"].iter().enumerate().take(i % 3) {
            b.keys().append_value(key);
            b.values()
                .append_value(50.0 + (i * 7 + k * 11) as f64 / 2.0);
        }
        b.append(true);
    }
    b.finish().into()
}

/// `Timestamp(ms, UTC)`.
fn seen(rows: usize) -> Result<Array> {
    let dt = DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into()));
    let mut b = PrimitiveBuilder::<i64>::with_capacity(rows).with_data_type(dt)?;
    (0..rows as i64).for_each(|i| b.append_value(1_700_000_000_000 + i * 86_400_123));
    Ok(b.finish().into())
}
