//! Input formats: every fixture reads as expected, grids round-trip through every layout, every class of
//! bad input gives a positioned error without losing the other puzzles, and no input panics.

use std::io::{BufRead, BufReader, Read};
use std::sync::Arc;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use satdoku::format::{
    Alphabet, Format, Layout, Note, ParseError, ParseErrorKind, PuzzleReader, ReadOptions, Record,
    read_str,
};
use satdoku::{Cell, Grid, Shape};

use crate::common::{Rng, carve, fixture, solved};

fn read_fixture_with(name: &str, options: ReadOptions) -> Vec<Record> {
    let file = std::fs::File::open(fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    PuzzleReader::new(BufReader::new(file), name, options).collect()
}

fn read_fixture(name: &str) -> Vec<Record> {
    read_fixture_with(name, ReadOptions::default())
}

/// The grids of records that must all be good; a failure names the record's index and line.
fn grids(name: &str, records: &[Record]) -> Vec<Grid> {
    records
        .iter()
        .map(|r| match &r.puzzle {
            Ok(p) => p.grid.clone(),
            Err(e) => panic!("{name}: puzzle {} (line {}): {e}", r.index, r.line),
        })
        .collect()
}

fn shape(r: usize, c: usize) -> Shape {
    Shape::new(r, c).unwrap()
}

fn opts_symbols(spec: &str) -> ReadOptions {
    ReadOptions {
        symbols: Some(Alphabet::parse(spec).unwrap()),
        ..ReadOptions::default()
    }
}

/// The one error among `records`, at `index`, the others good.
fn only_error(records: &[Record], index: usize) -> &ParseError {
    for r in records {
        assert_eq!(
            r.puzzle.is_err(),
            r.index == index,
            "record {}: {:?}",
            r.index,
            r.puzzle
        );
    }
    records[index].puzzle.as_ref().unwrap_err()
}

fn assert_error(e: &ParseError, source: &str, line: usize, column: usize, words: &[&str]) {
    let text = e.to_string();
    assert_eq!((e.line, e.column), (line, column), "{text}");
    assert!(
        text.starts_with(&format!("{source}:{line}:{column}: ")),
        "{text}"
    );
    for w in words {
        assert!(text.contains(w), "{text:?} lacks {w:?}");
    }
}

// ----- fixtures -----

#[test]
fn one_line_fixtures_count_format_and_givens() {
    // (file, puzzles, givens min, max, sum) counted from the files by an independent script.
    for (name, count, min, max, sum) in [
        ("17-clue-head200.txt", 196, 17, 17, 196 * 17),
        ("17-clue-royle-head50.txt", 49, 17, 17, 49 * 17),
        ("top1465-head200.txt", 198, 17, 25, 3627),
        ("serg-benchmark-head200.txt", 198, 34, 35, 6880),
        ("forum-hardest-1905-11plus-head200.txt", 200, 22, 26, 4775),
        ("top95.txt", 95, 17, 26, 1953),
        ("norvig-hardest.txt", 11, 22, 28, 270),
    ] {
        let records = read_fixture(name);
        let g = grids(name, &records);
        assert_eq!(g.len(), count, "{name}");
        let filled: Vec<usize> = g.iter().map(Grid::filled).collect();
        assert_eq!(
            (
                *filled.iter().min().unwrap(),
                *filled.iter().max().unwrap(),
                filled.iter().sum::<usize>()
            ),
            (min, max, sum),
            "{name}"
        );
        let layout = &records[0].puzzle.as_ref().unwrap().layout;
        assert_eq!(layout.format(), Format::Line, "{name}");
        assert_eq!(layout.shape(), shape(3, 3), "{name}");
        assert_eq!(layout.alphabet().to_string(), "1-9", "{name}");
        for (i, r) in records.iter().enumerate() {
            assert_eq!(r.index, i);
        }
        // One Layout shared by the whole file.
        assert!(
            records
                .iter()
                .all(|r| Arc::ptr_eq(&r.puzzle.as_ref().unwrap().layout, layout))
        );
    }
}

#[test]
fn seventeen_clue_lines_skip_the_header() {
    let records = read_fixture("17-clue-head200.txt");
    assert_eq!(records[0].line, 5, "4 comment lines first");
    let text = std::fs::read_to_string(fixture("17-clue-head200.txt")).unwrap();
    let first = text.lines().nth(4).unwrap();
    let p = records[0].puzzle.as_ref().unwrap();
    assert_eq!(p.layout.compact(&p.grid), first);
    // The Royle list's citation line is skipped; its `0` blanks are written back as `.`.
    let royle = read_fixture("17-clue-royle-head50.txt");
    assert_eq!(royle[0].line, 2);
    let text = std::fs::read_to_string(fixture("17-clue-royle-head50.txt")).unwrap();
    let p = royle[0].puzzle.as_ref().unwrap();
    assert_eq!(
        p.layout.compact(&p.grid),
        text.lines().nth(1).unwrap().replace('0', ".")
    );
}

#[test]
fn pe96_blocks_with_grid_headers() {
    let records = read_fixture("pe96.txt");
    let g = grids("pe96", &records);
    assert_eq!(g.len(), 50);
    assert_eq!(g.iter().map(Grid::filled).sum::<usize>(), 1418);
    assert_eq!(
        g[..3].iter().map(Grid::filled).collect::<Vec<_>>(),
        [32, 30, 28]
    );
    assert_eq!(records[0].line, 2);
    assert_eq!(records[49].line, 492);
    let p = records[0].puzzle.as_ref().unwrap();
    assert_eq!(p.layout.format(), Format::Block);
    assert!(p.layout.is_multiline());
    assert_eq!(&g[0].values()[..9], &[0, 0, 3, 0, 2, 0, 6, 0, 0]);
    let mut out = String::new();
    p.layout.write(&g[0], &mut out);
    assert_eq!(out.lines().next(), Some("..3.2.6.."));
    assert_eq!(out.lines().count(), 9);
}

#[test]
fn poj3076_letters_round_trip_and_solution_text() {
    let records = read_fixture("16x16-poj3076-sample.txt");
    let p = records[0].puzzle.as_ref().unwrap().clone();
    assert_eq!(records.len(), 1);
    assert_eq!(p.layout.format(), Format::Letters);
    assert_eq!(p.layout.alphabet().to_string(), "A-P");
    assert_eq!(p.layout.shape(), shape(4, 4));
    assert_eq!(p.grid.filled(), 89);
    let mut out = String::new();
    p.layout.write(&p.grid, &mut out);
    let text = std::fs::read_to_string(fixture("16x16-poj3076-sample.txt")).unwrap();
    assert_eq!(out, text);

    let sol = read_fixture("16x16-poj3076-sample.solution.txt");
    let s = sol[0].puzzle.as_ref().unwrap();
    assert!(s.grid.is_full());
    let mut out = String::new();
    s.layout.write(&s.grid, &mut out);
    let text = std::fs::read_to_string(fixture("16x16-poj3076-sample.solution.txt")).unwrap();
    assert_eq!(out, text);
    // The published solution keeps every given, and writing it in the puzzle's layout gives the same text.
    for i in 0..256 {
        let c = Cell::new(i);
        if let Some(d) = p.grid.get(c) {
            assert_eq!(s.grid.get(c), Some(d), "{}", c.name(p.grid.shape()));
        }
    }
    let mut out = String::new();
    p.layout.write(&s.grid, &mut out);
    assert_eq!(out, text);
}

#[test]
fn uio_blocks_with_shape_headers() {
    let records = read_fixture("16x16-uio-inf1010.txt");
    let p = records[0].puzzle.as_ref().unwrap();
    assert_eq!((records.len(), records[0].line), (1, 3));
    assert_eq!(p.layout.format(), Format::Block);
    assert_eq!(p.layout.alphabet().to_string(), "1-9A-G");
    assert_eq!(p.grid.filled(), 108);
    let mut out = String::new();
    p.layout.write(&p.grid, &mut out);
    let text = std::fs::read_to_string(fixture("16x16-uio-inf1010.txt")).unwrap();
    assert_eq!(out, text.split_once("4\n4\n").unwrap().1);

    // 36x36 uses `?` as a symbol: its 36 symbols are read in character order (`1-9?A-Z`, which is
    // also the uio order), said once in a note; --symbols gives the same grid.
    let text = std::fs::read_to_string(fixture("36x36-uio-inf1010.txt")).unwrap();
    let mut reader = PuzzleReader::new(
        text.as_bytes(),
        "36x36-uio-inf1010.txt",
        ReadOptions::default(),
    );
    let auto = reader.next().unwrap().puzzle.unwrap();
    assert!(reader.next().is_none());
    let notes = reader.take_notes();
    assert_eq!(notes.len(), 1);
    assert!(
        notes[0].to_string().contains("alphabet 1-9?A-Z"),
        "{}",
        notes[0]
    );
    assert_eq!(auto.layout.alphabet().to_string(), "1-9?A-Z");
    let good = read_fixture_with("36x36-uio-inf1010.txt", opts_symbols("1-9?A-Z"));
    let p = good[0].puzzle.as_ref().unwrap();
    assert_eq!(p.grid, auto.grid);
    assert_eq!(p.layout.shape(), shape(6, 6));
    assert_eq!(p.grid.filled(), 821);
    let mut out = String::new();
    auto.layout.write(&auto.grid, &mut out);
    assert_eq!(out, text.split_once("6\n6\n").unwrap().1);
    // The two header lines give the box shape: `6`, `6` here; a 36x36 read with `--box 4x9` has
    // another one, and clashes.
    let records = read_fixture_with(
        "36x36-uio-inf1010.txt",
        ReadOptions {
            shape: Some(shape(4, 9)),
            ..ReadOptions::default()
        },
    );
    let e = records[0].puzzle.as_ref().unwrap_err();
    assert!(
        matches!(
            &e.kind,
            ParseErrorKind::Clash { unit, .. } if unit.kind == satdoku::UnitKind::Block
        ),
        "{e}"
    );
}

#[test]
fn sudoku_acs_ints_with_headers_and_comments() {
    for (name, side, givens) in [
        ("9x9-sudoku-acs-sample.txt", 9, vec![0, 9, 41, 73, 81]),
        (
            "16x16-sudoku-acs-sample.txt",
            16,
            vec![0, 26, 128, 231, 256],
        ),
        ("25x25-sudoku-acs-sample.txt", 25, vec![63, 594]),
        (
            "9x9-sudoku-acs-logic-solvable.txt",
            9,
            vec![
                24, 21, 21, 21, 22, 41, 41, 25, 23, 24, 36, 23, 23, 23, 25, 22,
            ],
        ),
    ] {
        let records = read_fixture(name);
        let g = grids(name, &records);
        assert_eq!(
            g.iter().map(Grid::filled).collect::<Vec<_>>(),
            givens,
            "{name}"
        );
        let layout = &records[0].puzzle.as_ref().unwrap().layout;
        assert_eq!(layout.format(), Format::Ints);
        assert_eq!(layout.shape(), Shape::for_side(side).unwrap());
        // `# file:` comment, `n`, `1`, then the rows: the puzzle starts on the 4th line of its block.
        assert_eq!(records[0].line, 4, "{name}");
        assert_eq!(records[1].line, 4 + side + 3, "{name}");
    }
    // sabuncu3 is the 9th file of the logic-solvable set.
    let records = read_fixture("9x9-sudoku-acs-logic-solvable.txt");
    let text = std::fs::read_to_string(fixture("9x9-sudoku-acs-logic-solvable.txt")).unwrap();
    let line = text
        .lines()
        .position(|l| l.starts_with("# file: sabuncu3.txt"))
        .unwrap();
    assert_eq!(records[8].line, line + 4);
    // Ints write numbers, `0` blank.
    let p = records[0].puzzle.as_ref().unwrap();
    let mut out = String::new();
    p.layout.write(&p.grid, &mut out);
    assert_eq!(out.lines().next(), Some("1 0 0 0 0 7 0 9 0"));
    assert_eq!(p.layout.compact(&p.grid).split(' ').count(), 81);
}

#[test]
fn rkkautsar_ints() {
    for (name, side, givens) in [
        ("4x4-rkkautsar-1.txt", 4, 4),
        ("16x16-rkkautsar-1.txt", 16, 116),
        ("25x25-rkkautsar-1.txt", 25, 253),
        ("64x64-rkkautsar-1.txt", 64, 2400),
    ] {
        let records = read_fixture(name);
        let g = grids(name, &records);
        assert_eq!(g.len(), 1, "{name}");
        assert_eq!(g[0].n(), side, "{name}");
        assert_eq!(g[0].filled(), givens, "{name}");
        assert_eq!(
            records[0].puzzle.as_ref().unwrap().layout.format(),
            Format::Ints
        );
    }
    let records = read_fixture("16x16-rkkautsar-1.txt");
    let p = records[0].puzzle.as_ref().unwrap();
    let mut out = String::new();
    p.layout.write(&p.grid, &mut out);
    let text = std::fs::read_to_string(fixture("16x16-rkkautsar-1.txt")).unwrap();
    assert_eq!(out, text);
}

#[test]
fn csv_fixtures() {
    // Kaggle style: the puzzle column is found by name; the solutions column is read when asked for.
    let quizzes = read_fixture("kaggle-style.csv");
    let solutions = read_fixture_with(
        "kaggle-style.csv",
        ReadOptions {
            column: Some("solutions".into()),
            ..ReadOptions::default()
        },
    );
    let (q, s) = (
        grids("kaggle", &quizzes),
        grids("kaggle solutions", &solutions),
    );
    assert_eq!((q.len(), s.len()), (5, 5));
    let pe96 = grids("pe96", &read_fixture("pe96.txt"));
    assert_eq!(q[..], pe96[..5]);
    for (q, s) in q.iter().zip(&s) {
        assert!(s.is_full());
        assert!(q.diff(s).iter().all(|&c| q.get(c).is_none()));
    }
    let p = quizzes[0].puzzle.as_ref().unwrap();
    assert_eq!(p.layout.format(), Format::Csv);
    assert!(!p.layout.is_multiline());
    assert_eq!((quizzes[0].line, quizzes[4].line), (2, 6));

    // Krazydad style header, column PUZZLE.
    let k = grids("krazydad", &read_fixture("krazydad-style-9x9.csv"));
    let top = grids("top95", &read_fixture("top95.txt"));
    assert_eq!(k[..], top[..4]);

    // 16x16 `0-9a-f` with `.` blank: `0` is a value; the identity relabelling is the POJ sample itself.
    let hex = read_fixture("16x16-hex.csv");
    let h = grids("hex", &hex);
    assert_eq!(h.len(), 3);
    assert_eq!(
        hex[0]
            .puzzle
            .as_ref()
            .unwrap()
            .layout
            .alphabet()
            .to_string(),
        "0-9a-f"
    );
    let poj = grids("poj", &read_fixture("16x16-poj3076-sample.txt"));
    assert_eq!(h[0], poj[0]);
    let hex_sol = grids(
        "hex solutions",
        &read_fixture_with(
            "16x16-hex.csv",
            ReadOptions {
                column: Some("solution".into()),
                ..ReadOptions::default()
            },
        ),
    );
    let poj_sol = grids(
        "poj solution",
        &read_fixture("16x16-poj3076-sample.solution.txt"),
    );
    assert_eq!(hex_sol[0], poj_sol[0]);
    // Written back in lower case, `.` blank.
    let p = hex[0].puzzle.as_ref().unwrap();
    let text = std::fs::read_to_string(fixture("16x16-hex.csv")).unwrap();
    let field = text.lines().nth(1).unwrap().split(',').nth(4).unwrap();
    assert_eq!(p.layout.compact(&p.grid), field);

    // Quoted fields, CRLF, column `quiz` by name.
    let quoted = read_fixture("quoted-crlf.csv");
    let g = grids("quoted", &quoted);
    assert_eq!(g[..], pe96[5..8]);
    assert_eq!(quoted[2].line, 4);
}

#[test]
fn csv_without_header_and_numbered_column() {
    let kaggle = std::fs::read_to_string(fixture("kaggle-style.csv")).unwrap();
    let body = kaggle.split_once('\n').unwrap().1;
    let records = read_str(body, "h", ReadOptions::default());
    let g = grids("headerless", &records);
    assert_eq!(g.len(), 5);
    assert_eq!(records[0].line, 1);
    assert!(
        g.iter().all(|g| !g.is_full()),
        "the first grid column is the puzzle"
    );
    let records = read_str(
        body,
        "h",
        ReadOptions {
            column: Some("2".into()),
            ..ReadOptions::default()
        },
    );
    assert!(grids("column 2", &records).iter().all(Grid::is_full));
}

// ----- layouts -----

#[test]
fn block_separators_spaces_and_rules_round_trip() {
    let text = "\
# a 4x4 with boxes marked\r\n\
1 2 | 3 4  \r\n\
3 4 | 1 2\r\n\
----+----\r\n\
2 1 | 4 3\r\n\
4 3 | . 1\r\n";
    let records = read_str(text, "t", ReadOptions::default());
    let p = records[0].puzzle.as_ref().unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(p.layout.format(), Format::Block);
    assert_eq!(p.grid.filled(), 15);
    let mut out = String::new();
    p.layout.write(&p.grid, &mut out);
    let expected = text.replace("\r\n", "\n").replace("  \n", "\n");
    assert_eq!(out, expected.split_once('\n').unwrap().1);
    // Unspaced with bars, and a line with bars.
    let records = read_str(
        "12|34\n34|12\n--+--\n21|43\n43|.1\n",
        "t",
        ReadOptions::default(),
    );
    let p = records[0].puzzle.as_ref().unwrap();
    assert_eq!(p.grid.filled(), 15);
    let top = std::fs::read_to_string(fixture("top95.txt")).unwrap();
    let first = top.lines().next().unwrap();
    let chunks: Vec<&str> = (0..27).map(|i| &first[3 * i..3 * i + 3]).collect();
    let barred = chunks.join("|");
    let records = read_str(&barred, "t", ReadOptions::default());
    let p = records[0].puzzle.as_ref().unwrap();
    assert_eq!(p.layout.format(), Format::Line);
    assert_eq!(p.layout.compact(&p.grid), first);
}

/// `top` rows written as `sep`-separated rows of `n` cells on one line.
fn rows_on_one_line(line: &str, n: usize, sep: &str) -> String {
    let cells: Vec<char> = line.chars().collect();
    let rows: Vec<String> = cells.chunks(n).map(|r| r.iter().collect()).collect();
    rows.join(sep)
}

#[test]
fn a_grid_pasted_as_its_rows_on_one_line_is_read_and_written_so() {
    let top = std::fs::read_to_string(fixture("top95.txt")).unwrap();
    let firsts: Vec<&str> = top.lines().take(3).collect();
    // One line, and a file of such lines, with a note after one of them and a tab in another.
    let text = format!(
        "{}\n{}   # hard\n{}\n",
        rows_on_one_line(firsts[0], 9, " "),
        rows_on_one_line(firsts[1], 9, " "),
        rows_on_one_line(firsts[2], 9, "\t"),
    );
    let records = read_str(&text, "t", ReadOptions::default());
    assert_eq!(records.len(), 3);
    for (r, first) in records.iter().zip(&firsts) {
        let p = r.puzzle.as_ref().unwrap();
        assert_eq!(p.layout.format(), Format::Line);
        assert_eq!(p.layout.compact(&p.grid), *first);
    }
    let p = records[1].puzzle.as_ref().unwrap();
    assert_eq!(p.note.as_deref(), Some("# hard"));
    // Written back as it came: rows separated by spaces.
    let mut out = String::new();
    p.layout.write(&p.grid, &mut out);
    assert_eq!(out, rows_on_one_line(firsts[1], 9, " ") + "\n");
    // A stray symbol is reported at its column on the line as written (row 9, its 7th cell).
    let mut bad: Vec<char> = firsts[0].chars().collect();
    bad[8 * 9 + 6] = 'x';
    let bad: String = bad.into_iter().collect();
    let records = read_str(&rows_on_one_line(&bad, 9, " "), "t", ReadOptions::default());
    assert_eq!(records.len(), 1);
    let e = only_error(&records, 0);
    assert_error(e, "t", 1, 8 * 10 + 7, &["'x'"]);
    // A 4x4 on one line.
    let records = read_str("1... ..3. .4.. ...2\n", "t", ReadOptions::default());
    assert_eq!(records[0].puzzle.as_ref().unwrap().grid.filled(), 4);
}

#[test]
fn commas_in_notes_make_no_csv() {
    // `solve --unique --certify` writes `GRID  unique, certified`: read back, it is the line format.
    let top = std::fs::read_to_string(fixture("top95.txt")).unwrap();
    let text: String = top
        .lines()
        .take(2)
        .map(|l| format!("{l}  unique, certified\n"))
        .collect();
    let records = read_str(&text, "t", ReadOptions::default());
    assert_eq!(records.len(), 2);
    for (r, line) in records.iter().zip(top.lines()) {
        let p = r.puzzle.as_ref().unwrap();
        assert_eq!(p.layout.format(), Format::Line);
        assert_eq!(p.layout.compact(&p.grid), line);
        assert_eq!(p.note.as_deref(), Some("unique, certified"));
    }
}

#[test]
fn a_block_written_in_box_groups_is_not_a_grid_on_one_line() {
    // A 16x16 block whose rows are written `ABCD EFGH IJKL MNOP` (four tokens of four symbols, as a
    // 4x4 grid pasted on one line would be) stays one 16x16 grid.
    let mut rng = crate::common::Rng::new(7);
    let solution = solved(shape(4, 4), &mut rng);
    let symbols = Alphabet::default_for(16);
    let mut text = String::new();
    for row in solution.values().chunks(16) {
        let cells: String = row.iter().map(|&v| symbols.symbol(v)).collect();
        text += &rows_on_one_line(&cells, 4, " ");
        text.push('\n');
    }
    let records = read_str(&text, "t", ReadOptions::default());
    assert_eq!(records.len(), 1);
    let p = records[0].puzzle.as_ref().unwrap();
    assert_eq!(p.layout.format(), Format::Block);
    assert_eq!(p.grid, solution);
}

#[test]
fn letters_rows_of_dashes_are_blank_rows_not_rules() {
    let text = std::fs::read_to_string(fixture("16x16-poj3076-sample.txt")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[4] = "----------------";
    let text = lines.join("\n") + "\n";
    let records = read_str(&text, "t", ReadOptions::default());
    let p = records[0].puzzle.as_ref().unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(p.grid.filled(), 89 - 3, "row 5 held 3 givens");
}

#[test]
fn ints_tabs_blanks_and_single_line() {
    let text = "1\t0\t-1\t.\t\r\n.\t.\t1\t.\t\r\n0 1 0 0\n0 0 0 1\n";
    let records = read_str(text, "t", ReadOptions::default());
    let p = records[0].puzzle.as_ref().unwrap();
    assert_eq!(p.grid.filled(), 4);
    assert_eq!(p.layout.format(), Format::Ints);
    let line = p.layout.as_line();
    let mut out = String::new();
    line.write(&p.grid, &mut out);
    assert_eq!(out, "1 0 0 0 0 0 1 0 0 1 0 0 0 0 0 1\n");
    let back = read_str(&out, "t", ReadOptions::default());
    let q = back[0].puzzle.as_ref().unwrap();
    assert_eq!(q.grid, p.grid);
    assert!(!q.layout.is_multiline());
    assert_eq!(q.layout.format(), Format::Ints);
}

#[test]
fn forced_box_shape_and_mismatch() {
    let records = read_fixture("bad/no-box-8x8.txt");
    assert_error(
        only_error(&records, 0),
        "bad/no-box-8x8.txt",
        1,
        1,
        &["8x8", "--box"],
    );
    let with = |s: &str| ReadOptions {
        shape: Some(Shape::parse(s).unwrap()),
        ..ReadOptions::default()
    };
    let records = read_fixture_with("bad/no-box-8x8.txt", with("2x4"));
    let p = records[0].puzzle.as_ref().unwrap();
    assert_eq!(p.layout.shape(), shape(2, 4));
    assert_eq!(p.grid.filled(), 24);
    let records = read_fixture_with("bad/no-box-8x8.txt", with("4x2"));
    let p = records[0].puzzle.as_ref().unwrap();
    assert_eq!(p.layout.shape(), shape(4, 2));
    let records = read_fixture_with("bad/no-box-8x8.txt", with("3x3"));
    assert_error(
        only_error(&records, 0),
        "bad/no-box-8x8.txt",
        1,
        1,
        &["bad box shape: box 3x3 gives 9x9 grids, but the puzzle is 8x8"],
    );
    let records = read_fixture_with("top95.txt", with("2x3"));
    assert_eq!(records.len(), 95);
    assert_error(
        records[0].puzzle.as_ref().unwrap_err(),
        "top95.txt",
        1,
        1,
        &["bad box shape", "2x3", "9x9"],
    );
    // 6x6 defaults to 2x3; 3x2 must be asked for.
    let text = "1.....\n...2..\n......\n......\n......\n......\n";
    let p = &read_str(text, "t", ReadOptions::default())[0];
    assert_eq!(p.puzzle.as_ref().unwrap().layout.shape(), shape(2, 3));
    let p = &read_str(text, "t", with("3x2"))[0];
    assert_eq!(p.puzzle.as_ref().unwrap().layout.shape(), shape(3, 2));
    // A forced shape without boxes (a library caller's: `--box` takes sides of 2 or more) is said
    // to be one, not a box of 0x0.
    let records = read_fixture_with("top95.txt", with("9x9~9~-"));
    assert_eq!(records.len(), 95);
    assert_error(
        records[0].puzzle.as_ref().unwrap_err(),
        "top95.txt",
        1,
        1,
        &["9x9 cells of 9 digits without boxes", "--box RxC"],
    );
    let message = records[0].puzzle.as_ref().unwrap_err().to_string();
    assert!(!message.contains("0x0"), "{message}");
}

#[test]
fn forced_format_and_symbols() {
    let line = "ABCD............";
    let records = read_str(
        line,
        "t",
        ReadOptions {
            format: Some(Format::Line),
            ..opts_symbols("A-D")
        },
    );
    let p = records[0].puzzle.as_ref().unwrap();
    assert_eq!(p.grid.values()[..4], [1, 2, 3, 4]);
    // A forced alphabet of the wrong size is an error for every puzzle.
    let records = read_fixture_with("top95.txt", opts_symbols("1-9A-G"));
    assert_eq!(records.len(), 95);
    assert_error(
        records[94].puzzle.as_ref().unwrap_err(),
        "top95.txt",
        95,
        1,
        &["--symbols 1-9A-G", "16 symbols", "9x9"],
    );
}

#[test]
fn stdin_source_name_and_streaming() {
    // An endless input: records come out without reading it all (bounded look-ahead).
    struct Endless(Vec<u8>, usize);
    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let mut k = 0;
            while k < buf.len() {
                buf[k] = self.0[self.1 % self.0.len()];
                self.1 += 1;
                k += 1;
            }
            Ok(k)
        }
    }
    let line =
        b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let reader = BufReader::new(Endless(line.to_vec(), 0));
    let records: Vec<Record> = PuzzleReader::new(reader, "<stdin>", ReadOptions::default())
        .take(5000)
        .collect();
    assert_eq!(records.len(), 5000);
    assert_eq!(records[4999].line, 5000);
    let e = &read_str("x", "<stdin>", ReadOptions::default())[0];
    assert!(
        e.puzzle
            .as_ref()
            .unwrap_err()
            .to_string()
            .starts_with("<stdin>:1:2: too short for any grid")
    );
}

