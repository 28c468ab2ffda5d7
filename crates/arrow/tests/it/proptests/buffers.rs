//! Decoder-grade buffers against simple models: `MutableBuffer` against a `Vec<u8>`,
//! `OffsetBuffer::from_lengths` against a naive prefix sum, and views appended into external
//! blocks against a `StringArray` of the same values.

use super::config;
use bytes::Bytes;
use proptest::collection::vec;
use proptest::prelude::*;
use quiver_arrow::buffer::{ALIGNMENT, MutableBuffer, OffsetBuffer};
use quiver_arrow::builder::StringViewBuilder;
use quiver_arrow::{Array, StringArray, ValidationLevel};

#[derive(Clone, Debug)]
enum Op {
    Extend(Vec<u8>),
    Zeros(usize),
    Constant(u32, usize),
    Truncate(usize),
    Clear,
    Reserve(usize),
    /// Writes these bytes into the spare capacity, then commits them with `set_len`.
    Spare(Vec<u8>),
}

fn arb_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => vec(any::<u8>(), 0..200).prop_map(Op::Extend),
        1 => (0usize..300).prop_map(Op::Zeros),
        // Past 1 MiB: the buffer moves to (or grows) a memory map whose fresh pages are zero.
        1 => (0usize..4096).prop_map(|n| Op::Zeros((1 << 20) + n)),
        1 => (any::<u32>(), 0usize..50).prop_map(|(v, n)| Op::Constant(v, n)),
        2 => (0usize..400).prop_map(Op::Truncate),
        1 => Just(Op::Clear),
        1 => (0usize..5000).prop_map(Op::Reserve),
        2 => vec(any::<u8>(), 0..100).prop_map(Op::Spare),
    ]
}

/// Values: ASCII, two- and three-byte characters, empty strings, long and short.
fn arb_strings() -> impl Strategy<Value = Vec<String>> {
    vec(
        vec(
            prop_oneof![Just('a'), Just('é'), Just('€'), Just('z')],
            0..20,
        ),
        0..30,
    )
    .prop_map(|vs| vs.into_iter().map(|cs| cs.into_iter().collect()).collect())
}

