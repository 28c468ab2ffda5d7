//! The checks behind the properties, shared by the nested-type and the long-array properties.

use super::model::{Value, build, build_batches, canon_all, is_null_slot, read};
use super::mutate::{merge_all, retag_all, tweak_all};
use proptest::prelude::*;
use proptest::test_runner::TestCaseResult;
use quiver_arrow::compute::{concat, first_difference, logical_eq};
use quiver_arrow::display::format_value;
use quiver_arrow::{Array, DataType, ValidationLevel};

/// Two fractions, turned into a slice by [`pick_slice`].
pub type Cut = (f64, f64);

/// A fraction, `0` and `1` (empty slices, slices at the end) being common.
fn fraction() -> impl Strategy<Value = f64> {
    prop_oneof![1 => Just(0.0), 1 => Just(1.0), 4 => 0.0f64..=1.0]
}

/// A random [`Cut`].
pub fn arb_cut() -> impl Strategy<Value = Cut> {
    (fraction(), fraction())
}

/// A slice `(offset, len)` of an array of length `n`.
pub fn pick_slice(n: usize, (x, y): Cut) -> (usize, usize) {
    let offset = (((n as f64) * x) as usize).min(n);
    let len = (((n - offset) as f64) * y) as usize;
    (offset, len.min(n - offset))
}

fn fail(what: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(what.to_string())
}

fn validate_full(a: &Array, what: &str) -> TestCaseResult {
    a.validate(ValidationLevel::Full).map_err(|e| {
        fail(format!(
            "full validation rejected {what} ({}): {e}",
            a.data_type()
        ))
    })
}

/// `is_null`, `null_count` and the validity bitmap of `a` agree with the model's nulls.
fn check_nulls(a: &Array, expected: &[Value], what: &str) -> TestCaseResult {
    let nulls: Vec<bool> = expected.iter().map(is_null_slot).collect();
    let is_null: Vec<bool> = (0..a.len()).map(|i| a.is_null(i)).collect();
    prop_assert_eq!(&is_null, &nulls, "{} is_null", what);
    let count = nulls.iter().filter(|&&n| n).count();
    prop_assert_eq!(a.null_count(), count, "{} null_count", what);
    if let Some(v) = a.validity() {
        prop_assert_eq!(v.len(), a.len(), "{} validity length", what);
        prop_assert_eq!(v.unset_bits(), count, "{} validity unset bits", what);
    }
    Ok(())
}

/// `a`, of type `dt`, reads back as `expected` with the model's nulls, is logically equal to a
/// freshly built array of those values, and passes full validation.
pub fn check_array(dt: &DataType, a: &Array, expected: &[Value], what: &str) -> TestCaseResult {
    prop_assert_eq!(a.data_type(), dt, "{} type", what);
    prop_assert_eq!(a.len(), expected.len(), "{} length", what);
    prop_assert_eq!(&read(a), expected, "{} read back", what);
    check_nulls(a, expected, what)?;
    let fresh = build(dt, expected);
    prop_assert!(
        logical_eq(a, &fresh),
        "{} differs from the same values built afresh: {:?}",
        what,
        first_difference(a, &fresh)
    );
    validate_full(a, what)
}

/// Builders are correct: every value reads back, with the type requested and the model's
/// nulls, also one slot at a time; a builder reused after `finish` builds the next batch as a
/// fresh one would.
pub fn check_built(dt: &DataType, vals: &[Value], split: f64) -> TestCaseResult {
    let a = build(dt, vals);
    check_array(dt, &a, vals, "the built array")?;
    let k = ((vals.len() as f64) * split) as usize;
    let batches = build_batches(dt, &[&vals[..k], &vals[k..]]);
    check_array(
        dt,
        &batches[0],
        &vals[..k],
        "first batch of a reused builder",
    )?;
    check_array(
        dt,
        &batches[1],
        &vals[k..],
        "second batch of a reused builder",
    )?;
    for (i, v) in vals.iter().enumerate() {
        prop_assert_eq!(
            read(&a.slice(i, 1)),
            vec![v.clone()],
            "slot {} as a slice",
            i
        );
    }
    Ok(())
}