#[test]
fn io_error_gives_one_record_and_ends() {
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0 == 0 {
                return Err(std::io::Error::other("disk on fire"));
            }
            let line = b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
            self.0 -= 1;
            let k = line.len().min(buf.len());
            buf[..k].copy_from_slice(&line[..k]);
            Ok(k)
        }
    }
    let reader = BufReader::with_capacity(100, Failing(3));
    let records: Vec<Record> = PuzzleReader::new(reader, "f", ReadOptions::default()).collect();
    assert_eq!(records.len(), 4);
    assert!(records[..3].iter().all(|r| r.puzzle.is_ok()));
    let e = records[3].puzzle.as_ref().unwrap_err();
    assert!(matches!(e.kind, ParseErrorKind::Io { .. }));
    assert!(e.to_string().contains("disk on fire"));
}

// ----- bad input: one test per class -----

#[test]
fn empty_and_comment_only_inputs() {
    for name in ["bad/empty.txt", "bad/only-comments.txt"] {
        let records = read_fixture(name);
        assert_eq!(records.len(), 1);
        assert_error(only_error(&records, 0), name, 1, 1, &["no puzzle found"]);
    }
    let records = read_str("\n\n   \n", "s", ReadOptions::default());
    assert!(matches!(
        records[0].puzzle.as_ref().unwrap_err().kind,
        ParseErrorKind::NoPuzzle
    ));
}

