//! Our own simplification of a CNF [`Formula`] before varisat sees it: unit propagation, and
//! optionally failed-literal probing, over the clauses.
//!
//! Clause level only: this code knows nothing of cells, digits or units, and shares nothing with the
//! native backend. Over the extended or pruned encodings, unit propagation amounts to naked and hidden
//! singles, which alone solve many easy puzzles. Failed-literal probing (a classic SAT preprocessing
//! step, e.g. Lynce & Marques-Silva 2003, "Probing-based preprocessing techniques for propositional
//! satisfiability"; lingeling and CaDiCaL "probe") sets one literal true, propagates, and if that
//! leads to a conflict fixes the literal false; lifting (Le Berre 2001) probes both literals of a
//! binary clause and fixes what both imply. See [`Simplifier::run`] for the schedule.
//!
//! Propagation is counter based: binary clauses become implication lists, longer clauses keep a count
//! of literals not yet false and of literals true, so a trial assignment is undone exactly.

use crate::sat::lit::Lit;
use crate::sat::proof::Proof;
use crate::sat::sink::{ClauseSink, Formula};

/// A variable's value: unassigned, true or false.
pub(crate) const UNSET: i8 = 0;
pub(crate) const TRUE: i8 = 1;
pub(crate) const FALSE: i8 = -1;

/// The value of `lit` under `values`.
#[inline]
pub(crate) fn lit_value(values: &[i8], lit: Lit) -> i8 {
    let v = values[lit.var().index()];
    if lit.is_positive() { v } else { -v }
}

/// Counts a probe and, every 1,024, whether the solve was asked to stop
/// ([`crate::solve::stop_when`]): probing is an optional speed-up, so it ends there without
/// changing what it proved, and the solve returns soon.
#[inline]
fn stopping(probes: &mut u32) -> bool {
    *probes = probes.wrapping_add(1);
    probes.is_multiple_of(1024) && crate::solve::stop_requested()
}

/// Sets the unassigned literal `l` true and records it.
#[inline]
fn set(values: &mut [i8], trail: &mut [Lit], len: &mut usize, l: Lit) {
    values[l.var().index()] = if l.is_positive() { TRUE } else { FALSE };
    // Each variable is assigned at most once, so the trail (one slot per variable) has room.
    trail[*len] = l;
    *len += 1;
}

/// Failed-literal probing stops after this many probes in a row without a failure (measured on the
/// 9x9 sets: top1465 loses almost nothing, the hardest sets stop wasting time).
pub(crate) const PROBE_PATIENCE: u64 = 60;

/// The same when lifting found nothing: such puzzles rarely have failed literals either (none of
/// the forum-hardest sample has), but a few easy ones do.
pub(crate) const PROBE_PATIENCE_AFTER_IDLE_LIFT: u64 = 20;

/// What simplification concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The formula is unsatisfiable.
    Conflict,
    /// [`Simplifier::values`] is implied by the formula, and `rest` holds what is left.
    Simplified,
    /// Nothing could be fixed: the formula stands as it is (`rest` is left empty, not copied).
    Unchanged,
}

/// Simplification with buffers kept between runs (so that a batch of puzzles allocates once).
#[derive(Clone, Debug, Default)]
pub(crate) struct Simplifier {
    /// Binary clauses as implications: literal code -> literals it implies (CSR: `imp_start`).
    imp_start: Vec<u32>,
    imp: Vec<Lit>,
    /// Longer clauses: literals flat, clause `i` at `long_start[i]..long_start[i + 1]`.
    long_start: Vec<u32>,
    long_lits: Vec<Lit>,
    /// Per long clause: literals not yet processed as false, and literals processed as true.
    left: Vec<u32>,
    ntrue: Vec<u32>,
    /// Literal code -> long clauses containing it (CSR: `occ_start`).
    occ_start: Vec<u32>,
    occ: Vec<u32>,
    /// Assigned literals in order: `trail[..trail_len]` (one slot per variable).
    trail: Vec<Lit>,
    trail_len: usize,
    /// How much of the trail has been processed (its counters updated).
    head: usize,
    /// Per variable index: [`UNSET`], [`TRUE`] or [`FALSE`] (fixed numbering).
    pub(crate) values: Vec<i8>,
    /// Distinct variables occurring in the last formula.
    pub(crate) distinct_vars: u64,
    /// When set, what probing fixes is recorded here as DRAT lemmas, each a reverse unit
    /// propagation (RUP) consequence of the formula and the lemmas before it (see
    /// [`Simplifier::record_lemmas`]).
    lemmas: Option<Proof>,
    scratch: Vec<u32>,
    /// Probing epoch: starts at 1 and grows whenever probing fixes a literal, which makes every
    /// earlier probe result stale.
    epoch: u32,
    /// Per probed variable: the epoch in which a successful probe implied it.
    stamp: Vec<u32>,
    /// Per probed variable: the epoch, start and length (in `implied`) of what its positive
    /// literal implied when last probed successfully.
    cached: Vec<(u32, u32, u32)>,
    /// Implication sets of the probes of this epoch, back to back.
    implied: Vec<Lit>,
    /// Literals implied by both sides of a binary clause.
    both: Vec<Lit>,
    /// Scratch: the open literals of a clause being copied into `rest`.
    emit: Vec<Lit>,
    /// Probe candidates with their sort key, and the probing order built from them.
    keyed: Vec<(u8, u32)>,
    order: Vec<u32>,
    /// After [`Simplifier::load_base`]: the base formula's counters before any assignment, its
    /// unit clauses, and whether it holds an empty clause.
    base_left: Vec<u32>,
    base_units: Vec<Lit>,
    base_ok: bool,
}

