//! sudoku-batch: solve huge files of 9x9 Sudoku puzzles and generate millions of boards, on all cores.
//!
//! The library owns all the work; the `sudoku` binary only parses arguments and maps outcomes to exit codes.
//!
//! ```
//! use sudoku_batch::{solver, Grid};
//!
//! let puzzle: Grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
//!     .parse()
//!     .unwrap();
//! let solved = solver::solve_unique(&puzzle).unwrap();
//! assert!(solved.solution.is_solution_of(&puzzle));
//! assert_eq!(
//!     solved.solution.to_line(),
//!     "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
//! );
//! ```

pub mod batch;
pub mod bench;
pub mod format;
pub mod generate;
pub mod grid;
pub mod human;
mod os;
pub mod output;
pub mod solver;
pub mod tools;

pub use grid::{Conflict, Grid, ParseError};
pub use solver::{count_solutions, solve, solve_unique, Count, SolveError, SolveStats, Solved};
