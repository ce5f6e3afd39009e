//! `sudoku bench`: its arguments and its run (time the solver in process, one table row per file).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use sudoku_batch::bench::{self, BenchConfig, BenchReport, Dataset};
use sudoku_batch::Engine;

use crate::console;

/// The arguments of `sudoku bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle files to time (any format the batch subcommands read), one table row each.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Seconds of timed passes per file.
    #[arg(long, default_value_t = 3.0, allow_negative_numbers = true)]
    pub seconds: f64,
    /// Time the uniqueness check (search stopped at 2 solutions) instead of the first solution.
    #[arg(long)]
    pub unique: bool,
    /// The solver engine to time (all find the same counts, and the same solution to a puzzle that has one).
    #[arg(long, value_enum, default_value_t = EngineArg::Bitmask)]
    pub engine: EngineArg,
}

/// `--engine` values of `bench`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// Per digit and band, a bit mask of the cells where it may go; guesses on cells (the default engine).
    Bitmask,
    /// Per box, 16 lanes of digit sets, and per band the digits' placement patterns; guesses split patterns.
    Vector,
    /// Chosen per search: the bitmask engine, handing a puzzle with many open cells over to the vector engine
    /// when 1000 solutions or more are counted on a processor with AVX-512 (what `solve --unique`, `count` and
    /// `check` run on).
    Auto,
}

impl EngineArg {
    /// The library's engine.
    fn engine(self) -> Engine {
        match self {
            EngineArg::Bitmask => Engine::Bitmask,
            EngineArg::Vector => Engine::Vector,
            EngineArg::Auto => Engine::Auto,
        }
    }
}

/// `sudoku bench`: one table row per file; unreadable files and bad records are reported, the others still run. 2
/// when a file could not be read, else 1 when a record was bad or a file had no puzzle, else 0.
pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let BenchArgs {
        files,
        seconds,
        unique,
        engine,
    } = args;
    let (seconds, unique) = (*seconds, *unique);
    anyhow::ensure!(
        seconds.is_finite() && seconds >= 0.0,
        "--seconds must be a number >= 0, got {seconds}"
    );
    let config = BenchConfig {
        seconds,
        unique,
        engine: engine.engine(),
    };
    let mut failed = false;
    let mut unreadable = false;
    let mut out = console::Stdout::open()?;
    // The table's head is written before its first row: nothing goes before an error about the first file.
    let mut head = true;
    for path in files {
        let name = console::escaped(path);
        let data = match Dataset::load(path) {
            Ok(d) => d,
            Err(e) => {
                say!("sudoku: {name}: {e}");
                unreadable = true;
                continue;
            }
        };
        for bad in data.bad.iter().take(5) {
            say!("sudoku: {name}:{}: {}", bad.line, bad.reason);
        }
        if data.bad_records > 5 {
            say!("sudoku: {name}: {} more bad records", data.bad_records - 5);
        }
        failed |= data.bad_records > 0;
        if data.is_empty() {
            say!("sudoku: {name}: no puzzles to time");
            failed = true;
            continue;
        }
        if std::mem::take(&mut head) {
            out.line(&format!(
                "{} search{}, {seconds} s of timed passes per file, parse + solve per puzzle, 1 thread",
                if unique {
                    "uniqueness (limit 2)"
                } else {
                    "first-solution"
                },
                match engine {
                    EngineArg::Bitmask => "",
                    EngineArg::Vector => " (vector engine)",
                    EngineArg::Auto => " (engine chosen per puzzle)",
                }
            ))?;
            out.line(&BenchReport::header())?;
        }
        out.line(&bench::run_bench(&data, &config).to_string())?;
    }
    out.finish()?;
    Ok(if unreadable {
        ExitCode::from(2)
    } else {
        ExitCode::from(u8::from(failed))
    })
}
