//! The one integration-test binary: drives the `sudoku` command end to end.

mod generate;
