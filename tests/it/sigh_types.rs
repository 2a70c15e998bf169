//! The sigh types read since the corpus's first 171 (look-and-say, equality cages, global entropy
//! and mod 3, pair tables, automata and regular expressions): for each, a planted error the
//! checker names, and solution counts on small grids by enumeration (the test's own, filtered by
//! the independent checker) against both backends.

use satdoku::format::Record;
use satdoku::sat::SatBackend;
use satdoku::{Backend, Cell, DfsBackend, Grid, Limits, Units, verify};

use crate::common::swap_digits;
use crate::sigh::read_one;

/// The corpus puzzle `index` (its record).
fn corpus(index: usize) -> Record {
    crate::sigh::corpus().remove(index)
}

/// URL-safe base64 without padding (RFC 4648 §5), as sigh writes its arguments.
fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let v = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for k in 0..=chunk.len() {
            out.push(A[(v >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    out
}

/// sigh's key of a binary relation over `n` digits (its `fnToBinaryKey`): bit (i − 1)·n + j − 1
/// says whether digit i may stand first and j second, six bits a character, least significant first.
fn pair_key(n: usize, allows: impl Fn(usize, usize) -> bool) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut six = Vec::new();
    for k in 0..n * n {
        if k % 6 == 0 {
            six.push(0u8);
        }
        if allows(k / n + 1, k % n + 1) {
            *six.last_mut().unwrap() |= 1 << (k % 6);
        }
    }
    while six.last() == Some(&0) {
        six.pop();
    }
    six.iter().map(|&s| A[s as usize] as char).collect()
}

/// A key in the legacy form (`Binary`, `BinaryX`): `-` and `_` swapped.
fn legacy(key: &str) -> String {
    key.chars()
        .map(|c| match c {
            '-' => '_',
            '_' => '-',
            c => c,
        })
        .collect()
}

/// sigh's serialized automaton in its plain format (its `NFASerializer`): `states` states, state 0
/// the start, `accepts` accepting (listed after the start, as sigh orders them: the start, then the
/// accepting states, then the others), and (from, digit index, to) moves.
fn nfa(
    symbols: usize,
    states: usize,
    start_accepts: bool,
    accepts: usize,
    moves: &[(usize, usize, usize)],
) -> String {
    let mut bits: Vec<bool> = Vec::new();
    fn put(v: usize, n: usize, bits: &mut Vec<bool>) {
        for i in (0..n).rev() {
            bits.push(v >> i & 1 == 1);
        }
    }
    let width = |v: usize| (usize::BITS - v.leading_zeros()) as usize;
    let state_bits = width(states - 1).max(1);
    let most = (0..states)
        .map(|s| moves.iter().filter(|m| m.0 == s).count())
        .max()
        .unwrap_or(0);
    let count_bits = width(most);
    put(0, 2, &mut bits);
    put(state_bits - 1, 4, &mut bits);
    put(symbols - 1, 4, &mut bits);
    put(1, state_bits, &mut bits);
    put(accepts, state_bits, &mut bits);
    put(usize::from(start_accepts), 1, &mut bits);
    put(count_bits, 4, &mut bits);
    for s in 0..states {
        let mine: Vec<_> = moves.iter().filter(|m| m.0 == s).collect();
        put(mine.len(), count_bits, &mut bits);
        for m in mine {
            put(m.1, width(symbols - 1), &mut bits);
            put(m.2, state_bits, &mut bits);
        }
    }
    let bytes: Vec<u8> = bits
        .chunks(8)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u8, |acc, (i, &b)| acc | u8::from(b) << (7 - i))
        })
        .collect();
    base64(&bytes)
}

