//! Exit codes and their precedence: 3 backends disagree, then 2 bad input or usage, then 1 no solution /
//! not unique / limit hit, else 0.

use satdoku::Status;

/// What a run has seen so far, for the exit code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Some input could not be read or parsed.
    pub bad_input: bool,
    /// Some puzzle has no solution, several when uniqueness was asked, or hit a limit.
    pub unsolved: bool,
    /// The two backends disagreed on some puzzle.
    pub disagree: bool,
}

impl Tally {
    /// Records a puzzle's status; `counting` is whether solutions were counted (so several is a failure).
    pub fn status(&mut self, status: Status, counting: bool) {
        match status {
            Status::None | Status::Unknown => self.unsolved = true,
            Status::Multiple if counting => self.unsolved = true,
            _ => {}
        }
    }

    /// The exit code: 3 if backends disagreed; else 2 if any input was bad; else 1 if some puzzle was
    /// not solved (or not unique when counting); else 0.
    pub fn code(&self) -> u8 {
        if self.disagree {
            3
        } else if self.bad_input {
            2
        } else if self.unsolved {
            1
        } else {
            0
        }
    }
}

/// Exit code for a usage error (bad flag value), as for bad input.
pub const USAGE: u8 = 2;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence() {
        let mut t = Tally::default();
        assert_eq!(t.code(), 0);
        t.status(Status::Solved, false);
        t.status(Status::Unique, true);
        assert_eq!(t.code(), 0);
        t.status(Status::Multiple, false);
        assert_eq!(t.code(), 0, "several solutions are fine when not counting");
        t.status(Status::Multiple, true);
        assert_eq!(t.code(), 1);
        t.bad_input = true;
        assert_eq!(t.code(), 2);
        t.disagree = true;
        assert_eq!(t.code(), 3);
        let mut u = Tally::default();
        u.status(Status::Unknown, false);
        assert_eq!(u.code(), 1);
        let mut v = Tally::default();
        v.status(Status::None, false);
        assert_eq!(v.code(), 1);
    }
}
