//! Position strings: the project's own, both ways, and Sanmill's, read.

use std::fmt;

use crate::bitboard::Bitboard;
use crate::board::{Board, BoardKind};
use crate::color::{ByColor, Color};
use crate::position::Position;
use crate::setup::{Setup, SetupError};
use crate::variant::Rules;

/// The error of a position string that cannot be read: which field, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseFenError {
    /// The field that is wrong, such as `board` or `white in hand`.
    pub field: &'static str,
    /// What is wrong with it.
    pub message: String,
}

impl ParseFenError {
    fn new(field: &'static str, message: impl Into<String>) -> ParseFenError {
        ParseFenError {
            field,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read position string: {}: {}",
            self.field, self.message
        )
    }
}

impl std::error::Error for ParseFenError {}

/// The error of a position string: it cannot be read, or it is not a position that can occur.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// The string cannot be read.
    Parse(ParseFenError),
    /// The string reads, but the position cannot occur.
    Invalid(SetupError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Parse(e) => write!(f, "{e}"),
            FenError::Invalid(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<ParseFenError> for FenError {
    fn from(e: ParseFenError) -> FenError {
        FenError::Parse(e)
    }
}

impl From<SetupError> for FenError {
    fn from(e: SetupError) -> FenError {
        FenError::Invalid(e)
    }
}

/// The lengths of the rows of a board's position string, top rank first.
fn row_lengths(board: &Board) -> Vec<usize> {
    let mut rows: Vec<usize> = Vec::new();
    let mut last_rank = None;
    for p in board.points() {
        let rank = board.square(p).rank();
        if last_rank == Some(rank) {
            if let Some(n) = rows.last_mut() {
                *n += 1;
            }
        } else {
            rows.push(1);
            last_rank = Some(rank);
        }
    }
    rows
}

fn number<T: std::str::FromStr>(field: &'static str, text: &str) -> Result<T, ParseFenError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseFenError::new(
            field,
            format!("expected a number, found '{}'", shorten(text)),
        ));
    }
    text.parse()
        .map_err(|_| ParseFenError::new(field, format!("'{}' is too large", shorten(text))))
}

fn shorten(text: &str) -> String {
    text.chars().take(24).collect()
}

/// The points of Sanmill's rings, each clockwise from the top middle: inner, middle, outer.
const SANMILL_RINGS: [[&str; 8]; 3] = [
    ["d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5"],
    ["d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6"],
    ["d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7"],
];

