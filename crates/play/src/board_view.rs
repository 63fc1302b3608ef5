//! Drawing a board: lines, points, pieces, labels and highlights, into a screen buffer.

use morris_core::{Bitboard, Color as Side, Ply, Point, Position};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style, Stylize};

use crate::geometry::Geometry;

/// The glyph of a White piece: hollow, as in chess diagrams, so it reads without colour.
pub const WHITE_PIECE: &str = "○";
/// The glyph of a Black piece: filled.
pub const BLACK_PIECE: &str = "●";
/// The glyph of an empty point the next choice can be.
pub const TARGET: &str = "•";
/// The glyph of a point a piece was just removed from.
pub const REMOVED: &str = "×";

/// The glyph of the point a piece has just left.
pub const LEFT: &str = "◌";

/// The wood the board is drawn on.
pub const WOOD: Color = Color::Indexed(180);
/// The lines of the board.
const LINE: Color = Color::Indexed(94);
/// The labels around the board.
const LABEL: Color = Color::Indexed(244);

/// The glyph of a side's piece.
pub fn piece_glyph(side: Side) -> &'static str {
    match side {
        Side::White => WHITE_PIECE,
        Side::Black => BLACK_PIECE,
    }
}

/// The style of a side's piece on the wood.
pub fn piece_style(side: Side) -> Style {
    let fg = match side {
        Side::White => Color::Indexed(231),
        Side::Black => Color::Indexed(16),
    };
    Style::new().fg(fg).bg(WOOD).add_modifier(Modifier::BOLD)
}

/// The style of a side's piece as a tile three cells wide.
fn tile_style(side: Side) -> Style {
    let (fg, bg) = match side {
        Side::White => (Color::Indexed(240), Color::Indexed(255)),
        Side::Black => (Color::Indexed(250), Color::Indexed(235)),
    };
    Style::new().fg(fg).bg(bg).add_modifier(Modifier::BOLD)
}

/// What to mark on the board besides the pieces.
#[derive(Debug, Clone, Copy, Default)]
pub struct Marks {
    /// The point under the cursor, if the cursor is shown.
    pub cursor: Option<Point>,
    /// The points the next choice can be.
    pub targets: Bitboard,
    /// The piece chosen to move.
    pub selected: Option<Point>,
    /// The removals chosen so far.
    pub removing: Bitboard,
    /// The last ply played.
    pub last: Option<Ply>,
    /// A hint to show.
    pub hint: Option<Ply>,
    /// A placement or move chosen but waiting for its removals: drawn as if played.
    pub pending: Option<Ply>,
}

fn put(buf: &mut Buffer, x: u16, y: u16, symbol: &str, style: Style) {
    if let Some(cell) = buf.cell_mut((x, y)) {
        cell.set_symbol(symbol).set_style(style);
    }
}

/// The junction drawn at an empty point, from the lines that leave it.
fn junction(up: bool, down: bool, left: bool, right: bool) -> &'static str {
    match (up, down, left, right) {
        (true, true, true, true) => "╋",
        (false, true, true, true) => "┳",
        (true, false, true, true) => "┻",
        (true, true, false, true) => "┣",
        (true, true, true, false) => "┫",
        (false, true, false, true) => "┏",
        (false, true, true, false) => "┓",
        (true, false, false, true) => "┗",
        (true, false, true, false) => "┛",
        (true, true, false, false) => "┃",
        (false, false, true, true) => "━",
        _ => "+",
    }
}

