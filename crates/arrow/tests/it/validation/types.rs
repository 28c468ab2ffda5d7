//! Validation rules: type parameters.

use super::*;

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
