//! The position format of Malom, the perfect-play program of Gévay and Danner: 24 cells and
//! counters, separated by commas.
//!
//! ```text
//! -1,-1,-1,-1,-1,-1,-1,-1,-1,-1,0,-1,1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,0,0,0,1,1,1,1,1,False,2,2
//! ```
//!
//! The cells are `-1` empty, `0` White, `1` Black, for the points `a4 a7 d7 g7 g4 g1 d1 a1`
//! (outer square), `b4 b6 d6 f6 f4 f2 d2 b2`, `c4 c5 d5 e5 e4 e3 d3 c3`; then the side to move
//! (`0` White), two zeros, the phase (`1` placing, `2` moving), the pieces each side has
//! placed, the pieces each side has on the board, whether a removal is owed (`True`), the plies
//! played and the ply of the last placement or removal.

use crate::bitboard::Bitboard;
use crate::color::{ByColor, Color};
use crate::fen::{FenError, ParseFenError};
use crate::position::Position;
use crate::sanmill::{PendingRemoval, UnsupportedBoard};
use crate::setup::Setup;
use crate::variant::Rules;

/// The points of Malom's cells, in order.
pub const POINTS: [&str; 24] = [
    "a4", "a7", "d7", "g7", "g4", "g1", "d1", "a1", "b4", "b6", "d6", "f6", "f4", "f2", "d2", "b2",
    "c4", "c5", "d5", "e5", "e4", "e3", "d3", "c3",
];

/// Whether a text looks like a Malom position: at least 35 comma-separated fields.
pub(crate) fn looks_like_malom(text: &str) -> bool {
    let first = text.trim().lines().next().unwrap_or("");
    first.split(',').count() >= 35 && !first.contains('[')
}

fn err(field: &'static str, message: impl Into<String>) -> ParseFenError {
    ParseFenError::new(field, message)
}

fn int(field: &'static str, text: &str) -> Result<i64, ParseFenError> {
    text.trim().parse().map_err(|_| {
        err(
            field,
            format!(
                "expected a number, found '{}'",
                text.chars().take(24).collect::<String>()
            ),
        )
    })
}

/// Reads a Malom position under these rules: the setup as written and whether a removal is
/// owed (the side to move then removes).
fn read_setup(rules: Rules, text: &str) -> Result<(Setup, bool), ParseFenError> {
    let fields: Vec<&str> = text.trim().split(',').map(str::trim).collect();
    if fields.len() < 35 {
        return Err(err(
            "fields",
            format!(
                "a Malom position has 35 comma-separated fields, found {}",
                fields.len()
            ),
        ));
    }
    let board = rules.board();
    if board.len() != 24 {
        return Err(err(
            "board",
            format!(
                "Malom positions describe boards of 24 points; {} has {}",
                rules.variant,
                board.len()
            ),
        ));
    }
    let mut pieces = ByColor::splat(Bitboard::EMPTY);
    for (cell, name) in fields.iter().zip(POINTS) {
        let Some(p) = board.point(name) else { continue };
        match *cell {
            "-1" => {}
            "0" => pieces.white.insert(p),
            "1" => pieces.black.insert(p),
            other => {
                return Err(err(
                    "board",
                    format!(
                        "cell {name} is '{}', expected -1, 0 or 1",
                        other.chars().take(24).collect::<String>()
                    ),
                ));
            }
        }
    }
    let turn = match fields[24] {
        "0" => Color::White,
        "1" => Color::Black,
        other => {
            return Err(err(
                "side to move",
                format!(
                    "expected 0 or 1, found '{}'",
                    other.chars().take(24).collect::<String>()
                ),
            ));
        }
    };
    int("fields", fields[25])?;
    int("fields", fields[26])?;
    let phase = int("phase", fields[27])?;
    if !(1..=2).contains(&phase) {
        return Err(err("phase", format!("expected 1 or 2, found {phase}")));
    }
    let mut in_hand = ByColor::splat(0u8);
    for (color, field, name) in [
        (Color::White, fields[28], "white placed"),
        (Color::Black, fields[29], "black placed"),
    ] {
        let placed = int(name, field)?;
        let hand = i64::from(rules.pieces) - placed;
        *in_hand.get_mut(color) = u8::try_from(hand).map_err(|_| {
            err(
                name,
                format!(
                    "{placed} placed, but the rules give {} pieces",
                    rules.pieces
                ),
            )
        })?;
    }
    for (color, field, name) in [
        (Color::White, fields[30], "white on board"),
        (Color::Black, fields[31], "black on board"),
    ] {
        let on = int(name, field)?;
        let shown = pieces.get(color).count() as i64;
        if on != shown {
            return Err(err(name, format!("says {on} but the board shows {shown}")));
        }
    }
    let owed = match fields[32].to_ascii_lowercase().as_str() {
        "true" => true,
        "false" => false,
        other => {
            return Err(err(
                "removal owed",
                format!(
                    "expected True or False, found '{}'",
                    other.chars().take(24).collect::<String>()
                ),
            ));
        }
    };
    let plies = int("plies", fields[33])?.max(0);
    // A set-up position may count more plies since the last removal than it has plies.
    let last = int("last placement or removal", fields[34])?.min(plies);
    if phase == 2 && (in_hand.white > 0 || in_hand.black > 0) {
        return Err(err(
            "phase",
            format!(
                "the moving phase, but pieces remain in hand (White {}, Black {})",
                in_hand.white, in_hand.black
            ),
        ));
    }
    let mut plies_since_removal = u16::try_from(plies - last).unwrap_or(u16::MAX);
    if !rules.place_or_move && (in_hand.white > 0 || in_hand.black > 0) {
        plies_since_removal = 0;
    }
    let black = i64::from(turn == Color::Black);
    let move_number = u32::try_from((plies - black).max(0) / 2 + 1).unwrap_or(u32::MAX);
    Ok((
        Setup {
            rules,
            pieces,
            in_hand,
            turn,
            plies_since_removal,
            move_number,
        },
        owed,
    ))
}