/// Full validation accepts the built array, every prefix and suffix, every one-slot slice and
/// a slice of every suffix.
pub fn check_validation(dt: &DataType, vals: &[Value], cut: Cut) -> TestCaseResult {
    let a = build(dt, vals);
    a.validate(ValidationLevel::Structural).map_err(fail)?;
    validate_full(&a, "the built array")?;
    let n = a.len();
    for offset in 0..=n {
        let suffix = a.slice(offset, n - offset);
        validate_full(&suffix, &format!("slice({offset}, {})", n - offset))?;
        validate_full(&a.slice(0, offset), &format!("slice(0, {offset})"))?;
        if offset < n {
            validate_full(&a.slice(offset, 1), &format!("slice({offset}, 1)"))?;
        }
        let (o, l) = pick_slice(suffix.len(), cut);
        validate_full(
            &suffix.slice(o, l),
            &format!("slice({offset}, ..).slice({o}, {l})"),
        )?;
    }
    Ok(())
}

/// A slice and a slice of it match the sub-sequences of the values.
pub fn check_slices(dt: &DataType, vals: &[Value], outer: Cut, inner: Cut) -> TestCaseResult {
    let a = build(dt, vals);
    let (o1, l1) = pick_slice(a.len(), outer);
    let s1 = a.slice(o1, l1);
    check_array(dt, &s1, &vals[o1..o1 + l1], &format!("slice({o1}, {l1})"))?;
    let (o2, l2) = pick_slice(l1, inner);
    let s2 = s1.slice(o2, l2);
    let what = format!("slice({o1}, {l1}).slice({o2}, {l2})");
    check_array(dt, &s2, &vals[o1 + o2..o1 + o2 + l2], &what)
}

/// Inputs of [`check_eq`]: values `a`, random values `fresh` of the same type, values to pad
/// the other side with, and how to derive the other side.
#[derive(Clone, Debug)]
pub struct EqCase {
    pub dt: DataType,
    pub a: Vec<Value>,
    pub fresh: Vec<Value>,
    pub pads: (Vec<Value>, Vec<Value>),
    /// Which `b` to compare with (see [`check_eq`]).
    pub mode: u8,
    pub seed: u64,
}

/// Number of [`EqCase::mode`]s.
pub const EQ_MODES: u8 = 8;

/// `a` with one top-level slot's validity flipped: a valid slot made null, or a null slot
/// given the value `fresh` has there (unions, which have no validity, are left alone).
fn flip_validity(dt: &DataType, a: &[Value], fresh: &[Value], seed: u64) -> Vec<Value> {
    let mut b = a.to_vec();
    if a.is_empty() || matches!(dt, DataType::Union(..)) {
        return b;
    }
    let i = (seed % a.len() as u64) as usize;
    b[i] = match &a[i] {
        Value::Null => fresh.get(i).cloned().unwrap_or(Value::Null),
        _ => Value::Null,
    };
    b
}

