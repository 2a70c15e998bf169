//! sigh's serialization of variant puzzles (Interactive Sudoku Solver, MIT; its `js/sudoku_parser.js`
//! and `js/sudoku_constraint.js`, read for the format only): reading a constraint string into a grid of
//! givens and [`Units`] ([`read_sigh`]), and writing one back ([`write_sigh`]).
//!
//! A constraint string is a run of items `.Type~arg~arg…` (whitespace is dropped, as sigh drops it);
//! an item without a type (`.~R1C1_5~R2C3_1_3`) gives cells their value or candidates. Cells are
//! `R1C1` (rows and columns 1-9, then `A`-`G` to 16), outside clues name a row or column (`R3`, `C1`)
//! or, for little killers, the first cell of the diagonal. The subset read:
//!
//! | sigh type | satdoku |
//! |---|---|
//! | `Shape~RxC[~V or ~A-B]`, `RegionSize~K`, `NoBoxes`, `Jigsaw~LAYOUT` | the grid: rows, columns, digits (from 0 for `0-8`), boxes, regions |
//! | givens `~R1C1_5`, `~R1C1_1_3_5` | givens; candidate sets |
//! | `Diagonal~±1`, `AntiKnight`, `AntiKing`, `AntiConsecutive`, `Windoku`, `DisjointSets`, `StrictKropki`, `StrictXV`, `AntiTaxicab`, `DutchFlatmates` | diagonals and variants |
//! | `Cage`, `LittleKiller`, `Sum`, `Arrow`, `PillArrow`, `DoubleArrow`, `EqualSum` | cages and sums |
//! | `WhiteDot`, `BlackDot`, `X`, `V`, `GreaterThan` | pair relations |
//! | `Thermo`, `Whisper`, `Renban`, `Palindrome`, `Modular`, `Entropic`, `Zipper`, `Between`, `Lockout`, `RegionSumLine`, `SumLine` | lines |
//! | `Sandwich`, `Lunchbox`, `XSum`, `Skyscraper`, `HiddenSkyscraper`, `NumberedRoom` | outside clues and lunchboxes |
//! | `Quad`, `AllDifferent`, `Indexing`, `CountingCircles`, `SameValues`, `RellikCage`, `ValueIndexing`, `LookAndSay`, `EqualityCage`, `GlobalEntropy`, `GlobalMod` | the rest |
//! | `NFA`, `Regex`, `Pair`, `PairX` (and the legacy `Binary`, `BinaryX`) | automata and relation tables (`sigh_nfa.rs`) |
//!
//! Any other type (`Or`, `FullRank`, `ChaosConstruction`, …) is an error naming it, at its
//! position; so are extra cells outside the grid (sigh's `Var` cells).

use std::fmt::Write as _;

use super::Format;
use super::alphabet::Alphabet;
use super::error::ParseErrorKind;
use super::layout::Layout;
use crate::clue::Clue;
use crate::constraint::Variant;
use crate::grid::{Cell, Grid, Shape};
use crate::rules::{RulesBuilder, RulesError};
use crate::units::{UnitKind, Units};

/// The largest grid side sigh has (16): cells are one character per row and column.
const MAX_SIDE: usize = 16;

/// A sigh puzzle read: the givens and the rules.
pub(crate) struct Read {
    pub grid: Grid,
    pub units: Units,
}

/// An error: the byte offset in the line where it is, and what.
pub(crate) type Failure = (usize, ParseErrorKind);

/// One item of the string: its type, arguments, and the byte offset of each.
struct Item {
    kind: String,
    kind_at: usize,
    args: Vec<(String, usize)>,
}

/// The items of a constraint string (starting with `.`), whitespace dropped; each token keeps the
/// byte offset of its first character in `text`.
fn items(text: &[u8]) -> Result<Vec<Item>, Failure> {
    // The characters kept, with their offsets.
    let kept: Vec<(u8, usize)> = text
        .iter()
        .enumerate()
        .filter(|(_, b)| !b.is_ascii_whitespace())
        .map(|(i, &b)| (b, i))
        .collect();
    if kept.first().map(|&(b, _)| b) != Some(b'.') {
        let at = kept.first().map_or(0, |&(_, i)| i);
        return Err((at, syntax("`.` to start the constraint string", text, at)));
    }
    let mut out = Vec::new();
    for item in kept[1..].split(|&(b, _)| b == b'.') {
        let start = item.first().map_or(text.len(), |&(_, i)| i);
        let mut parts = item.split(|&(b, _)| b == b'~');
        let head = parts.next().unwrap_or(&[]);
        let kind: String = head.iter().map(|&(b, _)| b as char).collect();
        let args = parts
            .map(|p| {
                let at = p.first().map_or(start, |&(_, i)| i);
                (p.iter().map(|&(b, _)| b as char).collect(), at)
            })
            .collect();
        out.push(Item {
            kind,
            kind_at: start,
            args,
        });
    }
    Ok(out)
}

fn syntax(expected: &'static str, text: &[u8], at: usize) -> ParseErrorKind {
    let found: String = String::from_utf8_lossy(&text[at.min(text.len())..])
        .chars()
        .take(20)
        .collect();
    ParseErrorKind::RuleSyntax {
        what: "sigh constraint string",
        expected,
        found,
    }
}

fn bad(expected: &'static str, found: &str) -> ParseErrorKind {
    ParseErrorKind::RuleSyntax {
        what: "sigh constraint string",
        expected,
        found: found.chars().take(20).collect(),
    }
}

/// The sigh types read here (and the composite `End`, which is not).
const KNOWN: &[&str] = &[
    "Shape",
    "RegionSize",
    "NoBoxes",
    "Jigsaw",
    "Diagonal",
    "AntiKnight",
    "AntiKing",
    "AntiConsecutive",
    "Windoku",
    "DisjointSets",
    "StrictKropki",
    "StrictXV",
    "AntiTaxicab",
    "DutchFlatmates",
    "Cage",
    "LittleKiller",
    "Sum",
    "Arrow",
    "PillArrow",
    "DoubleArrow",
    "EqualSum",
    "WhiteDot",
    "BlackDot",
    "X",
    "V",
    "GreaterThan",
    "Thermo",
    "Whisper",
    "Renban",
    "Palindrome",
    "Modular",
    "Entropic",
    "Zipper",
    "Between",
    "Lockout",
    "RegionSumLine",
    "SumLine",
    "Sandwich",
    "Lunchbox",
    "XSum",
    "Skyscraper",
    "HiddenSkyscraper",
    "NumberedRoom",
    "Quad",
    "AllDifferent",
    "Indexing",
    "CountingCircles",
    "SameValues",
    "RellikCage",
    "ValueIndexing",
    "NFA",
    "Regex",
    "Pair",
    "PairX",
    "Binary",
    "BinaryX",
    "LookAndSay",
    "EqualityCage",
    "GlobalEntropy",
    "GlobalMod",
];

/// sigh's other types: recognised as sigh's (so that a line of them is read as a constraint string),
/// refused with their name.
const OTHERS: &[&str] = &[
    "Or",
    "And",
    "End",
    "Replicate",
    "Container",
    "Var",
    "FullRank",
    "FullRankTies",
    "ChaosConstruction",
    "ChaosArrow",
    "ChaosCount",
    "RegionSameValues",
    "Doppelganger",
    "ContainAtLeast",
    "ContainExact",
    "ConnectedValues",
    "CountDistinct",
    "SearchPriority",
];

