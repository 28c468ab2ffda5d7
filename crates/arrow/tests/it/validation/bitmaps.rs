//! Validation rules: validity bitmaps and null counts.

use super::*;

#[test]
fn validity_bitmap_length_must_equal_array_length() {
    let three = || Some(bits(&[1, 0, 1]));
    let four = || Some(bits(&[1, 0, 1, 1]));
    let strs = |v: Option<Bitmap>| {
        StringArray::try_new(offsets(&[0, 1, 2, 3]), Buffer::from(b"abc".to_vec()), v)
            .map(Array::from)
    };
    let list = |v: Option<Bitmap>| {
        ListArray::try_new(
            item(DataType::Int8),
            offsets(&[0, 1, 2, 3]),
            int8s(&[1, 2, 3]),
            v,
        )
        .map(Array::from)
    };
    let list_view = |v: Option<Bitmap>| {
        ListViewArray::try_new(
            item(DataType::Int8),
            vec![0, 1, 2].into(),
            vec![1, 1, 1].into(),
            int8s(&[1, 2, 3]),
            v,
        )
        .map(Array::from)
    };
    let fsl = |v: Option<Bitmap>| {
        FixedSizeListArray::try_new(item(DataType::Int8), 1, 3, int8s(&[1, 2, 3]), v)
            .map(Array::from)
    };
    let structs = |v: Option<Bitmap>| {
        let fields = Fields::from(vec![Field::new("a", DataType::Int8, true)]);
        StructArray::try_new(fields, 3, vec![int8s(&[1, 2, 3])], v).map(Array::from)
    };
    type Case = (&'static str, Box<dyn Fn(Option<Bitmap>) -> Result<Array>>);
    let cases: Vec<Case> = vec![
        (
            "primitive",
            Box::new(|v| {
                PrimitiveArray::<i32>::try_new(DataType::Int32, vec![1, 2, 3].into(), v)
                    .map(Array::from)
            }),
        ),
        (
            "boolean",
            Box::new(|v| BooleanArray::try_new(bits(&[1, 1, 0]), v).map(Array::from)),
        ),
        ("utf8", Box::new(strs)),
        (
            "fixed-size binary",
            Box::new(|v| {
                FixedSizeBinaryArray::try_new(2, 3, Buffer::from(b"aabbcc".to_vec()), v)
                    .map(Array::from)
            }),
        ),
        (
            "binary view",
            Box::new(|v| {
                let views = vec![View::inline(b"a"), View::inline(b"b"), View::inline(b"c")];
                BinaryViewArray::try_new(views.into(), Arc::new([]), v).map(Array::from)
            }),
        ),
        ("list", Box::new(list)),
        ("list view", Box::new(list_view)),
        ("fixed-size list", Box::new(fsl)),
        ("struct", Box::new(structs)),
    ];
    for (name, build) in &cases {
        let good = build(three()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_valid(&good);
        assert_eq!(good.null_count(), 1, "{name}");
        let msg = err_text(build(four()));
        assert_mentions(&msg, &["4 bits", "3 values"]);
    }
}

#[test]
fn bitmap_bytes_must_cover_offset_plus_length() {
    // One byte holds 8 bits: exactly enough for 8 bits at offset 0 or 5 bits at offset 3.
    let one = Bytes::from_static(&[0xff]);
    assert_eq!(Bitmap::try_new(one.clone(), 0, 8).unwrap().set_bits(), 8);
    assert_eq!(Bitmap::try_new(one.clone(), 3, 5).unwrap().set_bits(), 5);

    let msg = err_text(Bitmap::try_new(one.clone(), 0, 9));
    assert_eq!(
        msg,
        "bitmap of 9 bits at bit offset 0 needs 2 bytes but has 1"
    );
    let msg = err_text(Bitmap::try_new(one.clone(), 3, 6));
    assert_mentions(&msg, &["6 bits", "bit offset 3", "needs 2 bytes", "has 1"]);
    let msg = err_text(Bitmap::try_new_with_unset(one, 0, 16, 8));
    assert_mentions(&msg, &["16 bits", "needs 2 bytes"]);
    // An empty bitmap needs no bytes.
    assert!(Bitmap::try_new(Bytes::new(), 0, 0).unwrap().is_empty());
}

/// Spec example validity of `[1, null, 2, 4, 8]`: byte `00011101`, one null.
fn int32_with_declared_nulls(declared: usize) -> Array {
    let validity =
        Bitmap::try_new_with_unset(Bytes::from_static(&[0b0001_1101]), 0, 5, declared).unwrap();
    Array::from(
        PrimitiveArray::<i32>::try_new(DataType::Int32, vec![1, 0, 2, 4, 8].into(), Some(validity))
            .unwrap(),
    )
}

#[test]
fn declared_null_count_must_match_bitmap() {
    assert_valid(&int32_with_declared_nulls(1));

    // A declared count is trusted by `null_count` (it is O(1) metadata) ...
    let lie = int32_with_declared_nulls(0);
    assert_eq!(lie.null_count(), 0);
    // ... and full validation compares it with the bitmap.
    let msg = full_only_err(&lie);
    assert_eq!(
        msg,
        "declared null count 0 but the validity bitmap has 1 nulls"
    );
    let msg = full_only_err(&int32_with_declared_nulls(3));
    assert_mentions(&msg, &["declared null count 3", "has 1 nulls"]);

    // A count above the length is rejected when the bitmap is made.
    let msg = err_text(Bitmap::try_new_with_unset(
        Bytes::from_static(&[0b0001_1101]),
        0,
        5,
        6,
    ));
    assert_eq!(msg, "null count 6 exceeds length 5");

    // A slice of a bitmap declared null-free inherits the claim, and is caught as well.
    let msg = full_only_err(&lie.slice(1, 2));
    assert_mentions(&msg, &["declared null count 0", "has 1 nulls"]);

    // Inside a struct, the error names the child.
    let fields = Fields::from(vec![
        Field::new("a", DataType::Int8, true),
        Field::new("b", DataType::Int32, true),
    ]);
    let s = StructArray::try_new(fields, 5, vec![int8s(&[1, 2, 3, 4, 5]), lie], None).unwrap();
    let msg = full_only_err(&Array::from(s));
    assert_eq!(
        msg,
        "child 1 (\"b\"): declared null count 0 but the validity bitmap has 1 nulls"
    );
}