/// Adds to `rest` the clause of the literals of `lits` that `values` leaves open (`buf` is scratch).
fn add_open(values: &[i8], lits: &[Lit], buf: &mut Vec<Lit>, rest: &mut Formula) {
    // Gathered without branching: which literals are open is unpredictable.
    buf.clear();
    buf.resize(lits.len(), Lit::from_index(0, true));
    let mut k = 0;
    for &l in lits {
        buf[k] = l;
        k += usize::from(values[l.var().index()] == UNSET);
    }
    rest.add_clause(&buf[..k]);
}

impl Simplifier {
    /// Simplifies `formula`: unit propagation, then (if `probe_vars` is non-empty) failed-literal
    /// probing of the positive literals of variables with index below `probe_vars`. On
    /// [`Verdict::Simplified`], `rest` (cleared first) holds the clauses not satisfied by
    /// [`Simplifier::values`], without their false literals; each has at least two literals.
    pub(crate) fn run(
        &mut self,
        formula: &Formula,
        probe_vars: usize,
        rest: &mut Formula,
    ) -> Verdict {
        rest.clear();
        if !self.load(formula) {
            return Verdict::Conflict;
        }
        if !self.propagate() {
            return Verdict::Conflict;
        }
        if probe_vars > 0 && !self.probe(probe_vars.min(self.values.len())) {
            return Verdict::Conflict;
        }
        if self.trail_len == 0 {
            return Verdict::Unchanged;
        }
        if self.trail_len as u64 == self.distinct_vars {
            // Every variable is assigned without conflict: every clause is satisfied.
            return Verdict::Simplified;
        }
        let mut buf = std::mem::take(&mut self.emit);
        for c in formula.clauses() {
            if c.iter().any(|&l| lit_value(&self.values, l) == TRUE) {
                continue;
            }
            add_open(&self.values, c, &mut buf, rest);
        }
        self.emit = buf;
        Verdict::Simplified
    }

    /// How many variables are assigned.
    pub(crate) fn assigned(&self) -> usize {
        self.trail_len
    }

    /// Starts (or, with `false`, stops) recording what probing fixes as lemmas, for a certificate.
    ///
    /// Unit propagation needs no lemma: a checker propagates the formula's units itself. A failed
    /// literal x gives the lemma ¬x (setting x propagates to a conflict); a literal l implied by
    /// both literals of a clause (a ∨ b) gives (¬a ∨ l), (¬b ∨ l) — each a propagation of a or b —
    /// and then l, which follows from them and (a ∨ b) by propagation. So every lemma is a RUP
    /// consequence of the formula and the lemmas before it, as DRAT checkers require.
    pub(crate) fn record_lemmas(&mut self, on: bool) {
        self.lemmas = on.then(Proof::new);
    }

    /// The lemmas recorded since [`Simplifier::record_lemmas`] (or the last call), if recording.
    pub(crate) fn take_lemmas(&mut self) -> Option<Proof> {
        self.lemmas.as_mut().map(std::mem::take)
    }

    /// Records the lemma `lits`, if recording.
    #[inline]
    fn lemma(&mut self, lits: &[Lit]) {
        if let Some(p) = &mut self.lemmas {
            p.add(lits);
        }
    }

    /// Loads `formula` as a base to be run many times under different unit clauses
    /// ([`Simplifier::run_with_units`]), e.g. a puzzle-independent encoding under each puzzle's
    /// givens. Duplicate binary clauses are kept once (a pair of cells sharing a row and a box has
    /// its at-most-one clause twice in the extended encoding).
    pub(crate) fn load_base(&mut self, formula: &Formula) {
        self.base_ok = self.load(formula);
        self.base_units = self.trail[..self.trail_len].to_vec();
        // De-duplicate each implication list, compacting the lists in place.
        let codes = self.imp_start.len() - 1;
        let mut out = 0usize;
        let mut list: Vec<Lit> = Vec::new();
        for code in 0..codes {
            let (a, b) = (
                self.imp_start[code] as usize,
                self.imp_start[code + 1] as usize,
            );
            list.clear();
            list.extend_from_slice(&self.imp[a..b]);
            list.sort_unstable();
            list.dedup();
            self.imp_start[code] = out as u32;
            self.imp[out..out + list.len()].copy_from_slice(&list);
            out += list.len();
        }
        self.imp_start[codes] = out as u32;
        self.imp.truncate(out);
        self.base_left = self.left.clone();
    }

