//! A DRAT proof checker of our own, sharing no code with the solvers or with our simplification:
//! backward (core-first) checking as in DRAT-trim (Heule, Hunt & Wetzler 2013, "Trimming while
//! checking clausal proofs"; Wetzler, Heule & Hunt 2014, "DRAT-trim"): the proof is first run
//! forward without checks until unit propagation finds a conflict, then the lemmas that conflict
//! depends on are checked from the last to the first, each by reverse unit propagation (RUP) or as
//! a resolution asymmetric tautology (RAT) on its first literal (Järvisalo, Heule & Biere 2012),
//! and what each check uses is marked to be checked in turn. Lemmas nothing depends on are not
//! checked (so a proof with a wrong but unused lemma is accepted, as DRAT-trim accepts it).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io;
use std::path::PathBuf;

use thiserror::Error;

use super::subset::flat;
use crate::sat::lit::Lit;
use crate::sat::proof::{Proof, ProofParseError};

const UNSET: i8 = 0;
const TRUE: i8 = 1;
const FALSE: i8 = -1;

/// Why a proof was not accepted.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum CheckError {
    /// A lemma of the proof that the refutation uses does not follow (neither RUP nor RAT).
    #[error("proof step {step} does not follow from the formula and the lemmas before it")]
    Rejected {
        /// The step, 1-based (= its line in a text DRAT file).
        step: usize,
    },
    /// The proof never derives the empty clause.
    #[error("the proof does not derive the empty clause")]
    Incomplete,
    /// The CNF could not be read.
    #[error("CNF line {line}: {message}")]
    Cnf {
        /// Line number, 1-based.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The certificate does not certify the claim it was checked for: the puzzle and the unit
    /// list are of different shapes, or the claimed solution is no solution of the puzzle.
    #[error("{message}")]
    Claim {
        /// What is wrong.
        message: String,
    },
    /// The proof could not be read.
    #[error("DRAT proof: {0}")]
    Proof(#[from] ProofParseError),
    /// A file could not be read.
    #[error("reading {path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: io::Error,
    },
}

impl From<Rejection> for CheckError {
    fn from(r: Rejection) -> CheckError {
        match r {
            Rejection::Lemma(i) => CheckError::Rejected { step: i + 1 },
            Rejection::NoEmptyClause => CheckError::Incomplete,
        }
    }
}

/// Clause flags: in the database now; a lemma the refutation depends on (to be checked); in the
/// watch lists; a clause of the formula that an accepted derivation used ([`Checker::core`]).
const ACTIVE: u8 = 1;
const CORE: u8 = 2;
const WATCHED: u8 = 4;
const USED: u8 = 8;

/// What an accepted check used ([`Checker::core`]).
pub(crate) struct Core<'a> {
    /// The formula's stored clauses, by index, each once.
    pub clauses: &'a [u32],
    /// The formula's binary clauses (x ∨ y), maybe repeated.
    pub binaries: &'a [(Lit, Lit)],
    /// The proof trimmed to the lemmas checked, then the empty clause.
    pub proof: Proof,
}

/// Why a lemma was rejected, or the refutation is incomplete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Rejection {
    /// The lemma at this 0-based step of the proof is neither RUP nor RAT.
    Lemma(usize),
    /// The proof ends without deriving the empty clause.
    NoEmptyClause,
}

/// Why a variable has its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// Assumed by a check (the negation of a literal of the clause checked).
    Assumed,
    /// Implied by a binary clause of the formula, (¬a ∨ l), once its literal a was true.
    Binary(Lit),
    /// Implied by this clause, all its other literals being false.
    Clause(u32),
}

/// What unit propagation found false.
#[derive(Clone, Copy, Debug)]
enum Conflict {
    Clause(u32),
    Binary(Lit, Lit),
    /// A literal that a check assumes false is true.
    Lit(Lit),
}

/// What the forward pass did at a step, for the backward pass to undo.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// Added lemma `id` (whose first literal as written is `first`, for RAT); the trail was `trail`
    /// long before.
    Lemma {
        id: u32,
        first: Option<Lit>,
        trail: u32,
    },
    /// Deleted lemma `id`.
    Deleted(u32),
}

/// The three kinds of watch lists: the formula's long clauses, the lemmas in the core, the other
/// lemmas (core-first propagation visits the third only when the first two imply nothing more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Formula = 0,
    Core = 1,
    Rest = 2,
}

/// A watch list entry: the clause, and a literal of it that, when true, spares a visit.
#[derive(Clone, Copy, Debug)]
struct Watch {
    clause: u32,
    blocker: Lit,
}

/// A hasher for keys that are hashes already ([`clause_hash`]): passes the `u64` through.
#[derive(Clone, Copy, Debug, Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// No clause (the end of a chain of lemmas with one hash).
const NONE: u32 = u32::MAX;

/// The clause database and assignment of a check.
#[derive(Clone, Debug, Default)]
pub(crate) struct Checker {
    /// Every clause but the formula's binary ones, literals flat: clause i is
    /// `lits[start[i]..start[i + 1]]`; the formula's first, then the lemmas of the proof being
    /// checked. A watched clause's watches are its first two literals.
    lits: Vec<Lit>,
    start: Vec<u32>,
    flags: Vec<u8>,
    /// Clauses below this are the formula's (set when a check starts).
    formula: u32,
    /// Literal code -> literals that become true when it is true: the formula's binary clauses,
    /// kept only here (most of a Sudoku CNF; they need no index, as no check marks them).
    imp: Vec<Vec<Lit>>,
    /// Per [`Kind`], literal code -> the clauses of two or more literals (lemmas) or of three or
    /// more (the formula's) watching that literal. Lemmas leave their lists lazily: an entry counts
    /// while its lemma is watched, of that kind, and watches that literal (an entry left over from
    /// before, when a lemma is watched anew, and the new entry are one: the first visit that moves
    /// the watch puts the other out of date).
    /// (The three lists of a literal side by side: propagation looks at all three.)
    watches: Vec<[Vec<Watch>; 3]>,
    /// Per literal code: [`UNSET`], [`TRUE`] or [`FALSE`]. Per variable: its reason and trail
    /// position when set.
    values: Vec<i8>,
    reasons: Vec<Reason>,
    position: Vec<u32>,
    /// Per variable, at the top level: whether the lemmas its value depends on are marked already.
    analysed: Vec<bool>,
    trail: Vec<Lit>,
    /// Trail entries processed by propagation.
    head: usize,
    /// The conflict that showed the formula contradictory by unit propagation alone, if it is.
    top_conflict: Option<Conflict>,
    /// Scratch: literal marks, variable marks, clause buffers, the analysis stack.
    mark: Vec<u32>,
    stamp: u32,
    seen: Vec<u32>,
    seen_stamp: u32,
    buf: Vec<Lit>,
    resolvent: Vec<Lit>,
    stack: Vec<u32>,
    /// A snapshot (see [`Checker::save_base`]): clause count and implication list lengths.
    base: Option<Base>,
    /// Literal codes whose implication list grew since the snapshot.
    touched: Vec<u32>,
    /// With a snapshot: literal codes whose watch lists may hold clauses added since (a bit per
    /// [`Kind`] in `dirty_mask`), the only lists [`Checker::reset_to_base`] visits.
    dirty: Vec<u32>,
    dirty_mask: Vec<u8>,
    /// The lemmas present, by a hash of their literals: the newest such lemma, whose `same_hash`
    /// is the next older one (or [`NONE`]).
    lemmas: HashMap<u64, u32, BuildHasherDefault<PassThrough>>,
    same_hash: Vec<u32>,
    /// Scratch for a clause without repeated literals.
    scratch: Vec<Lit>,
    /// Per clause of the base, in [`Checker::add_units`]: how many of its literals are false, or
    /// [`SATISFIED`]; and the sum of the codes of those not false.
    false_count: Vec<u32>,
    open_sum: Vec<u32>,
    /// Per variable that [`Checker::add_units`] made true by a binary clause (¬a ∨ l) of the base:
    /// where l is in a's implications ([`Checker::binary_position`]).
    binary_pos: Vec<u32>,
    /// The forward pass's additions and deletions, with their 0-based step in the proof.
    steps: Vec<(usize, Step)>,
    /// What the last check's derivations used of the formula ([`Checker::core`]): its stored
    /// clauses (flagged [`USED`]) and its binary clauses (x ∨ y), the reasons of the top-level
    /// values they rest on included; and whether that check was accepted.
    used: Vec<u32>,
    used_binaries: Vec<(Lit, Lit)>,
    core_known: bool,
    /// Per variable: `traced_stamp` once the reasons of its top-level value are collected in this
    /// check.
    traced: Vec<u32>,
    traced_stamp: u32,
}

