//! Finite automata given as data (sigh's `NFA` and `Regex` constraints): an [`Nfa`] over the
//! digits (0-based indices) and one more symbol, the break between a line's segments. The lowering
//! reads it as an [`Automaton`] over a line ([`NfaLine`], unrolled like every line); the checker runs
//! it on its own, on sets of states ([`Nfa::accepts`]).

use crate::automaton::Automaton;

/// A nondeterministic finite automaton without ε-moves: its start states, accepting states and
/// transitions on symbols 0..=`digits` (symbol `digits` is the segment break).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Nfa {
    /// How messages name it (the regular expression, or the automaton's size).
    name: String,
    /// The digits it reads (symbols 0..digits; symbol `digits` is the break).
    digits: usize,
    /// Start states, ascending.
    starts: Vec<u32>,
    /// Per state, whether it accepts.
    accepting: Vec<bool>,
    /// Per state, per symbol (0..=digits), the states it moves to, ascending.
    next: Vec<Vec<Vec<u32>>>,
    /// How sigh's serialization wrote it (`NFA~…`, `Regex~…`), to write it back.
    source: Option<String>,
}

/// The most states an automaton may have (sigh's own bound on its compiled automata).
pub const MAX_STATES: usize = 1 << 12;

impl Nfa {
    /// An automaton of `states` states over `digits` digits: `starts`, `accepts` and the
    /// transitions (from, symbol, to), symbol `digits` being the segment break. Transitions on
    /// symbols past the break are dropped (they read nothing a grid holds).
    ///
    /// # Errors
    /// What is wrong: no states or too many, a state out of range.
    pub fn new(
        name: String,
        digits: usize,
        states: usize,
        starts: &[u32],
        accepts: &[u32],
        transitions: &[(u32, usize, u32)],
    ) -> Result<Nfa, &'static str> {
        if states == 0 || states > MAX_STATES {
            return Err("an automaton of 1 to 4096 states");
        }
        let ok = |s: u32| (s as usize) < states;
        if !starts.iter().chain(accepts).all(|&s| ok(s))
            || !transitions.iter().all(|&(a, _, b)| ok(a) && ok(b))
        {
            return Err("states of the automaton in range");
        }
        let mut next = vec![vec![Vec::new(); digits + 1]; states];
        for &(a, sym, b) in transitions.iter().filter(|t| t.1 <= digits) {
            next[a as usize][sym].push(b);
        }
        for row in &mut next {
            for to in row {
                to.sort_unstable();
                to.dedup();
            }
        }
        let mut accepting = vec![false; states];
        for &a in accepts {
            accepting[a as usize] = true;
        }
        let mut starts = starts.to_vec();
        starts.sort_unstable();
        starts.dedup();
        Ok(Nfa {
            name,
            digits,
            starts,
            accepting,
            next,
            source: None,
        })
    }

    /// The same automaton, remembering how sigh's serialization wrote it (type and argument,
    /// `Regex~KFteMS0z…`).
    pub fn with_source(self, source: String) -> Nfa {
        Nfa {
            source: Some(source),
            ..self
        }
    }

    /// How sigh's serialization wrote it, if it was read from there.
    pub fn source(&self) -> Option<&str> {
        self.source.as_deref()
    }

    /// How messages name it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The digits it reads.
    pub fn digits(&self) -> usize {
        self.digits
    }

    /// Its states.
    pub fn states(&self) -> usize {
        self.next.len()
    }

    /// Whether it accepts the segments (0-based digit indices), read one after another with the
    /// break symbol between them: a run over sets of states.
    pub fn accepts(&self, segments: &[Vec<u16>]) -> bool {
        let mut here = vec![false; self.states()];
        for &s in &self.starts {
            here[s as usize] = true;
        }
        let step = |here: &mut Vec<bool>, sym: usize| {
            let mut next = vec![false; here.len()];
            for (s, _) in here.iter().enumerate().filter(|(_, on)| **on) {
                for &t in self.next[s].get(sym).map_or(&[][..], Vec::as_slice) {
                    next[t as usize] = true;
                }
            }
            *here = next;
        };
        for (k, seg) in segments.iter().enumerate() {
            if k > 0 {
                step(&mut here, self.digits);
            }
            for &d in seg {
                step(&mut here, usize::from(d));
            }
        }
        here.iter()
            .zip(&self.accepting)
            .any(|(&on, &acc)| on && acc)
    }
}