#[test]
fn wrong_length() {
    let name = "bad/wrong-length.txt";
    let records = read_fixture(name);
    assert_eq!(records.len(), 3);
    assert_error(
        only_error(&records, 1),
        name,
        2,
        81,
        &["wrong length", "expected 81", "found 80"],
    );
    // Too long: the position is the first symbol beyond 81.
    let top = std::fs::read_to_string(fixture("top95.txt")).unwrap();
    let first = top.lines().next().unwrap();
    let records = read_str(&format!("{first}\n{first}5\n"), "s", ReadOptions::default());
    assert_error(only_error(&records, 1), "s", 2, 82, &["found 82"]);
}

#[test]
fn unknown_symbol() {
    let name = "bad/unknown-symbol.txt";
    let records = read_fixture(name);
    assert_eq!(records.len(), 3);
    assert_error(
        only_error(&records, 1),
        name,
        2,
        14,
        &["unknown symbol 'x'", "--symbols"],
    );
}

#[test]
fn digit_out_of_range() {
    let name = "bad/digit-out-of-range-ints.txt";
    let records = read_fixture(name);
    assert_eq!(records.len(), 3);
    assert_error(
        only_error(&records, 1),
        name,
        7,
        5,
        &["out of range", "5", "4x4"],
    );
    let name = "bad/digit-out-of-range-line.txt";
    let records = read_fixture(name);
    assert_eq!(records.len(), 3);
    assert_error(
        only_error(&records, 1),
        name,
        2,
        7,
        &["out of range", "'7'", "4x4"],
    );
}

