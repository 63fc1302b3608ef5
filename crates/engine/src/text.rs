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

/// Reads one line of at most `max` bytes (its `\n` not counted) from `input`, holding no more
/// than `max` bytes of it; `None` at the end of the input. A last line without `\n` is a line.
/// A longer line is read to its end and dropped, so the next call starts on the next line.
///
/// # Errors
///
/// An error of the input (an interrupted read is tried again).
///
/// # Examples
///
/// ```
/// use morris_engine::text::{Line, read_line};
///
/// let mut input = "go depth 3\nxxxxxxxx\nstop".as_bytes();
/// assert_eq!(read_line(&mut input, 5)?, Some(Line::TooLong));
/// assert_eq!(read_line(&mut input, 5)?, Some(Line::TooLong));
/// assert_eq!(read_line(&mut input, 5)?, Some(Line::Bytes(b"stop".to_vec())));
/// assert_eq!(read_line(&mut input, 5)?, None);
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn read_line(input: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut read_any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        read_any = true;
        let (chunk, found) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long && line.len() + chunk.len() <= max {
            line.extend_from_slice(chunk);
        } else {
            too_long = true;
            line = Vec::new();
        }
        let used = found.unwrap_or(buf.len());
        input.consume(used);
        if found.is_some() {
            break;
        }
    }
    Ok(match (read_any, too_long) {
        (false, _) => None,
        (true, true) => Some(Line::TooLong),
        (true, false) => Some(Line::Bytes(line)),
    })
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
        let mut input = io::BufReader::with_capacity(4, Trickle { bytes, step });
        std::iter::from_fn(|| read_line(&mut input, max).unwrap()).collect()
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
    fn drops_an_endless_line_as_it_comes() {
        // An input without end and without a line break: the line is dropped as it comes.
        let mut input = io::BufReader::new(io::Read::take(io::repeat(b'a'), 50 << 20));
        assert_eq!(read_line(&mut input, 1024).unwrap(), Some(Line::TooLong));
        assert_eq!(read_line(&mut input, 1024).unwrap(), None);
    }
}
