//! Tests of certificates: every way a claim is settled (propagation, probing, the solver), false
//! claims, tampered proofs and CNFs, limits. Expected statuses come from puzzles whose answer is
//! known from outside (a published solution, a construction), and the checks from our checker; the
//! integration tests (`tests/it/certify.rs`) add the third-party checker `rate`.

use super::*;
use crate::dfs::DfsBackend;
use crate::grid::Digit;
use crate::sat::solver::SatSolver;
use crate::solve::Backend;
use std::collections::HashSet;

use crate::testing::{PLATINUM_BLONDE, grid};

fn s9() -> Shape {
    Shape::new(3, 3).unwrap()
}

/// The first Project Euler 96 grid (unique, easy: propagation alone solves it).
const PE96_1: &str =
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

/// Platinum Blonde with one more given that no solution has: r1c1 = 1 would clash with nothing
/// among the givens, but the unique solution has r1c1 = 8 (so there is none).
fn platinum_no_solution() -> Grid {
    let mut g = grid(s9(), PLATINUM_BLONDE);
    let s = solve_unique(&g);
    // A digit for r1c1 that its row, column and box do not hold as givens, and not the solution's.
    let units = Units::standard(s9());
    let peers: Vec<u16> = units
        .peers(Cell::new(0))
        .iter()
        .filter_map(|&p| g.get(p).map(|d| d.get()))
        .collect();
    let d = (1..=9)
        .find(|&d| !peers.contains(&d) && Some(d) != s.get(Cell::new(0)).map(|x| x.get()))
        .unwrap();
    g.set(Cell::new(0), Digit::new(d));
    g
}

fn solve_unique(puzzle: &Grid) -> Grid {
    let units = Units::standard(puzzle.shape());
    match DfsBackend::new()
        .solve(&units, puzzle, &Limits::unique())
        .unwrap()
        .outcome
    {
        Outcome::Unique(g) => g,
        o => panic!("{o:?}"),
    }
}

fn certify(puzzle: &Grid, outcome: &Outcome) -> Result<Certificate, CertifyError> {
    Certifier::new().certify(&Units::standard(puzzle.shape()), puzzle, outcome)
}

/// Checks a certificate in memory and through its bytes.
fn checked(cert: &Certificate) {
    cert.check().unwrap();
    let (mut cnf, mut drat) = (Vec::new(), Vec::new());
    cert.write_cnf(&mut cnf).unwrap();
    cert.write_drat(&mut drat).unwrap();
    check_drat(&cnf, &drat).unwrap();
    assert!(String::from_utf8_lossy(&drat).ends_with("\n0\n") || drat == b"0\n");
}

#[test]
fn unique_by_propagation() {
    let p = grid(s9(), PE96_1);
    let s = solve_unique(&p);
    let cert = certify(&p, &Outcome::Unique(s.clone())).unwrap();
    assert_eq!(cert.status(), Status::Unique);
    assert_eq!(cert.solution(), Some(&s));
    // Propagation of the givens assigns every variable: the reason of each of the 729 - 32 not
    // given, the 32 givens, the excluding clause (of the plain CNF's 11988 + 32 + 1).
    assert_eq!(p.filled(), 32);
    assert_eq!(cert.clauses(), 729 + 1);
    checked(&cert);
}

#[test]
fn unique_through_the_solver_and_none_through_the_solver() {
    let p = grid(s9(), PLATINUM_BLONDE);
    let s = solve_unique(&p);
    let cert = certify(&p, &Outcome::Unique(s)).unwrap();
    assert!(cert.lemmas() > 10, "{}", cert.lemmas());
    checked(&cert);
    let none = platinum_no_solution();
    let cert = certify(&none, &Outcome::NoSolution).unwrap();
    assert_eq!(cert.status(), Status::None);
    checked(&cert);
}

#[test]
fn none_by_propagation_and_small_grids() {
    // 4x4: r1c3 sees 1 and 2 in its row, 3 and 4 in its column.
    let s4 = Shape::new(2, 2).unwrap();
    let p = grid(s4, "12.. .... ..3. ..4.");
    let units = Units::standard(s4);
    let o = DfsBackend::new()
        .solve(&units, &p, &Limits::unique())
        .unwrap()
        .outcome;
    assert_eq!(o, Outcome::NoSolution);
    checked(&certify(&p, &o).unwrap());
    // A full grid: the excluding clause is empty.
    let full = grid(s4, "1234 3412 2143 4321");
    let cert = certify(&full, &Outcome::Unique(full.clone())).unwrap();
    checked(&cert);
    // Equal givens in a unit: no solution, by propagation of the givens alone.
    let clash = grid(s4, "1..1 .... .... ....");
    checked(&certify(&clash, &Outcome::NoSolution).unwrap());
    // 6x6 (2x3 boxes).
    let s6 = Shape::new(2, 3).unwrap();
    let p6 = grid(s6, "1..... ..3... ...... ....5. ..2... .....6");
    let units6 = Units::standard(s6);
    let o6 = DfsBackend::new()
        .solve(&units6, &p6, &Limits::unique())
        .unwrap()
        .outcome;
    if matches!(o6, Outcome::Unique(_) | Outcome::NoSolution) {
        checked(&certify(&p6, &o6).unwrap());
    }
}

#[test]
fn false_claims_are_refuted_with_a_solution() {
    let p = grid(s9(), PLATINUM_BLONDE);
    let units = Units::standard(s9());
    match certify(&p, &Outcome::NoSolution) {
        Err(CertifyError::Refuted { solution, other }) => {
            assert!(!other);
            verify(&units, &p, &solution).unwrap();
        }
        r => panic!("{r:?}"),
    }
    // Several solutions (the empty 4x4 grid), one of them claimed unique.
    let s4 = Shape::new(2, 2).unwrap();
    let empty = Grid::empty(s4);
    let one = grid(s4, "1234 3412 2143 4321");
    match certify(&empty, &Outcome::Unique(one.clone())) {
        Err(CertifyError::Refuted { solution, other }) => {
            assert!(other);
            assert_ne!(*solution, one);
            verify(&Units::standard(s4), &empty, &solution).unwrap();
        }
        r => panic!("{r:?}"),
    }
    // A claimed solution that is no solution.
    let mut wrong = solve_unique(&p);
    wrong.set(
        Cell::new(0),
        Digit::new(wrong.get(Cell::new(0)).unwrap().get() % 9 + 1),
    );
    assert!(matches!(
        certify(&p, &Outcome::Unique(wrong)),
        Err(CertifyError::InvalidSolution { .. })
    ));
    // Nothing to certify.
    for o in [
        Outcome::Found(one.clone()),
        Outcome::Unknown {
            count: 0,
            first: None,
        },
    ] {
        assert!(matches!(
            certify(&empty, &o),
            Err(CertifyError::NotSettled { .. })
        ));
    }
    assert!(matches!(
        Certifier::new().certify(&units, &empty, &Outcome::NoSolution),
        Err(CertifyError::ShapeMismatch { .. })
    ));
}

