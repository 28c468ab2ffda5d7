//! One test per validation rule of the columnar format.
//!
//! Each test builds a valid array first (and checks that full validation accepts it), then
//! corrupts one thing through raw buffers or an unchecked constructor, and checks that
//! - the safe `try_new` rejects the corruption (where the rule is one `try_new` checks), and
//! - `validate` rejects it at the level the rule belongs to (`Structural` for O(1) rules,
//!   `Full` for content rules, which `Structural` must then still accept),
//!
//! with a message naming the index, child or column involved.
//!
//! Some rules are type invariants that no constructor can break (e.g. [`OffsetBuffer`] is
//! monotone by construction and its unchecked constructor asserts it in debug builds); for those
//! the test exercises the constructor and the checking function that full validation calls.
//! The UTF-8 rules are also preconditions of `unsafe` unchecked constructors: those tests break
//! the precondition on purpose, as a reader deferring the check would, and only ever pass the
//! array to validation (never to the accessors that rely on it).

use bytes::Bytes;
use quiver_arrow::buffer::{Offset, OffsetBuffer, check_offsets};
use quiver_arrow::datatype::{FieldRef, TimeUnit};
use quiver_arrow::*;
use std::sync::Arc;

// ---------------------------------------------------------------------------------------------
// Helpers

/// A bitmap from 0/1 digits, slot 0 first.
fn bits(slots: &[u8]) -> Bitmap {
    slots.iter().map(|&b| b == 1).collect()
}

fn field(name: &str, data_type: DataType, nullable: bool) -> FieldRef {
    Arc::new(Field::new(name, data_type, nullable))
}

fn item(data_type: DataType) -> FieldRef {
    field("item", data_type, true)
}

fn offsets<O: Offset>(v: &[usize]) -> OffsetBuffer<O> {
    let v: Vec<O> = v.iter().map(|&o| O::from_usize(o).unwrap()).collect();
    OffsetBuffer::try_new(v.into()).unwrap()
}

fn int8s(v: &[i8]) -> Array {
    Array::from(PrimitiveArray::<i8>::new(v.to_vec()))
}

/// Both levels accept `a`.
#[track_caller]
fn assert_valid(a: &Array) {
    for level in [ValidationLevel::Structural, ValidationLevel::Full] {
        if let Err(e) = a.validate(level) {
            panic!("{level:?} validation rejected a valid array: {e}");
        }
    }
}

/// `Structural` accepts `a` (the corruption is a content rule) and `Full` rejects it; returns
/// the message.
#[track_caller]
fn full_only_err(a: &Array) -> String {
    if let Err(e) = a.validate(ValidationLevel::Structural) {
        panic!("structural validation rejected a content-only corruption: {e}");
    }
    a.validate(ValidationLevel::Full)
        .expect_err("full validation accepted a corrupt array")
        .to_string()
}

/// `msg` contains every one of `needles`.
#[track_caller]
fn assert_mentions(msg: &str, needles: &[&str]) {
    for n in needles {
        assert!(msg.contains(n), "error {msg:?} does not mention {n:?}");
    }
}

#[track_caller]
fn err_text<T: std::fmt::Debug>(r: Result<T>) -> String {
    r.expect_err("constructor accepted invalid input")
        .to_string()
}

// ---------------------------------------------------------------------------------------------
// Validity bitmaps and null counts

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

// ---------------------------------------------------------------------------------------------
// Offsets of variable-size layouts

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

// ---------------------------------------------------------------------------------------------
// UTF-8

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

// ---------------------------------------------------------------------------------------------
// Views (BinaryView / Utf8View)

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
    let a = BinaryViewArray::new_unchecked_views(views.clone(), buffers.clone(), None).unwrap();
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

// ---------------------------------------------------------------------------------------------
// List views

/// Offset types built from `i64` test values (negative ones included).
trait TestOffset: Offset {
    fn of(x: i64) -> Self;
    fn buffer(v: &[i64]) -> Buffer<Self> {
        v.iter().map(|&x| Self::of(x)).collect()
    }
}
impl TestOffset for i32 {
    fn of(x: i64) -> Self {
        i32::try_from(x).expect("test value fits i32")
    }
}
impl TestOffset for i64 {
    fn of(x: i64) -> Self {
        x
    }
}

