//! Puzzles from every input file (or standard input), numbered across the run, one item per puzzle.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use satdoku::Units;
use satdoku::format::{Lookahead, Puzzle, PuzzleReader, ReadOptions};

/// One input puzzle, or the reason it could not be read.
pub struct Item {
    /// 0-based index across all inputs of the run.
    pub index: usize,
    /// The file name as given (`<stdin>` for standard input).
    pub source: Arc<str>,
    /// 1-based line where the puzzle starts (0 when the file could not be opened).
    pub line: usize,
    /// The puzzle with its unit list, or why it could not be read. Boxed, so that an item moved
    /// from the reader to the work is a few words, not a copy of the whole puzzle each time.
    pub puzzle: Result<Box<Loaded>, ItemError>,
}

impl Item {
    /// Where it came from.
    pub fn place(&self) -> super::record::Place {
        super::record::Place {
            index: self.index,
            source: Arc::clone(&self.source),
            line: self.line,
            n: self.puzzle.as_ref().ok().map(|l| l.grid().n()),
        }
    }

    /// The cells of its grid (1 when it could not be read): what it weighs among the puzzles one
    /// job reads ahead ([`super::batch::HOLD`]).
    pub fn cells(&self) -> usize {
        self.puzzle.as_ref().map_or(1, |l| l.grid().shape().cells())
    }

    /// Its weight in a batch's chunks: its cells over a 9x9's (at least 1).
    pub fn weight(&self) -> usize {
        self.cells().div_ceil(81)
    }
}

/// Why an input puzzle could not be read: where (`FILE:LINE:COLUMN`, or `FILE` when nothing could be
/// read) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemError {
    /// `FILE:LINE:COLUMN` or `FILE`.
    pub place: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ItemError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.place, self.message)
    }
}

impl ItemError {
    /// The error of a malformed puzzle.
    pub fn parse(e: &satdoku::format::ParseError) -> ItemError {
        ItemError {
            place: format!("{}:{}:{}", e.source, e.line, e.column),
            message: e.kind.to_string(),
        }
    }

    /// A diagnostic for standard error; `shown` says whether the record's text shows it already.
    pub fn diagnostic(&self, shown: bool) -> super::record::Diagnostic {
        super::record::Diagnostic {
            place: self.place.clone(),
            message: self.message.clone(),
            shown_in_record: shown,
        }
    }
}

/// A puzzle as read, with its rules (one value shared by the puzzles of a shape that have no rule
/// lines of their own).
pub struct Loaded {
    /// The grid of givens and the layout it came in.
    pub puzzle: Puzzle,
    /// The puzzle's rules: units, relations, cages.
    pub units: Arc<Units>,
}

impl Loaded {
    /// The grid of givens.
    pub fn grid(&self) -> &satdoku::Grid {
        &self.puzzle.grid
    }
}

/// Whether puzzles are being typed at a terminal (standard input is one).
pub fn interactive() -> bool {
    io::stdin().is_terminal()
}

/// Whether puzzles are typed at a terminal as the run goes (`files` read standard input, which is one).
pub fn typing(files: &[PathBuf]) -> bool {
    reads_stdin(files) && interactive()
}

/// Whether `files` read standard input (none given, or `-`).
pub fn reads_stdin(files: &[PathBuf]) -> bool {
    files.is_empty() || files.iter().any(|f| f == Path::new("-"))
}

/// The name standard input goes by in messages.
pub const STDIN: &str = "<stdin>";

/// Opens `path` (`-` for standard input) for buffered reading.
pub fn open_path(path: &Path) -> io::Result<Box<dyn BufRead>> {
    open(path, &None)
}

/// The name `path` goes by in messages (`<stdin>` for `-`).
pub fn display_name(path: &Path) -> Arc<str> {
    if path == Path::new("-") {
        STDIN.into()
    } else {
        path.display().to_string().into()
    }
}

fn open(path: &Path, counter: &Option<Arc<AtomicU64>>) -> io::Result<Box<dyn BufRead>> {
    let reader: Box<dyn BufRead> = if path == Path::new("-") {
        Box::new(io::stdin().lock())
    } else {
        Box::new(BufReader::with_capacity(1 << 16, File::open(path)?))
    };
    Ok(match counter {
        Some(c) => Box::new(Counted {
            inner: reader,
            counter: c.clone(),
        }),
        None => reader,
    })
}