    /// Runs the base formula of [`Simplifier::load_base`] with the unit clauses `units` (over the
    /// base formula's variables) added:
    /// unit propagation, then probing as in [`Simplifier::run`]. On [`Verdict::Simplified`], `rest`
    /// (cleared first) holds the base clauses not satisfied by [`Simplifier::values`], without
    /// their false literals: the binary clauses first, each once, by literal, then the longer
    /// ones in order. Never [`Verdict::Unchanged`].
    pub(crate) fn run_with_units(
        &mut self,
        units: &[Lit],
        probe_vars: usize,
        rest: &mut Formula,
    ) -> Verdict {
        rest.clear();
        self.values.fill(UNSET);
        self.trail_len = 0;
        self.head = 0;
        self.left.copy_from_slice(&self.base_left);
        self.ntrue.fill(0);
        if !self.base_ok {
            return Verdict::Conflict;
        }
        debug_assert!(units.iter().all(|l| l.var().index() < self.values.len()));
        let base_units = std::mem::take(&mut self.base_units);
        let ok = base_units.iter().chain(units).all(|&l| self.assign(l));
        self.base_units = base_units;
        if !ok || !self.propagate() {
            return Verdict::Conflict;
        }
        if probe_vars > 0 && !self.probe(probe_vars.min(self.values.len())) {
            return Verdict::Conflict;
        }
        if self.trail_len as u64 == self.distinct_vars {
            return Verdict::Simplified;
        }
        // After propagation without conflict a binary clause with a false literal has its other
        // literal true: an open binary clause has both literals unassigned. Each is found from
        // its smaller literal a, as (¬a → b) with b > a: the loaded implication lists are sorted,
        // so those b are a suffix of ¬a's list. The open ones are gathered without branching
        // (which literals are open is unpredictable).
        let mut buf = std::mem::take(&mut self.emit);
        let values = &self.values[..];
        for (v, &value) in values.iter().enumerate() {
            if value != UNSET {
                continue;
            }
            for a in [Lit::from_index(v, false), Lit::from_index(v, true)] {
                let p = (!a).code();
                let list = &self.imp[self.imp_start[p] as usize..self.imp_start[p + 1] as usize];
                let later = &list[list.partition_point(|b| b.code() <= a.code())..];
                buf.clear();
                buf.resize(later.len(), a);
                let mut k = 0;
                for &b in later {
                    buf[k] = b;
                    k += usize::from(values[b.var().index()] == UNSET);
                }
                rest.add_binaries(a, &buf[..k]);
            }
        }
        for c in 0..self.left.len() {
            if self.ntrue[c] > 0 {
                continue;
            }
            let lits =
                &self.long_lits[self.long_start[c] as usize..self.long_start[c + 1] as usize];
            add_open(values, lits, &mut buf, rest);
        }
        self.emit = buf;
        Verdict::Simplified
    }

    /// Builds the implication lists and occurrence lists; enqueues unit clauses. False on an empty
    /// clause or contradicting units.
    fn load(&mut self, formula: &Formula) -> bool {
        let nv = formula.max_var();
        let codes = 2 * nv;
        self.values.clear();
        self.values.resize(nv, UNSET);
        self.trail.clear();
        self.trail.resize(nv, Lit::from_index(0, true));
        self.trail_len = 0;
        self.head = 0;

        // Counts per literal code: implications and long-clause occurrences.
        let mut count = std::mem::take(&mut self.scratch);
        count.clear();
        count.resize(2 * codes, 0);
        let mut longs = 0usize;
        let mut long_lits = 0usize;
        for c in formula.clauses() {
            match c.len() {
                0 | 1 => {}
                2 => {
                    count[(!c[0]).code()] += 1;
                    count[(!c[1]).code()] += 1;
                }
                k => {
                    longs += 1;
                    long_lits += k;
                    for l in c {
                        count[codes + l.code()] += 1;
                    }
                }
            }
        }

        fn prefix(start: &mut Vec<u32>, counts: &[u32]) {
            start.clear();
            start.reserve(counts.len() + 1);
            let mut acc = 0u32;
            start.push(0);
            for &c in counts {
                acc += c;
                start.push(acc);
            }
        }
        prefix(&mut self.imp_start, &count[..codes]);
        prefix(&mut self.occ_start, &count[codes..]);
        // Reuse `count` as fill cursors.
        count[..codes].copy_from_slice(&self.imp_start[..codes]);
        count[codes..].copy_from_slice(&self.occ_start[..codes]);
        self.imp.clear();
        self.imp
            .resize(self.imp_start[codes] as usize, Lit::from_index(0, true));
        self.occ.clear();
        self.occ.resize(self.occ_start[codes] as usize, 0);
        self.left.clear();
        self.left.reserve(longs);
        self.ntrue.clear();
        self.ntrue.resize(longs, 0);
        self.long_start.clear();
        self.long_start.reserve(longs + 1);
        self.long_start.push(0);
        self.long_lits.clear();
        self.long_lits.reserve(long_lits);

        let mut ok = true;
        for c in formula.clauses() {
            match c.len() {
                0 => ok = false,
                1 => ok &= self.assign(c[0]),
                2 => {
                    let (a, b) = (c[0], c[1]);
                    let s = &mut count[(!a).code()];
                    self.imp[*s as usize] = b;
                    *s += 1;
                    let s = &mut count[(!b).code()];
                    self.imp[*s as usize] = a;
                    *s += 1;
                }
                _ => {
                    let id = (self.long_start.len() - 1) as u32;
                    for l in c {
                        let s = &mut count[codes + l.code()];
                        self.occ[*s as usize] = id;
                        *s += 1;
                    }
                    self.long_lits.extend_from_slice(c);
                    self.long_start.push(self.long_lits.len() as u32);
                    self.left.push(c.len() as u32);
                }
            }
        }
        self.scratch = count;
        // A variable occurs if it has an implication or a long-clause occurrence, or a unit clause.
        let (imp, occ) = (&self.imp_start, &self.occ_start);
        self.distinct_vars = (0..nv)
            .filter(|&v| {
                self.values[v] != UNSET
                    || imp[2 * v] != imp[2 * v + 2]
                    || occ[2 * v] != occ[2 * v + 2]
            })
            .count() as u64;
        ok
    }

