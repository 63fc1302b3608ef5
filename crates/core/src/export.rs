//! Games written for other programs: as records Sanmill imports and in PlayOK's numeric
//! notation. (The rule book's own record is [`GameRecord`]'s `Display`; positions are written by
//! [`crate::sanmill::write`] and [`crate::malom::write`].)

use std::fmt;

use crate::Position;
use crate::record::{GameRecord, write_record};
use crate::sanmill::{self, UnsupportedBoard};
use crate::variant::Variant;

/// The error of writing a game in a format that has no place for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportError {
    /// The format writes no board of this variant.
    Board(UnsupportedBoard),
    /// The format has no way to give a start position other than the start.
    SetUp {
        /// The format.
        format: &'static str,
    },
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Board(e) => write!(f, "{e}"),
            ExportError::SetUp { format } => write!(
                f,
                "{format} records start from the start; this game starts from a set-up position"
            ),
        }
    }
}

impl std::error::Error for ExportError {}

impl From<UnsupportedBoard> for ExportError {
    fn from(e: UnsupportedBoard) -> ExportError {
        ExportError::Board(e)
    }
}

/// The name Sanmill's `Variant` tag gives a variant.
pub fn sanmill_variant_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Nine => "Nine Men's Morris",
        Variant::Twelve => "Twelve Men's Morris",
        Variant::Morabaraba => "Morabaraba",
        Variant::Lasker => "Lasker Morris",
        Variant::Three => "Three Men's Morris",
        Variant::Six => "Six Men's Morris",
    }
}

/// Writes a game as a record Sanmill imports: its variant name, a Sanmill position string in
/// the `FEN` tag for a set-up game, plies in the rule book's notation. Rule options that differ
/// from the variant's follow as tags of their own, which Sanmill passes over. A `Site` tag
/// naming PlayOK is left out: Sanmill would read the plies as PlayOK's numbers.
///
/// ```
/// use morris_core::{Game, GameRecord, Position, Variant, export};
/// let mut game = Game::new(Position::start(Variant::Nine));
/// game.play_text("d6")?;
/// let text = export::sanmill_record(&GameRecord::new(game))?;
/// assert!(text.contains("[Variant \"Nine Men's Morris\"]"));
/// assert!(text.ends_with("1. d6 *\r\n"));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`ExportError::Board`] for the boards of Three and Six Men's Morris.
pub fn sanmill_record(record: &GameRecord) -> Result<String, ExportError> {
    let start = record.game.start();
    let fen = sanmill::write(start)?;
    let setup = (*start != Position::new(*start.rules())).then_some(fen);
    // Sanmill reads a record with `[Site "PlayOK"]` as PlayOK's numbers.
    let mut record = record.clone();
    record
        .tags
        .retain(|(n, v)| !(n.eq_ignore_ascii_case("Site") && v.trim() == "PlayOK"));
    let text = write_record(
        &record,
        sanmill_variant_name(start.rules().variant),
        setup,
        |pos, ply| ply.display(pos.board()).to_string(),
    );
    // Sanmill writes its records with CR LF line ends.
    Ok(text.replace('\n', "\r\n"))
}

/// The PlayOK number of a point: 1 to 24 in the order of the position string.
fn number(pos: &Position, point: crate::Point) -> usize {
    pos.board()
        .points()
        .position(|p| p == point)
        .map_or(0, |i| i + 1)
}

/// Writes a game in PlayOK's numeric notation: points 1 to 24 in the order of the position
/// string (`a7` is 1, `g1` 24), `10-1x23`; the tags given are kept (`TimeControl`,
/// `WhiteElo`, …).
///
/// ```
/// use morris_core::{Game, GameRecord, Position, Variant, export};
/// let mut game = Game::new(Position::start(Variant::Nine));
/// game.play_text("d6")?;
/// game.play_text("f4")?;
/// let text = export::playok_record(&GameRecord::new(game))?;
/// assert!(text.ends_with("1. 5 14 *\n"), "{text}");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`ExportError::Board`] for boards that are not of 24 points, [`ExportError::SetUp`] for a
/// game that does not start from the start.
pub fn playok_record(record: &GameRecord) -> Result<String, ExportError> {
    let start = record.game.start();
    if start.board().len() != 24 {
        return Err(ExportError::Board(UnsupportedBoard {
            format: "PlayOK",
            variant: start.rules().variant,
        }));
    }
    if *start != Position::new(*start.rules()) {
        return Err(ExportError::SetUp { format: "PlayOK" });
    }
    Ok(write_record(
        record,
        start.rules().variant.name(),
        None,
        |pos, ply| {
            let mut out = String::new();
            if let Some(from) = ply.from() {
                out.push_str(&format!("{}-", number(pos, from)));
            }
            out.push_str(&number(pos, ply.to()).to_string());
            for r in ply.removals() {
                out.push_str(&format!("x{}", number(pos, r)));
            }
            out
        },
    ))
}
