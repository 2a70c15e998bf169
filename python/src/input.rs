//! Puzzles in: read from text or a file by the library's readers (one row per puzzle, bad ones
//! included, as the CLI reads them), taken from a NumPy array of shape (B, N*N), or from a list of
//! strings parsed one per row on the worker threads.

use std::borrow::Cow;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::sync::Arc;

use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;

use satdoku::format::{Alphabet, Format, Layout, PuzzleReader, ReadOptions, read_str};
use satdoku::{Grid, Shape, Units, Variant};

/// A puzzle ready to solve: its givens, rules and layout, and what the input says of it.
#[derive(Clone)]
pub struct Loaded {
    pub grid: Grid,
    pub units: Arc<Units>,
    pub layout: Arc<Layout>,
    /// The solution written with the puzzle (`solution:`), if any.
    pub expected: Option<Grid>,
    /// `expected: solvable` / `unsolvable`.
    pub solvable: Option<bool>,
    /// The text after a one-line grid.
    pub note: Option<String>,
}

/// One row: a puzzle, or the message of why it could not be read (`PLACE: message`).
pub type Row<'a> = Result<Cow<'a, Loaded>, String>;

/// Where the rows come from.
enum Source {
    /// Read by the library's readers: every row ready.
    Parsed(Vec<Result<Loaded, String>>),
    /// A (B, N*N) array, row-major: each row made into a grid when it is worked on.
    Array {
        values: Vec<u16>,
        units: Arc<Units>,
        layout: Arc<Layout>,
        /// Rows may repeat a digit in a unit (candidate solutions, for `verify`).
        allow_clashes: bool,
    },
    /// One puzzle per string, read when it is worked on (so on the worker threads).
    Strings {
        texts: Vec<String>,
        options: ReadOptions,
    },
}

/// Puzzles for the batch functions: a file, a text, an array or strings, one row per puzzle.
#[pyclass(frozen, module = "satdoku._satdoku")]
pub struct Puzzles {
    source: Source,
    /// The name in messages: the file name, `<string>`, `<array>`, `<strings>`.
    name: String,
    /// 1-based line where each row's puzzle starts (parsed sources; else 1).
    lines: Vec<usize>,
    /// The grid side of the batch (its first readable puzzle's), 0 if none could be read.
    n: usize,
    /// How the reader decided between readings (alphabets), said once per input.
    notes: Vec<String>,
}

impl Puzzles {
    /// The number of rows.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// The grid side of the batch (0 when no row could be read).
    pub fn n(&self) -> usize {
        self.n
    }

    /// The name inputs go by in messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The line where row `i` starts.
    pub fn line(&self, i: usize) -> usize {
        self.lines[i]
    }

    /// Row `i`: the puzzle, or why it cannot be read. A row of another size than the batch's is an
    /// error (the CLI's "mixed sizes" message).
    pub fn row(&self, i: usize) -> Row<'_> {
        let row = match &self.source {
            Source::Parsed(rows) => rows[i].as_ref().map(Cow::Borrowed).map_err(Clone::clone),
            Source::Array {
                values,
                units,
                layout,
                allow_clashes,
            } => {
                let cells = units.shape().cells();
                let place = format!("{}[{i}]", self.name);
                let values = values[i * cells..(i + 1) * cells].to_vec();
                let grid = Grid::from_values(units.shape(), values)
                    .map_err(|e| format!("{place}: {e}"))?;
                if !allow_clashes && let Some(c) = units.find_clash(&grid) {
                    let shape = units.shape();
                    return Err(format!(
                        "{place}: {} has {} twice, at {} and {}",
                        c.unit,
                        c.digit,
                        c.first.name(shape),
                        c.second.name(shape)
                    ));
                }
                Ok(Cow::Owned(Loaded {
                    grid,
                    units: Arc::clone(units),
                    layout: Arc::clone(layout),
                    expected: None,
                    solvable: None,
                    note: None,
                }))
            }
            Source::Strings { texts, options } => {
                one_puzzle(&texts[i], &string_name(i), options).map(Cow::Owned)
            }
        }?;
        if self.n != 0 && row.grid.n() != self.n {
            return Err(format!(
                "{}: mixed sizes in one batch: this puzzle is {1}x{1}, but the batch's puzzles \
                 are {2}x{2}",
                self.place(i),
                row.grid.n(),
                self.n
            ));
        }
        Ok(row)
    }

    /// Where row `i` is: `FILE:LINE` for files and texts, `<array>[i]` or `<strings>[i]`.
    pub fn place(&self, i: usize) -> String {
        match &self.source {
            Source::Parsed(_) => format!("{}:{}", self.name, self.lines[i]),
            Source::Array { .. } => format!("{}[{i}]", self.name),
            Source::Strings { .. } => string_name(i),
        }
    }
}