/// Whether `t` (left-trimmed) starts like a sigh constraint string: `.~` and a cell id (givens), or
/// `.` and a sigh type name followed by `~` (its arguments), a space, a tab or the end, possibly
/// after other types without arguments (`.NoBoxes.Diagonal~1`). A type name followed by `.` must be
/// followed by another item, and `.~` by an id: a grid row in an alphabet with sigh's one-letter
/// types (`.X.AHP..V…`: a blank, an X, a blank) or with `~` (`.~...`) is no constraint string.
pub(crate) fn looks_like_sigh(t: &[u8]) -> bool {
    let mut rest = t;
    loop {
        let Some(item) = rest.strip_prefix(b".") else {
            return false;
        };
        if let Some(givens) = item.strip_prefix(b"~") {
            // Givens: a cell id (`R1C1`) and `_`, or the line cut short after the id.
            let id = givens
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric())
                .count();
            return id > 0 && matches!(givens.get(id), None | Some(b'_' | b'~' | b' ' | b'\t'));
        }
        let len = item.iter().take_while(|b| b.is_ascii_alphabetic()).count();
        let name = &item[..len];
        if len == 0 || !KNOWN.iter().chain(OTHERS).any(|k| k.as_bytes() == name) {
            return false;
        }
        match item.get(len) {
            None | Some(b'~' | b' ' | b'\t') => return true,
            Some(b'.') => rest = &item[len..],
            Some(_) => return false,
        }
    }
}

/// The grid's geometry as the `Shape` item (and `RegionSize`, `NoBoxes`, `Jigsaw`) give it.
struct Geometry {
    rows: usize,
    cols: usize,
    digits: usize,
    zero: bool,
}

/// Parses sigh's `RxC[~V | ~A-B][~Sudoku]`.
fn geometry(item: &Item) -> Result<Geometry, Failure> {
    let Some((dims, at)) = item.args.first() else {
        return Err((item.kind_at, bad("a shape RxC after Shape~", "")));
    };
    let pair = dims
        .split_once('x')
        .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)));
    let Some((rows, cols)) =
        pair.filter(|&(r, c)| (1..=MAX_SIDE).contains(&r) && (1..=MAX_SIDE).contains(&c))
    else {
        return Err((*at, bad("rows x columns, each 1 to 16 (9x9, 6x8)", dims)));
    };
    let mut g = Geometry {
        rows,
        cols,
        digits: rows.max(cols),
        zero: false,
    };
    if let Some((range, at)) = item.args.get(1).filter(|(r, _)| !r.is_empty()) {
        let parsed = match range.split_once('-') {
            Some((a, b)) => a
                .parse::<usize>()
                .ok()
                .zip(b.parse::<usize>().ok())
                .filter(|&(a, b)| a <= 1 && b >= a)
                .map(|(a, b)| (b + 1 - a, a == 0)),
            None => range.parse::<usize>().ok().map(|v| (v, false)),
        };
        match parsed {
            Some((digits, zero)) if digits >= rows.max(cols) && digits <= MAX_SIDE => {
                g.digits = digits;
                g.zero = zero;
            }
            _ => {
                return Err((
                    *at,
                    bad(
                        "a value range: a count (9) or 0-N or 1-N, at least the grid side, at most 16",
                        range,
                    ),
                ));
            }
        }
    }
    if let Some((t, at)) = item.args.get(2)
        && t != "Sudoku"
    {
        return Err((
            *at,
            ParseErrorKind::Unsupported {
                what: format!("grid type '{t}'"),
            },
        ));
    }
    Ok(g)
}

/// sigh's box dimensions for a region size: the squarest split of `size` into a × b (a ≤ b) that
/// tiles the grid either way round.
fn box_dims(rows: usize, cols: usize, size: usize) -> Option<(usize, usize)> {
    let root = (size as f64).sqrt() as usize;
    for small in (2..=root).rev() {
        if !size.is_multiple_of(small) {
            continue;
        }
        let large = size / small;
        if rows.is_multiple_of(small) && cols.is_multiple_of(large) {
            return Some((small, large));
        }
        if large != small && rows.is_multiple_of(large) && cols.is_multiple_of(small) {
            return Some((large, small));
        }
    }
    None
}

/// A cell id `R1C1` (rows and columns `1`-`9`, `A`-`G`, any case).
fn cell_id(shape: Shape, token: &str) -> Option<Cell> {
    let b = token.as_bytes();
    if b.len() != 4 || !matches!(b[0], b'R' | b'r') || !matches!(b[2], b'C' | b'c') {
        return None;
    }
    let digit = |c: u8| -> Option<usize> {
        match c {
            b'1'..=b'9' => Some(usize::from(c - b'1')),
            b'a'..=b'g' => Some(usize::from(c - b'a') + 9),
            b'A'..=b'G' => Some(usize::from(c - b'A') + 9),
            _ => None,
        }
    };
    let (r, c) = (digit(b[1])?, digit(b[3])?);
    (r < shape.rows() && c < shape.cols()).then(|| Cell::at(shape, r, c))
}

