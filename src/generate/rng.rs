//! The generator's own seeded random numbers: SplitMix64, and the seed of each puzzle of a run.

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA
/// 2014): 64 bits of state, one addition and two multiply-xorshift steps per number; the same seed
/// gives the same numbers on every platform.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator started at `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// A number in `0..n` (`n > 0`; the modulo bias is below 2⁻⁵⁰ for the sizes used here).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn between(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// Shuffles `v` in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// SplitMix64's output function: a bijection of 64-bit words that scatters nearby inputs.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of puzzle `index` of a run seeded with `seed`, attempt `attempt`: a function of the three
/// numbers alone, so that a puzzle does not depend on which thread makes it, nor on the puzzles
/// made before it.
pub(crate) fn derive(seed: u64, index: u64, attempt: u64) -> u64 {
    mix(mix(mix(seed) ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15)) ^ attempt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_values() {
        // The first outputs of SplitMix64 from seed 1234567 (Vigna's reference implementation).
        let mut r = Rng::new(1234567);
        assert_eq!(r.next_u64(), 6457827717110365317);
        assert_eq!(r.next_u64(), 3203168211198807973);
    }

    #[test]
    fn derived_seeds_differ_by_index_and_attempt() {
        let mut seen = std::collections::HashSet::new();
        for index in 0..50 {
            for attempt in 0..20 {
                assert!(seen.insert(derive(7, index, attempt)));
            }
        }
        assert_eq!(derive(7, 3, 1), derive(7, 3, 1));
        assert_ne!(derive(7, 3, 1), derive(8, 3, 1));
    }

    #[test]
    fn shuffles_are_permutations() {
        let mut r = Rng::new(1);
        let mut v: Vec<usize> = (0..100).collect();
        r.shuffle(&mut v);
        assert_ne!(v, (0..100).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..100).collect::<Vec<_>>());
        assert!((0..1000).all(|_| (3..=5).contains(&r.between(3, 5))));
    }
}
