//! The one pipeline every batch command runs through: items are read, worked on in parallel and in
//! order, each turned into one [`Record`], which is written to standard output, counted in the summary
//! and the progress display, and folded into the exit status. Standard output, standard error, broken
//! pipes and write errors are handled here and nowhere else.

use std::collections::HashMap;
use std::io::{self, IsTerminal, Write};

use super::batch;
use super::exit::Exit;
use super::input::{Item, Items};
use super::interrupt;
use super::progress::Progress;
use super::record::{Diagnostic, INTERRUPTED, Place, Record, note};
use super::summary::Summary;

/// Standard-error diagnostics of a run: each distinct message printed once in full; repeats of the same
/// message at other places are counted and summed up at the end.
#[derive(Default)]
pub struct Diagnostics {
    seen: HashMap<String, (u64, String)>,
    order: Vec<String>,
    /// Skip diagnostics already shown in a record (standard output and error are one terminal).
    skip_shown: bool,
}

impl Diagnostics {
    /// Diagnostics for this process's standard streams.
    pub fn new() -> Diagnostics {
        Diagnostics {
            skip_shown: io::stdout().is_terminal() && io::stderr().is_terminal(),
            ..Diagnostics::default()
        }
    }

    /// Reports `d` (or counts it, if the same message was already reported).
    pub fn report(&mut self, d: &Diagnostic) {
        if self.skip_shown && d.shown_in_record {
            return;
        }
        match self.seen.get_mut(&d.message) {
            Some((count, last)) => {
                *count += 1;
                last.clone_from(&d.place);
            }
            None => {
                note(d.full());
                self.seen.insert(d.message.clone(), (0, String::new()));
                self.order.push(d.message.clone());
            }
        }
    }

    /// Writes the counts of repeated messages.
    pub fn finish(&self) {
        for message in &self.order {
            let (count, last) = &self.seen[message];
            if *count > 0 {
                let short: String = message.chars().take(60).collect();
                let ellipsis = if short.len() < message.len() {
                    "…"
                } else {
                    ""
                };
                note(format_args!(
                    "note: the same error for {count} more item{}, the last at {last}: {short}{ellipsis}",
                    if *count == 1 { "" } else { "s" }
                ));
            }
        }
    }
}

/// The size of a record that is flushed as soon as it is written: a 64x64 grid's text is about 12
/// kB, a 25x25's 2 kB.
const FLUSH_AT: usize = 8 << 10;

/// Writes records to standard output, a blank line between multi-line records; keeps a progress bar
/// on the same terminal out of the way.
///
/// A closed pipe (`| head`) ends the process at once with status 0 and nothing more printed; any other
/// write error ends it with status 2 and a message.
pub struct Output {
    out: io::BufWriter<io::StdoutLock<'static>>,
    first: bool,
    previous_multiline: bool,
    flush_each: bool,
    progress: Option<Progress>,
    /// Text records are separated by blank lines around multi-line ones; JSON Lines are not.
    gaps: bool,
}

impl Output {
    /// Buffered standard output; `gaps` puts a blank line around multi-line records.
    pub fn stdout(gaps: bool) -> Output {
        let stdout = io::stdout();
        Output {
            flush_each: stdout.is_terminal(),
            out: io::BufWriter::with_capacity(1 << 16, stdout.lock()),
            first: true,
            previous_multiline: false,
            progress: None,
            gaps,
        }
    }

    /// Flushes after every record (when answers must appear as puzzles are typed).
    pub fn flush_each(mut self, on: bool) -> Output {
        self.flush_each |= on;
        self
    }

    /// Keeps `progress`'s display clear of the records (it shares a terminal with them).
    pub fn with_progress(mut self, progress: &Progress) -> Output {
        self.progress = Some(progress.clone());
        self
    }

    /// Writes raw bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        let flush = self.flush_each;
        let out = &mut self.out;
        let mut write = || -> io::Result<()> {
            out.write_all(bytes)?;
            if flush {
                out.flush()?;
            }
            Ok(())
        };
        let result = match &self.progress {
            Some(p) if flush => p.suspend(write),
            _ => write(),
        };
        if let Err(e) = result {
            self.failed(e);
        }
    }

    /// Writes one record's text; a large one (a grid of 64x64 or more) reaches the reader at once,
    /// since the puzzle after it may take long too.
    pub fn record(&mut self, record: &Record) {
        if record.text.is_empty() {
            return;
        }
        if self.gaps && !self.first && (self.previous_multiline || record.multiline) {
            self.write(b"\n");
        }
        self.write(&record.text);
        self.first = false;
        self.previous_multiline = record.multiline;
        if record.text.len() >= FLUSH_AT && !self.flush_each {
            self.finish();
        }
    }

    /// An `io::Write` over this output, for writers that stream (a write error ends the process as
    /// for records).
    pub fn writer(&mut self) -> OutputWriter<'_> {
        OutputWriter(self)
    }

    /// Flushes what is buffered.
    pub fn finish(&mut self) {
        if let Err(e) = self.out.flush() {
            self.failed(e);
        }
    }

    fn failed(&self, e: io::Error) -> ! {
        if let Some(p) = &self.progress {
            p.finish();
        }
        if e.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        note(format_args!("writing to standard output: {e}"));
        std::process::exit(Exit::BadInput.code().into());
    }
}

