//! Validation rules: run-end encoding.

use super::*;

/// Spec example values `[1.0, null, 2.0]`.
pub(super) fn run_values() -> Array {
    Array::from(PrimitiveArray::<f32>::from_options([
        Some(1.0),
        None,
        Some(2.0),
    ]))
}

pub(super) fn run_ends_of<T: PrimitiveType + TryFrom<i64>>(v: &[i64]) -> Array
where
    <T as TryFrom<i64>>::Error: std::fmt::Debug,
{
    let v: Vec<T> = v.iter().map(|&x| T::try_from(x).unwrap()).collect();
    Array::from(PrimitiveArray::<T>::new(v))
}

#[track_caller]
fn assert_bad_runs(run_ends: Array, offset: usize, len: usize, expected: &str) {
    let msg = err_text(RunEndArray::try_new_sliced(
        run_ends.clone(),
        run_values(),
        offset,
        len,
    ));
    assert_eq!(msg, expected);
    let a = RunEndArray::try_new_deferred(run_ends, run_values(), offset, len).unwrap();
    assert_eq!(full_only_err(&Array::from(a)), expected);
}

fn run_end_rules(make: fn(&[i64]) -> Array) {
    // Spec example: run ends 4, 6, 7 → [1.0, 1.0, 1.0, 1.0, null, null, 2.0].
    let ok = RunEndArray::try_new(make(&[4, 6, 7]), run_values()).unwrap();
    assert_eq!(ok.len(), 7);
    assert_eq!(ok.null_count(), 2);
    assert_valid(&Array::from(ok));

    assert_bad_runs(
        make(&[4, 4, 7]),
        0,
        7,
        "run end 1 is 4 after 4; run ends must strictly increase",
    );
    assert_bad_runs(
        make(&[4, 6, 5]),
        0,
        5,
        "run end 2 is 5 after 6; run ends must strictly increase",
    );
    assert_bad_runs(
        make(&[0, 6, 7]),
        0,
        7,
        "run end 0 is 0; run ends must be positive",
    );
    assert_bad_runs(
        make(&[-2, 6, 7]),
        0,
        7,
        "run end 0 is -2; run ends must be positive",
    );
    assert_bad_runs(
        make(&[4, 6, 7]),
        2,
        6,
        "last run end is 7 but the array needs 8 (offset 2 + length 6)",
    );
    assert_bad_runs(
        make(&[4, 6, 7]),
        0,
        8,
        "last run end is 7 but the array needs 8 (offset 0 + length 8)",
    );
    // A slice within the runs is fine.
    let s = RunEndArray::try_new_sliced(make(&[4, 6, 7]), run_values(), 3, 4).unwrap();
    assert_eq!(s.null_count(), 2);
}

#[test]
fn run_ends_positive_strictly_increasing_and_covering() {
    run_end_rules(run_ends_of::<i16>);
    run_end_rules(run_ends_of::<i32>);
    run_end_rules(run_ends_of::<i64>);
}

#[test]
fn run_ends_must_not_be_null() {
    let nullable = Array::from(PrimitiveArray::<i32>::from_options([
        Some(4),
        None,
        Some(7),
    ]));
    let msg = err_text(RunEndArray::try_new(nullable.clone(), run_values()));
    assert_eq!(msg, "run ends contain 1 nulls");
    let msg = err_text(RunEndArray::try_new_deferred(nullable, run_values(), 0, 7));
    assert_eq!(msg, "run ends contain 1 nulls");

    // The type rule: the run_ends field is non-nullable.
    let ree = |nullable: bool| {
        DataType::RunEndEncoded(
            field("run_ends", DataType::Int32, nullable),
            field("values", DataType::Float32, true),
        )
    };
    ree(false).validate().unwrap();
    assert_eq!(
        err_text(ree(true).validate()),
        "run ends must not be nullable"
    );

    // Run ends that hide their null behind a declared count of zero are caught by full
    // validation of the run-ends child.
    let lying = Bitmap::try_new_with_unset(Bytes::from_static(&[0b101]), 0, 3, 0).unwrap();
    let ends = PrimitiveArray::<i32>::try_new(DataType::Int32, vec![4, 6, 7].into(), Some(lying));
    let a = RunEndArray::try_new(Array::from(ends.unwrap()), run_values()).unwrap();
    assert_eq!(
        full_only_err(&Array::from(a)),
        "run ends: declared null count 0 but the validity bitmap has 1 nulls"
    );
}

#[test]
fn run_ends_and_values_must_have_equal_length() {
    let two_values = Array::from(PrimitiveArray::<f32>::new(vec![1.0, 2.0]));
    let msg = err_text(RunEndArray::try_new(
        run_ends_of::<i32>(&[4, 6, 7]),
        two_values,
    ));
    assert_eq!(msg, "3 run ends but 2 values; they must be equal");
}

#[test]
fn run_ends_must_be_int16_32_or_64() {
    let msg = err_text(RunEndArray::try_new(
        run_ends_of::<i8>(&[4, 6, 7]),
        run_values(),
    ));
    assert_eq!(msg, "run ends must be Int16, Int32 or Int64, not Int8");
    // Same physical type as Int32, but not an integer type.
    let dates = PrimitiveArray::<i32>::new(vec![4, 6, 7]).with_data_type(DataType::Date32);
    let msg = err_text(RunEndArray::try_new(
        Array::from(dates.unwrap()),
        run_values(),
    ));
    assert_eq!(msg, "run ends must be Int16, Int32 or Int64, not Date32");
}
