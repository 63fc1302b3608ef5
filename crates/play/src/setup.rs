//! Who plays which side, and how the computer is reached.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use morris_core::{ByColor, Color, Game, Ply};
use morris_engine::Probe;

/// Who plays one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    /// A person at the keyboard.
    Human,
    /// The engine.
    Computer,
}

/// Which sides the people at the keyboard play: `--color white|black|both|none`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sides {
    /// White; the computer plays Black.
    #[default]
    White,
    /// Black; the computer plays White.
    Black,
    /// Both: two players at one keyboard.
    Both,
    /// Neither: the computer plays itself.
    None,
}

impl Sides {
    /// The seat of each colour.
    pub fn seats(self) -> ByColor<Seat> {
        let human = |yes: bool| if yes { Seat::Human } else { Seat::Computer };
        match self {
            Sides::White => ByColor::new(Seat::Human, Seat::Computer),
            Sides::Black => ByColor::new(Seat::Computer, Seat::Human),
            Sides::Both => ByColor::splat(human(true)),
            Sides::None => ByColor::splat(human(false)),
        }
    }
}

/// The error of reading [`Sides`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSidesError(String);

impl fmt::Display for ParseSidesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a side: white, black, both or none", self.0)
    }
}

impl std::error::Error for ParseSidesError {}

impl FromStr for Sides {
    type Err = ParseSidesError;

    fn from_str(s: &str) -> Result<Sides, ParseSidesError> {
        match s.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Sides::White),
            "black" | "b" => Ok(Sides::Black),
            "both" => Ok(Sides::Both),
            "none" => Ok(Sides::None),
            _ => Err(ParseSidesError(s.chars().take(20).collect())),
        }
    }
}

/// Chooses a ply for the side to move: the game, the level (1 to 10), the most time to
/// think, and a seed for the choice among equal plies. `None` when the game is over.
pub type BestPly = dyn Fn(&Game, u8, Duration, u64) -> Option<Ply> + Send + Sync;
/// Scores every legal ply, best first, each score in words (`cp 35`, `mate 7`, `win in 7`
/// from the tables).
pub type Analyse = dyn Fn(&Game, Duration) -> Vec<(Ply, String)> + Send + Sync;

/// The engine as the app uses it: two functions, so that the app does not depend on how the
/// engine is built.
#[derive(Clone)]
pub struct Engine {
    /// Chooses a ply for the side to move.
    pub best_ply: Arc<BestPly>,
    /// Scores every legal ply, best first.
    pub analyse: Arc<Analyse>,
}

impl Engine {
    /// The project's own engine, `morris-engine`, without tablebases.
    pub fn builtin() -> Engine {
        Engine::with_tables(None)
    }

    /// The project's own engine probing `tables`: it plays the positions they hold perfectly
    /// (the strongest level; weaker ones in the moving phase), and hints and scores there
    /// come from the tables, exactly.
    pub fn with_tables(tables: Option<Arc<dyn Probe>>) -> Engine {
        let for_play = tables.clone();
        Engine {
            best_ply: Arc::new(move |game, level, time, seed| {
                morris_engine::best_ply_with(game, level, time, seed, for_play.clone())
            }),
            analyse: Arc::new(move |game, time| {
                if let Some(exact) = tables.as_deref().and_then(|t| table_scores(game, t)) {
                    return exact;
                }
                morris_engine::analyse(game, time)
                    .into_iter()
                    .map(|(ply, score)| (ply, score.to_string()))
                    .collect()
            }),
        }
    }
}

/// Every legal ply scored by the tables, when they hold every position reached and no draw
/// rule of the game ends it first.
fn table_scores(game: &Game, tables: &dyn Probe) -> Option<Vec<(Ply, String)>> {
    if game.outcome().is_some() {
        return None;
    }
    let pos = game.position();
    let scored = morris_engine::score_plies(pos, |c| tables.probe(c).ok_or(())).ok()?;
    scored
        .into_iter()
        .map(|(ply, value)| {
            let mut next = game.clone();
            next.play(ply).ok()?;
            // A draw by the game's own rules (repetition, N-move rule) is what the ply gives.
            let words = match next.outcome() {
                Some(o) if o.winner.is_none() => "draw".to_string(),
                _ => value.to_string(),
            };
            Some((ply, words))
        })
        .collect()
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Engine")
    }
}

/// The lowest level of play.
pub const MIN_LEVEL: u8 = 1;
/// The highest level of play.
pub const MAX_LEVEL: u8 = 10;

/// How the app is set up: the game to start from, who plays, and the computer's strength.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The game to continue: a start position, maybe with plies already played.
    pub game: Game,
    /// Who plays each side.
    pub seats: ByColor<Seat>,
    /// The computer's level, 1 to 10.
    pub level: u8,
    /// The seed of the computer's choices.
    pub seed: u64,
    /// The engine ([`Engine::builtin`]); without it only people can play.
    pub engine: Option<Engine>,
}

impl Settings {
    /// The time the computer may think for one ply at its level.
    pub fn movetime(&self) -> Duration {
        Duration::from_millis(200 + 150 * u64::from(self.level.clamp(MIN_LEVEL, MAX_LEVEL)))
    }

    /// The time a hint may take.
    pub fn hint_time(&self) -> Duration {
        Duration::from_millis(1000)
    }

    /// How a side is named on screen and in a record: "you", "computer (level 5)", "White".
    pub fn player_name(&self, color: Color) -> String {
        match self.seats.get(color) {
            Seat::Computer => format!("computer (level {})", self.level),
            Seat::Human if *self.seats.get(!color) == Seat::Human => "player".into(),
            Seat::Human => "you".into(),
        }
    }
}

/// Takes back the last ply, and then, when people play, the computer's plies before it, so that
/// a person is to move again. Returns the number of plies taken back.
pub fn take_back(game: &mut Game, seats: ByColor<Seat>) -> usize {
    let anyone = Color::ALL.iter().any(|&c| *seats.get(c) == Seat::Human);
    if game.undo().is_none() {
        return 0;
    }
    let mut taken = 1;
    while anyone && *seats.get(game.position().turn()) == Seat::Computer && game.undo().is_some() {
        taken += 1;
    }
    taken
}
