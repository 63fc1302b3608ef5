//! Where a board's points fall on the screen, which point a click lands on, and which point an
//! arrow key leads to.

use morris_core::{Board, Point, Square};
use ratatui::layout::Rect;

/// Columns taken by the rank labels on each side, with their gap to the board.
const SIDE: u16 = 4;
/// Rows taken by the file labels above and below the board.
const EDGE: u16 = 2;
/// The narrowest gap between two grid columns that still leaves room for markers.
const MIN_DX: u16 = 4;
/// The shortest gap between two grid rows.
const MIN_DY: u16 = 2;
/// The widest gap between two grid columns: a larger board only looks empty.
const MAX_DX: u16 = 12;

/// The placement of a board's naming grid in a rectangle of the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// The screen column of file `a`.
    pub left: u16,
    /// The screen row of the top rank.
    pub top: u16,
    /// Columns between neighbouring files.
    pub dx: u16,
    /// Rows between neighbouring ranks.
    pub dy: u16,
    /// The width and height of the naming grid (7, 5 or 3).
    pub size: u8,
}

impl Geometry {
    /// The smallest rectangle (width, height) a board of this grid size needs.
    pub fn min_size(size: u8) -> (u16, u16) {
        let gaps = u16::from(size.max(2) - 1);
        (gaps * MIN_DX + 1 + 2 * SIDE, gaps * MIN_DY + 1 + 2 * EDGE)
    }

    /// Fits a board into `area`, centred, as large as looks good; `None` when it does not fit.
    pub fn fit(board: &Board, area: Rect) -> Option<Geometry> {
        let size = board.size();
        let gaps = u16::from(size.max(2) - 1);
        let inner_w = area.width.checked_sub(2 * SIDE + 1)?;
        let inner_h = area.height.checked_sub(2 * EDGE + 1)?;
        let dx_max = (inner_w / gaps).min(MAX_DX);
        let dy_max = inner_h / gaps;
        if dx_max < MIN_DX || dy_max < MIN_DY {
            return None;
        }
        // A terminal cell is about twice as tall as it is wide: keep the board near square.
        let dy = dy_max.min((dx_max * 4 / 9).max(MIN_DY));
        let dx = dx_max.min(dy * 9 / 4 + 1).max(MIN_DX);
        let width = gaps * dx + 1;
        let height = gaps * dy + 1;
        Some(Geometry {
            left: area.x + SIDE + (inner_w + 1 - width) / 2,
            top: area.y + EDGE + (inner_h + 1 - height) / 2,
            dx,
            dy,
            size,
        })
    }

    /// The screen cell (column, row) of a square.
    pub fn cell(&self, square: Square) -> (u16, u16) {
        let row = u16::from(self.size - 1 - square.rank());
        (
            self.left + u16::from(square.file()) * self.dx,
            self.top + row * self.dy,
        )
    }

    /// The screen column of a file and the row of a rank, for the labels.
    pub fn file_x(&self, file: u8) -> u16 {
        self.left + u16::from(file) * self.dx
    }

    /// The screen row of a rank (0 = `1`).
    pub fn rank_y(&self, rank: u8) -> u16 {
        self.top + u16::from(self.size - 1 - rank) * self.dy
    }

    /// The whole area the board and its labels use.
    pub fn frame(&self) -> Rect {
        let gaps = u16::from(self.size - 1);
        Rect::new(
            self.left.saturating_sub(SIDE),
            self.top.saturating_sub(EDGE),
            gaps * self.dx + 1 + 2 * SIDE,
            gaps * self.dy + 1 + 2 * EDGE,
        )
    }

    /// The point of `board` a click at (column, row) lands on: the nearest point within a cell
    /// or two of the click.
    pub fn hit(&self, board: &Board, column: u16, row: u16) -> Option<Point> {
        board
            .points()
            .map(|p| {
                let (x, y) = self.cell(board.square(p));
                let ddx = i32::from(x) - i32::from(column);
                let ddy = i32::from(y) - i32::from(row);
                (p, ddx.abs(), ddy.abs())
            })
            .filter(|&(_, ddx, ddy)| ddx <= 2 && ddy <= 1)
            .min_by_key(|&(_, ddx, ddy)| ddx + 2 * ddy)
            .map(|(p, ..)| p)
    }
}

/// A direction of an arrow key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Towards rank 7.
    Up,
    /// Towards rank 1.
    Down,
    /// Towards file `a`.
    Left,
    /// Towards file `g`.
    Right,
}

/// The point an arrow key leads to from `from`: the nearest point in that direction, keeping to
/// the same line where there is one; `from` itself when there is none.
pub fn step(board: &Board, from: Point, direction: Direction) -> Point {
    let here = board.square(from);
    let (f0, r0) = (i32::from(here.file()), i32::from(here.rank()));
    board
        .points()
        .filter_map(|p| {
            let sq = board.square(p);
            let (df, dr) = (i32::from(sq.file()) - f0, i32::from(sq.rank()) - r0);
            let (ahead, aside) = match direction {
                Direction::Up => (dr, df),
                Direction::Down => (-dr, df),
                Direction::Left => (-df, dr),
                Direction::Right => (df, dr),
            };
            (ahead > 0).then_some((p, ahead + 2 * aside.abs(), aside.abs()))
        })
        .min_by_key(|&(_, cost, aside)| (cost, aside))
        .map_or(from, |(p, ..)| p)
}

#[cfg(test)]
mod tests {
    use morris_core::BoardKind;

    use super::*;

    fn name(board: &Board, p: Point) -> String {
        board.square(p).to_string()
    }

    #[test]
    fn arrows_follow_the_lines() {
        let board = BoardKind::Standard.board();
        let p = |n: &str| board.point(n).unwrap();
        assert_eq!(name(board, step(board, p("a4"), Direction::Up)), "a7");
        assert_eq!(name(board, step(board, p("a7"), Direction::Right)), "d7");
        assert_eq!(name(board, step(board, p("d7"), Direction::Down)), "d6");
        assert_eq!(name(board, step(board, p("d5"), Direction::Down)), "d3");
        assert_eq!(name(board, step(board, p("a7"), Direction::Up)), "a7");
        assert_eq!(name(board, step(board, p("g1"), Direction::Left)), "d1");
    }

    #[test]
    fn fits_the_board_and_finds_clicks() {
        let board = BoardKind::Standard.board();
        let (w, h) = Geometry::min_size(7);
        assert!(Geometry::fit(board, Rect::new(0, 0, w, h)).is_some());
        assert!(Geometry::fit(board, Rect::new(0, 0, w - 1, h)).is_none());
        assert!(Geometry::fit(board, Rect::new(0, 0, w, h - 1)).is_none());
        let geo = Geometry::fit(board, Rect::new(0, 0, 60, 30)).unwrap();
        for p in board.points() {
            let (x, y) = geo.cell(board.square(p));
            assert_eq!(geo.hit(board, x, y), Some(p));
            assert_eq!(geo.hit(board, x + 1, y), Some(p));
            assert!(geo.frame().contains((x, y).into()));
        }
        assert_eq!(geo.hit(board, 0, 0), None);
    }
}
