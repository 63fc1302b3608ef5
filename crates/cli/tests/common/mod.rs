//! What every test of the binary shares.

use std::process::Command;

/// The `morris` binary, run apart from the user's data folder: its own empty data folder, and
/// no tables built in the background (a test that wants tables builds them into a folder of
/// its own and says so).
pub fn morris() -> Command {
    let data = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("data-home");
    let mut command = Command::new(env!("CARGO_BIN_EXE_morris"));
    command
        .env("XDG_DATA_HOME", data)
        .env(morris_tablebase::NO_BACKGROUND_ENV, "0");
    command
}
