//! Boards as data: points, their names, adjacency, mills and symmetries.
//!
//! Every board is built at compile time from three lists: the names of its points in
//! position-string order, its mills, and any lines that join two points without being part of a
//! mill. Adjacency follows from the lines; symmetries are found by trying every rotation and
//! reflection of the grid, with and without exchanging the inner and outer rings, and keeping
//! those that map lines to lines and mills to mills.

use std::fmt;

use crate::bitboard::Bitboard;
use crate::point::{MAX_POINTS, Point, Square};

/// The largest number of mills any board has (`twelve`: 20).
pub const MAX_MILLS: usize = 20;
/// The largest number of symmetries any board has.
pub const MAX_SYMMETRIES: usize = 16;
/// The most mills one point lies on (the centre of `three`: 4).
const MAX_MILLS_AT: usize = 4;
/// A mask no set of pieces ever covers: pads the per-point mill lists.
const NO_MILL: Bitboard = Bitboard(1 << 31);
const NONE: u8 = u8::MAX;

/// The boards of the family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// Three concentric squares, 24 points, 16 mills (`nine`, `lasker`).
    Standard,
    /// The standard board with four diagonal lines, 20 mills (`twelve`, `morabaraba`).
    Diagonal,
    /// Two concentric squares, 16 points, 8 mills (`six`).
    Six,
    /// The 3 × 3 grid with diagonals, 9 points, 8 lines (`three`).
    Three,
}

impl BoardKind {
    /// The board itself.
    #[inline]
    pub const fn board(self) -> &'static Board {
        match self {
            BoardKind::Standard => &STANDARD,
            BoardKind::Diagonal => &DIAGONAL,
            BoardKind::Six => &SIX,
            BoardKind::Three => &THREE,
        }
    }
}

/// A permutation of a board's points that maps lines to lines and mills to mills.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Symmetry {
    map: [u8; MAX_POINTS],
}

impl Symmetry {
    /// The image of a point.
    #[inline]
    pub const fn apply(&self, point: Point) -> Point {
        Point::from_index_unchecked(self.map[point.index()])
    }

    /// The image of a set of points.
    #[inline]
    pub fn apply_set(&self, set: Bitboard) -> Bitboard {
        let mut out = 0u32;
        for point in set {
            out |= 1 << self.map[point.index()];
        }
        Bitboard(out)
    }
}

impl fmt::Debug for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Symmetry").field(&self.map).finish()
    }
}

/// A board: its points, lines, mills and symmetries.
///
/// ```text
/// 7  a7 ----------- d7 ----------- g7
///    |              |              |
/// 6  |    b6 ------ d6 ------ f6   |
///    |    |         |         |    |
/// 5  |    |    c5 - d5 - e5   |    |
///    |    |    |         |    |    |
/// 4  a4 - b4 - c4        e4 - f4 - g4
///    |    |    |         |    |    |
/// 3  |    |    c3 - d3 - e3   |    |
///    |    |         |         |    |
/// 2  |    b2 ------ d2 ------ f2   |
///    |              |              |
/// 1  a1 ----------- d1 ----------- g1
///    a    b    c    d    e    f    g
/// ```
///
/// ```
/// use morris_core::BoardKind;
/// let board = BoardKind::Standard.board();
/// let d6 = board.point("d6").unwrap();
/// let names: Vec<String> = board.adjacent(d6).into_iter().map(|p| board.square(p).to_string()).collect();
/// assert_eq!(names, ["d7", "b6", "f6", "d5"]);
/// assert_eq!(board.mills().len(), 16);
/// assert_eq!(board.symmetries().len(), 16);
/// ```
pub struct Board {
    kind: BoardKind,
    size: u8,
    len: u8,
    squares: [Square; MAX_POINTS],
    index_of: [u8; 49],
    adjacent: [Bitboard; MAX_POINTS],
    mills: [Bitboard; MAX_MILLS],
    mill_count: u8,
    mills_at: [[Bitboard; MAX_MILLS_AT]; MAX_POINTS],
    mill_count_at: [u8; MAX_POINTS],
    symmetries: [Symmetry; MAX_SYMMETRIES],
    symmetry_count: u8,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Board")
            .field("kind", &self.kind)
            .field("points", &self.len)
            .field("mills", &self.mill_count)
            .field("symmetries", &self.symmetry_count)
            .finish()
    }
}

impl Board {
    /// Which board this is.
    pub const fn kind(&self) -> BoardKind {
        self.kind
    }

    /// The width of the naming grid the board is drawn on (7, 5 or 3).
    pub const fn size(&self) -> u8 {
        self.size
    }

    /// The number of points.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Always false: every board has points.
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// The set of all points of the board.
    #[inline]
    pub const fn all(&self) -> Bitboard {
        Bitboard::first(self.len as usize)
    }

