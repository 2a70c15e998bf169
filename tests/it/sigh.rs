//! sigh's corpus (issue 25): the 342 puzzles of `fixtures/variants-sigh/puzzles.txt`, read in sigh's
//! own serialization, one record each; every one of a supported kind with a published solution is
//! settled by both backends, unique, and its answer is the published solution (an answer from
//! outside), which the independent checker accepts; every other one is an error naming the sigh type
//! that is not supported.
//!
//! The corpus and its solutions are sigh's (MIT, `fixtures/variants-sigh/LICENSE-…`).

use satdoku::format::{Format, ReadOptions, Record, read_str};
use satdoku::sat::SatBackend;
use satdoku::{Backend, DfsBackend, Limits, Outcome, verify};

use crate::common::fixture;

/// The corpus, read as `--format sigh` reads it.
fn corpus() -> Vec<Record> {
    let name = "variants-sigh/puzzles.txt";
    let text = std::fs::read_to_string(fixture(name)).unwrap();
    let options = ReadOptions {
        format: Some(Format::Sigh),
        ..ReadOptions::default()
    };
    read_str(&text, name, options)
}

/// The corpus's `# N: name` lines, one per puzzle, in order.
fn names() -> Vec<String> {
    std::fs::read_to_string(fixture("variants-sigh/puzzles.txt"))
        .unwrap()
        .lines()
        .filter(|l| {
            l.strip_prefix("# ")
                .and_then(|r| r.split_once(':'))
                .is_some_and(|(k, _)| k.parse::<usize>().is_ok())
        })
        .map(str::to_string)
        .collect()
}

/// Puzzles (by corpus index) that take a backend more than a few seconds: left to the ignored test.
const SLOW: &[usize] = &[];

/// The time each backend is given for a puzzle: a limit, not an assertion (a puzzle that runs out is
/// reported by its name).
const SECONDS: u64 = 60;

/// How one supported puzzle with a published solution went.
fn settle(index: usize, record: &Record) -> Result<(), String> {
    let p = record.puzzle.as_ref().map_err(|e| e.to_string())?;
    let published = p.expected.as_ref().ok_or("no published solution")?;
    verify(&p.units, &p.grid, published).map_err(|v| format!("the published solution: {v}"))?;
    let limits = Limits::unique().with_timeout(Some(std::time::Duration::from_secs(SECONDS)));
    let backends: [(&str, Box<dyn Backend>); 2] = [
        ("dfs", Box::new(DfsBackend::new())),
        ("sat", Box::new(SatBackend::default())),
    ];
    for (name, b) in backends {
        let r = b
            .solve(&p.units, &p.grid, &limits)
            .map_err(|e| format!("{name}: {e}"))?;
        match &r.outcome {
            Outcome::Unique(g) if g == published => {
                verify(&p.units, &p.grid, g).map_err(|v| format!("{name}: {v}"))?;
            }
            other => return Err(format!("{name} at {index}: {:?}", other.status())),
        }
    }
    Ok(())
}

/// The corpus's puzzles: one record each; the supported ones with a published solution settled by
/// both backends with that solution; the others errors naming a sigh type (or a malformed clue).
#[test]
fn the_sigh_corpus_on_both_backends() {
    let records = corpus();
    let names = names();
    assert_eq!(records.len(), 342);
    assert_eq!(names.len(), 342);
    let (mut solved, mut unsupported, mut failures) = (0, 0, Vec::new());
    for (i, (r, name)) in records.iter().zip(&names).enumerate() {
        let published = r.puzzle.as_ref().is_ok_and(|p| p.expected.is_some());
        match &r.puzzle {
            Err(e) => {
                assert!(e.to_string().contains("is not supported"), "{name}: {e}");
                unsupported += 1;
                continue;
            }
            Ok(_) if !published || SLOW.contains(&i) => continue,
            Ok(_) => {}
        }
        match settle(i, r) {
            Ok(()) => solved += 1,
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(solved >= 170, "{solved} solved, {unsupported} unsupported");
}
