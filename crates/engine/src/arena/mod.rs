//! Engine against engine through the protocol, refereed by the rules core: openings from a
//! varied set, colours alternating, time per ply or a clock, and a tally with the Elo
//! difference. An illegal ply, a crash or a timeout loses the game.

mod elo;
mod openings;
mod player;

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use morris_core::{Color, Game, GameRecord, Variant};

use crate::text::{clip, printable};
use crate::{Probe, TbValue};

pub use elo::{Tally, elo_of};
pub use openings::{opening_game, openings};
pub use player::{EngineSpec, MAX_ANSWER, MAX_LINE, Player, PlayerError};

/// How much time the engines get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time for every ply (`go movetime`).
    PerPly(Duration),
    /// A fixed number of nodes for every ply (`go nodes`), given `limit` to answer: a
    /// measure of the search that the machine's load does not change.
    Nodes {
        /// Nodes per ply.
        nodes: u64,
        /// The time allowed for each answer.
        limit: Duration,
    },
    /// A clock per side: a base time and an increment after each ply (`go wtime … binc …`).
    Clock {
        /// Time at the start of the game.
        base: Duration,
        /// Time added after each ply.
        inc: Duration,
    },
}

/// Tables that end a game once it reaches the moving phase in a position they hold, with
/// their verdict: the placing phase is then all that is played, and judged exactly.
#[derive(Clone)]
pub struct Adjudication(pub Arc<dyn Probe>);

impl std::fmt::Debug for Adjudication {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Adjudication(tables)")
    }
}

/// A match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; the tally is the first one's.
    pub engines: [EngineSpec; 2],
    /// Games to play; each opening is played twice, once with each colour.
    pub games: u32,
    /// The variant.
    pub variant: Variant,
    /// The time control.
    pub time: TimeControl,
    /// Plies of the openings, taken from every early position of the variant.
    pub opening_plies: usize,
    /// The order of the openings.
    pub seed: u64,
    /// Lateness forgiven before a ply counts as out of time.
    pub time_margin: Duration,
    /// A game still going after this many plies is drawn.
    pub max_plies: usize,
    /// How many games are played at the same time, each by its own pair of engine
    /// processes (at least 1). Game `n` has the same opening and colours whatever this is.
    pub concurrency: usize,
    /// Tables that decide games once the placing phase is over, if any.
    pub adjudicate: Option<Adjudication>,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The game's number, from 1.
    pub number: u32,
    /// Which engine (0 or 1) had White.
    pub white: usize,
    /// The engine that won (0 or 1), or `None` for a draw.
    pub winner: Option<usize>,
    /// How the game ended, in words.
    pub reason: String,
    /// The game as a record, with its tags.
    pub record: GameRecord,
}

/// The match's result.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The engines' names.
    pub names: [String; 2],
    /// The first engine's wins, draws and losses.
    pub tally: Tally,
}

