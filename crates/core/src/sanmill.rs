//! Sanmill's position strings: read in every version Sanmill has written, and written in its
//! current form; and the positions they can describe that the project's own string cannot, a
//! removal still owed ([`PendingRemoval`]).
//!
//! The current form, for the start of `nine`:
//!
//! ```text
//! ********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 ids:nodes
//! ```
//!
//! Three rings of 8 points, inner, middle and outer, each clockwise from the top middle (`O`
//! white, `@` black, `*` empty); side; phase; action; White on board and in hand, Black on
//! board and in hand; pieces each side is to remove; four last-mill fields; a mills bitmask;
//! plies since removal; move number; extension fields. Older versions wrote 16 fields (no
//! bitmask), 12 (no last-mill fields) and 11 (one count of pieces to remove). The earliest 11-field
//! strings come from the years when the first player was `@`, written `b`, with its counts
//! first: they are told apart by what the string says, see [`read`].

use std::fmt;

use crate::bitboard::Bitboard;
use crate::color::{ByColor, Color};
use crate::fen::{FenError, ParseFenError};
use crate::point::Point;
use crate::position::{Position, valid_removals};
use crate::setup::{Setup, SetupError, SetupProblem};
use crate::variant::{DoubleMill, Rules};

/// The points of Sanmill's rings, each clockwise from the top middle: inner, middle, outer.
pub const RINGS: [[&str; 8]; 3] = [
    ["d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5"],
    ["d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6"],
    ["d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7"],
];

const RING_FIELDS: [&str; 3] = ["inner ring", "middle ring", "outer ring"];

/// Whether the board field of a position string is written the way Sanmill writes it: three
/// rings or Sanmill's piece letters, and none of the project's own.
pub(crate) fn is_sanmill_board(field: &str) -> bool {
    field.contains('/')
        && (field.split('/').count() == 3 || field.contains(['O', '@', '*']))
        && !field.contains(['W', 'B', '.'])
}

/// A Sanmill position string as read: the position as it stands, and the removals the side to
/// move still owes (0 when none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SanmillPosition {
    /// The pieces, hands and counters as the string gives them. When a removal is owed, the
    /// side to move is the side that removes, and the ply that earned it has been played.
    pub setup: Setup,
    /// The removals the side to move owes before the turn passes.
    pub owed: u8,
}

fn err(field: &'static str, message: impl Into<String>) -> ParseFenError {
    ParseFenError::new(field, message)
}

fn shorten(text: &str) -> String {
    text.chars().take(24).collect()
}

fn int<T: std::str::FromStr>(field: &'static str, text: &str) -> Result<T, ParseFenError> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(
            field,
            format!("expected a number, found '{}'", shorten(text)),
        ));
    }
    text.parse()
        .map_err(|_| err(field, format!("'{}' is out of range", shorten(text))))
}

/// Where the numbered fields of each form are.
struct Layout {
    /// The index of the first count of pieces to remove; the 11-field form has one count.
    remove: usize,
    /// The index of the four last-mill fields, if the form has them.
    last_mill: Option<usize>,
    /// The index of the mills bitmask, if the form has it.
    mask: Option<usize>,
    /// The index of the plies-since-removal counter; the move number follows.
    counters: usize,
}

