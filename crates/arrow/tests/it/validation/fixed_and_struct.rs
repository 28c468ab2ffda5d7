//! Validation rules: fixed-size layouts and structs.

use super::*;

#[test]
fn fixed_size_list_child_must_be_long_enough() {
    // Spec example FixedSizeList<byte>[4]: 4 lists over 16 child values.
    let child = |n: usize| Array::from(PrimitiveArray::<u8>::new(vec![7u8; n]));
    let ok = FixedSizeListArray::try_new(item(DataType::UInt8), 4, 4, child(16), None).unwrap();
    assert_valid(&Array::from(ok));
    let msg = err_text(FixedSizeListArray::try_new(
        item(DataType::UInt8),
        4,
        4,
        child(15),
        None,
    ));
    assert_eq!(
        msg,
        "4 lists of 4 values need 16 child values but the child has 15"
    );
    let msg = err_text(FixedSizeListArray::try_new(
        item(DataType::UInt8),
        -1,
        4,
        child(16),
        None,
    ));
    assert_eq!(msg, "FixedSizeList size -1 is negative");
}

#[test]
fn fixed_size_binary_values_must_be_long_enough() {
    let ok = FixedSizeBinaryArray::try_new(4, 4, Buffer::from(vec![1u8; 16]), None).unwrap();
    assert_valid(&Array::from(ok));
    let msg = err_text(FixedSizeBinaryArray::try_new(
        4,
        4,
        Buffer::from(vec![1u8; 15]),
        None,
    ));
    assert_eq!(
        msg,
        "4 values of 4 bytes need 16 bytes but the values have 15"
    );
    let msg = err_text(FixedSizeBinaryArray::try_new(
        -4,
        4,
        Buffer::from(vec![1u8; 16]),
        None,
    ));
    assert_eq!(msg, "FixedSizeBinary width -4 is negative");
}

fn name_age_fields(age: DataType) -> Fields {
    Fields::from(vec![
        Field::new("name", DataType::Utf8, true),
        Field::new("age", age, true),
    ])
}

pub(super) fn names(n: usize) -> Array {
    Array::from(StringArray::from_options(
        ["joe", "alice", "mark", "bob"]
            .into_iter()
            .take(n)
            .map(Some),
    ))
}

pub(super) fn ages(n: usize) -> Array {
    Array::from(PrimitiveArray::<i32>::new(
        (1..=n as i32).collect::<Vec<_>>(),
    ))
}

#[test]
fn struct_children_must_be_long_enough() {
    let ok = StructArray::try_new(
        name_age_fields(DataType::Int32),
        4,
        vec![names(4), ages(4)],
        None,
    );
    assert_valid(&Array::from(ok.unwrap()));
    let msg = err_text(StructArray::try_new(
        name_age_fields(DataType::Int32),
        4,
        vec![names(4), ages(3)],
        None,
    ));
    assert_eq!(
        msg,
        "struct child 1 (\"age\") has 3 values but the struct has 4"
    );
    let msg = err_text(StructArray::try_new(
        name_age_fields(DataType::Int32),
        4,
        vec![names(4)],
        None,
    ));
    assert_eq!(msg, "struct has 2 fields but 1 children");
}

#[test]
fn struct_children_must_have_declared_types() {
    let msg = err_text(StructArray::try_new(
        name_age_fields(DataType::Int64),
        4,
        vec![names(4), ages(4)],
        None,
    ));
    assert_eq!(
        msg,
        "struct child 1: child \"age\" is declared Int64 but the array is Int32"
    );
}
