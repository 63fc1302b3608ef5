//! The `morris` command line.

mod cli;
mod loadtest;
mod position_args;
mod serve;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run()
}
