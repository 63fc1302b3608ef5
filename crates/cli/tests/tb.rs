//! `morris tb …` and `morris solve` end to end, in a folder of their own.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};

fn morris(args: &[&str]) -> Output {
    common::morris()
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

/// Checks that a run was refused: status 2 and one `error:` line.
fn refused(output: &Output, what: &str) {
    assert_eq!(output.status.code(), Some(2), "{what}");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.starts_with("error: ") && err.lines().count() == 1,
        "{what}: {err}"
    );
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
    let classes = out.lines().rev().nth(1).unwrap();
    assert!(classes.starts_with("classes wins "), "{out}");
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
        refused(&morris(&args), &format!("{args:?}"));
    }
    std::fs::remove_dir_all(&d).ok();
}

/// A build killed part-way resumes where it stopped: the files written are kept, the rest is
/// built, and the tables then give the known value of the start.
#[test]
fn an_interrupted_build_resumes_where_it_stopped() {
    let d = dir("resume");
    let ds = d.to_str().unwrap();
    let mut child = common::morris()
        .args(["tb", "build", "--variant", "six", "--full", "--dir", ds])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait for the first groups to be reported, then kill the build in the middle.
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().unwrap()));
    let mut solved_before = 0;
    for line in lines.by_ref() {
        if line.unwrap().contains(" solved: ") {
            solved_before += 1;
            if solved_before == 5 {
                break;
            }
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        solved_before, 5,
        "the build reported fewer groups than expected"
    );
    let kept = std::fs::read_dir(&d)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".mtb"))
        .count();
    assert!(kept >= 5, "only {kept} files kept");

    let again = ok(&morris(&[
        "tb",
        "build",
        "--variant",
        "six",
        "--full",
        "--dir",
        ds,
    ]));
    let built = again
        .lines()
        .filter(|l| l.contains(" already built"))
        .count();
    assert!(built >= 5, "{again}");
    assert!(again.contains(" solved: "), "{again}");
    assert!(last_line(&again).starts_with("tables in "), "{again}");
    let summary = again
        .lines()
        .find(|l| l.starts_with("built "))
        .expect("a summary");
    assert!(
        summary.contains(" positions, ") && summary.contains(" bytes"),
        "{summary}"
    );
    // The journal in the folder counts every group once over both runs, and what they cost.
    let solved_again = again.lines().filter(|l| l.contains(" solved: ")).count();
    let journal = again
        .lines()
        .find(|l| l.starts_with("over every run in this folder"))
        .expect("the totals of every run");
    let groups: usize = journal
        .split(": ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect(journal);
    assert_eq!(groups, built + solved_again, "{journal}");
    assert!(journal.contains(" wall ") && journal.contains(" CPU ") && journal.contains(" MiB"));
    let six = ok(&morris(&["solve", "--variant", "six", "--dir", ds]));
    assert_eq!(last_line(&six), "value: draw");
    // The whole game's statistics and its full verification.
    let stats = ok(&morris(&[
        "tb",
        "stats",
        "--all",
        "--variant",
        "six",
        "--dir",
        ds,
    ]));
    let total = last_line(&stats);
    assert!(
        total.starts_with("total sectors ") && total.contains(" missing 0 "),
        "{stats}"
    );
    assert_eq!(
        stats.lines().count() - 1,
        total.split(' ').nth(2).unwrap().parse::<usize>().unwrap()
    );
    let verify = ok(&morris(&[
        "tb",
        "verify",
        "--full",
        "--variant",
        "six",
        "--dir",
        ds,
    ]));
    assert!(last_line(&verify).ends_with("all agree"), "{verify}");
    std::fs::remove_dir_all(&d).ok();
}

/// `morris tb plan --format make` gives a Makefile that `make -j 2` runs to the whole game.
#[test]
fn a_makefile_of_the_plan_builds_the_whole_game() {
    let d = dir("make");
    std::fs::create_dir_all(&d).unwrap();
    let ds = d.to_str().unwrap();
    let makefile = ok(&morris(&[
        "tb",
        "plan",
        "--variant",
        "three",
        "--full",
        "--format",
        "make",
        "--dir",
        ds,
    ]));
    let path = d.join("Makefile");
    std::fs::write(&path, &makefile).unwrap();
    let make = Command::new("make")
        .args(["-j", "2", "-f"])
        .arg(&path)
        .arg(format!("MORRIS={}", env!("CARGO_BIN_EXE_morris")))
        .output()
        .expect("make runs");
    assert!(
        make.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&make.stdout),
        String::from_utf8_lossy(&make.stderr)
    );
    let solve = ok(&morris(&["solve", "--variant", "three", "--dir", ds]));
    assert!(
        !solve.contains(" solved: "),
        "make left work undone: {solve}"
    );
    assert!(
        last_line(&solve).starts_with("value: white wins in "),
        "{solve}"
    );
    // Nothing is left to do: a second make runs no command.
    let again = Command::new("make")
        .args(["-q", "-f"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(0), "make -q says work is left");
    std::fs::remove_dir_all(&d).ok();
}

