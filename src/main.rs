//! The `satdoku` binary: a thin shell over the library (see `cli`).

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