/// Reads one constraint string (a whole line) into its grid and rules.
///
/// # Errors
/// The byte offset and kind of the first problem: a malformed item, a cell outside the grid, a type
/// not supported (named), or rules that do not build.
pub(crate) fn read_sigh(text: &[u8]) -> Result<Read, Failure> {
    let items = items(text)?;
    // The shape first: it decides how cells read.
    let mut geo = Geometry {
        rows: 9,
        cols: 9,
        digits: 9,
        zero: false,
    };
    let mut region_size: Option<(usize, usize)> = None;
    let mut no_boxes = false;
    for item in &items {
        match item.kind.as_str() {
            "Shape" => geo = geometry(item)?,
            "RegionSize" => {
                let (t, at) = item.args.first().cloned().unwrap_or_default();
                match t.parse::<usize>() {
                    Ok(k) if k >= 1 => region_size = Some((k, at)),
                    _ => return Err((at, bad("a region size", &t))),
                }
            }
            "NoBoxes" => no_boxes = true,
            _ => {}
        }
    }
    let size = region_size.map_or(geo.rows.max(geo.cols), |(k, _)| k);
    let boxes = if no_boxes {
        None
    } else {
        box_dims(geo.rows, geo.cols, size)
    };
    let shape = Shape::grid(geo.rows, geo.cols, geo.digits, boxes).map_err(|e| {
        // The region size when one is given (boxes of it), else the shape.
        let at = match region_size {
            Some((_, at)) => at,
            None => items
                .iter()
                .find(|i| i.kind == "Shape")
                .map_or(0, |i| i.kind_at),
        };
        let kind = ParseErrorKind::RuleSyntax {
            what: "sigh constraint string",
            expected: "boxes of at most as many cells as digits (RegionSize) that tile the grid",
            found: e.to_string(),
        };
        (at, kind)
    })?;
    let base: i32 = if geo.zero { 0 } else { 1 };
    let (lo, hi) = (base, base + geo.digits as i32 - 1);
    let mut b = crate::units::Units::rules(shape);
    if geo.zero {
        b = b.zero_based();
    }
    if no_boxes {
        b = b.no_boxes();
    }
    let mut values = vec![0u16; shape.cells()];
    let mut blame = Blame {
        first: items.first().map_or(0, |i| i.kind_at),
        ..Blame::default()
    };
    let cells_of = |args: &[(String, usize)]| -> Result<Vec<Cell>, Failure> {
        args.iter()
            .map(|(t, at)| {
                cell_id(shape, t).ok_or_else(|| (*at, bad("a cell of the grid, R1C1 to RxCy", t)))
            })
            .collect()
    };
    let int =
        |arg: Option<&(String, usize)>, at: usize, what: &'static str| -> Result<i32, Failure> {
            let Some((t, at)) = arg else {
                return Err((at, bad(what, "")));
            };
            t.parse::<i32>().map_err(|_| (*at, bad(what, t)))
        };
    let need = |cells: &[Cell], k: usize, at: usize| -> Result<(), Failure> {
        if cells.len() < k {
            return Err((at, bad("more cells", "")));
        }
        Ok(())
    };
    for item in &items {
        let at = item.kind_at;
        let args = &item.args[..];
        let clue = match item.kind.as_str() {
            "Shape" | "RegionSize" | "NoBoxes" => continue,
            "" => {
                // Givens: R1C1_5 or candidates R1C1_1_3_5.
                for (t, pos) in args.iter().filter(|(t, _)| !t.is_empty()) {
                    let mut parts = t.split('_');
                    let cell = parts
                        .next()
                        .and_then(|c| cell_id(shape, c))
                        .ok_or_else(|| (*pos, bad("a cell and its values, R1C1_5", t)))?;
                    let mut vals: Vec<i32> = parts
                        .map(|v| v.parse::<i32>().ok().filter(|v| (lo..=hi).contains(v)))
                        .collect::<Option<_>>()
                        .filter(|v: &Vec<i32>| !v.is_empty())
                        .ok_or_else(|| {
                            (
                                *pos,
                                bad("a cell and its values of the grid's range, R1C1_5", t),
                            )
                        })?;
                    vals.sort_unstable();
                    vals.dedup();
                    let here = &mut values[cell.index()];
                    match vals[..] {
                        // A given (a value named twice is one value).
                        [v] if *here == 0 || i32::from(*here) == v - base + 1 => {
                            *here = (v - base + 1) as u16;
                        }
                        // Another value for a given cell, or candidates: sigh intersects them (two
                        // givens that differ leave none), as the candidate set does with the given.
                        _ => {
                            blame.clues.push(*pos);
                            b = b.clue(Clue::Candidates { cell, values: vals });
                        }
                    }
                }
                continue;
            }
            "Jigsaw" => {
                let Some((layout, lat)) = args.last() else {
                    return Err((at, bad("a region layout", "")));
                };
                if layout.chars().count() != shape.cells() {
                    return Err((*lat, bad("one region symbol per cell", layout)));
                }
                let mut labels: Vec<char> = Vec::new();
                let map: Vec<usize> = layout
                    .chars()
                    .map(|ch| match labels.iter().position(|&l| l == ch) {
                        Some(i) => i,
                        None => {
                            labels.push(ch);
                            labels.len() - 1
                        }
                    })
                    .collect();
                let n = shape.n();
                let sizes: Vec<usize> = (0..labels.len())
                    .map(|l| map.iter().filter(|&&r| r == l).count())
                    .collect();
                if labels.len() == 1 {
                    continue;
                }
                if labels.len() == n && sizes.iter().all(|&k| k == n) {
                    blame.regions = Some(*lat);
                    b = b.regions(map).keep_boxes();
                    continue;
                }
                // sigh's reading of a layout that does not tile the grid with regions of N cells:
                // the regions of a size from the grid's side to N are pieces whose digits differ,
                // and one region of another size (the rest of a partly filled grid) is no region.
                let side = shape.rows().max(shape.cols());
                let odd = sizes.iter().filter(|&&k| k < side || k > n).count();
                if odd > 1 {
                    return Err((
                        *lat,
                        bad("regions of one size (and at most one other region)", layout),
                    ));
                }
                for (l, _) in sizes
                    .iter()
                    .enumerate()
                    .filter(|&(_, &k)| k >= side && k <= n)
                {
                    let cells = (0..shape.cells())
                        .filter(|&i| map[i] == l)
                        .map(Cell::new)
                        .collect();
                    blame.clues.push(*lat);
                    b = b.clue(Clue::AllDifferent { cells });
                }
                continue;
            }
            "Diagonal" => {
                let d = int(args.first(), at, "a direction, 1 or -1")?;
                if d != 1 && d != -1 {
                    return Err((args[0].1, bad("a direction, 1 or -1", &args[0].0)));
                }
                Clue::Diagonal { anti: d == 1 }
            }
            "AntiKnight" | "AntiKing" | "AntiConsecutive" | "Windoku" | "DisjointSets"
            | "StrictKropki" | "StrictXV" | "AntiTaxicab" | "DutchFlatmates" => {
                let v = match item.kind.as_str() {
                    "AntiKnight" => Variant::AntiKnight,
                    "AntiKing" => Variant::AntiKing,
                    "AntiConsecutive" => Variant::NonConsecutive,
                    "Windoku" => Variant::Windoku,
                    "DisjointSets" => Variant::DisjointGroups,
                    "StrictKropki" => Variant::StrictKropki,
                    "StrictXV" => Variant::StrictXv,
                    "AntiTaxicab" => Variant::AntiTaxicab,
                    _ => Variant::DutchFlatmates,
                };
                blame.variants.push((v, at));
                b = b.variant(v);
                continue;
            }
            "Cage" => {
                let cells = cells_of(&args[1.min(args.len())..])?;
                need(&cells, 1, at)?;
                let (t, tat) = args.first().cloned().unwrap_or_default();
                let sum = if t.trim().is_empty() {
                    0
                } else {
                    t.parse::<i32>()
                        .map_err(|_| (tat, bad("the cage's sum", &t)))?
                };
                let mut distinct = cells.clone();
                distinct.sort_unstable();
                distinct.dedup();
                if sum == 0 {
                    Clue::AllDifferent { cells }
                } else if distinct.len() < cells.len() {
                    // A cell named twice counts twice in the sum, once in the digits that differ
                    // (sigh's reading).
                    blame.clues.push(at);
                    b = b.clue(Clue::AllDifferent {
                        cells: cells.clone(),
                    });
                    let coeffs = vec![1; cells.len()];
                    Clue::Sum { sum, coeffs, cells }
                } else {
                    // The cage's sum in digits 1..N: each value is its digit less 1 − base.
                    let digits_sum = sum + (1 - base) * cells.len() as i32;
                    let Ok(s) = u32::try_from(digits_sum) else {
                        return Err((tat, bad("a cage sum its cells can reach", &t)));
                    };
                    let rc: Vec<(usize, usize)> =
                        cells.iter().map(|c| (c.row(shape), c.col(shape))).collect();
                    blame.cages.push(at);
                    b = b.cage(s, rc);
                    continue;
                }
            }
            "LittleKiller" => {
                let sum = int(args.first(), at, "the little killer's sum")?;
                let (id, iat) = args.get(1).cloned().unwrap_or_default();
                let cells = little_killer(shape, &id)
                    .ok_or((iat, bad("a little killer's first cell", &id)))?;
                Clue::LittleKiller { sum, cells }
            }
            "Sum" => {
                let (t, tat) = args.first().cloned().unwrap_or_default();
                let cells = cells_of(&args[1.min(args.len())..])?;
                need(&cells, 1, at)?;
                let mut parts = t.split('_');
                let sum = parts
                    .next()
                    .and_then(|s| s.parse::<i32>().ok())
                    .ok_or((tat, bad("the sum", &t)))?;
                let coeffs: Vec<i32> = match parts.next() {
                    None => vec![1; cells.len()],
                    Some("=") => parts
                        .map(|c| c.parse::<i32>().ok())
                        .collect::<Option<_>>()
                        .filter(|c: &Vec<i32>| c.len() == cells.len())
                        .ok_or((tat, bad("SUM_=_C1_C2…, one coefficient per cell", &t)))?,
                    Some(_) => return Err((tat, bad("SUM or SUM_=_C1_C2…", &t))),
                };
                Clue::Sum { sum, coeffs, cells }
            }
            "Arrow" | "DoubleArrow" => {
                let cells = cells_of(args)?;
                if item.kind == "Arrow" {
                    need(&cells, 2, at)?;
                    Clue::Arrow { pill: 1, cells }
                } else {
                    need(&cells, 3, at)?;
                    Clue::DoubleArrow { cells }
                }
            }
            "PillArrow" => {
                let pill = int(args.first(), at, "a pill size, 2 or 3")?;
                let cells = cells_of(&args[1.min(args.len())..])?;
                if !(2..=3).contains(&pill) {
                    return Err((args[0].1, bad("a pill size, 2 or 3", &args[0].0)));
                }
                need(&cells, pill as usize + 1, at)?;
                Clue::Arrow {
                    pill: pill as usize,
                    cells,
                }
            }
            "EqualSum" => {
                let mut segments = vec![Vec::new()];
                for (t, pos) in args {
                    if t == "-" {
                        segments.push(Vec::new());
                    } else {
                        let c = cell_id(shape, t)
                            .ok_or((*pos, bad("a cell of the grid, or - between segments", t)))?;
                        if let Some(last) = segments.last_mut() {
                            last.push(c);
                        }
                    }
                }
                if segments.iter().any(Vec::is_empty) {
                    return Err((at, bad("segments of at least one cell", "")));
                }
                Clue::EqualSum { segments }
            }
            "WhiteDot" | "BlackDot" | "X" | "V" | "GreaterThan" => {
                let cells = cells_of(args)?;
                need(&cells, 2, at)?;
                match item.kind.as_str() {
                    "WhiteDot" => Clue::Kropki {
                        black: false,
                        cells,
                    },
                    "BlackDot" => Clue::Kropki { black: true, cells },
                    "X" => Clue::Xv { sum: 10, cells },
                    "V" => Clue::Xv { sum: 5, cells },
                    _ => Clue::GreaterThan { cells },
                }
            }
            "Thermo" | "Renban" | "Palindrome" | "Entropic" | "Zipper" | "Between"
            | "RegionSumLine" | "AllDifferent" | "CountingCircles" | "ValueIndexing" => {
                let cells = cells_of(args)?;
                need(&cells, 1, at)?;
                match item.kind.as_str() {
                    "Thermo" => Clue::Thermo { cells },
                    "Renban" => Clue::Renban { cells },
                    "Palindrome" => Clue::Palindrome { cells },
                    "Entropic" => Clue::Entropic { cells },
                    "Zipper" => Clue::Zipper { cells },
                    "Between" => Clue::Between { cells },
                    "RegionSumLine" => Clue::RegionSumLine { cells },
                    "AllDifferent" => Clue::AllDifferent { cells },
                    "CountingCircles" => Clue::CountingCircles { cells },
                    _ => Clue::ValueIndexing { cells },
                }
            }
            "Whisper" => {
                // German whispers omit the difference: the first argument is then a cell.
                let numeric = args.first().is_some_and(|(t, _)| t.parse::<i32>().is_ok());
                let (diff, from) = if numeric {
                    (int(args.first(), at, "a difference")?, 1)
                } else {
                    (5, 0)
                };
                let cells = cells_of(&args[from.min(args.len())..])?;
                need(&cells, 1, at)?;
                Clue::Whisper { diff, cells }
            }
            "Modular" | "Lockout" | "SumLine" | "Lunchbox" | "SameValues" | "RellikCage" => {
                let k = int(args.first(), at, "a number")?;
                let mut rest = &args[1.min(args.len())..];
                let looped =
                    item.kind == "SumLine" && rest.last().is_some_and(|(t, _)| t == "LOOP");
                if looped {
                    rest = &rest[..rest.len() - 1];
                }
                let cells = cells_of(rest)?;
                need(&cells, 1, at)?;
                match item.kind.as_str() {
                    "Modular" => Clue::Modular { modulus: k, cells },
                    "Lockout" => Clue::Lockout { diff: k, cells },
                    "SumLine" => Clue::SumLine {
                        sum: k,
                        looped,
                        cells,
                    },
                    "Lunchbox" => Clue::Lunchbox { sum: k, cells },
                    "SameValues" => Clue::SameValues {
                        sets: usize::try_from(k)
                            .map_err(|_| (args[0].1, bad("a number of sets", &args[0].0)))?,
                        cells,
                    },
                    _ => Clue::Rellik { sum: k, cells },
                }
            }
            "Sandwich" => {
                let sum = int(args.first(), at, "the sandwich's sum")?;
                let (id, iat) = args.get(1).cloned().unwrap_or_default();
                let cells = outside_line(shape, &id, true)
                    .ok_or((iat, bad("a row or column, R1 or C1", &id)))?;
                Clue::Sandwich { sum, cells }
            }
            "XSum" | "Skyscraper" | "HiddenSkyscraper" | "NumberedRoom" => {
                let (id, iat) = args.first().cloned().unwrap_or_default();
                for (k, forward) in [(1, true), (2, false)] {
                    let Some((t, tat)) = args.get(k).filter(|(t, _)| !t.is_empty()) else {
                        continue;
                    };
                    let v = t
                        .parse::<i32>()
                        .map_err(|_| (*tat, bad("a clue value", t)))?;
                    let cells = outside_line(shape, &id, forward)
                        .ok_or((iat, bad("a row or column, R1 or C1", &id)))?;
                    let clue = match item.kind.as_str() {
                        "XSum" => Clue::XSum { sum: v, cells },
                        "Skyscraper" => Clue::Skyscraper { count: v, cells },
                        "HiddenSkyscraper" => Clue::HiddenSkyscraper { value: v, cells },
                        _ => Clue::NumberedRoom { value: v, cells },
                    };
                    blame.clues.push(at);
                    b = b.clue(clue);
                }
                continue;
            }
            "Quad" => {
                let (t, cat) = args.first().cloned().unwrap_or_default();
                let top =
                    cell_id(shape, &t).ok_or((cat, bad("the quadruple's top-left cell", &t)))?;
                let (r, c) = (top.row(shape), top.col(shape));
                if r + 1 >= shape.rows() || c + 1 >= shape.cols() {
                    return Err((
                        cat,
                        bad(
                            "a top-left cell with a 2x2 square below and right of it",
                            &t,
                        ),
                    ));
                }
                let cells = vec![
                    top,
                    Cell::at(shape, r, c + 1),
                    Cell::at(shape, r + 1, c),
                    Cell::at(shape, r + 1, c + 1),
                ];
                let values = args[1..]
                    .iter()
                    .map(|(v, vat)| {
                        v.parse::<i32>()
                            .ok()
                            .filter(|v| (lo..=hi).contains(v))
                            .ok_or((*vat, bad("a value of the grid's range", v)))
                    })
                    .collect::<Result<Vec<i32>, Failure>>()?;
                if !(1..=4).contains(&values.len()) {
                    return Err((at, bad("one to four values after the quadruple's cell", &t)));
                }
                Clue::Quad { cells, values }
            }
            "Indexing" => {
                let (t, tat) = args.first().cloned().unwrap_or_default();
                let rows = match t.as_str() {
                    "R" => true,
                    "C" => false,
                    _ => return Err((tat, bad("R (row indexing) or C (column indexing)", &t))),
                };
                let cells = cells_of(&args[1.min(args.len())..])?;
                need(&cells, 1, at)?;
                Clue::Indexing { rows, cells }
            }
            "LookAndSay" => {
                let (t, tat) = args.first().cloned().unwrap_or_default();
                let b2 = t.as_bytes();
                if b2.is_empty() || b2.len() % 2 == 1 || !b2.iter().all(u8::is_ascii_digit) {
                    return Err((tat, bad("(count, value) digit pairs, 23 for two 3s", &t)));
                }
                let mut counts: Vec<(i32, i32)> = Vec::new();
                for pair in b2.chunks(2) {
                    let (k, v) = (i32::from(pair[0] - b'0'), i32::from(pair[1] - b'0'));
                    if counts.iter().any(|&(w, _)| w == v) {
                        return Err((tat, bad("each value counted once", &t)));
                    }
                    counts.push((v, k));
                }
                let cells = cells_of(&args[1.min(args.len())..])?;
                need(&cells, 1, at)?;
                Clue::LookAndSay { counts, cells }
            }
            "EqualityCage" => {
                let cells = cells_of(args)?;
                need(&cells, 2, at)?;
                Clue::EqualityCage { cells }
            }
            "GlobalEntropy" => Clue::Global2x2 { modular: false },
            "GlobalMod" => Clue::Global2x2 { modular: true },
            "NFA" | "Regex" | "Pair" | "PairX" | "Binary" | "BinaryX" => {
                let (key, kat) = args.first().cloned().unwrap_or_default();
                let kind = item.kind.as_str();
                let rest = &args[1.min(args.len())..];
                let n = shape.n();
                let malformed = |expected: &'static str, why: String| {
                    (
                        kat,
                        ParseErrorKind::RuleSyntax {
                            what: "sigh constraint string",
                            expected,
                            found: why.chars().take(60).collect(),
                        },
                    )
                };
                let groups = named_groups(shape, rest, kind == "NFA")?;
                match kind {
                    "NFA" | "Regex" => {
                        let nfa = if kind == "NFA" {
                            super::sigh_nfa::decode_nfa(&key, n).map_err(|e| {
                                malformed("an automaton as sigh encodes it", e.to_string())
                            })?
                        } else {
                            let pattern = super::sigh_nfa::regex_pattern(&key)
                                .ok_or((kat, bad("a pattern in URL-safe base64", &key)))?;
                            super::sigh_nfa::compile_regex(&pattern, n, base)
                                .map_err(|e| malformed("a regular expression sigh reads", e))?
                        };
                        let nfa = std::sync::Arc::new(nfa.with_source(format!("{kind}~{key}")));
                        for segments in groups {
                            blame.clues.push(at);
                            b = b.clue(Clue::Nfa {
                                nfa: nfa.clone(),
                                segments,
                            });
                        }
                    }
                    _ => {
                        let legacy = kind.starts_with("Binary");
                        let table = super::sigh_nfa::pair_table(&key, n, legacy)
                            .ok_or((kat, bad("a relation key in URL-safe base64", &key)))?;
                        for segments in groups {
                            blame.clues.push(at);
                            b = b.clue(Clue::Pair {
                                all: kind.ends_with('X'),
                                table: table.clone(),
                                cells: segments.concat(),
                            });
                        }
                    }
                }
                continue;
            }
            other => {
                return Err((
                    at,
                    ParseErrorKind::Unsupported {
                        what: format!(
                            "constraint type '{}'",
                            if other.is_empty() { "Given" } else { other }
                        ),
                    },
                ));
            }
        };
        blame.clues.push(at);
        b = b.clue(clue);
    }
    finish(b, shape, values, &blame)
}

