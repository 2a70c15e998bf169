//! Interactive input: with `Lookahead::FirstPuzzle` a record comes out as soon as its puzzle is typed,
//! before any more input is read; the default look-ahead waits for 1,000 lines or the end.

use std::io::{BufReader, Read};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

use satdoku::format::{Format, Lookahead, PuzzleReader, ReadOptions, Record, read_str};

use crate::common::{fixture, top95};

/// Standard input at a terminal: each `send` is one line typed; reading blocks until the next one, and
/// ends when the sender is dropped (Ctrl-D).
struct Typed {
    lines: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for Typed {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.pos == self.buf.len() {
            match self.lines.recv() {
                Ok(b) => {
                    self.buf = b;
                    self.pos = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let k = out.len().min(self.buf.len() - self.pos);
        out[..k].copy_from_slice(&self.buf[self.pos..self.pos + k]);
        self.pos += k;
        Ok(k)
    }
}

/// A reader over typed input on its own thread: type with the sender, receive records.
struct Session {
    keys: Option<Sender<Vec<u8>>>,
    records: Receiver<Record>,
    thread: Option<JoinHandle<()>>,
}

impl Session {
    fn new(lookahead: Lookahead, options: ReadOptions) -> Session {
        let (keys, lines) = channel();
        let (tx, records) = channel();
        let thread = std::thread::spawn(move || {
            let typed = Typed {
                lines,
                buf: Vec::new(),
                pos: 0,
            };
            let reader = PuzzleReader::new(BufReader::new(typed), "<stdin>", options)
                .with_lookahead(lookahead);
            for r in reader {
                if tx.send(r).is_err() {
                    break;
                }
            }
        });
        Session {
            keys: Some(keys),
            records,
            thread: Some(thread),
        }
    }

    fn type_line(&self, line: &str) {
        let keys = self.keys.as_ref().expect("input still open");
        keys.send(format!("{line}\n").into_bytes()).unwrap();
    }

    /// The next record, which must come without more input.
    fn next(&self) -> Record {
        self.records
            .recv_timeout(Duration::from_secs(20))
            .expect("a record before any more input")
    }

    /// Nothing comes out for a while (the reader waits for input).
    fn quiet(&self) {
        match self.records.recv_timeout(Duration::from_millis(300)) {
            Err(RecvTimeoutError::Timeout) => {}
            other => panic!("expected the reader to wait for input, got {other:?}"),
        }
    }

    /// Ends the input (Ctrl-D) and returns the records that follow.
    fn end(mut self) -> Vec<Record> {
        drop(self.keys.take());
        let rest: Vec<Record> = self.records.iter().collect();
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
        rest
    }
}

#[test]
fn each_typed_line_puzzle_comes_out_at_once() {
    let lines = top95(3);
    let s = Session::new(Lookahead::FirstPuzzle, ReadOptions::default());
    s.type_line("# a comment first");
    s.quiet();
    for (i, line) in lines.iter().enumerate() {
        s.type_line(line);
        let r = s.next();
        assert_eq!((r.index, r.line), (i, i + 2));
        let p = r.puzzle.expect("a good puzzle");
        assert_eq!(p.layout.format(), Format::Line);
        assert_eq!(p.grid.n(), 9);
    }
    // A bad line is reported at once too, and the session goes on.
    s.type_line(&lines[0][..80]);
    let e = s.next().puzzle.unwrap_err();
    assert_eq!((e.line, e.column), (5, 81));
    s.type_line(&lines[1]);
    assert!(s.next().puzzle.is_ok());
    assert!(s.end().is_empty());
}

#[test]
fn the_default_waits_for_more_input() {
    let lines = top95(2);
    let s = Session::new(Lookahead::Full, ReadOptions::default());
    s.type_line(&lines[0]);
    s.quiet();
    s.type_line(&lines[1]);
    let rest = s.end();
    assert_eq!(rest.len(), 2);
    assert!(rest.iter().all(|r| r.puzzle.is_ok()));
}

/// A block comes out when its N-th row is typed (the look-ahead waits for a whole grid, so the alphabet
/// and the side are decided from the grid, not from its first row).
#[test]
fn a_typed_block_comes_out_after_its_last_row() {
    let pe96 = std::fs::read_to_string(fixture("pe96.txt")).unwrap();
    let rows: Vec<&str> = pe96.lines().collect();
    let s = Session::new(Lookahead::FirstPuzzle, ReadOptions::default());
    s.type_line(rows[0]); // Grid 01
    for row in &rows[1..9] {
        s.type_line(row);
    }
    s.quiet();
    s.type_line(rows[9]);
    let r = s.next();
    assert_eq!(r.line, 2);
    let p = r.puzzle.unwrap();
    assert_eq!(p.layout.format(), Format::Block);
    let full = read_str(&pe96, "pe96", ReadOptions::default());
    assert_eq!(&p.grid, &full[0].puzzle.as_ref().unwrap().grid);
    // The next grid, after its header, comes out at its last row as well.
    for row in &rows[10..20] {
        s.type_line(row);
    }
    assert_eq!(
        &s.next().puzzle.unwrap().grid,
        &full[1].puzzle.as_ref().unwrap().grid
    );
    assert!(s.end().is_empty());
}

/// 16 symbols may be a 4x4 grid on one line or a row of a 16x16 block: a second line settles it.
#[test]
fn an_ambiguous_first_line_waits_for_a_second() {
    // The POJ 3076 sample typed row by row: read as letters, not as 4x4 lines.
    let poj = std::fs::read_to_string(fixture("16x16-poj3076-sample.txt")).unwrap();
    let s = Session::new(Lookahead::FirstPuzzle, ReadOptions::default());
    for row in poj.lines() {
        s.type_line(row);
    }
    let p = s.next().puzzle.unwrap();
    assert_eq!(p.layout.format(), Format::Letters);
    let full = read_str(&poj, "poj", ReadOptions::default());
    assert_eq!(&p.grid, &full[0].puzzle.as_ref().unwrap().grid);
    assert!(s.end().is_empty());
    // 4x4 grids on one line each: the first comes out when the second is typed.
    let s = Session::new(Lookahead::FirstPuzzle, ReadOptions::default());
    s.type_line("1..4.......3.2..");
    s.quiet();
    s.type_line("2..1.....3..4...");
    assert_eq!(s.next().puzzle.unwrap().grid.n(), 4);
    assert_eq!(s.next().puzzle.unwrap().grid.n(), 4);
    // With the format given, the first needs no second.
    let s = Session::new(
        Lookahead::FirstPuzzle,
        ReadOptions {
            format: Some(Format::Line),
            ..ReadOptions::default()
        },
    );
    s.type_line("1..4.......3.2..");
    assert_eq!(s.next().puzzle.unwrap().grid.n(), 4);
    assert!(s.end().is_empty());
}

/// On whole files, deciding at the first puzzle gives the same puzzles as the full look-ahead for these
/// fixtures (the cases where less input decides worse are documented on `Lookahead::FirstPuzzle`).
#[test]
fn first_puzzle_lookahead_reads_the_fixtures_alike() {
    for name in [
        "top95.txt",
        "17-clue-head200.txt",
        "17-clue-royle-head50.txt",
        "pe96.txt",
        "16x16-poj3076-sample.txt",
        "9x9-sudoku-acs-logic-solvable.txt",
        "16x16-sudoku-acs-sample.txt",
        "16x16-uio-inf1010.txt",
        "16x16-rkkautsar-1.txt",
        "25x25-rkkautsar-1.txt",
        "kaggle-style.csv",
        "quoted-crlf.csv",
        "16x16-hex.csv",
        "bad/wrong-length.txt",
        "bad/mixed-sizes.txt",
        "bad/truncated-block.txt",
    ] {
        let bytes = std::fs::read(fixture(name)).unwrap();
        let read = |lookahead| -> Vec<String> {
            PuzzleReader::new(&bytes[..], name, ReadOptions::default())
                .with_lookahead(lookahead)
                .map(|r| match r.puzzle {
                    Ok(p) => format!("{} {:?}", r.line, p.grid.values()),
                    Err(e) => e.to_string(),
                })
                .collect()
        };
        assert_eq!(
            read(Lookahead::FirstPuzzle),
            read(Lookahead::Full),
            "{name}"
        );
    }
}

/// A first content line of stray bytes (here a lone UTF-8 continuation byte, no symbol at all) is
/// the whole input's problem under either look-ahead, also when rule lines or sigh constraint
/// strings follow: it was dropped from the full look-ahead's checks as if it were a region map's
/// extra row (found by the `parse_sigh` fuzz target).
#[test]
fn a_stray_first_line_reads_alike_before_rule_lines() {
    let sigh = b"\x93\n.~R1C1_5~R1C2_3~.\n".to_vec();
    let killer = {
        let mut t = b"# comment\n\x93\n\n".to_vec();
        t.extend_from_slice(top95(1)[0].as_bytes());
        t.extend_from_slice(b"\ncage 10 r1c1 r1c2\n");
        t
    };
    for (format, bytes) in [(Some(Format::Sigh), sigh), (None, killer)] {
        let options = ReadOptions {
            format,
            ..ReadOptions::default()
        };
        let read = |lookahead| -> Vec<String> {
            PuzzleReader::new(&bytes[..], "stray", options.clone())
                .with_lookahead(lookahead)
                .map(|r| match r.puzzle {
                    Ok(p) => format!("{} {:?}", r.line, p.grid.values()),
                    Err(e) => e.to_string(),
                })
                .collect()
        };
        let full = read(Lookahead::Full);
        assert_eq!(read(Lookahead::FirstPuzzle), full, "{format:?}");
        assert_eq!(full.len(), 1, "{full:?}");
        assert!(full[0].contains("invalid UTF-8 (byte 0x93)"), "{full:?}");
    }
}
