//! Arrays whose null slots hold arbitrary contents (builders always zero them): values under
//! null primitives, booleans and strings, non-empty child ranges under null lists, valid
//! children under null structs. `logical_eq` documents that null slots' contents are ignored,
//! so each must equal the builder-made array of the same model, also sliced and concatenated.
//! Validity comes in long runs so that runs of nulls start and end on and across 64-bit words.

use super::checks::{Cut, arb_cut, check_array, pick_slice};
use super::config;
use super::model::{Value, build};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseResult;
use quiver_arrow::buffer::OffsetBuffer;
use quiver_arrow::compute::{concat, first_difference, logical_eq};
use quiver_arrow::display::format_value;
use quiver_arrow::{
    Array, Bitmap, BooleanArray, DataType, Field, FieldRef, ListArray, PrimitiveArray, StringArray,
    StructArray,
};
use std::sync::Arc;

/// Everything a slot could hold, valid or not.
#[derive(Clone, Debug)]
struct Slot {
    valid: bool,
    int: i64,
    flag: bool,
    text: String,
    items: Vec<Option<i64>>,
}

/// The layouts under test.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Int64,
    Boolean,
    Utf8,
    ListOfInt64,
    Struct,
}

const KINDS: [Kind; 5] = [
    Kind::Int64,
    Kind::Boolean,
    Kind::Utf8,
    Kind::ListOfInt64,
    Kind::Struct,
];

fn validity_runs() -> impl Strategy<Value = Vec<bool>> {
    vec(
        (any::<bool>(), prop_oneof![1usize..=4, 1usize..=80]),
        0..=12,
    )
    .prop_map(|runs| {
        let mut v: Vec<bool> = runs
            .into_iter()
            .flat_map(|(b, n)| std::iter::repeat_n(b, n))
            .collect();
        v.truncate(300);
        v
    })
}

fn arb_slots() -> impl Strategy<Value = Vec<Slot>> {
    validity_runs().prop_flat_map(|valid| {
        let payload = (
            any::<i64>(),
            any::<bool>(),
            "\\PC{0,16}",
            vec(proptest::option::of(any::<i64>()), 0..=3),
        );
        vec(payload, valid.len()).prop_map(move |p| {
            (valid.iter().zip(p))
                .map(|(&valid, (int, flag, text, items))| Slot {
                    valid,
                    int,
                    flag,
                    text,
                    items,
                })
                .collect()
        })
    })
}

fn item() -> FieldRef {
    Arc::new(Field::new("item", DataType::Int64, true))
}

fn struct_fields() -> Vec<FieldRef> {
    vec![
        Arc::new(Field::new("i", DataType::Int64, false)),
        Arc::new(Field::new("s", DataType::Utf8, false)),
    ]
}

fn data_type(kind: Kind) -> DataType {
    match kind {
        Kind::Int64 => DataType::Int64,
        Kind::Boolean => DataType::Boolean,
        Kind::Utf8 => DataType::Utf8,
        Kind::ListOfInt64 => DataType::List(item()),
        Kind::Struct => DataType::Struct(struct_fields().into()),
    }
}

/// The model: null slots are null whatever they hold.
fn model(kind: Kind, slots: &[Slot]) -> Vec<Value> {
    let int = |x: Option<i64>| x.map_or(Value::Null, Value::Int);
    (slots.iter())
        .map(|s| match kind {
            _ if !s.valid => Value::Null,
            Kind::Int64 => Value::Int(s.int),
            Kind::Boolean => Value::Bool(s.flag),
            Kind::Utf8 => Value::Str(s.text.clone()),
            Kind::ListOfInt64 => Value::List(s.items.iter().map(|x| int(*x)).collect()),
            Kind::Struct => Value::Struct(vec![Value::Int(s.int), Value::Str(s.text.clone())]),
        })
        .collect()
}

fn strings<'a>(texts: impl Iterator<Item = &'a str>) -> StringArray {
    let mut offsets = vec![0i32];
    let mut bytes = Vec::new();
    for t in texts {
        bytes.extend_from_slice(t.as_bytes());
        offsets.push(i32::try_from(bytes.len()).expect("short strings"));
    }
    let offsets = OffsetBuffer::try_new(offsets.into()).expect("monotone offsets");
    StringArray::try_new(offsets, bytes.into(), None).expect("UTF-8 strings")
}