#[test]
fn zero_is_a_value_with_dot_blanks_else_a_blank() {
    // `0-9a-f` (`.` blank): a symbol beyond `f` is an error naming --symbols, not a reason to guess.
    let name = "bad/hex-stray-symbol.txt";
    let records = read_fixture(name);
    assert_eq!(records.len(), 2);
    assert_error(
        only_error(&records, 1),
        name,
        2,
        21,
        &["'g'", "0-9a-f", "--symbols"],
    );
    let hex_grid = records[0].puzzle.as_ref().unwrap().grid.clone();
    assert_eq!(hex_grid.filled(), 89);
    // With `0` blanks (PE96), `0` is no symbol.
    let p = &read_fixture("pe96.txt")[0];
    assert_eq!(
        p.puzzle.as_ref().unwrap().layout.alphabet().to_string(),
        "1-9"
    );
    // Forcing `1-9A-G` on the hex file reads `0` as a blank and `a`-`f` as 10-15: a different grid.
    let forced = read_fixture_with("bad/hex-stray-symbol.txt", opts_symbols("1-9A-G"));
    assert!(
        forced[0]
            .puzzle
            .as_ref()
            .map_or(true, |q| q.grid != hex_grid)
    );
}

#[test]
fn duplicate_givens_name_unit_and_cells() {
    for (name, column, words) in [
        (
            "bad/duplicate-row.txt",
            2,
            "row 1 has 4 twice, at r1c1 and r1c2",
        ),
        (
            "bad/duplicate-column.txt",
            28,
            "column 1 has 4 twice, at r1c1 and r4c1",
        ),
        (
            "bad/duplicate-box.txt",
            20,
            "box 1 has 4 twice, at r1c1 and r3c2",
        ),
    ] {
        let records = read_fixture(name);
        assert_eq!(records.len(), 2);
        assert_error(only_error(&records, 1), name, 2, column, &[words]);
    }
    // In a block with spaces and bars, the position is where the second given is written.
    let text = "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 2\n\n1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n";
    let records = read_str(text, "b", ReadOptions::default());
    assert_eq!(records.len(), 2);
    assert_error(
        only_error(&records, 0),
        "b",
        5,
        9,
        &["row 4 has 2 twice, at r4c3 and r4c4"],
    );
    // Ints: the second `3` of column 2.
    let text = "1 3 0 0\n0 0 0 0\n0 3 0 0\n0 0 0 0\n";
    let e = &read_str(text, "i", ReadOptions::default())[0];
    assert_error(
        e.puzzle.as_ref().unwrap_err(),
        "i",
        3,
        3,
        &["column 2 has 3 twice, at r1c2 and r3c2"],
    );
}

