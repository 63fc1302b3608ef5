//! The `morris` binary's `perft` and `moves` against the library, for every variant, and its
//! answer to bad input: status 2 and exactly one `error:` line, never a panic or a backtrace.

mod common;

use std::process::Output;

use morris_core::{DoubleMill, Position, Variant, perft};

fn morris(args: &[&str]) -> Output {
    common::morris()
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("the morris binary runs")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "status {:?}, stderr {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// Positions of each variant: the start and two reached by fixed plies.
fn positions(variant: Variant) -> Vec<Position> {
    let mut out = vec![Position::start(variant)];
    let mut pos = Position::start(variant);
    for i in 0..40 {
        let list = pos.legal_plies();
        if list.is_empty() {
            break;
        }
        pos.play_unchecked(list[(i * 7 + 3) % list.len()]);
        if i == 9 || i == 25 {
            out.push(pos);
        }
    }
    out
}

#[test]
fn perft_prints_the_library_count_for_every_variant() {
    for variant in Variant::ALL {
        for pos in positions(variant) {
            let depth = if pos.in_hand(pos.turn()) > 0 { 3 } else { 2 };
            let fen = pos.fen();
            let out = stdout(&morris(&[
                "perft",
                "--variant",
                variant.name(),
                "--position",
                &fen,
                "--depth",
                &depth.to_string(),
            ]));
            let last = out.lines().last().unwrap_or_default();
            assert_eq!(last, perft(&pos, depth).to_string(), "{variant} {fen}");
        }
    }
    let out = stdout(&morris(&["perft", "--depth", "3"]));
    assert_eq!(out, "12144\n");
}

#[test]
fn perft_divide_lists_each_ply_and_the_total() {
    for variant in Variant::ALL {
        let pos = Position::start(variant);
        let out = stdout(&morris(&[
            "perft",
            "--variant",
            variant.name(),
            "--depth",
            "2",
            "--divide",
        ]));
        let lines: Vec<&str> = out.lines().collect();
        let (total, per_ply) = lines.split_last().unwrap();
        assert_eq!(per_ply.len(), pos.legal_plies().len());
        let sum: u64 = per_ply
            .iter()
            .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(total.parse::<u64>().unwrap(), sum);
        assert_eq!(sum, perft(&pos, 2));
    }
    assert_eq!(
        stdout(&morris(&["perft", "--depth", "0", "--divide"])),
        "1\n"
    );
    assert_eq!(stdout(&morris(&["perft", "--depth", "0"])), "1\n");
}

#[test]
fn moves_lists_the_library_plies_for_every_variant() {
    for variant in Variant::ALL {
        for pos in positions(variant) {
            let fen = pos.fen();
            let out = stdout(&morris(&[
                "moves",
                "--variant",
                variant.name(),
                "--position",
                &fen,
            ]));
            let expected: Vec<String> = pos
                .legal_plies()
                .iter()
                .map(|p| p.display(pos.board()).to_string())
                .collect();
            let got: Vec<&str> = out.lines().collect();
            assert_eq!(got, expected, "{variant} {fen}");
        }
    }
}

#[test]
fn moves_plays_the_given_plies_first_with_removals_appended_or_separate() {
    let plies = "d6 f4 d5 b4 d7 xb4";
    let out = stdout(&morris(&["moves", "--moves", plies]));
    let pos = ["d6", "f4", "d5", "b4", "d7xb4"]
        .iter()
        .fold(Position::start(Variant::Nine), |p, t| {
            p.play_text(t).unwrap()
        });
    assert_eq!(out.lines().count(), pos.legal_plies().len());
    let joined = stdout(&morris(&["moves", "--moves", "d6 F4 d5 b4 D7xB4"]));
    assert_eq!(joined, out);
    // A finished game lists nothing.
    let blocked = stdout(&morris(&[
        "moves",
        "--position",
        ".../BBW/BWB/.WWWWB/BWB/WBW/... b 0 1 0 9",
        "--moves",
        "a4",
    ]));
    assert_eq!(blocked, "");
}

#[test]
fn moves_reads_sanmill_position_strings() {
    let sanmill = "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1";
    let out = stdout(&morris(&["moves", "--position", sanmill]));
    assert_eq!(out.lines().count(), 24);
}

#[test]
fn moves_follow_the_default_rules_of_the_variant() {
    // One removal for a double mill, the default; b2 is the only black piece outside a mill.
    let fen = "W.W/.W./.W./....../.../B../BBB w 5 5 0 5";
    let out = stdout(&morris(&["moves", "--position", fen]));
    assert!(out.lines().any(|l| l == "d7xb2"));
    assert!(!out.lines().any(|l| l.starts_with("d7x") && l != "d7xb2"));
    let mut rules = Variant::Nine.rules();
    rules.double_mill = DoubleMill::PerMill;
    let per_mill = Position::from_fen(rules, fen).unwrap();
    assert!(
        per_mill.parse_ply("d7xb2").is_err(),
        "the library option differs"
    );
}

/// Runs the binary on bad input and checks the answer: status 2, nothing on standard output,
/// one line on standard error that begins `error:`, no panic text, no backtrace.
fn assert_refused(args: &[&str]) -> String {
    let output = morris(args);
    let err = String::from_utf8_lossy(&output.stderr).to_string();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
    assert!(output.stdout.is_empty(), "{args:?}: printed to stdout");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: {err}");
    assert!(lines[0].starts_with("error: "), "{args:?}: {err}");
    for bad in ["panicked", "backtrace", "RUST_BACKTRACE", "internal error"] {
        assert!(!err.contains(bad), "{args:?}: {err}");
    }
    err
}

#[test]
fn bad_input_exits_with_status_2_and_one_error_line() {
    let long = "x".repeat(10_000);
    let cases: Vec<Vec<&str>> = vec![
        vec![],
        vec!["frob"],
        vec!["perft"],
        vec!["perft", "--depth"],
        vec!["perft", "--depth", "x"],
        vec!["perft", "--depth", "-1"],
        vec!["perft", "--depth", "99999999999"],
        vec!["perft", "--depth", "1", "--variant", "ten"],
        vec!["perft", "--depth", "1", "--variant", ""],
        vec!["perft", "--depth", "1", "--position", ""],
        vec!["perft", "--depth", "1", "--position", "junk"],
        vec!["perft", "--depth", "1", "--position", &long],
        vec![
            "perft",
            "--depth",
            "1",
            "--position",
            ".../.../.../....../.../.../... w 10 10 0 1",
        ],
        vec![
            "perft",
            "--depth",
            "1",
            "--position",
            ".../.../.../....../.../.../... b 9 9 0 1",
        ],
        vec![
            "perft",
            "--depth",
            "1",
            "--position",
            ".../.../.../....../.../.../... w 9 9 0 0",
        ],
        vec![
            "perft",
            "--depth",
            "1",
            "--position",
            "********/********/******** w p r 0 9 0 9 0 0 0 0 0 0 0 0 1",
        ],
        vec![
            "perft",
            "--depth",
            "1",
            "--position",
            "********/********/******** w p p 0 9 0 9 0 0",
        ],
        vec!["perft", "--depth", "1", "--moves", "zz"],
        vec!["perft", "--depth", "1", "--moves", "d6-d7"],
        vec!["perft", "--depth", "1", "--moves", "d6 d6"],
        vec!["perft", "--depth", "1", "--moves", "d6 xa1"],
        vec!["perft", "--depth", "1", "--moves", "d6 f4 d5 b4 d7"],
        vec!["perft", "--depth", "1", "--moves", &long],
        vec!["moves", "--position"],
        vec!["moves", "--bogus"],
        vec![
            "moves",
            "--variant",
            "three",
            "--position",
            ".../.../.... w 3 3 0 1",
        ],
        vec!["moves", "--variant", "three", "--moves", "d6"],
        vec![
            "moves",
            "--variant",
            "six",
            "--position",
            ".../.../.../....../.../.../... w 6 6 0 1",
        ],
        vec!["moves", "--variant", "twelve", "--moves", "a1 a4 ..."],
        vec![
            "moves",
            "--position",
            ".../.../.../....../.../.../... w 9 9 0 1",
            "--moves",
            "d6-",
        ],
        vec!["moves", "--variant", "lasker", "--position", "é"],
    ];
    for args in cases {
        assert_refused(&args);
    }
    let message = assert_refused(&["moves", "--moves", "d6 d6"]);
    assert!(
        message.contains("ply 2") && message.contains("not empty"),
        "{message}"
    );
    let message = assert_refused(&[
        "moves",
        "--position",
        "********/********/******** w p r 0 9 0 9 0 0 0 0 0 0 0 0 1",
    ]);
    assert!(
        message.contains("action") && message.contains("removal"),
        "{message}"
    );
}

#[test]
fn perft_refuses_a_depth_beyond_its_bound() {
    for args in [
        vec!["perft", "--depth", "10000"],
        vec!["perft", "--depth", "257", "--divide"],
        vec!["perft", "--depth", "4294967295", "--variant", "three"],
    ] {
        let message = assert_refused(&args);
        assert!(message.contains("at most 256"), "{args:?}: {message}");
    }
    // The bound itself is counted: here White has two pieces left, so the game is over.
    let finished = "W../.../.../....../.../BBB/..W b 0 0 0 20";
    let out = stdout(&morris(&[
        "perft",
        "--depth",
        "256",
        "--position",
        finished,
    ]));
    assert_eq!(out, "0\n");
}

#[test]
fn control_characters_of_the_arguments_are_escaped_in_errors() {
    for args in [
        vec!["moves", "--variant", "\u{1b}[2Jnine"],
        vec!["moves", "--moves", "d6 \u{1b}]0;title\u{7}"],
        vec!["moves", "--position", "\u{1b}[31m w 9 9 0 1"],
        vec!["frob\u{1b}[5m"],
        vec!["play", "--load", "/nonexistent/\u{1b}[31m\ngame"],
    ] {
        let message = assert_refused(&args);
        let line = message.trim_end_matches('\n');
        assert!(!line.chars().any(char::is_control), "{args:?}: {line:?}");
    }
}

#[cfg(unix)]
#[test]
fn arguments_that_are_not_utf8_are_refused() {
    use std::os::unix::ffi::OsStrExt;
    let output = common::morris()
        .arg("moves")
        .arg("--position")
        .arg(std::ffi::OsStr::from_bytes(b"\xff\xfe"))
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
}

#[test]
fn help_and_version_succeed() {
    let help = morris(&["--help"]);
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("perft"));
    assert!(morris(&["--version"]).status.success());
}