/// The array holding every slot's contents, nulls included, under the slots' validity.
fn with_garbage(kind: Kind, slots: &[Slot]) -> Array {
    let validity: Bitmap = slots.iter().map(|s| s.valid).collect();
    let ints = || slots.iter().map(|s| s.int).collect::<Vec<i64>>();
    let texts = || strings(slots.iter().map(|s| s.text.as_str()));
    let array = match kind {
        Kind::Int64 => PrimitiveArray::<i64>::new(ints())
            .with_validity(Some(validity))
            .map(Array::from),
        Kind::Boolean => {
            let flags: Bitmap = slots.iter().map(|s| s.flag).collect();
            BooleanArray::try_new(flags, Some(validity)).map(Array::from)
        }
        Kind::Utf8 => {
            let (offsets, values, _) = texts().into_parts();
            StringArray::try_new(offsets, values, Some(validity)).map(Array::from)
        }
        Kind::ListOfInt64 => {
            let child =
                PrimitiveArray::<i64>::from_options(slots.iter().flat_map(|s| s.items.clone()));
            let mut offsets = vec![0i32];
            for s in slots {
                offsets.push(offsets[offsets.len() - 1] + s.items.len() as i32);
            }
            let offsets = OffsetBuffer::try_new(offsets.into()).expect("monotone offsets");
            ListArray::try_new(item(), offsets, Array::from(child), Some(validity)).map(Array::from)
        }
        Kind::Struct => {
            let children = vec![
                Array::from(PrimitiveArray::<i64>::new(ints())),
                Array::from(texts()),
            ];
            StructArray::try_new(
                struct_fields().into(),
                slots.len(),
                children,
                Some(validity),
            )
            .map(Array::from)
        }
    };
    array.expect("a well-formed array")
}

fn check_garbage(kind: Kind, slots: &[Slot], cuts: (Cut, Cut), flip: f64) -> TestCaseResult {
    let dt = data_type(kind);
    let g = with_garbage(kind, slots);
    let m = model(kind, slots);
    check_array(&dt, &g, &m, "the array with contents under nulls")?;
    for (i, v) in m.iter().enumerate() {
        if *v == Value::Null {
            prop_assert_eq!(format_value(&g, i), "null", "slot {}", i);
        }
    }
    let built = build(&dt, &m);
    let (o1, l1) = pick_slice(g.len(), cuts.0);
    let (o2, l2) = pick_slice(g.len(), cuts.1);
    check_array(&dt, &g.slice(o1, l1), &m[o1..o1 + l1], "a slice")?;
    let c = concat(&[&g.slice(o1, l1), &built.slice(o2, l2), &g.slice(o2, l2)])
        .map_err(|e| TestCaseError::fail(format!("concat: {e}")))?;
    let expected: Vec<Value> = (m[o1..o1 + l1]
        .iter()
        .chain(&m[o2..o2 + l2])
        .chain(&m[o2..o2 + l2]))
    .cloned()
    .collect();
    check_array(&dt, &c, &expected, "concat of slices")?;

    // Nulls do not hide differences: one slot made null (or valid) on one side only.
    if !m.is_empty() {
        let i = ((m.len() as f64) * flip) as usize;
        let mut other = m.clone();
        let valid = Slot {
            valid: true,
            ..slots[i].clone()
        };
        other[i] = match &m[i] {
            Value::Null => model(kind, &[valid]).remove(0),
            _ => Value::Null,
        };
        let b = build(&dt, &other);
        let d = first_difference(&g, &b);
        prop_assert_eq!(
            d.as_ref().and_then(|d| d.index),
            Some(i),
            "difference {:?}",
            d
        );
        prop_assert!(!logical_eq(&b, &g));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(super::CASES / 2))]

    /// Contents under null slots never matter: reading, equality with the builder-made array,
    /// slices, `concat`, validation and rendering all see nulls.
    #[test]
    fn contents_under_nulls_are_ignored(
        kind in proptest::sample::select(KINDS.to_vec()),
        slots in arb_slots(),
        cuts in (arb_cut(), arb_cut()),
        flip in 0.0f64..1.0,
    ) {
        check_garbage(kind, &slots, cuts, flip)?;
    }
}