/// `logical_eq` and `first_difference` agree with the model: equal exactly when the values
/// are (null union slots equal whatever their type ids), with the first differing slot
/// reported. `b` is `a` itself, `a` with its null union slots given other type ids, `a` with
/// one slot's validity flipped, `a` with a few leaves changed in place (same lengths), `a` with
/// a few parts swapped for random ones, or random; and it is built inside padding and sliced
/// out, so offsets differ between the two sides.
pub fn check_eq(c: &EqCase) -> TestCaseResult {
    let (dt, a, fresh, seed) = (&c.dt, &c.a, &c.fresh, c.seed);
    let b = match c.mode {
        0 => a.clone(),
        1 => retag_all(dt, a, seed),
        2 => merge_all(a, fresh, seed, 16),
        3 => retag_all(dt, &merge_all(a, fresh, seed, 4), seed),
        4 => flip_validity(dt, a, fresh, seed),
        5 => tweak_all(a, seed, 8),
        _ => fresh.clone(),
    };
    let x = build(dt, a);
    let padded: Vec<Value> = c
        .pads
        .0
        .iter()
        .chain(&b)
        .chain(&c.pads.1)
        .cloned()
        .collect();
    let y = build(dt, &padded).slice(c.pads.0.len(), b.len());
    let equal = canon_all(a) == canon_all(&b);
    let d = first_difference(&x, &y);
    prop_assert_eq!(
        logical_eq(&x, &y),
        equal,
        "logical_eq; first_difference: {:?}",
        d
    );
    prop_assert_eq!(logical_eq(&y, &x), equal, "logical_eq is not symmetric");
    prop_assert_eq!(x == y, equal, "PartialEq for Array");
    prop_assert_eq!(d.is_none(), equal, "first_difference: {:?}", d);
    if let Some(d) = d {
        let (ca, cb) = (canon_all(a), canon_all(&b));
        let expected = if a.len() == b.len() {
            (0..a.len()).find(|&i| ca[i] != cb[i])
        } else {
            None
        };
        prop_assert_eq!(d.index, expected, "first differing slot; difference: {}", d);
    }
    Ok(())
}

/// `concat` of slices of two arrays (also of one slice, and of a slice, an empty array and the
/// slice again) matches the concatenated values.
pub fn check_concat(dt: &DataType, v1: &[Value], v2: &[Value], cuts: (Cut, Cut)) -> TestCaseResult {
    let (a1, a2) = (build(dt, v1), build(dt, v2));
    let (o1, l1) = pick_slice(a1.len(), cuts.0);
    let (o2, l2) = pick_slice(a2.len(), cuts.1);
    let (p1, p2) = (a1.slice(o1, l1), a2.slice(o2, l2));
    let (w1, w2) = (&v1[o1..o1 + l1], &v2[o2..o2 + l2]);
    let concat = |parts: &[&Array]| concat(parts).map_err(|e| fail(format!("concat: {e}")));
    let both: Vec<Value> = w1.iter().chain(w2).cloned().collect();
    check_array(dt, &concat(&[&p1, &p2])?, &both, "concat of two slices")?;
    check_array(dt, &concat(&[&p2])?, w2, "concat of one slice")?;
    let twice: Vec<Value> = w1.iter().chain(w1).cloned().collect();
    let three = concat(&[&p1, &a2.slice(0, 0), &p1])?;
    check_array(
        dt,
        &three,
        &twice,
        "concat of a slice, an empty slice and the slice",
    )
}

/// `format_value` renders every slot of the array and of a slice without panicking; null slots
/// render as `null`, top-level strings, integers and booleans as themselves.
pub fn check_format(dt: &DataType, vals: &[Value], cut: Cut) -> TestCaseResult {
    let a = build(dt, vals);
    let (o, l) = pick_slice(a.len(), cut);
    let plain = matches!(
        dt,
        DataType::Int8
            | DataType::Int32
            | DataType::Int64
            | DataType::UInt16
            | DataType::UInt64
            | DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
            | DataType::Boolean
    );
    for (arr, vs) in [(a.clone(), vals), (a.slice(o, l), &vals[o..o + l])] {
        for (i, v) in vs.iter().enumerate() {
            let text = format_value(&arr, i);
            match v {
                _ if is_null_slot(v) => prop_assert_eq!(&text, "null", "slot {}: {:?}", i, v),
                Value::Int(x) if plain => prop_assert_eq!(&text, &x.to_string()),
                Value::UInt(x) if plain => prop_assert_eq!(&text, &x.to_string()),
                Value::Bool(x) if plain => prop_assert_eq!(&text, &x.to_string()),
                Value::Str(x) if plain => prop_assert_eq!(&text, x),
                _ => {}
            }
        }
    }
    Ok(())
}