fn string_name(i: usize) -> String {
    format!("<strings>[{i}]")
}

/// The one puzzle of `text`, or why not.
fn one_puzzle(text: &str, name: &str, options: &ReadOptions) -> Result<Loaded, String> {
    let mut records = read_str(text, name, options.clone()).into_iter();
    let first = records
        .next()
        .ok_or_else(|| format!("{name}:1:1: no puzzle found"))?;
    let more = records.count();
    if more > 0 {
        return Err(format!(
            "{name}:1:1: holds {} puzzles: give one puzzle per string",
            more + 1
        ));
    }
    first.puzzle.map(loaded).map_err(|e| e.to_string())
}

fn loaded(p: satdoku::format::Puzzle) -> Loaded {
    Loaded {
        grid: p.grid,
        units: p.units,
        layout: p.layout,
        expected: p.expected,
        solvable: p.solvable,
        note: p.note,
    }
}

#[pymethods]
impl Puzzles {
    fn __len__(&self) -> usize {
        self.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<satdoku.Puzzles: {} puzzle(s), {1}x{1}, from {2}>",
            self.len(),
            self.n,
            self.name
        )
    }

    /// The grid side N of the batch (0 when no puzzle could be read).
    #[getter(n)]
    fn py_n(&self) -> usize {
        self.n
    }

    /// The name the input goes by in messages.
    #[getter(name)]
    fn py_name(&self) -> &str {
        &self.name
    }

    /// The 1-based line where each puzzle starts (1 for arrays and strings).
    #[getter(lines)]
    fn py_lines(&self) -> Vec<usize> {
        self.lines.clone()
    }

    /// What the reader said about how it read the input (an alphabet chosen between readings).
    #[getter(notes)]
    fn py_notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    /// Row `i`'s givens (row-major, 0 blank), or `None` with the error message when it could not
    /// be read: `(values, None)` or `(None, message)`.
    fn row_values(&self, i: usize) -> PyResult<(Option<Vec<u16>>, Option<String>)> {
        if i >= self.len() {
            return Err(PyValueError::new_err(format!("row {i} of {}", self.len())));
        }
        Ok(match self.row(i) {
            Ok(l) => (Some(l.grid.values().to_vec()), None),
            Err(e) => (None, Some(e)),
        })
    }

    /// Row `i`'s rules in words: the variants, `jigsaw` and `killer` (empty for the classic rules).
    fn row_rules(&self, i: usize) -> PyResult<Vec<String>> {
        if i >= self.len() {
            return Err(PyValueError::new_err(format!("row {i} of {}", self.len())));
        }
        Ok(match self.row(i) {
            Ok(l) => {
                let mut words: Vec<String> =
                    l.units.variants().iter().map(|v| v.name().into()).collect();
                if l.units.is_jigsaw() {
                    words.push("jigsaw".into());
                }
                if !l.units.cages().is_empty() {
                    words.push("killer".into());
                }
                words
            }
            Err(_) => Vec::new(),
        })
    }
}

