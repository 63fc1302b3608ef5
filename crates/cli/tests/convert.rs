//! `morris convert`: games and positions written for other programs, read back by the binary
//! itself, and bad input answered with status 2 and one `error:` line.

mod common;

use std::io::Write;
use std::process::{Output, Stdio};

fn morris(args: &[&str], input: Option<&str>) -> Output {
    let mut child = common::morris()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the morris binary runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    if let Some(text) = input {
        // A command refused for its arguments may end before it reads its input.
        match stdin.write_all(text.as_bytes()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            written => written.expect("stdin takes the input"),
        }
    }
    drop(stdin);
    child.wait_with_output().expect("the morris binary ends")
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

const MOVES: &str = "d6 f4 d2 b4 d7 b6 d5xb4 f6";

#[test]
fn a_game_written_in_each_format_converts_back_to_the_same_record() {
    let own = stdout(&morris(
        &["convert", "--to", "morris", "--moves", MOVES],
        None,
    ));
    assert!(own.contains("4. d5xb4 f6 *"), "{own}");
    for to in ["sanmill", "playok", "morris"] {
        let written = stdout(&morris(&["convert", "--to", to, "--moves", MOVES], None));
        let back = stdout(&morris(&["convert", "--to", "morris"], Some(&written)));
        assert_eq!(back, own, "{to}:\n{written}");
    }
    let playok = stdout(&morris(
        &["convert", "--to", "playok", "--moves", MOVES],
        None,
    ));
    assert!(
        playok.contains("1. 5 14 2. 20 11 3. 2 4 4. 8x11 6 *"),
        "{playok}"
    );
}

#[test]
fn positions_convert_between_the_strings_of_each_program() {
    let own = ".../.W./.../....B./.../.../... w 8 8 0 2";
    let sanmill = stdout(&morris(
        &["convert", "--to", "sanmill", "--position", own],
        None,
    ));
    assert_eq!(
        sanmill.trim(),
        "********/O*@*****/******** w p p 1 8 1 8 0 0 -1 -1 -1 -1 0 0 2 ids:nodes"
    );
    let malom = stdout(&morris(&["convert", "--to", "malom"], Some(&sanmill)));
    let back = stdout(&morris(&["convert", "--to", "morris"], Some(&malom)));
    assert_eq!(back.trim(), own);
}

#[test]
fn warnings_go_to_standard_error_and_the_game_is_written() {
    let text = "[FEN \"W.W/.W./.W./....../.../B../BBB w 5 5 0 5\"]\n\n5. d7xa1 *";
    let output = morris(&["convert", "--to", "morris"], Some(text));
    let written = stdout(&output);
    assert!(written.contains("[MillRemoval \"always\"]"), "{written}");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.starts_with("warning: game 1: ply 1"), "{err}");
}

#[test]
fn bad_input_exits_with_status_2_and_one_error_line() {
    let cases: [(&[&str], Option<&str>); 4] = [
        (&["convert", "--to", "morris"], Some("(2,1) (4,1)")),
        (&["convert", "--to", "morris"], Some("")),
        (
            &[
                "convert",
                "--to",
                "playok",
                "--variant",
                "six",
                "--moves",
                "a1",
            ],
            None,
        ),
        (&["convert", "--to", "elsewhere"], Some("1. d6")),
    ];
    for (args, input) in cases {
        let output = morris(args, input);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&output.stderr);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: {err}");
        assert!(lines[0].starts_with("error: "), "{args:?}: {err}");
    }
}
