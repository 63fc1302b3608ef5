//! How games end.

use std::fmt;

use crate::color::Color;

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The loser has fewer than three pieces on the board and in hand.
    FewerThanThree,
    /// The loser, to move, has no legal ply.
    Blocked,
    /// The winner completed a line of three (Three Men's Morris).
    Line,
    /// The same position occurred for the third time (or the rules' count).
    Repetition,
    /// The N-move rule: that many plies without a placement or a removal.
    NMoveRule,
    /// The placing phase filled the board (Twelve Men's Morris, Morabaraba).
    FullBoard,
    /// The loser resigned.
    Resignation,
    /// The players agreed to a draw.
    Agreement,
    /// The loser's time ran out.
    Timeout,
    /// The loser left the game and the winner claimed it (or, with no winner, the one who
    /// stayed claimed a draw).
    Abandonment,
    /// The game was called off in its first plies: it counts for nobody.
    Aborted,
}

impl Reason {
    /// A stable lower-case name: `fewer_than_three`, `blocked`, `line`, `repetition`,
    /// `n_move_rule`, `full_board`, `resignation`, `agreement`, `timeout`, `abandonment`, `aborted`.
    pub const fn name(self) -> &'static str {
        match self {
            Reason::FewerThanThree => "fewer_than_three",
            Reason::Blocked => "blocked",
            Reason::Line => "line",
            Reason::Repetition => "repetition",
            Reason::NMoveRule => "n_move_rule",
            Reason::FullBoard => "full_board",
            Reason::Resignation => "resignation",
            Reason::Agreement => "agreement",
            Reason::Timeout => "timeout",
            Reason::Abandonment => "abandonment",
            Reason::Aborted => "aborted",
        }
    }

    /// The reason of a stable name, as [`Reason::name`] gives it.
    pub fn from_name(name: &str) -> Option<Reason> {
        [
            Reason::FewerThanThree,
            Reason::Blocked,
            Reason::Line,
            Reason::Repetition,
            Reason::NMoveRule,
            Reason::FullBoard,
            Reason::Resignation,
            Reason::Agreement,
            Reason::Timeout,
            Reason::Abandonment,
            Reason::Aborted,
        ]
        .into_iter()
        .find(|r| r.name() == name)
    }
}

/// The end of a game: who won, if anyone, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
}

impl Outcome {
    /// A win.
    pub const fn win(winner: Color, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw.
    pub const fn draw(reason: Reason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// The result as a game record writes it: `1-0`, `0-1` or `1/2-1/2` (`*` for a game
    /// aborted).
    pub const fn result(&self) -> &'static str {
        if matches!(self.reason, Reason::Aborted) {
            return "*";
        }
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The end in words, such as "Black is blocked" or "Draw by threefold repetition".
    pub fn describe(&self) -> String {
        let loser = self.winner.map(|w| (!w).title()).unwrap_or("");
        let winner = self.winner.map(|w| w.title()).unwrap_or("");
        match self.reason {
            Reason::FewerThanThree => format!("{loser} has fewer than three pieces"),
            Reason::Blocked => format!("{loser} is blocked"),
            Reason::Line => format!("{winner} completed a line of three"),
            Reason::Repetition => "Draw by threefold repetition".into(),
            Reason::NMoveRule => {
                "Draw by the move rule: no placement or removal for too long".into()
            }
            Reason::FullBoard => "Draw: the board is full".into(),
            Reason::Resignation => format!("{loser} resigned"),
            Reason::Agreement => "Draw by agreement".into(),
            Reason::Timeout => format!("{loser} ran out of time"),
            Reason::Abandonment if self.winner.is_some() => format!("{loser} left the game"),
            Reason::Abandonment => "Draw: a player left the game".into(),
            Reason::Aborted => "The game was aborted".into(),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}
