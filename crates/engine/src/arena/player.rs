//! An engine run as a child process and spoken to through the protocol.

use std::fmt;
use std::io::{BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::time::{Duration, Instant};

use crate::text::{Line, LineReader, printable};

/// How to start an engine and set it up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The command line: the program, then its arguments, separated by spaces.
    pub command: String,
    /// Options set with `setoption` after `uci`, as name and value.
    pub options: Vec<(String, String)>,
    /// The name in reports and records; the engine's `id name` when empty.
    pub name: String,
}

impl EngineSpec {
    /// Reads options written `Name=Value,Name=Value`.
    ///
    /// # Errors
    ///
    /// A message when an item has no `=` or no name.
    pub fn parse_options(text: &str) -> Result<Vec<(String, String)>, String> {
        text.split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(|item| {
                let (name, value) = item
                    .split_once('=')
                    .ok_or_else(|| format!("engine option '{item}' is not NAME=VALUE"))?;
                if name.trim().is_empty() {
                    return Err(format!("engine option '{item}' has no name"));
                }
                Ok((name.trim().to_string(), value.trim().to_string()))
            })
            .collect()
    }
}

/// Why an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerError {
    /// It could not be started.
    Start(String),
    /// It ended or closed its output.
    Died,
    /// It did not answer in time.
    Timeout(&'static str),
    /// Its input could not be written.
    Write(String),
    /// It wrote more than `limit` bytes without giving the answer awaited.
    Flood {
        /// What it was asked.
        what: &'static str,
        /// The bytes allowed for one answer.
        limit: usize,
    },
    /// It wrote a line longer than `limit` bytes.
    LongLine {
        /// The longest line allowed.
        limit: usize,
    },
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Start(e) => write!(f, "cannot start the engine: {e}"),
            PlayerError::Died => f.write_str("the engine ended"),
            PlayerError::Timeout(what) => write!(f, "the engine did not answer {what} in time"),
            PlayerError::Write(e) => write!(f, "cannot write to the engine: {e}"),
            PlayerError::Flood { what, limit } => write!(
                f,
                "the engine wrote more than {limit} bytes without answering {what}"
            ),
            PlayerError::LongLine { limit } => {
                write!(f, "the engine wrote a line longer than {limit} bytes")
            }
        }
    }
}

impl std::error::Error for PlayerError {}

/// A running engine.
///
/// Everything it may do is bounded: each wait for an answer has a timeout, each line read is
/// at most [`MAX_LINE`] bytes, each answer at most [`MAX_ANSWER`] bytes of output, and lines
/// are written to it without waiting (an engine that reads none of them fails). An engine
/// that goes beyond a bound fails with a [`PlayerError`] that says which.
#[derive(Debug)]
pub struct Player {
    /// The engine's name.
    pub name: String,
    child: Child,
    input: SyncSender<String>,
    output: Receiver<Output>,
    bounds: Bounds,
}

/// The longest line read from an engine, in bytes.
pub const MAX_LINE: usize = 64 << 10;

/// The most output read from an engine while waiting for one answer, in bytes.
pub const MAX_ANSWER: usize = 16 << 20;

/// The longest engine name kept, in characters.
const MAX_NAME: usize = 64;

/// Lines held between the engine and the reader of its output; the engine waits when they
/// are not taken.
const QUEUE: usize = 256;

/// How long an engine may take to answer `uci` and `isready`.
const HANDSHAKE: Duration = Duration::from_secs(20);

/// What an engine may do before it fails.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    /// The longest line, in bytes.
    line: usize,
    /// The most output awaiting one answer, in bytes.
    answer: usize,
    /// The time to answer `uci` and `isready`.
    handshake: Duration,
}

impl Bounds {
    const DEFAULT: Bounds = Bounds {
        line: MAX_LINE,
        answer: MAX_ANSWER,
        handshake: HANDSHAKE,
    };
}

/// What the thread that reads the engine's output hands on.
#[derive(Debug)]
enum Output {
    Line(String),
    TooLong,
}

/// Lines kept of one answer, besides the answer itself: enough for `uci`'s names and options.
const KEPT_LINES: usize = 1000;

impl Player {
    /// Starts the engine, says `uci`, sets the options and the variant, and waits until it is
    /// ready.
    ///
    /// # Errors
    ///
    /// When it cannot be started or does not answer.
    pub fn start(spec: &EngineSpec, variant: morris_core::Variant) -> Result<Player, PlayerError> {
        Player::start_within(spec, variant, Bounds::DEFAULT)
    }