/// sigh's named cell groups (`NFA`, `Regex`, `Pair`…): an item `_name` starts a group (the name is
/// dropped), an empty item ends one; with `segments`, an item `-` splits a group into segments.
/// Each group is a list of segments of at least one cell.
fn named_groups(
    shape: Shape,
    args: &[(String, usize)],
    segments: bool,
) -> Result<Vec<Vec<Vec<Cell>>>, Failure> {
    let mut out: Vec<Vec<Vec<Cell>>> = Vec::new();
    let mut group: Vec<Vec<Cell>> = vec![Vec::new()];
    let mut flush = |group: &mut Vec<Vec<Cell>>, at: usize| -> Result<(), Failure> {
        if group.len() == 1 && group[0].is_empty() {
            return Ok(());
        }
        if group.iter().any(Vec::is_empty) {
            return Err((at, bad("segments of at least one cell", "-")));
        }
        out.push(std::mem::replace(group, vec![Vec::new()]));
        Ok(())
    };
    for (t, at) in args {
        if t.is_empty() || t.starts_with('_') {
            flush(&mut group, *at)?;
        } else if segments && t == "-" {
            group.push(Vec::new());
        } else {
            let c = cell_id(shape, t).ok_or((*at, bad("a cell of the grid, R1C1 to RxCy", t)))?;
            if let Some(last) = group.last_mut() {
                last.push(c);
            }
        }
    }
    let end = args.last().map_or(0, |(_, at)| *at);
    flush(&mut group, end)?;
    Ok(out)
}