/// Plays the match, calling `on_game` after every game (in the order the games finish when
/// several are played at once).
///
/// # Errors
///
/// When an engine cannot be started (or restarted after a crash), or the variant has no
/// openings of that length. The games already under way are played out first.
pub fn run_match(
    config: &MatchConfig,
    on_game: &mut dyn FnMut(&GameReport),
) -> Result<MatchReport, PlayerError> {
    let lines = openings(config.variant, config.opening_plies, config.seed);
    if lines.is_empty() {
        return Err(PlayerError::Start(format!(
            "{} has no openings of {} plies",
            config.variant, config.opening_plies
        )));
    }
    let workers = config.concurrency.clamp(1, config.games.max(1) as usize);
    let next = AtomicU32::new(1);
    let stop = AtomicBool::new(false);
    let mut names = [String::new(), String::new()];
    let mut tally = Tally::default();
    let mut first_error = None;
    // Each worker hands over a game at a time, and waits while one is not yet taken.
    let (tx, rx) = mpsc::sync_channel(workers);
    std::thread::scope(|s| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (lines, next, stop) = (&lines, &next, &stop);
            s.spawn(move || play_games(config, lines, next, stop, &tx));
        }
        drop(tx);
        for message in rx {
            match message {
                Ok((game_names, report)) => {
                    if names[0].is_empty() {
                        names = game_names;
                    }
                    match report.winner {
                        Some(0) => tally.wins += 1,
                        Some(_) => tally.losses += 1,
                        None => tally.draws += 1,
                    }
                    on_game(&report);
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    match first_error {
        Some(e) => Err(e),
        None => Ok(MatchReport { names, tally }),
    }
}

/// What a worker of [`run_match`] sends after each game: the engines' names and the game, or
/// why it stopped.
type Finished = Result<([String; 2], GameReport), PlayerError>;

/// One worker of [`run_match`]: plays the games whose numbers it takes from `next`, with its
/// own pair of engines, until there are none left or `stop` is set.
fn play_games(
    config: &MatchConfig,
    lines: &[Vec<morris_core::Ply>],
    next: &AtomicU32,
    stop: &AtomicBool,
    tx: &mpsc::SyncSender<Finished>,
) {
    let mut players: [Option<Player>; 2] = [None, None];
    let mut names = [String::new(), String::new()];
    while !stop.load(Ordering::Relaxed) {
        let number = next.fetch_add(1, Ordering::Relaxed);
        if number > config.games {
            return;
        }
        for (i, slot) in players.iter_mut().enumerate() {
            if slot.is_none() {
                let spec = &config.engines[i];
                match Player::start(spec, config.variant) {
                    Ok(p) => {
                        names[i].clone_from(&p.name);
                        *slot = Some(p);
                    }
                    Err(e) => {
                        let e = match e {
                            PlayerError::Start(_) => e,
                            other => PlayerError::Start(format!("{}: {other}", spec.command)),
                        };
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
        }
        let index = (number as usize - 1) / 2 % lines.len();
        let white = (number as usize - 1) % 2;
        let mut game = opening_game(config.variant, &lines[index]);
        let (winner, reason) = play_game(config, &mut players, white, &mut game);
        let mut record = GameRecord::new(game);
        record.tags = vec![
            ("Event".into(), "morris match".into()),
            ("Round".into(), number.to_string()),
            ("White".into(), names[white].clone()),
            ("Black".into(), names[1 - white].clone()),
            ("Reason".into(), reason.clone()),
        ];
        let report = GameReport {
            number,
            white,
            winner,
            reason,
            record,
        };
        if tx.send(Ok((names.clone(), report))).is_err() {
            return;
        }
    }
}

/// Plays one game from its opening; returns the winning engine and how it ended. An engine
/// that fails is dropped from `players` (to be restarted) and loses.
fn play_game(
    config: &MatchConfig,
    players: &mut [Option<Player>; 2],
    white: usize,
    game: &mut Game,
) -> (Option<usize>, String) {
    let engine_of = |c: Color| if c == Color::White { white } else { 1 - white };
    for (i, slot) in players.iter_mut().enumerate() {
        let ready = match slot.as_mut() {
            Some(p) => p.send("ucinewgame").and_then(|()| p.ready()),
            None => Err(PlayerError::Died),
        };
        if let Err(e) = ready {
            *slot = None;
            let loser = if i == white {
                Color::White
            } else {
                Color::Black
            };
            game.resign(loser);
            return (
                Some(1 - i),
                format!("{} failed to start: {e}", loser.title()),
            );
        }
    }
    let mut clock = match config.time {
        TimeControl::Clock { base, .. } => [base, base],
        TimeControl::PerPly(_) | TimeControl::Nodes { .. } => [Duration::ZERO; 2],
    };
    loop {
        if let Some(outcome) = game.outcome() {
            let winner = outcome.winner.map(engine_of);
            return (winner, outcome.describe());
        }
        if game.plies().len() >= config.max_plies {
            game.agree_draw();
            return (None, format!("drawn after {} plies", config.max_plies));
        }
        if let Some(verdict) = adjudicate(config.adjudicate.as_ref(), game) {
            let (winner, reason) = verdict;
            return (winner.map(engine_of), reason);
        }
        let side = game.position().turn();
        let i = engine_of(side);
        let moves: Vec<String> = game.ply_texts();
        let (go, allowed) = match config.time {
            TimeControl::PerPly(t) => (format!("go movetime {}", t.as_millis()), t),
            TimeControl::Nodes { nodes, limit } => (format!("go nodes {nodes}"), limit),
            TimeControl::Clock { inc, .. } => (
                format!(
                    "go wtime {} btime {} winc {} binc {}",
                    clock[0].as_millis(),
                    clock[1].as_millis(),
                    inc.as_millis(),
                    inc.as_millis()
                ),
                clock[side as usize],
            ),
        };
        let start = Instant::now();
        let answer = match players[i].as_mut() {
            Some(p) => p
                .send(&format!("position startpos moves {}", moves.join(" ")))
                .and_then(|()| p.send(&go))
                .and_then(|()| p.wait_for("bestmove", allowed + config.time_margin, "go")),
            None => Err(PlayerError::Died),
        };
        let elapsed = start.elapsed();
        let lines = match answer {
            Ok(lines) => lines,
            Err(e) => {
                players[i] = None;
                game.resign(side);
                return (Some(1 - i), format!("{} forfeits: {e}", side.title()));
            }
        };
        if elapsed > allowed + config.time_margin {
            game.resign(side);
            return (
                Some(1 - i),
                format!(
                    "{} forfeits on time ({} ms)",
                    side.title(),
                    elapsed.as_millis()
                ),
            );
        }
        if let TimeControl::Clock { inc, .. } = config.time {
            let c = &mut clock[side as usize];
            *c = c.saturating_sub(elapsed) + inc;
        }
        let text = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or("")
            .to_string();
        if let Err(e) = game.play_text(&text) {
            game.resign(side);
            return (
                Some(1 - i),
                format!(
                    "{} forfeits: illegal ply '{}': {e}",
                    side.title(),
                    printable(&clip(&text))
                ),
            );
        }
    }
}

/// Ends the game by the tables' verdict when there are tables, no pieces are left in hand and
/// the tables hold the position: the winning colour (`None` for a draw) and how it ended.
fn adjudicate(tables: Option<&Adjudication>, game: &mut Game) -> Option<(Option<Color>, String)> {
    let pos = *game.position();
    if pos.in_hand(Color::White) > 0 || pos.in_hand(Color::Black) > 0 {
        return None;
    }
    let side = pos.turn();
    let plies = |d: u16| format!("{d} {}", if d == 1 { "ply" } else { "plies" });
    let verdict = match tables?.0.probe(&pos)? {
        TbValue::Win(d) => {
            game.resign(!side);
            (
                Some(side),
                format!("the tables: {} to move wins in {}", side.title(), plies(d)),
            )
        }
        TbValue::Loss(d) => {
            game.resign(side);
            (
                Some(!side),
                format!("the tables: {} to move loses in {}", side.title(), plies(d)),
            )
        }
        TbValue::Draw => {
            game.agree_draw();
            (None, "the tables: a draw".to_string())
        }
    };
    Some(verdict)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine as a shell script: it answers the handshake, then on `go` floods its output
    /// with lines of 60 kB (`flood`) or says nothing (`stall`).
    const SCRIPT: &str = r#"
while read -r line; do
    case "$line" in
        uci) echo "id name $1"; echo uciok ;;
        isready) echo readyok ;;
        go*) if [ "$1" = flood ]; then exec yes "info string $(head -c 60000 /dev/zero | tr '\0' x)"; fi ;;
    esac
done
"#;

    #[test]
    fn an_engine_that_floods_or_stalls_loses_with_the_reason() {
        let dir = std::env::temp_dir().join(format!("morris-arena-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let script = dir.join("engine.sh");
        std::fs::write(&script, SCRIPT).unwrap();
        let engine = |mode: &str| EngineSpec {
            command: format!("sh {} {mode}", script.display()),
            options: Vec::new(),
            name: String::new(),
        };
        let config = MatchConfig {
            engines: [engine("flood"), engine("stall")],
            games: 2,
            variant: Variant::Nine,
            time: TimeControl::PerPly(Duration::from_millis(10)),
            opening_plies: 0,
            seed: 1,
            // Time enough to see the flood (16 MiB in moments), which a stall waits out.
            time_margin: Duration::from_secs(2),
            max_plies: 100,
            concurrency: 1,
            adjudicate: None,
        };
        let mut reasons = Vec::new();
        let report = run_match(&config, &mut |game| {
            reasons.push((game.winner, game.reason.clone()));
        })
        .unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(report.names, ["flood", "stall"]);
        assert_eq!(
            reasons,
            [
                (
                    Some(1),
                    format!(
                        "White forfeits: the engine wrote more than {MAX_ANSWER} bytes \
                         without answering go"
                    )
                ),
                (
                    Some(0),
                    "White forfeits: the engine did not answer go in time".to_string()
                ),
            ]
        );
    }
}
