//! The generator's difficulty measure of every puzzle of some files, one tab-separated line per
//! puzzle (`file`, `index`, `level`, `singles`, `nodes`, `guesses`), for comparing it with the
//! ratings published with rated sets (BENCHMARKS.md, "Difficulty"):
//! `cargo run --release --example difficulty -- [--max K] FILE...`.
//!
//! The measure is `satdoku::generate::Difficulty::measure`: the share of the blanks that singles
//! fill, and the native backend's nodes and guesses counting to two. Puzzles that are not unique
//! are measured all the same (their level means little).

use std::fs::File;
use std::io::{BufReader, Write};

use satdoku::Limits;
use satdoku::format::{PuzzleReader, ReadOptions};
use satdoku::generate::Difficulty;

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let mut max = usize::MAX;
    if args.peek().map(String::as_str) == Some("--max") {
        args.next();
        max = args.next().and_then(|k| k.parse().ok()).expect("--max K");
    }
    let out = std::io::stdout();
    let mut out = out.lock();
    writeln!(out, "file\tindex\tlevel\tsingles\tnodes\tguesses").unwrap();
    for path in args {
        let file = File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let reader = PuzzleReader::new(BufReader::new(file), path.as_str(), ReadOptions::default());
        for (index, record) in reader.take(max).enumerate() {
            let Ok(p) = record.puzzle else {
                continue;
            };
            let limits = Limits::unique().with_timeout(Some(std::time::Duration::from_secs(10)));
            let Ok(d) = Difficulty::measure(&p.units, &p.grid, &limits) else {
                continue;
            };
            let singles = d.singles.map_or("-".to_string(), |s| format!("{s:.4}"));
            writeln!(
                out,
                "{path}\t{index}\t{}\t{singles}\t{}\t{}",
                d.level, d.nodes, d.guesses
            )
            .unwrap();
        }
    }
}
