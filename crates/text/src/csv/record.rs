//! CSV records read with `csv-core`, remembering which fields were quoted (a quoted empty
//! field `""` is an empty string, an unquoted empty field a null).

use quiver_arrow::Result;
use std::io::{BufRead, BufReader, Read};

/// One record: the unescaped bytes of its fields, whether each was quoted, and the line it
/// starts on.
#[derive(Clone, Debug, Default)]
pub(crate) struct Record {
    /// Field bytes; only `..used` is meaningful (the rest is reusable space).
    bytes: Vec<u8>,
    used: usize,
    ends: Vec<usize>,
    quoted: Vec<bool>,
    line: u64,
}

impl Record {
    /// Number of fields.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Field `i` and whether it was quoted.
    pub(crate) fn field(&self, i: usize) -> (&[u8], bool) {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        (&self.bytes[start..self.ends[i]], self.quoted[i])
    }

    /// The fields in order with their quoted flags.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&[u8], bool)> {
        (0..self.len()).map(|i| self.field(i))
    }

    /// The 1-based line the record starts on (as a text editor counts).
    pub(crate) fn line(&self) -> u64 {
        self.line
    }

    fn clear(&mut self) {
        self.used = 0;
        self.ends.clear();
        self.quoted.clear();
    }

    /// Space to write field bytes into (at least one byte).
    fn spare(&mut self) -> &mut [u8] {
        if self.used == self.bytes.len() {
            let grown = (self.bytes.len() * 2).max(256);
            self.bytes.resize(grown, 0);
        }
        &mut self.bytes[self.used..]
    }
}

/// Reads records from CSV text with the given delimiter and quote character (quotes inside
/// quoted fields are doubled; `\n`, `\r` and `\r\n` end records; blank lines are skipped).
pub(crate) struct RecordReader<R: Read> {
    input: BufReader<R>,
    core: csv_core::Reader,
    quote: u8,
}

/// Where the current field's first byte is looked for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Start {
    /// Not yet seen; the first field of a record skips line ends (and a byte order mark)
    /// that belong to the previous record.
    Pending {
        first: bool,
    },
    Known,
}

impl<R: Read> RecordReader<R> {
    pub(crate) fn new(input: R, delimiter: u8, quote: u8) -> Self {
        RecordReader {
            input: BufReader::with_capacity(1 << 16, input),
            core: csv_core::ReaderBuilder::new()
                .delimiter(delimiter)
                .quote(quote)
                .build(),
            quote,
        }
    }

    /// Reads the next record into `rec`; `false` at the end of the input.
    pub(crate) fn read(&mut self, rec: &mut Record) -> Result<bool> {
        use csv_core::ReadFieldResult as R;
        rec.clear();
        rec.line = self.core.line();
        let mut start = Start::Pending { first: true };
        let mut quoted = false;
        loop {
            let input = self.input.fill_buf()?;
            let line_before = self.core.line();
            let (res, nin, nout) = self.core.read_field(input, rec.spare());
            if let Start::Pending { first } = start {
                if let Some(at) = first_byte(&input[..nin], first) {
                    quoted = input[at] == self.quote;
                    start = Start::Known;
                    if first {
                        let skipped = input[..at].iter().filter(|b| **b == b'\n').count();
                        rec.line = line_before + skipped as u64;
                    }
                }
            }
            rec.used += nout;
            self.input.consume(nin);
            match res {
                R::InputEmpty | R::OutputFull => {}
                R::Field { record_end } => {
                    rec.ends.push(rec.used);
                    rec.quoted.push(quoted);
                    if record_end {
                        return Ok(true);
                    }
                    start = Start::Pending { first: false };
                    quoted = false;
                }
                R::End => return Ok(false),
            }
        }
    }
}

/// Where the first byte of a field is among the bytes consumed for it: for the first field
/// of a record, after any line ends (blank lines, the rest of a `\r\n`) and byte order mark
/// left from before the record.
fn first_byte(consumed: &[u8], first_field: bool) -> Option<usize> {
    if !first_field {
        return (!consumed.is_empty()).then_some(0);
    }
    let bom = if consumed.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let rest = consumed[bom..]
        .iter()
        .position(|b| *b != b'\n' && *b != b'\r');
    rest.map(|i| i + bom)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(text: &str) -> Vec<(u64, Vec<(String, bool)>)> {
        let mut r = RecordReader::new(text.as_bytes(), b',', b'"');
        let mut rec = Record::default();
        let mut out = Vec::new();
        while r.read(&mut rec).unwrap() {
            let fields = rec
                .iter()
                .map(|(f, q)| (String::from_utf8(f.to_vec()).unwrap(), q))
                .collect();
            out.push((rec.line(), fields));
        }
        out
    }

    fn f(s: &str, q: bool) -> (String, bool) {
        (s.to_string(), q)
    }

    #[test]
    fn quoted_fields_are_marked() {
        let got = records("a,\"\",\n\r\n\"x\"\"y\",b\r\n\"multi\nline\",\n,\"\"");
        assert_eq!(
            got,
            [
                (1, vec![f("a", false), f("", true), f("", false)]),
                (3, vec![f("x\"y", true), f("b", false)]),
                (4, vec![f("multi\nline", true), f("", false)]),
                (6, vec![f("", false), f("", true)]),
            ]
        );
    }

    #[test]
    fn long_fields_and_byte_order_mark() {
        let long = "z".repeat(1000);
        let got = records(&format!("\u{feff}\"q\",{long}\n"));
        assert_eq!(got, [(1, vec![f("q", true), f(&long, false)])]);
    }
}
