//! A `morris serve` process on a free loopback port, for the tests that kill it.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};

/// A `morris serve` process and its address.
pub struct Serve {
    child: Child,
    /// The address it serves, such as `http://127.0.0.1:41234`.
    pub base: String,
}

impl Serve {
    /// Starts the server on the database `db`, with no limit on games created or sign-ins a
    /// minute, and waits for its first line.
    pub fn start(db: &Path) -> Serve {
        let mut child = super::common::morris()
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--games-per-minute",
                "0",
                "--sign-ins-per-minute",
                "0",
                "--db",
            ])
            .arg(db)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        let base = line
            .trim()
            .strip_prefix("morris is running at ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .trim_end_matches('/')
            .to_owned();
        Serve { child, base }
    }

    /// Kills the process with SIGKILL and waits for it.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
