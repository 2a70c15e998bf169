//! Candidate masks: one bit per digit (bit `d − 1` for digit `d`), as `u16`, `u32` or `u64` by grid size,
//! or [`Wide`] (several `u64` words) above 64.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of digits as an unsigned integer, bit `i` for 0-based digit `i`.
///
/// Implemented for `u16` (N ≤ 16), `u32` (N ≤ 32), `u64` (N ≤ 64) and [`Wide`] (N ≤ 64·W), so that a
/// state's candidate array is as small as the grid allows.
pub(crate) trait Mask:
    Copy
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const ZERO: Self;
    /// The number of bits: the largest N this mask can hold.
    const BITS: u32;

    /// Digits `0..n` (all of them for `n == BITS`).
    fn all(n: usize) -> Self;

    /// The set holding only 0-based digit `i` (`i < BITS`).
    fn bit(i: u32) -> Self;

    /// The number of digits in the set.
    fn count(self) -> u32;

    /// The smallest digit in a non-empty set.
    fn lowest(self) -> u32;

    /// The set without its smallest digit.
    fn without_lowest(self) -> Self;

    /// The digits below 64 as a `u64` (bit `i` for 0-based digit `i`).
    fn low_bits(self) -> u64;

    /// The set of the digits of `bits` that fit this mask.
    fn from_low_bits(bits: u64) -> Self;
    /// Whether the set holds 0-based digit `i` (a wide set reads one word of `self` only).
    #[inline(always)]
    fn has(&self, i: u32) -> bool {
        *self & Self::bit(i) != Self::ZERO
    }

    /// Whether the set holds at most one digit.
    fn at_most_one(self) -> bool {
        self.without_lowest() == Self::ZERO
    }
}

macro_rules! impl_mask {
    ($t:ty) => {
        impl Mask for $t {
            const ZERO: $t = 0;
            const BITS: u32 = <$t>::BITS;

            #[inline(always)]
            fn all(n: usize) -> $t {
                if n as u32 >= <$t>::BITS {
                    <$t>::MAX
                } else {
                    ((1 as $t) << n) - 1
                }
            }

            #[inline(always)]
            fn bit(i: u32) -> $t {
                (1 as $t) << i
            }

            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }

            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }

            #[inline(always)]
            fn low_bits(self) -> u64 {
                self as u64
            }

            #[inline(always)]
            fn from_low_bits(bits: u64) -> $t {
                bits as $t
            }

            #[inline(always)]
            fn without_lowest(self) -> $t {
                self & self.wrapping_sub(1)
            }
        }
    };
}

impl_mask!(u16);
impl_mask!(u32);
impl_mask!(u64);

/// A mask of `W` words, bit `i` of word `i / 64` for 0-based digit `i`: for grids above 64x64.
#[derive(Clone, Copy, Eq, Debug)]
pub(crate) struct Wide<const W: usize>([u64; W]);

impl<const W: usize> PartialEq for Wide<W> {
    /// Without a branch per word (the derived comparison calls `memcmp` for 7 words).
    #[inline(always)]
    fn eq(&self, other: &Wide<W>) -> bool {
        (0..W).fold(0, |acc, i| acc | (self.0[i] ^ other.0[i])) == 0
    }
}

macro_rules! wide_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const W: usize> $tr for Wide<W> {
            type Output = Wide<W>;
            #[inline(always)]
            fn $f(self, o: Wide<W>) -> Wide<W> {
                Wide(std::array::from_fn(|i| self.0[i] $op o.0[i]))
            }
        }
        impl<const W: usize> $tra for Wide<W> {
            #[inline(always)]
            fn $fa(&mut self, o: Wide<W>) {
                for i in 0..W {
                    self.0[i] = self.0[i] $op o.0[i];
                }
            }
        }
    };
}

wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<const W: usize> Not for Wide<W> {
    type Output = Wide<W>;
    #[inline(always)]
    fn not(self) -> Wide<W> {
        Wide(self.0.map(|w| !w))
    }
}

impl<const W: usize> Mask for Wide<W> {
    const ZERO: Wide<W> = Wide([0; W]);
    const BITS: u32 = 64 * W as u32;

    #[inline(always)]
    fn all(n: usize) -> Wide<W> {
        Wide(std::array::from_fn(|i| u64::all(n.saturating_sub(64 * i))))
    }

    #[inline(always)]
    fn bit(i: u32) -> Wide<W> {
        let mut w = [0; W];
        w[(i / 64) as usize] = 1 << (i % 64);
        Wide(w)
    }

    #[inline(always)]
    fn has(&self, i: u32) -> bool {
        self.0[(i / 64) as usize] >> (i % 64) & 1 != 0
    }

    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline(always)]
    fn lowest(self) -> u32 {
        let i = self.0.iter().position(|&w| w != 0).unwrap_or(W - 1);
        64 * i as u32 + self.0[i].trailing_zeros()
    }

    #[inline(always)]
    fn low_bits(self) -> u64 {
        self.0[0]
    }

    #[inline(always)]
    fn from_low_bits(bits: u64) -> Wide<W> {
        let mut w = [0; W];
        w[0] = bits;
        Wide(w)
    }

    #[inline(always)]
    fn without_lowest(self) -> Wide<W> {
        let mut w = self.0;
        if let Some(x) = w.iter_mut().find(|x| **x != 0) {
            *x &= *x - 1;
        }
        Wide(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<M: Mask>() {
        let bits = M::BITS as usize;
        assert_eq!(M::all(bits).count(), M::BITS);
        assert_eq!(M::all(9).count(), 9);
        assert_eq!(M::all(0), M::ZERO);
        let top = M::bit(M::BITS - 1);
        assert_eq!(top.lowest(), M::BITS - 1);
        assert!(top.at_most_one());
        assert!(M::ZERO.at_most_one());
        let two = M::bit(3) | top;
        assert!(!two.at_most_one());
        assert_eq!(two.without_lowest(), top);
        assert_eq!(two.lowest(), 3);
        assert_eq!(M::bit(5).count(), 1);
        for i in 0..M::BITS {
            assert_eq!(two.has(i), i == 3 || i == M::BITS - 1, "{i}");
        }
    }

    #[test]
    fn masks_of_every_width() {
        check::<u16>();
        check::<u32>();
        check::<u64>();
        check::<Wide<2>>();
        check::<Wide<7>>();
        // Across words: all(n), the lowest past an empty word, removing it.
        let all = Wide::<7>::all(400);
        assert_eq!(all.count(), 400);
        assert_eq!(Wide::<2>::all(65).count(), 65);
        let m = Wide::<4>::bit(200) | Wide::<4>::bit(130);
        assert_eq!(m.lowest(), 130);
        assert_eq!(m.without_lowest(), Wide::<4>::bit(200));
        assert_eq!((m & !Wide::<4>::bit(130)).lowest(), 200);
        assert_eq!((m ^ m), Wide::ZERO);
    }
}
