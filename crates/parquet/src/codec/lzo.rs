//! An LZO1X decompressor (the format of `lzo1x_1_compress` and its siblings), written from the
//! stream format as the Linux kernel's `Documentation/staging/lzo.rst` describes it.
//!
//! A stream is a sequence of instructions; each copies a run of literals from the input or a
//! match from the output already written, and most carry a 2-bit count `S` of literals that
//! follow the match. How an instruction byte below 16 reads depends on the state left by the
//! previous one: after a match with no literals (state 0) it starts a long literal run; after
//! 1–3 literals it is a 2-byte match within 1 KiB; after a run of 4 or more literals it is a
//! 3-byte match 2–3 KiB back. A match at distance 16384 ends the stream.
//!
//! Every read is bounds-checked against the input and every write against the output, so corrupt
//! input is an error, never an overrun.

use quiver_arrow::{Error, Result};

struct Input<'a> {
    src: &'a [u8],
    pos: usize,
}

impl Input<'_> {
    fn byte(&mut self) -> Result<u8> {
        let b = *self
            .src
            .get(self.pos)
            .ok_or_else(|| Error::oos(format!("LZO stream ends early, at byte {}", self.pos)))?;
        self.pos += 1;
        Ok(b)
    }

    fn le16(&mut self) -> Result<usize> {
        let lo = self.byte()? as usize;
        Ok(lo | (self.byte()? as usize) << 8)
    }

    /// A length whose low bits were zero in the instruction: `base` plus 255 per zero byte plus
    /// the first non-zero byte.
    fn long_length(&mut self, base: usize) -> Result<usize> {
        let mut len = base;
        loop {
            match self.byte()? {
                0 => len += 255,
                b => return Ok(len + b as usize),
            }
        }
    }
}

struct Output<'a> {
    out: &'a mut [u8],
    pos: usize,
}

impl Output<'_> {
    fn literals(&mut self, input: &mut Input, n: usize) -> Result<()> {
        let src = input.src.get(input.pos..input.pos + n).ok_or_else(|| {
            Error::oos(format!(
                "LZO literal run of {n} bytes at byte {} runs past the input",
                input.pos
            ))
        })?;
        let dst = self
            .out
            .get_mut(self.pos..self.pos + n)
            .ok_or_else(|| overflow(n))?;
        dst.copy_from_slice(src);
        input.pos += n;
        self.pos += n;
        Ok(())
    }

    fn matched(&mut self, distance: usize, len: usize) -> Result<()> {
        if distance == 0 || distance > self.pos {
            return Err(Error::oos(format!(
                "LZO match {distance} bytes back at output byte {} reaches before the start",
                self.pos
            )));
        }
        if self.pos + len > self.out.len() {
            return Err(overflow(len));
        }
        let from = self.pos - distance;
        if distance >= len {
            self.out.copy_within(from..from + len, self.pos);
        } else {
            // Overlapping: each byte may be one this match just wrote.
            for i in 0..len {
                self.out[self.pos + i] = self.out[from + i];
            }
        }
        self.pos += len;
        Ok(())
    }
}

fn overflow(n: usize) -> Error {
    Error::oos(format!(
        "LZO data decompresses to more than the declared size (a run of {n} bytes does not fit)"
    ))
}

/// Decompresses the LZO1X stream `src` into `out`; returns the bytes written (at most
/// `out.len()`: more is an error).
pub fn decompress(src: &[u8], out: &mut [u8]) -> Result<usize> {
    let mut input = Input { src, pos: 0 };
    let mut output = Output { out, pos: 0 };
    // Literals copied by the previous instruction: 0, 1–3, or 4 for "four or more".
    let mut state = 0usize;
    if let Some(&first) = src.first().filter(|&&b| b > 17) {
        input.pos = 1;
        let n = first as usize - 17;
        output.literals(&mut input, n)?;
        state = n.min(4);
    }
    loop {
        let t = input.byte()? as usize;
        let (distance, len, follow) = if t < 16 {
            match state {
                0 => {
                    let n = if t == 0 {
                        input.long_length(18)?
                    } else {
                        t + 3
                    };
                    output.literals(&mut input, n)?;
                    state = 4;
                    continue;
                }
                1..=3 => ((input.byte()? as usize) << 2 | t >> 2, 2, t & 3),
                _ => (((input.byte()? as usize) << 2 | t >> 2) + 2048, 3, t & 3),
            }
        } else if t < 32 {
            let len = if t & 7 == 0 {
                input.long_length(9)?
            } else {
                (t & 7) + 2
            };
            let d = input.le16()?;
            let distance = 16384 + ((t & 8) << 11) + (d >> 2);
            if distance == 16384 {
                return Ok(output.pos);
            }
            (distance - 1, len, d & 3)
        } else if t < 64 {
            let len = if t & 31 == 0 {
                input.long_length(33)?
            } else {
                (t & 31) + 2
            };
            let d = input.le16()?;
            (d >> 2, len, d & 3)
        } else {
            let len = if t < 128 {
                3 + (t >> 5 & 1)
            } else {
                5 + (t >> 5 & 3)
            };
            ((input.byte()? as usize) << 3 | (t >> 2 & 7), len, t & 3)
        };
        // `distance` above is one less than the real distance (the format's `+ 1`).
        output.matched(distance + 1, len)?;
        output.literals(&mut input, follow)?;
        state = follow;
    }
}
