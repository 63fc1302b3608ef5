//! Protocol transcripts: `run_protocol` driven through channels, as a GUI would drive it.

use std::io::{BufReader, Read, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use morris_core::{Game, Position, Variant};
use morris_engine::run_protocol;

/// Input fed line by line from the test.
struct ChannelReader {
    rx: Receiver<Vec<u8>>,
    pending: Vec<u8>,
}

impl Read for ChannelReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            match self.rx.recv() {
                Ok(bytes) => self.pending = bytes,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// Output handed back to the test line by line.
struct ChannelWriter {
    tx: Sender<String>,
    partial: Vec<u8>,
}

impl Write for ChannelWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                let line = String::from_utf8_lossy(&self.partial).into_owned();
                self.partial.clear();
                let _ = self.tx.send(line);
            } else {
                self.partial.push(b);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

struct Engine {
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<String>,
    handle: Option<JoinHandle<()>>,
}

const PATIENCE: Duration = Duration::from_secs(60);

impl Engine {
    fn start() -> Engine {
        let (in_tx, in_rx) = channel();
        let (out_tx, out_rx) = channel();
        let reader = BufReader::new(ChannelReader {
            rx: in_rx,
            pending: Vec::new(),
        });
        let writer = ChannelWriter {
            tx: out_tx,
            partial: Vec::new(),
        };
        let handle = std::thread::spawn(move || {
            run_protocol(
                reader,
                writer,
                Box::new(|_| Err("tablebases are not available in this build".into())),
            );
        });
        Engine {
            input: Some(in_tx),
            output: out_rx,
            handle: Some(handle),
        }
    }

    fn send(&self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&self, bytes: &[u8]) {
        self.input.as_ref().unwrap().send(bytes.to_vec()).unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        self.until_within(prefix, PATIENCE)
    }

    /// Lines up to and including the first that starts with `prefix`, which must come within
    /// `wait`.
    fn until_within(&self, prefix: &str, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                Err(e) => panic!("no '{prefix}' line ({e:?}) after {lines:?}"),
            }
        }
    }

    /// The next line, if one comes within `wait`.
    fn next_within(&self, wait: Duration) -> Option<String> {
        self.output.recv_timeout(wait).ok()
    }

    /// Closes the input; the protocol must write `bestmove` within `wait` and return.
    fn close_within(mut self, wait: Duration) -> Vec<String> {
        self.input.take();
        let mut lines = self.until_within("bestmove", wait);
        self.handle.take().unwrap().join().unwrap();
        lines.extend(self.output.try_iter());
        lines
    }

    /// Closes the input and waits for the protocol to return.
    fn close(mut self) -> Vec<String> {
        self.input.take();
        self.handle.take().unwrap().join().unwrap();
        self.output.try_iter().collect()
    }
}

fn bestmove(lines: &[String]) -> String {
    let last = lines.last().unwrap();
    last.strip_prefix("bestmove ").unwrap().to_string()
}

#[test]
fn answers_uci_with_its_options() {
    let engine = Engine::start();
    engine.send("uci");
    let lines = engine.until("uciok");
    for option in [
        "Variant",
        "Level",
        "Threads",
        "Hash",
        "MultiPV",
        "TablebasePath",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option}: {lines:?}"
        );
    }
    assert!(lines[0].starts_with("id name "));
    engine.send("isready");
    assert_eq!(engine.until("readyok"), ["readyok"]);
    engine.close();
}

#[test]
fn plays_a_whole_game_with_legal_plies() {
    let engine = Engine::start();
    engine.send("ucinewgame");
    engine.send("setoption name Seed value 7");
    let mut game = Game::new(Position::start(Variant::Nine));
    let mut moves: Vec<String> = Vec::new();
    loop {
        let level = if game.plies().len() % 2 == 0 { 10 } else { 4 };
        engine.send(&format!("setoption name Level value {level}"));
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        engine.send("go depth 3");
        let lines = engine.until("bestmove");
        for info in &lines[..lines.len() - 1] {
            assert!(info.starts_with("info depth "), "{info}");
            assert!(info.contains(" score ") && info.contains(" pv"), "{info}");
        }
        let best = bestmove(&lines);
        if game.outcome().is_some() {
            assert_eq!(best, "none");
            break;
        }
        game.play_text(&best)
            .unwrap_or_else(|e| panic!("illegal bestmove {best} after {moves:?}: {e}"));
        moves.push(best);
        assert!(moves.len() <= 400, "the game does not end");
    }
    assert!(game.outcome().is_some());
    engine.close();
}

