//! An engine run as a child process and spoken to through the protocol.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

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
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Start(e) => write!(f, "cannot start the engine: {e}"),
            PlayerError::Died => f.write_str("the engine ended"),
            PlayerError::Timeout(what) => write!(f, "the engine did not answer {what} in time"),
            PlayerError::Write(e) => write!(f, "cannot write to the engine: {e}"),
        }
    }
}

impl std::error::Error for PlayerError {}

/// A running engine.
#[derive(Debug)]
pub struct Player {
    /// The engine's name.
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// How long an engine may take to answer `uci` and `isready`.
const HANDSHAKE: Duration = Duration::from_secs(20);

impl Player {
    /// Starts the engine, says `uci`, sets the options and the variant, and waits until it is
    /// ready.
    ///
    /// # Errors
    ///
    /// When it cannot be started or does not answer.
    pub fn start(spec: &EngineSpec, variant: morris_core::Variant) -> Result<Player, PlayerError> {
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
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut player = Player {
            name: spec.name.clone(),
            child,
            stdin,
            lines: rx,
        };
        player.send("uci")?;
        let lines = player.wait_for("uciok", HANDSHAKE, "uci")?;
        if player.name.is_empty() {
            player.name = lines
                .iter()
                .find_map(|l| l.strip_prefix("id name "))
                .unwrap_or(program)
                .to_string();
        }
        player.send(&format!("setoption name Variant value {variant}"))?;
        for (name, value) in &spec.options {
            player.send(&format!("setoption name {name} value {value}"))?;
        }
        player.ready()?;
        Ok(player)
    }

    /// Sends a line.
    ///
    /// # Errors
    ///
    /// When the engine's input is closed.
    pub fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| PlayerError::Write(e.to_string()))
    }

    /// Waits for a line that starts with `prefix`; returns the lines up to it.
    ///
    /// # Errors
    ///
    /// When the engine ends or `timeout` passes first.
    pub fn wait_for(
        &mut self,
        prefix: &str,
        timeout: Duration,
        what: &'static str,
    ) -> Result<Vec<String>, PlayerError> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    lines.push(line);
                    if done {
                        return Ok(lines);
                    }
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
        self.wait_for("readyok", HANDSHAKE, "isready").map(drop)
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
