//! CSV records read with `csv-core`, remembering which fields were quoted (a quoted empty
//! field `""` is an empty string, an unquoted empty field a null).

use quiver_arrow::Result;
use std::io::{BufRead, BufReader, Read};

/// One record: the unescaped bytes of its fields, whether each was quoted, and the line it
/// starts on.
#[derive(Debug, Default)]
pub(crate) struct Record {
    /// Field bytes; only `..used` is meaningful (the rest is reusable space).
    bytes: Vec<u8>,
    used: usize,
    ends: Vec<usize>,
    quoted: Vec<bool>,
    line: u64,
}

/// A copy holding only the used bytes (sampled records are kept; the spare space is not).
impl Clone for Record {
    fn clone(&self) -> Self {
        Record {
            bytes: self.bytes[..self.used].to_vec(),
            used: self.used,
            ends: self.ends.clone(),
            quoted: self.quoted.clone(),
            line: self.line,
        }
    }
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
///
/// `csv-core` parses whole records (its fast path); which fields were quoted is read from the
/// record's input bytes afterwards, and only when they hold a quote character at all.
pub(crate) struct RecordReader<R: Read> {
    input: BufReader<R>,
    /// Boxed: its state tables are large, and readers are moved around by value.
    core: Box<csv_core::Reader>,
    delimiter: u8,
    quote: u8,
    /// The input bytes of the current record (with line ends left from before it).
    raw: Vec<u8>,
    /// Field ends as `csv-core` reports them (grown when full).
    ends: Vec<usize>,
}

impl<R: Read> RecordReader<R> {
    pub(crate) fn new(input: R, delimiter: u8, quote: u8) -> Self {
        RecordReader {
            input: BufReader::with_capacity(1 << 16, input),
            core: Box::new(
                csv_core::ReaderBuilder::new()
                    .delimiter(delimiter)
                    .quote(quote)
                    .build(),
            ),
            delimiter,
            quote,
            raw: Vec::new(),
            ends: vec![0; 64],
        }
    }

    /// Reads the next record into `rec`; `false` at the end of the input.
    pub(crate) fn read(&mut self, rec: &mut Record) -> Result<bool> {
        use csv_core::ReadRecordResult as R;
        rec.clear();
        self.raw.clear();
        let line_before = self.core.line();
        let mut nends = 0;
        loop {
            let input = self.input.fill_buf()?;
            let out = rec.spare();
            let (res, nin, nout, nend) = self.core.read_record(input, out, &mut self.ends[nends..]);
            self.raw.extend_from_slice(&input[..nin]);
            self.input.consume(nin);
            rec.used += nout;
            nends += nend;
            match res {
                R::InputEmpty | R::OutputFull => {}
                R::OutputEndsFull => {
                    let grown = self.ends.len() * 2;
                    self.ends.resize(grown, 0);
                }
                R::Record => break,
                R::End => return Ok(false),
            }
        }
        rec.ends.extend_from_slice(&self.ends[..nends]);
        let start = record_start(&self.raw);
        let skipped = self.raw[..start].iter().filter(|b| **b == b'\n').count();
        rec.line = line_before + skipped as u64;
        let raw = &self.raw[start..];
        if raw.contains(&self.quote) {
            quoted_flags(raw, self.delimiter, self.quote, nends, &mut rec.quoted);
        } else {
            rec.quoted.resize(nends, false);
        }
        Ok(true)
    }
}

/// Where a record's own bytes start in its input: after any line ends (blank lines, the rest
/// of a `\r\n`) and byte order mark left from before it.
fn record_start(raw: &[u8]) -> usize {
    let bom = if raw.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let rest = raw[bom..].iter().position(|b| *b != b'\n' && *b != b'\r');
    rest.map_or(raw.len(), |i| i + bom)
}

/// Whether each of the `n` fields of the record in `raw` starts with a quote. The fields are
/// walked as `csv-core` reads them: a quoted field runs to a quote not followed by another,
/// then (like an unquoted one) to the next delimiter or line end.
fn quoted_flags(raw: &[u8], delimiter: u8, quote: u8, n: usize, out: &mut Vec<bool>) {
    let mut p = 0;
    while out.len() < n {
        let quoted = raw.get(p) == Some(&quote);
        out.push(quoted);
        if quoted {
            p += 1;
            while let Some(k) = raw[p..].iter().position(|b| *b == quote) {
                p += k + 1;
                if raw.get(p) != Some(&quote) {
                    break;
                }
                p += 1;
            }
        }
        let end = raw[p.min(raw.len())..]
            .iter()
            .position(|b| *b == delimiter || *b == b'\n' || *b == b'\r');
        match end {
            Some(k) if raw[p + k] == delimiter => p += k + 1,
            _ => p = raw.len(),
        }
    }
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

    /// Records built from fields (some quoted, with delimiters, quotes and line ends inside),
    /// written out and read back: the same values and quoted flags.
    mod prop {
        use super::*;
        use proptest::prelude::*;

        fn encode(fields: &[(String, bool)]) -> String {
            let cells: Vec<String> = fields
                .iter()
                .map(|(v, q)| {
                    if *q {
                        format!("\"{}\"", v.replace('"', "\"\""))
                    } else {
                        v.clone()
                    }
                })
                .collect();
            cells.join(",")
        }

        fn field() -> impl Strategy<Value = (String, bool)> {
            prop_oneof![
                "[a-z ]{0,4}".prop_map(|v| (v, false)),
                "[a-z,\"\n\r ]{0,5}".prop_map(|v| (v, true)),
            ]
        }

        proptest! {
            #[test]
            fn quoted_flags_match_what_was_written(
                rows in proptest::collection::vec(proptest::collection::vec(field(), 1..5), 1..5),
                crlf in any::<bool>(),
            ) {
                // A record whose only field is an unquoted empty one is a blank line: skipped.
                let rows: Vec<_> = rows
                    .into_iter()
                    .filter(|r| !(r.len() == 1 && r[0] == (String::new(), false)))
                    .collect();
                let end = if crlf { "\r\n" } else { "\n" };
                let text: String = rows.iter().map(|r| encode(r) + end).collect();
                let got: Vec<Vec<(String, bool)>> =
                    records(&text).into_iter().map(|(_, f)| f).collect();
                prop_assert_eq!(got, rows);
            }
        }
    }
}