/// An `io::Write` over an [`Output`].
pub struct OutputWriter<'a>(&'a mut Output);

impl Write for OutputWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The record of an item that an interrupted run did not finish, made from where it came from.
pub type Cut = Box<dyn Fn(&Place) -> Record>;

/// How a batch run is driven: worker threads, output style, progress and summary.
pub struct Run {
    /// Worker threads.
    pub jobs: usize,
    /// Whether puzzles are typed at a terminal (answers flushed one by one).
    pub typing: bool,
    /// Blank lines around multi-line records (text output).
    pub gaps: bool,
    /// The progress display.
    pub progress: Progress,
    /// The summary, if it is to be printed at the end.
    pub summary: Option<Summary>,
    /// `-q`: no notes from the reader.
    pub quiet: bool,
    /// The record of an item not finished when the run is interrupted (status `interrupted`).
    pub interrupted: Cut,
    /// What an item is (`puzzle`, `pair`), for messages.
    pub noun: &'static str,
}

impl Run {
    /// Runs `work` on every puzzle of `files` (standard input when empty), read with `options`; see
    /// [`Run::run`].
    pub fn over_puzzles<W>(
        self,
        files: &[std::path::PathBuf],
        options: &satdoku::format::ReadOptions,
        work: W,
    ) -> Exit
    where
        W: Fn(Item) -> Record + Sync,
    {
        let bytes = self.progress.bytes_counter();
        let quiet = self.quiet;
        let produce = |emit: &mut dyn FnMut(Item)| {
            Items::new(files, options)
                .count_bytes(bytes)
                .quiet(quiet)
                .for_each(emit)
        };
        // One job over files: read and solve on this thread. Standard input keeps its reader
        // thread (a reader blocked on a pipe or a terminal must not keep Ctrl-C from being answered).
        if self.jobs <= 1 && !super::input::reads_stdin(files) {
            self.run_in_place(produce, Item::place, Item::cells, work)
        } else {
            self.run(produce, Item::place, Item::weight, work)
        }
    }

    /// [`Run::run`] on this thread alone ([`batch::in_place`]): when records are shown one by one
    /// (a terminal, typed input) each item is worked on as it is read and its record written at
    /// once; else puzzles of up to [`batch::HOLD`] cells in all (`weigh`) are read, then worked
    /// on, then written. A first Ctrl-C stops the solve in hand (as a deadline would: every solve
    /// runs under [`satdoku::stop_when`] the interrupt's flag) and marks its item, and the others
    /// read with it, `interrupted`.
    fn run_in_place<T, P, W>(
        self,
        produce: P,
        place: impl Fn(&T) -> Place,
        weigh: impl Fn(&T) -> usize,
        work: W,
    ) -> Exit
    where
        P: FnOnce(&mut dyn FnMut(T)),
        W: Fn(T) -> Record,
    {
        let _listening = interrupt::listen(self.quiet);
        let emitted = self.progress.emitted_counter();
        let progress = self.progress.clone();
        let mut sink = self.sink();
        let hold = if sink.out.flush_each { 1 } else { batch::HOLD };
        satdoku::stop_when(&interrupt::stop_flag(), || {
            batch::in_place(
                produce,
                &place,
                |item| {
                    // This thread alone counts: a load and a store, not a locked add.
                    let position = emitted.load(std::sync::atomic::Ordering::Relaxed);
                    emitted.store(position + 1, std::sync::atomic::Ordering::Relaxed);
                    let _working = progress.working(position, || place(&item));
                    work(item)
                },
                &mut sink,
                &interrupt::requested,
                hold,
                weigh,
            );
        });
        sink.finish();
        sink.exit
    }

    /// Where this run's records go.
    fn sink(self) -> Sink {
        Sink {
            out: Output::stdout(self.gaps)
                .flush_each(self.typing)
                .with_progress(&self.progress),
            diagnostics: Diagnostics::new(),
            exit: Exit::Success,
            progress: self.progress,
            summary: self.summary,
            quiet: self.quiet,
            noun: self.noun,
            cut: self.interrupted,
            records: 0,
            cuts: 0,
            last_cut: None,
        }
    }

