//! The engine protocol: a line-based dialogue shaped like chess engines' UCI.
//!
//! [`run_protocol`] reads commands on its own thread, so that `isready`, `stop` and `quit`
//! are answered while a search runs, and writes answers line by line. A bad command never
//! ends it: it answers `info string error: …` and keeps its previous state.
//!
//! The reading thread itself raises the stop flag of every search asked for so far when it
//! reads `stop` or `quit` or comes to the end of the input, so that a search ends even when
//! other commands wait before the `stop` (they wait for the search to end) and even when the
//! search has not started yet.

mod command;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use morris_core::{Game, Position, Variant, draw_board};

use crate::Probe;
use crate::engine::Engine;
use crate::limits::{EngineOptions, Info, Limits};
use crate::text::{Line, LineReader, clip, printable};

pub use command::{Command, CommandError};

/// Opens a tablebase folder for the `TablebasePath` option.
pub type OpenTablebase = Box<dyn Fn(&Path) -> Result<Arc<dyn Probe>, String> + Send>;

/// The longest input line read; the rest of a longer line is dropped.
const MAX_LINE: usize = 1 << 20;

/// Where the answers go: shared by the command loop and the search thread.
#[derive(Clone)]
struct Output {
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    fn line(&self, text: &str) {
        let mut w = match self.writer.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        // A closed output cannot be answered on; the loop ends when the input does.
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }

    /// An error line; what it quotes of the input is escaped.
    fn error(&self, message: &str) {
        self.line(&format!("info string error: {}", printable(message)));
    }
}

/// What the reader thread hands the loop.
enum Event {
    Line(String),
    /// A `go` line with the stop flag of the search it asks for.
    Go(String, Arc<AtomicBool>),
    TooLong,
    End,
}

/// The stop flags of the searches asked for and not yet stopped, kept by the reader thread.
#[derive(Default)]
struct Searches {
    flags: Vec<Arc<AtomicBool>>,
}

impl Searches {
    /// A flag for the search of a new `go`.
    fn add(&mut self) -> Arc<AtomicBool> {
        // A flag that only this list holds belongs to a search that is over.
        self.flags.retain(|flag| Arc::strong_count(flag) > 1);
        let flag = Arc::new(AtomicBool::new(false));
        self.flags.push(Arc::clone(&flag));
        flag
    }

    /// Stops every search asked for so far, running or still waiting to start.
    fn stop_all(&mut self) {
        for flag in self.flags.drain(..) {
            flag.store(true, Ordering::Relaxed);
        }
    }
}

fn spawn_reader(input: impl BufRead + Send + 'static) -> Receiver<Event> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut searches = Searches::default();
        let mut lines = LineReader::new(input, MAX_LINE);
        loop {
            let event = match lines.read_line() {
                Ok(Some(Line::TooLong)) => Event::TooLong,
                Ok(Some(Line::Bytes(line))) => {
                    let text = String::from_utf8_lossy(&line).into_owned();
                    match verb(&text).to_ascii_lowercase().as_str() {
                        "go" => {
                            let flag = searches.add();
                            Event::Go(text, flag)
                        }
                        "stop" | "quit" => {
                            searches.stop_all();
                            Event::Line(text)
                        }
                        _ => Event::Line(text),
                    }
                }
                // An input that fails is over.
                Ok(None) | Err(_) => {
                    searches.stop_all();
                    let _ = tx.send(Event::End);
                    return;
                }
            };
            if tx.send(event).is_err() {
                return;
            }
        }
    });
    rx
}

/// A search running on its own thread; it hands the engine back when done.
struct Running {
    stop: Arc<AtomicBool>,
    /// It does not end by itself: `go infinite`, or `go` without any limit.
    endless: bool,
    handle: JoinHandle<Engine>,
}

/// The protocol's state.
struct Session {
    out: Output,
    engine: Option<Engine>,
    running: Option<Running>,
    variant: Variant,
    game: Game,
    tablebase_path: String,
    open_tablebase: OpenTablebase,
    /// The folder opened on the first search unless `TablebasePath` was set before.
    default_tables: Option<PathBuf>,
}

/// Speaks the engine protocol: reads commands from `input` (on its own thread) and writes the
/// answers to `output`, until `quit` or the end of the input. `stop`, `quit` and the end of the
/// input end a running search at once, even with other commands waiting before them, and its
/// `bestmove` is written before the function returns.
///
/// `open_tablebase` opens the folder given by `setoption name TablebasePath value DIR`.
pub fn run_protocol(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    open_tablebase: OpenTablebase,
) {
    run_protocol_with_tables(input, output, open_tablebase, None);
}

