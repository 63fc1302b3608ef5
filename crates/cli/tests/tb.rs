//! `morris tb …` and `morris solve` end to end, in a folder of their own.

use std::path::PathBuf;
use std::process::{Command, Output};

fn morris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_morris"))
        .args(args)
        .output()
        .expect("the morris binary runs")
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("morris-cli-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn ok(output: &Output) -> String {
    assert!(
        output.status.success(),
        "status {:?}, stderr {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or("")
}

#[test]
fn stats_builds_3_3_of_nine_and_prints_the_known_figures() {
    let d = dir("stats");
    let ds = d.to_str().unwrap();
    let out = ok(&morris(&[
        "tb",
        "stats",
        "--variant",
        "nine",
        "--sector",
        "3-3",
        "--dir",
        ds,
    ]));
    assert_eq!(
        last_line(&out),
        "wins 2232160 losses 455648 draws 4112 longest 26"
    );
    // A second time it reads the file.
    let again = ok(&morris(&["tb", "stats", "--sector", "3-3", "--dir", ds]));
    assert_eq!(last_line(&again), last_line(&out));
    // Probing a position of the sector: its value, then each ply with its value.
    let pos = "W../.../.../B..B.W/.../.../.BW w 0 0 0 30";
    let probe = ok(&morris(&["tb", "probe", "--position", pos, "--dir", ds]));
    let mut lines = probe.lines();
    let first = lines.next().unwrap();
    assert!(first.starts_with("value: "), "{probe}");
    let moves = ok(&morris(&["moves", "--position", pos]));
    assert_eq!(lines.count(), moves.lines().count(), "{probe}");
    let verify = ok(&morris(&["tb", "verify", "--dir", ds]));
    assert!(last_line(&verify).contains("all agree"), "{verify}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn solve_finds_three_won_for_white_and_six_drawn() {
    let d = dir("solve");
    let ds = d.to_str().unwrap();
    let three = ok(&morris(&["solve", "--variant", "three", "--dir", ds]));
    assert!(
        last_line(&three).starts_with("value: white wins in "),
        "{three}"
    );
    let six = ok(&morris(&["solve", "--variant", "six", "--dir", ds]));
    assert_eq!(last_line(&six), "value: draw");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn build_plans_levels_and_builds_one_group_from_files_already_built() {
    let d = dir("build");
    let ds = d.to_str().unwrap();
    let plan = ok(&morris(&[
        "tb",
        "plan",
        "--variant",
        "six",
        "--sectors",
        "4-3",
    ]));
    assert!(plan.starts_with("level 0: 3-3 "), "{plan}");
    assert!(plan.contains("level 1: 3-4+4-3 "), "{plan}");
    // Without its dependency, one group is refused; with it built, it is built alone.
    let refused = morris(&[
        "tb",
        "build",
        "--variant",
        "six",
        "--sectors",
        "4-3",
        "--no-deps",
        "--dir",
        ds,
    ]);
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr).into_owned();
    assert!(
        err.starts_with("error: sector 3-3 is not built") && err.lines().count() == 1,
        "{err}"
    );
    ok(&morris(&[
        "tb",
        "build",
        "--variant",
        "six",
        "--sectors",
        "3-3",
        "--dir",
        ds,
    ]));
    let one = ok(&morris(&[
        "tb",
        "build",
        "--variant",
        "six",
        "--sectors",
        "4-3",
        "--no-deps",
        "--dir",
        ds,
    ]));
    assert!(
        one.contains("3-3 already built") && one.contains("3-4+4-3 solved"),
        "{one}"
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn bad_tablebase_input_is_refused_with_one_error_line() {
    let d = dir("bad");
    let ds = d.to_str().unwrap();
    for args in [
        vec!["tb", "stats", "--sector", "2-3", "--dir", ds],
        vec!["tb", "stats", "--sector", "x", "--dir", ds],
        vec!["tb", "build", "--dir", ds],
        vec!["tb", "verify", "--variant", "six", "--dir", ds],
        vec![
            "tb",
            "probe",
            "--position",
            "W../.../.../B..B.W/.../.../.BW w 0 0 0 30",
            "--dir",
            ds,
        ],
        vec!["solve", "--variant", "nine", "--dir", ds],
    ] {
        let out = morris(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(
            err.starts_with("error: ") && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    std::fs::remove_dir_all(&d).ok();
}
