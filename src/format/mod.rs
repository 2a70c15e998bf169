//! Reading and writing puzzles: line, block, letters, ints and CSV formats, symbol alphabets.