/// Reads a Sanmill position string of any version under these rules.
///
/// The earliest 11-field form (before Sanmill made the first player `O`) is taken when the
/// counts say so: its first count pair matches the `@` pieces on the board and not the `O`
/// pieces, or, with equal counts, the side letter and the pieces in hand only fit a first
/// player written `b`. `@` is then read as White, the side that moves first.
///
/// # Errors
///
/// A [`ParseFenError`] naming the field that cannot be read; a ring with the wrong number of
/// points is named (`inner ring`, `middle ring`, `outer ring`). A moving-phase string with
/// pieces in hand is refused (field `phase`), as are the parts of Sanmill's rules these rules
/// do not have (removing one's own piece, custodian, intervention and leap captures).
pub fn read(rules: Rules, text: &str) -> Result<SanmillPosition, ParseFenError> {
    let all: Vec<&str> = text.split_whitespace().collect();
    let Some(&board_field) = all.first() else {
        return Err(err("board", "the string is empty"));
    };
    if rules.board().len() != 24 {
        return Err(err(
            "board",
            format!(
                "Sanmill position strings describe boards of 24 points; {} has {}",
                rules.variant,
                rules.board().len()
            ),
        ));
    }
    // Extension fields (`ids:nodes`, `c:…`, `p:…`) come last and hold a colon.
    let split = all
        .iter()
        .rposition(|f| !f.contains(':'))
        .map_or(0, |i| i + 1);
    let (fields, extensions) = all.split_at(split);
    let layout = match fields.len() {
        11 => Layout {
            remove: 8,
            last_mill: None,
            mask: None,
            counters: 9,
        },
        12 => Layout {
            remove: 8,
            last_mill: None,
            mask: None,
            counters: 10,
        },
        16 => Layout {
            remove: 8,
            last_mill: Some(10),
            mask: None,
            counters: 14,
        },
        n if n >= 17 => Layout {
            remove: 8,
            last_mill: Some(10),
            mask: Some(14),
            counters: 15,
        },
        n => {
            return Err(err(
                "fields",
                format!(
                    "a Sanmill position string has 17 fields and optional extensions (older versions 16, 12 or 11), found {n}"
                ),
            ));
        }
    };
    let rings: Vec<&str> = board_field.split('/').collect();
    if rings.len() != 3 {
        return Err(err(
            "board",
            format!(
                "expected three rings (inner/middle/outer), found {}",
                rings.len()
            ),
        ));
    }
    let board = rules.board();
    // The pieces written `O` and `@`.
    let mut o = Bitboard::EMPTY;
    let mut at = Bitboard::EMPTY;
    for ((ring, names), field) in rings.iter().zip(RINGS).zip(RING_FIELDS) {
        let n = ring.chars().count();
        if n != 8 {
            return Err(err(
                field,
                format!("'{}' has {n} points, expected 8", shorten(ring)),
            ));
        }
        for (c, name) in ring.chars().zip(names) {
            let Some(p) = board.point(name) else {
                continue;
            };
            match c {
                'O' => o.insert(p),
                '@' => at.insert(p),
                '*' => {}
                'X' => {
                    return Err(err(
                        "board",
                        format!("{field}: marked points (X) are not used by these rules"),
                    ));
                }
                other => {
                    return Err(err("board", format!("{field}: '{other}' is not O, @ or *")));
                }
            }
        }
    }
    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(err(
                "side to move",
                format!("expected w or b, found '{}'", shorten(other)),
            ));
        }
    };
    let phase = fields[2];
    if !matches!(phase, "r" | "p" | "m" | "o" | "n") {
        return Err(err(
            "phase",
            format!("expected r, p, m, o or n, found '{}'", shorten(phase)),
        ));
    }
    let action = fields[3];
    if !matches!(action, "p" | "s" | "r" | "?") {
        return Err(err(
            "action",
            format!("expected p, s, r or ?, found '{}'", shorten(action)),
        ));
    }
    let first_on: usize = int("white on board", fields[4])?;
    let first_hand: u8 = int("white in hand", fields[5])?;
    let second_on: usize = int("black on board", fields[6])?;
    let second_hand: u8 = int("black in hand", fields[7])?;
    // Which colour each letter and count pair means.
    let earliest = fields.len() == 11 && {
        let o_first = first_on == o.count() && second_on == at.count();
        let at_first = first_on == at.count() && second_on == o.count();
        if at_first && !o_first {
            true
        } else if at_first && o_first && (first_hand > 0 || second_hand > 0) {
            // The first pair is the first player's: equal hands mean the first player is to
            // move, one more in the second hand that the second player is.
            let first_to_move = first_hand == second_hand;
            let second_to_move = first_hand + 1 == second_hand;
            (first_to_move && side == Color::Black) || (second_to_move && side == Color::White)
        } else {
            false
        }
    };
    let (pieces, turn) = if earliest {
        (ByColor::new(at, o), !side)
    } else {
        (ByColor::new(o, at), side)
    };
    if first_on != pieces.white.count() {
        return Err(err(
            "white on board",
            format!(
                "says {first_on} but the board shows {}",
                pieces.white.count()
            ),
        ));
    }
    if second_on != pieces.black.count() {
        return Err(err(
            "black on board",
            format!(
                "says {second_on} but the board shows {}",
                pieces.black.count()
            ),
        ));
    }
    let in_hand = ByColor::new(first_hand, second_hand);
    let to_remove: ByColor<i64> = if fields.len() == 11 {
        let n: i64 = int("pieces to remove", fields[layout.remove])?;
        let mut counts = ByColor::splat(0);
        *counts.get_mut(turn) = n;
        counts
    } else {
        let first: i64 = int("pieces to remove", fields[layout.remove])?;
        let second: i64 = int("pieces to remove", fields[layout.remove + 1])?;
        if earliest {
            ByColor::new(second, first)
        } else {
            ByColor::new(first, second)
        }
    };
    for color in Color::ALL {
        let n = *to_remove.get(color);
        if n < 0 {
            return Err(err(
                "pieces to remove",
                format!(
                    "{} is to remove its own pieces, which these rules do not have",
                    color.title()
                ),
            ));
        }
        if n > 0 && color != turn {
            return Err(err(
                "pieces to remove",
                format!(
                    "{} owes a removal but {} is to move",
                    color.title(),
                    turn.title()
                ),
            ));
        }
    }
    let mut owed = u8::try_from(*to_remove.get(turn))
        .map_err(|_| err("pieces to remove", "more removals than a ply can earn"))?;
    if usize::from(owed) > crate::ply::MAX_REMOVALS {
        return Err(err("pieces to remove", "more removals than a ply can earn"));
    }
    match action {
        "r" if owed == 0 => owed = 1,
        "r" => {}
        _ if owed > 0 => {
            return Err(err(
                "action",
                format!("{owed} removals are owed, but the action is not r"),
            ));
        }
        _ => {}
    }
    if let Some(i) = layout.last_mill {
        for f in &fields[i..i + 4] {
            let square: i64 = int("last mill", f)?;
            if !(-1..32).contains(&square) {
                return Err(err(
                    "last mill",
                    format!("{square} is not a point of the board"),
                ));
            }
        }
    }
    if let Some(i) = layout.mask {
        int::<u64>("mills bitmask", fields[i])?;
    }
    let mut plies_since_removal: u16 = int("plies since removal", fields[layout.counters])?;
    let move_number: u32 = int("move number", fields[layout.counters + 1])?;
    for ext in extensions {
        let (key, value) = ext.split_once(':').unwrap_or((ext, ""));
        match key {
            "ids" => {}
            "p" => {
                int::<i64>("extensions", value)?;
            }
            "c" | "i" | "l" => {
                return Err(err(
                    "extensions",
                    format!(
                        "'{}': custodian, intervention and leap captures are not part of these rules",
                        shorten(ext)
                    ),
                ));
            }
            "s" if value != "0" => {
                return Err(err(
                    "extensions",
                    format!(
                        "'{}': removals for a stalemate are not part of these rules",
                        shorten(ext)
                    ),
                ));
            }
            _ => {}
        }
    }
    if phase == "m" && (first_hand > 0 || second_hand > 0) {
        return Err(err(
            "phase",
            format!(
                "the moving phase, but pieces remain in hand (White {}, Black {})",
                in_hand.white, in_hand.black
            ),
        ));
    }
    if !rules.place_or_move && (in_hand.white > 0 || in_hand.black > 0) {
        plies_since_removal = 0;
    }
    Ok(SanmillPosition {
        setup: Setup {
            rules,
            pieces,
            in_hand,
            turn,
            plies_since_removal,
            move_number: move_number.max(1),
        },
        owed,
    })
}