/// Reader options from the keyword arguments the Python functions share with the CLI's flags.
pub fn read_options(
    format: Option<&str>,
    symbols: Option<&str>,
    box_shape: Option<&str>,
    variants: &[String],
    column: Option<&str>,
) -> PyResult<ReadOptions> {
    let format = match format {
        None | Some("auto") => None,
        Some(f) => Some(
            f.parse::<Format>()
                .map_err(|e| PyValueError::new_err(format!("format={f:?}: {e}")))?,
        ),
    };
    let symbols = match symbols {
        None => None,
        Some(s) => Some(
            Alphabet::parse(s).map_err(|e| PyValueError::new_err(format!("symbols={s:?}: {e}")))?,
        ),
    };
    let shape = match box_shape {
        None => None,
        Some(s) => Some(parse_box(s)?),
    };
    if let (Some(a), Some(sh)) = (&symbols, shape)
        && a.len() != sh.n()
    {
        return Err(PyValueError::new_err(format!(
            "symbols has {} symbols but box={sh} needs {}",
            a.len(),
            sh.n()
        )));
    }
    Ok(ReadOptions {
        format,
        symbols,
        shape,
        column: column.map(str::to_string),
        allow_clashes: false,
        variants: parse_variants(variants)?,
    })
}

fn parse_box(s: &str) -> PyResult<Shape> {
    Shape::parse(s).map_err(|e| PyValueError::new_err(format!("box={s:?}: {e}")))
}

fn parse_variants(variants: &[String]) -> PyResult<Vec<Variant>> {
    variants
        .iter()
        .map(|v| {
            v.parse::<Variant>()
                .map_err(|e| PyValueError::new_err(format!("variant={v:?}: {e}")))
        })
        .collect()
}

/// Every record of a reader as rows, with the reader's notes.
fn collect<R: std::io::BufRead>(
    reader: PuzzleReader<R>,
    name: &str,
) -> (Vec<Result<Loaded, String>>, Vec<usize>, Vec<String>) {
    let mut reader = reader;
    let (mut rows, mut lines, mut notes) = (Vec::new(), Vec::new(), Vec::new());
    for r in reader.by_ref() {
        lines.push(r.line.max(1));
        rows.push(r.puzzle.map(loaded).map_err(|e| e.to_string()));
    }
    for note in reader.take_notes() {
        notes.push(format!("{name}: {note}"));
    }
    (rows, lines, notes)
}

fn parsed(
    name: String,
    (rows, lines, notes): (Vec<Result<Loaded, String>>, Vec<usize>, Vec<String>),
) -> Puzzles {
    let n = rows
        .iter()
        .find_map(|r| r.as_ref().ok())
        .map_or(0, |l| l.grid.n());
    Puzzles {
        source: Source::Parsed(rows),
        name,
        lines,
        n,
        notes,
    }
}

/// Reads every puzzle of `text` (any format the CLI reads, variants included), named `name` in
/// messages.
#[pyfunction]
#[pyo3(signature = (text, name, *, format=None, symbols=None, box_shape=None, variants=Vec::new(), column=None, allow_clashes=false))]
#[allow(clippy::too_many_arguments)]
pub fn read_text(
    py: Python<'_>,
    text: String,
    name: String,
    format: Option<&str>,
    symbols: Option<&str>,
    box_shape: Option<&str>,
    variants: Vec<String>,
    column: Option<&str>,
    allow_clashes: bool,
) -> PyResult<Puzzles> {
    let mut options = read_options(format, symbols, box_shape, &variants, column)?;
    options.allow_clashes = allow_clashes;
    let read = py.detach(|| {
        let reader = PuzzleReader::new(text.as_bytes(), name.as_str(), options);
        collect(reader, &name)
    });
    Ok(parsed(name, read))
}

