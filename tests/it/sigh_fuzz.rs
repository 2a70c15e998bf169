//! The sigh reader under mutation (issue 25): real constraint strings of the corpus, truncated at
//! every position, with characters deleted, doubled and replaced, numbers swapped for huge, negative
//! and empty ones, cells moved outside the grid, items doubled and given other types, shapes too
//! large. A deterministic walk (a seeded xorshift, the same inputs every run): no input may panic,
//! and every error names line 1 and a column within the line, and says what was expected (or which
//! type is not supported). Whatever reads is written back in sigh's serialization and reads back.

use std::panic::{AssertUnwindSafe, catch_unwind};

use satdoku::format::{Format, ParseErrorKind, ReadOptions, read_str, write_sigh};

use crate::common::fixture;

/// The corpus's puzzle lines (constraint strings and sigh's one-line forms), in order.
fn constraint_strings() -> Vec<String> {
    std::fs::read_to_string(fixture("variants-sigh/puzzles.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("solution:"))
        .map(str::to_string)
        .collect()
}

/// Marsaglia's xorshift64: enough to pick mutations, the same ones every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Numbers that stress a parser: too large for every integer type, at and past the i32 and u16 edges,
/// negative, zero, empty.
const NUMBERS: &[&str] = &[
    "99999999999999999999",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967296",
    "65535",
    "65536",
    "100000",
    "-1",
    "-99999",
    "0",
    "",
    "17",
    "1e9",
    "+5",
];

/// Tokens that stress the cell and item grammar.
const TOKENS: &[&str] = &[
    "R0C0",
    "R1C0",
    "R0C1",
    "RGCG",
    "R9C9",
    "RZC1",
    "r1c1",
    "R1C",
    "R",
    "C",
    "R10",
    "C0",
    "C99",
    "R1C1R1C1",
    "R1C1_",
    "R1C1_99999999999999999999",
    "R1C1_-1",
    "R1C1_0",
    "~",
    "~~",
    ".",
    "..",
    "_",
    "-",
    "x",
    "LOOP",
    // Named groups and segments (NFA, Regex, Pair), regular expressions that grow large or
    // match nothing, a look-and-say value counted twice.
    "~_name~",
    "~-~",
    "KCgoKC57OTl9KXs5OX0pezk5fSl7OTl9KQ",
    "KC4qfC4rKSooLj8pezl9W14xLTld",
    "2323",
    "é",
    "\u{0}",
    " ",
    "Thermo",
    "Shape",
    "Jigsaw",
    "NoBoxes",
    "Unknown",
    "Or",
    "End",
    "FullRank",
];

/// Items that ask for huge grids, regions or counts; prefixed to a corpus string they must be errors
/// (or small grids), never allocations of their size.
const HUGE: &[&str] = &[
    ".Shape~100000x100000",
    ".Shape~99999999999999999999x9",
    ".Shape~16x16~99999",
    ".Shape~16x16~0-99999999999",
    ".Shape~0x0",
    ".Shape~1x1",
    ".Shape~16x1",
    ".Shape~9x9~1-0",
    ".Shape~9x9~5-9",
    ".Shape~9x9~9~Killer",
    ".RegionSize~99999999999999999999",
    ".RegionSize~100000",
    ".RegionSize~0",
    ".SameValues~99999999999999999999~R1C1~R1C2",
    ".SameValues~100000~R1C1~R1C2",
    ".PillArrow~99999~R1C1~R1C2~R1C3~R1C4",
    ".Sum~99999999999999999999~R1C1",
    ".Sum~2147483647_=_2147483647_2147483647~R1C1~R1C2",
    ".Sum~-2147483648_=_-2147483648_-1~R1C1~R1C2",
    ".Cage~2147483647~R1C1~R1C2",
    ".Cage~-2147483648~R1C1~R1C2",
    ".LittleKiller~2147483647~R1C1",
    ".SumLine~2147483647~R1C1~R1C2~R1C3~LOOP",
    ".Sandwich~2147483647~R1",
    ".Lunchbox~-2147483648~R1C1~R1C2~R1C3",
    ".XSum~C1~2147483647~-2147483648",
    ".Skyscraper~R1~2147483647~",
    ".Whisper~2147483647~R1C1~R1C2",
    ".Whisper~-2147483648~R1C1~R1C2",
    ".Modular~2147483647~R1C1~R1C2",
    ".Modular~0~R1C1~R1C2",
    ".Lockout~-2147483648~R1C1~R1C2~R1C3",
    ".Quad~R1C1~1~1~1~1~1~1~1~1~1~1~2147483647",
    ".RellikCage~2147483647~R1C1~R1C2",
    ".Indexing~R~R1C1~R1C1~R1C1",
    ".Diagonal~99999999999999999999",
    ".Jigsaw~",
    ".Jigsaw~111111111",
];

/// One mutation of `s`.
fn mutate(rng: &mut Rng, types: &[String], s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let at = rng.below(chars.len() + 1);
    let mut out: Vec<char> = chars.clone();
    match rng.below(8) {
        // Delete a run of 1 to 4 characters.
        0 => {
            let end = (at + 1 + rng.below(4)).min(out.len());
            out.drain(at.min(out.len())..end);
        }
        // Double a run.
        1 => {
            let end = (at + 1 + rng.below(8)).min(chars.len());
            let run: Vec<char> = chars[at.min(chars.len())..end].to_vec();
            out.splice(at..at, run);
        }
        // Replace a character by one of the grammar's.
        2 if at < out.len() => out[at] = *rng.pick(&['.', '~', '_', '-', 'x', '0', '9', 'R', 'C']),
        // Replace the number under `at` (or the next one) by a stressing one.
        3 => {
            let start = (at..chars.len()).find(|&i| chars[i].is_ascii_digit());
            if let Some(start) = start {
                let end = (start..chars.len())
                    .find(|&i| !chars[i].is_ascii_digit())
                    .unwrap_or(chars.len());
                out.splice(start..end, rng.pick(NUMBERS).chars());
            }
        }
        // Insert a token.
        4 => {
            out.splice(at..at, rng.pick(TOKENS).chars());
        }
        // Double an item (its cells duplicated).
        5 | 6 => {
            let items: Vec<&str> = s.split('.').filter(|i| !i.is_empty()).collect();
            if items.is_empty() {
                return s.to_string();
            }
            let item = *rng.pick(&items);
            let mut t = String::from(s);
            if rng.below(2) == 0 {
                t.push('.');
                t.push_str(item);
            } else {
                // The item's arguments again after it (cells named twice).
                let args = item.split_once('~').map_or("", |(_, a)| a);
                t = t.replacen(item, &format!("{item}~{args}"), 1);
            }
            return t;
        }
        // Give an item another type.
        _ => {
            let items: Vec<&str> = s.split('.').filter(|i| !i.is_empty()).collect();
            if items.is_empty() {
                return s.to_string();
            }
            let item = *rng.pick(&items);
            let other = rng.pick(types);
            let rest = item.split_once('~').map_or("", |(_, a)| a);
            return s.replacen(item, &format!("{other}~{rest}"), 1);
        }
    }
    out.into_iter().collect()
}

/// sigh's types as the corpus names them (read or refused; a word from a capital and a small
/// letter, before its first `~`), an empty one and an unknown one: every type the reader meets in
/// real puzzles, without a list here to keep in step with the reader's.
fn types(strings: &[String]) -> Vec<String> {
    let mut types: Vec<String> = strings
        .iter()
        .flat_map(|s| s.split('.'))
        .map(|item| item.split('~').next().unwrap_or(""))
        .filter(|t| {
            let b = t.as_bytes();
            b.len() > 1 && b[0].is_ascii_uppercase() && b[1].is_ascii_lowercase()
        })
        .map(str::to_string)
        .chain(["".to_string(), "Nonsense".to_string()])
        .collect();
    types.sort();
    types.dedup();
    types
}

/// Reads `text` as `--format sigh` does, on a thread of its own so that a panic is caught and named;
/// the problems with the answer, if any.
fn problems(text: &str) -> Option<String> {
    let options = ReadOptions {
        format: Some(Format::Sigh),
        ..ReadOptions::default()
    };
    let read = catch_unwind(AssertUnwindSafe(|| read_str(text, "fuzz", options.clone())));
    let Ok(records) = read else {
        return Some("the reader panicked".into());
    };
    let [record] = &records[..] else {
        return Some(format!("{} records for one line", records.len()));
    };
    let len = text.chars().count();
    match &record.puzzle {
        Err(e) => {
            let message = e.to_string();
            if e.line != 1 || !(1..=len + 1).contains(&e.column) {
                return Some(format!(
                    "position {}:{} of 1:1-{}",
                    e.line,
                    e.column,
                    len + 1
                ));
            }
            // A rule or box shape that cannot hold names the rule and why (`cage at r9c5 (sum 3):
            // 3 distinct digits of 1-9 sum to 6..=24, never to 3`, `bad box shape: box 0x3: each
            // box side must be at least 2`), givens that clash the unit and both cells (`row 1 has
            // 3 twice, at r1c2 and r1c5`); the rest say what was expected.
            let says = ["expected", "is not supported", "needs"];
            let rules = matches!(
                e.kind,
                ParseErrorKind::Rules(_) | ParseErrorKind::Shape(_) | ParseErrorKind::Clash { .. }
            );
            let empty = matches!(e.kind, ParseErrorKind::NoPuzzle) && text.trim().len() <= 1;
            if !rules && !empty && !says.iter().any(|w| message.contains(w)) {
                return Some(format!("says nothing expected: {message}"));
            }
            None
        }
        Ok(p) => {
            // What reads writes back, and reads back to the same givens.
            let written = catch_unwind(AssertUnwindSafe(|| write_sigh(&p.units, &p.grid)));
            let Ok(written) = written else {
                return Some("the writer panicked".into());
            };
            let Ok(s) = written else { return None };
            let back = catch_unwind(AssertUnwindSafe(|| read_str(&s, "back", options)));
            match back.as_deref() {
                Ok([r]) => match &r.puzzle {
                    Ok(q) if q.grid.values() == p.grid.values() => None,
                    Ok(_) => Some(format!("written as {s}, read back with other givens")),
                    Err(e) => Some(format!("written as {s}, read back as {e}")),
                },
                Ok(_) => Some(format!(
                    "written as {s}, read back as other than one record"
                )),
                Err(_) => Some(format!(
                    "written as {s}, the reader panicked reading it back"
                )),
            }
        }
    }
}

/// Runs `inputs` through [`problems`]; fails listing the first few inputs with a problem.
fn assert_no_problems(inputs: impl IntoIterator<Item = String>) -> usize {
    let mut failures = Vec::new();
    let mut count = 0;
    for text in inputs {
        count += 1;
        if let Some(p) = problems(&text) {
            failures.push(format!("{p}\n    input: {text}"));
        }
    }
    // The panics' own messages go to stderr: keep the list short.
    failures.truncate(20);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    count
}

/// Every prefix of a sample of constraint strings (every 23rd of the corpus, one of each length
/// class), and every prefix's last character doubled.
#[test]
fn sigh_truncated_at_every_position() {
    let strings = constraint_strings();
    let mut inputs = Vec::new();
    for s in strings.iter().step_by(23) {
        let chars: Vec<char> = s.chars().collect();
        for k in 0..=chars.len() {
            inputs.push(chars[..k].iter().collect::<String>());
        }
    }
    let count = assert_no_problems(inputs);
    assert!(count > 3000, "{count}");
}

/// Random mutations (1 to 3 at a time) of every corpus string, 40 each, from a fixed seed. A longer
/// run: `SIGH_FUZZ_ROUNDS=4000 SIGH_FUZZ_SEED=7 cargo test --release --test it sigh_mutated` (the
/// environment only widens the walk; the default is what CI runs).
#[test]
fn sigh_mutated_constraint_strings() {
    let env = |k: &str, default: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let rounds = env("SIGH_FUZZ_ROUNDS", 40) as usize;
    let mut rng = Rng(0x5167_4fa2_91c3_0b7d ^ env("SIGH_FUZZ_SEED", 0));
    let strings = constraint_strings();
    let types = types(&strings);
    assert!(types.len() > 60, "{types:?}");
    let mut count = 0;
    // In slices, so that a long run does not hold all its inputs at once.
    for _ in 0..rounds.div_ceil(40) {
        let mut inputs = Vec::new();
        for s in &strings {
            for _ in 0..rounds.min(40) {
                let mut t = s.clone();
                for _ in 0..=rng.below(3) {
                    t = mutate(&mut rng, &types, &t);
                }
                inputs.push(t);
            }
        }
        count += assert_no_problems(inputs);
    }
    assert!(count >= 342 * rounds, "{count}");
}

/// Huge and degenerate items, alone and in front of corpus strings: errors or small models, never
/// allocations of the size asked for.
#[test]
fn sigh_huge_shapes_and_counts() {
    let strings = constraint_strings();
    let mut inputs = Vec::new();
    for (k, h) in HUGE.iter().enumerate() {
        inputs.push(h.to_string());
        inputs.push(format!("{h}{}", strings[k * 7 % strings.len()]));
        inputs.push(format!("{}{h}", strings[k * 11 % strings.len()]));
    }
    assert_no_problems(inputs);
    // The shape too large is an error at the shape, saying what fits.
    let options = ReadOptions {
        format: Some(Format::Sigh),
        ..ReadOptions::default()
    };
    let e = read_str(".~R1C1_5.Shape~100000x100000", "huge", options)[0]
        .puzzle
        .clone()
        .unwrap_err();
    assert_eq!((e.line, e.column), (1, 16), "{e}");
    assert!(e.to_string().contains("expected rows x columns"), "{e}");
}