#[test]
fn answers_isready_during_a_search_and_stops_on_stop() {
    let engine = Engine::start();
    engine.send("position startpos moves d6 f4");
    engine.send("go infinite");
    engine.send("isready");
    let lines = engine.until("readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    // An infinite search gives no answer until told to stop.
    std::thread::sleep(Duration::from_millis(100));
    let quiet: Vec<String> = std::iter::from_fn(|| engine.next_within(Duration::ZERO)).collect();
    assert!(
        !quiet.iter().any(|l| l.starts_with("bestmove")),
        "{quiet:?}"
    );
    engine.send("stop");
    let lines = engine.until("bestmove");
    let best = bestmove(&lines);
    let pos = Position::start(Variant::Nine)
        .play_text("d6")
        .and_then(|p| p.play_text("f4"))
        .unwrap();
    assert!(pos.parse_ply(&best).is_ok(), "{best}");
    engine.send("quit");
    assert!(engine.close().is_empty());
}

#[test]
fn bad_input_leaves_the_previous_position() {
    let engine = Engine::start();
    engine.send("position startpos moves d6 f4");
    engine.send("d");
    let before = engine.until("Position:");
    let before = before.last().unwrap().clone();
    for bad in [
        "position startpos moves d6 f4 d6",
        "position startpos moves d6 zz9",
        "position fen this is no position",
        "position sideways",
        "position",
        "go depth banana",
        "go sideways",
        "setoption name Level value 11",
        "setoption name Variant value chess",
        "setoption name Nonsense value 1",
        "setoption Hash 1",
        "setoption name TablebasePath value /nowhere",
        "fly me to the moon",
    ] {
        engine.send(bad);
        let line = engine.until("info string error:");
        assert_eq!(line.len(), 1, "{bad}: {line:?}");
    }
    engine.send_bytes(b"\xff\xfe position \x00\n");
    engine.until("info string error:");
    engine.send_bytes(&vec![b'a'; 3 << 20]);
    engine.send("");
    engine.until("info string error:");
    engine.send("d");
    let after = engine.until("Position:");
    assert_eq!(after.last().unwrap(), &before);
    engine.send("go depth 2");
    let best = bestmove(&engine.until("bestmove"));
    let pos = Position::from_fen(
        Variant::Nine.rules(),
        before.strip_prefix("Position: ").unwrap(),
    )
    .unwrap();
    assert!(pos.parse_ply(&best).is_ok(), "{best}");
    engine.close();
}

#[test]
fn control_characters_of_the_input_are_escaped_in_replies() {
    let engine = Engine::start();
    for bad in [
        "\u{1b}[2J\u{7}frob",
        "position \u{1b}]0;title\u{7}",
        "position startpos moves d6 \u{1b}[31m",
        "setoption name \u{1b}[5m value 1",
        "go depth \u{9b}1",
        "frob\u{8}\u{8}\u{8}\u{8}ok",
    ] {
        engine.send(bad);
        let lines = engine.until("info string error:");
        let line = lines.last().unwrap();
        assert!(!line.chars().any(char::is_control), "{bad:?}: {line:?}");
        assert!(line.contains("\\u{"), "{bad:?}: {line:?}");
    }
    engine.close();
}

#[test]
fn input_that_ends_early_still_gets_its_answer() {
    let engine = Engine::start();
    engine.send("position startpos");
    engine.send("go depth 4");
    let rest = engine.close();
    assert!(rest.last().unwrap().starts_with("bestmove "), "{rest:?}");

    let engine = Engine::start();
    engine.send("go infinite");
    let rest = engine.close();
    assert!(rest.last().unwrap().starts_with("bestmove "), "{rest:?}");

    let engine = Engine::start();
    engine.send_bytes(b"position startpos moves d6 f");
    let rest = engine.close();
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert!(rest[0].starts_with("info string error:"), "{rest:?}");
}

/// How long a search may take to answer `stop` or the end of the input here: far more than
/// it needs, far less than the searches below would take by themselves.
const PROMPT: Duration = Duration::from_secs(10);

#[test]
fn stop_behind_other_commands_still_ends_the_search() {
    for go in ["go", "go depth 60", "go nodes 100000000000", "go infinite"] {
        let engine = Engine::start();
        engine.send("position startpos moves d6 f4");
        engine.send(go);
        // Each of these waits for the search to end before it is carried out.
        engine.send("position startpos moves d6");
        engine.send("setoption name Level value 9");
        engine.send("stop");
        let lines = engine.until_within("bestmove", PROMPT);
        let best = bestmove(&lines);
        let pos = Position::start(Variant::Nine)
            .play_text("d6")
            .and_then(|p| p.play_text("f4"))
            .unwrap();
        assert!(pos.parse_ply(&best).is_ok(), "{go}: {best}");
        // The commands behind the search were carried out after it, in order.
        engine.send("d");
        let shown = engine.until_within("Position:", PROMPT);
        assert_eq!(
            shown.last().unwrap(),
            "Position: .../.W./.../....../.../.../... b 8 9 0 1",
            "{go}"
        );
        engine.send("quit");
        assert!(engine.close().is_empty(), "{go}");
    }
}

#[test]
fn stop_before_the_search_starts_still_gives_a_bestmove() {
    let engine = Engine::start();
    // Sent at once: the stop may well be read before the search begins.
    engine.send_bytes(b"position startpos\ngo\nstop\nisready\n");
    let lines = engine.until_within("readyok", PROMPT);
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
        1,
        "{lines:?}"
    );
    engine.close();
}

