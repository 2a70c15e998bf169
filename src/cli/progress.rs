//! A progress bar on standard error for long runs (only when it is a terminal): puzzles done, rate, and
//! an ETA from the share of input bytes read (a spinner when reading standard input).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The bar, and the byte counter the input readers add to.
pub struct Progress {
    enabled: bool,
    total_bytes: Option<u64>,
    bar: Option<ProgressBar>,
    bytes: Arc<AtomicU64>,
    records: u64,
    start: Instant,
}

impl Progress {
    /// A bar if `enabled`, sized to `total_bytes` when known (a spinner otherwise), drawn once the run
    /// has lasted [`DELAY`].
    pub fn new(enabled: bool, total_bytes: Option<u64>) -> Progress {
        Progress {
            enabled,
            total_bytes,
            bar: None,
            bytes: Arc::new(AtomicU64::new(0)),
            records: 0,
            start: Instant::now(),
        }
    }

    fn make_bar(&self) -> ProgressBar {
        let target = ProgressDrawTarget::stderr_with_hz(5);
        match self.total_bytes {
            Some(total) => {
                let bar = ProgressBar::with_draw_target(Some(total), target);
                bar.set_style(
                    ProgressStyle::with_template("{bar:30} {percent:>3}% {msg} eta {eta}")
                        .expect("a valid template"),
                );
                bar
            }
            None => {
                let bar = ProgressBar::with_draw_target(None, target);
                bar.set_style(
                    ProgressStyle::with_template("{spinner} {msg}").expect("a valid template"),
                );
                bar
            }
        }
    }

    /// The bar for a run over `files`: drawn on a terminal unless `quiet` or puzzles are being typed.
    pub fn for_run(files: &[PathBuf], quiet: bool) -> Progress {
        let enabled = !quiet && !super::input::typing(files) && std::io::stderr().is_terminal();
        Progress::new(enabled, super::input::total_bytes(files))
    }

    /// The counter that readers add the bytes they consume to.
    pub fn counter(&self) -> Arc<AtomicU64> {
        self.bytes.clone()
    }

    /// Counts one finished record; redraws now and then.
    pub fn tick(&mut self) {
        self.records += 1;
        if !self.enabled || self.records % 64 != 1 {
            return;
        }
        if self.bar.is_none() && self.start.elapsed() >= DELAY {
            self.bar = Some(self.make_bar());
        }
        if let Some(bar) = &self.bar {
            let secs = self.start.elapsed().as_secs_f64().max(1e-9);
            bar.set_position(self.bytes.load(Ordering::Relaxed));
            bar.set_message(format!(
                "{} puzzles, {:.0}/s",
                self.records,
                self.records as f64 / secs
            ));
            bar.tick();
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// How long a bar waits before drawing: short runs finish before it appears.
pub const DELAY: Duration = Duration::from_millis(500);
