//! What every command's work on one input item comes to (a [`Record`] for standard output, a
//! [`Diagnostic`] for standard error), shared by the pipeline, the summary and the input reader, which
//! sit above it.

use std::io::{self, Write};
use std::time::Duration;

use super::exit::Exit;

/// What one input item (a puzzle, a pair, a file) became.
#[derive(Debug, Default)]
pub struct Record {
    /// The text for standard output, final newline included (may be empty).
    pub text: Vec<u8>,
    /// Whether the text spans several lines (records are then separated by a blank line).
    pub multiline: bool,
    /// The word the summary counts this record under: `solved`, `unique`, `error`, `disagree`, …
    pub word: &'static str,
    /// What it means for the exit status.
    pub exit: Exit,
    /// A message for standard error, written in input order.
    pub diagnostic: Option<Diagnostic>,
    /// Time spent by each backend that worked on it, for the summary.
    pub times: Vec<(&'static str, Duration)>,
    /// Whether a checked certificate was written for it (`--certify`).
    pub certified: bool,
}

impl Record {
    /// A record of `text` counted under `word`.
    pub fn new(text: impl Into<Vec<u8>>, word: &'static str, exit: Exit) -> Record {
        Record {
            text: text.into(),
            word,
            exit,
            ..Record::default()
        }
    }

    /// This record with nothing for standard output (its diagnostic still goes to standard error).
    pub fn without_text(mut self) -> Record {
        self.text.clear();
        if let Some(d) = &mut self.diagnostic {
            d.shown_in_record = false;
        }
        self
    }

    /// This record with a message for standard error.
    pub fn with_diagnostic(mut self, diagnostic: Diagnostic) -> Record {
        self.diagnostic = Some(diagnostic);
        self
    }
}

/// A message for standard error: where (`FILE:LINE:COLUMN`, or empty) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// `FILE:LINE:COLUMN`, `FILE`, or empty.
    pub place: String,
    /// What is wrong.
    pub message: String,
    /// Whether the record's own text already shows this message (so that on a terminal, where
    /// standard output and standard error are the same screen, it is not printed twice).
    pub shown_in_record: bool,
}

impl Diagnostic {
    /// `place: message`, or `message` when there is no place.
    pub fn full(&self) -> String {
        if self.place.is_empty() {
            self.message.clone()
        } else {
            format!("{}: {}", self.place, self.message)
        }
    }
}

/// Writes a line to standard error, `satdoku: ` first. A standard error that cannot be written to is
/// ignored: diagnostics never stop the records on standard output.
pub fn note(text: impl std::fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "satdoku: {text}");
}

/// Where an input item came from: what a record says of an item that was never finished (an
/// interrupted run), and what the progress display names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// 0-based index across the run's inputs.
    pub index: usize,
    /// The file name as given (`<stdin>` for standard input).
    pub source: std::sync::Arc<str>,
    /// 1-based line where the item starts (0 when nothing could be read).
    pub line: usize,
    /// The side of its grid (64 for 64x64), when it was read.
    pub n: Option<usize>,
}

impl Place {
    /// `FILE:LINE` (`FILE` when nothing could be read).
    pub fn at(&self) -> String {
        if self.line == 0 {
            self.source.to_string()
        } else {
            format!("{}:{}", self.source, self.line)
        }
    }
}

/// The status word of an item that an interrupted run did not finish.
pub const INTERRUPTED: &str = "interrupted";
