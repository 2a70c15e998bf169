//! The fuzz targets' corpora as ordinary tests: every file of `fuzz/corpus/TARGET/` and
//! `fuzz/regressions/TARGET/` goes through the same body the `cargo fuzz` target runs
//! (`fuzz/bodies.rs`, included here by path), without the fuzzer. Then the findings of fuzzing, each
//! as a test of its own.

#[path = "../../fuzz/bodies.rs"]
mod bodies;

use std::path::{Path, PathBuf};

use satdoku::format::{Format, ParseErrorKind, ReadOptions, read_str};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The files of `fuzz/WHICH/TARGET/`, sorted (none if the folder does not exist).
fn inputs(which: &str, target: &str) -> Vec<PathBuf> {
    let dir = fuzz_dir().join(which).join(target);
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

/// Runs `target`'s body on every input of its corpus and regressions; fails with the name of each input
/// whose body panicked.
fn replay(target: &str) {
    let corpus = inputs("corpus", target);
    assert!(
        !corpus.is_empty(),
        "fuzz/corpus/{target}/ is empty or missing"
    );
    let mut failed = Vec::new();
    for path in corpus.iter().chain(&inputs("regressions", target)) {
        let data = std::fs::read(path).unwrap();
        if std::panic::catch_unwind(|| bodies::run(target, &data)).is_err() {
            failed.push(path.display().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "{target}: {} input(s) broke a property (the panic messages are above):\n{}",
        failed.len(),
        failed.join("\n")
    );
}

macro_rules! corpus_tests {
    ($($target:ident),* $(,)?) => {
        $(
            #[test]
            fn $target() {
                replay(stringify!($target));
            }
        )*

        /// Every target in `bodies::TARGETS` has its test above.
        #[test]
        fn every_target_is_replayed() {
            let here = [$(stringify!($target)),*];
            assert_eq!(&here[..], super::bodies::TARGETS);
        }
    };
}

mod corpus {
    use super::replay;

    corpus_tests!(
        parse_auto,
        parse_line,
        parse_block,
        parse_letters,
        parse_ints,
        parse_csv,
        round_trip,
        noisy_round_trip,
        solve_check,
        parse_sigh,
    );
}

// ----- findings -----

/// `round_trip` (seed corpus): a 16x16 block of letters `A`-`P` written with `|` and `---+---` rules was
/// read as letters, whose parser took the rules for rows. Rules are now skipped in letters too.
#[test]
fn letters_block_with_box_rules() {
    let poj = std::fs::read_to_string(crate::common::fixture("16x16-poj3076-sample.solution.txt"))
        .unwrap();
    let rows: Vec<String> = poj
        .lines()
        .map(|r| {
            let c: Vec<char> = r.chars().collect();
            c.chunks(4)
                .map(|q| q.iter().collect::<String>())
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect();
    let mut text = String::new();
    for (i, r) in rows.iter().enumerate() {
        if i > 0 && i % 4 == 0 {
            text.push_str("----+----+----+----\n");
        }
        text.push_str(r);
        text.push('\n');
    }
    for format in [None, Some(Format::Block), Some(Format::Letters)] {
        let records = read_str(
            &text,
            "rules",
            ReadOptions {
                format,
                ..ReadOptions::default()
            },
        );
        assert_eq!(records.len(), 1, "{format:?}");
        let p = records[0]
            .puzzle
            .as_ref()
            .unwrap_or_else(|e| panic!("{format:?}: {e}"));
        assert_eq!(p.layout.format(), Format::Letters);
        assert!(p.grid.is_full());
        assert_eq!(p.grid.values()[..4], [6, 16, 1, 8], "FPAH");
    }
}

/// Found while writing the bad input catalogue: one short line before a puzzle decided the format (a
/// 1x1 block), and the puzzle was lost; a tie between two lines went to the first. Lines of fewer than
/// 4 cells never decide now, and ties go to a standard size.
#[test]
fn a_short_first_line_does_not_decide() {
    let good = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    for first in ["x", "ab", "1234567"] {
        let records = read_str(&format!("{first}\n{good}\n"), "s", ReadOptions::default());
        assert_eq!(records.len(), 2, "{first}");
        let e = records[0].puzzle.as_ref().unwrap_err();
        assert!(
            matches!(e.kind, ParseErrorKind::WrongLength { n: 9, .. }),
            "{first}: {e}"
        );
        assert!(records[1].puzzle.is_ok(), "{first}");
    }
    // With --symbols, as `verify` reads a solutions file holding a placeholder line.
    let hex = std::fs::read_to_string(crate::common::fixture("16x16-hex.csv")).unwrap();
    let solution = hex.lines().nth(1).unwrap().rsplit(',').next().unwrap();
    let records = read_str(
        &format!("x\n{solution}\n"),
        "s",
        ReadOptions {
            symbols: Some("0-9a-f".parse().unwrap()),
            ..ReadOptions::default()
        },
    );
    assert_eq!(records.len(), 2);
    assert!(records[1].puzzle.as_ref().unwrap().grid.is_full());
}

/// Found while writing the bad input catalogue: a line of binary garbage between puzzles was reported
/// as "wrong length"; it is now named as binary data (or invalid UTF-8), where the first bad byte is.
#[test]
fn a_garbage_line_is_named_as_garbage() {
    let good = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let text = format!("{good}\n12\0\u{1}zz\n{good}\n");
    let records = read_str(&text, "g", ReadOptions::default());
    assert_eq!(records.len(), 3);
    let e = records[1].puzzle.as_ref().unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    assert!(matches!(e.kind, ParseErrorKind::Binary { byte: 0 }), "{e}");
    let bytes = [good.as_bytes(), b"\n\xff\xfe\n", good.as_bytes()].concat();
    let records: Vec<_> =
        satdoku::format::PuzzleReader::new(&bytes[..], "u", ReadOptions::default()).collect();
    assert_eq!(records.len(), 3);
    let e = records[1].puzzle.as_ref().unwrap_err();
    assert!(
        matches!(e.kind, ParseErrorKind::InvalidUtf8 { byte: 0xff }),
        "{e}"
    );
    // A block row of garbage, likewise.
    let text = "1234\n34\u{1}\n2143\n4321\n";
    let e = read_str(text, "b", ReadOptions::default())[0]
        .puzzle
        .clone()
        .unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    assert!(matches!(e.kind, ParseErrorKind::Binary { byte: 1 }), "{e}");
}

/// `parse_sigh` (first minutes): sigh's reader took givens that clash (`~R2C1_2~R2C7_2`) and the
/// puzzle was solved as `none`, where every other format refuses them. Now an error placed at the
/// second given's token (or character, in sigh's one-line grid), and the next puzzle still reads.
#[test]
fn sigh_givens_that_clash_are_an_error_at_the_second() {
    let text = ".~R1C1_1~R1C2_3~R1C5_1\n1.1\n.~R1C1_1~R1C2_3\n";
    let records = read_str(text, "clash", options_sigh());
    assert_eq!(records.len(), 3);
    let e = records[0].puzzle.as_ref().unwrap_err();
    assert!(matches!(e.kind, ParseErrorKind::Clash { .. }), "{e}");
    assert_eq!((e.line, e.column), (1, 17), "{e}");
    assert!(
        e.to_string()
            .contains("row 1 has 1 twice, at r1c1 and r1c5"),
        "{e}"
    );
    // sigh's one-line grid of a 9x9 on the second line: too short here, an error of its own kind.
    assert!(records[1].puzzle.is_err());
    let p = records[2].puzzle.as_ref().unwrap();
    assert_eq!(p.grid.values()[..2], [1, 3]);
    // The one-line grid form: the error at the second 1's character.
    let grid = format!("1.1{}\n", ".".repeat(78));
    let records = read_str(&grid, "clash", options_sigh());
    let e = records[0].puzzle.as_ref().unwrap_err();
    assert!(matches!(e.kind, ParseErrorKind::Clash { .. }), "{e}");
    assert_eq!((e.line, e.column), (1, 3), "{e}");
}

fn options_sigh() -> ReadOptions {
    ReadOptions {
        format: Some(Format::Sigh),
        ..ReadOptions::default()
    }
}
