//! The `morris` command line.

mod accuracy;
mod admin;
mod bars;
mod bench;
mod cli;
mod convert;
mod engine;
mod failure;
mod journal;
mod loadtest;
mod matches;
mod paths;
mod play;
mod position_args;
mod serve;
mod tables;
mod tb;
mod tune;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run()
}
