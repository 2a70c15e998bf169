//! Random jigsaw layouts: N connected regions of N cells, grown from the boxes by swaps of
//! neighbouring cells.

use super::rng::Rng;
use crate::grid::Shape;

/// Swap attempts per cell: enough that few cells of a 9x9 layout are still in their box's region.
const SWAPS_PER_CELL: usize = 30;

/// A random layout of N regions of N orthogonally connected cells (the region of each cell,
/// row-major, numbered 0..N). Starts from the boxes and exchanges cells between neighbouring
/// regions: a cell `a` of region A next to region B goes to B, and a cell `b` of B next to A goes to
/// A, whenever both regions stay connected. (Swapping two neighbours alone never leaves the boxes of
/// a 4x4 grid.) Whether a layout has a solution grid is for the caller to find out (some have none).
pub(crate) fn random_regions(shape: Shape, rng: &mut Rng) -> Vec<usize> {
    let n = shape.n();
    let mut region: Vec<usize> = (0..n * n).map(|i| shape.block_of(i / n, i % n)).collect();
    let mut cells: Vec<Vec<usize>> = vec![Vec::with_capacity(n); n];
    for (i, &r) in region.iter().enumerate() {
        cells[r].push(i);
    }
    let mut flood = Flood::new(n);
    let mut choices = Vec::with_capacity(n);
    for _ in 0..SWAPS_PER_CELL * n * n {
        let a = rng.below(n * n);
        let around = neighbours(n, a);
        let (ra, rb) = (region[a], region[around[rng.below(around.len())]]);
        if ra == rb {
            continue;
        }
        // The cells of B next to a cell of A other than `a`.
        choices.clear();
        choices.extend(cells[rb].iter().copied().filter(|&b| {
            neighbours(n, b)
                .into_iter()
                .any(|j| j != a && region[j] == ra)
        }));
        if choices.is_empty() {
            continue;
        }
        let b = choices[rng.below(choices.len())];
        region[a] = rb;
        region[b] = ra;
        if flood.connected(&region, n, ra, b) && flood.connected(&region, n, rb, a) {
            let at = cells[ra].iter().position(|&i| i == a).expect("a in A");
            cells[ra][at] = b;
            let at = cells[rb].iter().position(|&i| i == b).expect("b in B");
            cells[rb][at] = a;
        } else {
            region[a] = ra;
            region[b] = rb;
        }
    }
    region
}

/// The orthogonal neighbours of cell `i` of an N×N grid.
fn neighbours(n: usize, i: usize) -> Vec<usize> {
    let (r, c) = (i / n, i % n);
    let mut out = Vec::with_capacity(4);
    if r > 0 {
        out.push(i - n);
    }
    if r + 1 < n {
        out.push(i + n);
    }
    if c > 0 {
        out.push(i - 1);
    }
    if c + 1 < n {
        out.push(i + 1);
    }
    out
}

/// A flood fill's buffers, reused.
struct Flood {
    seen: Vec<u32>,
    stamp: u32,
    stack: Vec<usize>,
}

impl Flood {
    fn new(n: usize) -> Flood {
        Flood {
            seen: vec![0; n * n],
            stamp: 0,
            stack: Vec::new(),
        }
    }

    /// Whether region `r` (which holds cell `start`) is connected: the flood from `start` reaches
    /// its N cells.
    fn connected(&mut self, region: &[usize], n: usize, r: usize, start: usize) -> bool {
        self.stamp += 1;
        self.stack.clear();
        self.stack.push(start);
        self.seen[start] = self.stamp;
        let mut reached = 0;
        while let Some(i) = self.stack.pop() {
            reached += 1;
            for j in neighbours(n, i) {
                if region[j] == r && self.seen[j] != self.stamp {
                    self.seen[j] = self.stamp;
                    self.stack.push(j);
                }
            }
        }
        reached == n
    }
}

/// Whether every region of `region` has N cells and is orthogonally connected.
#[cfg(test)]
pub(crate) fn is_layout(region: &[usize], n: usize) -> bool {
    let mut flood = Flood::new(n);
    (0..n).all(|r| {
        let cells: Vec<usize> = (0..n * n).filter(|&i| region[i] == r).collect();
        cells.len() == n && flood.connected(region, n, r, cells[0])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_are_connected_regions_of_n_cells() {
        let mut rng = Rng::new(11);
        for (r, c) in [(2, 2), (2, 3), (3, 3), (4, 4)] {
            let shape = Shape::new(r, c).unwrap();
            let n = shape.n();
            let layout = random_regions(shape, &mut rng);
            assert!(is_layout(&layout, n), "{shape}: {layout:?}");
            // Mixed: some region is no longer a box.
            let boxes: Vec<usize> = (0..n * n).map(|i| shape.block_of(i / n, i % n)).collect();
            assert_ne!(layout, boxes, "{shape}");
        }
    }
}