/// The error of writing a position in a format that has no place for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnsupportedBoard {
    /// The format, such as `Sanmill`.
    pub format: &'static str,
    /// The variant whose board the format cannot write.
    pub variant: crate::Variant,
}

impl fmt::Display for UnsupportedBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} writes boards of 24 points only, not that of {}",
            self.format, self.variant
        )
    }
}

impl std::error::Error for UnsupportedBoard {}

fn write_fields(setup: &Setup, owed: u8) -> Result<String, UnsupportedBoard> {
    let rules = &setup.rules;
    let board = rules.board();
    if board.len() != 24 {
        return Err(UnsupportedBoard {
            format: "Sanmill",
            variant: rules.variant,
        });
    }
    let mut out = String::with_capacity(80);
    for (i, names) in RINGS.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        for name in names {
            let p = board.point(name);
            let at = |c: Color| p.is_some_and(|p| setup.pieces.get(c).contains(p));
            out.push(if at(Color::White) {
                'O'
            } else if at(Color::Black) {
                '@'
            } else {
                '*'
            });
        }
    }
    let hands = setup.in_hand;
    let phase = if hands.white > 0 || hands.black > 0 {
        'p'
    } else {
        'm'
    };
    let action = if owed > 0 {
        'r'
    } else if *hands.get(setup.turn) > 0 {
        'p'
    } else {
        's'
    };
    let mut remove = ByColor::splat(0u8);
    *remove.get_mut(setup.turn) = owed;
    let on = setup.pieces.map(|p| p.count());
    out.push_str(&format!(
        " {} {phase} {action} {} {} {} {} {} {} -1 -1 -1 -1 0 {} {} ids:nodes",
        setup.turn.letter(),
        on.white,
        hands.white,
        on.black,
        hands.black,
        remove.white,
        remove.black,
        setup.plies_since_removal,
        setup.move_number
    ));
    Ok(out)
}