    /// Sets `l` true (without propagating). False if it is already false.
    #[inline]
    fn assign(&mut self, l: Lit) -> bool {
        match lit_value(&self.values, l) {
            TRUE => true,
            FALSE => false,
            _ => {
                set(&mut self.values, &mut self.trail, &mut self.trail_len, l);
                true
            }
        }
    }

    /// Processes the trail from `head`. False on a conflict (the counters stay consistent with
    /// `head`, so [`Simplifier::undo`] restores them).
    fn propagate(&mut self) -> bool {
        let Simplifier {
            imp_start,
            imp,
            long_start,
            long_lits,
            occ_start,
            occ,
            left,
            ntrue,
            trail,
            trail_len,
            head,
            values,
            ..
        } = self;
        let (imp_start, imp, long_start, long_lits) =
            (&imp_start[..], &imp[..], &long_start[..], &long_lits[..]);
        let (occ_start, occ, left, ntrue) =
            (&occ_start[..], &occ[..], &mut left[..], &mut ntrue[..]);
        let (trail, values) = (&mut trail[..], &mut values[..]);
        let mut len = *trail_len;
        let mut h = *head;
        let ok = loop {
            if h >= len {
                break true;
            }
            let l = trail[h];
            h += 1;
            let code = l.code();
            // Long clauses: count the true literal, and the false one.
            for &c in &occ[occ_start[code] as usize..occ_start[code + 1] as usize] {
                ntrue[c as usize] += 1;
            }
            let neg = (!l).code();
            let mut conflict = false;
            for &c in &occ[occ_start[neg] as usize..occ_start[neg + 1] as usize] {
                let c = c as usize;
                left[c] -= 1;
                if conflict || ntrue[c] > 0 || left[c] > 1 {
                    continue;
                }
                // At most one literal is not yet processed as false; the values may know more.
                let mut unit = None;
                let mut satisfied = false;
                for &m in &long_lits[long_start[c] as usize..long_start[c + 1] as usize] {
                    match lit_value(values, m) {
                        TRUE => {
                            satisfied = true;
                            break;
                        }
                        UNSET => unit = Some(m),
                        _ => {}
                    }
                }
                match unit {
                    _ if satisfied => {}
                    Some(m) => set(values, trail, &mut len, m),
                    None => conflict = true,
                }
            }
            if conflict {
                break false;
            }
            // Binary clauses: implications.
            for &m in &imp[imp_start[code] as usize..imp_start[code + 1] as usize] {
                match lit_value(values, m) {
                    TRUE => {}
                    FALSE => conflict = true,
                    _ => set(values, trail, &mut len, m),
                }
                if conflict {
                    break;
                }
            }
            if conflict {
                break false;
            }
        };
        *trail_len = len;
        *head = h;
        ok
    }

    /// Undoes the trail down to `mark` (counters of processed literals reversed).
    fn undo(&mut self, mark: usize) {
        let Simplifier {
            occ_start,
            occ,
            left,
            ntrue,
            trail,
            trail_len,
            head,
            values,
            ..
        } = self;
        for (i, &l) in trail[mark..*trail_len].iter().enumerate() {
            if mark + i < *head {
                let code = l.code();
                for &c in &occ[occ_start[code] as usize..occ_start[code + 1] as usize] {
                    ntrue[c as usize] -= 1;
                }
                let neg = (!l).code();
                for &c in &occ[occ_start[neg] as usize..occ_start[neg + 1] as usize] {
                    left[c as usize] += 1;
                }
            }
            values[l.var().index()] = UNSET;
        }
        *trail_len = mark;
        *head = (*head).min(mark);
    }

    /// Probing over the positive literals of variables `0..vars`: first one lifting pass over the
    /// binary clauses ([`Simplifier::lift_binary`]), then failed-literal probing in rounds until a
    /// round fixes nothing or [`PROBE_PATIENCE`] probes in a row fix nothing
    /// ([`PROBE_PATIENCE_AFTER_IDLE_LIFT`] if lifting fixed nothing). False if the formula turns out
    /// unsatisfiable.
    ///
    /// Stopping early is always sound (the formula is just simplified less); the limits were
    /// measured on the 9x9 sets so that the hardest puzzles, which resist probing, go to varisat
    /// without much time lost.
    ///
    /// A literal implied by a probe that succeeded need not be probed while nothing new is fixed:
    /// its own propagation is part of the probe's, which had no conflict. `stamp` marks such
    /// literals with the current epoch; fixing a failed literal starts a new epoch.
    fn probe(&mut self, vars: usize) -> bool {
        let vars = vars.min(self.values.len());
        self.start_probing(vars);
        let before = self.trail_len;
        if !self.lift_binary(vars) {
            return false;
        }
        let patience = if self.trail_len == before {
            PROBE_PATIENCE_AFTER_IDLE_LIFT
        } else {
            PROBE_PATIENCE
        };
        self.failed_literals(vars, patience)
    }