/// Spec example `[[12, -7, 25], null, [0, -127, 127, 50], []]` with the given offsets and
/// sizes (the spec's are 0, 7, 3, 0 and 3, 0, 4, 0), validity `1011` over the child
/// `12, -7, 25, 0, -127, 127, 50`.
fn list_view_case<O: TestOffset>(
    offs: &[i64],
    sizes: &[i64],
    checked: bool,
) -> Result<GenericListViewArray<O>> {
    let build = if checked {
        GenericListViewArray::<O>::try_new
    } else {
        GenericListViewArray::<O>::new_unchecked_views
    };
    build(
        item(DataType::Int8),
        O::buffer(offs),
        O::buffer(sizes),
        int8s(&[12, -7, 25, 0, -127, 127, 50]),
        Some(bits(&[1, 0, 1, 1])),
    )
}

fn list_view_rules<O: TestOffset>()
where
    Array: From<GenericListViewArray<O>>,
{
    let good = list_view_case::<O>(&[0, 7, 3, 0], &[3, 0, 4, 0], true).unwrap();
    assert_eq!(good.value(2).len(), 4);
    assert_valid(&Array::from(good));
    // An empty view may sit at the very end of the child (0 <= offset <= child length).
    let at_end = list_view_case::<O>(&[0, 7, 3, 7], &[3, 0, 4, 0], true).unwrap();
    assert_valid(&Array::from(at_end));

    let cases: [(&[i64], &[i64], &str); 5] = [
        (
            &[0, 7, -1, 0],
            &[3, 0, 4, 0],
            "list view 2 has offset -1 and size 4; both must be non-negative",
        ),
        (
            &[0, 7, 3, 0],
            &[-3, 0, 4, 0],
            "list view 0 has offset 0 and size -3; both must be non-negative",
        ),
        (
            &[0, 7, 4, 0],
            &[3, 0, 4, 0],
            "list view 2 spans [4, 8) but the child has 7 values",
        ),
        (
            &[0, 7, 3, 8],
            &[3, 0, 4, 0],
            "list view 3 spans [8, 8) but the child has 7 values",
        ),
        // Slot 1 is null, but the format requires the invariants of "every list-view value,
        // including null values".
        (
            &[0, 100, 3, 0],
            &[3, 5, 4, 0],
            "list view 1 spans [100, 105) but the child has 7 values",
        ),
    ];
    for (offs, sizes, expected) in cases {
        assert_eq!(err_text(list_view_case::<O>(offs, sizes, true)), expected);
        let unchecked = list_view_case::<O>(offs, sizes, false).unwrap();
        assert_eq!(full_only_err(&Array::from(unchecked)), expected);
    }

    // Structural: offsets and sizes must have the same length.
    let msg = err_text(GenericListViewArray::<O>::new_unchecked_views(
        item(DataType::Int8),
        O::buffer(&[0, 0, 0, 0]),
        O::buffer(&[0, 0, 0]),
        int8s(&[1]),
        None,
    ));
    assert_eq!(msg, "4 offsets but 3 sizes");
}

#[test]
fn list_view_offsets_and_sizes_in_bounds() {
    list_view_rules::<i32>();
}

#[test]
fn large_list_view_offsets_and_sizes_in_bounds() {
    list_view_rules::<i64>();
}

#[test]
fn large_list_view_offset_plus_size_overflow_is_an_error_with_a_path() {
    let a = LargeListViewArray::new_unchecked_views(
        item(DataType::Int8),
        vec![0, i64::MAX].into(),
        vec![1, 1].into(),
        int8s(&[1]),
        None,
    )
    .unwrap();
    let expected = "list view 1 has offset 9223372036854775807 and size 1, whose sum overflows";
    assert_eq!(full_only_err(&Array::from(a.clone())), expected);
    let fields = Fields::from(vec![Field::new("l", a.data_type().clone(), true)]);
    let s = StructArray::try_new(fields, 2, vec![Array::from(a)], None).unwrap();
    assert_eq!(
        full_only_err(&Array::from(s)),
        format!("child 0 (\"l\"): {expected}")
    );
}

// ---------------------------------------------------------------------------------------------
// Fixed-size layouts and structs

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

fn names(n: usize) -> Array {
    Array::from(StringArray::from_options(
        ["joe", "alice", "mark", "bob"]
            .into_iter()
            .take(n)
            .map(Some),
    ))
}