/// A reader that adds the bytes consumed to a shared counter (for the progress bar).
struct Counted<R> {
    inner: R,
    counter: Arc<AtomicU64>,
}

impl<R: BufRead> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.counter.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.counter.fetch_add(amount as u64, Ordering::Relaxed);
        self.inner.consume(amount);
    }
}

/// The total size of `files` in bytes, if every one is a regular file (not standard input).
pub fn total_bytes(files: &[PathBuf]) -> Option<u64> {
    if files.is_empty() {
        return None;
    }
    files
        .iter()
        .map(|f| {
            if f == Path::new("-") {
                None
            } else {
                std::fs::metadata(f)
                    .ok()
                    .filter(|m| m.is_file())
                    .map(|m| m.len())
            }
        })
        .sum()
}

/// A streaming reader over one opened input.
type Reader = PuzzleReader<Box<dyn BufRead>>;

/// Every puzzle of the input files in order (standard input when there are none), each file read as a
/// stream; a file that cannot be opened gives one error item in its place.
pub struct Items {
    files: std::vec::IntoIter<PathBuf>,
    options: ReadOptions,
    current: Option<(Arc<str>, Reader)>,
    next_index: usize,
    counter: Option<Arc<AtomicU64>>,
    /// Whether the reader's notes (how an ambiguous alphabet is read) go to standard error.
    notes: bool,
}

impl Items {
    /// The puzzles of `files` (standard input when empty), read with `options`.
    pub fn new(files: &[PathBuf], options: &ReadOptions) -> Items {
        let files = if files.is_empty() {
            vec![PathBuf::from("-")]
        } else {
            files.to_vec()
        };
        Items {
            files: files.into_iter(),
            options: options.clone(),
            current: None,
            next_index: 0,
            counter: None,
            notes: true,
        }
    }

    /// The puzzles of an input already opened, named `name` in messages.
    pub fn from_reader(name: &str, reader: Box<dyn BufRead>, options: &ReadOptions) -> Items {
        let name: Arc<str> = name.into();
        Items {
            files: Vec::new().into_iter(),
            options: options.clone(),
            current: Some((
                name.clone(),
                PuzzleReader::new(reader, name, options.clone()),
            )),
            next_index: 0,
            counter: None,
            notes: true,
        }
    }

    /// Says nothing of how files are read (`-q`): the reader's notes are not printed.
    pub fn quiet(mut self, quiet: bool) -> Items {
        self.notes = !quiet;
        self
    }

    /// Adds the bytes read to `counter` as reading goes (for a progress bar).
    pub fn count_bytes(mut self, counter: Arc<AtomicU64>) -> Items {
        self.counter = Some(counter);
        self
    }

    fn item(&mut self, source: Arc<str>, line: usize, puzzle: Result<Puzzle, ItemError>) -> Item {
        let index = self.next_index;
        self.next_index += 1;
        let puzzle = puzzle.map(|p| {
            Box::new(Loaded {
                units: Arc::clone(&p.units),
                puzzle: p,
            })
        });
        Item {
            index,
            source,
            line,
            puzzle,
        }
    }
}

impl Iterator for Items {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        loop {
            if let Some((name, reader)) = &mut self.current {
                if let Some(r) = reader.next() {
                    if self.notes {
                        for note in reader.take_notes() {
                            super::record::note(format_args!("note: {name}: {note}"));
                        }
                    }
                    let name = name.clone();
                    let puzzle = r.puzzle.map_err(|e| ItemError::parse(&e));
                    return Some(self.item(name, r.line, puzzle));
                }
                self.current = None;
            }
            let path = self.files.next()?;
            let name = display_name(&path);
            match open(&path, &self.counter) {
                Ok(reader) => {
                    let mut reader = PuzzleReader::new(reader, name.clone(), self.options.clone());
                    if path == Path::new("-") && interactive() {
                        // Typed puzzles: decide the format from the first one, answer it at once.
                        reader = reader.with_lookahead(Lookahead::FirstPuzzle);
                    }
                    self.current = Some((name, reader));
                }
                Err(e) => {
                    let error = ItemError {
                        place: name.to_string(),
                        message: format!("cannot read: {e}"),
                    };
                    return Some(self.item(name, 0, Err(error)));
                }
            }
        }
    }
}
