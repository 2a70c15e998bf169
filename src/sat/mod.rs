//! The SAT backend: CNF encodings of the unit model, solved with `varisat`; DIMACS out, models in.
