//! Reading a JSON array of objects (`[{…}, {…}]`, possibly spread over many lines) as JSON
//! Lines, in a streaming way.

use std::io::{self, BufRead, Read};

/// Turns a JSON array of values into JSON Lines as the bytes go by: the outer brackets are
/// dropped, the commas between elements become line breaks, and line breaks inside elements
/// (outside strings) become spaces. Nothing is buffered beyond the inner reader's buffer.
///
/// Wrap the input in it and give it to [`super::JsonReader`]; the reader's "line N" then
/// means the N-th element of the array.
///
/// ```
/// use quiver_text::json::{ArrayAsLines, JsonReadOptions, JsonReader};
/// let text = "[\n  {\"a\": [1]},\n  {\"a\": [2,\n 3]}\n]\n";
/// let lines = ArrayAsLines::new(text.as_bytes());
/// let mut reader =
///     JsonReader::try_new(std::io::BufReader::new(lines), JsonReadOptions::default()).unwrap();
/// let batch = reader.next_batch().unwrap().unwrap();
/// assert_eq!(batch.num_rows(), 2);
/// ```
#[derive(Debug)]
pub struct ArrayAsLines<R> {
    inner: R,
    scan: Scanner,
}

/// Where the scan is: the state and the nesting depth inside the current element.
#[derive(Debug)]
struct Scanner {
    state: State,
    depth: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the opening `[`.
    Start,
    /// Inside the array, outside strings.
    Value,
    /// Inside a string.
    Str,
    /// Just after a backslash inside a string.
    Escape,
    /// After the closing `]`.
    Done,
}

impl<R: BufRead> ArrayAsLines<R> {
    /// Wraps a reader positioned at the start of a JSON array.
    pub fn new(inner: R) -> Self {
        ArrayAsLines {
            inner,
            scan: Scanner {
                state: State::Start,
                depth: 0,
            },
        }
    }
}

impl Scanner {
    /// The output byte for input byte `b`, or `None` to drop it.
    fn map(&mut self, b: u8) -> io::Result<Option<u8>> {
        let out = match (self.state, b) {
            (State::Start | State::Done, b) if b.is_ascii_whitespace() => None,
            (State::Start, b'[') => {
                self.state = State::Value;
                None
            }
            (State::Start, _) => return Err(bad("the input does not start with '['")),
            (State::Done, _) => return Err(bad("text after the closing ']'")),
            (State::Str, b'"') => {
                self.state = State::Value;
                Some(b)
            }
            (State::Str, b'\\') => {
                self.state = State::Escape;
                Some(b)
            }
            (State::Escape, _) => {
                self.state = State::Str;
                Some(b)
            }
            (State::Str, _) => Some(b),
            (State::Value, _) => self.structural(b)?,
        };
        Ok(out)
    }

    fn structural(&mut self, b: u8) -> io::Result<Option<u8>> {
        Ok(match b {
            b'"' => {
                self.state = State::Str;
                Some(b)
            }
            b'{' | b'[' => {
                self.depth += 1;
                Some(b)
            }
            b'}' | b']' if self.depth > 0 => {
                self.depth -= 1;
                Some(b)
            }
            b']' => {
                self.state = State::Done;
                Some(b'\n')
            }
            b'}' => return Err(bad("unbalanced '}'")),
            b',' if self.depth == 0 => Some(b'\n'),
            b'\n' | b'\r' => Some(b' '),
            _ => Some(b),
        })
    }
}

fn bad(message: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("JSON array input: {message}"),
    )
}

impl<R: BufRead> Read for ArrayAsLines<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            let available = self.inner.fill_buf()?;
            if available.is_empty() {
                if n == 0 && !matches!(self.scan.state, State::Done | State::Start) {
                    return Err(bad("the input ends before the closing ']'"));
                }
                break;
            }
            let mut used = 0;
            for &b in available {
                if n == buf.len() {
                    break;
                }
                used += 1;
                if let Some(o) = self.scan.map(b)? {
                    buf[n] = o;
                    n += 1;
                }
            }
            self.inner.consume(used);
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn convert(text: &str) -> io::Result<String> {
        let mut out = String::new();
        ArrayAsLines::new(text.as_bytes()).read_to_string(&mut out)?;
        Ok(out)
    }

    #[test]
    fn elements_become_lines() {
        let text = "  [\n {\"a\": \"x,]\\\"\\n\", \"b\": [1,\n2]},\r\n {\"c\": {}}\n] \n";
        assert_eq!(
            convert(text).unwrap(),
            "  {\"a\": \"x,]\\\"\\n\", \"b\": [1, 2]}\n   {\"c\": {}} \n"
        );
        assert_eq!(convert("[]").unwrap(), "\n");
        assert_eq!(convert("").unwrap(), "");
    }

    #[test]
    fn malformed_arrays() {
        assert!(convert("{\"a\": 1}").is_err());
        assert!(convert("[{\"a\": 1}").is_err());
        assert!(convert("[{\"a\": 1}] x").is_err());
        assert!(convert("[}]").is_err());
    }
}
