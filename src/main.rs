//! The `satdoku` binary: a thin shell over the library (see `cli`).

mod cli;

/// mimalloc instead of the system allocator: the SAT backend starts a fresh varisat solver for each
/// puzzle, and varisat allocates as it loads clauses (malloc was about 10% of the SAT backend's time on
/// hard puzzles). Built without transparent huge pages (`no_thp`): with them every 2 MiB region
/// mimalloc touches, or touches again after returning it, was zeroed whole by the kernel, which cost
/// the 81x81 grids and the 400x400 ones up to 0.17 s of system time a run and doubled the resident
/// memory, with no user time gained (BENCHMARKS.md, "Memory").
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::main()
}
