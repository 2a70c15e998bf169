//! The command-line front end: parses arguments, runs a command through the one pipeline, turns results
//! into text and an exit status.

mod args;
mod backends;
mod batch;
mod certify;
mod check;
mod encode;
mod exit;
mod fault;
mod generate;
mod input;
mod joint;
mod pipeline;
mod progress;
mod record;
mod render;
mod solve;
mod study;
mod summary;
mod verify;

use std::process::ExitCode;

use clap::Parser;

pub use args::{Cli, Command};
use exit::Exit;

/// Parses the command line and runs it; usage errors exit with 2 (clap's convention, and ours).
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Check(args) => check::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Encode(args) => encode::run_encode(args),
        Command::Decode(args) => encode::run_decode(args),
        Command::Study(args) => study::run(args),
        Command::Generate(args) => generate::run(args),
    };
    match result {
        Ok(exit) => exit.into(),
        Err(e) => {
            record::note(format_args!("{e:#}"));
            Exit::BadInput.into()
        }
    }
}
