//! Flat lookup tables derived from a unit list (unit cells, peers, units of each cell), cached per thread
//! by [`Units::id`] so a batch of puzzles under one list builds them once.

use std::cell::RefCell;
use std::rc::Rc;

use crate::units::Units;

/// A unit list flattened into arrays of `u16` indices, as the search reads it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Tables {
    /// Grid side: digits per unit, cells per unit.
    pub n: usize,
    /// Cells in the grid (N²).
    pub cells: usize,
    /// Number of units.
    pub units: usize,
    /// The cells of unit `u` are `unit_cells[u * n .. (u + 1) * n]`.
    pub unit_cells: Box<[u16]>,
    /// The peers of cell `c` are `peers[peer_start[c] .. peer_start[c + 1]]`.
    peer_start: Box<[u32]>,
    peers: Box<[u16]>,
    /// The units of cell `c` are `units_of[unit_start[c] .. unit_start[c + 1]]`.
    unit_start: Box<[u32]>,
    units_of: Box<[u16]>,
}

/// The largest number of units a unit list may have for these tables (indices are `u16`).
pub(crate) const MAX_UNITS: usize = u16::MAX as usize;

impl Tables {
    /// Flattens `units` (which must have at most [`MAX_UNITS`] units; cells always fit a `u16`).
    pub fn build(units: &Units) -> Tables {
        let shape = units.shape();
        let (n, cells) = (shape.n(), shape.cells());
        let list = units.units();
        debug_assert!(list.len() <= MAX_UNITS);
        let unit_cells = unit_cells(units);
        let mut peer_start = Vec::with_capacity(cells + 1);
        let mut peers = Vec::new();
        let mut unit_start = Vec::with_capacity(cells + 1);
        let mut units_of = Vec::new();
        for c in 0..cells {
            let cell = crate::grid::Cell::new(c);
            peer_start.push(peers.len() as u32);
            peers.extend(units.peers(cell).iter().map(|p| p.index() as u16));
            unit_start.push(units_of.len() as u32);
            units_of.extend(units.units_of(cell).iter().map(|&u| u as u16));
        }
        peer_start.push(peers.len() as u32);
        unit_start.push(units_of.len() as u32);
        Tables {
            n,
            cells,
            units: list.len(),
            unit_cells,
            peer_start: peer_start.into(),
            peers: peers.into(),
            unit_start: unit_start.into(),
            units_of: units_of.into(),
        }
    }

    /// The cells sharing a unit with cell `c`.
    #[inline(always)]
    pub fn peers(&self, c: usize) -> &[u16] {
        &self.peers[self.peer_start[c] as usize..self.peer_start[c + 1] as usize]
    }

    /// The units containing cell `c`.
    #[inline(always)]
    pub fn units_of(&self, c: usize) -> &[u16] {
        &self.units_of[self.unit_start[c] as usize..self.unit_start[c + 1] as usize]
    }

    /// The N cells of unit `u`.
    #[inline(always)]
    pub fn unit(&self, u: usize) -> &[u16] {
        &self.unit_cells[u * self.n..(u + 1) * self.n]
    }
}

/// Every unit's cells, concatenated (each unit has exactly N cells).
fn unit_cells(units: &Units) -> Box<[u16]> {
    units
        .units()
        .iter()
        .flat_map(|u| u.cells.iter().map(|c| c.index() as u16))
        .collect()
}

/// Unit lists remembered per thread.
const CACHE_SIZE: usize = 8;

thread_local! {
    /// Recently used tables, most recent first, each with the unit-list ids it serves.
    static CACHE: RefCell<Vec<(Vec<u64>, Rc<Tables>)>> = const { RefCell::new(Vec::new()) };
}

/// The tables of `units`, from this thread's cache or built now.
///
/// Looked up by [`Units::id`]; on a miss, an entry with the same shape and the same unit cells (a list
/// rebuilt per puzzle by a careless caller) is reused rather than rebuilt.
pub(crate) fn tables_for(units: &Units) -> Rc<Tables> {
    let id = units.id();
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(i) = cache.iter().position(|(ids, _)| ids.contains(&id)) {
            let entry = cache.remove(i);
            let tables = Rc::clone(&entry.1);
            cache.insert(0, entry);
            return tables;
        }
        let shape = units.shape();
        let cells = unit_cells(units);
        if let Some(i) = cache.iter().position(|(_, t)| {
            t.n == shape.n() && t.cells == shape.cells() && t.unit_cells == cells
        }) {
            let mut entry = cache.remove(i);
            if entry.0.len() < 16 {
                entry.0.push(id);
            } else {
                entry.0 = vec![id];
            }
            let tables = Rc::clone(&entry.1);
            cache.insert(0, entry);
            return tables;
        }
        let tables = Rc::new(Tables::build(units));
        cache.insert(0, (vec![id], Rc::clone(&tables)));
        cache.truncate(CACHE_SIZE);
        tables
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;

    #[test]
    fn flat_tables_match_the_unit_list() {
        let units = Units::standard(Shape::new(2, 3).unwrap());
        let t = Tables::build(&units);
        assert_eq!((t.n, t.cells, t.units), (6, 36, 18));
        for c in 0..36 {
            let cell = crate::grid::Cell::new(c);
            let peers: Vec<usize> = t.peers(c).iter().map(|&p| p as usize).collect();
            let expect: Vec<usize> = units.peers(cell).iter().map(|p| p.index()).collect();
            assert_eq!(peers, expect);
            assert_eq!(t.units_of(c).len(), 3);
            for &u in t.units_of(c) {
                assert!(t.unit(u as usize).contains(&(c as u16)));
            }
        }
    }

    #[test]
    fn cache_reuses_by_id_and_by_content() {
        let shape = Shape::new(3, 3).unwrap();
        let a = Units::standard(shape);
        let t1 = tables_for(&a);
        let t2 = tables_for(&a.clone());
        assert!(Rc::ptr_eq(&t1, &t2));
        // A separately built but identical list reuses the same tables.
        let b = Units::standard(shape);
        assert_ne!(a.id(), b.id());
        assert!(Rc::ptr_eq(&t1, &tables_for(&b)));
        // A different shape does not.
        let c = Units::standard(Shape::new(2, 2).unwrap());
        assert!(!Rc::ptr_eq(&t1, &tables_for(&c)));
    }
}
