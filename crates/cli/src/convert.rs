//! `morris convert`: a game or a position from standard input or the position arguments,
//! written in the format another program reads.

use std::io::{Read, Write};

use clap::{Args, ValueEnum};
use morris_core::import::{self, Format};
use morris_core::{GameRecord, Position, export, malom, sanmill};

use crate::failure::Failure;
use crate::position_args::PositionArgs;

/// The formats `convert` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// The project's own record and position string.
    Morris,
    /// A record Sanmill imports, or a Sanmill position string.
    Sanmill,
    /// PlayOK's numeric notation.
    Playok,
    /// A Malom position (of a game: its last position).
    Malom,
}

/// The arguments of `morris convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The format to write: morris, sanmill, playok or malom.
    #[arg(long)]
    pub to: Target,
    #[command(flatten)]
    pub position: PositionArgs,
}

/// A position in a target format.
fn write_position(pos: &Position, to: Target) -> Result<String, Failure> {
    Ok(match to {
        Target::Morris => pos.fen(),
        Target::Sanmill => sanmill::write(pos)?,
        Target::Malom => malom::write(pos)?,
        Target::Playok => {
            return Err(Failure(
                "PlayOK has no position format; give the game (a record, or --moves)".into(),
            ));
        }
    })
}

/// A game in a target format.
fn write_game(record: &GameRecord, to: Target) -> Result<String, Failure> {
    Ok(match to {
        Target::Morris => record.to_string(),
        Target::Sanmill => export::sanmill_record(record)?,
        Target::Playok => export::playok_record(record)?,
        Target::Malom => format!("{}\n", malom::write(record.game.position())?),
    })
}

/// Runs `morris convert`: with `--position` or `--moves` the game they give, otherwise every
/// game or position on standard input, in any format the importer reads. Warnings go to
/// standard error as `warning:` lines.
pub fn run(args: &ConvertArgs, out: &mut impl Write) -> Result<(), Failure> {
    let given = &args.position;
    if given.position.is_some() || given.moves.is_some() {
        if given.moves.is_none() {
            writeln!(out, "{}", write_position(&given.position()?, args.to)?)?;
        } else {
            let record = GameRecord::new(given.game()?);
            write!(out, "{}", write_game(&record, args.to)?)?;
        }
        return Ok(());
    }
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| Failure(format!("cannot read standard input: {e}")))?;
    let games = import::read_games(&text, given.variant.rules());
    if games.is_empty() {
        return Err(Failure("standard input holds no game or position".into()));
    }
    let mut written = Vec::new();
    for (i, game) in games.into_iter().enumerate() {
        let game = game?;
        for warning in &game.warnings {
            eprintln!("warning: game {}: {warning}", i + 1);
        }
        let text = match game.format {
            Format::Position | Format::Malom => {
                let line = write_position(game.record.game.start(), args.to)?;
                format!("{line}\n")
            }
            _ => write_game(&game.record, args.to)?,
        };
        written.push(text);
    }
    let blank = written.iter().any(|t| t.lines().count() > 1);
    for (i, text) in written.iter().enumerate() {
        if i > 0 && blank {
            writeln!(out)?;
        }
        write!(out, "{text}")?;
    }
    Ok(())
}