impl Setup {
    /// Reads a position string under these rules: the project's own form or Sanmill's.
    ///
    /// # Errors
    ///
    /// A [`ParseFenError`] naming the field that cannot be read.
    pub fn from_fen(rules: Rules, text: &str) -> Result<Setup, ParseFenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let Some(first) = fields.first() else {
            return Err(ParseFenError::new("board", "the string is empty"));
        };
        let is_sanmill = rules.board().len() == 24
            && first.split('/').count() == 3
            && first.split('/').all(|r| r.chars().count() == 8);
        if is_sanmill {
            return Setup::from_sanmill(rules, &fields);
        }
        if fields.len() != 6 {
            return Err(ParseFenError::new(
                "fields",
                format!(
                    "expected 6 fields (board, side, white in hand, black in hand, plies since removal, move number), found {}",
                    fields.len()
                ),
            ));
        }
        let board = rules.board();
        let rows: Vec<&str> = fields[0].split('/').collect();
        let lengths = row_lengths(board);
        if rows.len() != lengths.len() {
            return Err(ParseFenError::new(
                "board",
                format!(
                    "expected {} rows for {}, found {}",
                    lengths.len(),
                    rules.variant,
                    rows.len()
                ),
            ));
        }
        let mut pieces = ByColor::splat(Bitboard::EMPTY);
        let mut points = board.points();
        for (i, (row, &len)) in rows.iter().zip(&lengths).enumerate() {
            if row.chars().count() != len {
                return Err(ParseFenError::new(
                    "board",
                    format!(
                        "row {} '{}' has {} points, expected {len}",
                        i + 1,
                        shorten(row),
                        row.chars().count()
                    ),
                ));
            }
            for c in row.chars() {
                let Some(p) = points.next() else { break };
                match c {
                    'W' | 'w' => pieces.white.insert(p),
                    'B' | 'b' => pieces.black.insert(p),
                    '.' => {}
                    other => {
                        return Err(ParseFenError::new(
                            "board",
                            format!("'{other}' is not W, B or '.'"),
                        ));
                    }
                }
            }
        }
        let turn = match fields[1] {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            other => {
                return Err(ParseFenError::new(
                    "side to move",
                    format!("expected w or b, found '{}'", shorten(other)),
                ));
            }
        };
        Ok(Setup {
            rules,
            pieces,
            in_hand: ByColor::new(
                number("white in hand", fields[2])?,
                number("black in hand", fields[3])?,
            ),
            turn,
            plies_since_removal: number("plies since removal", fields[4])?,
            move_number: number("move number", fields[5])?,
        })
    }

    fn from_sanmill(rules: Rules, fields: &[&str]) -> Result<Setup, ParseFenError> {
        // Older Sanmill versions wrote 12 fields: no last-mill fields and no mills bitmask.
        let counters = match fields.len() {
            12 => 10,
            n if n >= 17 => 15,
            n => {
                return Err(ParseFenError::new(
                    "fields",
                    format!(
                        "a Sanmill position string has 17 fields (12 in older versions), found {n}"
                    ),
                ));
            }
        };
        let board = rules.board();
        let mut pieces = ByColor::splat(Bitboard::EMPTY);
        for (ring, names) in fields[0].split('/').zip(SANMILL_RINGS) {
            for (c, name) in ring.chars().zip(names) {
                let Some(p) = board.point(name) else { continue };
                match c {
                    'O' => pieces.white.insert(p),
                    '@' => pieces.black.insert(p),
                    '*' => {}
                    'X' => {
                        return Err(ParseFenError::new(
                            "board",
                            "marked points (X) are not used by these rules",
                        ));
                    }
                    other => {
                        return Err(ParseFenError::new(
                            "board",
                            format!("'{other}' is not O, @ or *"),
                        ));
                    }
                }
            }
        }
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(ParseFenError::new(
                    "side to move",
                    format!("expected w or b, found '{}'", shorten(other)),
                ));
            }
        };
        if !matches!(fields[2], "r" | "p" | "m" | "o" | "n") {
            return Err(ParseFenError::new(
                "phase",
                format!("expected r, p, m, o or n, found '{}'", shorten(fields[2])),
            ));
        }
        match fields[3] {
            // `?`: no action, as Sanmill writes when none is pending.
            "p" | "s" | "?" => {}
            "r" => {
                return Err(ParseFenError::new(
                    "action",
                    "the position owes a removal; here a ply carries its removal, so give the position before the ply that closed the mill",
                ));
            }
            other => {
                return Err(ParseFenError::new(
                    "action",
                    format!("expected p, s or r, found '{}'", shorten(other)),
                ));
            }
        }
        let white_on_board: usize = number("white on board", fields[4])?;
        let white_in_hand: u8 = number("white in hand", fields[5])?;
        let black_on_board: usize = number("black on board", fields[6])?;
        let black_in_hand: u8 = number("black in hand", fields[7])?;
        if white_on_board != pieces.white.count() {
            return Err(ParseFenError::new(
                "white on board",
                format!(
                    "says {white_on_board} but the board shows {}",
                    pieces.white.count()
                ),
            ));
        }
        if black_on_board != pieces.black.count() {
            return Err(ParseFenError::new(
                "black on board",
                format!(
                    "says {black_on_board} but the board shows {}",
                    pieces.black.count()
                ),
            ));
        }
        for (i, field) in fields[8..counters].iter().enumerate() {
            let name = if i < 2 {
                "pieces to remove"
            } else {
                "mill fields"
            };
            number::<u64>(name, field)?;
        }
        let mut plies_since_removal: u16 = number("plies since removal", fields[counters])?;
        let move_number: u32 = number("move number", fields[counters + 1])?;
        if !rules.place_or_move && (white_in_hand > 0 || black_in_hand > 0) {
            plies_since_removal = 0;
        }
        Ok(Setup {
            rules,
            pieces,
            in_hand: ByColor::new(white_in_hand, black_in_hand),
            turn,
            plies_since_removal,
            move_number: move_number.max(1),
        })
    }
}