#[test]
fn tampered_proofs_are_rejected() {
    let p = grid(s9(), PLATINUM_BLONDE);
    let cert = certify(&p, &Outcome::Unique(solve_unique(&p))).unwrap();
    cert.check().unwrap();
    // Without any lemma but the empty clause.
    let mut bare = cert.clone();
    bare.proof = Proof::new();
    bare.proof.add(&[]);
    assert!(matches!(bare.check(), Err(CheckError::Rejected { .. })));
    // Without the empty clause.
    let mut open = cert.clone();
    open.proof.remove_step(open.proof.len() - 1);
    assert!(matches!(open.check(), Err(CheckError::Incomplete)));
    // Some single lemma is needed: removing it is rejected, at that lemma or a later one.
    let rejected = (0..cert.proof.len() - 1).rev().find(|&i| {
        let mut t = cert.clone();
        t.proof.remove_step(i);
        t.check().is_err()
    });
    assert!(rejected.is_some());
    // The checker still accepts the original afterwards (its base was reset between checks).
    cert.check().unwrap();
}

/// The certificate of `platinum_no_solution` with its extra given (r1c1, the first unit clause)
/// changed back to the digit of the unique solution of Platinum Blonde: the CNF becomes
/// satisfiable, so no checker may accept the proof.
#[test]
fn a_changed_given_is_rejected() {
    let p = platinum_no_solution();
    let cert = certify(&p, &Outcome::NoSolution).unwrap();
    cert.check().unwrap();
    let right = solve_unique(&grid(s9(), PLATINUM_BLONDE))
        .get(Cell::new(0))
        .unwrap();
    let mut t = cert.clone();
    let mut extra = Formula::new();
    for (k, c) in cert.extra.clauses().enumerate() {
        if k == 0 {
            assert_eq!(cell_of(c[0]), 0);
            extra.add_clause(&[cell_lit(9, Cell::new(0), right)]);
        } else {
            extra.add_clause(c);
        }
    }
    t.extra = extra;
    assert!(t.check().is_err());
}

fn cell_of(l: Lit) -> usize {
    l.index() / 9
}

#[test]
fn a_zero_timeout_gives_no_proof_unless_propagation_decides() {
    let limits = Limits::first().with_timeout(Some(std::time::Duration::ZERO));
    let certifier = Certifier::new().with_limits(limits);
    let units = Units::standard(s9());
    let p = grid(s9(), PLATINUM_BLONDE);
    assert_eq!(
        certifier
            .certify(&units, &p, &Outcome::Unique(solve_unique(&p)))
            .err(),
        Some(CertifyError::Unknown)
    );
    let easy = grid(s9(), PE96_1);
    let cert = certifier
        .certify(&units, &easy, &Outcome::Unique(solve_unique(&easy)))
        .unwrap();
    cert.check().unwrap();
}

#[test]
fn file_names_are_plain() {
    let p = grid(s9(), PE96_1);
    let cert = certify(&p, &Outcome::Unique(solve_unique(&p))).unwrap();
    let dir = std::env::temp_dir();
    for bad in ["", ".", "..", "a/b", "a\\b"] {
        let e = cert.write_files(&dir, bad).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{bad:?}");
    }
}

/// Every solver compiled in writes proofs our checker accepts.
#[test]
fn every_solver_writes_checked_proofs() {
    let units = Units::standard(s9());
    let p = grid(s9(), PLATINUM_BLONDE);
    let s = solve_unique(&p);
    for solver in SatSolver::available() {
        let certifier = Certifier::new().with_solver(solver).unwrap();
        let cert = certifier
            .certify(&units, &p, &Outcome::Unique(s.clone()))
            .unwrap();
        assert_eq!(cert.solver(), solver);
        checked(&cert);
        let cert = certifier
            .certify(&units, &platinum_no_solution(), &Outcome::NoSolution)
            .unwrap();
        checked(&cert);
    }
}

/// Certificates under variant rules: the killer of `testing` (cage variables in the CNF) and the
/// published puzzles without cages are certified unique, and the CNF states the rules; a wrong cage
/// sum (no solution: the killer with its first cage's sum raised by 1, which the other cages then
/// cannot balance) is certified none.
#[test]
fn variant_certificates_check() {
    let (killer, solution) = crate::testing::wikipedia_killer();
    let empty = Grid::empty(killer.shape());
    let c = Certifier::new()
        .certify(&killer, &empty, &Outcome::Unique(solution.clone()))
        .unwrap();
    c.check().unwrap();
    let mut cnf = Vec::new();
    c.write_cnf(&mut cnf).unwrap();
    let text = String::from_utf8(cnf).unwrap();
    assert!(text.contains("\nc cage 3 r1c1 r1c2\n"), "{}", &text[..600]);
    let header = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
    let vars: usize = header.split(' ').nth(2).unwrap().parse().unwrap();
    assert!(vars > 729, "{header}");
    for p in crate::testing::published_variants().into_iter().take(3) {
        let c = Certifier::new()
            .certify(&p.units, &p.puzzle, &Outcome::Unique(p.solution.clone()))
            .unwrap();
        c.check().unwrap();
    }
    // A claim of `none` for the killer is refuted with its solution.
    match Certifier::new().certify(&killer, &empty, &Outcome::NoSolution) {
        Err(CertifyError::Refuted { solution: s, .. }) => assert_eq!(*s, solution),
        other => panic!("{other:?}"),
    }
}

