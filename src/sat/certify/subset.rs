//! The certificate's CNF: the clauses of a puzzle's plain encoding that matter once its givens are
//! known, chosen by unit propagation of the givens.
//!
//! Unit propagation of the givens (and of the encoding's own unit clauses) over the plain encoding
//! of the empty grid assigns some literals, each implied by one clause, its reason. The subset
//! keeps, of the encoding of the empty grid, each reason and every clause that this assignment
//! does not satisfy; when propagation ends in a conflict, the reasons and the clause found false.
//! With the givens' unit clauses it is equivalent to the whole plain CNF: every model of the subset
//! makes the givens true, then, reason by reason, every literal propagation assigned, and so
//! satisfies every clause left out (each is satisfied by that assignment). Unit propagation reaches
//! the same conclusions in both from any further assignment, so a proof's lemmas are RUP (and RAT)
//! in one exactly when in the other. And being clauses of the plain CNF, its refutation refutes
//! the plain CNF whatever was left out.
//!
//! A certificate takes the propagation from our checker ([`Index::select_from`]), which propagates
//! the givens over the plain CNF for the check anyway; [`Index::select`] propagates on its own (when
//! the givens propagate to a conflict, or the checker is busy).

use crate::sat::lit::Lit;
use crate::sat::sink::Formula;

const UNSET: i8 = 0;
const TRUE: i8 = 1;
const FALSE: i8 = -1;

/// The reason of a literal that is a given (its unit clause is not in the formula).
const GIVEN: u32 = u32::MAX;

/// The plain encoding of the empty grid, indexed for unit propagation: lists flat, each list's
/// entries `list[start[i]..start[i + 1]]`.
#[derive(Debug, Default)]
pub(crate) struct Index {
    /// Per literal code l: (m, c) for each binary clause c = (¬l ∨ m) of two different literals:
    /// what l true implies, by m's code.
    imp: Vec<(Lit, u32)>,
    imp_start: Vec<u32>,
    /// Per variable v: (b, c) for each binary clause c = (a ∨ b) of two variables of which v, the
    /// variable of a, is the lower.
    pairs: Vec<(Lit, u32)>,
    pairs_start: Vec<u32>,
    /// The other clauses (one literal, or three and more): their index in the formula, and their
    /// literals.
    long: Vec<u32>,
    long_lits: Vec<Lit>,
    long_start: Vec<u32>,
    /// Per literal code: the positions in `long` of the clauses that hold it.
    occ: Vec<u32>,
    occ_start: Vec<u32>,
    /// Variables (the formula's largest DIMACS number).
    vars: usize,
    /// Clauses in the formula.
    clauses: usize,
}

/// The assignment of one propagation, reused between puzzles.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    /// Per literal code.
    values: Vec<i8>,
    /// Per variable: the clause that implied its value, or [`GIVEN`].
    reasons: Vec<u32>,
    trail: Vec<Lit>,
    /// Per position in [`Index::long`]: how many of its literals are false, or [`SATISFIED`].
    false_count: Vec<u32>,
    /// Per clause, a bit: kept.
    keep: Vec<u64>,
    /// Per literal code, a bit: a given ([`Index::select_from`]).
    given: Vec<u64>,
}

/// A long clause's count once one of its literals is true.
const SATISFIED: u32 = u32::MAX;

/// Lists of items per key, flat: items and where each key's list starts, filled in two passes
/// over `entries` (counting, then placing), with no list of its own per key (`fill` is overwritten).
pub(super) fn flat<T: Copy, I: Iterator<Item = (usize, T)>>(
    keys: usize,
    entries: impl Fn() -> I,
    fill: T,
) -> (Vec<T>, Vec<u32>) {
    // `for_each`, not `for`: the entries are flattened lists (`flat_map`), whose internal
    // iteration runs each inner list as a loop of its own instead of one `next` call an entry.
    let mut start = vec![0u32; keys + 1];
    entries().for_each(|(k, _)| start[k + 1] += 1);
    for k in 0..keys {
        start[k + 1] += start[k];
    }
    let mut next = start.clone();
    let mut items = vec![fill; start[keys] as usize];
    entries().for_each(|(k, item)| {
        items[next[k] as usize] = item;
        next[k] += 1;
    });
    (items, start)
}

