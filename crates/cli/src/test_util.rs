//! Pieces shared by the unit tests of several modules.

use quiver_arrow::{Array, DictionaryArray, PrimitiveArray, StringArray};

/// `n` (at most 128) rows of a dictionary<int8> array whose dictionary holds `n` values of
/// its own, `g{group}-{i}`, row `i` keyed to value `i`.
pub fn own_dictionary(group: usize, n: usize) -> Array {
    let names: Vec<String> = (0..n).map(|i| format!("g{group}-{i}")).collect();
    let values = StringArray::from_options(names.iter().map(|v| Some(v.as_str())));
    let keys = PrimitiveArray::<i8>::new((0..n).map(|i| i as i8).collect::<Vec<_>>());
    DictionaryArray::try_new(keys.into(), Array::from(values), false)
        .unwrap() // ok: test code (a #[cfg(test)] module)
        .into()
}

/// The strings of a dictionary-of-strings array without nulls, keys resolved.
pub fn dictionary_strings(a: &Array) -> Vec<String> {
    let d = a.as_dictionary().unwrap(); // ok: test code (a #[cfg(test)] module)
    let values = d.values().as_utf8().unwrap(); // ok: test code (a #[cfg(test)] module)
    (0..d.len())
        .map(|i| values.value(d.key(i).unwrap()).to_string()) // ok: test code (a #[cfg(test)] module)
        .collect()
}