#[test]
fn mixed_sizes() {
    let name = "bad/mixed-sizes.txt";
    let records = read_fixture(name);
    assert_eq!(records.len(), 3);
    assert_error(
        only_error(&records, 1),
        name,
        2,
        1,
        &["mixed sizes", "16x16", "9x9"],
    );
    // Blocks: a 4x4 grid among 9x9 ones is read to its end and reported once.
    let pe = std::fs::read_to_string(fixture("pe96.txt")).unwrap();
    let grid1: Vec<&str> = pe.lines().take(10).collect();
    let text = format!(
        "{}\nGrid X\n1234\n3412\n2143\n4321\n{}\n",
        grid1.join("\n"),
        grid1.join("\n")
    );
    let records = read_str(&text, "m", ReadOptions::default());
    assert_eq!(records.len(), 3);
    assert_error(only_error(&records, 1), "m", 12, 1, &["mixed sizes", "4x4"]);
}

#[test]
fn a_broken_first_puzzle_does_not_decide_the_size() {
    let top = std::fs::read_to_string(fixture("top95.txt")).unwrap();
    let lines: Vec<&str> = top.lines().take(4).collect();
    let text = format!("{}\n{}\n", &lines[0][..50], lines.join("\n"));
    let records = read_str(&text, "b", ReadOptions::default());
    assert_eq!(records.len(), 5);
    assert_error(
        only_error(&records, 0),
        "b",
        1,
        51,
        &["expected 81", "found 50"],
    );
    // Ints: a short first row, then good grids.
    let text = "1 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n\n1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 2\n";
    let records = read_str(text, "i", ReadOptions::default());
    assert_eq!(records.len(), 2);
    assert_error(
        only_error(&records, 0),
        "i",
        1,
        6,
        &["expected 4 numbers in row 1, found 3"],
    );
}

#[test]
fn truncated_block() {
    let name = "bad/truncated-block.txt";
    let records = read_fixture(name);
    assert_eq!(records.len(), 2);
    assert_error(
        only_error(&records, 1),
        name,
        17,
        1,
        &["truncated", "end of file", "expected 9 rows, found 5"],
    );
    // Cut by a header mid-file: the next grid is still read.
    let pe = std::fs::read_to_string(fixture("pe96.txt")).unwrap();
    let lines: Vec<&str> = pe.lines().collect();
    let text = [&lines[..5], &lines[10..20]].concat().join("\n");
    let records = read_str(&text, "t", ReadOptions::default());
    assert_eq!(records.len(), 2);
    assert_error(
        only_error(&records, 0),
        "t",
        6,
        1,
        &["truncated puzzle: expected 9 rows, found 4"],
    );
    assert_eq!(records[1].line, 7);
}

#[test]
fn an_extra_row_stays_with_its_grid() {
    // PE96 grids end with a header line: a 10th row is an error of grid 2 (reported where the 10th
    // row is), and grid 3 is still read.
    let pe = std::fs::read_to_string(fixture("pe96.txt")).unwrap();
    let mut lines: Vec<&str> = pe.lines().take(30).collect();
    lines.insert(16, "123456789");
    let records = read_str(&lines.join("\n"), "x", ReadOptions::default());
    assert_eq!(records.len(), 3);
    assert_error(
        only_error(&records, 1),
        "x",
        21,
        1,
        &["too many rows", "expected 9 rows"],
    );
    assert_eq!(records[2].line, 23);
    // Grids written back to back, without separators, are cut every N rows.
    let text = "1234\n3412\n2143\n4321\n4321\n2143\n3412\n1234\n";
    let records = read_str(text, "y", ReadOptions::default());
    assert_eq!(records.len(), 2);
    assert!(records.iter().all(|r| r.puzzle.is_ok()));
    assert_eq!(records[1].line, 5);
}

#[test]
fn csv_without_the_named_column() {
    let name = "bad/csv-no-column.csv";
    let records = read_fixture(name);
    assert_eq!(records.len(), 1);
    assert_error(
        only_error(&records, 0),
        name,
        1,
        1,
        &["no puzzle column", "--column", "a, b"],
    );
    let records = read_fixture_with(
        "kaggle-style.csv",
        ReadOptions {
            column: Some("PUZZLE".into()),
            ..ReadOptions::default()
        },
    );
    assert_eq!(records.len(), 1);
    assert_error(
        only_error(&records, 0),
        "kaggle-style.csv",
        1,
        1,
        &["no column named \"PUZZLE\"", "quizzes, solutions"],
    );
    // A row too short for the column, and an unclosed quote: the other rows still read.
    let text = "id,puzzle\n1,4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n2\n3,\"4.....8\n4,4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let records = read_str(text, "c", ReadOptions::default());
    assert_eq!(records.len(), 4);
    assert!(records[0].puzzle.is_ok() && records[3].puzzle.is_ok());
    assert_error(
        records[1].puzzle.as_ref().unwrap_err(),
        "c",
        3,
        2,
        &["1 field(s)", "\"puzzle\" is field 2"],
    );
    assert_error(
        records[2].puzzle.as_ref().unwrap_err(),
        "c",
        4,
        3,
        &["unterminated"],
    );
}

