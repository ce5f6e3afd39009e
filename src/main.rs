//! The `sudoku` binary: parses arguments, runs the library, maps the outcome to an exit code
//! (0 all fine, 1 some records failed, 2 usage or fatal error).

mod cli;

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
        cli::Command::Bench {
            files,
            seconds,
            unique,
        } => bench(&files, seconds, unique),
    }
}

/// `sudoku bench`: one table row per file; unreadable files and bad records are reported, the others still run.
fn bench(files: &[std::path::PathBuf], seconds: f64, unique: bool) -> anyhow::Result<ExitCode> {
    use sudoku_batch::bench::{self, BenchConfig, BenchReport, Dataset};
    anyhow::ensure!(
        seconds.is_finite() && seconds >= 0.0,
        "--seconds must be a number >= 0, got {seconds}"
    );
    let config = BenchConfig { seconds, unique };
    let mut failed = false;
    println!(
        "{} search, {seconds} s of timed passes per file, parse + solve per puzzle, 1 thread",
        if unique {
            "uniqueness (limit 2)"
        } else {
            "first-solution"
        }
    );
    println!("{}", BenchReport::header());
    for path in files {
        let data = match Dataset::load(path) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("sudoku: {}: {e}", path.display());
                failed = true;
                continue;
            }
        };
        for bad in data.bad.iter().take(5) {
            eprintln!("sudoku: {}:{}: {}", path.display(), bad.line, bad.reason);
        }
        if data.bad.len() > 5 {
            eprintln!(
                "sudoku: {}: {} more bad records",
                path.display(),
                data.bad.len() - 5
            );
        }
        failed |= !data.bad.is_empty();
        println!("{}", bench::run(&data, &config));
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
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
