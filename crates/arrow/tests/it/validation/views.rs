//! Validation rules: views (binaryview / utf8view).

use super::*;

const LONG: &[u8] = b"abcdefghijklmnop"; // 16 bytes: stored out of line

fn view_parts(long_view: View) -> (Buffer<View>, Arc<[Buffer<u8>]>) {
    let views = vec![View::inline(b"joe"), long_view];
    (views.into(), Arc::new([Buffer::from(LONG.to_vec())]))
}

fn good_long_view() -> View {
    View::reference(16, *b"abcd", 0, 0)
}

/// A corrupt second view is rejected by `try_new` of both view types and by full validation
/// of arrays built with the unchecked constructors; `Structural` accepts it.
#[track_caller]
fn assert_bad_view(long_view: View, expected: &str) {
    let (views, buffers) = view_parts(long_view);
    let msg = err_text(BinaryViewArray::try_new(
        views.clone(),
        buffers.clone(),
        None,
    ));
    assert_eq!(msg, expected);
    let msg = err_text(StringViewArray::try_new(
        views.clone(),
        buffers.clone(),
        None,
    ));
    assert_eq!(msg, expected);
    let a = BinaryViewArray::try_new_deferred(views.clone(), buffers.clone(), None).unwrap();
    assert_eq!(full_only_err(&Array::from(a)), expected);
    // SAFETY: deliberately breaks the in-bounds precondition; the array is only validated.
    let s = unsafe { StringViewArray::new_unchecked(views, buffers, None) }.unwrap();
    assert_eq!(full_only_err(&Array::from(s)), expected);
}

#[test]
fn views_reference_valid_buffers_and_ranges() {
    let (views, buffers) = view_parts(good_long_view());
    let a = StringViewArray::try_new(views, buffers, None).unwrap();
    assert_eq!(a.get(1), Some("abcdefghijklmnop"));
    assert_valid(&Array::from(a));
}

#[test]
fn view_buffer_index_must_exist() {
    assert_bad_view(
        View::reference(16, *b"abcd", 1, 0),
        "view 1 references data buffer 1 but there are 1",
    );
}

#[test]
fn view_offset_plus_length_must_be_in_buffer() {
    assert_bad_view(
        View::reference(16, *b"bcde", 0, 1),
        "view 1 references bytes [1, 17) of data buffer 0 which has 16",
    );
    // Large offsets do not wrap around.
    assert_bad_view(
        View::reference(16, *b"abcd", 0, u32::MAX),
        "view 1 references bytes [4294967295, 4294967311) of data buffer 0 which has 16",
    );
}

#[test]
fn view_prefix_must_match_data() {
    assert_bad_view(
        View::reference(16, *b"abce", 0, 0),
        "view 1 has prefix [97, 98, 99, 101] but its data starts with [97, 98, 99, 100]",
    );
}

#[test]
fn utf8_view_values_must_be_valid_utf8() {
    // Out of line: a 0xff at byte 5 of the referenced data.
    let mut data = LONG.to_vec();
    data[5] = 0xff;
    let views: Buffer<View> = vec![View::inline(b"ok"), View::reference(16, *b"abcd", 0, 0)].into();
    let buffers: Arc<[Buffer<u8>]> = Arc::new([Buffer::from(data)]);
    // Fine as binary ...
    let b = BinaryViewArray::try_new(views.clone(), buffers.clone(), None).unwrap();
    assert_valid(&Array::from(b));
    // ... but not as UTF-8.
    let msg = err_text(StringViewArray::try_new(
        views.clone(),
        buffers.clone(),
        None,
    ));
    assert_eq!(msg, "view 1 is not valid UTF-8");
    // SAFETY: deliberately breaks the UTF-8 precondition; the array is only validated.
    let s = unsafe { StringViewArray::new_unchecked(views, buffers, None) }.unwrap();
    assert_eq!(full_only_err(&Array::from(s)), "view 1 is not valid UTF-8");

    // Inline: the invalid byte sits inside the view itself.
    let views: Buffer<View> = vec![View::inline(b"ok"), View::inline(b"\xc3(")].into();
    let msg = err_text(StringViewArray::try_new(views.clone(), Arc::new([]), None));
    assert_eq!(msg, "view 1 is not valid UTF-8");
    // SAFETY: as above.
    let s = unsafe { StringViewArray::new_unchecked(views, Arc::new([]), None) }.unwrap();
    assert_eq!(full_only_err(&Array::from(s)), "view 1 is not valid UTF-8");
}

#[test]
fn null_view_slots_are_not_validated() {
    // Null slots may hold anything (columnar format: "any masked memory can have any value"):
    // here an out-of-range buffer index, an offset past the end and a wrong prefix.
    let garbage = View::reference(100, *b"zzzz", 7, 1 << 30);
    let views: Buffer<View> = vec![View::inline(b"joe"), garbage, View::inline(b"\xff")].into();
    let validity = Some(bits(&[1, 0, 0]));
    let b = BinaryViewArray::try_new(views.clone(), Arc::new([]), validity.clone()).unwrap();
    assert_eq!(b.get(1), None);
    assert_eq!(b.value(1), b"");
    assert_valid(&Array::from(b));
    let s = StringViewArray::try_new(views.clone(), Arc::new([]), validity).unwrap();
    assert_eq!(s.iter().collect::<Vec<_>>(), vec![Some("joe"), None, None]);
    assert_valid(&Array::from(s));
    // The same views without the nulls are rejected, at the first garbage slot.
    let msg = err_text(BinaryViewArray::try_new(views, Arc::new([]), None));
    assert_eq!(msg, "view 1 references data buffer 7 but there are 0");
}