    /// The points in position-string order.
    pub fn points(&self) -> impl ExactSizeIterator<Item = Point> + Clone + use<> {
        Point::ALL.into_iter().take(self.len())
    }

    /// The name of a point. A point beyond the board's points has the name of its last one.
    #[inline]
    pub fn square(&self, point: Point) -> Square {
        self.squares[point.index().min(self.len() - 1)]
    }

    /// The point standing on a square, if the board has one there.
    #[inline]
    pub fn point_at(&self, square: Square) -> Option<Point> {
        match self.index_of[square.index()] {
            NONE => None,
            i => Point::new(i),
        }
    }

    /// The point of a name such as `"d6"` (either case), if the board has it.
    pub fn point(&self, name: &str) -> Option<Point> {
        self.point_at(name.parse().ok()?)
    }

    /// The points joined to `point` by a line with no point between.
    #[inline]
    pub fn adjacent(&self, point: Point) -> Bitboard {
        self.adjacent[point.index()]
    }

    /// Every mill: a set of three points in a line.
    pub fn mills(&self) -> &[Bitboard] {
        &self.mills[..self.mill_count as usize]
    }

    /// The mills through a point.
    #[inline]
    pub fn mills_at(&self, point: Point) -> &[Bitboard] {
        let i = point.index();
        &self.mills_at[i][..self.mill_count_at[i] as usize]
    }

    /// How many mills through `point` lie wholly inside `pieces`.
    #[inline]
    pub fn mills_closed_at(&self, point: Point, pieces: Bitboard) -> usize {
        self.mills_at(point)
            .iter()
            .filter(|&&m| pieces.is_superset(m))
            .count()
    }

    /// Whether a mill through `point` lies wholly inside `pieces`.
    #[inline]
    pub fn closes_mill_at(&self, point: Point, pieces: Bitboard) -> bool {
        self.mills_at(point).iter().any(|&m| pieces.is_superset(m))
    }

    /// The points of `pieces` that stand in a mill of `pieces`.
    #[inline]
    pub fn in_mills(&self, pieces: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for &mill in self.mills() {
            if pieces.is_superset(mill) {
                out |= mill;
            }
        }
        out
    }