/// Every completion of `puzzle` that keeps rows, columns and boxes (the test's own search), kept
/// when the independent checker accepts it under `units`: how many.
fn enumerate(units: &Units, puzzle: &Grid) -> u64 {
    let shape = puzzle.shape();
    let plain = Units::standard(shape);
    let n = shape.n() as u16;
    let mut values = puzzle.values().to_vec();
    let blanks: Vec<usize> = (0..values.len()).filter(|&i| values[i] == 0).collect();
    fn go(
        k: usize,
        blanks: &[usize],
        values: &mut Vec<u16>,
        plain: &Units,
        units: &Units,
        puzzle: &Grid,
        n: u16,
    ) -> u64 {
        let Some(&cell) = blanks.get(k) else {
            let g = Grid::from_values(puzzle.shape(), values.clone()).unwrap();
            return u64::from(verify(units, puzzle, &g).is_ok());
        };
        let mut total = 0;
        for d in 1..=n {
            if plain
                .peers(Cell::new(cell))
                .iter()
                .all(|p| values[p.index()] != d)
            {
                values[cell] = d;
                total += go(k + 1, blanks, values, plain, units, puzzle, n);
                values[cell] = 0;
            }
        }
        total
    }
    go(0, &blanks, &mut values, &plain, units, puzzle, n)
}

/// Counts of `text`'s puzzle by enumeration and by both backends (each counting to `cap`): equal;
/// the count is returned.
pub(crate) fn counts_agree(text: &str, cap: u64) -> u64 {
    let r = read_one(text);
    let p = r.puzzle.as_ref().unwrap_or_else(|e| panic!("{text}: {e}"));
    let expect = enumerate(&p.units, &p.grid);
    assert!(expect < cap, "{text}: raise the cap above {expect}");
    let backends: [(&str, Box<dyn Backend>); 2] = [
        ("dfs", Box::new(DfsBackend::new())),
        ("sat", Box::new(SatBackend::default())),
    ];
    for (name, b) in backends {
        let r = b.solve(&p.units, &p.grid, &Limits::count_to(cap)).unwrap();
        assert_eq!(r.outcome.count(), expect, "{name}: {text}");
        for g in r.outcome.grids() {
            verify(&p.units, &p.grid, g).unwrap_or_else(|v| panic!("{name}: {text}: {v}"));
        }
    }
    expect
}

#[test]
fn new_sigh_types_count_as_enumeration_on_4x4() {
    // 288 4x4 grids without clues.
    assert_eq!(counts_agree(".Shape~4x4", 300), 288);
    let less = pair_key(4, |a, b| a < b);
    let apart = pair_key(4, |a, b| a + b != 5);
    // Values 1-4 along a line, then 1 or 4 at the end: `(1234)?[14]`-like words by a regex.
    let regex = base64(b"[12].*[34]|3.?.?1");
    // Odd, then even, alternately (two states, both accepting), from an odd digit.
    // (Symbol 4 is the break between segments: back to the start.)
    let alternate = nfa(
        5,
        2,
        true,
        1,
        &[
            (0, 0, 1),
            (0, 2, 1),
            (1, 1, 0),
            (1, 3, 0),
            (0, 4, 0),
            (1, 4, 0),
        ],
    );
    let cases = [
        ".Shape~4x4.LookAndSay~2102~R1C1~R2C3~R3C2~R4C4".to_string(),
        ".Shape~4x4.LookAndSay~13~R1C1~R2C3~R3C2".to_string(),
        ".Shape~4x4.EqualityCage~R1C1~R2C3.EqualityCage~R3C2~R4C4~R4C1~R1C4".to_string(),
        format!(".Shape~4x4.Pair~{less}~_name~R1C1~R2C3~R3C4~~R4C1~R3C2"),
        format!(".Shape~4x4.PairX~{apart}~R1C1~R2C3~R3C2"),
        format!(".Shape~4x4.Binary~{}~~R1C1~R2C3~R3C4", legacy(&less)),
        format!(".Shape~4x4.Regex~{regex}~R1C1~R2C2~R3C3~R4C4~~R4C1~R3C2"),
        format!(".Shape~4x4.NFA~{alternate}~_alt~R1C1~R1C2~R2C1~R2C2"),
        format!(".Shape~4x4.NFA~{alternate}~R1C1~R1C2~-~R2C1~R2C2"),
        // 0-based digits: `0` is the first.
        format!(".Shape~4x4~0-3.Regex~{}~R1C1~R2C3~R3C2", base64(b"0.*")),
        ".Shape~4x4~0-3.LookAndSay~1012~R1C1~R2C3~R3C2~R4C4".to_string(),
    ];
    let mut seen = Vec::new();
    for text in &cases {
        let k = counts_agree(text, 300);
        seen.push(k);
        // Each clue cuts the grids down, but not to nothing.
        assert!(k > 0 && k < 288, "{text}: {k}");
    }
    eprintln!("4x4 counts: {seen:?}");
}

