//! Validation rules: unions.

use super::*;

/// Spec dense union `[{f=1.2}, null, {f=3.4}, {i=5}]`.
fn dense_union(type_ids: Vec<i8>, offsets: Vec<i32>, checked: bool) -> Result<UnionArray> {
    let fields = UnionFields::try_new(
        vec![0, 1],
        vec![
            Field::new("f", DataType::Float32, true),
            Field::new("i", DataType::Int32, true),
        ],
    )
    .unwrap();
    let f = Array::from(PrimitiveArray::<f32>::from_options([
        Some(1.2),
        None,
        Some(3.4),
    ]));
    let i = Array::from(PrimitiveArray::<i32>::new(vec![5]));
    type Build = fn(
        UnionFields,
        UnionMode,
        Buffer<i8>,
        Option<Buffer<i32>>,
        Vec<Array>,
    ) -> Result<UnionArray>;
    let build: Build = if checked {
        UnionArray::try_new
    } else {
        UnionArray::try_new_deferred
    };
    build(
        fields,
        UnionMode::Dense,
        type_ids.into(),
        Some(offsets.into()),
        vec![f, i],
    )
}

#[track_caller]
fn assert_bad_dense_union(type_ids: Vec<i8>, offsets: Vec<i32>, expected: &str) {
    let msg = err_text(dense_union(type_ids.clone(), offsets.clone(), true));
    assert_eq!(msg, expected);
    let a = dense_union(type_ids, offsets, false).unwrap();
    assert_eq!(full_only_err(&Array::from(a)), expected);
}

#[test]
fn dense_union_offsets_must_be_in_child_bounds() {
    let ok = dense_union(vec![0, 0, 0, 1], vec![0, 1, 2, 0], true).unwrap();
    assert_eq!(ok.null_count(), 1);
    assert_valid(&Array::from(ok));
    assert_bad_dense_union(
        vec![0, 0, 0, 1],
        vec![0, 1, 2, 1],
        "slot 3 has offset 1 into child 1 which has 1 values",
    );
    assert_bad_dense_union(
        vec![0, 0, 0, 1],
        vec![-1, 1, 2, 0],
        "slot 0 has offset -1 into child 0 which has 3 values",
    );
    // Structural: one offset per slot.
    let msg = err_text(dense_union(vec![0, 0, 0, 1], vec![0, 1, 2], false));
    assert_eq!(msg, "dense union has 3 offsets for 4 type ids");
}

#[test]
fn union_type_ids_must_be_declared() {
    assert_bad_dense_union(
        vec![0, 0, 5, 1],
        vec![0, 1, 2, 0],
        "slot 2 has type id 5, which the union does not declare",
    );
    assert_bad_dense_union(
        vec![0, -1, 0, 1],
        vec![0, 1, 2, 0],
        "slot 1 has type id -1, which the union does not declare",
    );
    // Type ids need not be 0..n: with ids 3 and 7 declared, id 0 is not.
    let fields = UnionFields::try_new(
        vec![3, 7],
        vec![
            Field::new("a", DataType::Int8, true),
            Field::new("b", DataType::Int8, true),
        ],
    )
    .unwrap();
    let children = || vec![int8s(&[1, 2]), int8s(&[3, 4])];
    let ok = UnionArray::try_new(
        fields.clone(),
        UnionMode::Sparse,
        vec![3, 7].into(),
        None,
        children(),
    );
    assert_eq!(ok.unwrap().child_index(1), 1);
    let msg = err_text(UnionArray::try_new(
        fields.clone(),
        UnionMode::Sparse,
        vec![3, 0].into(),
        None,
        children(),
    ));
    assert_eq!(
        msg,
        "slot 1 has type id 0, which the union does not declare"
    );
    let a = UnionArray::try_new_deferred(
        fields,
        UnionMode::Sparse,
        vec![3, 0].into(),
        None,
        children(),
    )
    .unwrap();
    assert_eq!(
        full_only_err(&Array::from(a)),
        "slot 1 has type id 0, which the union does not declare"
    );
}

#[test]
fn sparse_union_children_must_be_long_enough() {
    // Spec sparse union `[{i=5}, {f=1.2}, {s='joe'}, {f=3.4}, {i=4}, {s='mark'}]`.
    let fields = UnionFields::with_default_ids(vec![
        Field::new("i", DataType::Int32, true),
        Field::new("f", DataType::Float32, true),
        Field::new("s", DataType::Binary, true),
    ]);
    let i = Array::from(PrimitiveArray::<i32>::from_options([
        Some(5),
        None,
        None,
        None,
        Some(4),
        None,
    ]));
    let f = Array::from(PrimitiveArray::<f32>::from_options([
        None,
        Some(1.2),
        None,
        Some(3.4),
        None,
        None,
    ]));
    let s = |n: usize| {
        let v = [
            None,
            None,
            Some(&b"joe"[..]),
            None,
            None,
            Some(&b"mark"[..]),
        ];
        Array::from(BinaryArray::from_options(v.into_iter().take(n)))
    };
    let ids = || Buffer::from(vec![0i8, 1, 2, 1, 0, 2]);
    let ok = UnionArray::try_new(
        fields.clone(),
        UnionMode::Sparse,
        ids(),
        None,
        vec![i.clone(), f.clone(), s(6)],
    )
    .unwrap();
    assert_eq!(ok.null_count(), 0);
    assert_valid(&Array::from(ok));

    let expected = "sparse union child 2 has 5 values but the union has 6";
    let msg = err_text(UnionArray::try_new(
        fields.clone(),
        UnionMode::Sparse,
        ids(),
        None,
        vec![i.clone(), f.clone(), s(5)],
    ));
    assert_eq!(msg, expected);
    let msg = err_text(UnionArray::try_new_deferred(
        fields.clone(),
        UnionMode::Sparse,
        ids(),
        None,
        vec![i.clone(), f.clone(), s(5)],
    ));
    assert_eq!(msg, expected);
    // Mode and offsets must agree.
    let msg = err_text(UnionArray::try_new_deferred(
        fields,
        UnionMode::Sparse,
        ids(),
        Some(vec![0; 6].into()),
        vec![i, f, s(6)],
    ));
    assert_eq!(msg, "sparse union has an offsets buffer");
}