/// Where each rule handed to the builder was written (byte offsets of its item), so that an error of
/// the rules is placed at the item that caused it.
#[derive(Default)]
struct Blame {
    /// The first item's offset: for errors of the whole grid.
    first: usize,
    /// Per clue, in the order given to the builder.
    clues: Vec<usize>,
    /// Per cage, likewise.
    cages: Vec<usize>,
    /// Per variant.
    variants: Vec<(Variant, usize)>,
    /// The jigsaw's layout.
    regions: Option<usize>,
}

impl Blame {
    /// The offset of the item that caused `e`.
    fn at(&self, e: &RulesError) -> usize {
        let variant = |v: Variant| {
            self.variants
                .iter()
                .find(|(w, _)| *w == v)
                .map(|&(_, at)| at)
        };
        let found = match e {
            RulesError::VariantShape { variant: v, .. }
            | RulesError::VariantTooLarge { variant: v, .. }
            | RulesError::VariantBase { variant: v } => variant(*v),
            RulesError::Clue { clue, keyword, .. } => {
                match self.variants.iter().find(|(v, _)| v.name() == *keyword) {
                    Some(&(_, at)) => Some(at),
                    None => self.clues.get(*clue).copied(),
                }
            }
            RulesError::ClueCell { clue, .. } => self.clues.get(*clue).copied(),
            RulesError::CageGridTooLarge { cage, .. }
            | RulesError::CageEmpty { cage }
            | RulesError::CellOutside { cage, .. }
            | RulesError::CellTwice { cage, .. }
            | RulesError::CageTooLarge { cage, .. }
            | RulesError::ImpossibleSum { cage, .. } => self.cages.get(*cage).copied(),
            RulesError::RegionCells { .. }
            | RulesError::RegionCount { .. }
            | RulesError::RegionSize { .. } => self.regions,
            _ => None,
        };
        found.unwrap_or(self.first)
    }
}

/// Builds the rules and the grid; a rules error is placed at the item that caused it.
fn finish(b: RulesBuilder, shape: Shape, values: Vec<u16>, blame: &Blame) -> Result<Read, Failure> {
    let units = b
        .build()
        .map_err(|e| (blame.at(&e), ParseErrorKind::Rules(e)))?;
    let grid = Grid::from_values(shape, values).map_err(|e| {
        (
            0,
            ParseErrorKind::RuleSyntax {
                what: "sigh constraint string",
                expected: "values in the grid's range",
                found: e.to_string(),
            },
        )
    })?;
    Ok(Read { grid, units })
}

/// The layout sigh writes a grid of this shape in: one line, digits from the smallest value (`0` on a
/// zero-based grid) while the largest is below 10, else letters from `A` for 1.
pub(crate) fn layout(shape: Shape, base: i32) -> Layout {
    let n = shape.n();
    let top = base + n as i32 - 1;
    let alphabet = match (base, top < 10) {
        (1, true) => Alphabet::default_for(n),
        (_, true) => Alphabet::zero_first(n, false),
        (1, false) => Alphabet::letters(n),
        _ => {
            let mut symbols = vec![b'0'];
            symbols.extend((0..n as u8 - 1).map(|k| b'A' + k));
            Alphabet::from_symbols(&symbols).unwrap_or_else(|| Alphabet::letters(n))
        }
    };
    Layout::new(Format::Line, shape).with_alphabet(alphabet)
}

