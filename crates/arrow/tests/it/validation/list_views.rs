//! Validation rules: list views.

use super::*;

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
        GenericListViewArray::<O>::try_new_deferred
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
    let msg = err_text(GenericListViewArray::<O>::try_new_deferred(
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
    let a = LargeListViewArray::try_new_deferred(
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