fn ages(n: usize) -> Array {
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

// ---------------------------------------------------------------------------------------------
// Maps

fn entries_field(key_nullable: bool) -> FieldRef {
    field(
        "entries",
        DataType::Struct(Fields::from(vec![
            Field::new("key", DataType::Utf8, key_nullable),
            Field::new("value", DataType::Int32, true),
        ])),
        false,
    )
}

fn map_entries(keys: Array) -> StructArray {
    let DataType::Struct(fields) = entries_field(false).data_type().clone() else {
        unreachable!()
    };
    let n = keys.len();
    StructArray::try_new(fields, n, vec![keys, ages(n)], None).unwrap()
}

#[test]
fn map_keys_must_not_be_null() {
    let keys = |k: [Option<&str>; 4]| Array::from(StringArray::from_options(k));
    let ok = MapArray::try_new(
        entries_field(false),
        false,
        offsets(&[0, 2, 4]),
        map_entries(keys([Some("a"), Some("b"), Some("c"), Some("d")])),
        None,
    )
    .unwrap();
    assert_valid(&Array::from(ok));

    let with_null = map_entries(keys([Some("a"), Some("b"), None, Some("d")]));
    let msg = err_text(MapArray::try_new(
        entries_field(false),
        false,
        offsets(&[0, 2, 4]),
        with_null.clone(),
        None,
    ));
    assert_eq!(msg, "map key 2 is null");
    // Entries the offsets do not reference are not part of any map.
    let short = MapArray::try_new(
        entries_field(false),
        false,
        offsets(&[0, 2]),
        with_null,
        None,
    );
    assert_valid(&Array::from(short.unwrap()));

    // A key column that understates its nulls passes the constructor (which trusts the
    // declared count) but not full validation, which names the path to the keys.
    let lying = Bitmap::try_new_with_unset(Bytes::from_static(&[0b1011]), 0, 4, 0).unwrap();
    let (o, v, _) =
        StringArray::from_options([Some("a"), Some("b"), Some("c"), Some("d")]).into_parts();
    let lying_keys = Array::from(StringArray::try_new(o, v, Some(lying)).unwrap());
    let m = MapArray::try_new(
        entries_field(false),
        false,
        offsets(&[0, 2, 4]),
        map_entries(lying_keys),
        None,
    )
    .unwrap();
    let msg = full_only_err(&Array::from(m));
    assert_eq!(
        msg,
        "child 0 (\"entries\"), child 0 (\"key\"): declared null count 0 but the validity \
         bitmap has 1 nulls"
    );
}

#[test]
fn map_entries_must_be_a_two_field_struct_with_non_nullable_keys() {
    let map = |entries: DataType| DataType::Map(field("entries", entries, false), false);
    let kv = |fields: Vec<Field>| DataType::Struct(Fields::from(fields));
    let key = Field::new("key", DataType::Utf8, false);
    let value = Field::new("value", DataType::Int32, true);

    map(kv(vec![key.clone(), value.clone()]))
        .validate()
        .unwrap();
    let cases = [
        (map(DataType::Int32), "Map entries must be a Struct"),
        (
            map(kv(vec![key.clone()])),
            "Map entries struct has 1 fields, expected 2",
        ),
        (
            map(kv(vec![key.clone(), value.clone(), value.clone()])),
            "Map entries struct has 3 fields, expected 2",
        ),
        (
            map(kv(vec![key.clone().with_nullable(true), value.clone()])),
            "Map keys must not be nullable",
        ),
        // Nested inside another type, still found.
        (
            DataType::list_of(map(kv(vec![key.with_nullable(true), value]))),
            "Map keys must not be nullable",
        ),
    ];
    for (dt, expected) in cases {
        assert_eq!(err_text(dt.validate()), expected, "{dt}");
    }

    // The array constructor applies the same rule.
    let msg = err_text(MapArray::try_new(
        entries_field(true),
        false,
        offsets(&[0, 1]),
        map_entries(names(1)),
        None,
    ));
    assert_eq!(msg, "Map keys must not be nullable");
}

// ---------------------------------------------------------------------------------------------
// Unions

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
        UnionArray::new_unchecked_ids
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
    let a = UnionArray::new_unchecked_ids(
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
    let msg = err_text(UnionArray::new_unchecked_ids(
        fields.clone(),
        UnionMode::Sparse,
        ids(),
        None,
        vec![i.clone(), f.clone(), s(5)],
    ));
    assert_eq!(msg, expected);
    // Mode and offsets must agree.
    let msg = err_text(UnionArray::new_unchecked_ids(
        fields,
        UnionMode::Sparse,
        ids(),
        Some(vec![0; 6].into()),
        vec![i, f, s(6)],
    ));
    assert_eq!(msg, "sparse union has an offsets buffer");
}

// ---------------------------------------------------------------------------------------------
// Dictionaries

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
    let a = DictionaryArray::new_unchecked_keys(keys, dictionary(), false).unwrap();
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
    let msg = err_text(DictionaryArray::new_unchecked_keys(
        Array::from(PrimitiveArray::<f32>::new(vec![0.0])),
        dictionary(),
        false,
    ));
    assert_eq!(msg, "dictionary keys must be integers, not Float32");
}

// ---------------------------------------------------------------------------------------------
// Run-end encoding

