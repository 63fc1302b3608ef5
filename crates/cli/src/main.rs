//! The `morris` command line.

mod cli;
mod play;
mod position_args;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run()
}