    /// Failed-literal probing of the positive literals of variables `0..vars` (see
    /// [`Simplifier::probe`]), stopping after `patience` probes in a row without a failure. False if
    /// the formula turns out unsatisfiable.
    fn failed_literals(&mut self, vars: usize, patience: u64) -> bool {
        let vars = vars.min(self.values.len());
        if self.stamp.len() != vars {
            self.start_probing(vars);
        }
        let mut order = std::mem::take(&mut self.order);
        let ok = self.failed_literal_rounds(vars, patience, &mut order);
        self.order = order;
        ok
    }

    /// The rounds of [`Simplifier::failed_literals`], with `order` as the buffer for each round's order.
    fn failed_literal_rounds(&mut self, vars: usize, patience: u64, order: &mut Vec<u32>) -> bool {
        let mut idle = 0u64;
        let mut probes = 0u32;
        loop {
            let mut fixed_any = false;
            self.probe_order(vars, order);
            for &v in order.iter() {
                let v = v as usize;
                if self.values[v] != UNSET || self.stamp[v] == self.epoch {
                    continue;
                }
                if idle >= patience || stopping(&mut probes) {
                    return true;
                }
                let x = Lit::from_index(v, true);
                if !self.occurs(x) {
                    continue;
                }
                let mark = self.trail_len;
                self.assign(x);
                let ok = self.propagate();
                if ok {
                    self.stamp_implied(mark, vars);
                }
                self.undo(mark);
                idle += 1;
                if !ok {
                    idle = 0;
                    fixed_any = true;
                    self.new_epoch();
                    self.lemma(&[!x]);
                    if !self.assign(!x) || !self.propagate() {
                        return false;
                    }
                }
            }
            if !fixed_any {
                return true;
            }
        }
    }

    /// Resets the probing state (epoch, stamps, cached implication sets) for variables `0..vars`.
    fn start_probing(&mut self, vars: usize) {
        self.epoch = 1;
        self.stamp.clear();
        self.stamp.resize(vars, 0);
        self.cached.clear();
        self.cached.resize(vars, (0, 0, 0));
        self.implied.clear();
    }

    /// Stamps the positive probe literals on the trail from `mark` (what a successful probe
    /// implied) with the current epoch.
    fn stamp_implied(&mut self, mark: usize, vars: usize) {
        for &l in &self.trail[mark..self.trail_len] {
            if l.is_positive() && l.var().index() < vars {
                self.stamp[l.var().index()] = self.epoch;
            }
        }
    }

    /// Something was fixed: earlier probe results are stale.
    fn new_epoch(&mut self) {
        self.epoch += 1;
        self.implied.clear();
    }

    /// What the positive literal of probe variable `v` implies, from the cache of this epoch or
    /// by probing it: `Some((start, len))` in `implied`, or `None` if it fails (the failed literal
    /// is then fixed false and a new epoch begins). `Err(())` if fixing it is a conflict.
    fn implied_by(&mut self, v: usize, vars: usize) -> Result<Option<(usize, usize)>, ()> {
        let (e, start, len) = self.cached[v];
        if e == self.epoch {
            return Ok(Some((start as usize, len as usize)));
        }
        let x = Lit::from_index(v, true);
        let mark = self.trail_len;
        self.assign(x);
        let ok = self.propagate();
        if !ok {
            self.undo(mark);
            self.new_epoch();
            self.lemma(&[!x]);
            return if self.assign(!x) && self.propagate() {
                Ok(None)
            } else {
                Err(())
            };
        }
        self.stamp_implied(mark, vars);
        let start = self.implied.len();
        self.implied
            .extend_from_slice(&self.trail[mark..self.trail_len]);
        let len = self.trail_len - mark;
        self.undo(mark);
        self.cached[v] = (self.epoch, start as u32, len as u32);
        Ok(Some((start, len)))
    }

    /// Lifting over the positive binary clauses (a ∨ b) of variables below `vars` (Le Berre 2001,
    /// "Exploiting the real power of unit propagation lookahead"): probe a, then b; if one fails
    /// the other is fixed, and literals that both imply are fixed. One pass. False if the formula
    /// turns out unsatisfiable.
    fn lift_binary(&mut self, vars: usize) -> bool {
        let vars = vars.min(self.values.len());
        if self.stamp.len() != vars {
            self.start_probing(vars);
        }
        let mut seen = std::mem::take(&mut self.scratch);
        seen.clear();
        seen.resize(2 * self.values.len(), 0);
        let mut both = std::mem::take(&mut self.both);
        let ok = self.lift_binary_with(vars, &mut seen, &mut both);
        self.scratch = seen;
        self.both = both;
        ok
    }

    fn lift_binary_with(&mut self, vars: usize, seen: &mut [u32], both: &mut Vec<Lit>) -> bool {
        let mut id = 0u32;
        let mut probes = 0u32;

        // Binary clauses of the formula.
        for va in 0..vars {
            let a = Lit::from_index(va, true);
            let na = (!a).code();
            for k in self.imp_start[na]..self.imp_start[na + 1] {
                // (a ∨ b) with a < b, both positive probe literals, both open.
                let b = self.imp[k as usize];
                let vb = b.var().index();
                if !b.is_positive() || vb <= va || vb >= vars {
                    continue;
                }
                id += 1;
                if stopping(&mut probes) {
                    return true;
                }
                if !self.lift_pair(va, vb, vars, id, seen, both) {
                    return false;
                }
            }
        }
        // Longer clauses that propagation has cut down to two open literals.
        for c in 0..self.left.len() {
            if self.ntrue[c] > 0 || self.left[c] != 2 {
                continue;
            }
            let lits =
                &self.long_lits[self.long_start[c] as usize..self.long_start[c + 1] as usize];
            let mut open = lits
                .iter()
                .filter(|&&l| lit_value(&self.values, l) == UNSET);
            let (Some(&a), Some(&b)) = (open.next(), open.next()) else {
                continue;
            };
            if !a.is_positive() || !b.is_positive() {
                continue;
            }
            let (va, vb) = (a.var().index(), b.var().index());
            if va >= vars || vb >= vars {
                continue;
            }
            id += 1;
            if stopping(&mut probes) {
                return true;
            }
            if !self.lift_pair(va, vb, vars, id, seen, both) {
                return false;
            }
        }
        true
    }

