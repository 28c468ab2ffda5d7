//! Assembly of a path with exactly one repeated node (a list, or a map, with optional nodes
//! above and below it): the common case, done 64 level entries at a time.
//!
//! For a block of entries, a few masks say everything: which entries start a record
//! (`rep == 0`), which are elements of the list (`def` reaches the list's level), and, per
//! optional node, which reach its level. A node above the list takes one bit per record, so its
//! validity is its mask compressed to the record entries; a node below takes one per element,
//! its mask compressed to the element entries; the list's offsets are, at each record start, the
//! elements before it — a population count. No branch depends on a level, and with BMI2 the
//! compressions are single `pext` instructions (chosen at run time; a portable loop otherwise).

use super::undefined_list;
use crate::levels::mask::{BLOCK, Compress, Portable, ge_mask, low, padded, split_blocks};
use quiver_arrow::Result;
use quiver_arrow::buffer::{MutableBitmap, MutableBuffer};

/// The levels of a path with one repeated node.
pub(super) struct OneList<'l> {
    pub def: &'l [i16],
    pub rep: &'l [i16],
    /// The repeated node's definition level.
    pub list_level: i16,
}

/// What [`OneList::run`] assembles.
pub(super) struct Assembled<const A: usize, const B: usize> {
    /// Validity of the optional nodes above the list, one bit per record.
    pub top: [MutableBitmap; A],
    /// Validity of the optional nodes below the list, one bit per element.
    pub inner: [MutableBitmap; B],
    /// The list's `i64` offsets: one per record, and the end.
    pub offsets: MutableBuffer,
    pub records: usize,
    pub elements: usize,
}