/// Rellik cages, lowered into the digit sets they may hold (windows): counts as enumeration on 4x4
/// (no givens) and on the published solution of #21 (6x6) with its top half blanked.
#[test]
fn rellik_cages_count_as_enumeration() {
    for text in [
        ".Shape~4x4.RellikCage~8~R1C1~R1C2~R2C1",
        ".Shape~4x4.RellikCage~9~R1C1~R2C2~R3C3.RellikCage~3~R4C1~R4C2",
        ".Shape~4x4~0-3.RellikCage~5~R1C1~R2C2~R3C3",
    ] {
        let k = counts_agree(text, 300);
        assert!(k > 0 && k < 288, "{text}: {k}");
    }
    let (with, without) = blanked_completions(21, 18);
    assert!(with >= 1 && with < without, "{with} of {without}");
}

/// Corpus puzzle `index`'s published solution with its first `blank` cells blanked: its
/// completions under the puzzle's rules and under the standard units alone, counted by
/// enumeration; both backends must count the first the same.
fn blanked_completions(index: usize, blank: usize) -> (u64, u64) {
    let r = corpus(index);
    let p = r.puzzle.as_ref().unwrap();
    let solution = p.expected.clone().unwrap();
    let mut values = solution.values().to_vec();
    values[..blank].fill(0);
    let puzzle = Grid::from_values(solution.shape(), values).unwrap();
    let with = enumerate(&p.units, &puzzle);
    let without = enumerate(&Units::standard(solution.shape()), &puzzle);
    for b in [
        Box::new(DfsBackend::new()) as Box<dyn Backend>,
        Box::new(SatBackend::default()),
    ] {
        let r = b
            .solve(&p.units, &puzzle, &Limits::count_to(100_000))
            .unwrap();
        assert_eq!(r.outcome.count(), with, "#{index}");
    }
    (with, without)
}

#[test]
fn global_entropy_and_mod_count_as_enumeration_on_9x9() {
    // The published solutions of the corpus's global entropy and mod 3 puzzles, with the top three
    // rows blanked: their completions under the rule, counted.
    let mut cut = false;
    for index in [45, 46] {
        let (with, without) = blanked_completions(index, 27);
        eprintln!("{index}: {with} of {without} completions keep the rule");
        assert!(with >= 1 && with <= without, "{index}: {with} of {without}");
        cut |= with < without;
    }
    assert!(cut, "the rules cut no completion: blank other cells");
}

