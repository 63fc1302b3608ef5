//! `morris play` as a script uses it: standard input and output are pipes, so the plain mode
//! runs by itself.

mod common;

use std::io::Write;
use std::process::{Output, Stdio};

fn morris(args: &[&str], input: &str) -> Output {
    let mut child = common::morris()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The program may end before reading everything (a bad argument): ignore a broken pipe.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

const GAME: &str = "e4 g1 c4 d1 b4 f2 a4xf2 f2 e5 d2 e3xd2 d2 d5 c3 c5xc3 c3 f6 g4 a4-a1 \
    f2-f4 a1-a4xf4 d1-a1 b4-b6 g1-d1 b6-b4xg4 d1-g1 b4-b6 g1-d1 b6-b4xc3 d1-g1 b4-b6 g1-d1 b6-b4xd2";

#[test]
fn a_piped_game_between_two_people_runs_to_its_result() {
    let input: String = GAME.split_whitespace().map(|p| format!("{p}\n")).collect();
    let out = morris(&["play", "--color", "both"], &input);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Result: 1-0 (Black has fewer than three pieces)."),
        "{text}"
    );
    assert!(text.ends_with("17. b6-b4xd2 1-0\n"), "{text}");
    assert!(out.stderr.is_empty());
}

#[test]
fn position_and_moves_set_the_start_and_a_record_loads() {
    let args = [
        "play",
        "--plain",
        "--color",
        "both",
        "--variant",
        "three",
        "--moves",
        "b2 a1 a3 c3",
    ];
    let out = morris(&args, "c1\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Result: 1-0 (White completed a line of three)."),
        "{text}"
    );
    // The plies of --moves are the game's own: in the record, and taken back by undo.
    assert!(text.ends_with("1. b2 a1 2. a3 c3 3. c1 1-0\n"), "{text}");
    let undo = morris(
        &[
            "play", "--color", "both", "--moves", "d6 f4 d2", "--seed", "1",
        ],
        "undo\nundo\nquit\n",
    );
    let undo = String::from_utf8(undo.stdout).unwrap();
    assert!(undo.ends_with("1. d6 *\n"), "{undo}");
    let path = std::env::temp_dir().join(format!("morris-cli-play-{}.txt", std::process::id()));
    std::fs::write(&path, &text[text.find("[Event").unwrap()..]).unwrap();
    let out = morris(
        &["play", "--color", "both", "--load", path.to_str().unwrap()],
        "",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Three Men's Morris."), "{text}");
    assert!(
        text.contains("Result: 1-0 (White completed a line of three)."),
        "{text}"
    );
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn against_the_computer_it_replies_on_its_own() {
    let out = morris(&["play", "--level", "1", "--seed", "3"], "d6\nquit\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("White plays d6.\n"), "{text}");
    assert!(text.contains("Black plays "), "{text}");
}

#[test]
fn bad_arguments_give_one_error_line_and_status_2() {
    for args in [
        &["play", "--color", "purple"][..],
        &["play", "--level", "11"],
        &["play", "--load", "/nonexistent/game.txt"],
        &["play", "--load", "/dev/zero"],
        &["play", "--load", "/"],
        &["play", "--moves", "d6 d6"],
        &["play", "--load", "x.txt", "--moves", "d6"],
    ] {
        let out = morris(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

/// With `--tablebases`, a hint in a position the tables hold is exact: the ply that wins the
/// shortest way, with its distance.
#[test]
fn hints_come_from_the_tables_where_they_reach() {
    let dir = std::env::temp_dir().join(format!("morris-play-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // Three against three in nine: the tables of 3-3 are built when the folder is opened.
    let pos = "W../.../.../B..B.W/.../.../.BW w 0 0 0 30";
    let built = common::morris()
        .args(["tb", "build", "--sectors", "3-3", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(built.status.success());
    let probe = common::morris()
        .args(["tb", "probe", "--position", pos, "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let probe = String::from_utf8(probe.stdout).unwrap();
    let best = probe.lines().nth(1).expect("a ply with its value");
    let (ply, value) = best.split_once(' ').unwrap();
    let out = morris(
        &[
            "play",
            "--color",
            "both",
            "--position",
            pos,
            "--tablebases",
            dir.to_str().unwrap(),
        ],
        "hint\nquit\n",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!("Hint: {ply} ({value}).")),
        "expected {ply} ({value}): {text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