/// What [`SatBackend::settle`] (the heart of [`Certifier::solve_unique`]) made of `puzzle` with
/// the warm second solve limited to `warm` conflicts, on `solver`: the settlement's claim (the
/// unique solution, or none) and certificate, the solver calls, and how many fresh
/// proof-recording solves it made.
fn settled_with_warm(
    solver: SatSolver,
    puzzle: &Grid,
    warm: u64,
) -> (Option<Grid>, Certificate, u64, usize) {
    use crate::sat::backend::{FRESH_PROOF_SOLVES, Proved, Settlement};
    let units = Units::standard(puzzle.shape());
    let certifier = Certifier::new().with_solver(solver).unwrap();
    let (backend, first_fresh) = certifier.backend(&units);
    let backend = backend.with_warm_conflicts(warm);
    let before = FRESH_PROOF_SOLVES.with(|n| n.get());
    let (settlement, stats) = backend.settle(&units, puzzle, &Limits::unique(), first_fresh);
    let fresh = FRESH_PROOF_SOLVES.with(|n| n.get()) - before;
    let (solution, proof) = match settlement {
        Settlement::Unique(g, Proved::Refutation(p), _) => (Some(*g), p),
        Settlement::NoSolution(Proved::Refutation(p)) => (None, p),
        _ => panic!("{solver}: not settled with a refutation"),
    };
    let cert = certifier.certificate(&units, puzzle, solution.as_ref(), proof);
    (solution, cert, stats.nodes, fresh)
}

/// CaDiCaL proves from the solver that answered: a unique puzzle and a puzzle without solution,
/// both needing the solver, get their proof from the solver that found the first solution (or
/// none), with no fresh proof-recording solve, whether the warm second solve refutes within its
/// conflicts or (limited to none) goes on past them as a new call; varisat, whose DRAT output
/// needs a fresh solver given every clause first, makes one. Every certificate checks, in memory
/// and from its bytes.
#[test]
fn cadical_proves_from_the_first_solve() {
    let unique = grid(s9(), PLATINUM_BLONDE);
    let solution = solve_unique(&unique);
    let none = platinum_no_solution();
    for solver in SatSolver::available() {
        let traced = solver == SatSolver::Cadical;
        for warm in [crate::sat::backend::WARM_SECOND_CONFLICTS, 0] {
            let what = format!("{solver}, warm {warm}");
            let (claim, cert, calls, fresh) = settled_with_warm(solver, &unique, warm);
            assert_eq!(claim.as_ref(), Some(&solution), "{what}");
            checked(&cert);
            assert_eq!(fresh, usize::from(!traced), "{what}: fresh proof solves");
            // The first solve, the warm one, and on CaDiCaL when that ran out, the same solver
            // going on (elsewhere: the fresh proof-recording solve).
            let expected = if warm == 0 { 3 } else { 2 + u64::from(!traced) };
            assert_eq!(calls, expected, "{what}: solver calls");
            let (claim, cert, calls, fresh) = settled_with_warm(solver, &none, warm);
            assert_eq!(claim, None, "{what}");
            assert_eq!(cert.status(), Status::None, "{what}");
            checked(&cert);
            assert_eq!(
                fresh,
                usize::from(!traced),
                "{what}: fresh proof solves (none)"
            );
            assert_eq!(calls, 1 + u64::from(!traced), "{what}: solver calls (none)");
        }
    }
}

/// A proof CaDiCaL records across solves stays a DRAT proof when, given the clause that excludes
/// the first solution, it restores clauses that it had set aside (its variable elimination or
/// substitution weakened them): a hard planted 25x25 puzzle where it does so is certified unique
/// from the first solve on, and the certificate checks (`rate` accepts it too: the integration
/// tests).
#[cfg(feature = "cadical")]
#[test]
fn cadical_proofs_survive_restored_clauses() {
    use crate::sat::solver::RESTORED;
    let text = include_str!("../../../fixtures/25x25-planted-hard.txt");
    let records = crate::format::read_str(text, "planted", crate::format::ReadOptions::default());
    let puzzle = records[0].puzzle.as_ref().unwrap().grid.clone();
    let before = RESTORED.with(|n| n.get());
    let (claim, cert, _, fresh) = settled_with_warm(SatSolver::Cadical, &puzzle, 256);
    let restored = RESTORED.with(|n| n.get()) - before;
    assert!(
        restored > 0,
        "no clause restored: the case is not exercised"
    );
    assert_eq!(fresh, 0);
    let units = Units::standard(puzzle.shape());
    verify(&units, &puzzle, claim.as_ref().unwrap()).unwrap();
    assert_eq!(cert.status(), Status::Unique);
    checked(&cert);
}

/// The first puzzle of Royle's 17-clue collection (`fixtures/17-clue-head200.txt`; unique).
const SEVENTEEN: &str =
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";

/// The clauses of a DIMACS text, each as its sorted literals, in order.
fn dimacs_clauses(text: &[u8]) -> Vec<Vec<isize>> {
    String::from_utf8_lossy(text)
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p') && !l.trim().is_empty())
        .map(|l| {
            let mut c: Vec<isize> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
            assert_eq!(c.pop(), Some(0), "{l}");
            c.sort_unstable();
            c
        })
        .collect()
}

/// A 17-clue puzzle's certificate holds a small part of the plain CNF (its 11,988 clauses of the
/// empty grid, 17 givens and the excluding clause): every clause but the last is one of the
/// puzzle's plain CNF as the encoder writes it for external solvers (the recipe the README gives
/// a reader), and the last is the clause excluding the solution.
#[test]
fn the_cnf_of_a_17_clue_puzzle_is_a_small_part_of_the_plain_cnf() {
    let p = grid(s9(), SEVENTEEN);
    let s = solve_unique(&p);
    let cert = certify(&p, &Outcome::Unique(s.clone())).unwrap();
    checked(&cert);
    assert!(cert.clauses() * 4 < 11988, "{}", cert.clauses());
    let (mut cnf, mut drat) = (Vec::new(), Vec::new());
    cert.write_cnf(&mut cnf).unwrap();
    cert.write_drat(&mut drat).unwrap();
    let units = Units::standard(s9());
    check_certificate(&units, &p, Some(&s), &cnf, &drat).unwrap();
    let mut plain = Vec::new();
    crate::sat::write_dimacs(&mut plain, &units, &p, Encoding::Extended, Amo::Pairwise).unwrap();
    let plain: HashSet<Vec<isize>> = dimacs_clauses(&plain).into_iter().collect();
    let mut clauses = dimacs_clauses(&cnf);
    assert_eq!(clauses.len(), cert.clauses());
    let excluding = clauses.pop().unwrap();
    assert!(clauses.iter().all(|c| plain.contains(c)));
    assert!(!plain.contains(&excluding));
    assert_eq!(excluding.len(), 81);
    let header = String::from_utf8_lossy(&cnf);
    assert!(header.contains(&format!("c puzzle {}\n", SEVENTEEN)));
    assert!(header.contains(&format!(": {} of the 11988 clauses", cert.clauses() - 18)));
}

