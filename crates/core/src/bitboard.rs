//! Sets of points as bits of a `u32`.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use crate::point::Point;

/// A set of points: bit `i` stands for the point with index `i`.
///
/// Every board of the family has at most 24 points, so a `u32` holds any set. The bits above the
/// board's points are never set by this library.
///
/// ```
/// use morris_core::{Bitboard, Point};
/// let set: Bitboard = [Point::new(0).unwrap(), Point::new(5).unwrap()].into_iter().collect();
/// assert_eq!(set.count(), 2);
/// assert!(set.contains(Point::new(5).unwrap()));
/// assert_eq!(set.into_iter().map(Point::index).collect::<Vec<_>>(), vec![0, 5]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Bitboard(pub u32);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set of one point.
    #[inline]
    pub const fn from_point(point: Point) -> Bitboard {
        Bitboard(1 << point.index())
    }

    /// The set of the first `n` points (`n` ≤ 32).
    #[inline]
    pub const fn first(n: usize) -> Bitboard {
        if n >= 32 {
            Bitboard(u32::MAX)
        } else {
            Bitboard((1u32 << n) - 1)
        }
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one point.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The number of points in the set.
    #[inline]
    pub const fn count(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the point is in the set.
    #[inline]
    pub const fn contains(self, point: Point) -> bool {
        self.0 & (1 << point.index()) != 0
    }

    /// Whether every point of `other` is in this set.
    #[inline]
    pub const fn is_superset(self, other: Bitboard) -> bool {
        self.0 & other.0 == other.0
    }

    /// Adds a point.
    #[inline]
    pub fn insert(&mut self, point: Point) {
        self.0 |= 1 << point.index();
    }

    /// Removes a point.
    #[inline]
    pub fn remove(&mut self, point: Point) {
        self.0 &= !(1 << point.index());
    }

    /// Toggles a point.
    #[inline]
    pub fn toggle(&mut self, point: Point) {
        self.0 ^= 1 << point.index();
    }

    /// The point with the lowest index, if any.
    #[inline]
    pub const fn first_point(self) -> Option<Point> {
        if self.0 == 0 {
            None
        } else {
            Some(Point::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The only point of a set of one, or `None`.
    #[inline]
    pub const fn single(self) -> Option<Point> {
        if self.0.count_ones() == 1 {
            self.first_point()
        } else {
            None
        }
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.into_iter().map(Point::index))
            .finish()
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// The points of `self` that are not in `rhs`.
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement among all 32 bits; intersect it with a board's points.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<Point> for Bitboard {
    #[inline]
    fn from(point: Point) -> Bitboard {
        Bitboard::from_point(point)
    }
}

/// The points of a [`Bitboard`], lowest index first.
#[derive(Debug, Clone)]
pub struct IntoIter(u32);

impl Iterator for IntoIter {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            None
        } else {
            let index = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(Point::from_index_unchecked(index))
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for IntoIter {}

impl IntoIterator for Bitboard {
    type Item = Point;
    type IntoIter = IntoIter;

    #[inline]
    fn into_iter(self) -> IntoIter {
        IntoIter(self.0)
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for point in iter {
            set.insert(point);
        }
        set
    }
}
