//! Which build of the native search's hot parts this CPU runs: the baseline x86-64 one, or the one
//! compiled for POPCNT, BMI1/2, LZCNT and AVX2.

#[cfg(test)]
use std::cell::Cell;
#[cfg(target_arch = "x86_64")]
use std::sync::OnceLock;

/// Whether this CPU has POPCNT, BMI1/2, LZCNT and AVX2 (most x86-64 CPUs since 2013-2015): the
/// 9x9 search (`nine.rs`) and the generic rules pass (`State::rules`, `state.rs`) then run a build
/// of themselves that counts and scans bits in single instructions instead of the baseline's
/// sequences (BENCHMARKS). Asked once per process.
#[cfg(target_arch = "x86_64")]
pub(super) fn fast_cpu() -> bool {
    static FAST: OnceLock<bool> = OnceLock::new();
    #[cfg(test)]
    if BASELINE.with(Cell::get) {
        return false;
    }
    *FAST.get_or_init(|| {
        std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("avx2")
    })
}

#[cfg(test)]
thread_local! {
    /// Tests: this thread runs the baseline builds even on a CPU with the features of [`fast_cpu`].
    pub(super) static BASELINE: Cell<bool> = const { Cell::new(false) };
}
