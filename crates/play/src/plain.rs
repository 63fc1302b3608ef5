//! The plain mode: the same game line by line on standard input and output, for scripts and
//! screen readers.
//!
//! After every ply it prints the board as text, the pieces of each side by name, and whose turn
//! it is; it reads one ply or command per line; a bad line gets one `error:` line and the
//! question again; the game ends with the result and the game record.

use std::io::{self, BufRead, Write};

use morris_core::{Color, Game, Position, draw_board};
use morris_engine::text::{Line, LineReader, printable};

use crate::record;
use crate::setup::{Seat, Settings, take_back};
use crate::thinker::{Answer, Job, Thinking};

const HELP: &str = "\
The board shows W for a White piece, B for a Black piece and . for an empty point.
Type a ply: d6 places a piece, f2-f4 moves one, f2-f4xd5 also removes the piece on d5.
Commands: moves (the legal plies), board, undo, hint, new, save FILE, resign, quit, help.";

/// The longest line read, in bytes; a longer one is dropped with an error.
const MAX_LINE: usize = 4096;

/// Plays a game on `input` and `output` until it ends, the player quits, or the input ends.
/// `interactive` adds a `> ` prompt before each line read (for a person at a terminal). What
/// it echoes of the input has its control characters escaped. A line
/// that is not UTF-8 text, or longer than 4096 bytes (never held whole), is answered with one
/// `error:` line and play goes on.
///
/// # Errors
///
/// An I/O error of the input or the output.
pub fn run_plain(
    settings: Settings,
    input: impl BufRead,
    output: impl Write,
    interactive: bool,
) -> io::Result<()> {
    let mut plain = Plain {
        game: settings.game.clone(),
        settings,
        out: output,
    };
    plain.play(input, interactive)
}

struct Plain<W> {
    settings: Settings,
    game: Game,
    out: W,
}

/// The pieces of a side by name: `White: a1 d6 (7 in hand)`.
fn pieces_line(pos: &Position, color: Color) -> String {
    let board = pos.board();
    let mut line = format!("{}:", color.title());
    let on_board = pos.pieces(color);
    if on_board.is_empty() {
        line.push_str(" no pieces on the board");
    }
    for p in on_board {
        line.push(' ');
        line.push_str(&board.square(p).to_string());
    }
    let in_hand = pos.in_hand(color);
    if in_hand > 0 {
        line.push_str(&format!(", {in_hand} in hand"));
    }
    line
}

impl<W: Write> Plain<W> {
    fn play(&mut self, input: impl BufRead, interactive: bool) -> io::Result<()> {
        let variant = self.game.position().rules().variant;
        writeln!(
            self.out,
            "{}. White: {}. Black: {}.",
            variant.title(),
            self.settings.player_name(Color::White),
            self.settings.player_name(Color::Black)
        )?;
        if Color::ALL
            .iter()
            .any(|&c| *self.settings.seats.get(c) == Seat::Computer)
        {
            writeln!(
                self.out,
                "Computer level {}: a rating of about {}.",
                self.settings.level,
                morris_engine::estimated_rating(self.settings.level)
            )?;
        }
        writeln!(self.out, "{HELP}")?;
        self.show()?;
        let mut lines = LineReader::new(input, MAX_LINE);
        loop {
            if self.game.outcome().is_some() {
                break;
            }
            let turn = self.game.position().turn();
            if *self.settings.seats.get(turn) == Seat::Computer {
                if interactive {
                    writeln!(self.out, "{} is thinking.", turn.title())?;
                    self.out.flush()?;
                }
                if !self.computer_plays()? {
                    break;
                }
                continue;
            }
            self.ask()?;
            if interactive {
                write!(self.out, "> ")?;
            }
            self.out.flush()?;
            let line = match lines.read_line()? {
                None => break,
                Some(Line::TooLong) => {
                    writeln!(self.out, "error: the line is longer than {MAX_LINE} bytes")?;
                    continue;
                }
                Some(Line::Bytes(bytes)) => match String::from_utf8(bytes) {
                    Ok(line) => line,
                    Err(_) => {
                        writeln!(self.out, "error: the line is not UTF-8 text")?;
                        continue;
                    }
                },
            };
            if !self.command(line.trim())? {
                break;
            }
        }
        self.finish()
    }

    /// Prints the board, the pieces by name, and the last ply.
    fn show(&mut self) -> io::Result<()> {
        let pos = *self.game.position();
        writeln!(self.out)?;
        for line in draw_board(&pos).lines() {
            writeln!(self.out, "{}", line.trim_end())?;
        }
        writeln!(self.out, "{}", pieces_line(&pos, Color::White))?;
        writeln!(self.out, "{}", pieces_line(&pos, Color::Black))?;
        Ok(())
    }