    /// Lifting over the clause (a ∨ b) of the positive literals of probe variables `va` and `vb`,
    /// if both are open; `id` is fresh for `seen`. False if the formula turns out unsatisfiable.
    fn lift_pair(
        &mut self,
        va: usize,
        vb: usize,
        vars: usize,
        id: u32,
        seen: &mut [u32],
        both: &mut Vec<Lit>,
    ) -> bool {
        if self.values[va] != UNSET || self.values[vb] != UNSET {
            return true;
        }
        let Ok(sa) = self.implied_by(va, vars) else {
            return false;
        };
        let Some((start, len)) = sa else {
            return true;
        };
        for &l in &self.implied[start..start + len] {
            seen[l.code()] = id;
        }
        let Ok(sb) = self.implied_by(vb, vars) else {
            return false;
        };
        let Some((start, len)) = sb else {
            return true;
        };
        both.clear();
        both.extend(
            self.implied[start..start + len]
                .iter()
                .filter(|l| seen[l.code()] == id),
        );
        if both.is_empty() {
            return true;
        }
        self.new_epoch();
        if self.lemmas.is_some() {
            let (a, b) = (Lit::from_index(va, true), Lit::from_index(vb, true));
            for &l in both.iter() {
                if l != a {
                    self.lemma(&[!a, l]);
                }
                if l != b {
                    self.lemma(&[!b, l]);
                }
                self.lemma(&[l]);
            }
        }
        for &l in both.iter() {
            if !self.assign(l) {
                return false;
            }
        }
        self.propagate()
    }

    /// The unassigned variables below `vars`, those in the shortest open clauses first (a literal
    /// with few alternatives is the likeliest to fail).
    fn probe_order(&mut self, vars: usize, order: &mut Vec<u32>) {
        // Keys are clause lengths; longer than this they all count the same.
        const KEYS: usize = 66;
        let mut keyed = std::mem::take(&mut self.keyed);
        keyed.clear();
        for v in 0..vars {
            if self.values[v] != UNSET {
                continue;
            }
            let x = Lit::from_index(v, true);
            let mut best = u32::MAX;
            if self.imp_start[(!x).code()] != self.imp_start[(!x).code() + 1] {
                best = 2;
            }
            for k in self.occ_start[x.code()]..self.occ_start[x.code() + 1] {
                let c = self.occ[k as usize] as usize;
                if self.ntrue[c] == 0 {
                    best = best.min(self.left[c]);
                }
            }
            if best != u32::MAX {
                keyed.push(((best as usize).min(KEYS - 1) as u8, v as u32));
            }
        }
        // Counting sort by key, stable: variables in index order within a key.
        let mut start = [0u32; KEYS + 1];
        for &(k, _) in &keyed {
            start[k as usize + 1] += 1;
        }
        for k in 0..KEYS {
            start[k + 1] += start[k];
        }
        order.clear();
        order.resize(keyed.len(), 0);
        for &(k, v) in &keyed {
            let slot = &mut start[k as usize];
            order[*slot as usize] = v;
            *slot += 1;
        }
        self.keyed = keyed;
    }

