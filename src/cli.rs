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
}

impl Cli {
    /// The argument path as given, for messages.
    pub fn input_path(input: &str) -> PathBuf {
        PathBuf::from(input)
    }
}
