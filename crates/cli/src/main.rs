//! The `morris` command line.

mod bench;
mod cli;
mod engine;
mod matches;
mod play;
mod position_args;
mod tb;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run()
}
