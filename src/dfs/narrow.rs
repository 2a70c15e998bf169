//! What a pass of the native rules' pruning reports (the cells narrowed), reading and narrowing a
//! cell's digits, and the signature that lets a constraint whose inputs did not change be skipped:
//! shared by the rules and the clue lines.

use super::mask::Mask;
use super::step::{Contradiction, Step};

/// Where a pass of the rules' pruning reports: the cells left with one candidate (to be placed) and
/// every removal (cell, digits), which the state logs for its undo.
pub(crate) struct Narrowed<'a, M> {
    /// Cells left with a single candidate.
    pub queue: &'a mut Vec<u32>,
    /// Cells and the digits removed from them.
    pub removed: &'a mut Vec<(u32, M)>,
    /// On a contradiction: the cells of the cage or sum that failed (for the branching weights).
    pub blame: &'a mut Vec<u32>,
    /// What lets a constraint whose inputs did not change be skipped (laid out by `Rules::seen_len`):
    /// per cage and sum a flag, per clue sum and line the signature of its inputs when its pruning
    /// last changed nothing (0: none), then the rules' copy of the cells; empty: no skipping.
    pub seen: &'a mut [u64],
    /// Room for a clue sum's bit sets.
    pub scratch: &'a mut Vec<u64>,
    /// Room for a line's node marks.
    pub marks: &'a mut Vec<u8>,
}

/// The digits cell `c` may hold: its candidates, or its digit once placed.
#[inline]
pub(crate) fn domain<M: Mask>(cand: &[M], vals: &[u16], c: usize) -> u64 {
    match vals[c] {
        0 => cand[c].low_bits(),
        v => 1 << (v - 1),
    }
}

/// Narrows cell `c` to `keep` if open, or fails if its placed digit is not kept.
#[inline]
pub(crate) fn keep_only<M: Mask>(
    cand: &mut [M],
    vals: &[u16],
    out: &mut Narrowed<'_, M>,
    c: usize,
    keep: u64,
) -> Step<bool> {
    match vals[c] {
        0 => narrow(cand, out, c, keep),
        v if keep >> (v - 1) & 1 == 1 => Ok(false),
        _ => Err(Contradiction),
    }
}

/// Narrows `cell` to `keep`; queues it when one candidate is left.
pub(crate) fn narrow<M: Mask>(
    cand: &mut [M],
    out: &mut Narrowed<'_, M>,
    cell: usize,
    keep: u64,
) -> Step<bool> {
    let m = cand[cell];
    let left = m & M::from_low_bits(keep);
    if left == m {
        return Ok(false);
    }
    if left == M::ZERO {
        return Err(Contradiction);
    }
    cand[cell] = left;
    out.removed.push((cell as u32, m & !left));
    if left.at_most_one() {
        out.queue.push(cell as u32);
    }
    Ok(true)
}

/// The signatures' starting value.
const SEED: u64 = 0x243F_6A88_85A3_08D3;

/// One word folded into a signature.
#[inline(always)]
fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
}

/// The signature of cells with the digit sets `doms` (never 0): what [`signature`] by domain
/// gives for them, from digit sets already read.
#[inline]
pub(crate) fn signature_of(doms: &[u64]) -> u64 {
    doms.iter().fold(SEED, |h, &d| mix(h, d)) | 1
}

/// A hash of the candidates and values of `inputs` (never 0, the mark of no signature), or `None`
/// when every cell of `own` is filled. With `by_domain`, a cell is hashed by the digits it may
/// hold only (its candidates, or its placed digit), so that placing a cell's last candidate
/// leaves the hash as it was.
pub(crate) fn signature<'a, M: Mask>(
    inputs: impl Iterator<Item = &'a u32>,
    own: &[u32],
    cand: &[M],
    vals: &[u16],
    by_domain: bool,
) -> Option<u64> {
    if own.iter().all(|&c| vals[c as usize] != 0) {
        return None;
    }
    let h = inputs.fold(SEED, |h, &c| {
        let (m, v) = (cand[c as usize].low_bits(), vals[c as usize]);
        match (by_domain, v) {
            (true, 0) => mix(h, m),
            (true, v) => mix(h, 1 << (v - 1)),
            (false, _) => mix(mix(h, m), u64::from(v)),
        }
    });
    Some(h | 1)
}

/// Prunes one constraint over `cells` (`prune`), unless it changed nothing last time on the same
/// inputs: `slot` is its place in [`Narrowed::seen`] when signatures are kept, `inputs` the cells
/// its signature covers. On a contradiction its cells are blamed.
///
/// An `idempotent` pruning (one that reads only the digits its cells may hold, and that a second
/// run on what it left removes nothing from: generalised arc consistency, as a line's) is also
/// skipped when its inputs are as its last run left them, changed or not: the signature, by
/// domain, is taken again after it narrowed.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn prune_unless_seen<'a, M: Mask>(
    slot: Option<usize>,
    inputs: impl Iterator<Item = &'a u32> + Clone,
    cells: &[u32],
    cand: &mut [M],
    vals: &[u16],
    out: &mut Narrowed<'_, M>,
    idempotent: bool,
    prune: impl FnOnce(&mut [M], &mut Narrowed<'_, M>) -> Step<bool>,
) -> Step<bool> {
    let sig = slot.and_then(|_| signature(inputs.clone(), cells, cand, vals, idempotent));
    prune_signed(slot, sig, inputs, cells, cand, vals, out, idempotent, prune)
}

/// [`prune_unless_seen`] with the signature of its inputs already taken (`sig`: what
/// [`signature`] gives for them, `None` without a slot).
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn prune_signed<'a, M: Mask>(
    slot: Option<usize>,
    sig: Option<u64>,
    inputs: impl Iterator<Item = &'a u32> + Clone,
    cells: &[u32],
    cand: &mut [M],
    vals: &[u16],
    out: &mut Narrowed<'_, M>,
    idempotent: bool,
    prune: impl FnOnce(&mut [M], &mut Narrowed<'_, M>) -> Step<bool>,
) -> Step<bool> {
    if let (Some(k), Some(s)) = (slot, sig)
        && out.seen[k] == s
    {
        return Ok(false);
    }
    match prune(cand, out) {
        Ok(c) => {
            if let (Some(k), Some(s)) = (slot, sig) {
                if !c {
                    out.seen[k] = s;
                } else if idempotent {
                    // 0 (no signature) when every cell is now filled: looked at again.
                    out.seen[k] = signature(inputs, cells, cand, vals, true).unwrap_or(0);
                }
            }
            Ok(c)
        }
        Err(e) => {
            out.blame.extend_from_slice(cells);
            Err(e)
        }
    }
}

/// The buffers a [`Narrowed`] borrows, owned for a test.
#[cfg(test)]
#[derive(Default)]
pub(crate) struct Buffers {
    pub queue: Vec<u32>,
    pub removed: Vec<(u32, u16)>,
    pub blame: Vec<u32>,
    pub seen: Vec<u64>,
    pub scratch: Vec<u64>,
    pub marks: Vec<u8>,
}

#[cfg(test)]
impl Buffers {
    /// With signatures for `seen`, so that unchanged inputs are skipped.
    pub(crate) fn with_seen(seen: Vec<u64>) -> Buffers {
        Buffers {
            seen,
            ..Buffers::default()
        }
    }

    pub(crate) fn narrowed(&mut self) -> Narrowed<'_, u16> {
        Narrowed {
            queue: &mut self.queue,
            removed: &mut self.removed,
            blame: &mut self.blame,
            seen: &mut self.seen,
            scratch: &mut self.scratch,
            marks: &mut self.marks,
        }
    }
}