/// `morris accuracy` on the tables of Six Men's Morris: a report by phase and pieces, and the
/// last line in its stable form.
#[test]
fn accuracy_reports_the_share_of_plies_that_lose_value() {
    let d = dir("accuracy");
    let ds = d.to_str().unwrap();
    ok(&morris(&["solve", "--variant", "six", "--dir", ds]));
    let out = ok(&morris(&[
        "accuracy",
        "--variant",
        "six",
        "--positions",
        "6",
        "--movetime",
        "10",
        "--level",
        "2",
        "--tablebases",
        ds,
    ]));
    let last = last_line(&out);
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words.len(), 6, "{out}");
    assert_eq!(
        (words[0], words[2], words[4], words[5]),
        ("accuracy", "lost-value", "of", "6"),
        "{out}"
    );
    let lost: usize = words[3].parse().unwrap();
    let share: f64 = words[1].strip_suffix('%').unwrap().parse().unwrap();
    assert!(
        (share - 100.0 * (6 - lost) as f64 / 6.0).abs() < 0.06,
        "{out}"
    );
    assert!(out.contains("phase "), "{out}");
    // Another engine through the protocol answers the same positions.
    let engine = format!("{} engine", env!("CARGO_BIN_EXE_morris"));
    let other = ok(&morris(&[
        "accuracy",
        "--variant",
        "six",
        "--positions",
        "6",
        "--movetime",
        "10",
        "--engine",
        &engine,
        "--engine-options",
        "Level=2,TablebasePath=",
        "--tablebases",
        ds,
    ]));
    assert!(other.contains("6 positions, engine morris"), "{other}");
    assert!(last_line(&other).ends_with(" of 6"), "{other}");
    for bad in [
        &["--engine", "false"][..],
        &["--engine", &engine, "--level", "3"][..],
    ] {
        let output = morris(
            &[
                &["accuracy", "--variant", "six", "--tablebases", ds][..],
                bad,
            ]
            .concat(),
        );
        refused(&output, &format!("{bad:?}"));
    }
    std::fs::remove_dir_all(&d).ok();
}

/// `morris tune` on the tables of Six Men's Morris: positions labelled, a fit reported per
/// phase, and a weights file that says how it was made; out-of-range options are refused.
#[test]
fn tune_fits_weights_on_positions_the_tables_label() {
    let d = dir("tune");
    let ds = d.to_str().unwrap();
    ok(&morris(&["solve", "--variant", "six", "--dir", ds]));
    let weights = d.join("weights.txt");
    let out = ok(&morris(&[
        "tune",
        "--variant",
        "six",
        "--tablebases",
        ds,
        "--positions",
        "300",
        "--rounds",
        "40",
        "--placing-removals",
        "0.5",
        "--out",
        weights.to_str().unwrap(),
    ]));
    for phase in ["placing", "moving"] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{phase}: ")) && l.contains("squared error"))
            .unwrap_or_else(|| panic!("no fit of {phase}: {out}"));
        let count: usize = line.split(' ').nth(1).unwrap().parse().unwrap();
        assert!(count > 0, "{out}");
    }
    let text = std::fs::read_to_string(&weights).unwrap();
    assert!(text.contains("--placing-removals 0.5"), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("placing piece ")),
        "{text}"
    );
    for bad in [
        &["--placing-removals", "1.5"][..],
        &["--positions", "0"][..],
    ] {
        let output = morris(&[&["tune", "--tablebases", ds][..], bad].concat());
        refused(&output, &format!("{bad:?}"));
    }
    std::fs::remove_dir_all(&d).ok();
}

/// `morris tb verify --full` goes on where an earlier run stopped: the sectors in its journal
/// are not verified again unless their files changed since, or `--again` is given.
#[test]
fn the_full_verification_resumes_from_its_journal() {
    let d = dir("verify-resume");
    let ds = d.to_str().unwrap();
    ok(&morris(&["solve", "--variant", "three", "--dir", ds]));
    let verify = |extra: &[&str]| {
        let mut args = vec!["tb", "verify", "--full", "--variant", "three", "--dir", ds];
        args.extend_from_slice(extra);
        ok(&morris(&args))
    };
    let verified = |out: &str| out.lines().filter(|l| l.contains(" verified: ")).count();
    let first = verify(&[]);
    let sectors: usize = last_line(&first)
        .split(' ')
        .nth(4)
        .unwrap()
        .parse()
        .unwrap();
    assert!(sectors > 3, "{first}");
    assert_eq!(verified(&first), sectors, "{first}");
    assert!(last_line(&first).ends_with("all agree"), "{first}");
    let journal = d.join("three-verify-journal.tsv");
    assert_eq!(
        std::fs::read_to_string(&journal).unwrap().lines().count(),
        sectors + 1
    );

    // Nothing left: the same count of positions, none verified now.
    let second = verify(&[]);
    assert_eq!(verified(&second), 0, "{second}");
    assert!(
        second.contains(&format!("{sectors} of the {sectors} sectors were verified")),
        "{second}"
    );
    let positions = |out: &str| last_line(out).split(' ').nth(1).unwrap().to_string();
    assert_eq!(positions(&second), positions(&first));

    // A file written after its verification is verified again, alone.
    let file = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "mtb"))
        .unwrap();
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(5))
        .unwrap();
    let third = verify(&[]);
    assert_eq!(verified(&third), 1, "{third}");
    assert_eq!(positions(&third), positions(&first));

    // --again forgets the journal.
    let fourth = verify(&["--again"]);
    assert_eq!(verified(&fourth), sectors, "{fourth}");
    refused(
        &morris(&["tb", "verify", "--again", "--variant", "three", "--dir", ds]),
        "--again without --full",
    );
    std::fs::remove_dir_all(&d).ok();
}