#[derive(Clone, Debug)]
struct Base {
    clauses: usize,
    imp_len: Vec<u32>,
    top_conflict: Option<Conflict>,
    /// Per literal code: the base's watched clauses (three or more literals) that hold it, flat,
    /// the list of code l `occ[occ_start[l]..occ_start[l + 1]]`; for [`Checker::add_units`].
    occ: Vec<u32>,
    occ_start: Vec<u32>,
    /// Per clause of the base: the sum of its literals' codes (wrapping), from which the one literal
    /// left when all others are false is found without a look ([`Checker::add_units`]).
    code_sum: Vec<u32>,
}

/// A clause's count in [`Checker::add_units`] once one of its literals is true.
const SATISFIED: u32 = u32::MAX;

/// An order-independent hash of a clause's literals (a sum of mixed codes).
fn clause_hash(clause: &[Lit]) -> u64 {
    clause.iter().fold(0u64, |h, l| {
        // splitmix64's finaliser.
        let mut z = (l.code() as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h.wrapping_add(z ^ (z >> 31))
    })
}

/// The stamp after `stamp` for marks `marks`, which are cleared when the stamps wrap around.
fn next_stamp(stamp: u32, marks: &mut [u32]) -> u32 {
    if stamp == u32::MAX {
        marks.fill(0);
        1
    } else {
        stamp + 1
    }
}

impl Checker {
    /// An empty checker.
    pub(crate) fn new() -> Checker {
        Checker::default()
    }

    #[inline]
    fn value(&self, l: Lit) -> i8 {
        self.values[l.code()]
    }

    /// Makes room for variables up to `index`.
    fn grow(&mut self, index: usize) {
        if 2 * index >= self.values.len() {
            let n = (index + 1).max(self.values.len());
            self.values.resize(2 * n, UNSET);
            self.reasons.resize(n, Reason::Assumed);
            self.position.resize(n, 0);
            self.analysed.resize(n, false);
            self.binary_pos.resize(n, 0);
            self.seen.resize(n, 0);
            self.traced.resize(n, 0);
            self.imp.resize_with(2 * n, Vec::new);
            self.watches.resize_with(2 * n, Default::default);
            self.mark.resize(2 * n, 0);
            self.dirty_mask.resize(2 * n, 0);
            if let Some(b) = &mut self.base {
                b.imp_len.resize(2 * n, 0);
            }
        }
    }

    fn clause(&self, c: usize) -> (usize, usize) {
        (self.start[c] as usize, self.start[c + 1] as usize)
    }

    #[inline]
    fn assign(&mut self, l: Lit, reason: Reason) {
        let v = l.index();
        self.values[l.code()] = TRUE;
        self.values[(!l).code()] = FALSE;
        self.reasons[v] = reason;
        self.position[v] = self.trail.len() as u32;
        self.trail.push(l);
    }

    /// Undoes the trail down to `mark`.
    fn undo(&mut self, mark: usize) {
        for &l in &self.trail[mark..] {
            self.values[l.code()] = UNSET;
            self.values[(!l).code()] = UNSET;
            self.analysed[l.index()] = false;
        }
        self.trail.truncate(mark);
        self.head = mark;
    }

    /// Propagates the trail from `head`, returning the first conflict. Core first: the formula and
    /// the lemmas in the core to a fixpoint, and only then the other lemmas, one literal's watches
    /// at a time, back to the first tier as soon as they imply something; this prefers derivations
    /// that use lemmas already in the core (DRAT-trim's core-first mode).
    fn propagate(&mut self, core_first: bool) -> Option<Conflict> {
        let mut rest = self.head;
        loop {
            while self.head < self.trail.len() {
                let l = self.trail[self.head];
                self.head += 1;
                if let Some(c) = self.binaries(l) {
                    return Some(c);
                }
                if let Some(c) = self.watched(Kind::Formula, !l) {
                    return Some(c);
                }
                if let Some(c) = self.watched(Kind::Core, !l) {
                    return Some(c);
                }
                if !core_first && let Some(c) = self.watched(Kind::Rest, !l) {
                    return Some(c);
                }
            }
            if !core_first {
                return None;
            }
            let len = self.trail.len();
            while rest < len && self.trail.len() == len {
                let l = self.trail[rest];
                rest += 1;
                if let Some(c) = self.watched(Kind::Rest, !l) {
                    return Some(c);
                }
            }
            if self.trail.len() == len {
                return None;
            }
        }
    }

    /// The formula's binary clauses implying something from `l` (just true).
    #[inline]
    fn binaries(&mut self, l: Lit) -> Option<Conflict> {
        // Half the trail has none (a false cell literal implies nothing by the binary clauses).
        if self.imp[l.code()].is_empty() {
            return None;
        }
        let list = std::mem::take(&mut self.imp[l.code()]);
        let mut conflict = None;
        for &m in &list {
            match self.value(m) {
                TRUE => {}
                FALSE => {
                    conflict = Some(Conflict::Binary(!l, m));
                    break;
                }
                _ => self.assign(m, Reason::Binary(l)),
            }
        }
        self.imp[l.code()] = list;
        conflict
    }

    /// The clauses of watch lists `kind` watching `falsified`, which just became false: each finds
    /// another watch, or implies its other watch, or is a conflict.
    #[inline]
    fn watched(&mut self, kind: Kind, falsified: Lit) -> Option<Conflict> {
        // Most lists are empty (lemmas watch few literals; the formula's long clauses, of one sign).
        if self.watches[falsified.code()][kind as usize].is_empty() {
            None
        } else {
            self.visit_watches(kind, falsified)
        }
    }

    fn visit_watches(&mut self, kind: Kind, falsified: Lit) -> Option<Conflict> {
        let mut list = std::mem::take(&mut self.watches[falsified.code()][kind as usize]);
        let mut i = 0;
        let mut conflict = None;
        while i < list.len() {
            let Watch { clause, blocker } = list[i];
            if self.value(blocker) == TRUE {
                i += 1;
                continue;
            }
            let c = clause as usize;
            let (s, e) = self.clause(c);
            if kind != Kind::Formula {
                let want = if kind == Kind::Core {
                    WATCHED | CORE
                } else {
                    WATCHED
                };
                if self.flags[c] & (WATCHED | CORE) != want
                    || (self.lits[s] != falsified && self.lits[s + 1] != falsified)
                {
                    list.swap_remove(i);
                    continue;
                }
            }
            // Keep the false watch second.
            if self.lits[s] == falsified {
                self.lits.swap(s, s + 1);
            }
            let other = self.lits[s];
            let value = self.value(other);
            if value == TRUE {
                list[i].blocker = other;
                i += 1;
                continue;
            }
            let mut moved = false;
            for k in s + 2..e {
                let m = self.lits[k];
                if self.value(m) != FALSE {
                    self.lits.swap(s + 1, k);
                    self.push_watch(kind, m, clause, other);
                    list.swap_remove(i);
                    moved = true;
                    break;
                }
            }
            if moved {
                continue;
            }
            i += 1;
            if value == FALSE {
                conflict = Some(Conflict::Clause(clause));
                break;
            }
            self.assign(other, Reason::Clause(clause));
        }
        self.watches[falsified.code()][kind as usize] = list;
        conflict
    }

    /// Puts clause `id`'s first two literals in watch lists `kind`.
    fn watch(&mut self, kind: Kind, id: usize) {
        let s = self.start[id] as usize;
        let (a, b) = (self.lits[s], self.lits[s + 1]);
        let clause = id as u32;
        self.push_watch(kind, a, clause, b);
        self.push_watch(kind, b, clause, a);
    }

    /// Adds `clause` to the watch list `kind` of `lit`, noting the list as dirty if it must be
    /// cleaned on a reset (a lemma, or a clause added since the snapshot).
    #[inline]
    fn push_watch(&mut self, kind: Kind, lit: Lit, clause: u32, blocker: Lit) {
        let code = lit.code();
        self.watches[code][kind as usize].push(Watch { clause, blocker });
        if let Some(base) = &self.base
            && (kind != Kind::Formula || clause as usize >= base.clauses)
        {
            let bit = 1 << kind as u8;
            if self.dirty_mask[code] & bit == 0 {
                if self.dirty_mask[code] == 0 {
                    self.dirty.push(code as u32);
                }
                self.dirty_mask[code] |= bit;
            }
        }
    }

    /// `clause` without repeated literals, in `out`; whether it is a tautology.
    fn dedupe(&mut self, clause: &[Lit], out: &mut Vec<Lit>) -> bool {
        if let Some(top) = clause.iter().map(|l| l.index()).max() {
            self.grow(top);
        }
        self.stamp = next_stamp(self.stamp, &mut self.mark);
        let mut tautology = false;
        out.clear();
        for &l in clause {
            if self.mark[(!l).code()] == self.stamp {
                tautology = true;
            }
            if self.mark[l.code()] != self.stamp {
                self.mark[l.code()] = self.stamp;
                out.push(l);
            }
        }
        tautology
    }

    /// Stores `clause` without repeated literals as a new clause; returns its index and whether it
    /// is a tautology.
    fn store(&mut self, clause: &[Lit]) -> (usize, bool) {
        let mut lits = std::mem::take(&mut self.scratch);
        let tautology = self.dedupe(clause, &mut lits);
        let id = self.store_deduped(&lits);
        self.scratch = lits;
        (id, tautology)
    }

    fn store_deduped(&mut self, lits: &[Lit]) -> usize {
        if self.start.is_empty() {
            self.start.push(0);
        }
        let id = self.start.len() - 1;
        self.lits.extend_from_slice(lits);
        self.start.push(self.lits.len() as u32);
        self.flags.push(ACTIVE);
        self.same_hash.push(NONE);
        id
    }

    /// Orders the literals of clause `id` (two or more) for watching under the current assignment:
    /// the literals not false first; if there is only one, the false literal set last second (so
    /// that undoing the trail down to any point frees that watch no later than the other). Returns
    /// how many literals are not false.
    fn order_watches(&mut self, id: usize) -> usize {
        let (s, e) = self.clause(id);
        let mut open = 0;
        for k in s..e {
            if self.value(self.lits[k]) != FALSE {
                self.lits.swap(s + open, k);
                open += 1;
            }
        }
        if open == 1 {
            let latest = (s + 1..e)
                .max_by_key(|&k| self.position[self.lits[k].index()])
                .unwrap_or(s + 1);
            self.lits.swap(s + 1, latest);
        }
        open
    }

    /// Puts lemma `id` (two or more literals, ordered) in the watch lists of its kind.
    fn watch_lemma(&mut self, id: usize) {
        let kind = if self.flags[id] & CORE != 0 {
            Kind::Core
        } else {
            Kind::Rest
        };
        self.watch(kind, id);
        self.flags[id] |= WATCHED;
    }

    /// Takes lemma `id` out of the watch lists (its entries go when propagation meets them).
    fn unwatch_lemma(&mut self, id: usize) {
        self.flags[id] &= !WATCHED;
    }

    /// Adds a clause of the formula and propagates at the top level.
    pub(crate) fn add_clause(&mut self, clause: &[Lit]) {
        // Most of a Sudoku CNF: two literals of different variables, nothing to dedupe.
        if let [a, b] = *clause
            && a.index() != b.index()
        {
            self.grow(a.index().max(b.index()));
            if !self.is_inconsistent() {
                self.add_binary(a, b);
            }
            return;
        }
        let mut lits = std::mem::take(&mut self.scratch);
        let tautology = self.dedupe(clause, &mut lits);
        if lits.len() == 2 && !tautology {
            if !self.is_inconsistent() {
                self.add_binary(lits[0], lits[1]);
            }
        } else {
            let id = self.store_deduped(&lits);
            if !tautology && !self.is_inconsistent() {
                self.add_stored(id);
            }
        }
        self.scratch = lits;
    }

    /// Adds unit clauses of the formula and propagates them at the top level, as
    /// [`Checker::add_clause`] would one by one (the same top-level assignment, or the same
    /// inconsistency; the reasons may differ), but by counting instead of through the watches:
    /// each clause of the base keeps a count of its false literals and is looked at only when at
    /// most one is left, and the watches of the few clauses the assignment leaves open are moved
    /// once at the end. Most of a puzzle's CNF is settled by its givens, so this visits each
    /// clause holding a settled literal once instead of moving its watches literal by literal.
    /// Right after [`Checker::reset_to_base`] (nothing added since); otherwise, or without a
    /// base, the units are added one by one.
    pub(crate) fn add_units(&mut self, units: impl IntoIterator<Item = Lit>) {
        let fresh = self
            .base
            .as_ref()
            .is_some_and(|b| b.clauses == self.stored() && self.trail.is_empty());
        if !fresh {
            for l in units {
                self.add_clause(&[l]);
            }
            return;
        }
        for l in units {
            self.grow(l.index());
            let id = self.store_deduped(&[l]);
            if self.is_inconsistent() {
                continue;
            }
            match self.value(l) {
                TRUE => {}
                FALSE => self.contradiction(Some(Conflict::Clause(id as u32))),
                _ => self.assign(l, Reason::Clause(id as u32)),
            }
        }
        if self.is_inconsistent() {
            return;
        }
        let base = self.base.take().expect("checked above");
        let conflict = self.propagate_counting(&base);
        self.contradiction(conflict);
        if !self.is_inconsistent() {
            self.rewatch_open(&base);
        }
        self.base = Some(base);
    }

    /// Unit propagation of the trail from `head` at the top level, over the formula's binary
    /// clauses and, by counting, over the base's clauses ([`Checker::add_units`]); the conflict it
    /// ends in, if any. A clause all of whose literals but one are false holds that one as the sum of
    /// its literals' codes less those of the false ones.
    fn propagate_counting(&mut self, base: &Base) -> Option<Conflict> {
        self.false_count.clear();
        self.false_count.resize(base.clauses, 0);
        self.open_sum.clear();
        self.open_sum.extend_from_slice(&base.code_sum);
        let occ = |code: usize| {
            &base.occ[base.occ_start[code] as usize..base.occ_start[code + 1] as usize]
        };
        let codes = base.occ_start.len() - 1;
        while self.head < self.trail.len() {
            let l = self.trail[self.head];
            self.head += 1;
            // The binary clauses, inline, with where each implied literal is in l's list.
            let Checker {
                imp,
                values,
                reasons,
                position,
                binary_pos,
                trail,
                ..
            } = self;
            for (k, &m) in imp[l.code()].iter().enumerate() {
                match values[m.code()] {
                    TRUE => {}
                    FALSE => return Some(Conflict::Binary(!l, m)),
                    _ => {
                        let v = m.index();
                        values[m.code()] = TRUE;
                        values[(!m).code()] = FALSE;
                        reasons[v] = Reason::Binary(l);
                        position[v] = trail.len() as u32;
                        binary_pos[v] = k as u32;
                        trail.push(m);
                    }
                }
            }
            if l.code() < codes {
                for &c in occ(l.code()) {
                    self.false_count[c as usize] = SATISFIED;
                }
            }
            let f = !l;
            if f.code() >= codes {
                continue;
            }
            for &c in occ(f.code()) {
                let c = c as usize;
                let count = self.false_count[c];
                if count == SATISFIED {
                    continue;
                }
                self.false_count[c] = count + 1;
                let sum = self.open_sum[c].wrapping_sub(f.code() as u32);
                self.open_sum[c] = sum;
                let len = self.start[c + 1] - self.start[c];
                if count + 2 < len {
                    continue;
                }
                if count + 2 > len {
                    // All false (the last was not yet false when the one before was counted).
                    return Some(Conflict::Clause(c as u32));
                }
                // One literal left.
                let x = Lit::from_code(sum as usize);
                match self.value(x) {
                    TRUE => self.false_count[c] = SATISFIED,
                    FALSE => return Some(Conflict::Clause(c as u32)),
                    _ => self.assign(x, Reason::Clause(c as u32)),
                }
            }
        }
        None
    }

    /// Where the reason of `l`, a binary clause (¬a ∨ l), has l in the implications of a
    /// ([`Checker::implications`]), if [`Checker::add_units`] made `l` true that way.
    pub(crate) fn binary_position(&self, l: Lit) -> u32 {
        self.binary_pos[l.index()]
    }

    /// The literals that `a` true implies by the formula's binary clauses, each once, ascending by
    /// code (for the base's clauses, once it is saved).
    pub(crate) fn implications(&self, a: Lit) -> &[Lit] {
        self.imp.get(a.code()).map_or(&[], Vec::as_slice)
    }

    /// After [`Checker::propagate_counting`] without conflict: the base's clauses left open with a
    /// false watch watch two open literals instead (a satisfied clause may keep a false watch: it
    /// never implies anything, and a visit finds its true literal).
    fn rewatch_open(&mut self, base: &Base) {
        for c in 0..base.clauses {
            let count = self.false_count[c];
            if count == 0 || count == SATISFIED {
                continue;
            }
            let (s, e) = self.clause(c);
            if e - s < 2 {
                continue;
            }
            for w in [s, s + 1] {
                let old = self.lits[w];
                if self.value(old) != FALSE {
                    continue;
                }
                // Open (two or more are: the clause is neither satisfied nor unit).
                let Some(k) = (s + 2..e).find(|&k| self.value(self.lits[k]) == UNSET) else {
                    continue;
                };
                let list = &mut self.watches[old.code()][Kind::Formula as usize];
                if let Some(i) = list.iter().position(|x| x.clause == c as u32) {
                    list.swap_remove(i);
                }
                self.lits.swap(w, k);
                let other = self.lits[if w == s { s + 1 } else { s }];
                self.push_watch(Kind::Formula, self.lits[w], c as u32, other);
            }
        }
    }

    /// Adds binary clauses (¬a ∨ m) of the formula, one for each literal m of `implied` (of
    /// another variable than a), as implications of `a` only: the caller gives each clause's other
    /// direction under its other literal, as [`Checker::add_clause`] would add both. For loading a
    /// base from lists already sorted by code (which [`Checker::save_base`] then sorts cheaply),
    /// before anything is assigned and before the base is saved.
    pub(crate) fn add_implications(&mut self, a: Lit, implied: impl IntoIterator<Item = Lit>) {
        debug_assert!(self.base.is_none() && self.trail.is_empty());
        self.grow(a.index());
        let mut list = std::mem::take(&mut self.imp[a.code()]);
        let implied = implied.into_iter();
        list.reserve(implied.size_hint().0);
        for m in implied {
            if m.index() != a.index() {
                list.push(m);
            }
        }
        if let Some(top) = list.iter().map(|m| m.index()).max() {
            self.grow(top);
        }
        self.imp[a.code()] = list;
    }

    /// Adds the formula's binary clause (a ∨ b) as two implications, and propagates what it
    /// implies at the top level.
    fn add_binary(&mut self, a: Lit, b: Lit) {
        for (x, y) in [(a, b), (b, a)] {
            let code = (!x).code();
            if let Some(base) = &self.base
                && self.imp[code].len() as u32 == base.imp_len[code]
            {
                self.touched.push(code as u32);
            }
            self.imp[code].push(y);
        }
        // Added after a unit that settles it.
        for (x, y) in [(a, b), (b, a)] {
            if self.value(x) == FALSE {
                match self.value(y) {
                    FALSE => self.contradiction(Some(Conflict::Binary(a, b))),
                    UNSET => {
                        self.assign(y, Reason::Binary(!x));
                        let conflict = self.propagate(false);
                        self.contradiction(conflict);
                    }
                    _ => {}
                }
                break;
            }
        }
    }

    /// Notes the conflict of top-level unit propagation, if any: the formula is contradictory.
    fn contradiction(&mut self, conflict: Option<Conflict>) {
        if conflict.is_some() {
            self.top_conflict = conflict;
        }
    }

    /// Watches the formula's stored clause `id` (not binary, not a tautology), and propagates
    /// what it implies at the top level.
    fn add_stored(&mut self, id: usize) {
        let (s, e) = self.clause(id);
        let here = Some(Conflict::Clause(id as u32));
        match e - s {
            0 => self.contradiction(here),
            1 => {
                let l = self.lits[s];
                match self.value(l) {
                    TRUE => {}
                    FALSE => self.contradiction(here),
                    _ => {
                        self.assign(l, Reason::Clause(id as u32));
                        let conflict = self.propagate(false);
                        self.contradiction(conflict);
                    }
                }
            }
            _ => {
                let open = self.order_watches(id);
                if open == 0 {
                    self.contradiction(here);
                    return;
                }
                self.watch(Kind::Formula, id);
                let a = self.lits[s];
                if open == 1 && self.value(a) == UNSET {
                    self.assign(a, Reason::Clause(id as u32));
                    let conflict = self.propagate(false);
                    self.contradiction(conflict);
                }
            }
        }
    }

    /// The forward pass's addition of a lemma, unchecked, at the top level: a conflict if it or
    /// what it implies is contradictory.
    fn add_lemma(&mut self, clause: &[Lit], step: usize) -> Option<Conflict> {
        let trail = self.trail.len() as u32;
        let (id, tautology) = self.store(clause);
        self.steps.push((
            step,
            Step::Lemma {
                id: id as u32,
                first: clause.first().copied(),
                trail,
            },
        ));
        let (s, e) = self.clause(id);
        if tautology {
            return None;
        }
        if e - s == 1 {
            let l = self.lits[s];
            return match self.value(l) {
                TRUE => None,
                FALSE => Some(Conflict::Clause(id as u32)),
                _ => {
                    self.assign(l, Reason::Clause(id as u32));
                    self.propagate(false)
                }
            };
        }
        if e - s == 0 {
            return Some(Conflict::Clause(id as u32));
        }
        let h = clause_hash(&self.lits[s..e]);
        let id32 = id as u32;
        self.same_hash[id] = self.lemmas.insert(h, id32).unwrap_or(NONE);
        let open = self.order_watches(id);
        if open == 0 {
            return Some(Conflict::Clause(id as u32));
        }
        self.watch_lemma(id);
        let first = self.lits[s];
        if open == 1 && self.value(first) == UNSET {
            self.assign(first, Reason::Clause(id as u32));
            return self.propagate(false);
        }
        None
    }

    /// The forward pass's deletion of a lemma: one copy of `clause` if a lemma of two or more
    /// literals is present and does not imply a value at the top level; anything else is ignored
    /// (the formula's own clauses, unit clauses and reasons stay, as in DRAT-trim).
    fn delete_lemma(&mut self, clause: &[Lit], step: usize) {
        self.stamp = next_stamp(self.stamp, &mut self.mark);
        self.buf.clear();
        for &l in clause {
            if l.code() >= self.mark.len() {
                // A variable no clause has.
                return;
            }
            if self.mark[l.code()] != self.stamp {
                self.mark[l.code()] = self.stamp;
                self.buf.push(l);
            }
        }
        if self.buf.len() < 2 {
            return;
        }
        let h = clause_hash(&self.buf);
        // The newest lemma present with these literals, and the one after it in the chain.
        let (mut before, mut at) = (NONE, self.lemmas.get(&h).copied().unwrap_or(NONE));
        while at != NONE {
            let (s, e) = self.clause(at as usize);
            if e - s == self.buf.len()
                && self.lits[s..e]
                    .iter()
                    .all(|l| self.mark[l.code()] == self.stamp)
            {
                break;
            }
            before = at;
            at = self.same_hash[at as usize];
        }
        if at == NONE {
            return;
        }
        let id = at as usize;
        let s = self.start[id] as usize;
        let first = self.lits[s];
        if self.value(first) == TRUE && self.reasons[first.index()] == Reason::Clause(at) {
            return;
        }
        let after = self.same_hash[id];
        if before != NONE {
            self.same_hash[before as usize] = after;
        } else if after != NONE {
            self.lemmas.insert(h, after);
        } else {
            self.lemmas.remove(&h);
        }
        self.unwatch_lemma(id);
        self.flags[id] &= !ACTIVE;
        self.steps.push((step, Step::Deleted(id as u32)));
    }

    /// Marks what `conflict` depends on: the lemmas among the clauses that implied its literals,
    /// back to the assumptions of a check or to the formula. Top-level variables are marked
    /// analysed, so that no later analysis goes through them again; those set by the formula alone
    /// (below `formula_trail`) depend on no lemma, and only the formula clauses behind them are
    /// collected, once a check. Every formula clause met is collected ([`Checker::core`]).
    fn analyse(&mut self, conflict: Conflict, formula_trail: usize, top: usize) {
        self.seen_stamp = next_stamp(self.seen_stamp, &mut self.seen);
        self.stack.clear();
        match conflict {
            Conflict::Clause(c) => self.push_clause(c as usize, None),
            Conflict::Binary(a, b) => {
                self.used_binaries.push((a, b));
                self.stack.extend([a.index() as u32, b.index() as u32]);
            }
            Conflict::Lit(l) => self.stack.push(l.index() as u32),
        }
        while let Some(v) = self.stack.pop() {
            let v = v as usize;
            if (self.position[v] as usize) < formula_trail {
                if self.traced[v] == self.traced_stamp {
                    continue;
                }
                self.traced[v] = self.traced_stamp;
            } else {
                if self.seen[v] == self.seen_stamp || self.analysed[v] {
                    continue;
                }
                self.seen[v] = self.seen_stamp;
                if (self.position[v] as usize) < top {
                    self.analysed[v] = true;
                }
            }
            match self.reasons[v] {
                Reason::Assumed => {}
                Reason::Binary(a) => {
                    let positive = Lit::from_code(2 * v);
                    let l = if self.value(positive) == TRUE {
                        positive
                    } else {
                        !positive
                    };
                    self.used_binaries.push((!a, l));
                    self.stack.push(a.index() as u32);
                }
                Reason::Clause(c) => self.push_clause(c as usize, Some(v)),
            }
        }
    }

    /// Marks clause `c` as core (if a lemma) or collects it (if the formula's), and stacks its
    /// variables but `except`.
    fn push_clause(&mut self, c: usize, except: Option<usize>) {
        if c >= self.formula as usize {
            if self.flags[c] & CORE == 0 {
                self.flags[c] |= CORE;
                if self.flags[c] & WATCHED != 0 {
                    // Into the core's watch lists (its entries in the others go out of date).
                    self.watch(Kind::Core, c);
                }
            }
        } else if self.flags[c] & USED == 0 {
            self.flags[c] |= USED;
            self.used.push(c as u32);
        }
        let (s, e) = self.clause(c);
        for k in s..e {
            let v = self.lits[k].index();
            if Some(v) != except {
                self.stack.push(v as u32);
            }
        }
    }

    /// Whether `clause` is a RUP consequence of the clauses present (setting all its literals
    /// false propagates to a conflict); if so, what the conflict depends on is marked.
    fn rup(&mut self, clause: &[Lit], formula_trail: usize) -> bool {
        let top = self.trail.len();
        let mut conflict = None;
        for &l in clause {
            self.grow(l.index());
            match self.value(l) {
                TRUE => {
                    conflict = Some(Conflict::Lit(l));
                    break;
                }
                FALSE => {}
                _ => self.assign(!l, Reason::Assumed),
            }
        }
        let conflict = conflict.or_else(|| self.propagate(true));
        if let Some(c) = conflict {
            self.analyse(c, formula_trail, top);
        }
        self.undo(top);
        conflict.is_some()
    }

    /// Whether `clause` is RAT on its first literal p (`first`): for every clause D present that
    /// holds ¬p, the resolvent `clause` ∪ (D \ {¬p}) is a tautology or a RUP consequence.
    fn rat(&mut self, clause: &[Lit], first: Option<Lit>, formula_trail: usize) -> bool {
        let Some(pivot) = first else {
            return false;
        };
        // False at the top level of a reduced checker: its unit clause (¬p) is not stored
        // ([`Checker::reduce_into`]); the resolvent with it is the lemma, not RUP.
        let v = pivot.index();
        if self.value(pivot) == FALSE
            && (self.position[v] as usize) < formula_trail
            && self.reasons[v] == Reason::Assumed
        {
            return false;
        }
        let negated = !pivot;
        for c in 0..self.start.len().saturating_sub(1) {
            let (s, e) = self.clause(c);
            if self.flags[c] & ACTIVE == 0 || !self.lits[s..e].contains(&negated) {
                continue;
            }
            let mut resolvent = std::mem::take(&mut self.resolvent);
            resolvent.clear();
            resolvent.extend_from_slice(clause);
            resolvent.extend(self.lits[s..e].iter().filter(|&&l| l != negated));
            let ok = self.resolvent_follows(&resolvent, formula_trail);
            self.resolvent = resolvent;
            if !ok {
                return false;
            }
        }
        // The formula's binary clauses (¬p ∨ y): the implications of p.
        let binaries = self.imp.get(pivot.code()).map_or(0, Vec::len);
        for k in 0..binaries {
            let mut resolvent = std::mem::take(&mut self.resolvent);
            resolvent.clear();
            resolvent.extend_from_slice(clause);
            resolvent.push(self.imp[pivot.code()][k]);
            let ok = self.resolvent_follows(&resolvent, formula_trail);
            self.resolvent = resolvent;
            if !ok {
                return false;
            }
        }
        true
    }

    /// Whether a resolvent of a RAT check is a tautology or a RUP consequence.
    fn resolvent_follows(&mut self, resolvent: &[Lit], formula_trail: usize) -> bool {
        self.stamp = next_stamp(self.stamp, &mut self.mark);
        let mut tautology = false;
        for &l in resolvent {
            self.grow(l.index());
            tautology |= self.mark[(!l).code()] == self.stamp;
            self.mark[l.code()] = self.stamp;
        }
        tautology || self.rup(resolvent, formula_trail)
    }

    /// Checks a proof's steps against the formula (the clauses added so far), backward: run
    /// forward unchecked to the first conflict of unit propagation, then check, from the last to
    /// the first, each lemma that conflict depends on directly or through lemmas checked before.
    /// Some step must add the empty clause, at or after that conflict.
    ///
    /// What is accepted refutes the formula: the lemmas checked, in proof order, each follow (RUP
    /// or RAT) from the formula and the checked lemmas present before it, whatever the others are
    /// (a RUP check marks every lemma its propagation used, and a RAT check tries the resolvents
    /// with every clause present); and unit propagation on them finds the conflict. Deletions of
    /// lemmas are carried out; deletions of the formula's own clauses, of unit clauses and of
    /// clauses that imply a value at the top level are ignored, as DRAT-trim does (keeping a
    /// clause is always sound; it keeps the top level what unit propagation makes of the clauses
    /// present).
    pub(crate) fn check<'a>(
        &mut self,
        steps: impl IntoIterator<Item = (bool, &'a [Lit])>,
    ) -> Result<(), Rejection> {
        self.formula = self.start.len().saturating_sub(1) as u32;
        let formula_trail = self.trail.len();
        for &c in &self.used {
            if let Some(f) = self.flags.get_mut(c as usize) {
                *f &= !USED;
            }
        }
        self.used.clear();
        self.used_binaries.clear();
        self.core_known = false;
        self.traced_stamp = next_stamp(self.traced_stamp, &mut self.traced);
        self.steps.clear();
        self.lemmas.clear();
        self.same_hash.truncate(self.formula as usize);
        self.same_hash.resize(self.formula as usize, NONE);
        let mut steps = steps.into_iter().enumerate();
        let mut conflict = None;
        if !self.is_inconsistent() {
            for (i, (deletion, clause)) in steps.by_ref() {
                if deletion {
                    self.delete_lemma(clause, i);
                    continue;
                }
                if clause.is_empty() {
                    // No conflict yet: the empty clause does not follow.
                    return Err(Rejection::Lemma(i));
                }
                if let Some(c) = self.add_lemma(clause, i) {
                    conflict = Some(c);
                    break;
                }
            }
            if conflict.is_none() {
                return Err(Rejection::NoEmptyClause);
            }
        }
        // The empty clause, after the conflict.
        if !steps.any(|(_, (d, c))| !d && c.is_empty()) {
            return Err(Rejection::NoEmptyClause);
        }
        let Some(conflict) = conflict else {
            // Contradictory before the proof: what showed it is the core.
            if let Some(c) = self.top_conflict {
                let top = self.trail.len();
                self.analyse(c, top, top);
            }
            self.core_known = true;
            return Ok(());
        };
        let top = self.trail.len();
        self.analyse(conflict, formula_trail, top);
        let mut lemma = std::mem::take(&mut self.buf);
        let steps = std::mem::take(&mut self.steps);
        let mut result = Ok(());
        for &(i, step) in steps.iter().rev() {
            match step {
                Step::Deleted(id) => {
                    let id = id as usize;
                    self.flags[id] |= ACTIVE;
                    self.order_watches(id);
                    self.watch_lemma(id);
                }
                Step::Lemma { id, first, trail } => {
                    let id = id as usize;
                    self.unwatch_lemma(id);
                    self.flags[id] &= !ACTIVE;
                    self.undo(trail as usize);
                    if self.flags[id] & CORE == 0 {
                        continue;
                    }
                    let (s, e) = self.clause(id);
                    lemma.clear();
                    lemma.extend_from_slice(&self.lits[s..e]);
                    if !(self.rup(&lemma, formula_trail) || self.rat(&lemma, first, formula_trail))
                    {
                        result = Err(Rejection::Lemma(i));
                        break;
                    }
                }
            }
        }
        self.buf = lemma;
        self.steps = steps;
        self.core_known = result.is_ok();
        result
    }

    /// What the last check used, if it was accepted: of the formula, the stored clauses by index,
    /// each once, and the binary clauses (x ∨ y) in any order, maybe repeated; and the proof
    /// trimmed to the lemmas it checked (with their deletions that it carried out), then the empty
    /// clause. The formula's core and the trimmed proof are a refutation by themselves: every
    /// derivation the check accepted goes through them alone (unit propagation only gains from
    /// more clauses), and a RAT check that succeeded with every clause present that holds the
    /// pivot's negation succeeds with fewer. (The untrimmed proof need not refute the core: a
    /// checker's propagation there may lean on a lemma this check did not need, and that lemma
    /// on a clause outside the core.)
    pub(crate) fn core(&self) -> Option<Core<'_>> {
        if !self.core_known {
            return None;
        }
        let mut proof = Proof::new();
        let mut lits = Vec::new();
        for &(_, step) in &self.steps {
            let (id, first, deletion) = match step {
                Step::Lemma { id, first, .. } => (id as usize, first, false),
                Step::Deleted(id) => (id as usize, None, true),
            };
            if self.flags[id] & CORE == 0 {
                continue;
            }
            // The first literal as written first (the pivot of a RAT lemma).
            let (s, e) = self.clause(id);
            lits.clear();
            lits.extend(first);
            lits.extend(self.lits[s..e].iter().filter(|&&l| Some(l) != first));
            if deletion {
                proof.delete(&lits);
            } else {
                proof.add(&lits);
            }
        }
        proof.add(&[]);
        Some(Core {
            clauses: &self.used,
            binaries: &self.used_binaries,
            proof,
        })
    }

    /// The clauses stored so far (every clause added but the binary ones of two variables), the
    /// next one's index.
    pub(crate) fn stored(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    /// Whether the clauses added so far are contradictory by unit propagation alone.
    pub(crate) fn is_inconsistent(&self) -> bool {
        self.top_conflict.is_some()
    }

    /// Whether `l` is true, by the clauses added so far (at the top level, outside a check).
    pub(crate) fn is_true(&self, l: Lit) -> bool {
        self.values.get(l.code()) == Some(&TRUE)
    }

    /// Whether `l` has no value.
    pub(crate) fn is_open(&self, l: Lit) -> bool {
        self.values.get(l.code()).is_none_or(|&v| v == UNSET)
    }

    /// The literals true at the top level and why: the trail of unit propagation of the clauses
    /// added so far.
    pub(crate) fn top_level(&self) -> impl Iterator<Item = (Lit, Reason)> + '_ {
        self.trail.iter().map(|&l| (l, self.reasons[l.index()]))
    }

    /// Remembers the clauses added so far as a base that [`Checker::reset_to_base`] returns to, so
    /// that one formula can be checked under many sets of further clauses. The base must not have
    /// assigned anything (no unit clauses).
    pub(crate) fn save_base(&mut self) {
        debug_assert!(self.trail.is_empty());
        if self.start.is_empty() {
            self.start.push(0);
        }
        // A binary clause given twice (a Sudoku CNF's box and row at-most-one share pairs) is one
        // implication to visit, not two.
        for list in &mut self.imp {
            list.sort_unstable_by_key(|l| l.code());
            list.dedup();
        }
        let clauses = self.start.len() - 1;
        // The watched clauses (tautologies are stored but not watched, and need no propagation).
        let mut counted = Vec::with_capacity(clauses);
        for c in 0..clauses {
            let (s, e) = self.clause(c);
            counted.push(e - s >= 2 && !self.is_tautology(s, e));
        }
        let (occ, occ_start) = flat(
            self.values.len(),
            || {
                (0..clauses).filter(|&c| counted[c]).flat_map(|c| {
                    let (s, e) = self.clause(c);
                    self.lits[s..e].iter().map(move |l| (l.code(), c as u32))
                })
            },
            0,
        );
        let code_sum = (0..clauses)
            .map(|c| {
                let (s, e) = self.clause(c);
                self.lits[s..e]
                    .iter()
                    .fold(0u32, |h, l| h.wrapping_add(l.code() as u32))
            })
            .collect();
        self.base = Some(Base {
            clauses,
            imp_len: self.imp.iter().map(|v| v.len() as u32).collect(),
            top_conflict: self.top_conflict,
            occ,
            occ_start,
            code_sum,
        });
        self.touched.clear();
        self.dirty.clear();
        self.dirty_mask.fill(0);
    }

    /// Drops every clause and assignment added since [`Checker::save_base`] (nothing if no base was
    /// saved).
    pub(crate) fn reset_to_base(&mut self) {
        let Some(base) = self.base.take() else {
            return;
        };
        self.undo(0);
        for &code in &self.touched {
            self.imp[code as usize].truncate(base.imp_len[code as usize] as usize);
        }
        self.touched.clear();
        let end = self.start[base.clauses] as usize;
        self.start.truncate(base.clauses + 1);
        self.lits.truncate(end);
        self.flags.truncate(base.clauses);
        self.same_hash.truncate(base.clauses);
        // The base's own long clauses stay watched where they are: by their first two literals,
        // which is all a watch needs with nothing assigned. Only the clauses added since leave.
        for &code in &self.dirty {
            let code = code as usize;
            let mask = self.dirty_mask[code];
            if mask & 1 << Kind::Formula as u8 != 0 {
                self.watches[code][Kind::Formula as usize]
                    .retain(|w| (w.clause as usize) < base.clauses);
            }
            for kind in [Kind::Core, Kind::Rest] {
                if mask & 1 << kind as u8 != 0 {
                    self.watches[code][kind as usize].clear();
                }
            }
            self.dirty_mask[code] = 0;
        }
        self.dirty.clear();
        self.top_conflict = base.top_conflict;
        self.lemmas.clear();
        self.steps.clear();
        self.base = Some(base);
    }

    /// A checker of the clauses added so far simplified by the top-level assignment: satisfied
    /// clauses and tautologies dropped, false literals removed, the assignment kept as unit
    /// clauses. The two formulas are equivalent, and unit propagation from any assignment reaches
    /// the same conclusions in both, so a lemma is RUP in one exactly when it is in the other (and
    /// RAT with respect to an equivalent formula keeps satisfiability all the same); but where the
    /// top level settles most of a large formula (a certificate's plain CNF under its givens), each
    /// check in the reduced one scans far fewer clauses.
    #[cfg(test)]
    pub(crate) fn reduced(&mut self) -> Checker {
        let mut out = Checker::new();
        self.reduce_into(&mut out);
        out
    }

    /// [`Checker::reduced`] into `out`, whose allocations are reused (one checker per thread
    /// instead of one per certificate: the per-literal lists of a 25x25 CNF cost as much to
    /// allocate and free as to fill). The unit clauses of the assignment are not stored: their
    /// literals are set at the top level as assumed (no clause of the reduced formula holds their
    /// variables, so they imply nothing, and no check analyses below the top level); RAT, which
    /// would find the unit clause (¬p) among the clauses holding ¬p, rejects a pivot p false
    /// there ([`Checker::rat`]), as the resolvent with (¬p), the lemma itself, is not RUP.
    ///
    /// The top level of `self` must be closed under unit propagation (every clause added
    /// propagates), so that a binary clause with a false literal has its other literal true.
    pub(crate) fn reduce_into(&mut self, out: &mut Checker) {
        out.clear();
        if let Some(top) = (self.values.len() / 2).checked_sub(1) {
            out.grow(top);
        }
        if self.is_inconsistent() {
            out.add_clause(&[]);
            return;
        }
        let mut buf = std::mem::take(&mut out.buf);
        // The open literals of `clause` in `buf`, or false if it is satisfied.
        let open = |this: &Checker, clause: &[Lit], buf: &mut Vec<Lit>| {
            buf.clear();
            for &l in clause {
                match this.value(l) {
                    TRUE => return false,
                    FALSE => {}
                    _ => buf.push(l),
                }
            }
            true
        };
        for c in 0..self.start.len().saturating_sub(1) {
            let (s, e) = self.clause(c);
            if !open(self, &self.lits[s..e], &mut buf) || self.is_tautology(s, e) {
                continue;
            }
            out.add_clause(&buf);
        }
        // The binary clauses (x ∨ y), each once: y in the implications of ¬x, for x below y. With
        // x true every clause of the list is satisfied (most lists: a cell's digit ruled out), and
        // with x false too (the top level being closed, y is true): only open x have any.
        for (code, implied) in self.imp.iter().enumerate() {
            let x = !Lit::from_code(code);
            if self.value(x) != UNSET {
                continue;
            }
            for &y in implied {
                if x.code() < y.code() && open(self, &[x, y], &mut buf) {
                    out.add_clause(&buf);
                }
            }
        }
        out.buf = buf;
        for &l in &self.trail {
            out.assign(l, Reason::Assumed);
        }
        out.head = out.trail.len();
    }

    /// Empties the checker, keeping its allocations (and its mark stamps, which stay valid). Every
    /// field is named, so that a new one must be placed here: reset, or left as scratch.
    fn clear(&mut self) {
        let Checker {
            lits,
            start,
            flags,
            formula,
            imp,
            watches,
            values,
            reasons: _,
            position: _,
            analysed,
            trail,
            head,
            top_conflict,
            mark: _,
            stamp: _,
            seen: _,
            seen_stamp: _,
            buf: _,
            resolvent: _,
            stack: _,
            base,
            touched,
            dirty,
            dirty_mask,
            lemmas,
            same_hash,
            scratch: _,
            false_count: _,
            open_sum: _,
            binary_pos: _,
            steps,
            used,
            used_binaries,
            core_known,
            traced: _,
            traced_stamp: _,
        } = self;
        // Reasons and positions count only for a variable set; the rest is scratch.
        lits.clear();
        start.clear();
        flags.clear();
        *formula = 0;
        imp.iter_mut().for_each(Vec::clear);
        watches.iter_mut().flatten().for_each(Vec::clear);
        values.fill(UNSET);
        analysed.fill(false);
        trail.clear();
        *head = 0;
        *top_conflict = None;
        *base = None;
        touched.clear();
        dirty.clear();
        dirty_mask.fill(0);
        lemmas.clear();
        same_hash.clear();
        steps.clear();
        used.clear();
        used_binaries.clear();
        *core_known = false;
    }

    fn is_tautology(&mut self, s: usize, e: usize) -> bool {
        self.stamp = next_stamp(self.stamp, &mut self.mark);
        let mut t = false;
        for k in s..e {
            let l = self.lits[k];
            t |= self.mark[(!l).code()] == self.stamp;
            self.mark[l.code()] = self.stamp;
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::proof::Proof;

    fn c(v: &[isize]) -> Vec<Lit> {
        v.iter().map(|&x| Lit::from_dimacs(x)).collect()
    }

    fn checker(clauses: &[&[isize]]) -> Checker {
        let mut k = Checker::new();
        for cl in clauses {
            k.add_clause(&c(cl));
        }
        k
    }

    /// Checks the text DRAT `proof` against `clauses`.
    fn run(clauses: &[&[isize]], proof: &str) -> Result<(), Rejection> {
        checker(clauses).check(Proof::from_text_drat(proof.as_bytes()).unwrap().steps())
    }

    /// The eight clauses of all sign patterns over three variables: unsatisfiable.
    fn all_eight() -> Vec<Vec<isize>> {
        let mut v = Vec::new();
        for bits in 0..8 {
            v.push(
                (1..=3)
                    .map(|x| if bits >> (x - 1) & 1 == 1 { x } else { -x })
                    .collect(),
            );
        }
        v
    }

    /// `all_eight` and more clauses.
    fn with(more: &[&[isize]]) -> Vec<Vec<isize>> {
        let mut v = all_eight();
        v.extend(more.iter().map(|c| c.to_vec()));
        v
    }

    fn refs(v: &[Vec<isize>]) -> Vec<&[isize]> {
        v.iter().map(Vec::as_slice).collect()
    }

    impl Checker {
        /// Whether `clause` follows (RUP, else RAT) from the clauses present.
        fn follows(&mut self, clause: &[Lit]) -> bool {
            let top = self.trail.len();
            self.rup(clause, top) || self.rat(clause, clause.first().copied(), top)
        }
    }

    /// (1 2), (1), (2), then the empty clause: each RUP. The conflict comes with (2); checking
    /// (1) backward needs (1 2), which core-first propagation reaches only as a second choice.
    const REFUTATION: &str = "1 2 0\n1 0\n2 0\n0\n";

    #[test]
    fn a_resolution_refutation_checks() {
        assert_eq!(run(&refs(&all_eight()), REFUTATION), Ok(()));
    }

    #[test]
    fn a_lemma_that_does_not_follow_is_rejected() {
        // (1 2) (¬1 2) (1 ¬2): satisfiable (1 = 2 = true); the unit ¬2 is not RUP, nor RAT on ¬2
        // (resolving with (¬1 2) gives (¬2 ¬1), not RUP); it propagates to a conflict, so the
        // conflict depends on it and it is checked.
        let f: [&[isize]; 3] = [&[1, 2], &[-1, 2], &[1, -2]];
        assert_eq!(run(&f, "-2 0\n0\n"), Err(Rejection::Lemma(0)));
        // No empty clause without a conflict.
        assert_eq!(run(&f, "2 0\n"), Err(Rejection::NoEmptyClause));
        assert_eq!(run(&f, "2 0\n0\n"), Err(Rejection::Lemma(1)));
        // A conflict, but no empty clause.
        assert_eq!(
            run(&refs(&all_eight()), "1 2 0\n1 0\n2 0\n"),
            Err(Rejection::NoEmptyClause)
        );
    }

    /// Backward checking checks only what the conflict depends on, like DRAT-trim: a lemma that
    /// does not follow is accepted when nothing uses it, and lemmas after the conflict are not
    /// read; one that the conflict uses is rejected.
    #[test]
    fn only_the_lemmas_the_refutation_uses_are_checked() {
        // all_eight, and (5 6), (5 ¬6), which imply 5, and (7 8).
        let f = with(&[&[5, 6], &[5, -6], &[7, 8]]);
        let f = refs(&f);
        // (¬7) follows from nothing (the resolvent with (7 8) is (¬7 8), not RUP) and implies 8.
        assert_eq!(run(&f, "-7 0\n1 2 0\n1 0\n2 0\n0\n"), Ok(()));
        assert_eq!(run(&f, "1 2 0\n1 0\n2 0\n-7 0\n-7 -8 0\n0\n"), Ok(()));
        // (¬5) contradicts the formula, which propagation finds: rejected.
        assert_eq!(
            run(&f, "-5 0\n1 2 0\n1 0\n2 0\n0\n"),
            Err(Rejection::Lemma(0))
        );
        // Used later: (¬5 ¬1) is not checked when it is added; the conflict after (1) uses it.
        assert_eq!(
            run(&f, "-5 -1 0\n1 2 0\n1 0\n2 0\n0\n"),
            Err(Rejection::Lemma(0))
        );
    }

    /// The backward pass sees each lemma's database as the forward pass had it: lemmas added later
    /// are gone and their top-level consequences undone.
    #[test]
    fn later_lemmas_do_not_help_earlier_ones() {
        // Satisfiable (1 = 2 = 3 = false). (1 3) is neither RUP nor RAT; (2) is RUP once (1 3) is
        // there, and with 2 true (1 3) would be satisfied at the top level. (2) propagates to a
        // conflict that uses it; its check uses (1 3); so (1 3) is checked, without (2).
        let f: [&[isize]; 4] = [&[2, -1], &[2, -3], &[-2, 1], &[-1, -2]];
        assert_eq!(run(&f, "1 3 0\n2 0\n0\n"), Err(Rejection::Lemma(0)));
    }

    #[test]
    fn rat_lemmas_are_checked() {
        // Unsatisfiable: (1 2) (¬1 2) (1 ¬2) (¬1 ¬2). (¬4 1) is RAT on the fresh ¬4 (no clause
        // holds 4), (4) RAT on 4 (the resolvent with (¬4 1) is (4 1), RUP); neither is RUP. With
        // them propagation finds the conflict.
        let f: [&[isize]; 4] = [&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]];
        assert_eq!(run(&f, "-4 1 0\n4 0\n0\n"), Ok(()));
        // Satisfiable (1 = 2 = true): after (4), (¬4 ¬1) is neither RUP nor RAT on ¬4 (the
        // resolvent with (4) is itself).
        let g: [&[isize]; 3] = [&[1, 2], &[-1, 2], &[1, -2]];
        assert_eq!(run(&g, "4 0\n-4 -1 0\n0\n"), Err(Rejection::Lemma(1)));
    }

    /// The formula's binary clauses count in a RAT check although they are kept only as
    /// implications. F = (1 2) (¬1 2) (1 ¬2) (¬5 ¬1) is satisfiable (1 = 2 = true, 5 = false); (5)
    /// is not RUP, and not RAT on 5: the resolvent with (¬5 ¬1) is (5 ¬1), not RUP. Missing that
    /// clause, (5) would be RAT vacuously; with it, propagation finds a conflict. The same for the
    /// binary clause given twice (merged in a saved base).
    #[test]
    fn binary_clauses_block_rat() {
        let f: [&[isize]; 4] = [&[1, 2], &[-1, 2], &[1, -2], &[-5, -1]];
        assert_eq!(run(&f, "5 0\n0\n"), Err(Rejection::Lemma(0)));
        let mut k = checker(&f);
        k.add_clause(&c(&[-1, -5]));
        k.save_base();
        for _ in 0..2 {
            k.reset_to_base();
            let proof = Proof::from_text_drat(b"5 0\n0\n").unwrap();
            assert_eq!(k.check(proof.steps()), Err(Rejection::Lemma(0)));
        }
    }

    #[test]
    fn rat_on_a_fresh_variable_is_accepted() {
        // Extended resolution: x4 ↔ (1 ∧ 2) by (¬4 1), (¬4 2), (4 ¬1 ¬2): each RAT on its first
        // literal over the fresh variable 4, none RUP.
        let mut k = checker(&[&[1, 3], &[2, -3]]);
        let top = k.trail.len();
        assert!(!k.rup(&c(&[-4, 1]), top));
        for lemma in [&[-4, 1][..], &[-4, 2], &[4, -1, -2]] {
            assert!(k.follows(&c(lemma)), "{lemma:?}");
            k.add_clause(&c(lemma));
        }
        // A RAT clause whose pivot clashes with a clause that blocks it: (4) is not RAT now.
        assert!(!k.follows(&c(&[4])));
    }

    #[test]
    fn long_clauses_propagate_through_watches() {
        // (1 2 3 4) with ¬1 ¬2 ¬3 forces 4; with (¬4 5) and (¬5) a conflict.
        let mut k = checker(&[&[1, 2, 3, 4], &[-4, 5]]);
        assert!(!k.rup(&c(&[1, 2, 3]), 0));
        k.add_clause(&c(&[-5]));
        assert!(k.rup(&c(&[1, 2, 3]), 0));
        k.add_clause(&c(&[1, 2, 3]));
        // Units at the top level: ¬1 and ¬2 make (1 2 3) a unit; then ¬3 is inconsistent.
        k.add_clause(&c(&[-1]));
        k.add_clause(&c(&[-2]));
        assert!(!k.is_inconsistent());
        k.add_clause(&c(&[-3]));
        assert!(k.is_inconsistent());
        assert_eq!(k.check([(false, &[][..])]), Ok(()));
    }

    #[test]
    fn a_base_is_reused() {
        let f = all_eight();
        let mut k = Checker::new();
        for cl in f.iter().skip(1) {
            k.add_clause(&c(cl));
        }
        // Seven of eight: satisfiable only by (-1 -2 -3) (the one clause left out was (-1 -2 -3)).
        let proof = Proof::from_text_drat(REFUTATION.as_bytes()).unwrap();
        k.save_base();
        for _ in 0..3 {
            k.reset_to_base();
            assert_eq!(k.check([(false, &[][..])]), Err(Rejection::Lemma(0)));
            k.reset_to_base();
            // No conflict: the empty clause (step 3) does not follow.
            assert_eq!(k.check(proof.steps()), Err(Rejection::Lemma(3)));
            k.reset_to_base();
            k.add_clause(&c(&[-1, -2, -3]));
            assert_eq!(k.check(proof.steps()), Ok(()));
        }
        k.reset_to_base();
        k.add_clause(&c(&[1]));
        assert_eq!(k.check([(false, &[][..])]), Err(Rejection::Lemma(0)));
    }

    /// The reduced checker accepts and rejects what the full one does: a refutation of the eight
    /// clauses over 1-3 once 4 (a unit) has settled a clause; a lemma that does not follow and is
    /// used.
    #[test]
    fn the_reduced_checker_agrees() {
        let clauses = with(&[&[4], &[-4, 5, 6], &[4, 1, 2, 3]]);
        let clauses = refs(&clauses);
        let steps = |text: &str| Proof::from_text_drat(text.as_bytes()).unwrap();
        for reduce in [false, true] {
            let k = || {
                let mut k = checker(&clauses);
                if reduce { k.reduced() } else { k }
            };
            assert_eq!(k().check(steps(REFUTATION).steps()), Ok(()));
            // (¬5) leaves (5 6) to imply 6; (¬6) then is a conflict that uses (¬5) and itself,
            // and (¬6) does not follow (RAT: the resolvent with (¬4 5 6) is not RUP).
            assert_eq!(
                k().check(steps("-5 0\n-6 0\n0\n").steps()),
                Err(Rejection::Lemma(1))
            );
            assert_eq!(
                k().check(steps("5 6 0\n").steps()),
                Err(Rejection::NoEmptyClause)
            );
        }
    }

    /// A reduced checker does not store the unit clauses of its top level, yet RAT still meets
    /// them: F = (¬4) (1 3) is satisfiable; the lemma (4) is not RUP, nor RAT on 4 (its resolvent
    /// with (¬4) is (4) itself), so "(4), the empty clause" is rejected by the full checker and by
    /// the reduced one, fresh or reusing another's allocations ([`Checker::reduce_into`]), which
    /// between two formulas keeps nothing of the first.
    #[test]
    fn a_reduced_checker_sees_its_units_in_rat() {
        let f: [&[isize]; 2] = [&[-4], &[1, 3]];
        let bad = Proof::from_text_drat(b"4 0\n0\n").unwrap();
        let good = Proof::from_text_drat(REFUTATION.as_bytes()).unwrap();
        assert_eq!(checker(&f).check(bad.steps()), Err(Rejection::Lemma(0)));
        assert_eq!(
            checker(&f).reduced().check(bad.steps()),
            Err(Rejection::Lemma(0))
        );
        let eight = with(&[&[-4], &[4, 5, 6]]);
        let mut out = Checker::new();
        for _ in 0..2 {
            checker(&refs(&eight)).reduce_into(&mut out);
            assert_eq!(out.check(good.steps()), Ok(()));
            checker(&f).reduce_into(&mut out);
            assert_eq!(out.check(bad.steps()), Err(Rejection::Lemma(0)));
            assert!(out.check(good.steps()).is_err(), "F is satisfiable");
        }
    }

    /// A deleted lemma no longer counts. F = (1 ∨ 2 ∨ 3), (1 ∨ 2 ∨ ¬3), (¬1 ∨ 4), (¬1 ∨ ¬4),
    /// (¬2 ∨ 5), (¬2 ∨ ¬5), (¬6). (1 ∨ 2) is RUP; with it (1) is RUP (¬1 gives 2, then 5 and ¬5),
    /// but not from F alone, nor RAT on 1 (the resolvent (1 ∨ 4) is not RUP). The same with the
    /// long lemma (1 ∨ 2 ∨ 6) and then (1 ∨ 6). (1) and (1 ∨ 6) propagate to a conflict. Deleting a
    /// clause that is not a lemma changes nothing.
    #[test]
    fn deleted_lemmas_are_gone() {
        let f: [&[isize]; 7] = [
            &[1, 2, 3],
            &[1, 2, -3],
            &[-1, 4],
            &[-1, -4],
            &[-2, 5],
            &[-2, -5],
            &[-6],
        ];
        for (lemma, then) in [("1 2", "1"), ("1 2 6", "1 6")] {
            for delete in [false, true] {
                let mut proof = format!("{lemma} 0\n");
                if delete {
                    let reversed: Vec<&str> = lemma.split(' ').rev().collect();
                    proof += &format!("d {} 0\n", reversed.join(" "));
                }
                proof += &format!("d -1 4 0\n{then} 0\n0\n");
                let expected = if delete {
                    Err(Rejection::Lemma(3))
                } else {
                    Ok(())
                };
                assert_eq!(run(&f, &proof), expected, "{proof}");
            }
        }
    }

    /// A lemma deleted after a lemma that needs it is there when that lemma is checked. F as in
    /// `deleted_lemmas_are_gone` but (¬1 4 7), (¬1 ¬4 7) instead of (¬1 4), (¬1 ¬4), and (¬7 8),
    /// (¬7 ¬8): (1) needs (1 2), and the conflict comes only with (¬7), after (1 2) is deleted.
    #[test]
    fn deletions_are_undone_going_backward() {
        let f: [&[isize]; 8] = [
            &[1, 2, 3],
            &[1, 2, -3],
            &[-2, 5],
            &[-2, -5],
            &[-1, 4, 7],
            &[-1, -4, 7],
            &[-7, 8],
            &[-7, -8],
        ];
        assert_eq!(run(&f, "1 2 0\n1 0\nd 1 2 0\n-7 0\n0\n"), Ok(()));
        // Deleted before: (1) does not follow.
        assert_eq!(
            run(&f, "1 2 0\nd 2 1 0\n1 0\n-7 0\n0\n"),
            Err(Rejection::Lemma(2))
        );
    }

    /// Soundness on random formulas (seeded): whatever the proof (lemmas drawn at random, some over
    /// fresh variables so that RAT applies, deletions of earlier lemmas, the empty clause last),
    /// an accepted proof refutes the formula, which brute force confirms. Most formulas drawn are
    /// satisfiable, so a checker that skipped a lemma the refutation needs, or accepted one that
    /// does not follow, would accept some of these proofs. Rejections of proofs of unsatisfiable
    /// formulas are counted too, so that the test sees both answers.
    #[test]
    fn accepted_proofs_refute_their_formula() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |k: u64| {
            // xorshift64*
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % k
        };
        let (mut accepted, mut rejected_sat) = (0, 0);
        for _ in 0..4000 {
            let vars = 4 + next(5) as isize;
            let clauses = 2 * vars as u64 + next(3 * vars as u64);
            let mut f: Vec<Vec<isize>> = Vec::new();
            let random_clause = |next: &mut dyn FnMut(u64) -> u64, top: isize, len: u64| {
                (0..len)
                    .map(|_| {
                        let v = 1 + next(top as u64) as isize;
                        if next(2) == 0 { v } else { -v }
                    })
                    .collect::<Vec<isize>>()
            };
            for _ in 0..clauses {
                let len = 2 + next(2);
                f.push(random_clause(&mut next, vars, len));
            }
            let satisfiable = (0..1u32 << vars).any(|m| {
                f.iter().all(|c| {
                    c.iter()
                        .any(|&l| (m >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0))
                })
            });
            let mut proof = String::new();
            let mut lemmas: Vec<Vec<isize>> = Vec::new();
            for _ in 0..1 + next(8) {
                if !lemmas.is_empty() && next(5) == 0 {
                    let d = &lemmas[next(lemmas.len() as u64) as usize];
                    proof += &format!("d {} 0\n", join(d));
                    continue;
                }
                let len = 1 + next(3);
                let lemma = random_clause(&mut next, vars + 2, len);
                proof += &format!("{} 0\n", join(&lemma));
                lemmas.push(lemma);
            }
            proof += "0\n";
            let ok = run(&refs(&f), &proof).is_ok();
            assert!(
                !ok || !satisfiable,
                "accepted a proof of a satisfiable formula: {f:?}\n{proof}"
            );
            accepted += usize::from(ok);
            rejected_sat += usize::from(!ok && satisfiable);
        }
        assert!(
            accepted > 100 && rejected_sat > 100,
            "{accepted} {rejected_sat}"
        );
    }

    fn join(c: &[isize]) -> String {
        c.iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Deleting the clause that implies a value at the top level is ignored (as in DRAT-trim): the
    /// value stays, and so does the clause, so that nothing can rest on the value without it.
    /// Here (5 2) is RAT on the fresh 5 and implies 5 (2 is false); after its deletion (¬5) would
    /// be RAT on ¬5 (no clause would hold 5) and contradict the value 5 that stays; but F = (¬2)
    /// is satisfiable. Keeping the clause, (¬5) is not RAT (the resolvent (¬5 2) is not RUP).
    #[test]
    fn deleting_a_reason_is_ignored() {
        assert_eq!(
            run(&[&[-2]], "5 2 0\nd 5 2 0\n-5 0\n0\n"),
            Err(Rejection::Lemma(2))
        );
    }
}