/// The models of `clauses` over variables 1..=`vars`, counted by brute force (every assignment,
/// cut short where a clause is false).
fn count_models(clauses: &[Vec<Lit>], vars: usize) -> u64 {
    // The clauses by their highest variable: checked once it is assigned.
    let mut by_top: Vec<Vec<&[Lit]>> = vec![Vec::new(); vars];
    for c in clauses {
        let top = c.iter().map(|l| l.index()).max().expect("no empty clause");
        by_top[top].push(c);
    }
    fn go(v: usize, values: &mut Vec<bool>, by_top: &[Vec<&[Lit]>]) -> u64 {
        if v == by_top.len() {
            return 1;
        }
        let mut n = 0;
        for value in [false, true] {
            values.push(value);
            let ok = by_top[v]
                .iter()
                .all(|c| c.iter().any(|l| values[l.index()] == l.is_positive()));
            if ok {
                n += go(v + 1, values, by_top);
            }
            values.pop();
        }
        n
    }
    go(0, &mut Vec::new(), &by_top)
}

/// On 4x4 grids, the clauses a certificate keeps and the givens have exactly the models of the
/// whole plain CNF (with the givens), which are the puzzle's solutions as the native backend counts
/// them: several, one, none by propagation (a clash the givens' peers reach), none by a cell left
/// without a digit.
#[test]
fn the_kept_clauses_have_the_models_of_the_plain_cnf() {
    let s4 = Shape::new(2, 2).unwrap();
    let units = Units::standard(s4);
    let base = base_for(&units);
    let mut scratch = subset::Scratch::default();
    let puzzles = [
        "1... .... .... ...2",
        "12.. .... ..3. ....",
        "1.3. ..1. .4.. ...2",
        "12.. 3... .... ...4",
        "12.. .... ..3. ..4.",
        "1..1 .... .... ....",
        "1234 34.. 2... 4...",
        ".234 3.12 21.3 432.",
    ];
    let mut kinds = HashSet::new();
    let mut checked_from_checker = 0;
    for text in puzzles {
        let p = grid(s4, text);
        let givens: Vec<Lit> = (0..16)
            .filter_map(|i| p.get(Cell::new(i)).map(|d| cell_lit(4, Cell::new(i), d)))
            .collect();
        let kept = base.index.select(&givens, &mut scratch);
        assert!(kept.len() < base.formula.len(), "{text}");
        let with_givens = |mut clauses: Vec<Vec<Lit>>| {
            clauses.extend(givens.iter().map(|&g| vec![g]));
            count_models(&clauses, 64)
        };
        let subset = with_givens(
            kept.iter()
                .map(|&c| base.formula.clause(c as usize).to_vec())
                .collect(),
        );
        let whole = with_givens(base.formula.clauses().map(<[Lit]>::to_vec).collect());
        let solutions = DfsBackend::new()
            .solve(&units, &p, &Limits::count_to(1000))
            .unwrap()
            .outcome
            .count();
        assert_eq!((subset, whole), (solutions, solutions), "{text}");
        // Chosen from our checker's propagation of the givens (what a certificate does): the same
        // models; left to `select` when the givens propagate to a clash.
        let mut extra = Formula::new();
        for &g in &givens {
            extra.add_clause(&[g]);
        }
        let mut loaded = Loaded::new(&base);
        match loaded.load_and_select(7, &base, &extra, 0, &mut scratch) {
            Some(chosen) => {
                assert!(chosen.len() < base.formula.len(), "{text}");
                let models = with_givens(
                    chosen
                        .iter()
                        .map(|&c| base.formula.clause(c as usize).to_vec())
                        .collect(),
                );
                assert_eq!(models, solutions, "{text}");
                assert_eq!(loaded.ready, Some(7));
                checked_from_checker += 1;
            }
            None => assert_eq!(solutions, 0, "{text}"),
        }
        kinds.insert(solutions.min(2));
    }
    assert_eq!(kinds.len(), 3, "several, one and none");
    assert!(checked_from_checker > 0);
}

