//! Validation rules: utf-8.

use super::*;

/// Values `"joe"`, null (empty) and `"m\xffrk"` under offsets 0, 3, 3, 7: value 2 holds an
/// invalid byte at byte 4 of the values.
const BAD_UTF8: &[u8] = b"joem\xffrk";

fn invalid_utf8_case<O: Offset>()
where
    Array: From<GenericStringArray<O>>,
{
    let validity = || Some(bits(&[1, 0, 1]));
    let good = GenericStringArray::<O>::try_new(
        offsets(&[0, 3, 3, 7]),
        Buffer::from(b"joemark".to_vec()),
        validity(),
    )
    .unwrap();
    assert_eq!(good.get(2), Some("mark"));
    assert_valid(&Array::from(good));

    let expected = "value 2 is not valid UTF-8 (byte 4 of the values)";
    let msg = err_text(GenericStringArray::<O>::try_new(
        offsets(&[0, 3, 3, 7]),
        Buffer::from(BAD_UTF8.to_vec()),
        validity(),
    ));
    assert_eq!(msg, expected);

    // SAFETY: deliberately breaks the UTF-8 precondition to model a reader that defers the
    // check to full validation; the array is only validated, never read through `value`.
    let unchecked = unsafe {
        GenericStringArray::<O>::new_unchecked_utf8(
            offsets(&[0, 3, 3, 7]),
            Buffer::from(BAD_UTF8.to_vec()),
            validity(),
        )
    }
    .unwrap();
    assert_eq!(full_only_err(&Array::from(unchecked)), expected);
}

#[test]
fn utf8_values_must_be_valid_utf8() {
    invalid_utf8_case::<i32>();
}

#[test]
fn large_utf8_values_must_be_valid_utf8() {
    invalid_utf8_case::<i64>();
}

/// "héllo" is `68 c3 a9 6c 6c 6f`: an offset of 2 lands inside `é`.
fn split_char_case<O: Offset>()
where
    Array: From<GenericStringArray<O>>,
{
    let data = || Buffer::from("héllo".as_bytes().to_vec());
    let good = GenericStringArray::<O>::try_new(offsets(&[0, 3, 6]), data(), None).unwrap();
    assert_eq!(good.get(0), Some("hé"));
    assert_valid(&Array::from(good));

    // Value 0 ends inside `é` (its bytes `68 c3` are not UTF-8).
    let expected = "value 0 is not valid UTF-8 (byte 1 of the values)";
    let msg = err_text(GenericStringArray::<O>::try_new(
        offsets(&[0, 2, 6]),
        data(),
        None,
    ));
    assert_eq!(msg, expected);
    // SAFETY: deliberately breaks the UTF-8 precondition; the array is only passed to
    // validation, never read through `value`.
    let unchecked =
        unsafe { GenericStringArray::<O>::new_unchecked_utf8(offsets(&[0, 2, 6]), data(), None) }
            .unwrap();
    assert_eq!(full_only_err(&Array::from(unchecked)), expected);

    // The same split between two null slots is allowed: null slots may hold any bytes (the
    // format leaves them unspecified; pyarrow writes and accepts such data). They read as "".
    let nulls = Some(Bitmap::from(&[false, false][..]));
    let a = GenericStringArray::<O>::try_new(offsets(&[0, 2, 6]), data(), nulls.clone()).unwrap();
    assert_eq!(a.value(0), "");
    assert_valid(&Array::from(a));
    // A split between a null slot and a valid one is still caught in the valid one.
    let half = Some(Bitmap::from(&[false, true][..]));
    let msg = err_text(GenericStringArray::<O>::try_new(
        offsets(&[0, 2, 6]),
        data(),
        half,
    ));
    assert_eq!(msg, "value 1 is not valid UTF-8 (byte 2 of the values)");
}

#[test]
fn offsets_must_not_split_a_character() {
    split_char_case::<i32>();
    split_char_case::<i64>();
}
