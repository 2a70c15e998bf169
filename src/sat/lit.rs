//! Our own variable and literal types, so that no solver's types are part of the public API (the
//! solver layer converts at its edge).
//!
//! The representation follows varisat's: a variable is a 0-based index, a literal its code
//! 2·index + (1 if negative), and DIMACS numbers are 1-based with a sign.

use std::fmt;
use std::ops::Not;

/// A Boolean variable: 0-based [`Var::index`], 1-based [`Var::to_dimacs`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(u32);

impl Var {
    /// The largest variable index: literal codes (2·index + 1) fit in a `u32` and DIMACS numbers in
    /// an `i32`, as external solvers expect.
    pub const MAX_INDEX: usize = (i32::MAX - 1) as usize;

    /// The variable of 0-based `index`, which must be at most [`Var::MAX_INDEX`] (as varisat's
    /// `Var::from_index`, this is checked in debug builds only: use [`Var::try_from_dimacs`] for
    /// numbers read from input).
    #[inline]
    pub fn from_index(index: usize) -> Var {
        debug_assert!(
            index <= Var::MAX_INDEX,
            "variable index {index} out of range"
        );
        Var(index as u32)
    }

    /// The variable of 1-based DIMACS number `number`.
    ///
    /// # Panics
    /// If `number` is not in `1..=Var::MAX_INDEX + 1` (see [`Var::try_from_dimacs`]).
    #[inline]
    pub fn from_dimacs(number: isize) -> Var {
        Var::try_from_dimacs(number)
            .unwrap_or_else(|| panic!("DIMACS variable {number} out of range"))
    }

    /// The variable of 1-based DIMACS number `number`, `None` if it is not in
    /// `1..=Var::MAX_INDEX + 1`.
    #[inline]
    pub fn try_from_dimacs(number: isize) -> Option<Var> {
        (1..=Var::MAX_INDEX as isize + 1)
            .contains(&number)
            .then(|| Var(number as u32 - 1))
    }

    /// The 0-based index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The 1-based DIMACS number.
    #[inline]
    pub fn to_dimacs(self) -> isize {
        self.0 as isize + 1
    }

    /// The positive literal of this variable.
    #[inline]
    pub fn positive(self) -> Lit {
        Lit(self.0 << 1)
    }

    /// The negative literal of this variable.
    #[inline]
    pub fn negative(self) -> Lit {
        Lit(self.0 << 1 | 1)
    }

    /// The literal of this variable with the given polarity (`true` = positive).
    #[inline]
    pub fn lit(self, positive: bool) -> Lit {
        Lit(self.0 << 1 | u32::from(!positive))
    }
}

/// A literal: a variable or its negation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(u32);

impl Lit {
    /// The literal of the variable of 0-based `index` (at most [`Var::MAX_INDEX`], see
    /// [`Var::from_index`]), positive if `positive`.
    #[inline]
    pub fn from_index(index: usize, positive: bool) -> Lit {
        Var::from_index(index).lit(positive)
    }

    /// The literal of DIMACS number `number` (negative = negated).
    ///
    /// # Panics
    /// If `number` is 0 or its variable is out of range (see [`Lit::try_from_dimacs`]).
    #[inline]
    pub fn from_dimacs(number: isize) -> Lit {
        Lit::try_from_dimacs(number)
            .unwrap_or_else(|| panic!("DIMACS literal {number} out of range"))
    }

    /// The literal of DIMACS number `number`, `None` for 0 or a variable out of range.
    #[inline]
    pub fn try_from_dimacs(number: isize) -> Option<Lit> {
        let var = Var::try_from_dimacs(number.checked_abs()?)?;
        Some(var.lit(number > 0))
    }

    /// The literal of code `code` = 2·index + (1 if negative), with the index at most
    /// [`Var::MAX_INDEX`] (see [`Var::from_index`]).
    #[inline]
    pub fn from_code(code: usize) -> Lit {
        debug_assert!(
            code >> 1 <= Var::MAX_INDEX,
            "literal code {code} out of range"
        );
        Lit(code as u32)
    }

    /// The code: 2·index + (1 if negative), dense from 0, for arrays indexed by literal.
    #[inline]
    pub fn code(self) -> usize {
        self.0 as usize
    }

    /// The variable.
    #[inline]
    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }

    /// The variable's 0-based index.
    #[inline]
    pub fn index(self) -> usize {
        (self.0 >> 1) as usize
    }

    /// Whether the literal is the variable itself.
    #[inline]
    pub fn is_positive(self) -> bool {
        self.0 & 1 == 0
    }

    /// Whether the literal is the variable's negation.
    #[inline]
    pub fn is_negative(self) -> bool {
        self.0 & 1 == 1
    }

    /// The DIMACS number (1-based, negative when negated).
    #[inline]
    pub fn to_dimacs(self) -> isize {
        let v = self.var().to_dimacs();
        if self.is_positive() { v } else { -v }
    }
}

impl Not for Lit {
    type Output = Lit;

    #[inline]
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Debug for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

impl fmt::Display for Lit {
    /// The DIMACS number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_and_negation() {
        let v = Var::from_dimacs(3);
        assert_eq!(v.index(), 2);
        assert_eq!(v.positive().code(), 4);
        assert_eq!(v.negative().code(), 5);
        assert_eq!(!v.positive(), v.negative());
        assert_eq!(Lit::from_dimacs(-3), v.negative());
        assert_eq!(Lit::from_dimacs(-3).to_dimacs(), -3);
        assert_eq!(Lit::from_index(2, true).to_dimacs(), 3);
        assert_eq!(Lit::from_code(5), v.negative());
        assert!(v.lit(false).is_negative() && v.lit(true).is_positive());
        assert_eq!(
            format!("{:?}", [Lit::from_dimacs(-7), Lit::from_dimacs(2)]),
            "[-7, 2]"
        );
    }

    #[test]
    fn out_of_range_is_none_not_a_panic() {
        assert_eq!(Lit::try_from_dimacs(0), None);
        assert_eq!(Lit::try_from_dimacs(isize::MIN), None);
        assert_eq!(Lit::try_from_dimacs(i32::MAX as isize + 1), None);
        assert_eq!(
            Lit::try_from_dimacs(-(i32::MAX as isize)),
            Some(Var::from_index(Var::MAX_INDEX).negative())
        );
        assert_eq!(Var::try_from_dimacs(-1), None);
    }
}
