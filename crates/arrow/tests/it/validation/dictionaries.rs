//! Validation rules: dictionaries.

use super::*;

fn dictionary() -> Arc<Array> {
    Arc::new(Array::from(StringArray::from_options([
        Some("foo"),
        Some("bar"),
        Some("baz"),
    ])))
}

#[track_caller]
fn assert_bad_keys(keys: Array, expected: &str) {
    let msg = err_text(DictionaryArray::try_new(keys.clone(), dictionary(), false));
    assert_eq!(msg, expected);
    let a = DictionaryArray::try_new_deferred(keys, dictionary(), false).unwrap();
    assert_eq!(full_only_err(&Array::from(a)), expected);
}

#[test]
fn dictionary_keys_must_be_in_range() {
    // Spec example: keys [0, 1, 0, 1, null, 2] into ['foo', 'bar', 'baz'].
    let keys =
        PrimitiveArray::<i32>::from_options([Some(0), Some(1), Some(0), Some(1), None, Some(2)]);
    let ok = DictionaryArray::try_new(Array::from(keys), dictionary(), false).unwrap();
    assert_valid(&Array::from(ok));

    let p = |v: Vec<i64>| Array::from(PrimitiveArray::<i64>::new(v));
    assert_bad_keys(
        Array::from(PrimitiveArray::<i8>::new(vec![0, -1, 2])),
        "dictionary key 1 is -1 but the dictionary has 3 values",
    );
    assert_bad_keys(
        Array::from(PrimitiveArray::<i32>::from_options([
            Some(0),
            None,
            Some(3),
        ])),
        "dictionary key 2 is 3 but the dictionary has 3 values",
    );
    assert_bad_keys(
        p(vec![i64::MIN]),
        "dictionary key 0 is -9223372036854775808 but the dictionary has 3 values",
    );
    assert_bad_keys(
        Array::from(PrimitiveArray::<u8>::new(vec![2, 1, 3])),
        "dictionary key 2 is 3 but the dictionary has 3 values",
    );
    assert_bad_keys(
        Array::from(PrimitiveArray::<u16>::new(vec![255, 0])),
        "dictionary key 0 is 255 but the dictionary has 3 values",
    );
    assert_bad_keys(
        Array::from(PrimitiveArray::<u64>::new(vec![0, 0, 0, u64::MAX])),
        "dictionary key 3 is 18446744073709551615 but the dictionary has 3 values",
    );

    // A null key may hold any value.
    let null_garbage = Array::from(
        PrimitiveArray::<i16>::try_new(
            DataType::Int16,
            vec![0, -300, 2].into(),
            Some(bits(&[1, 0, 1])),
        )
        .unwrap(),
    );
    let d = DictionaryArray::try_new(null_garbage, dictionary(), false).unwrap();
    assert_eq!(d.key(1), None);
    assert_valid(&Array::from(d));

    // Keys must be integers.
    let msg = err_text(DictionaryArray::try_new_deferred(
        Array::from(PrimitiveArray::<f32>::new(vec![0.0])),
        dictionary(),
        false,
    ));
    assert_eq!(msg, "dictionary keys must be integers, not Float32");
}

#[test]
fn trusting_dictionaries_skips_only_the_values() {
    // Values with invalid UTF-8 (built unchecked, as a reader does before validating).
    // SAFETY: the array is only validated, never read.
    let bad_values = unsafe {
        StringArray::new_unchecked_utf8(
            offsets::<i32>(&[0, 2, 4]),
            Buffer::from(vec![b'o', b'k', 0xFF, 0xFE]),
            None,
        )
    }
    .unwrap();
    let values: Arc<Array> = Arc::new(Array::from(bad_values));
    let keys = Array::from(PrimitiveArray::<i8>::new(vec![0, 1, 0]));
    let dict = Array::from(DictionaryArray::try_new(keys, values.clone(), false).unwrap());
    assert_mentions(&full_only_err(&dict), &["dictionary values", "UTF-8"]);
    dict.validate_trusting_dictionaries(ValidationLevel::Full)
        .unwrap();
    // Keys are still checked against the (trusted) values.
    let out_of_range = DictionaryArray::try_new_deferred(
        Array::from(PrimitiveArray::<i8>::new(vec![0, 2])),
        values,
        false,
    )
    .unwrap();
    let e = Array::from(out_of_range)
        .validate_trusting_dictionaries(ValidationLevel::Full)
        .unwrap_err()
        .to_string();
    assert_mentions(&e, &["dictionary key 1 is 2"]);
}
