//! The full-screen game in a real terminal, driven through tmux as a person would: started,
//! played with keys and typed plies, resized, and left with Ctrl-C.
//!
//! It needs tmux, so it does not run by default:
//! `cargo test -p morris --test play_tmux -- --ignored`.

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

/// A tmux server of its own, so that nothing else running in tmux is touched.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux is installed");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "play"])
    }

    /// Waits until the screen shows `text`, and returns the screen.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "waited for {text:?}; the screen:\n{screen}"
            );
            sleep(Duration::from_millis(100));
        }
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "play"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    fn type_text(&self, text: &str) {
        self.run(&["send-keys", "-t", "play", "-l", text]);
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}

#[test]
#[ignore = "needs tmux"]
fn plays_resizes_and_quits_in_a_real_terminal() {
    let tmux = Tmux {
        socket: format!("morris-play-test-{}", std::process::id()),
    };
    let command = format!(
        "{} play --color white --level 1 --seed 5; echo EXIT=$?; stty -a; sleep 30",
        env!("CARGO_BIN_EXE_morris")
    );
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "play",
        "-x",
        "100",
        "-y",
        "36",
        &command,
    ]);
    let screen = tmux.wait_for("White to play: place a piece");
    assert!(screen.contains("Nine Men's Morris"), "{screen}");
    assert!(screen.contains("  7  "), "{screen}");

    // A typed ply, and the computer's reply.
    tmux.type_text("d6");
    tmux.keys(&["Enter"]);
    tmux.wait_for("Black played");
    let screen = tmux.wait_for("White to play: place a piece");
    assert!(screen.contains("1. d6"), "{screen}");

    // A ply with the keys: to d7 and Enter.
    tmux.keys(&["Up"]);
    let before = tmux.screen();
    tmux.keys(&["Tab", "Enter"]);
    let screen = tmux.wait_for("2. ");
    assert_ne!(before, screen);

    // Too small, then large again.
    tmux.run(&["resize-window", "-t", "play", "-x", "50", "-y", "15"]);
    tmux.wait_for("The terminal is too small.");
    tmux.run(&["resize-window", "-t", "play", "-x", "90", "-y", "30"]);
    tmux.wait_for("Moves");

    // Ctrl-C leaves, and the terminal is back in its usual mode.
    tmux.keys(&["C-c"]);
    let screen = tmux.wait_for("EXIT=");
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert!(
        screen.contains(" icanon") && screen.contains(" echo"),
        "{screen}"
    );
}