/// Writes a position as a current Sanmill position string.
///
/// ```
/// use morris_core::{Position, Variant, sanmill};
/// let start = Position::start(Variant::Nine);
/// assert_eq!(
///     sanmill::write(&start)?,
///     "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 ids:nodes"
/// );
/// # Ok::<_, sanmill::UnsupportedBoard>(())
/// ```
///
/// # Errors
///
/// [`UnsupportedBoard`] for the boards of Three and Six Men's Morris, which Sanmill's strings
/// cannot hold.
pub fn write(position: &Position) -> Result<String, UnsupportedBoard> {
    write_fields(&position.to_setup(), 0)
}

/// A position in the middle of a ply: the ply closed a mill and its removal is still to be
/// made, as a Sanmill string with the action `r` (or a Malom string with a removal pending)
/// describes it.
///
/// [`crate::Position`] always holds whole plies, with the removal folded in; this type holds
/// the moment between. [`PendingRemoval::remove`] makes the removal and gives the position
/// after the whole ply.
///
/// ```
/// use morris_core::{Variant, sanmill::PendingRemoval};
/// // White has placed a7, d7 and g7, closing a mill; Black's two pieces wait to lose one.
/// let text = "********/@*****@*/OO*****O w p r 3 6 2 7 1 0 -1 -1 -1 -1 0 0 3 ids:nodes";
/// let pending = PendingRemoval::from_fen(Variant::Nine.rules(), text)?;
/// assert_eq!(pending.owed(), 1);
/// let after = pending.remove_text("xd6")?;
/// assert_eq!(after.fen(), "WWW/.../.../.B..../.../.../... b 6 7 0 3");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PendingRemoval {
    /// The position after the ply's placement or move, nothing removed yet, the opponent to
    /// move as after any ply.
    between: Position,
    /// The removals owed.
    owed: u8,
}

/// The error of a removal that [`PendingRemoval`] cannot make: it cannot be read, or it is not
/// legal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RemovalError {
    /// The text is not a removal, written `xd5` (or `d5`).
    Parse(String),
    /// The removal is not legal here; the message says why.
    Illegal(String),
}

impl fmt::Display for RemovalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RemovalError::Parse(m) => write!(f, "cannot read removal: {m}"),
            RemovalError::Illegal(m) => write!(f, "illegal removal: {m}"),
        }
    }
}

impl std::error::Error for RemovalError {}

impl PendingRemoval {
    /// The moment after a placement or move that closed a mill, with `owed` removals to make:
    /// `setup` is written as the string gives it, the removing side to move.
    ///
    /// # Errors
    ///
    /// A [`SetupError`] when the position cannot occur: besides the problems of any position
    /// (one ply later), the removing side has no mill, the opponent has no piece to remove, the
    /// rules remove nothing (Three Men's Morris), or more removals are owed than the rules give.
    pub fn new(setup: Setup, owed: u8) -> Result<PendingRemoval, SetupError> {
        let remover = setup.turn;
        let mut between = setup;
        between.turn = !remover;
        if remover == Color::Black {
            between.move_number = between.move_number.saturating_add(1);
        }
        let mut problems = between.problems();
        let board = setup.rules.board();
        let rules = &setup.rules;
        if rules.line_wins {
            problems.push(SetupProblem::RemovalNotInRules);
        } else {
            if !board.in_mills(*setup.pieces.get(remover)).any() {
                problems.push(SetupProblem::RemovalWithoutMill(remover));
            }
            if setup.pieces.get(!remover).is_empty() {
                problems.push(SetupProblem::NothingToRemove(!remover));
            }
            if owed == 0 || (owed > 1 && rules.double_mill == DoubleMill::One) {
                problems.push(SetupProblem::RemovalsOwed(owed));
            }
        }
        if !problems.is_empty() {
            return Err(SetupError { problems });
        }
        Ok(PendingRemoval {
            between: Position::from_checked_setup(between),
            owed,
        })
    }

