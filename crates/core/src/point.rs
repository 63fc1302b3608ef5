//! Points of a board and the names of the grid squares they stand on.

use std::fmt;
use std::str::FromStr;

/// The largest number of points any board of the family has.
pub const MAX_POINTS: usize = 24;

/// A point of a board, by its index in the board's position-string order (top rank first, left
/// to right). What a point is called depends on the board: see [`crate::Board::square`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Point(u8);

impl Point {
    /// Every possible point index, `0..24`. A board uses the first [`crate::Board::len`] of them.
    pub const ALL: [Point; MAX_POINTS] = {
        let mut all = [Point(0); MAX_POINTS];
        let mut i = 0;
        while i < MAX_POINTS {
            all[i] = Point(i as u8);
            i += 1;
        }
        all
    };

    /// The point with this index, if it is below [`MAX_POINTS`].
    #[inline]
    pub const fn new(index: u8) -> Option<Point> {
        if (index as usize) < MAX_POINTS {
            Some(Point(index))
        } else {
            None
        }
    }

    /// Trusts the caller that `index < 32`.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Point {
        Point(index)
    }

    /// The index of the point.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A square of the 7 × 7 naming grid, `a1` (bottom left) to `g7` (top right).
///
/// Every board of the family names its points by these squares: Nine Men's Morris uses 24 of
/// them, Six Men's Morris 16 squares of `a1`–`e5`, Three Men's Morris the 9 squares `a1`–`c3`.
///
/// ```
/// use morris_core::Square;
/// let sq: Square = "D6".parse()?;
/// assert_eq!((sq.file(), sq.rank()), (3, 5));
/// assert_eq!(sq.to_string(), "d6");
/// # Ok::<_, morris_core::ParseSquareError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(pub(crate) u8);

impl Square {
    /// The width and height of the naming grid.
    pub const GRID: u8 = 7;

    /// The square at a file (0 = `a`) and rank (0 = `1`), both below 7.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < Square::GRID && rank < Square::GRID {
            Some(Square(rank * Square::GRID + file))
        } else {
            None
        }
    }

    /// The file, 0 for `a` to 6 for `g`.
    pub const fn file(self) -> u8 {
        self.0 % Square::GRID
    }

    /// The rank, 0 for `1` to 6 for `7`.
    pub const fn rank(self) -> u8 {
        self.0 / Square::GRID
    }

    /// A number below 49 unique to the square.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Parses the two bytes of a square name, either case.
    pub(crate) const fn from_bytes(file: u8, rank: u8) -> Option<Square> {
        let file = file.to_ascii_lowercase();
        if file < b'a' || rank < b'1' {
            return None;
        }
        Square::new(file - b'a', rank - b'1')
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// The error of reading a [`Square`]: the text is not a file letter `a`–`g` and a rank `1`–`7`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSquareError {
    text: String,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a point name (a1 to g7)", self.text)
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            &[file, rank] => Square::from_bytes(file, rank),
            _ => None,
        }
        .ok_or_else(|| ParseSquareError {
            text: s.chars().take(16).collect(),
        })
    }
}