    /// Says whose turn it is and what to do.
    fn ask(&mut self) -> io::Result<()> {
        let pos = self.game.position();
        let turn = pos.turn();
        let places = pos.in_hand(turn) > 0;
        let what = if places && pos.rules().place_or_move {
            "place or move"
        } else if places {
            "place"
        } else if pos.can_fly(turn) {
            "fly"
        } else {
            "move"
        };
        writeln!(
            self.out,
            "{} to {what}, move {}.",
            turn.title(),
            pos.move_number()
        )
    }

    fn played(&mut self, color: Color, text: &str) -> io::Result<()> {
        writeln!(self.out, "{} plays {text}.", color.title())?;
        self.show()
    }

    /// Lets the computer play. Returns false when it cannot.
    fn computer_plays(&mut self) -> io::Result<bool> {
        let Some(engine) = self.settings.engine.clone() else {
            writeln!(
                self.out,
                "error: no engine is built in: only people can play"
            )?;
            return Ok(false);
        };
        let seed = self
            .settings
            .seed
            .wrapping_add(self.game.plies().len() as u64);
        let thinking = Thinking::start(
            engine,
            Job::Move,
            &self.game,
            self.settings.level,
            self.settings.movetime(),
            seed,
        );
        let turn = self.game.position().turn();
        let board = self.game.position().board();
        match thinking.wait() {
            Answer::Move(Some(ply)) if self.game.play(ply).is_ok() => {
                self.played(turn, &ply.display(board).to_string())?;
                Ok(true)
            }
            _ => {
                writeln!(self.out, "error: the computer found no ply")?;
                Ok(false)
            }
        }
    }

    /// Carries out one line. Returns false to end the game.
    fn command(&mut self, line: &str) -> io::Result<bool> {
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" => return Ok(false),
            "help" | "?" => writeln!(self.out, "{HELP}")?,
            "board" => self.show()?,
            "moves" => {
                let board = self.game.position().board();
                let plies: Vec<String> = self
                    .game
                    .legal_plies()
                    .iter()
                    .map(|p| p.display(board).to_string())
                    .collect();
                writeln!(self.out, "Legal plies: {}.", plies.join(" "))?;
            }
            "undo" => match take_back(&mut self.game, self.settings.seats) {
                0 => writeln!(self.out, "error: nothing to take back")?,
                n => {
                    writeln!(
                        self.out,
                        "Took back {n} {}.",
                        if n == 1 { "ply" } else { "plies" }
                    )?;
                    self.show()?;
                }
            },
            "new" => {
                self.game = Game::new(*self.settings.game.start());
                writeln!(self.out, "New game.")?;
                self.show()?;
            }
            "save" if rest.is_empty() => writeln!(self.out, "error: save needs a file name")?,
            "save" => match record::save(rest, &self.game, &self.settings) {
                Ok(()) => writeln!(self.out, "Saved to {}.", printable(rest))?,
                Err(e) => writeln!(self.out, "error: {}", printable(&e))?,
            },
            "resign" => {
                let turn = self.game.position().turn();
                self.game.resign(turn);
            }
            "hint" => self.hint()?,
            _ => {
                let turn = self.game.position().turn();
                let board = self.game.position().board();
                match self.game.play_text(line) {
                    Ok(ply) => self.played(turn, &ply.display(board).to_string())?,
                    Err(e) => writeln!(self.out, "error: {}", printable(&e.to_string()))?,
                }
            }
        }
        Ok(true)
    }

    fn hint(&mut self) -> io::Result<()> {
        let Some(engine) = self.settings.engine.clone() else {
            return writeln!(self.out, "error: no engine is built in: no hints");
        };
        let thinking = Thinking::start(
            engine,
            Job::Hint,
            &self.game,
            self.settings.level,
            self.settings.hint_time(),
            self.settings.seed,
        );
        let board = self.game.position().board();
        match thinking.wait() {
            Answer::Hint(Some((ply, score))) => {
                writeln!(self.out, "Hint: {} ({score}).", ply.display(board))
            }
            _ => writeln!(self.out, "error: no hint: there is no ply to play"),
        }
    }

    fn finish(&mut self) -> io::Result<()> {
        writeln!(self.out)?;
        match self.game.outcome() {
            Some(outcome) => writeln!(self.out, "Result: {} ({outcome}).", outcome.result())?,
            None => writeln!(self.out, "Result: * (the game was left unfinished).")?,
        }
        writeln!(self.out)?;
        write!(self.out, "{}", record::record(&self.game, &self.settings))?;
        self.out.flush()
    }
}
