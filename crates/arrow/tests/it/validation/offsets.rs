//! Validation rules: offsets of variable-size layouts.

use super::*;

#[test]
fn offsets_must_not_decrease() {
    // `OffsetBuffer` holds the invariant, so no array can carry decreasing offsets; the check
    // full validation re-runs is `check_offsets`, exercised here on the raw values.
    let good = [0i32, 3, 3, 7];
    check_offsets(&good).unwrap();
    OffsetBuffer::try_new(good.to_vec().into()).unwrap();

    let bad = vec![0i32, 3, 2, 7];
    let msg = err_text(OffsetBuffer::try_new(bad.clone().into()));
    assert_eq!(msg, "offsets decrease at index 2: 2 follows 3");
    assert_eq!(err_text(check_offsets(&bad)), msg);

    let bad_large = vec![0i64, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9];
    let msg = err_text(OffsetBuffer::try_new(bad_large.into()));
    assert_eq!(msg, "offsets decrease at index 11: 9 follows 10");

    // Equal offsets (empty values) are fine.
    OffsetBuffer::<i64>::try_new(vec![5, 5, 5].into()).unwrap();
}

#[test]
fn first_offset_must_not_be_negative() {
    let msg = err_text(OffsetBuffer::<i32>::try_new(vec![-1, 2, 3].into()));
    assert_eq!(msg, "first offset is negative (-1)");
    assert_eq!(
        err_text(check_offsets(&[-5i64, 0])),
        "first offset is negative (-5)"
    );
    // Offsets need `length + 1` values, so never zero.
    let msg = err_text(OffsetBuffer::<i32>::try_new(Vec::<i32>::new().into()));
    assert_mentions(&msg, &["offsets buffer is empty"]);
    // A non-zero first offset is allowed (a slice of a larger array).
    let o = OffsetBuffer::<i32>::try_new(vec![2, 3, 7].into()).unwrap();
    let a = BinaryArray::try_new(o, Buffer::from(b"joemark".to_vec()), None).unwrap();
    assert_eq!(a.get(1), Some(&b"mark"[..]));
}

#[test]
fn last_offset_must_be_within_values() {
    let data = || Buffer::from(b"joemark".to_vec());
    // Spec example: offsets 0, 3, 3, 3, 7 over "joemark".
    let good = BinaryArray::try_new(offsets(&[0, 3, 3, 3, 7]), data(), None).unwrap();
    assert_valid(&Array::from(good));

    let expected = "last offset 8 is beyond the end of the values (7 long)";
    let msg = err_text(BinaryArray::try_new(
        offsets(&[0, 3, 3, 3, 8]),
        data(),
        None,
    ));
    assert_eq!(msg, expected);
    let msg = err_text(LargeBinaryArray::try_new(
        offsets(&[0, 3, 3, 3, 8]),
        data(),
        None,
    ));
    assert_eq!(msg, expected);
    let msg = err_text(StringArray::try_new(
        offsets(&[0, 3, 3, 3, 8]),
        data(),
        None,
    ));
    assert_eq!(msg, expected);
    // SAFETY: the values are ASCII, so the UTF-8 precondition holds; the structural check
    // still runs and is what fails.
    let msg = err_text(unsafe {
        LargeStringArray::new_unchecked_utf8(offsets(&[0, 3, 3, 3, 8]), data(), None)
    });
    assert_eq!(msg, expected);

    // Lists: the offsets index the child.
    let child = int8s(&[12, -7, 25, 0, -127, 127, 50]);
    let ok = ListArray::try_new(
        item(DataType::Int8),
        offsets(&[0, 3, 3, 7, 7]),
        child.clone(),
        None,
    );
    assert_valid(&Array::from(ok.unwrap()));
    let msg = err_text(ListArray::try_new(
        item(DataType::Int8),
        offsets(&[0, 3, 3, 7, 8]),
        child.clone(),
        None,
    ));
    assert_eq!(
        msg,
        "last offset 8 is beyond the end of the values (7 long)"
    );
    let msg = err_text(LargeListArray::try_new(
        item(DataType::Int8),
        offsets(&[0, 9]),
        child,
        None,
    ));
    assert_mentions(&msg, &["last offset 9", "7 long"]);
}