    /// The lines of the board, each as a pair of adjacent points, lower index first.
    pub fn lines(&self) -> impl Iterator<Item = (Point, Point)> + '_ {
        self.points().flat_map(move |a| {
            self.adjacent(a)
                .into_iter()
                .filter(move |b| b.index() > a.index())
                .map(move |b| (a, b))
        })
    }

    /// The symmetries of the board; the first is the identity.
    pub fn symmetries(&self) -> &[Symmetry] {
        &self.symmetries[..self.symmetry_count as usize]
    }

    const fn build(
        kind: BoardKind,
        size: u8,
        names: &[&str],
        mills: &[[&str; 3]],
        extra_lines: &[[&str; 2]],
    ) -> Board {
        let mut board = Board {
            kind,
            size,
            len: names.len() as u8,
            squares: [Square(0); MAX_POINTS],
            index_of: [NONE; 49],
            adjacent: [Bitboard::EMPTY; MAX_POINTS],
            mills: [Bitboard::EMPTY; MAX_MILLS],
            mill_count: mills.len() as u8,
            mills_at: [[NO_MILL; MAX_MILLS_AT]; MAX_POINTS],
            mill_count_at: [0; MAX_POINTS],
            symmetries: [Symmetry {
                map: [0; MAX_POINTS],
            }; MAX_SYMMETRIES],
            symmetry_count: 0,
        };
        assert!(names.len() <= MAX_POINTS && mills.len() <= MAX_MILLS);
        let mut i = 0;
        while i < names.len() {
            let sq = const_square(names[i]);
            assert!(
                board.index_of[sq.0 as usize] == NONE,
                "a point is named twice"
            );
            board.squares[i] = sq;
            board.index_of[sq.0 as usize] = i as u8;
            i += 1;
        }
        let mut m = 0;
        while m < mills.len() {
            let a = board.const_index(mills[m][0]);
            let b = board.const_index(mills[m][1]);
            let c = board.const_index(mills[m][2]);
            board.mills[m] = Bitboard((1 << a) | (1 << b) | (1 << c));
            board.join(a, b);
            board.join(b, c);
            let points = [a, b, c];
            let mut k = 0;
            while k < 3 {
                let p = points[k] as usize;
                let mut slot = 0;
                while board.mills_at[p][slot].0 != NO_MILL.0 {
                    slot += 1;
                }
                board.mills_at[p][slot] = board.mills[m];
                board.mill_count_at[p] += 1;
                k += 1;
            }
            m += 1;
        }
        let mut e = 0;
        while e < extra_lines.len() {
            let a = board.const_index(extra_lines[e][0]);
            let b = board.const_index(extra_lines[e][1]);
            board.join(a, b);
            e += 1;
        }
        board.find_symmetries();
        board
    }

    const fn const_index(&self, name: &str) -> u8 {
        let i = self.index_of[const_square(name).0 as usize];
        assert!(
            i != NONE,
            "a mill or line names a point the board does not have"
        );
        i
    }

    const fn join(&mut self, a: u8, b: u8) {
        self.adjacent[a as usize].0 |= 1 << b;
        self.adjacent[b as usize].0 |= 1 << a;
    }

    /// Tries the 8 rotations and reflections of the grid, each with and without exchanging the
    /// inner and outer rings, and keeps the distinct ones that preserve lines and mills.
    const fn find_symmetries(&mut self) {
        let centre = (self.size as i32 - 1) / 2;
        let mut candidate = 0;
        while candidate < 16 {
            let swap_rings = candidate >= 8;
            let mut map = [0u8; MAX_POINTS];
            let mut ok = true;
            let mut p = 0;
            while p < self.len as usize {
                let sq = self.squares[p];
                let (mut dx, mut dy) = (sq.file() as i32 - centre, sq.rank() as i32 - centre);
                if swap_rings {
                    let ring = if dx.abs() > dy.abs() {
                        dx.abs()
                    } else {
                        dy.abs()
                    };
                    if ring > 0 {
                        let new_ring = centre + 1 - ring;
                        dx = dx / ring * new_ring;
                        dy = dy / ring * new_ring;
                    }
                }
                let (x, y) = match candidate % 8 {
                    0 => (dx, dy),
                    1 => (-dy, dx),
                    2 => (-dx, -dy),
                    3 => (dy, -dx),
                    4 => (-dx, dy),
                    5 => (dx, -dy),
                    6 => (dy, dx),
                    _ => (-dy, -dx),
                };
                let target = ((y + centre) * Square::GRID as i32 + x + centre) as usize;
                if self.index_of[target] == NONE {
                    ok = false;
                    break;
                }
                map[p] = self.index_of[target];
                p += 1;
            }
            if ok && self.preserves(&map) && !self.has_symmetry(&map) {
                self.symmetries[self.symmetry_count as usize] = Symmetry { map };
                self.symmetry_count += 1;
            }
            candidate += 1;
        }
    }

    const fn map_set(map: &[u8; MAX_POINTS], set: Bitboard) -> Bitboard {
        let mut out = 0u32;
        let mut p = 0;
        while p < MAX_POINTS {
            if set.0 & (1 << p) != 0 {
                out |= 1 << map[p];
            }
            p += 1;
        }
        Bitboard(out)
    }

    const fn preserves(&self, map: &[u8; MAX_POINTS]) -> bool {
        let mut p = 0;
        while p < self.len as usize {
            let image = Board::map_set(map, self.adjacent[p]);
            if image.0 != self.adjacent[map[p] as usize].0 {
                return false;
            }
            p += 1;
        }
        let mut m = 0;
        while m < self.mill_count as usize {
            let image = Board::map_set(map, self.mills[m]);
            let mut found = false;
            let mut k = 0;
            while k < self.mill_count as usize {
                if self.mills[k].0 == image.0 {
                    found = true;
                }
                k += 1;
            }
            if !found {
                return false;
            }
            m += 1;
        }
        true
    }

    const fn has_symmetry(&self, map: &[u8; MAX_POINTS]) -> bool {
        let mut s = 0;
        while s < self.symmetry_count as usize {
            let mut same = true;
            let mut p = 0;
            while p < MAX_POINTS {
                if self.symmetries[s].map[p] != map[p] {
                    same = false;
                }
                p += 1;
            }
            if same {
                return true;
            }
            s += 1;
        }
        false
    }
}

const fn const_square(name: &str) -> Square {
    let bytes = name.as_bytes();
    assert!(bytes.len() == 2);
    match Square::from_bytes(bytes[0], bytes[1]) {
        Some(sq) => sq,
        None => panic!("bad point name in board data"),
    }
}

const STANDARD_POINTS: [&str; 24] = [
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
    "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
];

