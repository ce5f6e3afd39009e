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
    /// Explain how a person solves a puzzle: every step names its technique and the cells and digits it places
    /// or eliminates; where no technique applies, the guess (cell, digit, guess level) and any backtracking.
    Explain {
        /// An 81-character puzzle (`0` or `.` for blanks), or a file holding one puzzle (line or 9-line grid).
        puzzle: String,
        /// Show the candidate grid at the start and after every step.
        #[arg(long)]
        candidates: bool,
    },
    /// Rate every puzzle of the files on all cores: level (simple, easy, intermediate, expert), score, guesses
    /// and hardest technique, one line per puzzle in input order; a histogram on stderr at the end.
    Rate {
        /// Files of 81-character puzzle lines (`-` for standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Worker threads (default: all cores).
        #[arg(short = 'j', long)]
        jobs: Option<usize>,
        /// Write to this file (whole or not at all) instead of standard output.
        #[arg(short = 'o', long)]
        output: Option<PathBuf>,
    },
    /// Generate puzzles with exactly one solution, minimal unless --clues asks otherwise, reproducible from
    /// --seed whatever the thread count.
    GeneratePuzzles {
        /// How many puzzles.
        #[arg(long)]
        puzzles: u64,
        /// Exactly this many clues (17-81; the puzzles are then not necessarily minimal).
        #[arg(long, conflicts_with = "difficulty")]
        clues: Option<usize>,
        /// Only minimal puzzles rated at this level.
        #[arg(long, value_parser = level_parser())]
        difficulty: Option<sudoku_batch::human::Level>,
        /// Cells removed together so that the clues keep this symmetry.
        #[arg(long, default_value = "none", value_parser = symmetry_parser())]
        symmetry: sudoku_batch::human::Symmetry,
        /// Seed of the run (default: from the clock, printed on stderr).
        #[arg(long)]
        seed: Option<u64>,
        /// Worker threads (default: all cores).
        #[arg(short = 'j', long)]
        jobs: Option<usize>,
        /// Write to this file (whole or not at all) instead of standard output.
        #[arg(short = 'o', long)]
        output: Option<PathBuf>,
    },
}

fn level_parser() -> impl clap::builder::TypedValueParser<Value = sudoku_batch::human::Level> {
    use clap::builder::TypedValueParser;
    use sudoku_batch::human::Level;
    clap::builder::PossibleValuesParser::new(Level::ALL.map(|l| l.name()))
        .map(|s| s.parse::<Level>().expect("a listed level"))
}

fn symmetry_parser() -> impl clap::builder::TypedValueParser<Value = sudoku_batch::human::Symmetry>
{
    use clap::builder::TypedValueParser;
    use sudoku_batch::human::Symmetry;
    clap::builder::PossibleValuesParser::new(Symmetry::ALL.map(|s| s.name()))
        .map(|s| s.parse::<Symmetry>().expect("a listed symmetry"))
}

impl Cli {
    /// The argument path as given, for messages.
    pub fn input_path(input: &str) -> PathBuf {
        PathBuf::from(input)
    }
}
