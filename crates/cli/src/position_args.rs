//! The arguments every command that takes a position shares.

use clap::Args;
use morris_core::{Game, Position, Variant};

/// `--variant`, `--position` and `--moves`.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// The variant: nine, three, six, twelve, morabaraba or lasker.
    #[arg(long, default_value = "nine")]
    pub variant: Variant,
    /// A position string (the project's own or Sanmill's); default: the start.
    #[arg(long)]
    pub position: Option<String>,
    /// Plies played from that position first, separated by spaces.
    #[arg(long, allow_hyphen_values = true)]
    pub moves: Option<String>,
}

impl PositionArgs {
    /// The position the arguments describe.
    pub fn position(&self) -> Result<Position, String> {
        let rules = self.variant.rules();
        let mut pos = match &self.position {
            Some(text) => Position::from_fen(rules, text).map_err(|e| e.to_string())?,
            None => Position::new(rules),
        };
        if let Some(moves) = &self.moves {
            let mut tokens = moves.split_whitespace().peekable();
            let mut number = 0;
            while let Some(token) = tokens.next() {
                number += 1;
                let text = with_removals(token, &mut tokens);
                pos = pos
                    .play_text(&text)
                    .map_err(|e| format!("--moves, ply {number}: {e}"))?;
            }
        }
        Ok(pos)
    }

    /// The game the arguments describe: the position given as its start, then the plies of
    /// `--moves` as its history, so that they can be taken back and are written in a record.
    /// Unlike [`PositionArgs::position`] it applies the draw rules: no ply follows a draw.
    pub fn game(&self) -> Result<Game, String> {
        let rules = self.variant.rules();
        let start = match &self.position {
            Some(text) => Position::from_fen(rules, text).map_err(|e| e.to_string())?,
            None => Position::new(rules),
        };
        let mut game = Game::new(start);
        let mut tokens = self
            .moves
            .as_deref()
            .unwrap_or("")
            .split_whitespace()
            .peekable();
        let mut number = 0;
        while let Some(token) = tokens.next() {
            number += 1;
            let text = with_removals(token, &mut tokens);
            game.play_text(&text)
                .map_err(|e| format!("--moves, ply {number}: {e}"))?;
        }
        Ok(game)
    }
}

/// A ply with the removals written as their own tokens after it (`f2-f4 xd5`) joined on.
fn with_removals<'a>(
    token: &str,
    tokens: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
) -> String {
    let mut text = token.to_string();
    while let Some(next) = tokens.peek() {
        let lower = next.to_ascii_lowercase();
        if lower.starts_with('x') && lower.len() == 3 {
            text.push_str(next);
            tokens.next();
        } else {
            break;
        }
    }
    text
}