#[test]
fn binary_and_invalid_utf8() {
    let name = "bad/binary.bin";
    let records = read_fixture(name);
    assert_eq!(records.len(), 1);
    assert_error(only_error(&records, 0), name, 1, 1, &["binary data"]);
    let name = "bad/invalid-utf8.txt";
    let records = read_fixture(name);
    assert_eq!(records.len(), 3);
    assert_error(
        only_error(&records, 1),
        name,
        2,
        5,
        &["invalid UTF-8", "0xff"],
    );
    // Valid UTF-8 that is no symbol: columns count characters, not bytes.
    let records = read_str("é.3.\n1234\n", "u", ReadOptions::default());
    let e = records[0].puzzle.as_ref().unwrap_err();
    assert!(e.to_string().contains("'é'"), "{e}");
    assert_eq!(e.column, 1);
}

#[test]
fn ten_megabyte_line() {
    let top = std::fs::read_to_string(fixture("top95.txt")).unwrap();
    let first = top.lines().next().unwrap();
    let text = format!("{first}\n{}\n{first}\n", "1".repeat(10 << 20));
    let start = std::time::Instant::now();
    let records = read_str(&text, "l", ReadOptions::default());
    assert!(start.elapsed().as_secs() < 10);
    assert_eq!(records.len(), 3);
    assert_error(
        only_error(&records, 1),
        "l",
        2,
        1,
        &["10485760 bytes", "too long"],
    );
    // Alone, too.
    let records = read_str(&"5".repeat(10 << 20), "l", ReadOptions::default());
    assert_eq!(records.len(), 1);
    assert!(records[0].puzzle.is_err());
}

#[test]
fn n_above_64() {
    // An empty 81x81 grid on one line (6,561 `.`), and as ints rows (the rkkautsar layout): one
    // record each, 9x9 boxes.
    let records = read_str(
        &format!("{}\n", ".".repeat(81 * 81)),
        "big",
        ReadOptions::default(),
    );
    let g = grids("big", &records);
    assert_eq!((g.len(), g[0].n(), g[0].filled()), (1, 81, 0));
    assert_eq!(g[0].shape().to_string(), "9x9");
    let row = vec!["0"; 81].join(" ");
    let text = format!("{}\n", vec![row.as_str(); 81].join("\n"));
    let records = read_str(&text, "big", ReadOptions::default());
    let g = grids("big", &records);
    assert_eq!((g.len(), g[0].n(), g[0].filled()), (1, 81, 0));
    // A 400x400 ints grid with its last cell given, without a trailing newline; 400 is a value.
    let mut rows = vec![vec!["."; 400].join(" "); 400];
    rows[399] = format!("{} 400", vec!["."; 399].join(" "));
    let records = read_str(&rows.join("\n"), "big", ReadOptions::default());
    let g = grids("big", &records);
    assert_eq!((g.len(), g[0].n(), g[0].filled()), (1, 400, 1));
    assert_eq!(g[0].values()[400 * 400 - 1], 400);
    let p = records[0].puzzle.as_ref().unwrap();
    assert_eq!(p.layout.format(), Format::Ints);
    // Written back as ints, whatever layout is asked for (no alphabet has 400 symbols).
    let mut out = String::new();
    p.layout.as_line().write(&g[0], &mut out);
    assert!(out.ends_with(" 0 400\n"), "{}", &out[out.len() - 20..]);
    // A value above N in a 100x100 ints grid, and N above 400.
    let mut row: Vec<String> = (1..=100).map(|v| v.to_string()).collect();
    let good = row.join(" ");
    row[3] = "101".into();
    let text = format!("{}\n{}", row.join(" "), vec![good.as_str(); 99].join("\n"));
    let records = read_str(&text, "big", ReadOptions::default());
    assert_error(only_error(&records, 0), "big", 1, 7, &["101", "100x100"]);
    let records = read_str(&".".repeat(401 * 401), "big", ReadOptions::default());
    assert_error(
        only_error(&records, 0),
        "big",
        1,
        1,
        &["401x401", "above 400"],
    );
}

#[test]
fn rkkautsar_above_64() {
    for (name, side, givens) in [
        ("81x81-rkkautsar-1.txt", 81, 3958),
        ("100x100-rkkautsar-1.txt", 100, 6585),
    ] {
        let records = read_fixture(name);
        let g = grids(name, &records);
        assert_eq!(
            (g.len(), g[0].n(), g[0].filled()),
            (1, side, givens),
            "{name}"
        );
        let p = records[0].puzzle.as_ref().unwrap();
        assert_eq!(p.layout.format(), Format::Ints, "{name}");
    }
}

#[test]
fn every_error_fits_in_a_small_record() {
    assert!(std::mem::size_of::<ParseError>() <= 128);
}

// ----- properties -----

/// The layouts a grid of `shape` can be written in.
fn layouts(shape: Shape) -> Vec<(Layout, ReadOptions)> {
    let alphabet = Alphabet::default_for(shape.n());
    let forced = |format: Format, symbols: Option<Alphabet>| ReadOptions {
        format: Some(format),
        symbols,
        shape: Some(shape),
        ..ReadOptions::default()
    };
    let mut v = vec![
        (
            Layout::new(Format::Line, shape),
            forced(Format::Line, Some(alphabet.clone())),
        ),
        (
            Layout::new(Format::Block, shape),
            forced(Format::Block, Some(alphabet.clone())),
        ),
        (
            Layout::new(Format::Block, shape).with_block_style(true, true),
            forced(Format::Block, Some(alphabet.clone())),
        ),
        (
            Layout::new(Format::Block, shape).with_block_style(false, true),
            forced(Format::Block, Some(alphabet.clone())),
        ),
        (Layout::new(Format::Ints, shape), forced(Format::Ints, None)),
        (
            Layout::new(Format::Ints, shape).as_line(),
            forced(Format::Ints, None),
        ),
    ];
    if shape.n() == 16 {
        v.push((
            Layout::new(Format::Letters, shape),
            forced(Format::Letters, None),
        ));
        let hex = Alphabet::parse("0-9a-f").unwrap();
        v.push((
            Layout::new(Format::Line, shape).with_alphabet(hex.clone()),
            forced(Format::Line, Some(hex)),
        ));
    }
    v
}

const SHAPES: [(usize, usize); 7] = [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4), (5, 5)];

fn config(seed: u64, cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(0x5EED_F0F0, 48))]

    /// Planted grids, several per file, written in every layout and read back (format, shape and
    /// alphabet forced, since a sparse grid cannot always show its alphabet), come back equal.
    #[test]
    fn every_layout_round_trips(which in 0..SHAPES.len(), seed in any::<u64>(), keep in 0.0f64..=1.0) {
        let (r, c) = SHAPES[which];
        let shape = Shape::new(r, c).unwrap();
        let mut rng = Rng::new(seed);
        let puzzles: Vec<Grid> = (0..3).map(|_| carve(&solved(shape, &mut rng), keep, &mut rng)).collect();
        for (layout, options) in layouts(shape) {
            let mut text = String::from("# written by the round-trip test\n");
            for p in &puzzles {
                layout.write(p, &mut text);
                if layout.is_multiline() {
                    text.push('\n');
                }
            }
            let records = read_str(&text, "rt", options);
            prop_assert_eq!(records.len(), puzzles.len(), "{:?}\n{}", layout, text);
            for (rec, p) in records.iter().zip(&puzzles) {
                let got = rec.puzzle.as_ref().map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
                prop_assert_eq!(&got.grid, p);
                prop_assert_eq!(got.layout.shape(), shape);
            }
        }
    }

    /// Full grids (solutions) are read back by auto-detection alone, in the layout they were written in.
    #[test]
    fn solutions_round_trip_by_detection(which in 0..SHAPES.len(), seed in any::<u64>()) {
        let (r, c) = SHAPES[which];
        let shape = Shape::new(r, c).unwrap();
        let mut rng = Rng::new(seed);
        let grid = solved(shape, &mut rng);
        for (layout, mut options) in layouts(shape) {
            options.format = None;
            options.symbols = None;
            if shape.for_default() {
                options.shape = None;
            }
            let mut text = String::new();
            layout.write(&grid, &mut text);
            let records = read_str(&text, "auto", options);
            prop_assert_eq!(records.len(), 1, "{}", text);
            let got = records[0].puzzle.as_ref().map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(&got.grid, &grid);
            prop_assert_eq!(got.layout.format(), layout.format());
            prop_assert_eq!(got.layout.is_multiline(), layout.is_multiline());
            let mut again = String::new();
            got.layout.write(&got.grid, &mut again);
            prop_assert_eq!(again, text);
        }
    }
}

