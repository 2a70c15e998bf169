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
mod input;
mod interrupt;
mod joint;
mod pipeline;
mod pretty;
mod progress;
mod record;
mod render;
mod solve;
mod study;
mod summary;
mod verify;

use std::process::ExitCode;

use clap::{CommandFactory, Parser};

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
        Command::Help(args) => help(args.command.as_deref()),
        Command::Completions(args) => completions(args.shell),
        Command::Man(args) => man(args.command.as_deref()),
    };
    match result {
        Ok(exit) => exit.into(),
        Err(e) => {
            record::note(format_args!("{e:#}"));
            Exit::BadInput.into()
        }
    }
}

/// `satdoku help [COMMAND]`: the long help of satdoku or of one of its commands.
fn help(command: Option<&str>) -> anyhow::Result<Exit> {
    let mut cli = Cli::command();
    let mut target = match command {
        None => cli,
        Some(name) => match cli.find_subcommand_mut(name) {
            Some(c) => c.clone().bin_name(format!("satdoku {name}")),
            None => {
                let names: Vec<String> = cli
                    .get_subcommands()
                    .map(|c| c.get_name().to_string())
                    .collect();
                anyhow::bail!("no command {name:?}; the commands: {}", names.join(", "));
            }
        },
    };
    target.print_long_help()?;
    Ok(Exit::Success)
}

/// `satdoku completions SHELL`: the shell's completion script, from the clap definition.
fn completions(shell: clap_complete::Shell) -> anyhow::Result<Exit> {
    let mut out = std::io::stdout().lock();
    clap_complete::generate(shell, &mut Cli::command(), "satdoku", &mut out);
    Ok(Exit::Success)
}

/// `satdoku man [COMMAND]`: the man page (roff) from the clap definition: satdoku.1, or
/// satdoku-COMMAND.1 with the command's options, examples and exit statuses.
fn man(command: Option<&str>) -> anyhow::Result<Exit> {
    use std::io::Write;
    let cli = Cli::command();
    let page = match command {
        None => cli,
        Some(name) => match cli.find_subcommand(name) {
            Some(c) => {
                // (The page's name lives as long as the process, which ends after printing it.)
                let full: &'static str = Box::leak(format!("satdoku-{name}").into_boxed_str());
                c.clone()
                    .name(full)
                    .bin_name(format!("satdoku {name}"))
                    .version(env!("CARGO_PKG_VERSION"))
            }
            None => anyhow::bail!("no command {name:?}"),
        },
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page).render(&mut roff)?;
    let mut out = std::io::stdout().lock();
    out.write_all(&roff)?;
    out.flush()?;
    Ok(Exit::Success)
}
