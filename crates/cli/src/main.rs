//! The `morris` command line.

mod cli;
mod position_args;
mod tb;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run()
}