trait ForDefault {
    fn for_default(self) -> bool;
}

impl ForDefault for Shape {
    /// Whether this is the shape a side defaults to (so `--box` is not needed).
    fn for_default(self) -> bool {
        Shape::for_side(self.n()).ok() == Some(self)
    }
}

/// Every record of arbitrary input is good or a well-formed positioned error, with indices in order.
fn check_no_panic(bytes: &[u8], options: ReadOptions) -> Result<(), TestCaseError> {
    let records: Vec<Record> = PuzzleReader::new(bytes, "fuzz", options).collect();
    prop_assert!(!records.is_empty());
    let lines = bytes.split(|&b| b == b'\n').count();
    for (i, r) in records.iter().enumerate() {
        prop_assert_eq!(r.index, i);
        prop_assert!(r.line >= 1 && r.line <= lines + 1);
        if let Err(e) = &r.puzzle {
            let text = e.to_string();
            prop_assert!(
                e.line >= 1 && e.column >= 1 && e.line <= lines + 1,
                "{}",
                text
            );
            let prefix = format!("fuzz:{}:{}: ", e.line, e.column);
            prop_assert!(text.starts_with(&prefix), "{}", text);
            prop_assert!(text.len() > prefix.len());
        }
    }
    Ok(())
}

fn any_options() -> impl Strategy<Value = ReadOptions> {
    (
        prop::option::of(prop::sample::select(Format::ALL.to_vec())),
        prop::option::of(prop::sample::select(vec![
            "1-9", "A-P", "0-9a-f", "1-4", "1-9A-G",
        ])),
        prop::option::of(prop::sample::select(vec![(2, 2), (3, 3), (2, 3), (4, 4)])),
        prop::option::of(prop::sample::select(vec!["puzzle", "b", "2"])),
    )
        .prop_map(|(format, symbols, shape, column)| ReadOptions {
            format,
            symbols: symbols.map(|s| Alphabet::parse(s).unwrap()),
            shape: shape.map(|(r, c)| Shape::new(r, c).unwrap()),
            column: column.map(String::from),
            ..ReadOptions::default()
        })
}

/// Text made of the characters the formats care about, in lines of puzzle-like lengths.
fn puzzle_ish() -> impl Strategy<Value = Vec<u8>> {
    let chars: Vec<u8> = b"0123456789.-_|+ \t,\"#ABCDEFGPQabcfgx?\r\n\n\n".to_vec();
    prop::collection::vec(prop::sample::select(chars), 0..1200)
}

proptest! {
    #![proptest_config(config(0xF022_BEEF, 256))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2000), options in any_options()) {
        check_no_panic(&bytes, options)?;
    }

    #[test]
    fn puzzle_like_text_never_panics(bytes in puzzle_ish(), options in any_options()) {
        check_no_panic(&bytes, options)?;
    }

    #[test]
    fn mutated_fixtures_never_panic(
        which in 0..6usize,
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        options in any_options(),
    ) {
        let name = ["pe96.txt", "16x16-poj3076-sample.txt", "9x9-sudoku-acs-sample.txt",
            "16x16-hex.csv", "16x16-uio-inf1010.txt", "quoted-crlf.csv"][which];
        let mut bytes = std::fs::read(fixture(name)).unwrap();
        for (at, b) in edits {
            let i = at.index(bytes.len());
            bytes[i] = b;
        }
        check_no_panic(&bytes, options)?;
    }
}

#[test]
fn reader_is_usable_through_bufread() {
    fn count<R: BufRead>(r: R) -> usize {
        PuzzleReader::new(r, "x", ReadOptions::default()).count()
    }
    assert_eq!(
        count(BufReader::new(
            std::fs::File::open(fixture("top95.txt")).unwrap()
        )),
        95
    );
}

// ----- issue 14: input that is never lost or changed -----

fn top95_lines(k: usize) -> Vec<String> {
    crate::common::top95(k)
}

/// A note after the grid, on the first line too: every line is a puzzle and keeps its note. When every
/// line has one, the file is still 9x9 (it read as 88x88).
#[test]
fn trailing_notes_are_kept_and_never_titles() {
    let p = top95_lines(3);
    for note in ["hard", "# comment", "; note", "# SE 11.9"] {
        let text = format!("{} {note}\n{}\n{}\t{note}\r\n", p[0], p[1], p[2]);
        let records = read_str(&text, "n", ReadOptions::default());
        assert_eq!(records.len(), 3, "{note}");
        let notes: Vec<Option<&str>> = records
            .iter()
            .map(|r| r.puzzle.as_ref().unwrap().note.as_deref())
            .collect();
        assert_eq!(notes, [Some(note), None, Some(note)]);
    }
    let text: String = p.iter().map(|l| format!("{l}  # SE 11.9\n")).collect();
    let records = read_str(&text, "n", ReadOptions::default());
    let plain = read_str(&(p.join("\n") + "\n"), "p", ReadOptions::default());
    assert_eq!(records.len(), 3);
    for (r, q) in records.iter().zip(&plain) {
        let r = r.puzzle.as_ref().unwrap();
        assert_eq!(r.grid, q.puzzle.as_ref().unwrap().grid);
        assert_eq!(r.layout.shape().n(), 9);
    }
}

/// A note is free text on the first line as on any other: a control byte in it does not make the
/// whole file "binary data" (found by fuzzing `noisy_round_trip`: three puzzles read as one error).
#[test]
fn a_control_byte_in_the_first_note_loses_no_puzzle() {
    let p = top95_lines(2);
    let text = format!("{}\tx\u{7}y\n{}\tx\u{7}y\n", p[0], p[1]);
    let records = read_str(&text, "n", ReadOptions::default());
    assert_eq!(records.len(), 2);
    for (r, line) in records.iter().zip(&p) {
        let puzzle = r.puzzle.as_ref().expect("a puzzle, not an error");
        assert_eq!(puzzle.note.as_deref(), Some("x\u{7}y"));
        let plain = read_str(&format!("{line}\n"), "p", ReadOptions::default());
        assert_eq!(puzzle.grid, plain[0].puzzle.as_ref().unwrap().grid);
    }
    // A control byte in the grid part of the first line still means binary data.
    let text = format!("{}\u{7}\n", &p[0][..40]);
    let records = read_str(&text, "n", ReadOptions::default());
    assert!(records[0].puzzle.is_err());
}

