//! Dictionaries whose values hold nulls and duplicates (which the deduplicating builder never
//! makes on its own): a builder seeded with [`DictionaryBuilder::with_values`], then keys
//! appended by value, by index into the seed (possibly a null value) and as nulls.

use super::config;
use super::model::{Value, build, read};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use quiver_arrow::builder::DictionaryBuilder;
use quiver_arrow::compute::{concat, first_difference, logical_eq};
use quiver_arrow::display::format_value;
use quiver_arrow::{Array, DataType, IntegerType, StringArray, StringViewArray, ValidationLevel};

const WORDS: [&str; 5] = ["", "x", "y", "twelve bytes", "a value longer than a view"];

const KEY_TYPES: [IntegerType; 8] = [
    IntegerType::Int8,
    IntegerType::Int16,
    IntegerType::Int32,
    IntegerType::Int64,
    IntegerType::UInt8,
    IntegerType::UInt16,
    IntegerType::UInt32,
    IntegerType::UInt64,
];

/// One append to the dictionary builder.
#[derive(Clone, Debug)]
enum Op {
    Str(&'static str),
    /// A key into the seed values, at this fraction of their number.
    Key(f64),
    Null,
}

fn arb_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => select(WORDS.to_vec()).prop_map(Op::Str),
        3 => (0.0f64..1.0).prop_map(Op::Key),
        1 => Just(Op::Null),
    ]
}

fn arb_seed() -> impl Strategy<Value = Vec<Option<&'static str>>> {
    vec(
        proptest::option::weighted(0.75, select(WORDS.to_vec())),
        0..8,
    )
}

fn to_value(s: Option<&str>) -> Value {
    s.map_or(Value::Null, |s| Value::Str(s.to_string()))
}

/// The seeded dictionary array of `ops`, and its model (resolved values).
fn build_seeded(
    key: IntegerType,
    view: bool,
    seed: &[Option<&'static str>],
    ops: &[Op],
) -> (Array, Vec<Value>) {
    let seed_array = if view {
        Array::from(StringViewArray::from_options(seed.iter().copied()))
    } else {
        Array::from(StringArray::from_options(seed.iter().copied()))
    };
    let mut b = DictionaryBuilder::with_values(key, &seed_array).expect("a string dictionary");
    let mut model = Vec::new();
    for op in ops {
        match op {
            Op::Str(s) => {
                b.append_str(s).expect("room for the pool's words");
                model.push(Value::Str(s.to_string()));
            }
            Op::Key(f) if !seed.is_empty() => {
                let k = ((seed.len() as f64) * f) as usize;
                b.append_key(k).expect("a key into the seed");
                model.push(to_value(seed[k]));
            }
            Op::Key(_) | Op::Null => {
                b.append_null();
                model.push(Value::Null);
            }
        }
    }
    (Array::from(b.finish()), model)
}

proptest! {
    #![proptest_config(config(super::CASES / 4))]

    /// A slot whose key points at a null value reads as null, compares equal to a null slot,
    /// renders as `null`, and survives slicing and `concat`.
    #[test]
    fn dictionary_with_null_values_matches_model(
        key in select(KEY_TYPES.to_vec()),
        view in any::<bool>(),
        seed in arb_seed(),
        ops in vec(arb_op(), 0..60),
        cut in (0.0f64..=1.0, 0.0f64..=1.0),
    ) {
        let (a, model) = build_seeded(key, view, &seed, &ops);
        let value_type = if view { DataType::Utf8View } else { DataType::Utf8 };
        let dt = DataType::dictionary(key, value_type);
        prop_assert_eq!(a.data_type(), &dt);
        prop_assert_eq!(&read(&a), &model);
        let d = a.as_dictionary().expect("a dictionary");
        let seed_values: Vec<Value> = seed.iter().map(|s| to_value(*s)).collect();
        let dictionary = read(d.values());
        prop_assert_eq!(&dictionary[..seed.len()], &seed_values[..], "the seed stays in place");
        for (i, v) in model.iter().enumerate() {
            prop_assert_eq!(d.is_null_value(i), *v == Value::Null, "is_null_value({})", i);
            if *v == Value::Null {
                prop_assert_eq!(format_value(&a, i), "null", "format_value({})", i);
            }
        }
        a.validate(ValidationLevel::Full).map_err(|e| TestCaseError::fail(e.to_string()))?;

        // The deduplicating builder makes the same logical array with nulls as null keys.
        let plain = build(&dt, &model);
        prop_assert!(logical_eq(&a, &plain), "{:?}", first_difference(&a, &plain));
        prop_assert!(logical_eq(&plain, &a), "{:?}", first_difference(&plain, &a));

        let n = model.len();
        let o = ((n as f64) * cut.0) as usize;
        let l = (((n - o) as f64) * cut.1) as usize;
        let s = a.slice(o, l);
        prop_assert_eq!(&read(&s), &model[o..o + l].to_vec());
        let fresh = build(&dt, &model[o..o + l]);
        prop_assert!(logical_eq(&s, &fresh), "{:?}", first_difference(&s, &fresh));

        let c = concat(&[&s, &plain, &s]).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let expected: Vec<Value> =
            model[o..o + l].iter().chain(&model).chain(&model[o..o + l]).cloned().collect();
        prop_assert_eq!(&read(&c), &expected);
        c.validate(ValidationLevel::Full).map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
}
