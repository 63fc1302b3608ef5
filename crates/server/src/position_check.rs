//! The check of a position set up by hand (the page's board editor): the rules core reads the
//! position string and names every problem that keeps it from being a position of the game,
//! each as a code that a client can put in a player's words, with the core's own sentence.

use axum::Json;
use morris_core::{Color, FenError, Position, SetupProblem, Variant};
use serde::{Deserialize, Deserializer, Serialize};

use crate::request::ApiJson;
use crate::response::Side;

/// The longest position string accepted, in bytes (Sanmill's with extension fields included).
pub const MAX_POSITION: usize = 400;

/// The body of `POST /api/positions/check`.
#[derive(Debug, Clone, Deserialize)]
pub struct CheckRequest {
    /// The variant the position is of.
    #[serde(default, deserialize_with = "variant")]
    pub variant: Variant,
    /// The position string.
    #[serde(deserialize_with = "position")]
    pub position: String,
}

fn variant<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
    let text = String::deserialize(d)?;
    text.parse().map_err(serde::de::Error::custom)
}

fn position<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    if text.len() > MAX_POSITION {
        return Err(serde::de::Error::custom(format!(
            "the position string is longer than {MAX_POSITION} bytes"
        )));
    }
    Ok(text)
}

/// What keeps a position from being one of the game, for a client to word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// The string cannot be read (`field` says which part).
    Unreadable,
    /// The rule options do not fit together.
    Rules,
    /// A side has pieces on points the board does not have.
    OffBoard,
    /// A side has more pieces in hand than the rules give (`count`).
    TooManyInHand,
    /// A side has more pieces on the board and in hand than the rules give.
    TooManyPieces,
    /// A point holds pieces of both sides.
    Overlap,
    /// The pieces in hand do not fit the side to move (placements alternate, White first).
    HandsDoNotAlternate,
    /// The N-move counter is not 0 while pieces remain in hand.
    CounterInPlacing,
    /// Both sides have fewer than three pieces.
    BothBelowThree,
    /// The side to move already has a line of three (Three Men's Morris).
    LineOfSideToMove,
    /// The move number is 0.
    MoveNumberZero,
    /// A removal is owed that cannot be.
    Removal,
    /// Another problem, in the core's words only.
    Other,
}

/// One problem of a position.
#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    /// What is wrong.
    pub problem: ProblemKind,
    /// The side it is about, if one.
    pub side: Option<Side>,
    /// A number it is about (pieces in hand), if one.
    pub count: Option<u8>,
    /// The field of the string that cannot be read, if it cannot.
    pub field: Option<&'static str>,
    /// The rules core's own words, for programs.
    pub text: String,
}

/// How a position that is already the end of a game ends.
#[derive(Debug, Clone, Serialize)]
pub struct OverView {
    /// The winner, or `null` for a draw.
    pub winner: Option<Side>,
    /// The reason, such as `blocked`.
    pub reason: &'static str,
}

/// The answer to `POST /api/positions/check`.
#[derive(Debug, Clone, Serialize)]
pub struct CheckView {
    /// Whether the position is one of the game.
    pub valid: bool,
    /// The position string as the project writes it, when valid.
    pub position: Option<String>,
    /// The side to move, when valid.
    pub turn: Option<Side>,
    /// The number of legal plies, when valid.
    pub legal: usize,
    /// How the game already ended in this position, if it did.
    pub over: Option<OverView>,
    /// Every problem found; empty when valid.
    pub problems: Vec<Problem>,
}

/// `POST /api/positions/check`: always 200 for a body that reads; the answer says what is
/// wrong with the position.
pub async fn check(ApiJson(request): ApiJson<CheckRequest>) -> Json<CheckView> {
    Json(check_position(request.variant, &request.position))
}