    fn start_within(
        spec: &EngineSpec,
        variant: morris_core::Variant,
        bounds: Bounds,
    ) -> Result<Player, PlayerError> {
        let mut words = spec.command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| PlayerError::Start("the command is empty".into()))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| PlayerError::Start(format!("{}: {e}", spec.command)))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| PlayerError::Start("no input".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| PlayerError::Start("no output".into()))?;
        let (out_tx, out_rx) = sync_channel(QUEUE);
        std::thread::spawn(move || {
            let mut lines = LineReader::new(BufReader::new(stdout), bounds.line);
            // Ends with the engine's output, or when the player is gone.
            while let Ok(Some(line)) = lines.read_line() {
                let item = match line {
                    Line::Bytes(bytes) => Output::Line(String::from_utf8_lossy(&bytes).into()),
                    Line::TooLong => Output::TooLong,
                };
                if out_tx.send(item).is_err() {
                    break;
                }
            }
        });
        let (in_tx, in_rx) = sync_channel::<String>(QUEUE);
        std::thread::spawn(move || {
            let mut stdin = stdin;
            // Ends when the engine's input closes, or when the player is gone.
            for line in in_rx {
                if writeln!(stdin, "{line}")
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
        });
        let mut player = Player {
            name: spec.name.clone(),
            child,
            input: in_tx,
            output: out_rx,
            bounds,
        };
        player.send("uci")?;
        let lines = player.wait_for("uciok", bounds.handshake, "uci")?;
        if player.name.is_empty() {
            player.name = lines
                .iter()
                .find_map(|l| l.strip_prefix("id name "))
                .unwrap_or(program)
                .chars()
                .take(MAX_NAME)
                .collect::<String>();
            // It is shown on terminals and written in records.
            player.name = printable(&player.name).into_owned();
        }
        player.send(&format!("setoption name Variant value {variant}"))?;
        for (name, value) in &spec.options {
            player.send(&format!("setoption name {name} value {value}"))?;
        }
        player.ready()?;
        Ok(player)
    }

    /// Sends a line, without waiting for the engine to read it.
    ///
    /// # Errors
    ///
    /// When the engine's input is closed, or the engine has left many lines unread.
    pub fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        self.input.try_send(line.to_string()).map_err(|e| match e {
            TrySendError::Full(_) => PlayerError::Write("the engine does not read".into()),
            TrySendError::Disconnected(_) => PlayerError::Write("its input is closed".into()),
        })
    }

    /// Waits for a line that starts with `prefix`; returns the lines up to it (the first
    /// thousand of them, and the answer last).
    ///
    /// # Errors
    ///
    /// When the engine ends, writes a line longer than [`MAX_LINE`] or more than
    /// [`MAX_ANSWER`] bytes, or `timeout` passes first.
    pub fn wait_for(
        &mut self,
        prefix: &str,
        timeout: Duration,
        what: &'static str,
    ) -> Result<Vec<String>, PlayerError> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        let mut read = 0;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(Output::Line(line)) => {
                    read += line.len() + 1;
                    if line.starts_with(prefix) {
                        lines.push(line);
                        return Ok(lines);
                    }
                    if read > self.bounds.answer {
                        return Err(PlayerError::Flood {
                            what,
                            limit: self.bounds.answer,
                        });
                    }
                    if lines.len() < KEPT_LINES {
                        lines.push(line);
                    }
                }
                Ok(Output::TooLong) => {
                    return Err(PlayerError::LongLine {
                        limit: self.bounds.line,
                    });
                }
                Err(RecvTimeoutError::Timeout) => return Err(PlayerError::Timeout(what)),
                Err(RecvTimeoutError::Disconnected) => return Err(PlayerError::Died),
            }
        }
    }

    /// Says `isready` and waits for `readyok`.
    ///
    /// # Errors
    ///
    /// When the engine ends or does not answer.
    pub fn ready(&mut self) -> Result<(), PlayerError> {
        self.send("isready")?;
        self.wait_for("readyok", self.bounds.handshake, "isready")
            .map(drop)
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_options() {
        assert_eq!(
            EngineSpec::parse_options("Level=3, Hash = 16,").unwrap(),
            [("Level".into(), "3".into()), ("Hash".into(), "16".into())]
        );
        assert!(EngineSpec::parse_options("Level").is_err());
        assert!(EngineSpec::parse_options("=3").is_err());
    }

    fn spec(command: &str) -> EngineSpec {
        EngineSpec {
            command: command.into(),
            options: Vec::new(),
            name: String::new(),
        }
    }

    /// Small bounds, so that a test meets them at once.
    const SMALL: Bounds = Bounds {
        line: 1024,
        answer: 64 << 10,
        handshake: Duration::from_secs(5),
    };

    #[test]
    fn an_engine_that_floods_its_output_fails() {
        // `yes` writes "y" lines without end and never answers uci.
        let e = Player::start_within(&spec("yes"), morris_core::Variant::Nine, SMALL).unwrap_err();
        assert_eq!(
            e,
            PlayerError::Flood {
                what: "uci",
                limit: 64 << 10
            }
        );
        assert!(
            e.to_string()
                .contains("more than 65536 bytes without answering uci")
        );
    }

    #[test]
    fn an_engine_that_writes_an_endless_line_fails() {
        let e = Player::start_within(&spec("cat /dev/zero"), morris_core::Variant::Nine, SMALL)
            .unwrap_err();
        assert_eq!(e, PlayerError::LongLine { limit: 1024 });
    }

    #[test]
    fn an_engine_that_stalls_fails_in_time() {
        let bounds = Bounds {
            handshake: Duration::from_millis(100),
            ..SMALL
        };
        let start = Instant::now();
        let e = Player::start_within(&spec("sleep 30"), morris_core::Variant::Nine, bounds)
            .unwrap_err();
        assert_eq!(e, PlayerError::Timeout("uci"));
        // The engine was asked to quit, then killed: well before it would have ended.
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn a_missing_program_is_an_error() {
        let spec = EngineSpec {
            command: "/nonexistent/engine".into(),
            options: Vec::new(),
            name: String::new(),
        };
        assert!(matches!(
            Player::start(&spec, morris_core::Variant::Nine),
            Err(PlayerError::Start(_))
        ));
    }
}