    /// Runs `work` on every item `produce` emits, writes each record in input order, and returns the
    /// run's exit status (the maximum over its records).
    ///
    /// On Ctrl-C or SIGTERM it writes, in input order, the record of every item finished and an
    /// `interrupted` record (see [`Run::interrupted`]) for every other item read (`place` says where
    /// each came from), then the summary, and ends the process with status 130; a second signal ends
    /// it at once. Workers take chunks of at most [`batch::CHUNK`] in weight (`weigh`: a 9x9 puzzle
    /// weighs 1), fewer of slow puzzles (a few milliseconds of work at a time).
    pub fn run<T, P, W>(
        self,
        produce: P,
        place: impl Fn(&T) -> Place + Sync,
        weigh: impl Fn(&T) -> usize + Sync,
        work: W,
    ) -> Exit
    where
        T: Send,
        P: FnOnce(&mut dyn FnMut(T)) + Send,
        W: Fn(T) -> Record + Sync,
    {
        self.run_chunked(batch::CHUNK, produce, place, weigh, work)
    }

    /// [`Run::run`], the workers taking at most `chunk` in weight at a time (`chunk` 1 and weight
    /// 1 for items that are long work each, such as puzzles to generate).
    pub fn run_chunked<T, P, W>(
        self,
        chunk: usize,
        produce: P,
        place: impl Fn(&T) -> Place + Sync,
        weigh: impl Fn(&T) -> usize + Sync,
        work: W,
    ) -> Exit
    where
        T: Send,
        P: FnOnce(&mut dyn FnMut(T)) + Send,
        W: Fn(T) -> Record + Sync,
    {
        let _listening = interrupt::listen(self.quiet);
        let emitted = self.progress.emitted_counter();
        let progress = self.progress.clone();
        let place = &place;
        // Each item goes with its position in the input, for the progress display.
        let work = move |(position, item): (u64, T)| {
            let _working = progress.working(position, || place(&item));
            work(item)
        };
        let jobs = self.jobs;
        let mut sink = self.sink();
        batch::ordered_map(
            jobs,
            chunk,
            |emit| {
                produce(&mut |item| {
                    let position = emitted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    emit((position, item))
                })
            },
            |(_, item)| (place(item), weigh(item)),
            work,
            &mut sink,
            &interrupt::requested,
        );
        sink.finish();
        sink.exit
    }
}

/// Where a run's records go: standard output, the summary, the progress display, the exit status.
struct Sink {
    out: Output,
    diagnostics: Diagnostics,
    exit: Exit,
    progress: Progress,
    summary: Option<Summary>,
    quiet: bool,
    noun: &'static str,
    cut: Cut,
    /// Records written.
    records: u64,
    /// Of which `interrupted`.
    cuts: u64,
    /// Where the last `interrupted` item came from.
    last_cut: Option<Place>,
}

impl Sink {
    /// Flushes standard output, clears the progress display, writes the counts of repeated
    /// diagnostics and the summary.
    fn finish(&mut self) {
        self.out.finish();
        self.progress.finish();
        self.diagnostics.finish();
        if let Some(s) = &self.summary {
            let _ = writeln!(io::stderr().lock(), "{}", s.line());
        }
    }
}

impl batch::Sink<Record, Place> for Sink {
    fn done(&mut self, record: Record) {
        if let Some(d) = &record.diagnostic {
            self.diagnostics.report(d);
        }
        self.exit = self.exit.max(record.exit);
        if let Some(s) = &mut self.summary {
            s.add(&record);
        }
        self.progress.done(1);
        self.out.record(&record);
        self.records += 1;
    }

    fn cut(&mut self, place: Place) {
        let record = (self.cut)(&place);
        self.cuts += 1;
        self.last_cut = Some(place);
        self.done(record);
    }

    fn interrupted(&mut self) -> ! {
        self.finish();
        if !self.quiet {
            let (records, noun) = (self.records, self.noun);
            let s = if records == 1 { "" } else { "s" };
            note(match &self.last_cut {
                Some(last) => format!(
                    "interrupted: {records} record{s} written for the {records} {noun}{s} read; \
                     {} not finished (status {INTERRUPTED}), the last one read at {}",
                    self.cuts,
                    last.at()
                ),
                None => format!(
                    "interrupted: {records} record{s} written for the {records} {noun}{s} read, \
                     all finished"
                ),
            });
        }
        std::process::exit(interrupt::CODE)
    }
}