proptest! {
    #![proptest_config(config(super::CASES / 4))]

    /// Appends, reuse after `clear`/`truncate` and writes through the spare capacity keep the
    /// bytes of a `Vec<u8>` model, in heap allocations and in memory maps (whose known-zero
    /// pages must never be taken for zero once written); the frozen bytes are aligned and
    /// zero-padded.
    #[test]
    fn mutable_buffer_matches_vec(ops in vec(arb_op(), 0..30), mapped in any::<bool>()) {
        let mut b = MutableBuffer::with_capacity(if mapped { 3 << 20 } else { 0 });
        let mut model: Vec<u8> = Vec::new();
        for op in &ops {
            match op {
                Op::Extend(v) => {
                    b.extend_from_slice(v);
                    model.extend_from_slice(v);
                }
                Op::Zeros(n) => {
                    b.extend_zeros(*n);
                    model.extend(std::iter::repeat_n(0, *n));
                }
                Op::Constant(v, n) => {
                    b.extend_constant(*v, *n);
                    for _ in 0..*n {
                        model.extend_from_slice(&v.to_ne_bytes());
                    }
                }
                Op::Truncate(n) => {
                    b.truncate(*n);
                    model.truncate(*n);
                }
                Op::Clear => {
                    b.clear();
                    model.clear();
                }
                Op::Reserve(n) => {
                    b.try_reserve(*n).unwrap();
                    prop_assert!(b.capacity() >= b.len() + n);
                }
                Op::Spare(v) => {
                    b.reserve(v.len() + 64);
                    let spare = b.spare_capacity_mut();
                    for (slot, x) in spare.iter_mut().zip(v) {
                        slot.write(*x);
                    }
                    // Garbage written past what is committed must not come back as zeros.
                    for slot in spare.iter_mut().skip(v.len()).take(64) {
                        slot.write(0xEE);
                    }
                    // SAFETY: `reserve` made room and the loop wrote `v.len()` spare bytes.
                    unsafe { b.set_len(b.len() + v.len()) };
                    model.extend_from_slice(v);
                }
            }
            prop_assert_eq!(b.as_slice(), &model[..], "after {:?}", op);
            prop_assert_eq!(b.capacity() % ALIGNMENT, 0);
        }
        let frozen = b.freeze();
        prop_assert_eq!(&frozen[..], &model[..]);
        if !model.is_empty() {
            prop_assert_eq!(frozen.as_ptr() as usize % ALIGNMENT, 0);
            let padded = model.len().next_multiple_of(ALIGNMENT);
            // SAFETY: (test) a frozen buffer's allocation extends to the next multiple of 64
            // bytes and `freeze` zeroed that padding.
            let tail = unsafe { std::slice::from_raw_parts(frozen.as_ptr().add(model.len()), padded - model.len()) };
            prop_assert!(tail.iter().all(|&x| x == 0), "padding not zero");
        }
    }

    /// `from_lengths` equals a naive prefix sum, or reports overflow exactly when the naive
    /// sum leaves the offset type.
    #[test]
    fn offsets_from_lengths_match_prefix_sum(
        lengths in vec(prop_oneof![0usize..100, Just(i32::MAX as usize / 2), Just(usize::MAX / 2)], 0..20),
    ) {
        let mut naive = vec![0u128];
        for &l in &lengths {
            naive.push(naive.last().unwrap() + l as u128);
        }
        let fits32 = naive.iter().all(|&o| o <= i32::MAX as u128);
        match OffsetBuffer::<i32>::from_lengths(lengths.iter().copied()) {
            Ok(o) => {
                prop_assert!(fits32);
                let got: Vec<u128> = o.as_slice().iter().map(|&x| x as u128).collect();
                prop_assert_eq!(got, naive.clone());
            }
            Err(e) => prop_assert!(!fits32, "unexpected error {}", e),
        }
        let fits64 = naive.iter().all(|&o| o <= i64::MAX as u128);
        match OffsetBuffer::<i64>::from_lengths(lengths.iter().copied()) {
            Ok(o) => {
                prop_assert!(fits64);
                let got: Vec<u128> = o.as_slice().iter().map(|&x| x as u128).collect();
                prop_assert_eq!(got, naive);
            }
            Err(e) => prop_assert!(!fits64, "unexpected error {}", e),
        }
    }

    /// Views into a block of concatenated values (in any order, some repeated, nulls between)
    /// read back as a `StringArray` of the same values; a view cut inside a character fails.
    #[test]
    fn views_into_blocks_match_string_array(
        values in arb_strings(),
        picks in vec((any::<prop::sample::Index>(), any::<bool>()), 0..40),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut block = Vec::new();
        let mut ranges = Vec::new();
        for v in &values {
            ranges.push((block.len() as u32, v.len() as u32));
            block.extend_from_slice(v.as_bytes());
        }
        let block = Bytes::from(block);
        let mut b = StringViewBuilder::new();
        let k = b.append_block(block.clone()).unwrap();
        let mut expect: Vec<Option<&str>> = Vec::new();
        if !values.is_empty() {
            for (pick, null) in &picks {
                if *null {
                    b.append_null();
                    expect.push(None);
                } else {
                    let i = pick.index(values.len());
                    b.append_view(k, ranges[i].0, ranges[i].1).unwrap();
                    expect.push(Some(&values[i]));
                }
            }
        }
        // Any range of the block: accepted exactly when it is UTF-8 on its own.
        if !block.is_empty() {
            let start = cut.index(block.len());
            let len = (block.len() - start).min(7);
            let ok = std::str::from_utf8(&block[start..start + len]).is_ok();
            let r = b.append_view(k, start as u32, len as u32);
            prop_assert_eq!(r.is_ok(), ok, "range [{}, +{})", start, len);
            if ok {
                expect.push(Some(std::str::from_utf8(&block[start..start + len]).unwrap()));
            }
        }
        let a = b.finish();
        let oracle = StringArray::from_options(expect.iter().copied());
        prop_assert_eq!(a.iter().collect::<Vec<_>>(), oracle.iter().collect::<Vec<_>>());
        let a = Array::from(a);
        prop_assert!(a.validate(ValidationLevel::Full).is_ok());
    }
}