/// The published solution of a corpus puzzle, two of its digits swapped (each pair in turn; rows,
/// columns and boxes still hold), under the puzzle's clues of one kind alone: some swap breaks
/// them, and the checker says which clue, at which cell.
#[test]
fn a_planted_error_in_each_new_type_is_named() {
    let cases = [
        (27, "look-and-say"),
        (20, "equality-cage"),
        (45, "global-entropy"),
        (46, "global-mod"),
        (53, "pair"),
        (54, "pair-all"),
        (89, "pair"),
        (90, "pair-all"),
        (135, "automaton"),
        (55, "automaton"),
    ];
    for (index, keyword) in cases {
        let r = corpus(index);
        let p = r.puzzle.as_ref().unwrap();
        let solution = p.expected.clone().unwrap();
        let shape = solution.shape();
        let mut b = Units::rules(shape);
        if p.units.base() == 0 {
            b = b.zero_based();
        }
        for c in p.units.clues().iter().filter(|c| c.keyword() == keyword) {
            b = b.clue(c.clone());
        }
        let units = b.build().unwrap();
        let empty = Grid::empty(shape);
        verify(&units, &empty, &solution).unwrap();
        let n = shape.n() as u16;
        let mut named = None;
        let swaps = (1..=n).flat_map(|a| (a + 1..=n).map(move |b| (a, b)));
        for (a, b) in swaps {
            let g = swap_digits(&solution, a, b);
            if let Err(v) = verify(&units, &empty, &g) {
                named = Some(v.to_string());
                break;
            }
        }
        let message = named.unwrap_or_else(|| panic!("{index}: no swap breaks {keyword}"));
        assert!(message.starts_with(keyword), "{index}: {message}");
        let at = message.split(" at ").nth(1).unwrap_or("");
        assert!(
            at.starts_with('r') && at.contains('c'),
            "{index}: {message}"
        );
    }
}

#[test]
fn malformed_new_types_are_errors_at_their_column() {
    for (text, column) in [
        (".LookAndSay~2~R1C1", 13),
        (".LookAndSay~2323~R1C1~R1C2", 13),
        (".Regex~KA~R1C1", 8),
        (".Regex~!!~R1C1", 8),
        (".NFA~!!~R1C1", 6),
        (".Pair~!!~R1C1~R1C2", 7),
        (".PairX~EAEB~R1C1~R1C2~RXC2", 23),
        (
            ".NFA~TgRAEv-IiIiIiAyMDmaA9ERQ-qqrD9mZmc_u7u7w_4iIiIn_zMzMzIg~R1C1~-~~R1C2",
            2,
        ),
        (".EqualityCage~R1C1~R1C2~R1C3", 2),
        (".Shape~6x6.GlobalEntropy", 12),
    ] {
        let r = read_one(text);
        let e = r.puzzle.err().unwrap_or_else(|| panic!("{text}: read"));
        let shown = e.to_string();
        assert!(
            shown.starts_with(&format!("written:1:{column}:")),
            "{text}: {shown}"
        );
    }
}

/// Renban lines (window rules: both backends choose among the runs a line may hold) counted as
/// the test's enumeration counts them, on 4x4 (every grid) and 6x6 (a solution with its top three
/// rows blanked), alone and with thermometers, anti-king and 0-based digits.
#[test]
fn renban_lines_count_as_enumeration() {
    let cases = [
        ".Shape~4x4.Renban~R1C1~R2C2",
        ".Shape~4x4.Renban~R1C1~R2C2~R3C3",
        ".Shape~4x4.Renban~R1C1~R2C3~R3C2.Renban~R4C1~R4C2",
        ".Shape~4x4.Renban~R2C1~R3C2~R4C3.Renban~R1C3~R2C4",
        ".Shape~4x4.Renban~R1C1~R2C2~R3C3.Thermo~R4C1~R4C2",
        ".Shape~4x4.Renban~R1C1~R1C2~R2C1~R2C2.Renban~R3C3~R4C4",
        ".Shape~4x4~0-3.Renban~R1C1~R2C3~R3C2",
    ];
    let mut seen = Vec::new();
    for text in cases {
        let k = counts_agree(text, 300);
        seen.push(k);
        assert!(k < 288, "{text}: {k}");
    }
    eprintln!("4x4 renban counts: {seen:?}");
    // A 6x6 solution (2x3 boxes; rows 1-6 read 123456, 456123, 234561, 561234, 345612, 612345),
    // rows 1-3 blank: its completions under renban lines through them that it keeps (so at least
    // one), and anti-king, which it keeps too (row r + 1 is row r moved 3 or 4 places on).
    let value = |r: usize, c: usize| (r * 3 + r / 2 + c) % 6 + 1;
    let givens: String = (3..6)
        .flat_map(|r| (0..6).map(move |c| (r, c)))
        .map(|(r, c)| format!("~R{}C{}_{}", r + 1, c + 1, value(r, c)))
        .collect();
    let mut seen = Vec::new();
    for lines in [
        ".Renban~R1C1~R1C2~R1C3.Renban~R2C5~R3C6",
        ".Renban~R2C1~R3C2.Renban~R3C3~R3C4~R3C5",
        ".AntiKing.Renban~R2C2~R3C3.Thermo~R1C1~R1C2~R1C3",
    ] {
        let text = format!(".Shape~6x6.{givens}{lines}");
        let k = counts_agree(&text, 100_000);
        seen.push(k);
        assert!(k > 0, "{text}: the planted solution keeps the lines");
    }
    eprintln!("6x6 renban counts: {seen:?}");
}

