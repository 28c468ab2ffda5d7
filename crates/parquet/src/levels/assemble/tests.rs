use super::*;
use crate::encoding::test_util::Rng;
use crate::levels::oracle::{V, assert_nested, expected, shred};
use Repetition::*;

fn random_value(path: &[Repetition], i: usize, rng: &mut Rng) -> V {
    if i == path.len() {
        return V::Leaf;
    }
    match path[i] {
        Required => V::One(Box::new(random_value(path, i + 1, rng))),
        Optional if rng.below(10) < 3 => V::Null,
        Optional => V::One(Box::new(random_value(path, i + 1, rng))),
        Repeated => V::List(
            (0..rng.below(4))
                .map(|_| random_value(path, i + 1, rng))
                .collect(),
        ),
    }
}

fn all_paths(max_len: usize) -> Vec<Vec<Repetition>> {
    let mut out: Vec<Vec<Repetition>> = vec![vec![]];
    let mut all = Vec::new();
    for _ in 0..max_len {
        out = out
            .iter()
            .flat_map(|p| [Required, Optional, Repeated].map(|n| [p.clone(), vec![n]].concat()))
            .collect();
        all.extend(out.clone());
    }
    all
}

#[test]
fn assembly_matches_the_structure_for_every_path_up_to_depth_4() {
    let mut rng = Rng::new(12);
    for path in all_paths(4) {
        let records = rng.below(40) as usize;
        check_against_oracle(&path, records, &mut rng);
    }
}

/// Paths with one repeated node are assembled 64 entries at a time: many records, so that
/// blocks, the tail after them, and records and lists across block boundaries all occur.
#[test]
fn one_list_paths_match_the_structure_across_blocks() {
    let mut rng = Rng::new(13);
    let one_list = all_paths(5)
        .into_iter()
        .filter(|p| p.iter().filter(|&&n| n == Repeated).count() == 1);
    for path in one_list {
        for records in [1, 63, 64, 65, 200, 1000] {
            check_against_oracle(&path, records + rng.below(3) as usize, &mut rng);
        }
    }
}

fn check_against_oracle(path: &[Repetition], records: usize, rng: &mut Rng) {
    let p = Path::new(path).unwrap();
    let records: Vec<V> = (0..records).map(|_| random_value(path, 0, rng)).collect();
    let mut levels = Vec::new();
    for rec in &records {
        shred(path, rec, &mut levels);
    }
    let want = expected(path, &records);
    let def: Vec<i16> = levels.iter().map(|l| l.0).collect();
    let rep: Vec<i16> = if p.max_rep() > 0 {
        levels.iter().map(|l| l.1).collect()
    } else {
        vec![]
    };
    let got = p.assemble(&def, &rep).unwrap();
    assert_eq!(got.slots[0], records.len(), "{path:?}");
    assert_nested(&got, &want, &format!("{path:?}"));
}

#[test]
fn levels_out_of_range_are_errors() {
    let p = Path::new(&[Optional, Repeated, Optional]).unwrap();
    assert_eq!((p.max_def(), p.max_rep()), (3, 1));
    assert!(p.assemble(&[4], &[0]).is_err());
    assert!(p.assemble(&[1], &[2]).is_err());
    assert!(p.assemble(&[-1], &[0]).is_err());
    assert!(p.assemble(&[3, 3], &[1, 0]).is_err(), "must start a record");
    assert!(
        p.assemble(&[3, 1], &[0, 1]).is_err(),
        "repeats an undefined list"
    );
    // The first entry that repeats an undefined list is named, wherever it is.
    for (def, rep, first) in [
        (&[3, 3, 0, 3, 1, 1][..], &[0, 1, 0, 0, 1, 1][..], 4),
        (&[2, 0, 1, 1], &[0, 1, 0, 1], 1),
    ] {
        let e = p.assemble(def, rep).unwrap_err().to_string();
        let d = def[first];
        assert!(
            e.contains(&format!(
                "level entry {first} repeats at level 1 but its definition level {d}"
            )),
            "{e}"
        );
    }
    assert!(p.assemble(&[3], &[]).is_err(), "repetition levels missing");
    assert!(p.assemble(&[3, 2, 0, 1], &[0, 1, 0, 0]).is_ok());
}