impl Index {
    /// Indexes `formula`, whose variables are at most `vars` (DIMACS numbers).
    pub(crate) fn new(formula: &Formula, vars: usize) -> Index {
        let codes = 2 * (vars + 1);
        let binary = |c: &[Lit]| matches!(*c, [a, b] if a != b);
        let binaries = || {
            formula
                .clauses()
                .enumerate()
                .filter(|(_, c)| binary(c))
                .map(|(i, c)| (i as u32, c[0], c[1]))
        };
        // Each list sorted by the implied literal's code, for [`Index::binary_clause`]: a counting
        // sort, the entries listed first by that literal, then (in that order) by the implying one.
        let (by_implied, by_implied_start) = flat(
            codes,
            || {
                binaries().flat_map(|(i, a, b)| {
                    [
                        (b.code(), ((!a).code() as u32, i)),
                        (a.code(), ((!b).code() as u32, i)),
                    ]
                })
            },
            (0, 0),
        );
        let (imp, imp_start) = flat(
            codes,
            || {
                (0..codes).flat_map(|m| {
                    let list =
                        &by_implied[by_implied_start[m] as usize..by_implied_start[m + 1] as usize];
                    list.iter()
                        .map(move |&(l, i)| (l as usize, (Lit::from_code(m), i)))
                })
            },
            (Lit::from_code(0), 0),
        );
        drop(by_implied);
        let (pairs, pairs_start) = flat(
            vars + 1,
            || {
                binaries().map(|(i, a, b)| {
                    let (a, b) = if a.index() < b.index() {
                        (a, b)
                    } else {
                        (b, a)
                    };
                    (a.index(), (b, i))
                })
            },
            (Lit::from_code(0), 0),
        );
        let (mut long, mut long_lits, mut long_start) = (Vec::new(), Vec::new(), vec![0]);
        for (i, c) in formula.clauses().enumerate().filter(|(_, c)| !binary(c)) {
            long.push(i as u32);
            long_lits.extend_from_slice(c);
            long_start.push(long_lits.len() as u32);
        }
        let (occ, occ_start) = flat(
            codes,
            || {
                (0..long.len()).flat_map(|k| {
                    let (s, e) = (long_start[k] as usize, long_start[k + 1] as usize);
                    long_lits[s..e].iter().map(move |l| (l.code(), k as u32))
                })
            },
            0,
        );
        Index {
            imp,
            imp_start,
            pairs,
            pairs_start,
            long,
            long_lits,
            long_start,
            occ,
            occ_start,
            vars,
            clauses: formula.len(),
        }
    }

    fn implied(&self, l: Lit) -> &[(Lit, u32)] {
        &self.imp[self.imp_start[l.code()] as usize..self.imp_start[l.code() + 1] as usize]
    }

    fn holding(&self, l: Lit) -> &[u32] {
        &self.occ[self.occ_start[l.code()] as usize..self.occ_start[l.code() + 1] as usize]
    }

    fn long_clause(&self, k: usize) -> &[Lit] {
        &self.long_lits[self.long_start[k] as usize..self.long_start[k + 1] as usize]
    }

    /// The clauses of the formula indexed that the certificate of a puzzle with the given
    /// literals `givens` keeps, as ascending clause indices (see the module's doc).
    pub(crate) fn select(&self, givens: &[Lit], s: &mut Scratch) -> Vec<u32> {
        let codes = 2 * (self.vars + 1);
        s.values.clear();
        s.values.resize(codes, UNSET);
        s.reasons.clear();
        s.reasons.resize(self.vars + 1, GIVEN);
        s.trail.clear();
        s.false_count.clear();
        s.false_count.resize(self.long.len(), 0);
        s.keep.clear();
        s.keep.resize(self.clauses.div_ceil(64), 0);
        let conflict = self.propagate(givens, s);
        for &l in &s.trail {
            let r = s.reasons[l.index()];
            if r != GIVEN {
                set(&mut s.keep, r);
            }
        }
        match conflict {
            // A given the propagation of the others made false: the reasons refute it.
            Some(GIVEN) => {}
            Some(c) => set(&mut s.keep, c),
            None => {
                let values = std::mem::take(&mut s.values);
                self.keep_unsatisfied(
                    |l| values[l.code()] == UNSET,
                    |l| values[l.code()] == TRUE,
                    &mut s.keep,
                );
                s.values = values;
            }
        }
        kept_list(&s.keep)
    }

    /// The clauses a certificate keeps, as [`Index::select`] chooses them, from a propagation made
    /// elsewhere (ended without conflict) from the literals `givens`: `reasons`, each literal it
    /// assigned with the clause (index in the formula) that implied it, and what it left `open` and
    /// made `true`.
    pub(crate) fn select_from(
        &self,
        givens: impl Iterator<Item = Lit>,
        reasons: impl Iterator<Item = (Lit, u32)>,
        open: impl Fn(Lit) -> bool,
        true_: impl Fn(Lit) -> bool,
        s: &mut Scratch,
    ) -> Vec<u32> {
        // A given that the others imply keeps no reason (as in `select`, which assigns the givens
        // first).
        s.given.clear();
        s.given.resize((2 * (self.vars + 1)).div_ceil(64), 0);
        for g in givens {
            set(&mut s.given, g.code() as u32);
        }
        s.keep.clear();
        s.keep.resize(self.clauses.div_ceil(64), 0);
        for (l, r) in reasons {
            let code = l.code();
            if s.given
                .get(code / 64)
                .is_none_or(|w| w >> (code % 64) & 1 == 0)
            {
                set(&mut s.keep, r);
            }
        }
        self.keep_unsatisfied(open, true_, &mut s.keep);
        kept_list(&s.keep)
    }