    /// Reads a Sanmill position string that owes a removal (action `r`).
    ///
    /// # Errors
    ///
    /// [`FenError::Parse`] when it cannot be read or owes no removal, [`FenError::Invalid`]
    /// when the moment cannot occur.
    pub fn from_fen(rules: Rules, text: &str) -> Result<PendingRemoval, FenError> {
        let read = read(rules, text)?;
        if read.owed == 0 {
            return Err(FenError::Parse(err(
                "action",
                "the position owes no removal; read it as a position",
            )));
        }
        Ok(PendingRemoval::new(read.setup, read.owed)?)
    }

    /// The side that removes.
    pub fn remover(&self) -> Color {
        !self.between.turn()
    }

    /// The removals owed.
    pub fn owed(&self) -> usize {
        usize::from(self.owed)
    }

    /// The position after the placement or move, before the removal, the opponent to move.
    pub fn position_before_removal(&self) -> &Position {
        &self.between
    }

    /// The opposing pieces that may be removed first.
    pub fn removable(&self) -> Bitboard {
        self.between.removable(self.between.turn())
    }

    /// Makes the removals and gives the position after the whole ply.
    ///
    /// # Errors
    ///
    /// [`RemovalError::Illegal`] when `points` is not a set of removals that can be made, one
    /// after another, as many as owed (fewer only when nothing more may be removed).
    pub fn remove(&self, points: Bitboard) -> Result<Position, RemovalError> {
        let pos = &self.between;
        let victim = pos.turn();
        let board = pos.board();
        if !pos.pieces(victim).is_superset(points) {
            return Err(RemovalError::Illegal(format!(
                "{} has no piece on every point named",
                victim.title()
            )));
        }
        if !valid_removals(
            board,
            pos.rules().mill_removal,
            pos.pieces(victim),
            points,
            self.owed(),
        ) {
            let noun = if self.owed == 1 { "piece" } else { "pieces" };
            return Err(RemovalError::Illegal(format!(
                "{} {noun} to remove, from those the rules allow ({})",
                self.owed,
                self.removable()
                    .into_iter()
                    .map(|p: Point| board.square(p).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            )));
        }
        let mut setup = pos.to_setup();
        *setup.pieces.get_mut(victim) = pos.pieces(victim) - points;
        setup.plies_since_removal = 0;
        setup
            .into_position()
            .map_err(|e| RemovalError::Illegal(format!("the position after it cannot occur: {e}")))
    }

    /// Reads removals written `xd5` (or `d5`, or `xd5xe4` for two) and makes them.
    ///
    /// # Errors
    ///
    /// [`RemovalError::Parse`] when the text is not a removal, [`RemovalError::Illegal`] as for
    /// [`PendingRemoval::remove`].
    pub fn remove_text(&self, text: &str) -> Result<Position, RemovalError> {
        let board = self.between.board();
        let mut points = Bitboard::EMPTY;
        let text = text.trim();
        let body = text.strip_prefix(['x', 'X']).unwrap_or(text);
        for name in body.split(['x', 'X']) {
            let p = board.point(name).ok_or_else(|| {
                RemovalError::Parse(format!("'{}' is not a point of the board", shorten(name)))
            })?;
            points.insert(p);
        }
        self.remove(points)
    }

    /// Every legal set of removals.
    pub fn legal_removals(&self) -> Vec<Bitboard> {
        let victims = self.between.pieces(self.between.turn());
        let mut out: Vec<Bitboard> = Vec::new();
        let mut sets = vec![Bitboard::EMPTY];
        for _ in 0..self.owed {
            let mut next = Vec::new();
            for s in &sets {
                for p in victims - *s {
                    next.push(*s | Bitboard::from_point(p));
                }
            }
            sets = next;
        }
        for s in sets {
            if self.remove(s).is_ok() && !out.contains(&s) {
                out.push(s);
            }
        }
        if out.is_empty() {
            // Nothing may be removed after all (every piece protected): the ply removes none.
            if self.remove(Bitboard::EMPTY).is_ok() {
                out.push(Bitboard::EMPTY);
            }
        }
        out
    }

    /// Writes the moment as a current Sanmill position string, action `r`.
    ///
    /// # Errors
    ///
    /// As [`write()`].
    pub fn to_sanmill(&self) -> Result<String, UnsupportedBoard> {
        let mut setup = self.between.to_setup();
        setup.turn = self.remover();
        if setup.turn == Color::Black {
            setup.move_number = setup.move_number.saturating_sub(1).max(1);
        }
        write_fields(&setup, self.owed)
    }
}