/// A clause that is not in the puzzle's plain CNF is rejected by the check of the files, naming its
/// line, even where the proof still refutes the CNF: a clause of the encoding changed, a unit
/// clause for a cell that is not a given, and, for `none`, an excluding clause. Without a clause
/// that forces a given's peer false, the proof no longer refutes the CNF.
#[test]
fn a_clause_not_in_the_plain_cnf_or_a_missing_one_is_rejected() {
    let units = Units::standard(s9());
    let p = grid(s9(), PE96_1);
    let s = solve_unique(&p);
    let cert = certify(&p, &Outcome::Unique(s.clone())).unwrap();
    let (mut cnf, mut drat) = (Vec::new(), Vec::new());
    cert.write_cnf(&mut cnf).unwrap();
    cert.write_drat(&mut drat).unwrap();
    check_certificate(&units, &p, Some(&s), &cnf, &drat).unwrap();
    let text = String::from_utf8(cnf).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let header = lines.iter().position(|l| l.starts_with("p cnf")).unwrap();
    // Line `at` (0-based) replaced by `with`.
    let edit = |at: usize, with: &str| -> Vec<u8> {
        let mut out: Vec<&str> = lines.clone();
        out[at] = with;
        (out.join("\n") + "\n").into_bytes()
    };
    let first = header + 1;
    // (x1 ∨ x2): no such clause in the encoding (its binary clauses are negative).
    for (at, with) in [(first, "1 2 0"), (first, "-1 0")] {
        match check_certificate(&units, &p, Some(&s), &edit(at, with), &drat) {
            Err(CheckError::Cnf { line, .. }) => assert_eq!(line, at + 1, "{with}"),
            r => panic!("{with}: {r:?}"),
        }
    }
    // The same file claims `none`: its last clause is then not the puzzle's.
    assert!(matches!(
        check_certificate(&units, &p, None, text.as_bytes(), &drat),
        Err(CheckError::Cnf { line, .. }) if line == lines.len()
    ));
    // A wrong solution.
    let mut wrong = s.clone();
    wrong.set(
        Cell::new(0),
        Digit::new(wrong.get(Cell::new(0)).unwrap().get() % 9 + 1),
    );
    assert!(matches!(
        check_certificate(&units, &p, Some(&wrong), text.as_bytes(), &drat),
        Err(CheckError::Claim { .. })
    ));
    // The binary clauses that force the peers of the given r1c3 = 3, x(0,2,3) = 21, false (and its
    // cell's other digits): without all of them, the proof does not refute the CNF (nor, here,
    // without some one of them; a reason nothing later needs can go, the CNF left still
    // unsatisfiable).
    let forcing: Vec<usize> = (first..lines.len())
        .filter(|&k| {
            let t: Vec<&str> = lines[k].split(' ').collect();
            t.len() == 3 && t.contains(&"-21")
        })
        .collect();
    assert!(forcing.len() > 10, "{}", forcing.len());
    let without = |ks: &[usize]| -> Vec<u8> {
        let kept: Vec<&str> = (0..lines.len())
            .filter(|k| !ks.contains(k))
            .map(|k| lines[k])
            .collect();
        let mut out = kept.join("\n") + "\n";
        out = out.replace(
            lines[header],
            &format!("p cnf 729 {}", cert.clauses() - ks.len()),
        );
        out.into_bytes()
    };
    let rejected = |ks: &[usize]| check_certificate(&units, &p, Some(&s), &without(ks), &drat);
    assert!(matches!(
        rejected(&forcing),
        Err(CheckError::Rejected { .. })
    ));
    assert!(forcing.iter().any(|&k| rejected(&[k]).is_err()));
}

/// A base too large to render at once (25x25: 750,000 clauses) writes its first certificates
/// clause by clause and later ones from its text, made after [`WRITTEN_BEFORE_TEXT`] of them: the
/// bytes are the same either way, and the checker accepts them.
#[test]
fn large_certificates_write_the_same_bytes_before_and_after_the_text_is_made() {
    let shape = Shape::new(5, 5).unwrap();
    let units = Units::standard(shape);
    let full = DfsBackend::new()
        .solve(&units, &Grid::empty(shape), &Limits::first())
        .unwrap()
        .outcome
        .solution()
        .unwrap()
        .clone();
    verify(&units, &Grid::empty(shape), &full).unwrap();
    // A blank on each row, in distinct columns: every blank is the last of its row (unique).
    let mut puzzle = full.clone();
    for r in 0..25 {
        puzzle.set(Cell::new(r * 25 + (r * 7) % 25), Digit::new(0));
    }
    let cert = certify(&puzzle, &Outcome::Unique(full)).unwrap();
    assert!(cert.base.formula.len() > PRERENDERED_CLAUSES);
    assert!(cert.base.text.get().is_none(), "rendered at once");
    let mut first = Vec::new();
    cert.write_cnf(&mut first).unwrap();
    for k in 1..=WRITTEN_BEFORE_TEXT + 2 {
        let mut again = Vec::new();
        cert.write_cnf(&mut again).unwrap();
        assert!(again == first, "write {k} differs");
    }
    assert!(cert.base.text.get().is_some(), "never rendered");
    let mut drat = Vec::new();
    cert.write_drat(&mut drat).unwrap();
    check_drat(&first, &drat).unwrap();
    check_certificate(&units, &puzzle, cert.solution.as_ref(), &first, &drat).unwrap();
}

