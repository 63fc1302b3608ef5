//! `morris engine`, `morris bench` and `morris match` as a user runs them.

mod common;

use std::io::Write;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

const MORRIS: &str = env!("CARGO_BIN_EXE_morris");

/// Waits for the child to exit within `wait`, killing it (and failing) if it does not.
fn exits_within(mut child: Child, wait: Duration, what: &str) -> Output {
    let deadline = Instant::now() + wait;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {wait:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn engine_ends_its_search_and_exits_at_end_of_input() {
    for input in [
        "go\n",
        "position startpos moves d6\ngo infinite\n",
        "go depth 60\nposition startpos\ngo\n",
        "go\nucinewgame\nstop\nisready\n",
    ] {
        let mut child = common::morris()
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        // Dropping the handle closes the engine's input.
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let output = exits_within(child, Duration::from_secs(10), input);
        assert!(output.status.success(), "{input:?}");
        let text = String::from_utf8(output.stdout).unwrap();
        let gos = input.lines().filter(|l| l.starts_with("go")).count();
        assert_eq!(
            text.lines().filter(|l| l.starts_with("bestmove ")).count(),
            gos,
            "{input:?}: {text}"
        );
    }
}

#[test]
fn engine_answers_on_standard_input_and_output() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("engine-tablebases");
    let _ = std::fs::remove_dir_all(&dir);
    // A file where a folder should be: the option must fail with an error line.
    let blocked = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("engine-not-a-folder");
    std::fs::write(&blocked, b"x").unwrap();
    let mut child = common::morris()
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            format!(
                "uci\nsetoption name TablebasePath value {}\nsetoption name TablebasePath value {}\nposition startpos moves d6\ngo depth 3\n",
                blocked.display(),
                dir.display()
            )
            .as_bytes(),
        )
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("uciok"), "{text}");
    assert!(
        text.contains("info string error: option TablebasePath:"),
        "{text}"
    );
    assert!(text.contains("info string tablebase opened at"), "{text}");
    assert!(
        dir.join("nine-3-3.mtb").exists(),
        "the 3-3 sector is built on first use"
    );
    let best = text
        .lines()
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap();
    let pos = morris_core::Position::start(morris_core::Variant::Nine)
        .play_text("d6")
        .unwrap();
    assert!(pos.parse_ply(best).is_ok(), "{best}");
}

#[test]
fn bench_ends_with_its_signature() {
    let run = || {
        let output = common::morris()
            .args(["bench", "--depth", "3"])
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let text = run();
    let last = text.lines().last().unwrap();
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words.len(), 4, "{last}");
    assert_eq!((words[0], words[2]), ("nodes", "nps"));
    assert!(words[1].parse::<u64>().unwrap() > 0);
    // The node total is the same on every run.
    let again = run();
    assert_eq!(
        again.lines().last().unwrap().split(' ').nth(1),
        Some(words[1])
    );
}