/// Checks a position string of a variant.
pub fn check_position(variant: Variant, text: &str) -> CheckView {
    match Position::from_fen(variant.rules(), text) {
        Ok(pos) => CheckView {
            valid: true,
            position: Some(pos.to_string()),
            turn: Some(pos.turn().into()),
            legal: if pos.outcome().is_some() {
                0
            } else {
                pos.legal_plies().len()
            },
            over: pos.outcome().map(|o| OverView {
                winner: o.winner.map(Side::from),
                reason: o.reason.name(),
            }),
            problems: Vec::new(),
        },
        Err(e) => CheckView {
            valid: false,
            position: None,
            turn: None,
            legal: 0,
            over: None,
            problems: problems(&e),
        },
    }
}

fn problems(error: &FenError) -> Vec<Problem> {
    match error {
        FenError::Parse(e) => vec![Problem {
            problem: ProblemKind::Unreadable,
            side: None,
            count: None,
            field: Some(e.field),
            text: e.to_string(),
        }],
        FenError::Invalid(e) => e.problems.iter().map(problem).collect(),
    }
}

fn problem(p: &SetupProblem) -> Problem {
    let side = |c: &Color| Some(Side::from(*c));
    let (kind, side, count) = match p {
        SetupProblem::Rules(_) => (ProblemKind::Rules, None, None),
        SetupProblem::OffBoard(c) => (ProblemKind::OffBoard, side(c), None),
        SetupProblem::TooManyInHand(c, n) => (ProblemKind::TooManyInHand, side(c), Some(*n)),
        SetupProblem::TooManyPieces(c) => (ProblemKind::TooManyPieces, side(c), None),
        SetupProblem::Overlap => (ProblemKind::Overlap, None, None),
        SetupProblem::HandsDoNotAlternate => (ProblemKind::HandsDoNotAlternate, None, None),
        SetupProblem::CounterInPlacing => (ProblemKind::CounterInPlacing, None, None),
        SetupProblem::BothBelowThree => (ProblemKind::BothBelowThree, None, None),
        SetupProblem::LineOfSideToMove => (ProblemKind::LineOfSideToMove, None, None),
        SetupProblem::MoveNumberZero => (ProblemKind::MoveNumberZero, None, None),
        SetupProblem::RemovalNotInRules
        | SetupProblem::RemovalWithoutMill(_)
        | SetupProblem::NothingToRemove(_)
        | SetupProblem::RemovalsOwed(_) => (ProblemKind::Removal, None, None),
        _ => (ProblemKind::Other, None, None),
    };
    Problem {
        problem: kind,
        side,
        count,
        field: None,
        text: p.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_good_position_is_written_back() {
        let v = check_position(Variant::Nine, ".../.W./.../....B./.../.../... w 8 8 0 2");
        assert!(v.valid);
        assert_eq!(v.turn, Some(Side::White));
        assert_eq!(v.legal, 22);
        assert!(v.over.is_none());
    }

    #[test]
    fn every_problem_is_named() {
        // Ten white pieces on the board of nine, and hands that do not alternate.
        let v = check_position(Variant::Nine, "WWW/WWW/WWW/W...../.../.../... w 0 3 0 1");
        assert!(!v.valid);
        let kinds: Vec<_> = v.problems.iter().map(|p| p.problem).collect();
        assert!(kinds.contains(&ProblemKind::TooManyPieces), "{kinds:?}");
        assert!(
            kinds.contains(&ProblemKind::HandsDoNotAlternate),
            "{kinds:?}"
        );
        let too_many = v
            .problems
            .iter()
            .find(|p| p.problem == ProblemKind::TooManyPieces)
            .unwrap();
        assert_eq!(too_many.side, Some(Side::White));
        let v = check_position(Variant::Nine, "..../.W./.../....B./.../.../... w 8 8 0 2");
        assert_eq!(v.problems[0].problem, ProblemKind::Unreadable);
        assert_eq!(v.problems[0].field, Some("board"));
    }

    #[test]
    fn a_finished_position_says_how_it_ended() {
        // Black has two pieces left: White has won.
        let v = check_position(Variant::Nine, "WWW/.../.../B...../B../.../... b 0 0 0 20");
        assert!(v.valid, "{v:?}");
        let over = v.over.unwrap();
        assert_eq!(over.winner, Some(Side::White));
        assert_eq!(v.legal, 0);
    }
}