    /// The binary clauses (¬a ∨ m) of the formula: (m, the clause's index), ascending by m's code
    /// (a clause given twice is there twice).
    pub(crate) fn implied_by(&self, a: Lit) -> &[(Lit, u32)] {
        if a.code() + 1 < self.imp_start.len() {
            self.implied(a)
        } else {
            &[]
        }
    }

    /// The index of a binary clause (¬a ∨ l) of the formula, if any.
    pub(crate) fn binary_clause(&self, a: Lit, l: Lit) -> Option<u32> {
        let list = self.implied(a);
        let k = list.binary_search_by_key(&l.code(), |e| e.0.code()).ok()?;
        Some(list[k].1)
    }

    /// Marks in `keep` the clauses an assignment without conflict (at a fixpoint of unit
    /// propagation) does not satisfy: the binary ones over two `open` literals (a binary clause
    /// with a false literal has its other literal true), the others without a `true_` literal.
    fn keep_unsatisfied(
        &self,
        open: impl Fn(Lit) -> bool,
        true_: impl Fn(Lit) -> bool,
        keep: &mut [u64],
    ) {
        for v in 0..self.vars {
            if !open(Lit::from_code(2 * v)) {
                continue;
            }
            let pairs = &self.pairs[self.pairs_start[v] as usize..self.pairs_start[v + 1] as usize];
            // Without a branch: about half are kept, unpredictably.
            for &(b, c) in pairs {
                let o = u64::from(open(b));
                keep[c as usize / 64] |= o << (c % 64);
            }
        }
        for (k, &c) in self.long.iter().enumerate() {
            if !self.long_clause(k).iter().any(|&l| true_(l)) {
                set(keep, c);
            }
        }
    }

    /// Makes `l` true (`reason` its reason), or returns `reason` if `l` is false.
    #[inline(always)]
    fn assign(&self, s: &mut Scratch, l: Lit, reason: u32) -> Option<u32> {
        match s.values[l.code()] {
            TRUE => None,
            FALSE => Some(reason),
            _ => {
                s.values[l.code()] = TRUE;
                s.values[(!l).code()] = FALSE;
                s.reasons[l.index()] = reason;
                s.trail.push(l);
                for &k in self.holding(l) {
                    s.false_count[k as usize] = SATISFIED;
                }
                None
            }
        }
    }

    /// Unit propagation of `givens` and the formula's unit clauses to a fixpoint, in `s`; the
    /// clause found false ([`GIVEN`] for a given found false), if any.
    fn propagate(&self, givens: &[Lit], s: &mut Scratch) -> Option<u32> {
        let assign = |s: &mut Scratch, l: Lit, reason: u32| self.assign(s, l, reason);
        for &g in givens {
            if let Some(c) = assign(s, g, GIVEN) {
                return Some(c);
            }
        }
        // The formula's clauses of one distinct literal (none in the standard rules), and the
        // empty clause.
        for (k, &c) in self.long.iter().enumerate() {
            let lits = self.long_clause(k);
            match lits.first() {
                None => return Some(c),
                Some(&l) if lits.iter().all(|&x| x == l) => {
                    if let Some(c) = assign(s, l, c) {
                        return Some(c);
                    }
                }
                Some(_) => {}
            }
        }
        let mut head = 0;
        while head < s.trail.len() {
            let l = s.trail[head];
            head += 1;
            for &(m, c) in self.implied(l) {
                if let Some(c) = assign(s, m, c) {
                    return Some(c);
                }
            }
            for &k in self.holding(!l) {
                let k = k as usize;
                let count = s.false_count[k];
                if count == SATISFIED {
                    continue;
                }
                s.false_count[k] = count + 1;
                let lits = self.long_clause(k);
                if (count as usize) + 2 < lits.len() {
                    continue;
                }
                // At most one literal not false by the count (a literal repeated counts twice):
                // look.
                let mut open = None;
                let mut opens = 0;
                for &x in lits {
                    if s.values[x.code()] == UNSET && open != Some(x) {
                        opens += 1;
                        open = Some(x);
                    }
                }
                match (opens, open) {
                    (0, _) => return Some(self.long[k]),
                    (1, Some(x)) => {
                        if let Some(c) = assign(s, x, self.long[k]) {
                            return Some(c);
                        }
                    }
                    _ => {}
                }
            }
        }
        None
    }
}

/// The indices of the bits set, ascending.
fn kept_list(keep: &[u64]) -> Vec<u32> {
    let mut kept = Vec::with_capacity(keep.len() * 16);
    for (w, &word) in keep.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            kept.push((64 * w + bits.trailing_zeros() as usize) as u32);
            bits &= bits - 1;
        }
    }
    kept
}

fn set(bits: &mut [u64], i: u32) {
    bits[i as usize / 64] |= 1 << (i % 64);
}
