//! Saving and loading games as records.

use std::fs::{self, File};
use std::io::Read;

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

/// The largest game record read from a file, in bytes: a game of thousands of plies with
/// comments fits many times over.
pub const MAX_RECORD_BYTES: u64 = 1 << 20;

/// Reads a game from a record file; a record without a `Variant` tag is played under `rules`.
/// Only a regular file of at most [`MAX_RECORD_BYTES`] is read.
///
/// # Errors
///
/// A message naming the file when it cannot be read, is not a regular file or is larger than
/// the bound, or saying what is wrong in it and where.
pub fn load(path: &str, rules: Rules) -> Result<Game, String> {
    let text = read_record(path)?;
    GameRecord::parse_with(&text, rules)
        .map(|r| r.game)
        .map_err(|e| format!("{path}: {e}"))
}

/// The text of a record file, read only when it is a regular file within the bound.
fn read_record(path: &str) -> Result<String, String> {
    let cannot = |e: std::io::Error| format!("cannot read {path}: {e}");
    let too_large = || format!("cannot read {path}: a game record is at most 1 MiB");
    // Looked at before opening: opening a named pipe would wait for a writer.
    let meta = fs::metadata(path).map_err(cannot)?;
    if !meta.is_file() {
        return Err(format!("cannot read {path}: not a regular file"));
    }
    if meta.len() > MAX_RECORD_BYTES {
        return Err(too_large());
    }
    let file = File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    // The file may have grown since, or report no size at all (as files of /proc do).
    file.take(MAX_RECORD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|_| format!("cannot read {path}: not UTF-8 text"))
}