/// The checker loaded by counting ([`Checker::add_units`], what certificates use) and loaded one
/// unit clause at a time through the watches ([`Checker::add_clause`], the general path) agree on
/// many puzzles of three sizes, with and without the excluding clause, and with a given changed so
/// that propagation ends in a conflict: the same inconsistency, the same top-level literals; the
/// certificates' proofs check on the checker loaded by counting, and a lemma that does not follow
/// is rejected by it (its watches after the counting load still propagate).
#[test]
fn the_counting_load_agrees_with_the_clause_by_clause_load() {
    let nines = include_str!("../../../fixtures/17-clue-royle-head50.txt")
        .lines()
        .chain(include_str!("../../../fixtures/forum-hardest-1905-11plus-head200.txt").lines())
        .chain(include_str!("../../../fixtures/pe96.txt").lines())
        .filter(|l| !l.starts_with('#') && l.trim().len() >= 81)
        .filter(|l| l.as_bytes()[0].is_ascii_digit() || l.as_bytes()[0] == b'.')
        .map(|l| grid(s9(), &l[..81]))
        .step_by(3)
        .take(40);
    let others = ["16x16-sudoku-acs-sample.txt", "25x25-sudoku-acs-sample.txt"]
        .iter()
        .flat_map(|f| {
            let text = match *f {
                "16x16-sudoku-acs-sample.txt" => {
                    include_str!("../../../fixtures/16x16-sudoku-acs-sample.txt")
                }
                _ => include_str!("../../../fixtures/25x25-sudoku-acs-sample.txt"),
            };
            crate::format::read_str(text, f, crate::format::ReadOptions::default())
                .into_iter()
                .filter_map(|r| r.puzzle.ok().map(|p| p.grid))
                .take(2)
        });
    let (mut compared, mut conflicts, mut open, mut selected) = (0, 0, 0, 0);
    for puzzle in nines.chain(others) {
        let units = Units::standard(puzzle.shape());
        let Outcome::Unique(solution) = DfsBackend::new()
            .solve(&units, &puzzle, &Limits::unique())
            .unwrap()
            .outcome
        else {
            continue;
        };
        let n = puzzle.shape().n();
        // The puzzle, then (a given changed to another digit) one whose givens may clash.
        let mut changed = puzzle.clone();
        let first = (0..puzzle.shape().cells())
            .map(Cell::new)
            .find(|&c| puzzle.get(c).is_some())
            .unwrap();
        let d = puzzle.get(first).unwrap().get() % n as u16 + 1;
        changed.set(first, Digit::new(d));
        for (p, excluded) in [
            (&puzzle, Some(&solution)),
            (&puzzle, None),
            (&changed, None),
        ] {
            let mut extra = Formula::new();
            for c in (0..p.shape().cells()).map(Cell::new) {
                if let Some(d) = p.get(c) {
                    extra.add_clause(&[cell_lit(n, c, d)]);
                }
            }
            if let Some(s) = excluded {
                let clause: Vec<Lit> = (0..p.shape().cells())
                    .map(Cell::new)
                    .filter_map(|c| s.get(c).map(|d| !cell_lit(n, c, d)))
                    .collect();
                extra.add_clause(&clause);
            }
            let base = base_for(&units);
            let mut counting = Loaded::new(&base);
            let mut general = Loaded::new(&base);
            // Twice on the same checkers: the second load starts from the first's watches.
            for _ in 0..2 {
                counting.load(&base, &extra);
                general.checker.reset_to_base();
                for &c in &base.unit_clauses {
                    general.checker.add_clause(base.formula.clause(c as usize));
                }
                for c in extra.clauses() {
                    general.checker.add_clause(c);
                }
                let (a, b) = (&counting.checker, &general.checker);
                assert_eq!(
                    a.is_inconsistent(),
                    b.is_inconsistent(),
                    "{}",
                    givens_string(p)
                );
                if a.is_inconsistent() {
                    conflicts += 1;
                    continue;
                }
                let top = |c: &Checker| c.top_level().map(|(l, _)| l).collect::<HashSet<Lit>>();
                assert_eq!(top(a), top(b), "{}", givens_string(p));
                open += usize::from(top(a).len() < n * n * n);
                compared += 1;
            }
            // The kept clauses found through the reasons' places in the implication lists are
            // those of looking each binary reason up in the index (the same literals; of a pair
            // given twice, either copy).
            let excluding = usize::from(excluded.is_some());
            let mut scratch = subset::Scratch::default();
            let Some(fast) = counting.load_and_select(0, &base, &extra, excluding, &mut scratch)
            else {
                continue;
            };
            let checker = &counting.checker;
            let saved = counting.ids.len();
            let reasons: Vec<(Lit, u32)> = checker
                .top_level()
                .filter_map(|(l, r)| match r {
                    Reason::Clause(id) if (id as usize) < saved => {
                        Some((l, counting.ids[id as usize]))
                    }
                    Reason::Clause(id) => {
                        base.unit_clauses.get(id as usize - saved).map(|&c| (l, c))
                    }
                    Reason::Binary(a) => Some((l, base.index.binary_clause(a, l).unwrap())),
                    Reason::Assumed => None,
                })
                .collect();
            let givens = extra.clauses().take(extra.len() - excluding).map(|c| c[0]);
            let general = base.index.select_from(
                givens,
                reasons.into_iter(),
                |l| checker.is_open(l),
                |l| checker.is_true(l),
                &mut scratch,
            );
            let lits = |kept: &[u32]| {
                let mut v: Vec<Box<[Lit]>> = kept
                    .iter()
                    .map(|&c| sorted(base.formula.clause(c as usize).iter().copied()))
                    .collect();
                v.sort();
                v
            };
            assert_eq!(lits(&fast), lits(&general), "{}", givens_string(p));
            selected += 1;
        }
        // The certificate's proof checks on a checker loaded by counting (a fresh one, and the
        // thread's, which `Certificate::check` reloads), and a false lemma is rejected by it.
        let cert = certify(&puzzle, &Outcome::Unique(solution.clone())).unwrap();
        let mut fresh = Loaded::new(&cert.base);
        fresh.load(&cert.base, &cert.extra);
        cert.check_with(&mut fresh.checker, &mut Checker::new())
            .unwrap();
        cert.check().unwrap();
        if !fresh.checker.is_inconsistent() {
            // The givens without the excluding clause (satisfiable), and the lemma that the
            // solution's first open cell does not hold its digit: neither RUP nor RAT.
            let mut givens = Formula::new();
            for c in cert.extra.clauses().take(cert.extra.len() - 1) {
                givens.add_clause(c);
            }
            fresh.load(&cert.base, &givens);
            let cell = (0..puzzle.shape().cells())
                .map(Cell::new)
                .find(|&c| puzzle.get(c).is_none())
                .unwrap();
            let lemma = [!cell_lit(n, cell, solution.get(cell).unwrap())];
            let steps: Vec<(bool, &[Lit])> = vec![(false, &lemma[..]), (false, &[])];
            assert!(
                fresh.checker.check(steps).is_err(),
                "{}",
                givens_string(&puzzle)
            );
        }
    }
    // Every kind met: consistent loads (some leaving cells open) and conflicts.
    assert!(
        compared >= 60 && open >= 20 && conflicts >= 10 && selected >= 30,
        "{compared} {open} {conflicts} {selected}"
    );
}

/// Copying the kept clauses' lines from the pre-rendered text (runs of consecutive clauses at
/// once) gives the lines of those clauses rendered one by one, for kept sets of every kind: none,
/// all, every other, runs, the last clause alone.
#[test]
fn copied_lines_are_the_kept_clauses_lines() {
    let units = Units::standard(s9());
    let base = base_for(&units);
    let (text, ends) = base.text.get().expect("a 9x9 base is rendered at once");
    let all: Vec<u32> = (0..base.formula.len() as u32).collect();
    let sets: Vec<Vec<u32>> = vec![
        Vec::new(),
        all.clone(),
        all.iter().copied().step_by(2).collect(),
        all.iter().copied().filter(|c| c % 7 < 3).collect(),
        // The long clauses and their neighbours.
        all.iter()
            .copied()
            .filter(|&c| base.formula.clause(c as usize).len() > 2 || c % 97 == 0)
            .collect(),
        vec![all.len() as u32 - 1],
    ];
    for kept in sets {
        let mut copied = Vec::new();
        copy_runs(&mut copied, &kept, text, ends);
        let mut rendered = Vec::new();
        for &c in &kept {
            for &l in base.formula.clause(c as usize) {
                push_dimacs(&mut rendered, l);
            }
            rendered.extend_from_slice(b"0\n");
        }
        assert_eq!(copied, rendered, "{} kept", kept.len());
    }
}

