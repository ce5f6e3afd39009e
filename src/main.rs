//! The `sudoku` binary: parses arguments, runs the library, maps the outcome to an exit code
//! (0 all fine, 1 some records failed, 2 usage or fatal error).

mod cli;
mod human_cli;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use sudoku_batch::{solver, Grid};

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("sudoku: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: cli::Cli) -> anyhow::Result<ExitCode> {
    match args.command {
        cli::Command::Solve { input, unique } => solve_simple(&input, unique),
        cli::Command::Explain { puzzle, candidates } => human_cli::explain(&puzzle, candidates),
        cli::Command::Rate {
            files,
            jobs,
            output,
        } => human_cli::rate(&files, jobs, output.as_deref()),
        cli::Command::GeneratePuzzles {
            puzzles,
            clues,
            difficulty,
            symmetry,
            seed,
            jobs,
            output,
        } => human_cli::generate_puzzles(
            puzzles,
            clues,
            difficulty,
            symmetry,
            seed,
            jobs,
            output.as_deref(),
        ),
    }
}

/// Sequential solving: a puzzle argument, or a file of 81-character lines.
fn solve_simple(input: &str, unique: bool) -> anyhow::Result<ExitCode> {
    let path = cli::Cli::input_path(input);
    let is_puzzle = input.len() >= 81 && !path.exists();
    let text = if is_puzzle {
        input.as_bytes().to_vec()
    } else {
        std::fs::read(&path).map_err(|e| anyhow::anyhow!("{input}: {e}"))?
    };
    let name = if is_puzzle { "<argument>" } else { input };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut failed = false;
    for (n, line) in text.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.trim_ascii().is_empty() || line.starts_with(b"#") {
            continue;
        }
        let result = Grid::parse_line(line)
            .map_err(|e| e.to_string())
            .and_then(|g| {
                if unique {
                    solver::solve_unique(&g)
                } else {
                    solver::solve(&g)
                }
                .map_err(|e| e.to_string())
            });
        match result {
            Ok(s) => writeln!(out, "{}", s.solution)?,
            Err(reason) => {
                failed = true;
                writeln!(out, "error: {reason}")?;
                eprintln!("sudoku: {name}:{}: {reason}", n + 1);
            }
        }
    }
    out.flush()?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
