//! The `morris` command line.

mod accuracy;
mod admin;
mod bars;
mod bench;
mod cli;
mod convert;
mod engine;
mod journal;
mod loadtest;
mod matches;
mod play;
mod position_args;
mod serve;
mod tb;
mod tune;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run()
}
