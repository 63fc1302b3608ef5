//! Text from outside — a person, a script, another engine — read with a bound on its length.

use std::io::{self, BufRead};

/// One line read by [`read_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The bytes of a line, without its `\n`.
    Bytes(Vec<u8>),
    /// A line longer than the bound: it was read to its end and dropped.
    TooLong,
}

/// Reads lines of at most a bound of bytes each, holding no more than that of any line.
///
/// A longer line is reported as [`Line::TooLong`] as soon as the bound is passed (an input
/// that never ends its line is not waited for), and the rest of it is skipped by the next
/// read.
///
/// # Examples
///
/// ```
/// use morris_engine::text::{Line, LineReader};
///
/// let mut lines = LineReader::new("go depth 3\nxxxxxxxx\nstop".as_bytes(), 5);
/// assert_eq!(lines.read_line()?, Some(Line::TooLong));
/// assert_eq!(lines.read_line()?, Some(Line::TooLong));
/// assert_eq!(lines.read_line()?, Some(Line::Bytes(b"stop".to_vec())));
/// assert_eq!(lines.read_line()?, None);
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct LineReader<R> {
    input: R,
    max: usize,
    /// The rest of a line too long is still to be skipped.
    skipping: bool,
}

impl<R: BufRead> LineReader<R> {
    /// Reads `input` in lines of at most `max` bytes (their `\n` not counted).
    pub fn new(input: R, max: usize) -> LineReader<R> {
        LineReader {
            input,
            max,
            skipping: false,
        }
    }

    /// The next line; `None` at the end of the input. A last line without `\n` is a line.
    ///
    /// # Errors
    ///
    /// An error of the input (an interrupted read is tried again).
    pub fn read_line(&mut self) -> io::Result<Option<Line>> {
        let mut line = Vec::new();
        let mut read_any = false;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                self.skipping = false;
                return Ok(read_any.then_some(Line::Bytes(line)));
            }
            let newline = buf.iter().position(|&b| b == b'\n');
            let end = newline.unwrap_or(buf.len());
            let used = newline.map_or(buf.len(), |i| i + 1);
            if self.skipping {
                self.input.consume(used);
                self.skipping = newline.is_none();
                continue;
            }
            read_any = true;
            if line.len() + end > self.max {
                self.input.consume(used);
                self.skipping = newline.is_none();
                return Ok(Some(Line::TooLong));
            }
            line.extend_from_slice(&buf[..end]);
            self.input.consume(used);
            if newline.is_some() {
                return Ok(Some(Line::Bytes(line)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An input that hands out its bytes a few at a time, as a pipe does.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    fn all(bytes: &[u8], step: usize, max: usize) -> Vec<Line> {
        let input = io::BufReader::with_capacity(4, Trickle { bytes, step });
        let mut lines = LineReader::new(input, max);
        std::iter::from_fn(|| lines.read_line().unwrap()).collect()
    }

    #[test]
    fn reads_lines_and_drops_long_ones_whatever_the_chunks() {
        let bytes = b"ab\n\nabcdefghij\nabcd\nlast";
        for step in 1..8 {
            assert_eq!(
                all(bytes, step, 4),
                [
                    Line::Bytes(b"ab".to_vec()),
                    Line::Bytes(Vec::new()),
                    Line::TooLong,
                    Line::Bytes(b"abcd".to_vec()),
                    Line::Bytes(b"last".to_vec()),
                ],
                "{step}"
            );
        }
        assert!(all(b"", 1, 4).is_empty());
        assert_eq!(all(b"abcdefg", 3, 4), [Line::TooLong]);
    }

    #[test]
    fn reports_an_endless_line_without_waiting_for_its_end() {
        // An input without end and without a line break.
        let mut lines = LineReader::new(io::BufReader::new(io::repeat(b'a')), 1024);
        assert_eq!(lines.read_line().unwrap(), Some(Line::TooLong));
        // A long line that does end: reported once, and the next line is read whole.
        let long = io::Read::take(io::repeat(b'a'), 50 << 20);
        let input = io::Read::chain(long, &b"\nnext\n"[..]);
        let mut lines = LineReader::new(io::BufReader::new(input), 1024);
        assert_eq!(lines.read_line().unwrap(), Some(Line::TooLong));
        assert_eq!(
            lines.read_line().unwrap(),
            Some(Line::Bytes(b"next".to_vec()))
        );
        assert_eq!(lines.read_line().unwrap(), None);
    }
}