#[test]
fn a_weights_file_in_the_environment_replaces_the_compiled_weights() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("weights-env");
    std::fs::create_dir_all(&dir).unwrap();
    let bench = |weights: Option<&std::path::Path>| {
        let mut command = common::morris();
        command.args(["bench", "--depth", "3"]);
        match weights {
            Some(path) => command.env("MORRIS_WEIGHTS", path),
            None => command.env_remove("MORRIS_WEIGHTS"),
        };
        command.output().unwrap()
    };
    let nodes = |output: &Output| {
        assert!(output.status.success(), "{output:?}");
        let text = String::from_utf8(output.stdout.clone()).unwrap();
        text.lines()
            .last()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .to_string()
    };
    let compiled = nodes(&bench(None));
    // The compiled weights, from a file: the same search.
    let same = dir.join("same.txt");
    let text = include_str!("../../engine/src/weights.txt");
    std::fs::write(&same, text).unwrap();
    assert_eq!(nodes(&bench(Some(&same))), compiled);
    // Other weights: another search.
    let other = dir.join("other.txt");
    let changed: String = text
        .lines()
        .map(|line| {
            if line.starts_with("placing mobility ") {
                "placing mobility 250\n".to_string()
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    assert!(changed.contains("placing mobility 250") && !text.contains("placing mobility 250"));
    std::fs::write(&other, changed).unwrap();
    assert_ne!(nodes(&bench(Some(&other))), compiled);
    // A file that is missing or not a weights file stops the command with one error line.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "placing piece 100\n").unwrap();
    for path in [bad, dir.join("missing.txt")] {
        let output = bench(Some(&path));
        assert_eq!(output.status.code(), Some(2));
        let err = String::from_utf8(output.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: MORRIS_WEIGHTS="), "{err}");
    }
}

#[test]
fn match_plays_games_side_by_side_with_the_same_openings_and_colours() {
    let engine = format!("{MORRIS} engine");
    let output = common::morris()
        .args(["match", "--engine", &engine, "--engine", &engine])
        .args(["--name", "a", "--name", "b", "--games", "4"])
        .args(["--nodes", "1000", "--variant", "six", "--concurrency", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{text}");
    let mut games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    games.sort();
    assert_eq!(games.len(), 4, "{text}");
    for (n, line) in games.iter().enumerate() {
        let players = if n % 2 == 0 { "a - b " } else { "b - a " };
        assert!(
            line.starts_with(&format!("game {} {players}", n + 1)),
            "{text}"
        );
    }
    let tally = text.lines().find(|l| l.starts_with("a vs b: ")).unwrap();
    let count = |word: &str| -> u32 {
        let words: Vec<&str> = tally.split(' ').collect();
        let at = words.iter().position(|w| *w == word).unwrap();
        words[at + 1].parse().unwrap()
    };
    assert_eq!(
        count("wins") + count("draws") + count("losses"),
        4,
        "{text}"
    );
}

#[test]
fn match_plays_records_and_scores() {
    let dir = std::env::temp_dir().join(format!("morris-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("games.pgn");
    let engine = format!("{MORRIS} engine");
    let output = common::morris()
        .args(["match", "--engine", &engine, "--engine", &engine])
        .args([
            "--engine-options",
            "Level=10",
            "--engine-options",
            "Level=1",
        ])
        .args(["--name", "strong", "--name", "weak", "--games", "2"])
        .args(["--nodes", "2000", "--variant", "six"])
        .arg("--record")
        .arg(&record)
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("game 1 strong - weak "), "{text}");
    assert!(lines[1].starts_with("game 2 weak - strong "), "{text}");
    assert!(lines[2].starts_with("strong vs weak: wins "), "{text}");
    assert!(lines[3].starts_with("elo "), "{text}");
    let games = std::fs::read_to_string(&record).unwrap();
    assert_eq!(games.matches("[Variant \"six\"]").count(), 2, "{games}");
    let first = games.split("\n\n[").next().unwrap();
    let parsed = morris_core::GameRecord::parse(first).unwrap();
    assert!(parsed.game.outcome().is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn match_adjudicated_by_the_tables_ends_each_game_with_their_verdict() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("match-adjudicate");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let tables = dir.join("tables");
    let solved = common::morris()
        .args(["solve", "--variant", "three", "--dir"])
        .arg(&tables)
        .output()
        .unwrap();
    assert!(solved.status.success(), "{solved:?}");
    let record = dir.join("games.pgn");
    let engine = format!("{MORRIS} engine");
    let output = common::morris()
        .args(["match", "--engine", &engine, "--engine", &engine])
        .args(["--engine-options", "Level=1", "--engine-options", "Level=1"])
        .args(["--games", "6", "--nodes", "500", "--variant", "three"])
        .arg("--adjudicate")
        .arg(&tables)
        .arg("--record")
        .arg(&record)
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{text}");
    let games = std::fs::read_to_string(&record).unwrap();
    let mut by_tables = 0;
    for (line, game) in text.lines().take(6).zip(games.split("\n\n[")) {
        let game = if game.starts_with('[') {
            game.to_string()
        } else {
            format!("[{game}")
        };
        let parsed = morris_core::GameRecord::parse(&game).unwrap();
        let end = *parsed.game.position();
        if !line.contains("(the tables: ") {
            // A mill while placing decides the game of three before the tables can.
            assert!(parsed.game.outcome().is_some(), "{line}");
            continue;
        }
        by_tables += 1;
        // Every piece is placed, and the verdict is what the tables say of the last position.
        assert_eq!(end.in_hand(morris_core::Color::White), 0, "{line}");
        assert_eq!(end.in_hand(morris_core::Color::Black), 0, "{line}");
        let probe = common::morris()
            .args(["tb", "probe", "--variant", "three", "--dir"])
            .arg(&tables)
            .args(["--position", &end.to_string()])
            .output()
            .unwrap();
        let said = String::from_utf8(probe.stdout).unwrap();
        let first = said.lines().next().unwrap_or_default().to_string();
        let mover = format!("{} to move", end.turn().title());
        let expected = if line.contains("(the tables: a draw)") {
            "draw"
        } else if line.contains(&format!("{mover} wins in ")) {
            "win"
        } else {
            assert!(line.contains(&format!("{mover} loses in ")), "{line}");
            "loss"
        };
        assert!(first.contains(expected), "{line}: {said}");
        let winner = parsed.game.outcome().map(|o| o.winner);
        match expected {
            "draw" => assert_eq!(winner, Some(None), "{line}"),
            "win" => assert_eq!(winner, Some(Some(end.turn())), "{line}"),
            _ => assert_eq!(winner, Some(Some(!end.turn())), "{line}"),
        }
    }
    assert!(by_tables > 0, "{text}");
    // A folder that is not there is refused before any game.
    let missing = common::morris()
        .args(["match", "--engine", &engine, "--engine", &engine])
        .arg("--adjudicate")
        .arg(dir.join("missing"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    let err = String::from_utf8(missing.stderr).unwrap();
    assert!(err.starts_with("error: --adjudicate:"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn match_rejects_bad_arguments() {
    for args in [
        vec!["match", "--engine", "x"],
        vec!["match", "--engine", "x", "--engine", "y", "--games", "0"],
        vec![
            "match",
            "--engine",
            "x",
            "--engine",
            "y",
            "--concurrency",
            "0",
        ],
        vec![
            "match",
            "--engine",
            "x",
            "--engine",
            "y",
            "--engine-options",
            "Level",
        ],
        vec!["match", "--engine", "x", "--engine", "y", "--tc", "ten"],
        vec![
            "match",
            "--engine",
            "/nonexistent/a",
            "--engine",
            "/nonexistent/b",
        ],
        vec!["bench", "--depth", "0"],
        // An engine that floods its output, or writes a line without end.
        vec!["match", "--engine", "yes", "--engine", "yes"],
        vec!["match", "--engine", "cat /dev/zero", "--engine", "yes"],
    ] {
        let output = common::morris().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(output.stderr).unwrap();
        let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(lines.len(), 1, "{args:?}: {err}");
        assert!(lines[0].starts_with("error: "), "{args:?}: {err}");
    }
}

/// A tablebase file damaged on disk is found while the engine searches, said once in an
/// `info string`, and the engine goes on without it.
#[test]
fn a_damaged_tablebase_is_reported_once_and_the_engine_plays_on() {
    let dir = std::env::temp_dir().join(format!("morris-engine-damaged-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let built = common::morris()
        .args(["tb", "build", "--sectors", "3-3", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(built.status.success());
    // Damage one byte of every block of values; the header and block checksums stay whole.
    let path = dir.join("nine-3-3.mtb");
    let mut bytes = std::fs::read(&path).unwrap();
    let values = bytes.len() - 128 - 8 * (bytes.len() - 128).div_ceil(65_536 + 8);
    for at in (128..128 + values).step_by(65_536) {
        bytes[at + 7] ^= 0x5a;
    }
    std::fs::write(&path, &bytes).unwrap();
    let pos = "W../.../.../B..B.W/.../.../.BW w 0 0 0 30";
    let input = format!(
        "setoption name TablebasePath value {}\nposition fen {pos}\ngo depth 3\nisready\ngo depth 3\nisready\n",
        dir.display()
    );
    let mut child = common::morris()
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = exits_within(child, Duration::from_secs(60), "engine");
    let text = String::from_utf8(out.stdout).unwrap();
    // Besides the line that the small tables are being built in the background.
    let said: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("info string tablebase: ") && !l.contains("building"))
        .collect();
    assert_eq!(said.len(), 1, "{text}");
    assert!(
        said[0].contains("3-3") && said[0].contains("checksum"),
        "{text}"
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("bestmove ")).count(),
        2,
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