/// An [`Nfa`] read along a line: the values of its cells as digit indices (less `base`), and after
/// the last cell of each segment but the last, the break symbol.
pub(crate) struct NfaLine<'a> {
    /// The automaton.
    pub nfa: &'a Nfa,
    /// Per position of the line, whether a segment ends there and another follows.
    pub breaks: Vec<bool>,
    /// The value of digit index 0.
    pub base: i32,
}

/// The state before the first cell.
const BEFORE: u32 = u32::MAX;

impl Automaton for NfaLine<'_> {
    type State = u32;

    fn start(&self) -> u32 {
        BEFORE
    }

    fn step(&self, s: &u32, i: usize, _: usize, value: i32, out: &mut Vec<u32>) {
        let Ok(d) = usize::try_from(value - self.base) else {
            return;
        };
        if d >= self.nfa.digits {
            return;
        }
        let from: &[u32] = if *s == BEFORE {
            &self.nfa.starts
        } else {
            std::slice::from_ref(s)
        };
        for &f in from {
            for &t in &self.nfa.next[f as usize][d] {
                if self.breaks.get(i).copied().unwrap_or(false) {
                    out.extend_from_slice(&self.nfa.next[t as usize][self.nfa.digits]);
                } else {
                    out.push(t);
                }
            }
        }
    }

    fn accepts(&self, s: &u32) -> bool {
        *s != BEFORE && self.nfa.accepting[*s as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::unroll;

    /// Even digits, then odd ones (digit index d is the value d + 1): `[2468]*[13579]*`.
    fn evens_then_odds() -> Nfa {
        let mut t = Vec::new();
        for d in 0..9 {
            let even = (d + 1) % 2 == 0;
            if even {
                t.push((0, d, 0));
            } else {
                t.push((0, d, 1));
                t.push((1, d, 1));
            }
        }
        Nfa::new("evens then odds".into(), 9, 2, &[0], &[0, 1], &t).unwrap()
    }

    #[test]
    fn the_unrolled_line_and_the_run_agree_on_every_word() {
        let nfa = evens_then_odds();
        let values: Vec<i32> = (1..=9).collect();
        for breaks in [vec![false; 3], vec![false, true, false]] {
            let line = NfaLine {
                nfa: &nfa,
                breaks: breaks.clone(),
                base: 1,
            };
            let g = unroll(&line, 3, &values).unwrap();
            let mut accepted = 0;
            for w in 0..729u32 {
                let word = [(w / 81) as u16, (w / 9 % 9) as u16, (w % 9) as u16];
                let segments: Vec<Vec<u16>> = if breaks[1] {
                    vec![word[..2].to_vec(), word[2..].to_vec()]
                } else {
                    vec![word.to_vec()]
                };
                let by_run = nfa.accepts(&segments);
                assert_eq!(g.accepts(&word), by_run, "{word:?} {breaks:?}");
                accepted += usize::from(by_run);
            }
            // No break symbol moves: a word across a break is never accepted.
            let expected = if breaks[1] {
                0
            } else {
                4 * 4 * 4 + 4 * 4 * 5 + 4 * 5 * 5 + 125
            };
            assert_eq!(accepted, expected);
        }
    }

    #[test]
    fn bad_automata_are_refused() {
        assert!(Nfa::new(String::new(), 9, 0, &[], &[], &[]).is_err());
        assert!(Nfa::new(String::new(), 9, 2, &[2], &[], &[]).is_err());
        assert!(Nfa::new(String::new(), 9, 2, &[0], &[1], &[(0, 3, 5)]).is_err());
        assert!(Nfa::new(String::new(), 9, MAX_STATES + 1, &[0], &[], &[]).is_err());
    }
}