/// sigh's other one-line forms (`--format sigh`), tried in sigh's order: a killer in the short form
/// (81 characters, each an arrow towards its cage's head or the head's sum), a grid (N² characters:
/// digits, or letters `A`… above 9x9, any one other character blank), pencilmarks (N³ characters, a
/// cell's N candidates or `.`). `None`: none of them.
pub(crate) fn read_sigh_text(text: &[u8]) -> Option<Result<Read, Failure>> {
    let t: Vec<u8> = text
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    if t.len() == 1 {
        return None;
    }
    if let Some(r) = short_killer(&t) {
        return Some(r.map_err(|(at, kind)| (unstripped(text, at), kind)));
    }
    let side = |len: usize, power: u32| (1..=MAX_SIDE).find(|&k| k.pow(power) == len);
    let shape_of = |k: usize| {
        Shape::grid(k, k, k, box_dims(k, k, k)).map_err(|e| (0, ParseErrorKind::Shape(e)))
    };
    if let Some(k) = side(t.len(), 2) {
        // A grid: one value or blank per cell; the blanks all one character.
        let value = |b: u8| -> Option<u16> {
            if k < 10 {
                (b'1'..=b'9')
                    .contains(&b)
                    .then(|| u16::from(b - b'0'))
                    .filter(|&v| v as usize <= k)
            } else {
                b.is_ascii_uppercase()
                    .then(|| u16::from(b - b'A') + 1)
                    .filter(|&v| v as usize <= k)
            }
        };
        let mut blanks: Vec<u8> = t.iter().copied().filter(|&b| value(b).is_none()).collect();
        blanks.sort_unstable();
        blanks.dedup();
        if blanks.len() <= 1 {
            let shape = match shape_of(k) {
                Ok(s) => s,
                Err(e) => return Some(Err(e)),
            };
            let values = t.iter().map(|&b| value(b).unwrap_or(0)).collect();
            return Some(finish(
                Units::rules(shape),
                shape,
                values,
                &Blame::default(),
            ));
        }
    }
    // A jigsaw: a grid, then its layout (N symbols, each N times: the regions).
    if t.len().is_multiple_of(2)
        && let Some(k) = side(t.len() / 2, 2)
        && let Some(Ok(mut read)) = read_sigh_text(&t[..t.len() / 2])
    {
        let layout = &t[t.len() / 2..];
        let mut labels: Vec<(u8, usize)> = Vec::new();
        for &ch in layout {
            match labels.iter_mut().find(|(l, _)| *l == ch) {
                Some((_, count)) => *count += 1,
                None => labels.push((ch, 1)),
            }
        }
        if labels.len() == k && labels.iter().all(|&(_, count)| count == k) {
            let shape = read.grid.shape();
            let map = layout
                .iter()
                .map(|ch| labels.iter().position(|(l, _)| l == ch).unwrap_or(0))
                .collect();
            let b = Units::rules(shape).no_boxes().regions(map);
            return Some(
                finish(b, shape, read.grid.values().to_vec(), &Blame::default()).map(|r| {
                    read.units = r.units;
                    read
                }),
            );
        }
    }
    if let Some(k) = side(t.len(), 3)
        && t.iter().all(|&b| b == b'.' || b.is_ascii_digit())
    {
        let shape = match shape_of(k) {
            Ok(s) => s,
            Err(e) => return Some(Err(e)),
        };
        let mut b = Units::rules(shape);
        let mut givens = vec![0u16; shape.cells()];
        for (i, chunk) in t.chunks(k).enumerate() {
            let mut values: Vec<i32> = chunk
                .iter()
                .filter(|&&c| c != b'.')
                .map(|&c| i32::from(c - b'0'))
                .collect();
            values.sort_unstable();
            values.dedup();
            // sigh reads each cell's marks as a given (`R1C1_1_3`): one mark is a given, none or
            // one out of range is an error.
            if values.is_empty() || values.iter().any(|v| !(1..=k as i32).contains(v)) {
                let at = unstripped(text, i * k);
                let found = String::from_utf8_lossy(chunk).into_owned();
                return Some(Err((
                    at,
                    bad("a cell's pencilmarks, 1 to N, at least one", &found),
                )));
            }
            if let [v] = values[..] {
                givens[i] = v as u16;
            } else {
                b = b.clue(Clue::Candidates {
                    cell: Cell::new(i),
                    values,
                });
            }
        }
        return Some(finish(b, shape, givens, &Blame::default()));
    }
    None
}

/// The offset in `text` of its `k`-th character that is no whitespace (the one-line forms are read
/// with whitespace dropped; errors point into the line as written).
fn unstripped(text: &[u8], k: usize) -> usize {
    text.iter()
        .enumerate()
        .filter(|(_, b)| !b.is_ascii_whitespace())
        .nth(k)
        .map_or(text.len(), |(i, _)| i)
}

/// Where the given of `cell` is written in `text` (a byte offset), for an error about it: its last
/// `R1C1_5` token in a constraint string, else its character in a one-line grid, else 0.
pub(crate) fn given_offset(text: &[u8], shape: Shape, cell: Cell) -> usize {
    let token = |i: usize| {
        let t = text.get(i..i + 5)?;
        let id = std::str::from_utf8(&t[..4]).ok()?;
        (t[4] == b'_' && cell_id(shape, id) == Some(cell)).then_some(i)
    };
    let written = (1..text.len())
        .rev()
        .find(|&i| text[i - 1] == b'~' && token(i).is_some());
    match written {
        Some(i) => i,
        None if text.iter().filter(|b| !b.is_ascii_whitespace()).count() >= shape.cells() => {
            unstripped(text, cell.index())
        }
        None => 0,
    }
}

/// A killer in the short form (9x9; the forum's "snarfable" cages): each cell an arrow (`<`, `>`,
/// `^`, `v`, and `` ` `` `'` `,` `.` for the diagonals) towards the next cell of its cage, or the
/// cage's sum at its head (`0`-`9`, `A`-`Z` for 10 to 35, `a`-`j` for 36 to 45).
fn short_killer(t: &[u8]) -> Option<Result<Read, Failure>> {
    if t.len() != 81 || !t.iter().any(|b| b"<v>^`',".contains(b)) {
        return None;
    }
    let ok = |b: u8| {
        b.is_ascii_digit()
            || b.is_ascii_uppercase()
            || (b'a'..=b'j').contains(&b)
            || b"^<v>`',.".contains(&b)
    };
    if !t.iter().all(|&b| ok(b)) {
        return None;
    }
    let shape = Shape::new(3, 3).ok()?;
    let next = |i: usize| -> Option<usize> {
        let (r, c) = ((i / 9) as isize, (i % 9) as isize);
        let (dr, dc) = match t[i] {
            b'v' => (1, 0),
            b'^' => (-1, 0),
            b'<' => (0, -1),
            b'>' => (0, 1),
            b'`' => (-1, -1),
            b'\'' => (-1, 1),
            b',' => (1, -1),
            b'.' => (1, 1),
            _ => return Some(i),
        };
        let (r2, c2) = (r + dr, c + dc);
        ((0..9).contains(&r2) && (0..9).contains(&c2)).then(|| (r2 * 9 + c2) as usize)
    };
    // Per cage: its head cell, its sum, its cells (row, column).
    type Cage = (usize, u32, Vec<(usize, usize)>);
    let mut cages: Vec<Cage> = Vec::new();
    for i in 0..81 {
        let mut head = i;
        let mut steps = 0;
        loop {
            let Some(h) = next(head) else {
                return Some(Err((
                    i,
                    bad(
                        "an arrow that stays in the grid",
                        &(t[i] as char).to_string(),
                    ),
                )));
            };
            if h == head {
                break;
            }
            head = h;
            steps += 1;
            if steps > 9 {
                return Some(Err((
                    i,
                    bad("arrows that lead to a cage's sum, not round a loop", ""),
                )));
            }
        }
        let sum = match t[head] {
            b @ b'0'..=b'9' => u32::from(b - b'0'),
            b @ b'A'..=b'Z' => u32::from(b - b'A') + 10,
            b @ b'a'..=b'j' => u32::from(b - b'a') + 36,
            _ => continue,
        };
        match cages.iter_mut().find(|c| c.0 == head) {
            Some(c) => c.2.push((i / 9, i % 9)),
            None => cages.push((head, sum, vec![(i / 9, i % 9)])),
        }
    }
    let mut b = Units::rules(shape);
    for (_, sum, cells) in cages {
        if sum == 0 {
            // A sum of 0: any sum (sigh's reading), the digits still differ.
            let cells = cells.iter().map(|&(r, c)| Cell::at(shape, r, c)).collect();
            b = b.clue(Clue::AllDifferent { cells });
        } else {
            b = b.cage(sum, cells);
        }
    }
    Some(finish(b, shape, vec![0; 81], &Blame::default()))
}

/// The diagonal of a little killer whose first cell is `id` (sigh's reading: from the left edge
/// down-right, the right edge up-left, the top edge down-left, the bottom edge up-right).
fn little_killer(shape: Shape, id: &str) -> Option<Vec<Cell>> {
    let first = cell_id(shape, id)?;
    let (rows, cols) = (shape.rows() as isize, shape.cols() as isize);
    let line = |r: isize, c: isize, dr: isize, dc: isize| -> Vec<Cell> {
        let (mut r, mut c) = (r, c);
        let mut out = Vec::new();
        while (0..rows).contains(&r) && (0..cols).contains(&c) {
            out.push(Cell::at(shape, r as usize, c as usize));
            r += dr;
            c += dc;
        }
        out
    };
    let mut seen: Vec<Vec<Cell>> = Vec::new();
    let mut found = None;
    let mut add = |cells: Vec<Cell>| {
        if cells.len() <= 1 {
            return;
        }
        let mut key = cells.clone();
        key.sort_unstable();
        if seen.contains(&key) {
            return;
        }
        seen.push(key);
        if cells[0] == first {
            found = Some(cells);
        }
    };
    for r in 0..rows - 1 {
        add(line(r, 0, 1, 1));
    }
    for r in 1..rows - 1 {
        add(line(r, cols - 1, -1, -1));
    }
    for c in 1..cols {
        add(line(0, c, 1, -1));
    }
    for c in 1..cols - 1 {
        add(line(rows - 1, c, -1, 1));
    }
    found
}

