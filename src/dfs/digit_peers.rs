//! Per cell and digit, the cells that lose that digit when the cell takes it: the `NotBoth`
//! relations (anti-taxicab). Their arc consistency is only that ("a cell holding d leaves d out of
//! the cells d away"), so placing a digit clears these lists as it clears the peers, instead of a
//! pass over every pair at every node.

use crate::constraint::{Relation, RelationKind};
use crate::units::Units;

/// The cells of cell `c` and 0-based digit `d` are `cells[start[c * n + d]..start[c * n + d + 1]]`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct DigitPeers {
    n: usize,
    start: Box<[u32]>,
    cells: Box<[u32]>,
}

impl DigitPeers {
    /// Whether relation `r` is one of these lists' (the clue rules' pair tables leave it out): a
    /// `NotBoth` between two different cells.
    pub(crate) fn takes(r: &Relation) -> bool {
        matches!(r.kind, RelationKind::NotBoth(_)) && r.a != r.b
    }

    /// The lists of the `NotBoth` relations of `units`; `None` when there are none.
    pub(crate) fn of(units: &Units) -> Option<DigitPeers> {
        let n = units.shape().n();
        let cells = units.shape().cells();
        // Each relation as (first cell's list, second cell's list, first cell, second cell); a
        // value no digit has forbids nothing.
        let base = units.value(1);
        let pairs: Vec<(usize, usize, u32, u32)> = units
            .relations()
            .iter()
            .filter(|r| DigitPeers::takes(r))
            .filter_map(|r| {
                let RelationKind::NotBoth(v) = r.kind else {
                    return None;
                };
                let d = usize::try_from(i32::from(v) - base)
                    .ok()
                    .filter(|&d| d < n)?;
                let (a, b) = (r.a.index(), r.b.index());
                Some((a * n + d, b * n + d, a as u32, b as u32))
            })
            .collect();
        if pairs.is_empty() {
            return None;
        }
        // Counted, then filled in order (compressed rows).
        let mut start = vec![0u32; cells * n + 1];
        for &(i, j, _, _) in &pairs {
            start[i + 1] += 1;
            start[j + 1] += 1;
        }
        for k in 0..cells * n {
            start[k + 1] += start[k];
        }
        let mut fill: Vec<u32> = start[..cells * n].to_vec();
        let mut flat = vec![0u32; 2 * pairs.len()];
        for &(i, j, a, b) in &pairs {
            flat[fill[i] as usize] = b;
            fill[i] += 1;
            flat[fill[j] as usize] = a;
            fill[j] += 1;
        }
        Some(DigitPeers {
            n,
            start: start.into(),
            cells: flat.into(),
        })
    }

    /// The cells that lose 0-based digit `d` when cell `c` takes it.
    #[inline(always)]
    pub(crate) fn of_cell(&self, c: usize, d: u32) -> &[u32] {
        let i = c * self.n + d as usize;
        &self.cells[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraint::Variant;
    use crate::dfs::tables::Tables;
    use crate::grid::Shape;

    fn anti_taxicab_9x9() -> Units {
        Units::rules(Shape::new(3, 3).unwrap())
            .variant(Variant::AntiTaxicab)
            .build()
            .unwrap()
    }

    /// r3c3 holding 2 takes 2 from r2c4, r4c2 and r4c4 (two apart, in other boxes, rows and
    /// columns); r1c1's cells two apart all share a unit with it.
    #[test]
    fn lists_hold_the_cells_that_distance_apart_outside_the_units() {
        let dp = DigitPeers::of(&anti_taxicab_9x9()).unwrap();
        assert_eq!(dp.of_cell(2 * 9 + 2, 1), &[12, 28, 30]);
        assert!(dp.of_cell(0, 1).is_empty());
        // No cell is nine away from r5c5; r9c2 is from r1c1.
        assert!(dp.of_cell(40, 8).is_empty());
        assert!(dp.of_cell(0, 8).contains(&(8 * 9 + 1)));
    }

    /// The tables: the pairs are digit peers, not clue pair tables, and digits are not
    /// interchangeable.
    #[test]
    fn tables_take_the_pairs_as_digit_peers() {
        let t = Tables::build(&anti_taxicab_9x9());
        assert!(t.digit_peers.is_some());
        assert!(!t.symmetric);
        assert!(t.rules.as_ref().is_some_and(|r| r.clue.is_empty()));
    }
}
