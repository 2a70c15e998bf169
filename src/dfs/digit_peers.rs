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
        let mut lists = vec![Vec::new(); cells * n];
        let mut any = false;
        for r in units.relations() {
            let RelationKind::NotBoth(v) = r.kind else {
                continue;
            };
            if !DigitPeers::takes(r) {
                continue;
            }
            // A value no digit has forbids nothing.
            let Some(d) = (0..n).find(|&d| units.value(d as u16 + 1) == i32::from(v)) else {
                continue;
            };
            let (a, b) = (r.a.index(), r.b.index());
            lists[a * n + d].push(b as u32);
            lists[b * n + d].push(a as u32);
            any = true;
        }
        if !any {
            return None;
        }
        let mut start = Vec::with_capacity(cells * n + 1);
        let mut flat = Vec::new();
        for mut list in lists {
            list.sort_unstable();
            list.dedup();
            start.push(flat.len() as u32);
            flat.extend_from_slice(&list);
        }
        start.push(flat.len() as u32);
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