/// The cells of row or column `id` (`R3`, `C1`, 1-based decimal), from its start (`forward`) or end.
fn outside_line(shape: Shape, id: &str, forward: bool) -> Option<Vec<Cell>> {
    let (kind, num) = id.split_at_checked(1)?;
    let k: usize = num.parse().ok()?;
    let mut cells: Vec<Cell> = match kind {
        "R" if (1..=shape.rows()).contains(&k) => (0..shape.cols())
            .map(|c| Cell::at(shape, k - 1, c))
            .collect(),
        "C" if (1..=shape.cols()).contains(&k) => (0..shape.rows())
            .map(|r| Cell::at(shape, r, k - 1))
            .collect(),
        _ => return None,
    };
    if !forward {
        cells.reverse();
    }
    Some(cells)
}

/// A cell's sigh id.
fn id(shape: Shape, c: Cell) -> String {
    let ch = |k: usize| -> char {
        if k < 9 {
            (b'1' + k as u8) as char
        } else {
            (b'A' + (k - 9) as u8) as char
        }
    };
    format!("R{}C{}", ch(c.row(shape)), ch(c.col(shape)))
}

/// The id of the row or column `cells` run along, and whether from its start.
fn line_id(shape: Shape, cells: &[Cell]) -> Option<(String, bool)> {
    for forward in [true, false] {
        for r in 1..=shape.rows() {
            if outside_line(shape, &format!("R{r}"), forward).as_deref() == Some(cells) {
                return Some((format!("R{r}"), forward));
            }
        }
        for c in 1..=shape.cols() {
            if outside_line(shape, &format!("C{c}"), forward).as_deref() == Some(cells) {
                return Some((format!("C{c}"), forward));
            }
        }
    }
    None
}

/// Writes `grid` under `units` as a sigh constraint string (one line, no newline): the shape when
/// it is not 9x9, the givens, the variants, the cages and the clues, in sigh's names, so that
/// `--format sigh` (and sigh) read back the same puzzle.
///
/// # Errors
/// A message naming what sigh's format cannot say (a grid above 16x16, a sandwich that is no row or
/// column).
pub fn write_sigh(units: &Units, grid: &Grid) -> Result<String, SighWriteError> {
    write(units, grid).map_err(SighWriteError)
}

/// What sigh's serialization cannot say about a puzzle ([`write_sigh`]): the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("sigh's format cannot write this puzzle: {0}")]
pub struct SighWriteError(pub String);