    /// Whether `l` occurs in some clause of length two or more.
    fn occurs(&self, l: Lit) -> bool {
        let (c, n) = (l.code(), (!l).code());
        self.occ_start[c] != self.occ_start[c + 1]
            || self.imp_start[n] != self.imp_start[n + 1]
            || self.imp_start[c] != self.imp_start[c + 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::solver::testing::satisfiable;

    fn f(clauses: &[&[isize]]) -> Formula {
        let mut f = Formula::new();
        for c in clauses {
            let v: Vec<Lit> = c.iter().map(|&x| Lit::from_dimacs(x)).collect();
            f.add_clause(&v);
        }
        f
    }

    fn run(formula: &Formula, probe: usize) -> Option<(Vec<i8>, Vec<Vec<isize>>)> {
        let mut s = Simplifier::default();
        let mut rest = Formula::new();
        match s.run(formula, probe, &mut rest) {
            Verdict::Conflict => None,
            Verdict::Unchanged => Some((
                s.values.clone(),
                formula
                    .clauses()
                    .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
                    .collect(),
            )),
            Verdict::Simplified => Some((
                s.values.clone(),
                rest.clauses()
                    .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
                    .collect(),
            )),
        }
    }

    #[test]
    fn chains_and_simplifies() {
        // 1; 1 → 2; 2 → 3 ∨ 4; 4 ∨ 5 ∨ -1.
        let (v, rest) = run(&f(&[&[1], &[-1, 2], &[-2, 3, 4], &[4, 5, -1]]), 0).unwrap();
        assert_eq!(&v[..5], &[TRUE, TRUE, UNSET, UNSET, UNSET]);
        assert_eq!(rest, vec![vec![3, 4], vec![4, 5]]);
    }

    #[test]
    fn conflicts() {
        assert!(run(&f(&[&[1], &[-1]]), 0).is_none());
        assert!(run(&f(&[&[]]), 0).is_none());
        assert!(run(&f(&[&[1], &[-1, 2], &[-1, -2]]), 0).is_none());
        // At least one of 1, 2, 3 with 1 and 2 false: 3 is forced, and then -3 follows: conflict.
        assert!(run(&f(&[&[1, 2, 3], &[-1], &[-2], &[-3, 4], &[-4]]), 0).is_none());
        // Long clause going false through implications only.
        assert!(run(&f(&[&[5], &[-5, -1], &[-5, -2], &[-5, -3], &[1, 2, 3]]), 0).is_none());
    }

    #[test]
    fn satisfied_formula_leaves_nothing() {
        let (v, rest) = run(&f(&[&[1], &[-2], &[1, 2], &[2, -3], &[3, 1, 4]]), 0).unwrap();
        assert_eq!(v[2], FALSE);
        assert!(rest.is_empty());
        // A repeated literal and a tautology do not confuse the counters.
        let (v, rest) = run(&f(&[&[-1], &[1, 1, 2], &[3, -3]]), 0).unwrap();
        assert_eq!(v[1], TRUE);
        assert_eq!(rest, vec![vec![3, -3]]);
    }

    /// Loads and propagates `formula`, then runs `step` (false = conflict).
    fn with_step(formula: &Formula, step: impl FnOnce(&mut Simplifier) -> bool) -> Option<Vec<i8>> {
        let mut s = Simplifier::default();
        (s.load(formula) && s.propagate() && step(&mut s)).then(|| s.values.clone())
    }

    #[test]
    fn failed_literals_are_fixed() {
        // 1 → 2, 1 → 3, ¬2 ∨ ¬3: probing 1 fails, so ¬1; then (1 ∨ 4) gives 4.
        let formula = f(&[&[-1, 2], &[-1, 3], &[-2, -3], &[1, 4, 5], &[1, 4]]);
        let v = with_step(&formula, |_| true).unwrap();
        assert_eq!(v[0], UNSET);
        let v = with_step(&formula, |s| s.failed_literals(5, u64::MAX)).unwrap();
        assert_eq!(v[0], FALSE);
        assert_eq!(v[3], TRUE);
        // Both polarities failing is a conflict: 1 → 2 ∧ ¬2, and then ¬6 leaves 3 ∧ ¬3.
        let formula = f(&[
            &[-1, 2],
            &[-1, -2],
            &[1, 3, 6],
            &[1, -3, 6],
            &[-6, 7],
            &[-6, -7],
        ]);
        assert!(with_step(&formula, |_| true).is_some());
        assert!(with_step(&formula, |s| s.failed_literals(7, u64::MAX)).is_none());
    }

    #[test]
    fn lifting_fixes_common_consequences() {
        // (1 ∨ 2); 1 → 3, 2 → 3: lifting fixes 3. 1 → 4 only: 4 stays open.
        let formula = f(&[&[1, 2], &[-1, 3], &[-2, 3], &[-1, 4], &[4, 5, 6]]);
        let v = with_step(&formula, |s| s.lift_binary(6)).unwrap();
        assert_eq!(v[2], TRUE);
        assert_eq!((v[0], v[1], v[3]), (UNSET, UNSET, UNSET));
        // (1 ∨ 2) with 1 failing: 2 is fixed.
        let formula = f(&[&[1, 2], &[-1, 3], &[-1, -3], &[2, 4, 5]]);
        let v = with_step(&formula, |s| s.lift_binary(5)).unwrap();
        assert_eq!((v[0], v[1]), (FALSE, TRUE));
        // The whole schedule through `run`: lifting fixed something, so failed literals follow.
        let formula = f(&[
            &[1, 2],
            &[-1, 3],
            &[-2, 3],
            &[-7, 8],
            &[-7, -8],
            &[7, 9, 10],
        ]);
        let (v, rest) = run(&formula, 10).unwrap();
        assert_eq!((v[2], v[6]), (TRUE, FALSE));
        assert!(rest.contains(&vec![1, 2]));
    }

    /// A xorshift64 generator: reproducible pseudo-random formulas without a dependency.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// Undo restores the counters: probing every literal of a satisfiable formula, then solving the
    /// rest, must agree with varisat on the whole formula.
    #[test]
    fn probing_keeps_satisfiability() {
        let mut next = xorshift(0x1234_5678_u64);
        for _ in 0..300 {
            let mut formula = Formula::new();
            let nv = 8;
            for _ in 0..(next() % 30 + 5) {
                let len = (next() % 4 + 1) as usize;
                let c: Vec<Lit> = (0..len)
                    .map(|_| Lit::from_index((next() % nv) as usize, next().is_multiple_of(2)))
                    .collect();
                formula.add_clause(&c);
            }
            let sat_whole = satisfiable(&formula, &[]);
            // Each probing step alone keeps exactly the models' implications.
            for step in 0..2 {
                let v = with_step(&formula, |s| match step {
                    0 => s.failed_literals(nv as usize, u64::MAX),
                    _ => s.lift_binary(nv as usize),
                });
                // A conflict only for an unsatisfiable formula.
                assert!(v.is_some() || !sat_whole, "{formula:?} step {step}");
                if let Some(v) = v {
                    let fixed: Vec<Lit> = (0..v.len())
                        .filter(|&i| v[i] != UNSET)
                        .map(|i| Lit::from_index(i, v[i] == TRUE))
                        .collect();
                    assert!(satisfiable(&formula, &fixed), "{formula:?} step {step}");
                }
            }
            for probe in [0, nv as usize] {
                let mut simp = Simplifier::default();
                let mut rest = Formula::new();
                let verdict = simp.run(&formula, probe, &mut rest);
                let left = if verdict == Verdict::Unchanged {
                    &formula
                } else {
                    &rest
                };
                let sat_rest = verdict != Verdict::Conflict && satisfiable(left, &[]);
                assert_eq!(sat_rest, sat_whole, "{formula:?} probe={probe}");
                if sat_whole {
                    // The fixed values are implied: each is consistent with some model.
                    let fixed: Vec<Lit> = simp
                        .values
                        .iter()
                        .enumerate()
                        .filter(|(_, v)| **v != UNSET)
                        .map(|(i, v)| Lit::from_index(i, *v == TRUE))
                        .collect();
                    assert!(satisfiable(&formula, &fixed));
                }
            }
        }
    }

    /// A base formula run under unit clauses agrees with varisat on the formula plus those units,
    /// run after run on one loaded base (the state is reset between runs); what it fixes is
    /// implied, and `rest` together with the fixed values is equisatisfiable.
    #[test]
    fn base_runs_agree_with_varisat() {
        let mut next = xorshift(0x9e37_79b9_u64);
        let solve = satisfiable;
        let nv = 9u64;
        for _ in 0..60 {
            let mut formula = Formula::new();
            for _ in 0..(next() % 25 + 5) {
                let len = (next() % 4 + 2) as usize;
                let c: Vec<Lit> = (0..len)
                    .map(|_| Lit::from_index((next() % nv) as usize, !next().is_multiple_of(3)))
                    .collect();
                formula.add_clause(&c);
                // Some binary clauses twice, as in the extended encoding.
                if len == 2 && next().is_multiple_of(2) {
                    formula.add_clause(&c);
                }
            }
            let mut base = Simplifier::default();
            base.load_base(&formula);
            for _ in 0..8 {
                let vars = formula.max_var() as u64;
                let units: Vec<Lit> = (0..next() % 4)
                    .map(|_| Lit::from_index((next() % vars) as usize, next().is_multiple_of(2)))
                    .collect();
                let probe = if next().is_multiple_of(2) {
                    nv as usize
                } else {
                    0
                };
                let mut rest = Formula::new();
                let verdict = base.run_with_units(&units, probe, &mut rest);
                assert_ne!(verdict, Verdict::Unchanged);
                let whole = solve(&formula, &units);
                if verdict == Verdict::Conflict {
                    assert!(!whole, "{formula:?} {units:?}");
                    continue;
                }
                let fixed: Vec<Lit> = (0..base.values.len())
                    .filter(|&i| base.values[i] != UNSET)
                    .map(|i| Lit::from_index(i, base.values[i] == TRUE))
                    .collect();
                for &u in &units {
                    assert!(fixed.contains(&u));
                }
                // Equisatisfiable: rest under the fixed values, against the whole formula.
                assert_eq!(solve(&rest, &fixed), whole, "{formula:?} {units:?}");
                if whole {
                    // Everything fixed is consistent with a model.
                    assert!(solve(&formula, &fixed), "{formula:?} {units:?}");
                }
            }
        }
    }

    #[test]
    fn base_keeps_a_repeated_binary_clause_once() {
        // (¬1 ∨ ¬2) twice, (1 ∨ 2 ∨ 3), (3 ∨ 4 ∨ 5); under ¬3: rest is (1 ∨ 2), (¬1 ∨ ¬2), (4 ∨ 5).
        let formula = f(&[&[-1, -2], &[-2, -1], &[1, 2, 3], &[3, 4, 5]]);
        let mut base = Simplifier::default();
        base.load_base(&formula);
        let mut rest = Formula::new();
        for _ in 0..2 {
            let verdict = base.run_with_units(&[Lit::from_dimacs(-3)], 0, &mut rest);
            assert_eq!(verdict, Verdict::Simplified);
            let mut got: Vec<Vec<isize>> = rest
                .clauses()
                .map(|c| {
                    let mut v: Vec<isize> = c.iter().map(|l| l.to_dimacs()).collect();
                    v.sort_unstable();
                    v
                })
                .collect();
            got.sort_unstable();
            assert_eq!(got, vec![vec![-2, -1], vec![1, 2], vec![4, 5]]);
        }
        // A contradicting unit, then a normal run again.
        let verdict =
            base.run_with_units(&[Lit::from_dimacs(1), Lit::from_dimacs(2)], 0, &mut rest);
        assert_eq!(verdict, Verdict::Conflict);
        let verdict = base.run_with_units(&[Lit::from_dimacs(1)], 0, &mut rest);
        assert_eq!(verdict, Verdict::Simplified);
        assert_eq!(base.values[1], FALSE);
    }
}