/// Spec example values `[1.0, null, 2.0]`.
fn run_values() -> Array {
    Array::from(PrimitiveArray::<f32>::from_options([
        Some(1.0),
        None,
        Some(2.0),
    ]))
}

fn run_ends_of<T: PrimitiveType + TryFrom<i64>>(v: &[i64]) -> Array
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
    let a = RunEndArray::new_unchecked_runs(run_ends, run_values(), offset, len).unwrap();
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
    let msg = err_text(RunEndArray::new_unchecked_runs(
        nullable,
        run_values(),
        0,
        7,
    ));
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

// ---------------------------------------------------------------------------------------------
// Type parameters

#[test]
fn decimal_precision_must_be_in_range() {
    let cases = [
        (
            DataType::Decimal32 {
                precision: 10,
                scale: 0,
            },
            "Decimal32 precision 10 is outside 1..=9",
        ),
        (
            DataType::Decimal64 {
                precision: 19,
                scale: 2,
            },
            "Decimal64 precision 19 is outside 1..=18",
        ),
        (
            DataType::Decimal128 {
                precision: 39,
                scale: 0,
            },
            "Decimal128 precision 39 is outside 1..=38",
        ),
        (
            DataType::Decimal128 {
                precision: 0,
                scale: 0,
            },
            "Decimal128 precision 0 is outside 1..=38",
        ),
        (
            DataType::Decimal256 {
                precision: 77,
                scale: 0,
            },
            "Decimal256 precision 77 is outside 1..=76",
        ),
    ];
    for (dt, expected) in &cases {
        assert_eq!(&err_text(dt.validate()), expected);
        // Nested types check their children's parameters.
        assert_eq!(
            &err_text(DataType::list_of(dt.clone()).validate()),
            expected
        );
    }
    for dt in [
        DataType::Decimal32 {
            precision: 9,
            scale: 2,
        },
        DataType::Decimal64 {
            precision: 18,
            scale: 0,
        },
        DataType::Decimal128 {
            precision: 38,
            scale: 10,
        },
        DataType::Decimal256 {
            precision: 1,
            scale: 0,
        },
    ] {
        dt.validate().unwrap();
    }

    // The array constructor rejects them too, so no array carries such a type.
    let ok = PrimitiveArray::<I128>::try_new(
        DataType::Decimal128 {
            precision: 38,
            scale: 2,
        },
        vec![I128::from(12345)].into(),
        None,
    );
    assert_valid(&Array::from(ok.unwrap()));
    let msg = err_text(PrimitiveArray::<I128>::try_new(
        DataType::Decimal128 {
            precision: 39,
            scale: 0,
        },
        vec![I128::from(1)].into(),
        None,
    ));
    assert_eq!(msg, "Decimal128 precision 39 is outside 1..=38");
    let msg = err_text(
        PrimitiveArray::<i32>::new(vec![1]).with_data_type(DataType::Decimal32 {
            precision: 10,
            scale: 0,
        }),
    );
    assert_eq!(msg, "Decimal32 precision 10 is outside 1..=9");
}

#[test]
fn time_units_must_match_bit_width() {
    assert_eq!(
        err_text(DataType::Time32(TimeUnit::Nanosecond).validate()),
        "Time32 cannot have unit Nanosecond"
    );
    assert_eq!(
        err_text(DataType::Time32(TimeUnit::Microsecond).validate()),
        "Time32 cannot have unit Microsecond"
    );
    assert_eq!(
        err_text(DataType::Time64(TimeUnit::Second).validate()),
        "Time64 cannot have unit Second"
    );
    DataType::Time32(TimeUnit::Millisecond).validate().unwrap();
    DataType::Time64(TimeUnit::Nanosecond).validate().unwrap();

    let ok =
        PrimitiveArray::<i32>::new(vec![1000]).with_data_type(DataType::Time32(TimeUnit::Second));
    assert_valid(&Array::from(ok.unwrap()));
    let msg = err_text(
        PrimitiveArray::<i32>::new(vec![1000])
            .with_data_type(DataType::Time32(TimeUnit::Nanosecond)),
    );
    assert_eq!(msg, "Time32 cannot have unit Nanosecond");
}

// ---------------------------------------------------------------------------------------------
// Paths in nested errors, record batches

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
    let bad_union = UnionArray::new_unchecked_ids(
        fields,
        UnionMode::Sparse,
        vec![0, 9].into(),
        None,
        vec![int8s(&[1, 2])],
    )
    .unwrap();
    let bad_runs =
        RunEndArray::new_unchecked_runs(run_ends_of::<i32>(&[4, 2, 7]), run_values(), 0, 7)
            .unwrap();
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
