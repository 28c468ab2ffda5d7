//! Bitmaps against a `Vec<bool>` oracle, at random bit offsets over bytes whose bits outside
//! the bitmap are random too (so padding and prefix bits must be ignored).

use super::config;
use bytes::Bytes;
use proptest::collection::vec;
use proptest::prelude::*;
use quiver_arrow::Bitmap;
use quiver_arrow::buffer::MutableBitmap;

/// Random bytes holding a bitmap of `len` bits at bit `offset`, with up to 9 spare bytes.
#[derive(Clone, Debug)]
struct Raw {
    bytes: Vec<u8>,
    offset: usize,
    len: usize,
}

impl Raw {
    fn bitmap(&self) -> Bitmap {
        Bitmap::try_new(Bytes::from(self.bytes.clone()), self.offset, self.len)
            .expect("the bytes cover the bits")
    }
    /// The oracle: bit `offset + i` of the bytes, LSB first.
    fn bits(&self) -> Vec<bool> {
        (0..self.len)
            .map(|i| {
                let p = self.offset + i;
                (self.bytes[p / 8] >> (p % 8)) & 1 == 1
            })
            .collect()
    }
}

fn arb_raw_of_len(len: usize) -> impl Strategy<Value = Raw> {
    (0usize..70, 0usize..10).prop_flat_map(move |(offset, spare)| {
        let n = (offset + len).div_ceil(8) + spare;
        vec(any::<u8>(), n).prop_map(move |bytes| Raw { bytes, offset, len })
    })
}

fn arb_raw() -> impl Strategy<Value = Raw> {
    prop_oneof![0usize..20, 0usize..300].prop_flat_map(arb_raw_of_len)
}

/// Two bitmaps of the same length at independent offsets.
fn arb_raw_pair() -> impl Strategy<Value = (Raw, Raw)> {
    (0usize..300).prop_flat_map(|len| (arb_raw_of_len(len), arb_raw_of_len(len)))
}

fn count_unset(bits: &[bool]) -> usize {
    bits.iter().filter(|&&b| !b).count()
}

/// Everything a bitmap reports about its bits, checked against `bits`.
fn check_bitmap(b: &Bitmap, bits: &[bool], what: &str) -> Result<(), TestCaseError> {
    prop_assert_eq!(b.len(), bits.len(), "{} len", what);
    prop_assert_eq!(b.iter().collect::<Vec<_>>(), bits.to_vec(), "{} iter", what);
    let got: Vec<bool> = (0..b.len()).map(|i| b.get(i)).collect();
    prop_assert_eq!(got, bits.to_vec(), "{} get", what);
    prop_assert_eq!(b.count_unset(), count_unset(bits), "{} count_unset", what);
    prop_assert_eq!(b.unset_bits(), count_unset(bits), "{} unset_bits", what);
    prop_assert_eq!(
        b.set_bits(),
        bits.len() - count_unset(bits),
        "{} set_bits",
        what
    );
    let set: Vec<usize> = (0..bits.len()).filter(|&i| bits[i]).collect();
    prop_assert_eq!(
        b.set_indices().collect::<Vec<_>>(),
        set,
        "{} set_indices",
        what
    );
    let words: Vec<u64> = b.chunks().collect();
    prop_assert_eq!(
        words.len(),
        bits.len().div_ceil(64),
        "{} number of chunks",
        what
    );
    for (i, &bit) in bits.iter().enumerate() {
        prop_assert_eq!(
            (words[i / 64] >> (i % 64)) & 1 == 1,
            bit,
            "{} chunk bit {}",
            what,
            i
        );
    }
    if bits.len() % 64 != 0 {
        let last = words[words.len() - 1];
        prop_assert_eq!(last >> (bits.len() % 64), 0, "{} chunk padding", what);
    }
    let aligned = b.to_aligned();
    prop_assert_eq!(aligned.offset(), 0, "{} to_aligned offset", what);
    prop_assert_eq!(
        aligned.iter().collect::<Vec<_>>(),
        bits.to_vec(),
        "{} to_aligned",
        what
    );
    let rebuilt: Bitmap = bits.iter().copied().collect();
    prop_assert!(
        *b == rebuilt,
        "{} differs from the bitmap of its bits",
        what
    );
    Ok(())
}

/// The bits after the last one in the bytes of a freshly made bitmap are zero (`not`
/// documents it; every bitmap this crate allocates keeps its padding clear).
fn check_padding(b: &Bitmap, what: &str) -> Result<(), TestCaseError> {
    let bytes = b.bytes();
    for p in b.offset() + b.len()..bytes.len() * 8 {
        prop_assert_eq!(
            (bytes[p / 8] >> (p % 8)) & 1,
            0,
            "{} padding bit {} is set",
            what,
            p
        );
    }
    Ok(())
}

fn fraction_pair() -> impl Strategy<Value = (f64, f64)> {
    (0.0f64..=1.0, 0.0f64..=1.0)
}

fn pick(n: usize, (x, y): (f64, f64)) -> (usize, usize) {
    let o = (((n as f64) * x) as usize).min(n);
    let l = ((((n - o) as f64) * y) as usize).min(n - o);
    (o, l)
}

/// One operation on a mutable bitmap.
#[derive(Clone, Debug)]
enum Op {
    Push(bool),
    Constant(usize, bool),
    /// The low `n` bits of a word (random bits above `n` must be ignored).
    Word(u64, usize),
    FromBitmap(Raw),
    FromBytes(Raw),
    /// Sets bit `fraction * len` (when there is one).
    Set(f64, bool),
}