/// Quadruples, lowered with the cells their values leave free (a value listed m times is in at
/// most m + free of the cells; with none free, every cell holds a listed value): counts as
/// enumeration on 4x4, with four values, three, a repeated one, two quadruples, and 0-based.
#[test]
fn quadruples_count_as_enumeration() {
    for text in [
        ".Shape~4x4.Quad~R1C2~1~2~3~4",
        ".Shape~4x4.Quad~R2C2~1~2~3",
        ".Shape~4x4.Quad~R2C1~2~2",
        ".Shape~4x4.Quad~R2C2~1~1~4~4",
        ".Shape~4x4.Quad~R1C1~1~2~3~4.Quad~R3C2~2~3",
        ".Shape~4x4~0-3.Quad~R1C2~0~1~2~3",
    ] {
        let k = counts_agree(text, 300);
        assert!(k > 0 && k < 288, "{text}: {k}");
    }
}

/// "Quadruple X" (#28, and #226 0-based): the native search settles both, unique, with the
/// published solutions, within 5,000 nodes (63,797 each when a quadruple's counts did not know
/// its free cells; sigh about 2 ms each).
#[test]
fn quadruple_puzzles_within_a_node_budget() {
    let records = crate::sigh::corpus();
    crate::sigh::settled_natively_within(&records, &[(28, 5_000), (226, 5_000)]);
}

/// Global entropy's squares pruned from a table of class covers rather than by walking a line
/// each (the same digits kept, see the dfs unit test; the search's order of pruning and so its
/// branching changed): main at `f56a3f1` took 2,175 native nodes on #87 (thermometers,
/// skyscrapers, global entropy) and 3,221 on #88 (skyscrapers, global entropy); now 925 and
/// 4,197, at a fifth and a third of main's instructions.
#[test]
fn entropy_squares_by_table_within_node_budgets() {
    let records = crate::sigh::corpus();
    crate::sigh::settled_natively_within(&records, &[(87, 1_300), (88, 6_000)]);
}

/// A count of one digit (look and say, quadruples) takes the digit from the cells that see every
/// open cell of the count still able to hold it (and, two or more missing, from such a cell that
/// sees all the others); a class of a global entropy or mod 3 square with one digit left takes
/// that digit from the cells seeing all its places there. Counts as enumeration on 4x4 (the
/// squares, 9x9 only, are pinned by the dfs unit test and the node budgets below).
#[test]
fn required_digits_point_as_enumeration() {
    for text in [
        ".Shape~4x4.LookAndSay~13~R1C1~R1C2",
        ".Shape~4x4.LookAndSay~23~R1C1~R2C3~R3C2~R4C4",
        ".Shape~4x4.LookAndSay~2214~R1C1~R1C2~R3C3~R4C4",
        ".Shape~4x4.LookAndSay~1112~R1C1~R2C2.LookAndSay~24~R1C3~R2C1~R4C4",
        ".Shape~4x4.Quad~R2C2~3~3",
    ] {
        let k = counts_agree(text, 300);
        assert!(k > 0 && k < 288, "{text}: {k}");
    }
}

