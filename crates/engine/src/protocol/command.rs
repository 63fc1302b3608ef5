//! Reading the protocol's commands: `go` limits, `setoption`, `position`.

use std::fmt;
use std::time::Duration;

use morris_core::{ByColor, Game, Position, Rules};

use crate::limits::{Clock, Limits};
use crate::text::clip;

/// A command of the engine protocol, read from one line by [`Command::parse`].
#[derive(Clone, Debug)]
pub enum Command {
    /// An empty line.
    Empty,
    /// `uci`: the engine's name and options.
    Uci,
    /// `isready`.
    IsReady,
    /// `quit`.
    Quit,
    /// `stop`.
    Stop,
    /// `ponderhit`, `debug` or `register`: accepted, with nothing to do.
    Ignored,
    /// `ucinewgame`.
    NewGame,
    /// `setoption name NAME value VALUE`; the value is checked when it is set.
    SetOption {
        /// The option's name as given (it may hold spaces).
        name: String,
        /// The value as given, empty when there is none.
        value: String,
    },
    /// `position startpos|fen STRING [moves PLY…]`: the game it describes.
    Position(Game),
    /// `go …`: the limits of the search.
    Go(Limits),
    /// `d`: show the board.
    Display,
}

/// Why a line is not a command that can be carried out; the message says what is wrong and
/// quotes (a clipped part of) the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError(String);

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CommandError {}

impl Command {
    /// Reads one line of the protocol; a `position` is read under `rules`. Words are
    /// separated by any whitespace, and the command's word is read in any case.
    ///
    /// # Errors
    ///
    /// An unknown command, or one whose arguments cannot be read: an unknown word of `go` or
    /// a number it cannot read, a `setoption` without `name`, a position string or ply that
    /// cannot be read or played.
    ///
    /// # Examples
    ///
    /// ```
    /// use morris_core::Variant;
    /// use morris_engine::Command;
    ///
    /// let rules = Variant::Nine.rules();
    /// let Command::Go(limits) = Command::parse("go depth 7", rules)? else { panic!() };
    /// assert_eq!(limits.depth, Some(7));
    /// let Command::Position(game) = Command::parse("position startpos moves d6 f4", rules)? else {
    ///     panic!()
    /// };
    /// assert_eq!(game.plies().len(), 2);
    /// assert!(Command::parse("fly me to the moon", rules).is_err());
    /// # Ok::<_, morris_engine::CommandError>(())
    /// ```
    pub fn parse(line: &str, rules: Rules) -> Result<Command, CommandError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((first, args)) = words.split_first() else {
            return Ok(Command::Empty);
        };
        Ok(match first.to_ascii_lowercase().as_str() {
            "uci" => Command::Uci,
            "isready" => Command::IsReady,
            "quit" => Command::Quit,
            "stop" => Command::Stop,
            "ponderhit" | "debug" | "register" => Command::Ignored,
            "ucinewgame" => Command::NewGame,
            "setoption" => {
                let (name, value) = parse_setoption(args).map_err(CommandError)?;
                Command::SetOption { name, value }
            }
            "position" => Command::Position(parse_position(args, rules).map_err(CommandError)?),
            "go" => Command::Go(parse_go(args).map_err(CommandError)?),
            "d" => Command::Display,
            other => {
                return Err(CommandError(format!("unknown command '{}'", clip(other))));
            }
        })
    }

    /// Whether the command changes the state, so that it waits for a running search.
    pub(crate) fn waits_for_search(verb: &str) -> bool {
        ["ucinewgame", "setoption", "position", "go"]
            .iter()
            .any(|w| w.eq_ignore_ascii_case(verb))
    }
}

/// A clock that was not given counts as this much time.
const UNSET_CLOCK: Duration = Duration::from_secs(24 * 3600);

/// Reads a number argument of a command.
fn number(tokens: &[&str], i: usize, name: &str) -> Result<i64, String> {
    let text = tokens
        .get(i + 1)
        .ok_or_else(|| format!("go: {name} needs a value"))?;
    text.parse::<i64>()
        .map_err(|_| format!("go: {name} '{text}' is not a whole number"))
}

fn millis(n: i64) -> Duration {
    Duration::from_millis(n.max(0) as u64)
}

/// Reads the arguments of `go` (after the word `go`) into limits.
///
/// # Errors
///
/// A message when a word is unknown or a number cannot be read.
fn parse_go(args: &[&str]) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let mut time: ByColor<Option<Duration>> = ByColor::splat(None);
    let mut inc = ByColor::splat(Duration::ZERO);
    let mut i = 0;
    while i < args.len() {
        let word = args[i].to_ascii_lowercase();
        let mut takes_value = true;
        match word.as_str() {
            "depth" => {
                let n = number(args, i, "depth")?;
                limits.depth = Some(n.clamp(1, i64::from(u32::MAX)) as u32);
            }
            "nodes" => limits.nodes = Some(number(args, i, "nodes")?.max(1) as u64),
            "movetime" => limits.movetime = Some(millis(number(args, i, "movetime")?)),
            "wtime" => time.white = Some(millis(number(args, i, "wtime")?)),
            "btime" => time.black = Some(millis(number(args, i, "btime")?)),
            "winc" => inc.white = millis(number(args, i, "winc")?),
            "binc" => inc.black = millis(number(args, i, "binc")?),
            "movestogo" | "mate" => {
                number(args, i, &word)?;
            }
            "infinite" => {
                limits.infinite = true;
                takes_value = false;
            }
            "ponder" => takes_value = false,
            other => return Err(format!("go: unknown word '{}'", clip(other))),
        }
        i += if takes_value { 2 } else { 1 };
    }
    if time.white.is_some() || time.black.is_some() {
        limits.clock = Some(Clock {
            time: time.map(|t| t.unwrap_or(UNSET_CLOCK)),
            inc,
        });
    }
    Ok(limits)
}

