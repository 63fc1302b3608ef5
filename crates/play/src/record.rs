//! Saving and loading games as records.

use std::fs;

use morris_core::{Color, Game, GameRecord, Rules};

use crate::setup::Settings;

/// The record of a game, with the players named.
pub fn record(game: &Game, settings: &Settings) -> GameRecord {
    let mut record = GameRecord::new(game.clone());
    record.tags.push(("Event".into(), "morris play".into()));
    for color in Color::ALL {
        record
            .tags
            .push((color.title().into(), settings.player_name(color)));
    }
    record
}

/// Writes the record of a game to a file.
///
/// # Errors
///
/// A message naming the file when it cannot be written.
pub fn save(path: &str, game: &Game, settings: &Settings) -> Result<(), String> {
    fs::write(path, record(game, settings).to_string())
        .map_err(|e| format!("cannot write {path}: {e}"))
}

/// Reads a game from a record file; a record without a `Variant` tag is played under `rules`.
///
/// # Errors
///
/// A message naming the file when it cannot be read, or saying what is wrong in it and where.
pub fn load(path: &str, rules: Rules) -> Result<Game, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    GameRecord::parse_with(&text, rules)
        .map(|r| r.game)
        .map_err(|e| format!("{path}: {e}"))
}