/// Main at `646d167` took 936,122 native nodes on #123 (look and say), 3,886 on #122, 7,131 on #27
/// (look-and-say killer), 7,549 on #193 and 839 on #28 (quadruples), 44,392 on #88 (skyscrapers,
/// global entropy); with the required digits' pointing 746, 284, 19, 169, 15 and 9,384 (the
/// squares' contradictions blamed on their cells for the branching weights).
#[test]
fn required_digits_point_within_node_budgets() {
    let records = crate::sigh::corpus();
    crate::sigh::settled_natively_within(
        &records,
        &[
            (123, 1_500),
            (122, 600),
            (27, 100),
            (193, 400),
            (28, 60),
            (88, 15_000),
        ],
    );
}

/// Lines longer than the native search's short-line buffer (15 cells: longer ones keep their
/// digit sets on the heap and no residual supports): sum lines, a looped one, a regular
/// expression and a between line over all 16 cells of a 4x4 grid, in shuffled orders, counted as
/// the test's enumeration counts them; a 6x6 solution's long line with its top rows blanked.
#[test]
fn lines_longer_than_fifteen_cells_count_as_enumeration() {
    let cell = |i: usize| format!("~R{}C{}", i / 4 + 1, i % 4 + 1);
    let mut rng = crate::common::Rng::new(16);
    let mut seen = Vec::new();
    for round in 0..6 {
        let mut order: Vec<usize> = (0..16).collect();
        if round > 0 {
            rng.shuffle(&mut order);
        }
        let line: String = order.iter().map(|&i| cell(i)).collect();
        for text in [
            format!(".Shape~4x4.SumLine~10{line}"),
            format!(".Shape~4x4.SumLine~5{line}"),
            format!(".Shape~4x4.SumLine~8{line}~LOOP"),
            format!(".Shape~4x4.Regex~{}{line}", base64(b"[123].*4")),
        ] {
            let k = counts_agree(&text, 300);
            seen.push(k);
        }
    }
    eprintln!("4x4 long-line counts: {seen:?}");
    // In row order each row is a stretch of 10: every grid keeps it.
    assert_eq!(seen[0], 288);
    // Not all or nothing: the long lines do cut grids down.
    assert!(seen.iter().any(|&k| k > 0 && k < 288), "{seen:?}");
    // 6x6 (rows 1-6 read 123456, 456123, 234561, 561234, 345612, 612345), rows 1-3 blank, a
    // between line from a 1 to a 6 through 16 cells of values 2-5 the solution has there.
    let value = |r: usize, c: usize| (r * 3 + r / 2 + c) % 6 + 1;
    let givens: String = (3..6)
        .flat_map(|r| (0..6).map(move |c| (r, c)))
        .map(|(r, c)| format!("~R{}C{}_{}", r + 1, c + 1, value(r, c)))
        .collect();
    let one = (0..6).find(|&c| value(0, c) == 1).unwrap();
    let six = (0..6).find(|&c| value(5, c) == 6).unwrap();
    let inner: Vec<(usize, usize)> = (0..6)
        .flat_map(|r| (0..6).map(move |c| (r, c)))
        .filter(|&(r, c)| (2..=5).contains(&value(r, c)))
        .take(16)
        .collect();
    assert_eq!(inner.len(), 16);
    let line: String = std::iter::once((0, one))
        .chain(inner)
        .chain(std::iter::once((5, six)))
        .map(|(r, c)| format!("~R{}C{}", r + 1, c + 1))
        .collect();
    let k = counts_agree(&format!(".Shape~6x6.{givens}.Between{line}"), 100_000);
    assert!(k > 0, "the planted solution keeps its between line");
}