/// A base loaded from the index's implication lists ([`Loaded::new`]) is the checker that adding
/// every clause one by one makes: the same implications of every literal, the same stored clauses.
#[test]
fn a_base_from_the_implication_lists_is_the_clause_by_clause_base() {
    for shape in [s9(), Shape::new(2, 3).unwrap(), Shape::new(4, 4).unwrap()] {
        let units = Units::standard(shape);
        let base = base_for(&units);
        let loaded = Loaded::new(&base);
        let mut plain = Checker::new();
        for c in base.formula.clauses().filter(|c| c.len() != 1) {
            plain.add_clause(c);
        }
        plain.save_base();
        assert_eq!(loaded.checker.stored(), plain.stored());
        let mut implications = 0;
        for code in 0..2 * (base.max_var + 1) {
            let a = Lit::from_code(code);
            assert_eq!(
                loaded.checker.implications(a),
                plain.implications(a),
                "{shape} {code}"
            );
            implications += plain.implications(a).len();
            // Each implication's clause in the base, for choosing the kept clauses.
            let ids = &loaded.imp_ids
                [loaded.imp_start[code] as usize..loaded.imp_start[code + 1] as usize];
            assert_eq!(ids.len(), plain.implications(a).len(), "{shape} {code}");
            for (&m, &c) in plain.implications(a).iter().zip(ids) {
                assert_eq!(
                    sorted(base.formula.clause(c as usize).iter().copied()),
                    sorted([!a, m].into_iter()),
                    "{shape} {code}"
                );
            }
            // The index's lists (counting-sorted) ascend by code, for its binary search.
            let list = base.index.implied_by(a);
            assert!(list.windows(2).all(|w| w[0].0.code() <= w[1].0.code()));
            for &(m, c) in list {
                assert_eq!(
                    base.index
                        .binary_clause(a, m)
                        .map(|k| { sorted(base.formula.clause(k as usize).iter().copied()) }),
                    Some(sorted([!a, m].into_iter()))
                );
                assert!(base.formula.clause(c as usize).contains(&m));
            }
        }
        assert!(implications > 0);
    }
}

/// `subset::flat` lists each key's items in the order the entries give them, keys with none
/// empty: the lists a vector per key makes, for flattened entries (`flat_map`, whose internal
/// iteration `flat` uses) and plain ones.
#[test]
fn flat_lists_are_the_lists_of_a_vector_per_key() {
    let keys = 7;
    let entries = || {
        (0..40u32).flat_map(|i| {
            [
                ((i as usize * 5) % keys, i),
                ((i as usize * i as usize) % 3, 1000 + i),
            ]
        })
    };
    let (items, start) = subset::flat(keys, entries, 0);
    let mut lists = vec![Vec::new(); keys];
    for (k, x) in entries() {
        lists[k].push(x);
    }
    assert_eq!(start.len(), keys + 1);
    for (k, list) in lists.iter().enumerate() {
        assert_eq!(
            &items[start[k] as usize..start[k + 1] as usize],
            &list[..],
            "key {k}"
        );
    }
    let (items, start) = subset::flat(3, || [(2, 'a'), (0, 'b'), (2, 'c')].into_iter(), ' ');
    assert_eq!((items, start), (vec!['b', 'a', 'c'], vec![0, 1, 1, 3]));
}

/// The reduced checker ([`Checker::reduced`], which skips the implication lists of literals
/// already false) has as binary clauses exactly the base's clauses that the givens' propagation
/// leaves unsatisfied with two open literals (binary ones, and longer ones with the rest false),
/// over those literals: on a 9x9 puzzle the solver has to search, and on one that propagation
/// solves (none).
#[test]
fn the_reduced_checker_keeps_the_open_binary_clauses() {
    let units = Units::standard(s9());
    let base = base_for(&units);
    let puzzles = [grid(s9(), PLATINUM_BLONDE), grid(s9(), PE96_1)];
    for (k, p) in puzzles.iter().enumerate() {
        let mut extra = Formula::new();
        for (i, &v) in p.values().iter().enumerate() {
            if v != 0 {
                extra.add_clause(&[crate::sat::vars::cell_lit_at(9, i, v as usize - 1)]);
            }
        }
        let mut loaded = Loaded::new(&base);
        loaded.load(&base, &extra);
        let checker = &mut loaded.checker;
        let mut expected = HashSet::new();
        for c in base.formula.clauses() {
            if c.iter().any(|&l| checker.is_true(l)) {
                continue;
            }
            let open: Vec<Lit> = c
                .iter()
                .copied()
                .filter(|&l| !checker.is_true(!l))
                .collect();
            // At a fixpoint without conflict, an unsatisfied clause has two open literals or more.
            assert!(open.len() >= 2, "puzzle {k}: {c:?}");
            if let [a, b] = open[..]
                && a.index() != b.index()
            {
                expected.insert(sorted([a, b].into_iter()));
            }
        }
        let reduced = checker.reduced();
        let mut got = HashSet::new();
        for code in 0..2 * (base.max_var + 1) {
            let a = Lit::from_code(code);
            for &m in reduced.implications(a) {
                got.insert(sorted([!a, m].into_iter()));
            }
        }
        assert_eq!(got, expected, "puzzle {k}");
        assert_eq!(
            expected.is_empty(),
            k == 1,
            "puzzle {k}: PE96 1 is solved by propagation"
        );
    }
}