const STANDARD_MILLS: [[&str; 3]; 16] = [
    ["a7", "d7", "g7"],
    ["b6", "d6", "f6"],
    ["c5", "d5", "e5"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
    ["c3", "d3", "e3"],
    ["b2", "d2", "f2"],
    ["a1", "d1", "g1"],
    ["a1", "a4", "a7"],
    ["b2", "b4", "b6"],
    ["c3", "c4", "c5"],
    ["d5", "d6", "d7"],
    ["d1", "d2", "d3"],
    ["e3", "e4", "e5"],
    ["f2", "f4", "f6"],
    ["g1", "g4", "g7"],
];

const DIAGONAL_MILLS: [[&str; 3]; 20] = {
    let mut mills = [["", "", ""]; 20];
    let mut i = 0;
    while i < 16 {
        mills[i] = STANDARD_MILLS[i];
        i += 1;
    }
    mills[16] = ["a7", "b6", "c5"];
    mills[17] = ["g7", "f6", "e5"];
    mills[18] = ["a1", "b2", "c3"];
    mills[19] = ["g1", "f2", "e3"];
    mills
};

static STANDARD: Board = Board::build(
    BoardKind::Standard,
    7,
    &STANDARD_POINTS,
    &STANDARD_MILLS,
    &[],
);

static DIAGONAL: Board = Board::build(
    BoardKind::Diagonal,
    7,
    &STANDARD_POINTS,
    &DIAGONAL_MILLS,
    &[],
);

static SIX: Board = Board::build(
    BoardKind::Six,
    5,
    &[
        "a5", "c5", "e5", "b4", "c4", "d4", "a3", "b3", "d3", "e3", "b2", "c2", "d2", "a1", "c1",
        "e1",
    ],
    &[
        ["a5", "c5", "e5"],
        ["a1", "c1", "e1"],
        ["a1", "a3", "a5"],
        ["e1", "e3", "e5"],
        ["b4", "c4", "d4"],
        ["b2", "c2", "d2"],
        ["b2", "b3", "b4"],
        ["d2", "d3", "d4"],
    ],
    &[["c1", "c2"], ["a3", "b3"], ["d3", "e3"], ["c4", "c5"]],
);

static THREE: Board = Board::build(
    BoardKind::Three,
    3,
    &["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"],
    &[
        ["a3", "b3", "c3"],
        ["a2", "b2", "c2"],
        ["a1", "b1", "c1"],
        ["a1", "a2", "a3"],
        ["b1", "b2", "b3"],
        ["c1", "c2", "c3"],
        ["a1", "b2", "c3"],
        ["a3", "b2", "c1"],
    ],
    &[],
);

#[cfg(test)]
mod tests {
    use super::*;

    fn names(board: &Board, set: Bitboard) -> Vec<String> {
        set.into_iter()
            .map(|p| board.square(p).to_string())
            .collect()
    }

    #[test]
    fn standard_board_has_32_lines_and_every_point_in_two_mills() {
        let board = BoardKind::Standard.board();
        assert_eq!(board.lines().count(), 32);
        for p in board.points() {
            assert_eq!(board.mills_at(p).len(), 2);
        }
    }

    #[test]
    fn diagonal_board_joins_corners_diagonally() {
        let board = BoardKind::Diagonal.board();
        let b6 = board.point("b6").unwrap();
        assert_eq!(names(board, board.adjacent(b6)), ["a7", "d6", "c5", "b4"]);
        assert_eq!(board.mills().len(), 20);
        assert_eq!(board.lines().count(), 40);
        assert_eq!(board.symmetries().len(), 16);
    }

    #[test]
    fn six_board_joins_the_middles_across() {
        let board = BoardKind::Six.board();
        let c2 = board.point("c2").unwrap();
        assert_eq!(names(board, board.adjacent(c2)), ["b2", "d2", "c1"]);
        assert_eq!(board.lines().count(), 20);
        assert_eq!(board.symmetries().len(), 16);
    }

    #[test]
    fn three_board_moves_along_diagonals_and_has_eight_symmetries() {
        let board = BoardKind::Three.board();
        let b2 = board.point("b2").unwrap();
        assert_eq!(board.adjacent(b2).count(), 8);
        let a1 = board.point("a1").unwrap();
        assert_eq!(names(board, board.adjacent(a1)), ["a2", "b2", "b1"]);
        assert_eq!(board.symmetries().len(), 8);
        assert_eq!(board.mills_at(b2).len(), 4);
    }

    #[test]
    fn symmetries_are_distinct_permutations_starting_with_identity() {
        for kind in [
            BoardKind::Standard,
            BoardKind::Diagonal,
            BoardKind::Six,
            BoardKind::Three,
        ] {
            let board = kind.board();
            let syms = board.symmetries();
            for p in board.points() {
                assert_eq!(syms[0].apply(p), p);
            }
            for s in syms {
                assert_eq!(s.apply_set(board.all()), board.all());
            }
        }
        let board = BoardKind::Standard.board();
        let a7 = board.point("a7").unwrap();
        let images: Bitboard = board.symmetries().iter().map(|s| s.apply(a7)).collect();
        assert_eq!(
            names(board, images),
            ["a7", "g7", "c5", "e5", "c3", "e3", "a1", "g1"]
        );
    }
}
