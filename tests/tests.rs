//! End-to-end tests of the `sudoku` binary: one integration test binary, one module per group of commands.

mod human;