/// The reduced checker that [`Certificate::check`] builds into the thread's kept one
/// ([`Checker::reduce_into`], on the large plain CNFs of 16x16 and 25x25) and the general path (the
/// full plain CNF under the givens, unreduced) agree on the certificates of a 16x16 and a hard
/// 25x25 puzzle (proofs of ~2,400 and ~19,000 steps): both accept each proof, and with a step
/// removed or the proof cut short (at six places each) both accept or both reject; some are
/// rejected.
#[test]
fn the_reused_reduced_checker_agrees_with_the_full_one() {
    let samples = [
        include_str!("../../../fixtures/16x16-poj3076-sample.txt"),
        include_str!("../../../fixtures/25x25-planted-hard.txt"),
    ];
    let (mut compared, mut rejected, mut long) = (0, 0, 0);
    for text in samples {
        let records =
            crate::format::read_str(text, "sample", crate::format::ReadOptions::default());
        for p in records
            .iter()
            .filter_map(|r| r.puzzle.as_ref().ok())
            .take(3)
        {
            let units = Units::standard(p.grid.shape());
            let settled = Certifier::new().solve_unique(&units, &p.grid).unwrap();
            let Some(cert) = settled.certificate else {
                continue;
            };
            assert!(cert.base.formula.len() > REDUCE_FROM, "the reduced path");
            long += usize::from(cert.proof.len() > 1);
            // The general path: a fresh checker of the plain CNF with the givens, unreduced.
            let full = |c: &Certificate| {
                let mut own = Loaded::new(&c.base);
                own.load(&c.base, &c.extra);
                own.checker.check(c.proof.steps()).is_ok()
            };
            assert!(cert.check().is_ok() && full(&cert));
            let len = cert.proof.len();
            for k in 1..=6 {
                let i = len * k / 7;
                // Step i removed; the proof cut after step i, the empty clause put back.
                let mut removed = cert.clone();
                removed.proof.remove_step(i);
                let mut cut = cert.clone();
                cut.proof = Proof::new();
                for (d, c) in cert.proof.steps().take(i) {
                    if d {
                        cut.proof.delete(c);
                    } else {
                        cut.proof.add(c);
                    }
                }
                cut.proof.add(&[]);
                for t in [removed, cut] {
                    let general = full(&t);
                    assert_eq!(t.check().is_ok(), general, "step {i} of {len}");
                    rejected += usize::from(!general);
                    compared += 1;
                }
            }
        }
    }
    assert!(
        long > 0 && compared > 0 && rejected > 0,
        "{long} {compared} {rejected}"
    );
}

/// The first 17-clue puzzles of the fixture (Royle's collection).
fn seventeen_clue(count: usize) -> Vec<Grid> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/17-clue-head200.txt");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(count)
        .map(|l| grid(s9(), &l[..81]))
        .collect()
}

/// The DIMACS header's clause count and the `c kept:` line of a written CNF.
fn header(cnf: &[u8]) -> (usize, String) {
    let text = String::from_utf8_lossy(cnf);
    let clauses = text
        .lines()
        .find_map(|l| l.strip_prefix("p cnf "))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap();
    let kept = text.lines().find(|l| l.starts_with("c kept:")).unwrap();
    (clauses, kept.to_string())
}

#[test]
fn a_checked_certificate_writes_what_its_check_used() {
    let (mut cores, mut alls) = (0, 0);
    for p in seventeen_clue(12) {
        let cert = certify(&p, &Outcome::Unique(solve_unique(&p))).unwrap();
        // Written before any check: the clauses that matter once the givens are known.
        let unchecked = cert.clone();
        let (mut cnf_all, mut drat_all) = (Vec::new(), Vec::new());
        unchecked.write_cnf(&mut cnf_all).unwrap();
        unchecked.write_drat(&mut drat_all).unwrap();
        // Checked, then written: what the check used, and the proof trimmed to it.
        cert.check().unwrap();
        let (mut cnf, mut drat) = (Vec::new(), Vec::new());
        cert.write_cnf(&mut cnf).unwrap();
        cert.write_drat(&mut drat).unwrap();
        let (all, all_kept) = header(&cnf_all);
        let (core, core_kept) = header(&cnf);
        assert!(all_kept.contains("equivalent CNF"), "{all_kept}");
        assert!(
            core_kept.contains("our check of the proof used"),
            "{core_kept}"
        );
        assert_eq!(core, cert.clauses());
        assert!(cert.lemmas() <= unchecked.lemmas());
        assert!(core < all, "{core} of {all}");
        (cores, alls) = (cores + core, alls + all);
        // Each refutes its own CNF.
        check_drat(&cnf_all, &drat_all).unwrap();
        check_drat(&cnf, &drat).unwrap();
    }
    // Less than half in all (these: 450-600 clauses against 730-2,600; 730 where the givens'
    // propagation settles every cell).
    assert!(2 * cores < alls, "{cores} of {alls}");
}

/// A proof CaDiCaL wrote for this 17-clue puzzle (`fixtures/repro/17-clue-cadical-untrimmed.drat`)
/// refutes the plain CNF, but not the part of it that our check used: there, a checker's
/// propagation reaches the conflict through a lemma the check did not need, and that lemma
/// follows only from clauses outside it. The certificate therefore carries the proof trimmed to
/// the lemmas the check used.
#[test]
fn the_core_is_written_with_the_proof_trimmed_to_it() {
    let p = grid(
        s9(),
        ".................1..2..3.4......5.....6.27....1....3.4...6...2....81.....8.....7.",
    );
    let mut cert = certify(&p, &Outcome::Unique(solve_unique(&p))).unwrap();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/repro/17-clue-cadical-untrimmed.drat"
    );
    let untrimmed = std::fs::read(path).unwrap();
    cert.proof = Proof::parse(&untrimmed).unwrap();
    cert.kept = OnceLock::new();
    cert.check().unwrap();
    let (mut cnf, mut drat) = (Vec::new(), Vec::new());
    cert.write_cnf(&mut cnf).unwrap();
    cert.write_drat(&mut drat).unwrap();
    assert!(header(&cnf).1.contains("our check of the proof used"));
    assert!(cert.lemmas() < cert.proof.len());
    check_drat(&cnf, &drat).unwrap();
    assert!(matches!(
        check_drat(&cnf, &untrimmed),
        Err(CheckError::Rejected { .. })
    ));
}

#[test]
fn a_contradiction_of_the_givens_alone_has_a_core() {
    // 4x4: r1c3 sees 1 and 2 in its row, 3 and 4 in its column; and a unique 9x9 puzzle that
    // propagation solves, whose excluding clause propagation refutes.
    let s4 = Shape::new(2, 2).unwrap();
    let none = grid(s4, "12.. .... ..3. ..4.");
    let easy = grid(s9(), PE96_1);
    for cert in [
        certify(&none, &Outcome::NoSolution).unwrap(),
        certify(&easy, &Outcome::Unique(solve_unique(&easy))).unwrap(),
    ] {
        cert.check().unwrap();
        let (mut cnf, mut drat) = (Vec::new(), Vec::new());
        cert.write_cnf(&mut cnf).unwrap();
        cert.write_drat(&mut drat).unwrap();
        assert!(header(&cnf).1.contains("our check of the proof used"));
        assert_eq!(drat, b"0\n");
        check_drat(&cnf, &drat).unwrap();
    }
}