/// Draws `pos` with its marks where `geo` places it.
pub fn draw_board(buf: &mut Buffer, geo: &Geometry, pos: &Position, marks: &Marks) {
    let board = pos.board();
    let mut shown = *pos;
    if let Some(pending) = marks.pending {
        shown.play_unchecked(pending.with_removals(Bitboard::EMPTY));
    }
    let frame = geo.frame().intersection(buf.area);
    let gaps = u16::from(geo.size - 1);
    let wood = Rect::new(
        geo.left.saturating_sub(3),
        geo.top.saturating_sub(1),
        gaps * geo.dx + 7,
        gaps * geo.dy + 3,
    )
    .intersection(buf.area);
    buf.set_style(wood, Style::new().bg(WOOD));
    let line = Style::new().fg(LINE).bg(WOOD);

    // Labels: files above and below, ranks on both sides.
    let label = Style::new().fg(LABEL);
    let mut files = [false; 7];
    let mut ranks = [false; 7];
    for p in board.points() {
        let sq = board.square(p);
        files[usize::from(sq.file())] = true;
        ranks[usize::from(sq.rank())] = true;
    }
    for i in 0..geo.size {
        let letter = char::from(b'a' + i).to_string();
        let digit = char::from(b'1' + i).to_string();
        if files[usize::from(i)] {
            put(buf, geo.file_x(i), frame.top(), &letter, label);
            put(
                buf,
                geo.file_x(i),
                frame.bottom().saturating_sub(1),
                &letter,
                label,
            );
        }
        if ranks[usize::from(i)] {
            put(buf, frame.left(), geo.rank_y(i), &digit, label);
            put(
                buf,
                frame.right().saturating_sub(1),
                geo.rank_y(i),
                &digit,
                label,
            );
        }
    }

    // Lines, and which way each point's lines leave it.
    let mut ways = [[false; 4]; 24];
    for (a, b) in board.lines() {
        let (sa, sb) = (board.square(a), board.square(b));
        let (xa, ya) = geo.cell(sa);
        let (xb, yb) = geo.cell(sb);
        if ya == yb {
            let (l, r, pl, pr) = if xa < xb {
                (xa, xb, a, b)
            } else {
                (xb, xa, b, a)
            };
            ways[pl.index()][3] = true;
            ways[pr.index()][2] = true;
            for x in l + 1..r {
                put(buf, x, ya, "─", line);
            }
        } else if xa == xb {
            let (t, d, pt, pd) = if ya < yb {
                (ya, yb, a, b)
            } else {
                (yb, ya, b, a)
            };
            ways[pt.index()][1] = true;
            ways[pd.index()][0] = true;
            for y in t + 1..d {
                put(buf, xa, y, "│", line);
            }
        } else {
            draw_diagonal(buf, (xa, ya), (xb, yb), line);
        }
    }

    let hint_points = marks.hint.map_or(Bitboard::EMPTY, |h| {
        Bitboard::from(h.to()) | h.from().map_or(Bitboard::EMPTY, Bitboard::from)
    });
    // With room, a piece is a tile three cells wide; the cursor stands outside it.
    let wide = geo.dx >= 6;
    let reach = if wide { 2 } else { 1 };
    for p in board.points() {
        let (x, y) = geo.cell(board.square(p));
        let [up, down, left, right] = ways[p.index()];
        let last_to = marks.last.is_some_and(|l| l.to() == p);
        let last_from = marks.last.is_some_and(|l| l.from() == Some(p));
        let removed = marks.last.is_some_and(|l| l.removals().contains(p));
        let target = marks.targets.contains(p);
        let hinted = hint_points.contains(p);
        match shown.piece_at(p) {
            Some(side) => {
                let mut style = if wide {
                    tile_style(side)
                } else {
                    piece_style(side)
                };
                let (white, black) = if marks.selected == Some(p) {
                    (Some(77), Some(28))
                } else if marks.removing.contains(p) || (target && side != pos.turn()) {
                    (Some(210), Some(124))
                } else if target {
                    (Some(157), Some(22))
                } else if hinted {
                    (Some(117), Some(24))
                } else {
                    (None, None)
                };
                let tint = match side {
                    Side::White => white,
                    Side::Black => black,
                };
                if let Some(tint) = tint {
                    style = style.bg(Color::Indexed(tint));
                }
                if last_to {
                    style = style.add_modifier(Modifier::UNDERLINED);
                }
                if wide {
                    put(buf, x - 1, y, " ", style);
                    put(buf, x + 1, y, " ", style);
                }
                put(buf, x, y, piece_glyph(side), style);
            }
            None => {
                // The marks of the last ply stay visible on a point that is also a target; the
                // target's colour tells that it is one.
                let target_style = Style::new()
                    .fg(Color::Indexed(22))
                    .bg(WOOD)
                    .add_modifier(Modifier::BOLD);
                let (symbol, mut style) = if removed {
                    (
                        REMOVED,
                        Style::new().fg(Color::Indexed(124)).bg(WOOD).bold(),
                    )
                } else if last_from {
                    (LEFT, Style::new().fg(Color::Indexed(94)).bg(WOOD).bold())
                } else if target {
                    (TARGET, target_style)
                } else {
                    (
                        junction(up, down, left, right),
                        line.add_modifier(Modifier::BOLD),
                    )
                };
                if target {
                    style = target_style;
                }
                if hinted {
                    style = style.bg(Color::Indexed(117));
                }
                put(buf, x, y, symbol, style);
            }
        }
        if marks.cursor == Some(p) {
            let style = Style::new()
                .fg(Color::Indexed(18))
                .bg(WOOD)
                .add_modifier(Modifier::BOLD);
            put(buf, x.saturating_sub(reach), y, "[", style);
            put(buf, x + reach, y, "]", style);
        }
    }
}

fn draw_diagonal(buf: &mut Buffer, a: (u16, u16), b: (u16, u16), style: Style) {
    let ((x0, y0), (x1, y1)) = if a.1 < b.1 { (a, b) } else { (b, a) };
    let glyph = if x1 > x0 { "╲" } else { "╱" };
    let rows = i32::from(y1) - i32::from(y0);
    let cols = i32::from(x1) - i32::from(x0);
    for step in 1..rows {
        let x = i32::from(x0) + cols * step / rows;
        // Both ends are on the screen, so every cell between them is too.
        if let Ok(x) = u16::try_from(x) {
            put(buf, x, y0 + step as u16, glyph, style);
        }
    }
}
