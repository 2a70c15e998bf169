//! The end-of-run summary line on standard error: records per word, time per backend, throughput.

use std::time::{Duration, Instant};

use super::record::Record;

/// The order words are listed in (others follow in the order first seen).
const ORDER: [&str; 15] = [
    "solved",
    "unique",
    "multiple",
    "none",
    "unknown",
    "interrupted",
    "valid",
    "invalid",
    "not-unique",
    "undecided",
    "written",
    "disagree",
    "internal-error",
    "error",
    "certified",
];

/// Counts per word, time per backend, and the run's clock.
pub struct Summary {
    title: String,
    noun: &'static str,
    start: Instant,
    counts: Vec<(&'static str, u64)>,
    times: Vec<(&'static str, Duration)>,
    records: u64,
}

impl Summary {
    /// A summary titled `title` (e.g. `solve (dfs)`), counting `noun`s (`puzzle`, `pair`); starts the
    /// clock.
    pub fn new(title: impl Into<String>, noun: &'static str) -> Summary {
        Summary {
            title: title.into(),
            noun,
            start: Instant::now(),
            counts: Vec::new(),
            times: Vec::new(),
            records: 0,
        }
    }

    /// Counts one record.
    pub fn add(&mut self, record: &Record) {
        self.records += 1;
        // (`certified` is counted beside the record's own word, not as one.)
        match self.counts.iter_mut().find(|(w, _)| *w == record.word) {
            Some((_, n)) => *n += 1,
            None => self.counts.push((record.word, 1)),
        }
        if record.certified {
            match self.counts.iter_mut().find(|(w, _)| *w == "certified") {
                Some((_, n)) => *n += 1,
                None => self.counts.push(("certified", 1)),
            }
        }
        for &(name, t) in &record.times {
            match self.times.iter_mut().find(|(n, _)| *n == name) {
                Some((_, total)) => *total += t,
                None => self.times.push((name, t)),
            }
        }
    }

    /// How many records were counted under `word`.
    #[cfg(test)]
    pub fn count(&self, word: &str) -> u64 {
        self.counts
            .iter()
            .find(|(w, _)| *w == word)
            .map_or(0, |&(_, n)| n)
    }

    /// `solve (dfs): 50 puzzles: 50 solved; 0 errors; in 0.012 s (4100 puzzles/s)`, with the time of
    /// each backend when they were timed (`dfs 0.010 s, sat 0.300 s`).
    pub fn line(&self) -> String {
        let mut counts = self.counts.clone();
        counts.sort_by_key(|(w, _)| ORDER.iter().position(|o| o == w).unwrap_or(ORDER.len()));
        let errors = counts
            .iter()
            .find(|(w, _)| *w == "error")
            .map_or(0, |&(_, n)| n);
        let words: Vec<String> = counts
            .iter()
            .filter(|(w, _)| *w != "error")
            .map(|(w, n)| format!("{n} {w}"))
            .collect();
        let secs = self.start.elapsed().as_secs_f64();
        let n = self.records;
        let mut line = format!(
            "{}: {n} {}{}: {}; {errors} error{}",
            self.title,
            self.noun,
            plural(n),
            if words.is_empty() {
                "none answered".to_string()
            } else {
                words.join(", ")
            },
            plural(errors),
        );
        if !self.times.is_empty() {
            let times: Vec<String> = self
                .times
                .iter()
                .map(|(name, t)| format!("{name} {:.3} s", t.as_secs_f64()))
                .collect();
            line.push_str(&format!("; {}", times.join(", ")));
        }
        let rate = n as f64 / secs.max(1e-9);
        let digits = if rate < 10.0 { 2 } else { 0 };
        line.push_str(&format!(
            "; in {secs:.3} s ({rate:.digits$} {}s/s)",
            self.noun
        ));
        line
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::exit::Exit;

    #[test]
    fn counts_words_in_a_fixed_order_and_sums_times() {
        let mut s = Summary::new("check", "puzzle");
        let mut r = Record::new("", "unique", Exit::Success);
        r.times = vec![
            ("dfs", Duration::from_millis(10)),
            ("sat", Duration::from_millis(30)),
        ];
        s.add(&r);
        s.add(&r);
        s.add(&Record::new("", "error", Exit::BadInput));
        s.add(&Record::new("", "solved", Exit::Success));
        assert_eq!(s.count("unique"), 2);
        let line = s.line();
        assert!(
            line.starts_with(
                "check: 4 puzzles: 1 solved, 2 unique; 1 error; dfs 0.020 s, sat 0.060 s; in "
            ),
            "{line}"
        );
    }
}