#[test]
fn end_of_input_ends_any_search() {
    for go in [
        "go",
        "go depth 60",
        "go infinite",
        "go wtime 100000000 btime 100000000",
    ] {
        let engine = Engine::start();
        engine.send("position startpos moves d6");
        engine.send(go);
        let rest = engine.close_within(PROMPT);
        assert_eq!(
            rest.iter().filter(|l| l.starts_with("bestmove ")).count(),
            1
        );
        let best = bestmove(&rest);
        let pos = Position::start(Variant::Nine).play_text("d6").unwrap();
        assert!(pos.parse_ply(&best).is_ok(), "{go}: {best}");
    }
    // A search behind another command ends too.
    let engine = Engine::start();
    engine.send("go");
    engine.send("position startpos moves d6");
    engine.send("go");
    let rest = engine.close_within(PROMPT);
    assert_eq!(
        rest.iter().filter(|l| l.starts_with("bestmove ")).count(),
        2,
        "{rest:?}"
    );
}

#[test]
fn plays_every_variant_and_reads_both_position_strings() {
    let engine = Engine::start();
    for variant in Variant::ALL {
        engine.send(&format!("setoption name Variant value {variant}"));
        engine.send("position startpos");
        engine.send("go depth 2");
        let best = bestmove(&engine.until("bestmove"));
        assert!(
            Position::start(variant).parse_ply(&best).is_ok(),
            "{variant}: {best}"
        );
    }
    engine.send("setoption name Variant value nine");
    engine.send("position fen ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 moves d6");
    engine.send("d");
    let lines = engine.until("Position:");
    assert_eq!(
        lines.last().unwrap(),
        "Position: .../.W./.../....../.../.../... b 8 9 0 1"
    );
    engine.close();
}

#[test]
fn multipv_scores_every_root_ply() {
    let engine = Engine::start();
    engine.send("setoption name MultiPV value 100");
    engine.send("position startpos moves d6 f4 d5");
    engine.send("go depth 2");
    let lines = engine.until("bestmove");
    let depth2: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 2 "))
        .collect();
    // 21 empty points, each a placement.
    assert_eq!(depth2.len(), 21, "{lines:?}");
    assert!(depth2[0].contains(" multipv 1 "));
    assert!(depth2[20].contains(" multipv 21 "));
    engine.close();
}

/// `go movetime 200` answers within 220 ms. Timing depends on the machine, so this runs only
/// on request: `cargo test --release -p morris-engine --test protocol -- --ignored`.
#[test]
#[ignore = "timing; run on a quiet machine"]
fn movetime_is_kept() {
    let engine = Engine::start();
    let mut worst = Duration::ZERO;
    for moves in [
        "",
        "d6 f4 d2 b4",
        "d6 f4 d2 b4 d7 b6 a1 g1 c4 e4 c5 c3 e5 e3 a4 a7 g7 g4",
    ] {
        engine.send(&format!("position startpos moves {moves}"));
        engine.send("isready");
        engine.until("readyok");
        let start = Instant::now();
        engine.send("go movetime 200");
        engine.until("bestmove");
        worst = worst.max(start.elapsed());
    }
    eprintln!("slowest answer to go movetime 200: {worst:?}");
    assert!(worst <= Duration::from_millis(220), "{worst:?}");
    engine.close();
}
