//! Validation rules: paths in nested errors, record batches.

use super::*;

/// `[[{s: "ok"}, {s: "b\xffd"}]]` as `List<item: Struct<s: Utf8>>`, the UTF-8 check deferred.
fn list_of_struct_with_bad_utf8() -> Array {
    // SAFETY: deliberately breaks the UTF-8 precondition; the array is only validated.
    let s = unsafe {
        StringArray::new_unchecked_utf8(
            offsets(&[0, 2, 5]),
            Buffer::from(b"okb\xffd".to_vec()),
            None,
        )
    }
    .unwrap();
    let fields = Fields::from(vec![Field::new("s", DataType::Utf8, true)]);
    let st = StructArray::try_new(fields.clone(), 2, vec![Array::from(s)], None).unwrap();
    let list = ListArray::try_new(
        item(DataType::Struct(fields)),
        offsets(&[0, 2]),
        Array::from(st),
        None,
    );
    Array::from(list.unwrap())
}

#[test]
fn nested_errors_report_the_path() {
    let a = list_of_struct_with_bad_utf8();
    assert_eq!(
        full_only_err(&a),
        "child 0 (\"item\"), child 0 (\"s\"): value 1 is not valid UTF-8 (byte 3 of the values)"
    );

    // Through a dictionary's values and a union's child.
    let d = DictionaryArray::try_new(
        Array::from(PrimitiveArray::<i8>::new(vec![0])),
        Arc::new(a.clone()),
        false,
    )
    .unwrap();
    assert_eq!(
        full_only_err(&Array::from(d)),
        "dictionary values, child 0 (\"item\"), child 0 (\"s\"): value 1 is not valid UTF-8 \
         (byte 3 of the values)"
    );
    let fields = UnionFields::with_default_ids(vec![
        Field::new("n", DataType::Int8, true),
        Field::new("l", a.data_type().clone(), true),
    ]);
    let u = UnionArray::try_new(
        fields,
        UnionMode::Sparse,
        vec![1].into(),
        None,
        vec![int8s(&[1]), a],
    )
    .unwrap();
    assert_eq!(
        full_only_err(&Array::from(u)),
        "child 1 (\"l\"), child 0 (\"item\"), child 0 (\"s\"): value 1 is not valid UTF-8 \
         (byte 3 of the values)"
    );
}

#[test]
fn record_batch_validate_names_the_column() {
    let a = list_of_struct_with_bad_utf8();
    let schema = Schema::new(vec![
        Field::new("id", DataType::Int8, false),
        Field::new("c", a.data_type().clone(), true),
    ]);
    let batch = RecordBatch::try_new(Arc::new(schema), vec![int8s(&[1]), a]).unwrap();
    batch.validate(ValidationLevel::Structural).unwrap();
    assert_eq!(
        err_text(batch.validate(ValidationLevel::Full)),
        "column \"c\", child 0 (\"item\"), child 0 (\"s\"): value 1 is not valid UTF-8 (byte 3 \
         of the values)"
    );
}

#[test]
fn record_batch_rejects_nulls_in_non_nullable_columns() {
    let schema = |nullable: bool| {
        Arc::new(Schema::new(vec![
            Field::new("a", DataType::Int8, true),
            Field::new("b", DataType::Int32, nullable),
        ]))
    };
    let b = || {
        Array::from(PrimitiveArray::<i32>::from_options([
            Some(1),
            None,
            Some(3),
        ]))
    };
    let ok = RecordBatch::try_new(schema(true), vec![int8s(&[1, 2, 3]), b()]).unwrap();
    ok.validate(ValidationLevel::Full).unwrap();

    let msg = err_text(RecordBatch::try_new(
        schema(false),
        vec![int8s(&[1, 2, 3]), b()],
    ));
    assert_eq!(
        msg,
        "invalid argument: column \"b\" is declared non-nullable but has 1 nulls"
    );

    // A batch taken from a struct whose non-nullable child has nulls is caught by validation.
    let st = StructArray::try_new(
        schema(false).fields.clone(),
        3,
        vec![int8s(&[1, 2, 3]), b()],
        None,
    )
    .unwrap();
    let batch = RecordBatch::from_struct(&st);
    for level in [ValidationLevel::Structural, ValidationLevel::Full] {
        assert_eq!(
            err_text(batch.validate(level)),
            "column \"b\": non-nullable column has 1 nulls"
        );
    }

    // Column count, type and length mismatches are named too.
    let msg = err_text(RecordBatch::try_new(
        schema(true),
        vec![int8s(&[1, 2, 3]), int8s(&[1, 2, 3])],
    ));
    assert_eq!(
        msg,
        "invalid argument: column \"b\" is declared Int32 but the array is Int8"
    );
    let msg = err_text(RecordBatch::try_new(
        schema(true),
        vec![int8s(&[1, 2, 3]), ages(2)],
    ));
    assert_eq!(msg, "invalid argument: column \"b\" has 2 rows, expected 3");
}

#[test]
fn record_batch_with_corrupt_union_or_run_ends_errors_instead_of_panicking() {
    // Unions and run-end arrays count their nulls through type ids and run ends; a batch must
    // not count them before those are checked.
    let fields = UnionFields::with_default_ids(vec![Field::new("n", DataType::Int8, true)]);
    let bad_union = UnionArray::try_new_deferred(
        fields,
        UnionMode::Sparse,
        vec![0, 9].into(),
        None,
        vec![int8s(&[1, 2])],
    )
    .unwrap();
    let bad_runs =
        RunEndArray::try_new_deferred(run_ends_of::<i32>(&[4, 2, 7]), run_values(), 0, 7).unwrap();
    let cases = [
        (
            Array::from(bad_union),
            "column \"x\": slot 1 has type id 9, which the union does not declare",
        ),
        (
            Array::from(bad_runs),
            "column \"x\": run end 1 is 2 after 4; run ends must strictly increase",
        ),
    ];
    for (column, expected) in cases {
        let schema = Schema::new(vec![Field::new("x", column.data_type().clone(), false)]);
        let batch = RecordBatch::try_new(Arc::new(schema), vec![column]).unwrap();
        batch.validate(ValidationLevel::Structural).unwrap();
        assert_eq!(err_text(batch.validate(ValidationLevel::Full)), expected);
    }

    // A valid union with a null in its child, in a non-nullable column: accepted. Unions have
    // no validity bitmap of their own (the official gold files declare such unions
    // non-nullable), so only a column's own bitmap counts for nullability.
    let fields = UnionFields::with_default_ids(vec![Field::new("n", DataType::Int8, true)]);
    let child = Array::from(PrimitiveArray::<i8>::from_options([Some(1), None]));
    let u = UnionArray::try_new(
        fields,
        UnionMode::Sparse,
        vec![0, 0].into(),
        None,
        vec![child],
    );
    let u = Array::from(u.unwrap());
    let schema = Schema::new(vec![Field::new("x", u.data_type().clone(), false)]);
    let batch = RecordBatch::try_new(Arc::new(schema), vec![u]).unwrap();
    batch.validate(ValidationLevel::Full).unwrap();
    assert_eq!(quiver_arrow::own_null_count(batch.column(0)), 0);
    assert_eq!(batch.column(0).null_count(), 1);
}
