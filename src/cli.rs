//! Command-line arguments (clap derive): the subcommands and the classic `-c N` / `-s FILE` form.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Solve huge files of 9x9 Sudoku puzzles and generate millions of boards, on all cores.
#[derive(Debug, Parser)]
#[command(name = "sudoku", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve one puzzle given as an argument, or every puzzle in a file (one output line per record, in order).
    Solve {
        /// An 81-character puzzle (`0` or `.` for blanks), or a file of such lines.
        input: String,
        /// Require a unique solution: puzzles with several solutions are reported as failures.
        #[arg(long)]
        unique: bool,
    },
    /// Time the solver in process on puzzle files (one 81-character puzzle per line; `#` lines skipped): a warm-up
    /// pass, then repeated passes for `--seconds`; prints puzzles/s, µs/puzzle and guessing statistics.
    Bench {
        /// Puzzle files to time, one table row each.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Seconds of timed passes per file.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Time the uniqueness check (search stopped at 2 solutions) instead of the first solution.
        #[arg(long)]
        unique: bool,
    },
}

impl Cli {
    /// The argument path as given, for messages.
    pub fn input_path(input: &str) -> PathBuf {
        PathBuf::from(input)
    }
}