fn arb_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => any::<bool>().prop_map(Op::Push),
        2 => (0usize..200, any::<bool>()).prop_map(|(n, v)| Op::Constant(n, v)),
        2 => (any::<u64>(), 0usize..=64).prop_map(|(w, n)| Op::Word(w, n)),
        2 => arb_raw().prop_map(Op::FromBitmap),
        1 => arb_raw().prop_map(Op::FromBytes),
        2 => (0.0f64..1.0, any::<bool>()).prop_map(|(f, v)| Op::Set(f, v)),
    ]
}

proptest! {
    #![proptest_config(config(super::CASES / 4))]

    /// Reading, counting, iterating and re-chunking a bitmap at any bit offset.
    #[test]
    fn bitmap_reads_match_oracle(raw in arb_raw()) {
        check_bitmap(&raw.bitmap(), &raw.bits(), "bitmap")?;
    }

    /// Slices and slices of slices, with the parent's unset count cached or not (a slice may
    /// inherit a cached count of 0 or of all bits).
    #[test]
    fn bitmap_slices_match_oracle(
        raw in arb_raw(),
        outer in fraction_pair(),
        inner in fraction_pair(),
        count_parent_first in any::<bool>(),
    ) {
        let (b, bits) = (raw.bitmap(), raw.bits());
        if count_parent_first {
            prop_assert_eq!(b.unset_bits(), count_unset(&bits));
        }
        let (o1, l1) = pick(bits.len(), outer);
        let s1 = b.slice(o1, l1);
        check_bitmap(&s1, &bits[o1..o1 + l1], "slice")?;
        let (o2, l2) = pick(l1, inner);
        let s2 = s1.slice(o2, l2);
        check_bitmap(&s2, &bits[o1 + o2..o1 + o2 + l2], "slice of slice")?;
    }

    /// `and`, `or` and `not` of bitmaps at different offsets.
    #[test]
    fn bitmap_logic_matches_oracle((x, y) in arb_raw_pair()) {
        let (a, b) = (x.bitmap(), y.bitmap());
        let (p, q) = (x.bits(), y.bits());
        let and: Vec<bool> = p.iter().zip(&q).map(|(l, r)| *l && *r).collect();
        let or: Vec<bool> = p.iter().zip(&q).map(|(l, r)| *l || *r).collect();
        let not: Vec<bool> = p.iter().map(|v| !v).collect();
        for (r, bits, what) in [
            (a.and(&b), &and, "and"),
            (a.or(&b), &or, "or"),
            (a.not(), &not, "not"),
            (a.not().not(), &p, "not not"),
            (a.to_aligned(), &p, "to_aligned"),
        ] {
            check_bitmap(&r, bits, what)?;
            check_padding(&r, what)?;
        }
    }

    /// Bitmaps that differ in one bit are unequal.
    #[test]
    fn bitmap_eq_sees_every_bit(raw in arb_raw(), at in 0.0f64..1.0) {
        let mut bits = raw.bits();
        prop_assume!(!bits.is_empty());
        let b = raw.bitmap();
        let i = ((bits.len() as f64) * at) as usize;
        bits[i] = !bits[i];
        let flipped: Bitmap = bits.iter().copied().collect();
        prop_assert!(b != flipped, "bit {} flipped but the bitmaps compare equal", i);
    }

    /// `MutableBitmap` pushes, constant runs, words, copies of bitmaps and bytes at any offset
    /// and sets, then `freeze`, against a `Vec<bool>`; the unset count is kept as it goes.
    #[test]
    fn mutable_bitmap_matches_oracle(ops in vec(arb_op(), 0..40)) {
        let mut m = MutableBitmap::new();
        let mut bits: Vec<bool> = Vec::new();
        for op in &ops {
            match op {
                Op::Push(v) => {
                    m.push(*v);
                    bits.push(*v);
                }
                Op::Constant(n, v) => {
                    m.append_n(*v, *n);
                    bits.extend(std::iter::repeat_n(*v, *n));
                }
                Op::Word(w, n) => {
                    m.append_word(*w, *n);
                    bits.extend((0..*n).map(|i| (w >> i) & 1 == 1));
                }
                Op::FromBitmap(raw) => {
                    m.extend_from_bitmap(&raw.bitmap());
                    bits.extend(raw.bits());
                }
                Op::FromBytes(raw) => {
                    m.extend_from_bytes(&raw.bytes, raw.offset, raw.len);
                    bits.extend(raw.bits());
                }
                Op::Set(f, v) => {
                    if !bits.is_empty() {
                        let i = ((bits.len() as f64) * f) as usize;
                        m.set(i, *v);
                        bits[i] = *v;
                    }
                }
            }
            prop_assert_eq!(m.len(), bits.len(), "after {:?}", op);
            let unset = bits.iter().filter(|b| !**b).count();
            prop_assert_eq!(m.unset_bits(), unset, "unset count after {:?}", op);
        }
        let got: Vec<bool> = (0..m.len()).map(|i| m.get(i)).collect();
        prop_assert_eq!(&got, &bits, "get before freeze");
        let frozen = m.freeze();
        prop_assert_eq!(frozen.unset_bits(), frozen.count_unset(), "declared count");
        check_bitmap(&frozen, &bits, "frozen")?;
        check_padding(&frozen, "frozen")?;
        check_bitmap(&Bitmap::new_constant(true, bits.len()), &vec![true; bits.len()], "ones")?;
        check_bitmap(&Bitmap::new_constant(false, bits.len()), &vec![false; bits.len()], "zeros")?;
    }
}
