//! Property tests against slow, obviously-correct oracles (DESIGN.md §7).
//!
//! Random nested data types (up to three levels: lists, list views, fixed-size lists, structs,
//! maps, sparse and dense unions over primitives, strings, binaries, views, dictionaries and
//! run-end encoded leaves) and random values of them, modelled by [`model::Value`]. Arrays are
//! made by [`model::build`] (one `make_builder` append per value) and read back by
//! [`model::read`] (typed accessors only), so:
//!
//! - builders are checked against the model (`read(build(v)) == v`);
//! - full validation must accept every built array and every slice of it;
//! - slicing, `concat`, `logical_eq` / `first_difference` and `format_value` are checked against
//!   the model read back from the arrays;
//! - the same on long arrays (up to 300 slots, long runs of nulls and values) of flat and
//!   once-nested types, so that bitmap kernels see runs across 64-bit words;
//! - dictionaries whose values hold nulls ([`dictionary`]), and arrays with arbitrary
//!   contents under their null slots ([`garbage`]), against the builder-made arrays;
//! - bitmaps are checked against a `Vec<bool>` ([`bitmap`]), mutable buffers, offsets from
//!   lengths and views into external blocks against simple models ([`buffers`]).
//!
//! Every property runs [`CASES`] cases (`PROPTEST_CASES` overrides) from a fixed seed
//! (`PROPTEST_RNG_SEED` overrides): 2 to 4 s for all of them in the test profile. Failures
//! are not persisted to files: a minimised failure becomes an ordinary test.

mod bitmap;
mod buffers;
mod checks;
mod dictionary;
mod garbage;
mod model;
mod mutate;
mod strategy;

use checks::{
    EQ_MODES, EqCase, arb_cut, check_built, check_concat, check_eq, check_format, check_slices,
    check_validation,
};
use model::Value;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use quiver_arrow::DataType;
use strategy::{MAX_VALUES, arb_case, arb_long_values, arb_type, arb_type_of_depth, arb_values};

/// Cases per property unless `PROPTEST_CASES` is set. Mutation testing (deliberate bugs in
/// the kernels) showed rare layouts needing more than 256 cases to be hit reliably.
pub(crate) const CASES: u32 = 1024;

/// The seed used unless `PROPTEST_RNG_SEED` is set.
const SEED: u64 = 0x5155_4956_4552; // "QUIVER"

/// `cases` cases from the fixed seed, environment overrides respected, nothing persisted.
pub(crate) fn config(cases: u32) -> ProptestConfig {
    let mut c = ProptestConfig::default(); // reads the PROPTEST_* variables
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = cases;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        c.rng_seed = RngSeed::Fixed(SEED);
    }
    c.failure_persistence = None;
    c
}

type Values = fn(&DataType) -> BoxedStrategy<Vec<Value>>;

fn short_values(dt: &DataType) -> BoxedStrategy<Vec<Value>> {
    arb_values(dt, 0..=MAX_VALUES)
}

/// A type of `types` with values of `values`.
fn arb_typed(
    types: BoxedStrategy<DataType>,
    values: Values,
) -> impl Strategy<Value = (DataType, Vec<Value>)> {
    types.prop_flat_map(move |dt| (Just(dt.clone()), values(&dt)))
}

/// A type of `types` with two value vectors of it.
fn arb_typed_pair(
    types: BoxedStrategy<DataType>,
    values: Values,
) -> impl Strategy<Value = (DataType, Vec<Value>, Vec<Value>)> {
    types.prop_flat_map(move |dt| (Just(dt.clone()), values(&dt), values(&dt)))
}

/// An [`EqCase`] over a type of `types` with values of `values`.
fn arb_eq_case(types: BoxedStrategy<DataType>, values: Values) -> impl Strategy<Value = EqCase> {
    let pads = |dt: &DataType| (arb_values(dt, 0..=4), arb_values(dt, 0..=4));
    let case =
        types.prop_flat_map(move |dt| (Just(dt.clone()), values(&dt), values(&dt), pads(&dt)));
    (case, 0..EQ_MODES, any::<u64>()).prop_map(|((dt, a, fresh, pads), mode, seed)| EqCase {
        dt,
        a,
        fresh,
        pads,
        mode,
        seed,
    })
}

/// Flat and once-nested types with up to 300 values.
fn long_case() -> impl Strategy<Value = (DataType, Vec<Value>)> {
    arb_typed(arb_type_of_depth(1), arb_long_values)
}

proptest! {
    #![proptest_config(config(CASES))]

    /// Builders are correct (`read(build(v)) == v`, nulls, reuse after `finish`).
    #[test]
    fn build_reads_back((dt, vals) in arb_case(), split in 0.0f64..=1.0) {
        check_built(&dt, &vals, split)?;
    }

    /// Full validation accepts every built array and its slices.
    #[test]
    fn full_validation_accepts_built_arrays((dt, vals) in arb_case(), cut in arb_cut()) {
        check_validation(&dt, &vals, cut)?;
    }

    /// Slices and slices of slices match the sub-sequences of the values.
    #[test]
    fn slices_match_model((dt, vals) in arb_case(), outer in arb_cut(), inner in arb_cut()) {
        check_slices(&dt, &vals, outer, inner)?;
    }

    /// `logical_eq` / `first_difference` agree with the model.
    #[test]
    fn logical_eq_matches_model(c in arb_eq_case(arb_type(), short_values)) {
        check_eq(&c)?;
    }

    /// `concat` of slices matches the concatenated values.
    #[test]
    fn concat_matches_model(
        (dt, v1, v2) in arb_typed_pair(arb_type(), short_values),
        cuts in (arb_cut(), arb_cut()),
    ) {
        check_concat(&dt, &v1, &v2, cuts)?;
    }

    /// `format_value` renders every slot.
    #[test]
    fn format_value_renders_every_slot((dt, vals) in arb_case(), cut in arb_cut()) {
        check_format(&dt, &vals, cut)?;
    }
}

proptest! {
    #![proptest_config(config(CASES / 4))]

    /// Long arrays: builders, slices and formatting.
    #[test]
    fn long_arrays_build_slice_and_format(
        (dt, vals) in long_case(),
        split in 0.0f64..=1.0,
        cuts in (arb_cut(), arb_cut()),
    ) {
        check_built(&dt, &vals, split)?;
        check_slices(&dt, &vals, cuts.0, cuts.1)?;
        check_format(&dt, &vals, cuts.0)?;
    }

    /// Long arrays: full validation of every slice.
    #[test]
    fn long_arrays_validate(case in long_case(), cut in arb_cut()) {
        check_validation(&case.0, &case.1, cut)?;
    }

    /// Long arrays: `logical_eq` / `first_difference` against the model.
    #[test]
    fn long_arrays_logical_eq(c in arb_eq_case(arb_type_of_depth(1), arb_long_values)) {
        check_eq(&c)?;
    }

    /// Long arrays: `concat` of slices.
    #[test]
    fn long_arrays_concat(
        (dt, v1, v2) in arb_typed_pair(arb_type_of_depth(1), arb_long_values),
        cuts in (arb_cut(), arb_cut()),
    ) {
        check_concat(&dt, &v1, &v2, cuts)?;
    }
}