/// Reads every puzzle of the file at `path`, as `satdoku solve PATH` does.
#[pyfunction]
#[pyo3(signature = (path, *, format=None, symbols=None, box_shape=None, variants=Vec::new(), column=None, allow_clashes=false))]
#[allow(clippy::too_many_arguments)]
pub fn read_file(
    py: Python<'_>,
    path: PathBuf,
    format: Option<&str>,
    symbols: Option<&str>,
    box_shape: Option<&str>,
    variants: Vec<String>,
    column: Option<&str>,
    allow_clashes: bool,
) -> PyResult<Puzzles> {
    let mut options = read_options(format, symbols, box_shape, &variants, column)?;
    options.allow_clashes = allow_clashes;
    let name = path.display().to_string();
    let file = File::open(&path).map_err(|e| {
        let message = format!("{name}: cannot read: {e}");
        match e.kind() {
            std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
            _ => PyOSError::new_err(message),
        }
    })?;
    let read = py.detach(|| {
        let reader = PuzzleReader::new(
            BufReader::with_capacity(1 << 16, file),
            name.as_str(),
            options,
        );
        collect(reader, &name)
    });
    Ok(parsed(name, read))
}

/// Puzzles from a (B, N*N) array of unsigned integers (0 blank), under the classic rules of the
/// box shape (`box_shape`, else the default for N) with `variants`.
#[pyfunction]
#[pyo3(signature = (array, *, box_shape=None, variants=Vec::new(), allow_clashes=false))]
pub fn from_array(
    array: PyReadonlyArray2<'_, u16>,
    box_shape: Option<&str>,
    variants: Vec<String>,
    allow_clashes: bool,
) -> PyResult<Puzzles> {
    let [rows, cells] = array.shape() else {
        unreachable!("a 2-D array")
    };
    let (rows, cells) = (*rows, *cells);
    let n = (cells as f64).sqrt().round() as usize;
    if n * n != cells || n == 0 {
        return Err(PyValueError::new_err(format!(
            "expected an array of shape (B, N*N), one puzzle per row: {cells} is no N*N"
        )));
    }
    let shape = match box_shape {
        Some(s) => {
            let shape = parse_box(s)?;
            shape
                .check_side(n)
                .map_err(|e| PyValueError::new_err(format!("box={s:?}: {e}")))?
        }
        None => Shape::for_side(n).map_err(|e| {
            PyValueError::new_err(format!(
                "{e}: {n}x{n} grids need the box shape, e.g. box=\"2x4\""
            ))
        })?,
    };
    let variants = parse_variants(&variants)?;
    let units = if variants.is_empty() {
        Units::standard(shape)
    } else {
        let mut rules = Units::rules(shape);
        for v in variants {
            rules = rules.variant(v);
        }
        rules
            .build()
            .map_err(|e| PyValueError::new_err(format!("variant: {e}")))?
    };
    let values = match array.as_slice() {
        Ok(s) => s.to_vec(),
        Err(_) => array.as_array().iter().copied().collect(),
    };
    Ok(Puzzles {
        source: Source::Array {
            values,
            units: Arc::new(units),
            layout: Arc::new(Layout::new(Format::Line, shape)),
            allow_clashes,
        },
        name: "<array>".into(),
        lines: vec![1; rows],
        n,
        notes: Vec::new(),
    })
}

/// Puzzles from strings, one puzzle each in any format the CLI reads (variant lines included),
/// read on the worker threads when a batch runs. The batch's N is the first readable string's.
#[pyfunction]
#[pyo3(signature = (texts, *, format=None, symbols=None, box_shape=None, variants=Vec::new(), allow_clashes=false))]
pub fn from_strings(
    texts: Vec<String>,
    format: Option<&str>,
    symbols: Option<&str>,
    box_shape: Option<&str>,
    variants: Vec<String>,
    allow_clashes: bool,
) -> PyResult<Puzzles> {
    let mut options = read_options(format, symbols, box_shape, &variants, None)?;
    options.allow_clashes = allow_clashes;
    // The batch's side: the first string that reads (usually the first).
    let n = texts
        .iter()
        .enumerate()
        .find_map(|(i, t)| one_puzzle(t, &string_name(i), &options).ok())
        .map_or(0, |l| l.grid.n());
    Ok(Puzzles {
        lines: vec![1; texts.len()],
        source: Source::Strings { texts, options },
        name: "<strings>".into(),
        n,
        notes: Vec::new(),
    })
}
