//! The `satdoku` binary: a thin shell over the library (see `cli`).

mod cli;

/// mimalloc instead of the system allocator: the SAT backend starts a fresh varisat solver for each
/// puzzle, and varisat allocates as it loads clauses (malloc was about 10% of the SAT backend's time on
/// hard puzzles).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::main()
}
