//! Mutated gold and hand-written files: whatever one value is changed to, reading gives a
//! file or an error, never a panic (a deterministic, dependency-free fuzz of the reader).

use super::gold::{compare, integration_dir};
use super::spot_checks::gold_json;
use quiver_arrow::ValidationLevel;
use quiver_integration::{read_json, write_json};
use serde_json::{Value, json};

/// A small deterministic generator (64-bit LCG, high bits).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// JSON pointers to every value in `v`.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => o.iter().for_each(|(k, c)| {
            pointers(
                c,
                format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                out,
            )
        }),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, c)| pointers(c, format!("{at}/{i}"), out)),
        _ => {}
    }
    out.push(at);
}

fn replacements() -> Vec<Value> {
    vec![
        json!(0),
        json!(-1),
        json!(1),
        json!(2),
        json!(3),
        json!(13),
        json!(127),
        json!(128),
        json!(65536),
        json!(2147483648u64),
        json!(-9223372036854775808i64),
        json!(u64::MAX),
        json!("9223372036854775808"),
        json!("-1"),
        json!("x"),
        json!(""),
        json!("ZZ"),
        json!("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"),
        json!(null),
        json!(true),
        json!([]),
        json!({}),
        json!(1.5),
        json!([1]),
        json!(["0"]),
        json!({"name": "int"}),
        json!("struct"),
        json!("largelistview"),
        json!("DENSE"),
        json!("decimal256"),
        json!("NaN"),
    ]
}

/// Applies one random mutation: replace a value, delete a member, or drop an array element.
fn mutate(doc: &Value, rng: &mut Lcg, candidates: &[Value]) -> Value {
    let mut doc = doc.clone();
    let mut ptrs = Vec::new();
    pointers(&doc, String::new(), &mut ptrs);
    let target = ptrs[rng.next(ptrs.len())].clone();
    let (parent, key) = target.rsplit_once('/').unwrap_or(("", ""));
    match rng.next(4) {
        0 if !target.is_empty() => match doc.pointer_mut(parent) {
            Some(Value::Object(o)) => {
                o.shift_remove(&key.replace("~1", "/").replace("~0", "~"));
            }
            Some(Value::Array(a)) => {
                a.remove(
                    key.parse::<usize>()
                        .unwrap_or(0)
                        .min(a.len().saturating_sub(1)),
                );
            }
            _ => {}
        },
        _ => {
            if let Some(slot) = doc.pointer_mut(&target) {
                *slot = candidates[rng.next(candidates.len())].clone();
            }
        }
    }
    doc
}

fn seeds() -> Vec<(String, Value)> {
    let mut out = vec![
        (
            "newer layouts".to_string(),
            serde_json::from_str(super::types::NEWER_LAYOUTS).unwrap(),
        ),
        (
            "lenient forms".to_string(),
            serde_json::from_str(super::types::LENIENT_FORMS).unwrap(),
        ),
    ];
    if let Some(dir) = integration_dir() {
        for stem in [
            "generated_union",
            "generated_nested_dictionary",
            "generated_map",
            "generated_nested",
            "generated_extension",
            "generated_interval",
            "generated_nested_large_offsets",
            "generated_recursive_nested",
            "generated_null",
            "generated_dictionary_unsigned",
            "generated_map_non_canonical",
            "generated_custom_metadata",
            "generated_duplicate_fieldnames",
        ] {
            let path = dir
                .join("1.0.0-littleendian")
                .join(format!("{stem}.json.gz"));
            out.push((stem.to_string(), gold_json(&path)));
        }
    }
    out
}

#[test]
fn mutated_files_never_panic() {
    let candidates = replacements();
    let mut rng = Lcg(0x5eed);
    let mut failures = Vec::new();
    let (mut read, mut rejected) = (0, 0);
    for (name, doc) in seeds() {
        for round in 0..300 {
            let mut mutated = mutate(&doc, &mut rng, &candidates);
            for _ in 0..rng.next(3) {
                mutated = mutate(&mutated, &mut rng, &candidates);
            }
            let text = mutated.to_string();
            match std::panic::catch_unwind(|| {
                read_json(text.as_bytes()).map(|f| {
                    // What reads must validate (arrays come from checking constructors) and
                    // round trip through the writer.
                    for b in &f.batches {
                        for c in b.columns() {
                            c.validate(ValidationLevel::Full)
                                .expect("read arrays validate");
                        }
                    }
                    let written = write_json(&f).expect("what reads can be written");
                    let back = read_json(written.as_bytes()).expect("what is written reads");
                    if let Err(e) = compare(&f, &back) {
                        panic!("round trip differs: {e}");
                    }
                })
            }) {
                Ok(Ok(())) => read += 1,
                Ok(Err(_)) => rejected += 1,
                Err(_) => failures.push(format!("{name}, round {round}: panicked on {text}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(read > 0 && rejected > 0, "read {read}, rejected {rejected}");
}