/// Reads and checks a Malom position.
///
/// ```
/// use morris_core::{Position, Variant, malom};
/// let start = "-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,0,0,0,1,0,0,0,0,False,0,0";
/// assert_eq!(malom::read(Variant::Nine.rules(), start)?, Position::start(Variant::Nine));
/// # Ok::<_, morris_core::FenError>(())
/// ```
///
/// # Errors
///
/// [`FenError::Parse`] naming the field that cannot be read (a position owing a removal is
/// refused here: see [`read_pending`]), [`FenError::Invalid`] when it cannot occur.
pub fn read(rules: Rules, text: &str) -> Result<Position, FenError> {
    let (setup, owed) = read_setup(rules, text)?;
    if owed {
        return Err(FenError::Parse(err(
            "removal owed",
            "the position owes a removal, which a position here cannot hold: read it with malom::read_pending",
        )));
    }
    Ok(setup.into_position()?)
}

/// Reads a Malom position that owes a removal.
///
/// # Errors
///
/// As [`read`]; a position that owes no removal is refused.
pub fn read_pending(rules: Rules, text: &str) -> Result<PendingRemoval, FenError> {
    let (setup, owed) = read_setup(rules, text)?;
    if !owed {
        return Err(FenError::Parse(err(
            "removal owed",
            "the position owes no removal; read it with malom::read",
        )));
    }
    Ok(PendingRemoval::new(setup, 1)?)
}

/// Writes a position in Malom's format.
///
/// # Errors
///
/// [`UnsupportedBoard`] for boards that are not of 24 points.
pub fn write(position: &Position) -> Result<String, UnsupportedBoard> {
    let board = position.board();
    if board.len() != 24 {
        return Err(UnsupportedBoard {
            format: "Malom",
            variant: position.rules().variant,
        });
    }
    let mut out = String::new();
    for name in POINTS {
        let cell = match board.point(name).and_then(|p| position.piece_at(p)) {
            Some(Color::White) => "0",
            Some(Color::Black) => "1",
            None => "-1",
        };
        out.push_str(cell);
        out.push(',');
    }
    let pieces = position.rules().pieces;
    let (w, b) = (
        position.in_hand(Color::White),
        position.in_hand(Color::Black),
    );
    let phase = if w > 0 || b > 0 { 1 } else { 2 };
    let black = i64::from(position.turn() == Color::Black);
    let plies = 2 * i64::from(position.move_number() - 1) + black;
    let last = plies - i64::from(position.plies_since_removal());
    out.push_str(&format!(
        "{},0,0,{phase},{},{},{},{},False,{plies},{last}",
        position.turn().index(),
        pieces.saturating_sub(w),
        pieces.saturating_sub(b),
        position.pieces(Color::White).count(),
        position.pieces(Color::Black).count(),
    ));
    Ok(out)
}