impl Position {
    /// Reads and checks a position string (the project's own or Sanmill's) under these rules.
    ///
    /// ```
    /// use morris_core::{Position, Variant};
    /// let pos = Position::from_fen(Variant::Nine.rules(), ".../.W./.../....B./.../.../... w 8 8 0 2")?;
    /// assert_eq!(pos.in_hand(morris_core::Color::White), 8);
    /// let sanmill = "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1";
    /// assert_eq!(Position::from_fen(Variant::Nine.rules(), sanmill)?, Position::start(Variant::Nine));
    /// # Ok::<_, morris_core::FenError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`FenError::Parse`] when it cannot be read, [`FenError::Invalid`] when the position
    /// cannot occur.
    pub fn from_fen(rules: Rules, text: &str) -> Result<Position, FenError> {
        Ok(Setup::from_fen(rules, text)?.into_position()?)
    }

    /// The position string.
    pub fn fen(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = self.board();
        let mut points = board.points();
        for (i, len) in row_lengths(board).into_iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            for p in points.by_ref().take(len) {
                f.write_str(match self.piece_at(p) {
                    Some(Color::White) => "W",
                    Some(Color::Black) => "B",
                    None => ".",
                })?;
            }
        }
        write!(
            f,
            " {} {} {} {} {}",
            self.turn().letter(),
            self.in_hand(Color::White),
            self.in_hand(Color::Black),
            self.plies_since_removal(),
            self.move_number()
        )
    }
}

/// Draws a position as text, with the board's lines and point names; used by `d` in the engine
/// protocol and by the terminal app's plain mode.
pub fn draw_board(pos: &Position) -> String {
    let board = pos.board();
    let piece = |name: &str| match board.point(name).and_then(|p| pos.piece_at(p)) {
        Some(Color::White) => 'W',
        Some(Color::Black) => 'B',
        None => '.',
    };
    let template: &[&str] = match board.kind() {
        BoardKind::Diagonal => &[
            "7  a7-----------d7-----------g7",
            "   | \\          |          / |",
            "6  |   b6-------d6-------f6  |",
            "   |   | \\      |      / |   |",
            "5  |   |   c5---d5---e5  |   |",
            "   |   |   |         |   |   |",
            "4  a4--b4--c4        e4--f4--g4",
            "   |   |   |         |   |   |",
            "3  |   |   c3---d3---e3  |   |",
            "   |   | /      |      \\ |   |",
            "2  |   b2-------d2-------f2  |",
            "   | /          |          \\ |",
            "1  a1-----------d1-----------g1",
            "   a   b   c    d    e   f   g",
        ],
        BoardKind::Standard => &[
            "7  a7-----------d7-----------g7",
            "   |            |            |",
            "6  |   b6-------d6-------f6  |",
            "   |   |        |        |   |",
            "5  |   |   c5---d5---e5  |   |",
            "   |   |   |         |   |   |",
            "4  a4--b4--c4        e4--f4--g4",
            "   |   |   |         |   |   |",
            "3  |   |   c3---d3---e3  |   |",
            "   |   |        |        |   |",
            "2  |   b2-------d2-------f2  |",
            "   |            |            |",
            "1  a1-----------d1-----------g1",
            "   a   b   c    d    e   f   g",
        ],
        BoardKind::Six => &[
            "5  a5-------c5-------e5",
            "   |        |        |",
            "4  |   b4---c4---d4  |",
            "   |   |         |   |",
            "3  a3--b3        d3--e3",
            "   |   |         |   |",
            "2  |   b2---c2---d2  |",
            "   |        |        |",
            "1  a1-------c1-------e1",
            "   a   b    c    d   e",
        ],
        BoardKind::Three => &[
            "3  a3---b3---c3",
            "   |  \\ |  / |",
            "2  a2---b2---c2",
            "   |  / |  \\ |",
            "1  a1---b1---c1",
            "   a    b    c",
        ],
    };
    let mut out = String::new();
    for line in template {
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let is_name = i >= 3
                && i + 1 < bytes.len()
                && bytes[i].is_ascii_lowercase()
                && bytes[i + 1].is_ascii_digit();
            if is_name {
                out.push(piece(&line[i..i + 2]));
                out.push(if bytes.get(i + 2) == Some(&b'-') {
                    '-'
                } else {
                    ' '
                });
                i += 2;
            } else {
                out.push(bytes[i] as char);
                i += 1;
            }
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}
