//! Exit codes: one ordered type, combined over a run with `max`, so precedence is written once.

use std::process::ExitCode;

/// What a record (or a whole run) means for the exit status. Later variants take precedence: a run's
/// code is the maximum over its records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Exit {
    /// 0: every puzzle answered as asked.
    #[default]
    Success,
    /// 1: some puzzle has no solution, several when counting, an invalid solution (`verify`), or hit a
    /// limit.
    Unsolved,
    /// 2: bad input or usage.
    BadInput,
    /// 3: the two backends disagree.
    Disagree,
    /// 4: a backend returned a grid that the independent verifier rejects (a bug in satdoku).
    Internal,
}

impl Exit {
    /// The process exit status.
    pub fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::Unsolved => 1,
            Exit::BadInput => 2,
            Exit::Disagree => 3,
            Exit::Internal => 4,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_is_the_order() {
        let all = [
            Exit::Success,
            Exit::Unsolved,
            Exit::BadInput,
            Exit::Disagree,
            Exit::Internal,
        ];
        for (i, a) in all.iter().enumerate() {
            assert_eq!(a.code() as usize, i);
            for b in &all[i..] {
                assert_eq!((*a).max(*b), *b);
            }
        }
        assert_eq!(Exit::default(), Exit::Success);
    }
}