fn write(units: &Units, grid: &Grid) -> Result<String, String> {
    let shape = units.shape();
    let n = shape.n();
    if shape.rows() > MAX_SIDE || shape.cols() > MAX_SIDE || n > MAX_SIDE {
        return Err(format!(
            "sigh's grids have at most 16 rows, columns and digits; this one has {}x{} and {n}",
            shape.rows(),
            shape.cols()
        ));
    }
    let base = units.base();
    let mut out = String::new();
    let default = shape.rows().max(shape.cols());
    let zero = base == 0;
    let has_box_units = units
        .units()
        .iter()
        .chain(units.groups())
        .any(|u| u.name.kind == UnitKind::Block);
    let needs_shape = shape.rows() != 9 || shape.cols() != 9 || n != 9 || zero;
    if needs_shape {
        let _ = write!(out, ".Shape~{}x{}", shape.rows(), shape.cols());
        if zero {
            let _ = write!(out, "~0-{}", n - 1);
        } else if n != default {
            let _ = write!(out, "~{n}");
        }
    }
    // Boxes: sigh's default ones, of another size (RegionSize), or none.
    let sigh_boxes = box_dims(shape.rows(), shape.cols(), default);
    match shape.boxes() {
        Some((br, bc)) if has_box_units => {
            if sigh_boxes != Some((br, bc)) {
                if box_dims(shape.rows(), shape.cols(), br * bc) != Some((br, bc)) {
                    return Err(format!(
                        "sigh cannot give {br}x{bc} boxes to a {}x{} grid",
                        shape.rows(),
                        shape.cols()
                    ));
                }
                let _ = write!(out, ".RegionSize~{}", br * bc);
            }
        }
        _ => {
            if sigh_boxes.is_some() {
                out.push_str(".NoBoxes");
            }
        }
    }
    if let Some(map) = units.regions() {
        const LABELS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        let layout: Option<String> = map
            .iter()
            .map(|&r| LABELS.get(r).map(|&b| b as char))
            .collect();
        let layout = layout.ok_or("too many regions for a jigsaw layout")?;
        let _ = write!(out, ".Jigsaw~{layout}");
    }
    let givens: Vec<String> = (0..shape.cells())
        .filter_map(|i| {
            let c = Cell::new(i);
            grid.get(c)
                .map(|d| format!("{}_{}", id(shape, c), units.value(d.get())))
        })
        .collect();
    if !givens.is_empty() {
        let _ = write!(out, ".~{}", givens.join("~"));
    }
    for &v in units.variants() {
        let name = match v {
            Variant::Diagonals => {
                out.push_str(".Diagonal~1.Diagonal~-1");
                continue;
            }
            Variant::Windoku => "Windoku",
            Variant::DisjointGroups => "DisjointSets",
            Variant::AntiKnight => "AntiKnight",
            Variant::AntiKing => "AntiKing",
            Variant::NonConsecutive => "AntiConsecutive",
            Variant::StrictKropki => "StrictKropki",
            Variant::StrictXv => "StrictXV",
            Variant::AntiTaxicab => "AntiTaxicab",
            Variant::DutchFlatmates => "DutchFlatmates",
        };
        let _ = write!(out, ".{name}");
    }
    let ids = |cells: &[Cell]| -> String {
        let v: Vec<String> = cells.iter().map(|&c| id(shape, c)).collect();
        v.join("~")
    };
    for cage in units.cages() {
        let sum = cage.sum as i32 - (1 - base) * cage.cells.len() as i32;
        let _ = write!(out, ".Cage~{sum}~{}", ids(&cage.cells));
    }
    for clue in units.clues() {
        let s = match clue {
            Clue::Candidates { cell, values } => {
                if values.is_empty() {
                    return Err(format!("{} has no candidates", cell.name(shape)));
                }
                let v: Vec<String> = values.iter().map(i32::to_string).collect();
                format!(".~{}_{}", id(shape, *cell), v.join("_"))
            }
            Clue::AllDifferent { cells } => format!(".AllDifferent~{}", ids(cells)),
            Clue::Diagonal { anti } => format!(".Diagonal~{}", if *anti { 1 } else { -1 }),
            Clue::Kropki { black, cells } => {
                format!(
                    ".{}~{}",
                    if *black { "BlackDot" } else { "WhiteDot" },
                    ids(cells)
                )
            }
            Clue::Xv { sum, cells } => match sum {
                10 => format!(".X~{}", ids(cells)),
                5 => format!(".V~{}", ids(cells)),
                _ => return Err(format!("sigh has no XV clue of sum {sum}")),
            },
            Clue::GreaterThan { cells } => format!(".GreaterThan~{}", ids(cells)),
            Clue::Thermo { cells } => format!(".Thermo~{}", ids(cells)),
            Clue::Whisper { diff, cells } => format!(".Whisper~{diff}~{}", ids(cells)),
            Clue::Renban { cells } => format!(".Renban~{}", ids(cells)),
            Clue::Palindrome { cells } => format!(".Palindrome~{}", ids(cells)),
            Clue::Modular { modulus, cells } => format!(".Modular~{modulus}~{}", ids(cells)),
            Clue::Entropic { cells } => format!(".Entropic~{}", ids(cells)),
            Clue::Zipper { cells } => format!(".Zipper~{}", ids(cells)),
            Clue::Between { cells } => format!(".Between~{}", ids(cells)),
            Clue::Lockout { diff, cells } => format!(".Lockout~{diff}~{}", ids(cells)),
            Clue::RegionSumLine { cells } => format!(".RegionSumLine~{}", ids(cells)),
            Clue::SumLine { sum, looped, cells } => {
                format!(
                    ".SumLine~{sum}~{}{}",
                    ids(cells),
                    if *looped { "~LOOP" } else { "" }
                )
            }
            Clue::Arrow { pill, cells } => match pill {
                1 => format!(".Arrow~{}", ids(cells)),
                p => format!(".PillArrow~{p}~{}", ids(cells)),
            },
            Clue::DoubleArrow { cells } => format!(".DoubleArrow~{}", ids(cells)),
            Clue::LittleKiller { sum, cells } => {
                if little_killer(shape, &id(shape, cells[0])).as_deref() != Some(&cells[..]) {
                    return Err("a little killer along no diagonal sigh names".into());
                }
                format!(".LittleKiller~{sum}~{}", id(shape, cells[0]))
            }
            Clue::Sum { sum, coeffs, cells } => {
                if coeffs.iter().all(|&c| c == 1) {
                    format!(".Sum~{sum}~{}", ids(cells))
                } else {
                    let c: Vec<String> = coeffs.iter().map(i32::to_string).collect();
                    format!(".Sum~{sum}_=_{}~{}", c.join("_"), ids(cells))
                }
            }
            Clue::EqualSum { segments } => {
                let s: Vec<String> = segments.iter().map(|s| ids(s)).collect();
                format!(".EqualSum~{}", s.join("~-~"))
            }
            Clue::Sandwich { sum, cells } => match line_id(shape, cells) {
                Some((l, true)) => format!(".Sandwich~{sum}~{l}"),
                _ => return Err("a sandwich along no row or column from its start".into()),
            },
            Clue::Lunchbox { sum, cells } => format!(".Lunchbox~{sum}~{}", ids(cells)),
            Clue::XSum { cells, .. }
            | Clue::Skyscraper { cells, .. }
            | Clue::HiddenSkyscraper { cells, .. }
            | Clue::NumberedRoom { cells, .. } => {
                let (name, v) = match clue {
                    Clue::XSum { sum, .. } => ("XSum", *sum),
                    Clue::Skyscraper { count, .. } => ("Skyscraper", *count),
                    Clue::HiddenSkyscraper { value, .. } => ("HiddenSkyscraper", *value),
                    Clue::NumberedRoom { value, .. } => ("NumberedRoom", *value),
                    _ => unreachable!("matched above"),
                };
                match line_id(shape, cells) {
                    Some((l, true)) => format!(".{name}~{l}~{v}~"),
                    Some((l, false)) => format!(".{name}~{l}~~{v}"),
                    None => return Err(format!("a {name} clue along no row or column")),
                }
            }
            Clue::Quad { cells, values } => {
                let v: Vec<String> = values.iter().map(i32::to_string).collect();
                format!(".Quad~{}~{}", id(shape, cells[0]), v.join("~"))
            }
            Clue::Indexing { rows, cells } => {
                format!(".Indexing~{}~{}", if *rows { "R" } else { "C" }, ids(cells))
            }
            Clue::CountingCircles { cells } => format!(".CountingCircles~{}", ids(cells)),
            Clue::SameValues { sets, cells } => format!(".SameValues~{sets}~{}", ids(cells)),
            Clue::Rellik { sum, cells } => format!(".RellikCage~{sum}~{}", ids(cells)),
            Clue::ValueIndexing { cells } => format!(".ValueIndexing~{}", ids(cells)),
            Clue::LookAndSay { counts, cells } => {
                let mut key = String::new();
                for &(v, k) in counts {
                    if !(0..10).contains(&v) || !(0..10).contains(&k) {
                        return Err("a look-and-say count or value above 9".into());
                    }
                    let _ = write!(key, "{k}{v}");
                }
                format!(".LookAndSay~{key}~{}", ids(cells))
            }
            Clue::EqualityCage { cells } => format!(".EqualityCage~{}", ids(cells)),
            Clue::Global2x2 { modular } => if *modular {
                ".GlobalMod"
            } else {
                ".GlobalEntropy"
            }
            .to_string(),
            Clue::Pair { all, table, cells } => format!(
                ".{}~{}~{}",
                if *all { "PairX" } else { "Pair" },
                super::sigh_nfa::pair_key(table, n),
                ids(cells)
            ),
            Clue::Nfa { nfa, segments } => {
                let Some(source) = nfa.source() else {
                    return Err("an automaton not read from sigh's serialization".into());
                };
                let s: Vec<String> = segments.iter().map(|s| ids(s)).collect();
                format!(".{source}~{}", s.join("~-~"))
            }
        };
        out.push_str(&s);
    }
    if out.is_empty() {
        // The empty 9x9 grid.
        out.push_str(".~");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sigh_lines_are_recognised() {
        for yes in [
            ".~R1C1_5",
            ".Thermo~R1C1~R1C2",
            ".NoBoxes.Diagonal~1",
            ".Shape~6x6",
            ".FullRank~C1~3~",
            ".NoBoxes",
            ".AntiKnight.NoBoxes ",
            ".~VA_1_3_5_7_9~VB_1_3",
            ".~R1C1",
        ] {
            assert!(looks_like_sigh(yes.as_bytes()), "{yes}");
        }
        for no in [
            "..3.2.6..",
            ".A..B...",
            ".Thermometer~R1C1",
            "cage 3 r1c1",
            // Grid lines in letters whose second cell is a one-letter sigh type.
            ".X.AHP..V..WC....RKM",
            ".V..A",
            ".X.V.",
            ".NoBoxes.Q",
            // A row in an alphabet with `~`.
            ".~...|.....",
            ".~.",
        ] {
            assert!(!looks_like_sigh(no.as_bytes()), "{no}");
        }
    }

    #[test]
    fn box_dims_follow_sigh() {
        assert_eq!(box_dims(9, 9, 9), Some((3, 3)));
        assert_eq!(box_dims(6, 6, 6), Some((2, 3)));
        assert_eq!(box_dims(6, 8, 8), Some((2, 4)));
        assert_eq!(box_dims(5, 10, 10), Some((5, 2)));
        assert_eq!(box_dims(9, 8, 9), None);
        assert_eq!(box_dims(4, 7, 7), None);
        assert_eq!(box_dims(6, 6, 9), Some((3, 3)));
    }

    #[test]
    fn little_killers_run_from_their_first_cell() {
        let s = Shape::new(3, 3).unwrap();
        let names = |id: &str| -> Vec<String> {
            little_killer(s, id)
                .unwrap()
                .iter()
                .map(|c| c.name(s))
                .collect()
        };
        assert_eq!(names("R1C1").len(), 9);
        assert_eq!(names("R2C1")[..2], ["r2c1", "r3c2"]);
        assert_eq!(names("R1C9")[..2], ["r1c9", "r2c8"]);
        assert_eq!(names("R9C2")[..2], ["r9c2", "r8c3"]);
        assert_eq!(names("R5C9")[..2], ["r5c9", "r4c8"]);
        assert!(little_killer(s, "R5C5").is_none());
    }

    #[test]
    fn errors_name_the_unsupported_type_and_where() {
        let text = b".~R1C1_5.Or.Thermo~R1C1~R1C2.End";
        let (at, kind) = read_sigh(text).err().unwrap();
        assert_eq!(at, 9);
        assert_eq!(kind.to_string(), "constraint type 'Or' is not supported");
        let (at, _) = read_sigh(b".Thermo~R1C1~R1CZ").err().unwrap();
        assert_eq!(at, 13);
    }
}
