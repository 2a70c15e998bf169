//! Little killers reasoned about as sums of cells that partly must differ (issue 25, "sums"): a
//! little killer inside one unit is a cage, and little killers and cages covering a unit give a sum
//! of their cells outside it (the rule of 45 across a unit, `dfs/rules.rs`). Node budgets on corpus
//! puzzles (answers from the published solutions), and counts against enumeration.

use satdoku::sat::SatBackend;
use satdoku::{Backend, Limits, Status};

use crate::sigh::corpus;
use crate::sigh_types::counts_agree;

/// #82 (cages, both diagonals, eight little killers) and #35 (disjoint sets, eight little killers):
/// the native search settles both, unique, with the published solutions, within node budgets.
/// Measured on 2026-11-26: #82 66,376 nodes (main at `1bc508c`: 490,972; sigh 27,496), #35 69,683
/// (main: 133,304; sigh 40,853). #35 on the SAT backend too (about a second).
#[test]
fn little_killer_puzzles_within_node_budgets() {
    let records = corpus();
    crate::sigh::settled_natively_within(&records, &[(82, 150_000), (35, 100_000)]);
    let p = records[35].puzzle.as_ref().unwrap();
    let limits = Limits::unique().with_timeout(Some(std::time::Duration::from_secs(60)));
    let sat = SatBackend::default()
        .solve(&p.units, &p.grid, &limits)
        .unwrap();
    assert_eq!(sat.outcome.status(), Status::Unique);
    let published = p.expected.as_ref().unwrap();
    assert!(
        sat.outcome
            .grids()
            .all(|g| g.values() == published.values())
    );
}

/// A little killer inside a box (r1c2 r2c1 in sigh's `R1C2`) and one along the main diagonal
/// (`R1C1`) covering that box: both backends count as enumeration does, on 4x4 without givens and
/// on 6x6 with two rows of a known grid given (634125 152364 316452 425613 263541 541236, 2x3
/// boxes: its diagonal adds up to 33 and r1c2 + r2c1 to 4, so at least it counts). On 4x4, 5 and
/// 12 give the derived sum r3c3 + r4c4 = 7; 5 and 10 one with slack (not kept); 5 and 15 none.
#[test]
fn little_killers_over_cells_that_partly_differ_count_as_enumeration() {
    let four = [
        ".Shape~4x4.LittleKiller~5~R1C2.LittleKiller~12~R1C1",
        ".Shape~4x4.LittleKiller~5~R1C2.LittleKiller~10~R1C1",
        ".Shape~4x4.LittleKiller~3~R1C2.LittleKiller~15~R1C1",
        ".Shape~4x4.LittleKiller~7~R1C2.LittleKiller~11~R1C1.LittleKiller~6~R1C4",
    ];
    let mut counts = Vec::new();
    for text in four {
        counts.push(counts_agree(text, 300));
    }
    assert!(counts[0] > 0 && counts[1] > 0, "{counts:?}");
    let six = ".Shape~6x6.LittleKiller~4~R1C2.LittleKiller~33~R1C1\
               .~R5C1_2~R5C2_6~R5C3_3~R5C4_5~R5C5_4~R5C6_1\
               ~R6C1_5~R6C2_4~R6C3_1~R6C4_2~R6C5_3~R6C6_6";
    counts.push(counts_agree(six, 100_000));
    assert!(counts[4] >= 1, "{counts:?}");
    eprintln!("counts: {counts:?}");
}
