//! Candidate masks: one bit per digit (bit `d − 1` for digit `d`), as `u16`, `u32` or `u64` by grid size.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of digits as an unsigned integer, bit `i` for 0-based digit `i`.
///
/// Implemented for `u16` (N ≤ 16), `u32` (N ≤ 32) and `u64` (N ≤ 64), so that a state's candidate array
/// is as small as the grid allows.
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
    }

    #[test]
    fn masks_of_every_width() {
        check::<u16>();
        check::<u32>();
        check::<u64>();
    }
}