/// Reads `setoption name NAME value VALUE` (after the word `setoption`): the name and the
/// value, either of which may hold spaces.
///
/// # Errors
///
/// A message when the word `name` is missing.
fn parse_setoption(args: &[&str]) -> Result<(String, String), String> {
    if !args.first().is_some_and(|w| w.eq_ignore_ascii_case("name")) {
        return Err("setoption: expected 'setoption name NAME value VALUE'".into());
    }
    let value_at = args
        .iter()
        .position(|w| w.eq_ignore_ascii_case("value"))
        .unwrap_or(args.len());
    let name = args[1..value_at].join(" ");
    if name.is_empty() {
        return Err("setoption: the option has no name".into());
    }
    let value = args.get(value_at + 1..).unwrap_or(&[]).join(" ");
    Ok((name, value))
}

/// Reads `position startpos|fen STRING [moves PLY…]` (after the word `position`) into a game
/// under the rules.
///
/// # Errors
///
/// A message that says what is wrong: the form, the position string, or which ply and why.
fn parse_position(args: &[&str], rules: Rules) -> Result<Game, String> {
    let moves_at = args
        .iter()
        .position(|w| w.eq_ignore_ascii_case("moves"))
        .unwrap_or(args.len());
    let start = match args.first().map(|w| w.to_ascii_lowercase()).as_deref() {
        Some("startpos") => {
            if moves_at != 1 {
                return Err(format!(
                    "position: unexpected '{}' after startpos",
                    clip(args[1])
                ));
            }
            Position::new(rules)
        }
        Some("fen") => {
            let text = args[1..moves_at].join(" ");
            if text.is_empty() {
                return Err("position: fen needs a position string".into());
            }
            Position::from_fen(rules, &text).map_err(|e| format!("position: {e}"))?
        }
        Some(other) => {
            return Err(format!(
                "position: expected startpos or fen, not '{}'",
                clip(other)
            ));
        }
        None => return Err("position: expected startpos or fen".into()),
    };
    let mut game = Game::new(start);
    let mut tokens = args.get(moves_at + 1..).unwrap_or(&[]).iter().peekable();
    let mut number = 0;
    while let Some(token) = tokens.next() {
        number += 1;
        let mut text = (*token).to_string();
        while let Some(next) = tokens.peek() {
            if next.len() > 1 && next.as_bytes()[0].eq_ignore_ascii_case(&b'x') {
                text.push_str(next);
                tokens.next();
            } else {
                break;
            }
        }
        game.play_text(&text)
            .map_err(|e| format!("position: ply {number} '{}': {e}", clip(&text)))?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_core::Variant;

    fn words(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn reads_go() {
        let l = parse_go(&words("wtime 1000 btime 2000 winc 10 binc 20 depth 7")).unwrap();
        let clock = l.clock.unwrap();
        assert_eq!(clock.time.black, Duration::from_millis(2000));
        assert_eq!(clock.inc.white, Duration::from_millis(10));
        assert_eq!(l.depth, Some(7));
        assert!(parse_go(&words("infinite")).unwrap().infinite);
        assert!(parse_go(&words("depth")).is_err());
        assert!(parse_go(&words("depth x")).is_err());
        assert!(parse_go(&words("sideways 3")).is_err());
        let l = parse_go(&words("wtime -50")).unwrap();
        assert_eq!(l.clock.unwrap().time.white, Duration::ZERO);
    }

    #[test]
    fn reads_setoption() {
        assert_eq!(
            parse_setoption(&words("name Tablebase Path value /a b/c")).unwrap(),
            ("Tablebase Path".into(), "/a b/c".into())
        );
        assert_eq!(
            parse_setoption(&words("name Hash value 16")).unwrap(),
            ("Hash".into(), "16".into())
        );
        assert!(parse_setoption(&words("Hash 16")).is_err());
    }

    #[test]
    fn reads_position_with_separate_removals() {
        let rules = Variant::Nine.rules();
        let game = parse_position(&words("startpos moves d6 f4 d5 b4 d7 xb4"), rules).unwrap();
        assert_eq!(game.ply_texts().last().unwrap(), "d7xb4");
        let game = parse_position(
            &words("fen .../.W./.../....../.../.../... b 8 9 0 1 moves f4"),
            rules,
        )
        .unwrap();
        assert_eq!(game.plies().len(), 1);
        let sanmill = "fen ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 moves d6";
        assert_eq!(
            parse_position(&words(sanmill), rules)
                .unwrap()
                .plies()
                .len(),
            1
        );
        let e = parse_position(&words("startpos moves d6 d6"), rules).unwrap_err();
        assert!(e.contains("ply 2"), "{e}");
        assert!(parse_position(&words("fen 1 2 3"), rules).is_err());
        assert!(parse_position(&words("startpos d6"), rules).is_err());
        assert!(parse_position(&words(""), rules).is_err());
    }
}