/// `0` beside `.` in a 9x9 file is a blank (top95 #1 with one `.` written `0` is top95 #1, not a grid
/// in `0-8`), and the reading is said once; in a 16x16 file it is a value, said once.
#[test]
fn zero_beside_dot_is_decided_per_file_and_said_once() {
    let p = &top95_lines(1)[0];
    let i = p.find('.').unwrap();
    let zero = format!("{}0{}\n{p}\n", &p[..i], &p[i + 1..]);
    let mut reader = PuzzleReader::new(zero.as_bytes(), "z", ReadOptions::default());
    let a = reader.next().unwrap().puzzle.unwrap();
    let notes = reader.take_notes();
    let b = reader.next().unwrap().puzzle.unwrap();
    assert_eq!(a.grid, b.grid);
    assert_eq!(a.layout.alphabet().to_string(), "1-9");
    assert_eq!(notes.len(), 1);
    assert!(
        matches!(notes[0], Note::ZeroIsABlank { .. }),
        "{}",
        notes[0]
    );
    assert!(reader.take_notes().is_empty());
    // The hex file: once for the file, not per puzzle.
    let mut reader = PuzzleReader::new(
        std::fs::File::open(fixture("16x16-hex.csv"))
            .map(BufReader::new)
            .unwrap(),
        "hex",
        ReadOptions::default(),
    );
    let mut notes = Vec::new();
    let mut count = 0;
    while let Some(r) = reader.next() {
        assert!(r.puzzle.is_ok());
        count += 1;
        notes.extend(reader.take_notes());
    }
    assert_eq!(count, 3);
    assert_eq!(notes.len(), 1);
    assert_eq!(
        notes[0].to_string(),
        "reading 0 as a value (alphabet 0-9a-f)"
    );
    // A forced alphabet is no decision.
    let mut reader = PuzzleReader::new(zero.as_bytes(), "z", opts_symbols("1-9"));
    assert!(reader.next().is_some());
    assert!(reader.take_notes().is_empty());
}

/// A quoted field may span lines: one record, with positions on the right lines after it.
#[test]
fn csv_quoted_newlines_are_one_record() {
    let p = top95_lines(3);
    let text = format!(
        "id,puzzle,comment\n1,{},\"hard,\nsaid twice\"\n2,{},plain\n\"3\n(three)\",\"{}\",x\n",
        p[0], p[1], p[2]
    );
    let records = read_str(&text, "q", ReadOptions::default());
    assert_eq!(records.len(), 3);
    assert_eq!(
        records.iter().map(|r| r.line).collect::<Vec<_>>(),
        [2, 4, 5]
    );
    for (r, line) in records.iter().zip(&p) {
        let want = read_str(line, "p", ReadOptions::default());
        assert_eq!(
            r.puzzle.as_ref().unwrap().grid,
            want[0].puzzle.as_ref().unwrap().grid
        );
    }
    // An error in a record's second line is placed there: the `x` at column 12 of line 6.
    let bad = p[2].replacen('.', "x", 1);
    let col = bad.find('x').unwrap() + 2;
    let text = format!("id,puzzle\n\"3\n\",\"{bad}\"\n4,{}\n", p[0]);
    let records = read_str(&text, "q", ReadOptions::default());
    assert_eq!(records.len(), 2);
    let e = records[0].puzzle.as_ref().unwrap_err();
    assert_eq!((e.line, e.column), (3, col + 2), "{e}");
    assert!(records[1].puzzle.is_ok());
}

/// `--column` on input that is not CSV is an error for that input, not ignored.
#[test]
fn column_on_input_that_is_not_csv() {
    for (name, format) in [
        ("top95.txt", "line"),
        ("pe96.txt", "block"),
        ("4x4-rkkautsar-1.txt", "ints"),
        ("16x16-poj3076-sample.txt", "letters"),
    ] {
        let records = read_fixture_with(
            name,
            ReadOptions {
                column: Some("puzzle".into()),
                ..ReadOptions::default()
            },
        );
        assert_eq!(records.len(), 1, "{name}");
        assert_error(
            only_error(&records, 0),
            name,
            1,
            1,
            &[
                "--column applies to CSV input only",
                &format!("{format} format"),
            ],
        );
    }
}

/// Unknown symbols: the advice names the exact `--symbols` when the file's symbols are N, else says
/// how many there are. (The 36x36 uio file is read in character order: `uio_blocks_with_shape_headers`.)
#[test]
fn unknown_symbol_advice_is_exact() {
    let p = &top95_lines(1)[0];
    let x = p.replacen('.', "x", 1);
    let records = read_str(&x, "x", ReadOptions::default());
    let e = only_error(&records, 0);
    assert!(
        e.to_string()
            .contains("if the file's 9 symbols 1-8x are its digits, pass --symbols 1-8x"),
        "{e}"
    );
    let records = read_fixture("bad/unknown-symbol-ten.txt");
    let e = only_error(&records, 0);
    assert_eq!((e.line, e.column), (1, 21));
    assert!(
        e.to_string()
            .contains("the file uses 10 symbols besides blanks (1-9x), but 9x9 grids have 9"),
        "{e}"
    );
}

/// `123` is a line too short for any grid (at its end), not an empty input; a count line before
/// puzzles is still skipped.
#[test]
fn a_line_too_short_for_any_grid() {
    for (text, column, found) in [
        ("123\n", 4, 3),
        ("7", 2, 1),
        ("4\n4\n", 2, 1),
        ("12\n", 3, 2),
    ] {
        let records = read_str(text, "s", ReadOptions::default());
        assert_eq!(records.len(), 1, "{text:?}");
        let e = records[0].puzzle.as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (1, column), "{text:?}: {e}");
        assert_eq!(e.kind, ParseErrorKind::TooShort { found }, "{text:?}");
    }
    let p = &top95_lines(1)[0];
    let records = read_str(&format!("1\n{p}\n"), "s", ReadOptions::default());
    assert_eq!(records.len(), 1);
    assert!(records[0].puzzle.is_ok());
    let records = read_str("# only\n\n", "s", ReadOptions::default());
    assert_eq!(only_error(&records, 0).kind, ParseErrorKind::NoPuzzle);
}

#[test]
fn letter_rows_that_start_like_a_sigh_type_are_grids() {
    // In a 25x25 grid of letters A-Y, a row may start with a blank, an X (or V: sigh's one-letter
    // types) and a blank: `.X.…` is still a grid row, not a sigh constraint string (fuzzing found
    // such lines rejected as "sigh constraint string: expected more cells").
    let shape = shape(5, 5);
    let alphabet = Alphabet::parse("ABCDEFGHIJKLMNOPQRSTUVWXY").unwrap();
    let mut rng = Rng::new(2611);
    for (letter, value) in [('X', 24u16), ('V', 22)] {
        let solution = solved(shape, &mut rng);
        // Relabel the digits so that row 1's second cell holds `letter`.
        let first = solution.values()[1];
        let swap = |v: u16| match v {
            v if v == first => value,
            v if v == value => first,
            v => v,
        };
        let relabelled: Vec<u16> = solution.values().iter().map(|&v| swap(v)).collect();
        let carved = carve(
            &Grid::from_values(shape, relabelled).unwrap(),
            0.6,
            &mut rng,
        );
        // Blank, `letter`, blank.
        let mut values = carved.values().to_vec();
        values[..3].copy_from_slice(&[0, value, 0]);
        let puzzle = Grid::from_values(shape, values).unwrap();
        for format in [Format::Line, Format::Block] {
            let layout = Layout::new(format, shape).with_alphabet(alphabet.clone());
            let mut text = String::new();
            layout.write(&puzzle, &mut text);
            assert!(text.starts_with(&format!(".{letter}.")), "{text}");
            // Read with nothing forced, and with the format and alphabet forced.
            let forced = ReadOptions {
                format: Some(format),
                symbols: Some(alphabet.clone()),
                ..ReadOptions::default()
            };
            for options in [ReadOptions::default(), forced] {
                let records = read_str(&text, "letters", options);
                assert_eq!(records.len(), 1, "{format:?} {letter}");
                match &records[0].puzzle {
                    Ok(p) => assert_eq!(p.grid, puzzle, "{format:?} {letter}"),
                    Err(e) => panic!("{format:?} {letter}: {e}\n{text}"),
                }
            }
        }
    }
}