impl OneList<'_> {
    /// Assembles with `A` optional nodes above the list at definition levels `top` and `B`
    /// below it at `inner` (the levels were checked against the path's maxima, and the first
    /// entry starts a record).
    pub fn run<const A: usize, const B: usize>(
        &self,
        top: [i16; A],
        inner: [i16; B],
    ) -> Result<Assembled<A, B>> {
        #[cfg(target_arch = "x86_64")]
        if let Some(bmi2) = crate::levels::mask::Bmi2::detect() {
            // SAFETY: `Bmi2::detect` found BMI1, BMI2 and POPCNT, the features `run_bmi2` is
            // compiled for.
            return unsafe { self.run_bmi2(bmi2, top, inner) };
        }
        self.blocks(Portable, top, inner)
    }

    /// [`OneList::blocks`] compiled for processors with BMI1, BMI2 and POPCNT (`tzcnt`,
    /// `popcnt` and `pext` instructions instead of loops).
    ///
    /// # Safety
    /// The processor must have those features (`bmi2` proves BMI2 only, hence `unsafe`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,popcnt")]
    unsafe fn run_bmi2<const A: usize, const B: usize>(
        &self,
        bmi2: crate::levels::mask::Bmi2,
        top: [i16; A],
        inner: [i16; B],
    ) -> Result<Assembled<A, B>> {
        self.blocks(bmi2, top, inner)
    }

    #[inline(always)]
    fn blocks<K: Compress, const A: usize, const B: usize>(
        &self,
        k: K,
        tl: [i16; A],
        bl: [i16; B],
    ) -> Result<Assembled<A, B>> {
        let n = self.def.len();
        let mut out = Assembled {
            top: std::array::from_fn(|_| MutableBitmap::with_capacity(n)),
            inner: std::array::from_fn(|_| MutableBitmap::with_capacity(n)),
            offsets: MutableBuffer::try_with_capacity((n + 1) * 8)?,
            records: 0,
            elements: 0,
        };
        let mut undefined = 0u64;
        let mut stage = [0i64; BLOCK];
        let (def, dt) = split_blocks(self.def);
        let (rep, rt) = split_blocks(self.rep);
        for (d, r) in def.zip(rep) {
            undefined |= self.block(k, d, r, u64::MAX, &tl, &bl, &mut stage, &mut out);
        }
        if !dt.is_empty() {
            // The tail, padded with entries the `valid` mask leaves out.
            let (d, r) = (padded(dt), padded(rt));
            undefined |= self.block(k, &d, &r, low(dt.len()), &tl, &bl, &mut stage, &mut out);
        }
        if undefined != 0 {
            let list = self.list_level;
            let (i, (&d, &r)) = self
                .def
                .iter()
                .zip(self.rep)
                .enumerate()
                .find(|&(_, (&d, &r))| r != 0 && d < list)
                .unwrap_or((0, (&0, &0))); // ok: `undefined` says there is one
            return Err(undefined_list(i, d, r));
        }
        out.offsets.push(out.elements as i64);
        Ok(out)
    }

    /// One block of entries (those set in `valid`); returns the entries that repeat a list
    /// they leave undefined (an error).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn block<K: Compress, const A: usize, const B: usize>(
        &self,
        k: K,
        d: &[i16; BLOCK],
        r: &[i16; BLOCK],
        valid: u64,
        tl: &[i16; A],
        bl: &[i16; B],
        stage: &mut [i64; BLOCK],
        out: &mut Assembled<A, B>,
    ) -> u64 {
        // Levels are at least 0 (checked), so `rep < 1` is `rep == 0`.
        let records = !ge_mask(r, 1) & valid;
        let elements = ge_mask(d, self.list_level) & valid;
        // Each record's offset: the elements before it.
        let mut rest = records;
        let mut i = 0;
        while rest != 0 {
            let p = rest.trailing_zeros();
            let before = (elements & ((1u64 << p) - 1)).count_ones() as usize;
            stage[i] = (out.elements + before) as i64;
            i += 1;
            rest &= rest - 1;
        }
        out.offsets.extend_from_slice(&stage[..i]);
        let (nr, ne) = (
            records.count_ones() as usize,
            elements.count_ones() as usize,
        );
        for (bits, &level) in out.top.iter_mut().zip(tl) {
            bits.append_word(k.compress(ge_mask(d, level), records), nr);
        }
        for (bits, &level) in out.inner.iter_mut().zip(bl) {
            bits.append_word(k.compress(ge_mask(d, level), elements), ne);
        }
        out.records += nr;
        out.elements += ne;
        !records & !elements & valid
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::test_util::Rng;

    /// The portable build and the one chosen for this processor assemble the same (the oracle
    /// tests in `assemble::tests` go through the chosen one only).
    #[test]
    fn the_portable_loop_assembles_as_the_chosen_one() {
        let mut rng = Rng::new(21);
        for len in [0usize, 1, 63, 64, 65, 1000, 4099] {
            // Levels of `optional, optional, repeated (level 3), optional, optional`.
            let mut def = Vec::with_capacity(len);
            let mut rep = Vec::with_capacity(len);
            for i in 0..len {
                let d = rng.below(6) as i16;
                // A repeat only inside a defined list, and the first entry starts a record.
                let r = i16::from(i > 0 && d >= 3 && rng.below(3) > 0);
                def.push(d);
                rep.push(r);
            }
            let lists = OneList {
                def: &def,
                rep: &rep,
                list_level: 3,
            };
            let a = lists.run([1, 2], [4, 5]).unwrap();
            let b = lists.blocks(Portable, [1, 2], [4, 5]).unwrap();
            assert_eq!((a.records, a.elements), (b.records, b.elements), "{len}");
            assert_eq!(a.offsets.as_slice(), b.offsets.as_slice(), "{len}");
            for (x, y) in a
                .top
                .iter()
                .chain(&a.inner)
                .zip(b.top.iter().chain(&b.inner))
            {
                let bits = |m: &MutableBitmap| (0..m.len()).map(|i| m.get(i)).collect::<Vec<_>>();
                assert_eq!(bits(x), bits(y), "{len}");
            }
        }
    }
}
