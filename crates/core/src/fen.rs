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
    pub(crate) fn new(field: &'static str, message: impl Into<String>) -> ParseFenError {
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
        if crate::sanmill::is_sanmill_board(first) {
            let read = crate::sanmill::read(rules, text)?;
            if read.owed > 0 {
                return Err(ParseFenError::new(
                    "action",
                    "the position owes a removal (action r), which a position here cannot hold: read it with sanmill::PendingRemoval, or give the position before the ply that closed the mill",
                ));
            }
            return Ok(read.setup);
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
