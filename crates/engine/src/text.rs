//! Text from outside — a person, a script, another engine — read with a bound on its length,
//! and made safe to print on a terminal.

use std::borrow::Cow;
use std::io::{self, BufRead};

/// Text made safe to show on a terminal: control characters (escape sequences, carriage
/// returns, line breaks, bells, C1 controls) and the bidirectional overrides, which could
/// rewrite or disguise what is shown, are written as Rust escapes (`\u{1b}`, `\n`); the
/// rest is kept as it is.
///
/// # Examples
///
/// ```
/// use morris_engine::text::printable;
///
/// assert_eq!(printable("d6 f4"), "d6 f4");
/// assert_eq!(printable("\u{1b}[2Jd6\n"), "\\u{1b}[2Jd6\\n");
/// ```
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(unsafe_to_show) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if unsafe_to_show(c) {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    Cow::Owned(shown)
}

/// Text from the input cut short for a message: at most 40 characters and `…`.
pub(crate) fn clip(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(MAX).collect();
        s.push('…');
        s
    }
}

/// A character that a terminal acts on rather than shows, that reorders what it shows (the
/// bidirectional controls and marks), or that shows as nothing (zero-width spaces and
/// joiners, word joiners, the byte-order mark, the soft hyphen).
fn unsafe_to_show(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00ad}'
                | '\u{061c}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}'
                | '\u{feff}'
        )
}

/// One line read by [`LineReader::read_line`].
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
    fn printable_escapes_what_a_terminal_would_act_on() {
        assert!(matches!(printable("Black plays a1."), Cow::Borrowed(_)));
        assert_eq!(
            printable("a\tb\rc\u{7}\u{7f}\u{9b}"),
            "a\\tb\\rc\\u{7}\\u{7f}\\u{9b}"
        );
        assert_eq!(printable("\u{202e}evil"), "\\u{202e}evil");
        // Letters of any script are kept.
        assert_eq!(printable("Mühle é 九"), "Mühle é 九");
        for text in ["\u{1b}]0;title\u{7}", "x\u{0}y", "\u{85}"] {
            let shown = printable(text);
            assert!(!shown.chars().any(unsafe_to_show), "{shown:?}");
        }
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