/// [`run_protocol`] with a folder of tables that `open_tablebase` opens on the first search
/// when `TablebasePath` has not been set before (an empty `TablebasePath` means none). A folder
/// that cannot be opened is said once (`info string tablebase: …`) and the engine searches
/// without it.
pub fn run_protocol_with_tables(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    open_tablebase: OpenTablebase,
    default_tables: Option<PathBuf>,
) {
    let out = Output {
        writer: Arc::new(Mutex::new(Box::new(output))),
    };
    let events = spawn_reader(input);
    let variant = Variant::Nine;
    let mut session = Session {
        out,
        // Made when first needed, so that options set first size its table once.
        engine: None,
        running: None,
        variant,
        game: Game::new(Position::start(variant)),
        tablebase_path: String::new(),
        open_tablebase,
        default_tables,
    };
    loop {
        let (line, stop) = match events.recv() {
            Ok(Event::Line(line)) => (line, None),
            Ok(Event::Go(line, stop)) => (line, Some(stop)),
            Ok(Event::TooLong) => {
                session.out.error("the line is too long");
                continue;
            }
            Ok(Event::End) | Err(_) => {
                session.finish(true);
                return;
            }
        };
        if !session.command(&line, stop) {
            session.finish(true);
            return;
        }
    }
}

/// The first word of a line: the command.
fn verb(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

impl Session {
    /// Handles one line; `false` to quit.
    ///
    /// A command that changes the state waits for a running search to end by itself (an
    /// endless one is stopped), so that commands sent ahead are taken in order.
    fn command(&mut self, line: &str, stop: Option<Arc<AtomicBool>>) -> bool {
        if Command::waits_for_search(verb(line)) {
            self.finish(false);
        }
        let command = match Command::parse(line, self.variant.rules()) {
            Ok(command) => command,
            Err(e) => {
                self.out.error(&e.to_string());
                return true;
            }
        };
        match command {
            Command::Empty | Command::Ignored => {}
            Command::Uci => self.uci(),
            Command::IsReady => self.out.line("readyok"),
            Command::Quit => return false,
            Command::Stop => self.finish(true),
            Command::NewGame => {
                self.engine_mut().new_game();
                self.game = Game::new(Position::start(self.variant));
            }
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::Position(game) => self.game = game,
            Command::Go(limits) => self.go(limits, stop.unwrap_or_default()),
            Command::Display => {
                let pos = self.game.position();
                for row in draw_board(pos).lines() {
                    self.out.line(row);
                }
                self.out.line(&format!("Position: {pos}"));
            }
        }
        true
    }

    fn engine_mut(&mut self) -> &mut Engine {
        self.engine
            .get_or_insert_with(|| Engine::new(EngineOptions::default()))
    }

    fn uci(&self) {
        let o = EngineOptions::default();
        let lines = [
            format!("id name morris {}", env!("CARGO_PKG_VERSION")),
            "id author the morris developers".to_string(),
            "option name Variant type combo default nine var nine var three var six var twelve var morabaraba var lasker".to_string(),
            format!("option name Level type spin default {} min 1 max {}", o.level, EngineOptions::MAX_LEVEL),
            format!("option name Threads type spin default {} min 1 max {}", o.threads, EngineOptions::MAX_THREADS),
            format!("option name Hash type spin default {} min 1 max {}", o.hash_mb, EngineOptions::MAX_HASH_MB),
            format!("option name MultiPV type spin default {} min 1 max 1000", o.multi_pv),
            "option name Seed type spin default 0 min 0 max 9223372036854775807".to_string(),
            format!("option name Contempt type spin default {} min 0 max {}", o.contempt, EngineOptions::MAX_CONTEMPT),
            "option name TablebasePath type string default <empty>".to_string(),
            "uciok".to_string(),
        ];
        for line in lines {
            self.out.line(&line);
        }
    }

    fn set_option(&mut self, name: &str, value: &str) {
        let key: String = name
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        let spin = |min: u64, max: u64| -> Result<u64, String> {
            let n: u64 = value
                .trim()
                .parse()
                .map_err(|_| format!("option {name}: '{}' is not a number", clip(value)))?;
            if (min..=max).contains(&n) {
                Ok(n)
            } else {
                Err(format!("option {name}: {n} is not between {min} and {max}"))
            }
        };
        let mut options = self
            .engine
            .as_ref()
            .map_or_else(EngineOptions::default, |e| e.options().clone());
        let result: Result<(), String> = match key.as_str() {
            "variant" | "uci_variant" => match value.parse::<Variant>() {
                Ok(v) => {
                    self.variant = v;
                    self.game = Game::new(Position::start(v));
                    Ok(())
                }
                Err(e) => Err(e.to_string()),
            },
            "level" | "skilllevel" => {
                spin(1, u64::from(EngineOptions::MAX_LEVEL)).map(|n| options.level = n as u8)
            }
            "threads" => {
                spin(1, EngineOptions::MAX_THREADS as u64).map(|n| options.threads = n as usize)
            }
            "hash" => {
                spin(1, EngineOptions::MAX_HASH_MB as u64).map(|n| options.hash_mb = n as usize)
            }
            "multipv" => spin(1, 1000).map(|n| options.multi_pv = n as usize),
            "contempt" => {
                spin(0, EngineOptions::MAX_CONTEMPT as u64).map(|n| options.contempt = n as i32)
            }
            "seed" => spin(0, i64::MAX as u64).map(|n| options.seed = (n != 0).then_some(n)),
            "tablebasepath" | "tablebase" => {
                self.default_tables = None;
                let path = value.trim();
                if path.is_empty() || path == "<empty>" {
                    self.tablebase_path.clear();
                    self.engine_mut().set_tablebase(None);
                    Ok(())
                } else {
                    match (self.open_tablebase)(Path::new(path)) {
                        Ok(tb) => {
                            self.tablebase_path = path.to_string();
                            self.engine_mut().set_tablebase(Some(tb));
                            self.out.line(&format!(
                                "info string tablebase opened at {}",
                                printable(path)
                            ));
                            Ok(())
                        }
                        Err(e) => Err(format!("option TablebasePath: {e}")),
                    }
                }
            }
            _ => Err(format!("unknown option '{}'", clip(name))),
        };
        match result {
            Ok(()) => {
                let wanted = options.hash_mb;
                let engine = match self.engine.take() {
                    Some(mut engine) => {
                        engine.set_options(options);
                        engine
                    }
                    None => Engine::new(options),
                };
                let got = engine.options().hash_mb;
                self.engine = Some(engine);
                if got < wanted {
                    self.out.error(&format!(
                        "option Hash: {wanted} MiB cannot be allocated, using {got} MiB"
                    ));
                }
            }
            Err(e) => self.out.error(&e),
        }
    }

    /// Opens the default folder of tables, once, unless a folder was chosen.
    fn open_default_tables(&mut self) {
        let Some(dir) = self.default_tables.take() else {
            return;
        };
        match (self.open_tablebase)(&dir) {
            Ok(tb) => self.engine_mut().set_tablebase(Some(tb)),
            Err(e) => self.out.line(&format!(
                "info string tablebase: cannot open {}: {}",
                printable(&dir.display().to_string()),
                printable(&e)
            )),
        }
    }

    /// Starts a search; `stop` is the flag that ends it.
    fn go(&mut self, mut limits: Limits, stop: Arc<AtomicBool>) {
        limits.stop = Arc::clone(&stop);
        self.open_default_tables();
        let mut engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(EngineOptions::default()));
        let game = self.game.clone();
        let out = self.out.clone();
        let endless = limits.infinite
            || (limits.depth.is_none()
                && limits.nodes.is_none()
                && limits.movetime.is_none()
                && limits.clock.is_none());
        let multi = engine.options().multi_pv > 1;
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let board = game.position().board();
                let news = |engine: &Engine| {
                    for news in engine.take_tablebase_news() {
                        out.line(&format!("info string tablebase: {}", printable(&news)));
                    }
                };
                let mut report = |info: &Info| out.line(&info_line(info, board, multi));
                // The first probe of a variant may start a build: said before the answer.
                let result = engine.search(&game, &limits, &mut report);
                news(&engine);
                if limits.infinite {
                    // The answer waits for `stop`, as the protocol asks.
                    while !limits.stop.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                }
                for problem in engine.take_tablebase_problems() {
                    out.line(&format!("info string tablebase: {}", printable(&problem)));
                }
                let best = result
                    .best
                    .map_or_else(|| "none".to_string(), |p| p.display(board).to_string());
                out.line(&format!("bestmove {best}"));
                engine
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    stop,
                    endless,
                    handle,
                });
            }
            Err(e) => self.out.error(&format!("cannot start the search: {e}")),
        }
    }

    /// Ends the running search, if any: at once when `now`, else when it ends by itself
    /// (an endless search is stopped all the same).
    fn finish(&mut self, now: bool) {
        let Some(running) = self.running.take() else {
            return;
        };
        if now || running.endless {
            running.stop.store(true, Ordering::Relaxed);
        }
        match running.handle.join() {
            Ok(engine) => self.engine = Some(engine),
            Err(_) => self.out.error("the search failed"),
        }
    }
}

/// An `info` line.
fn info_line(info: &Info, board: &morris_core::Board, multi: bool) -> String {
    let mut line = format!("info depth {}", info.depth);
    if multi {
        line.push_str(&format!(" multipv {}", info.multipv));
    }
    line.push_str(&format!(
        " score {} nodes {} nps {} time {} pv",
        info.score,
        info.nodes,
        info.nps,
        info.time.as_millis()
    ));
    for ply in &info.pv {
        line.push(' ');
        line.push_str(&ply.display(board).to_string());
    }
    line
}
